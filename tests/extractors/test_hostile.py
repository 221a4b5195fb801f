"""Hostile inputs cost work linear in their size: floods that would make a careless regex
backtrack or a loop rescan.

No test times anything: work is counted in function calls (tests/conftest.py), four times the
flood at most about four times the calls. CPU-time ratios against a benign text, which also
catch backtracking inside one regex call, are printed by benchmarks/run_all.py.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from groundcheck import audit
from groundcheck.extractors import extract

SIZE = 400_000

FLOODS = {
    "doi-prefix flood": "10.",  # regression: was quadratic before the registrant was bounded
    "doi sub-prefix flood": "10.1000.",
    "digit run": "9",
    "slash flood": "/",
    "legacy tails": "hep-th/",
    "dot-digit flood": ".1234",
    "arxiv prefixes": "arXiv:",
    "unclosed brackets": "10.1000/(",
    "entity-like run": "10.1000/&a",
    "hyphen line breaks": "1-\n",
    "zero-width flood": "2\u200b",
    "fullwidth digits": "２０．",
    "spaces": " ",  # regression guard: a leading [ \t]* before \n would be quadratic here
    "spaces before line breaks": " " * 50 + "\n",
    "entity-like": "&#",
    "percent signs": "%2",
    "JSON escapes": "\\u00",
    "numbered lines": "2005.\n1",
    "dots and newlines": ".\n",
}


@pytest.mark.parametrize("unit", FLOODS.values(), ids=FLOODS.keys())
def test_flood_is_linear(unit: str, linear: Callable[..., None]) -> None:
    """Each flood is extracted and audited with work linear in its size."""
    text = unit * (SIZE // len(unit))

    def work(t: str) -> None:
        extract(t)
        audit(t[:100_000], [{"tool": "t", "output": t[:100_000]}])

    linear(work, text)


def test_arxiv_prefix_flood_is_one_pass(linear: Callable[..., None]) -> None:
    """Regression: every 'arXiv' hint scanned its own window for short ids (12x a benign
    text). Counted in function calls here; the CPU-time ratio is in benchmarks/run_all.py."""
    linear(extract, "arXiv:" * 50_000)
