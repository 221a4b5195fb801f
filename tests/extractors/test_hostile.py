"""Hostile inputs finish in linear time: floods that would make a careless regex backtrack.

The limits are deliberately generous (seconds for 400 kB, where a quadratic pattern takes
minutes); exact ratios against a benign text live in benchmarks/.
"""

from __future__ import annotations

import time

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
def test_flood_is_linear(unit: str) -> None:
    """Each flood is extracted and audited in bounded time, never hanging."""
    text = unit * (SIZE // len(unit))
    t0 = time.perf_counter()
    extract(text)
    audit(text[:100_000], [{"tool": "t", "output": text[:100_000]}])
    assert time.perf_counter() - t0 < 10.0


def test_arxiv_prefix_flood_is_not_slower_than_a_benign_text() -> None:
    """Regression: every 'arXiv' hint scanned its own window for short ids (12x a benign text)."""
    import time

    flood = "arXiv:" * 50_000
    benign = "The model was trained on 12 datasets and evaluated twice. " * 5_000
    t0 = time.perf_counter()
    extract(flood)
    flood_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    extract(benign)
    benign_s = time.perf_counter() - t0
    assert flood_s < 10 * benign_s + 0.5
