"""The code regions found the faster ways are those of the frozen v1 (``oracle/mdcode_v1``):
fence lines matched where ``` or ~~~ is (not by a multi-line ``^`` search), indented lines
found from their line breaks and outside the fenced blocks only, backtick runs searched
between the blocks only."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import hints, mdcode
from oracles import load_oracle

OLD = load_oracle(__file__, "mdcode_v1")

_PIECES = [
    "```", "````", "~~~", "~~~~", "```bibtex", "```python", "``` x ```", "`", "``", "x`y`z",
    "\n", "\n\n", "\n \n", "    ", "   ", "  ", " ", "\t", "  \t", "   \t", "- ", "1. ", "12) ",
    "@article{k,", "code", "https://a.org/x", "para", "\u00e9", "\r\n",
]  # fmt: skip
_MARKDOWN = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.text(" \n\t`~a@-1.", max_size=4)), max_size=60
).map("".join)


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    hints._cache = ()
    yield
    hints._cache = ()


@settings(max_examples=500, deadline=None)
@given(_MARKDOWN, st.sampled_from(["", "a" * 5000, "\n" * 5000, "word\n" * 1000]))
def test_code_regions_are_those_of_v1(core: str, pad: str) -> None:
    for text in (core, pad + core, core + pad + core):
        hints._cache = ()
        assert mdcode.CodeRegions.of(text).regions == OLD.code_regions(text)


@settings(max_examples=300, deadline=None)
@given(_MARKDOWN)
def test_fence_lines_are_the_multiline_search_ones(text: str) -> None:
    want = [(m.span(), m.groups()) for m in mdcode._FENCE.finditer(text)]
    assert [(m.span(), m.groups()) for m in mdcode._fence_lines(text)] == want


@settings(max_examples=300, deadline=None)
@given(_MARKDOWN)
def test_indented_starts_are_the_multiline_search_ones_outside_fences(text: str) -> None:
    fenced = mdcode._fenced(text)
    want = [
        m.start()
        for m in mdcode._INDENTED.finditer(text)
        if not any(s <= m.start() < e for s, e, _ in fenced)
    ]
    assert list(mdcode._indented_starts(text, fenced)) == want


@settings(max_examples=300, deadline=None)
@given(st.text("`a\n", max_size=40))
def test_the_backtick_runs_are_the_old_patterns(text: str) -> None:
    old = re.compile(r"`+")
    assert [m.span() for m in mdcode._TICKS.finditer(text)] == [
        m.span() for m in old.finditer(text)
    ]
