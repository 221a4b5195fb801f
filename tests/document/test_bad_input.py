"""Bad input (issue 11): no crash, the same verdict every run, and cost linear in the input.

Linearity is checked by *operation counts*, never by timing: the number of Python function
calls (and C calls from Python, such as one regex search) an audit makes is counted with
``sys.setprofile`` at a size and at four times that size. Linear work counts about 4x;
quadratic work would count about 16x. (Work *inside* one regex call is not counted:
``benchmarks/bench_document.py`` times the same inputs at 1x, 2x and 4x for that.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from groundcheck import audit
from groundcheck.document import Document, build_works
from groundcheck.extractors import extract

CALLS: list[dict[str, Any]] = [
    {"tool": "search", "id": "c1", "output": "2005.11401 Retrieval-Augmented Generation"}
]


def _reference_list(n: int) -> str:
    body = "".join(
        f"[{i}] Lewis, P., & Perez, E. ({2000 + i % 20}). Title number {i} about retrieval "
        f"models. NeurIPS. arXiv:20{i % 12 + 1:02d}.{i:05d}\n"
        for i in range(1, n + 1)
    )
    return f"See [1], [{n}] and [{n + 3}] (Lewis, 2001).\n\n## References\n\n{body}"


BAD: dict[str, Callable[[int], str]] = {
    "a reference list of n entries": lambda n: _reference_list(n // 100),
    "one long paragraph": lambda n: " ".join(
        ["word", "[1", "(", "“x", "*a", "Lewis et al. (2020)", "`", "[2]", "|", "[^3]"][i % 10]
        for i in range(n // 5)
    ),
    "unbalanced brackets": lambda n: "[(" * (n // 2),
    "a [1 flood": lambda n: "[1" * (n // 2),
    "a heading line of spaces": lambda n: "#" + " " * n + "\nText [1].\n",
    "unclosed quotes": lambda n: "“" * n,
    "backtick runs": lambda n: "` `` ``` " * (n // 9),
    "table rows": lambda n: "| Title of a paper here | 2020 | [1] |\n" * (n // 38),
    "nested items": lambda n: "".join(
        "  " * (i % 5) + "- Lewis, P. (2020). Item title here. NeurIPS.\n" for i in range(n // 48)
    ),
    "author-year parentheses": lambda n: "(Lewis et al., 2020; Perez, 2021) " * (n // 34),
}


def _operations(func: Callable[[], object]) -> int:
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        func()
    finally:
        sys.setprofile(None)
    return count


def _document_pass(text: str) -> Callable[[], object]:
    citations = extract(text)
    ids = [(c.start, c.end) for c in citations if not c.is_title]
    return lambda: build_works(Document(text, ids), citations)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_costs_linear_operations(name: str) -> None:
    """Parsing and grouping 4x the input costs at most ~5x the operations (quadratic: 16x)."""
    small, large = BAD[name](20_000), BAD[name](80_000)
    ops_small = _operations(_document_pass(small))
    ops_large = _operations(_document_pass(large))
    assert ops_large <= 5.5 * max(ops_small, 50), (name, ops_small, ops_large)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_audits_to_the_same_verdict_every_run(name: str) -> None:
    text = BAD[name](20_000)
    first = audit(text, CALLS).to_json()
    assert audit(text, CALLS).to_json() == first


def test_a_long_reference_list_is_judged_entry_by_entry() -> None:
    """1,500 entries: each is a work, the marker past the end dangles, the author–year
    citation resolves to its entry, and nothing else is reported."""
    verdict = audit(_reference_list(1500), CALLS)
    assert len(verdict.works) == 1500
    codes = [f.code for f in verdict.findings]
    assert codes.count("fabricated-id") == 1500
    assert [f.citation.raw for f in verdict.findings if f.code == "dangling-marker"] == ["[1503]"]
    assert "unverified-author-year" not in codes  # (Lewis, 2001) is entry [1]
    # With 2,000 entries, "[2003]" is a year, not the marker of a missing entry.
    assert "dangling-marker" not in [f.code for f in audit(_reference_list(2000), CALLS).findings]


def test_a_heading_of_spaces_and_empty_markup_are_harmless() -> None:
    for text in ("#" + " " * 1000, "##\n\n###   \n", "[]", "[^]", "【】", "()", "``", "|\n|"):
        verdict = audit(text, CALLS)
        assert [f.code for f in verdict.findings] == [], text
