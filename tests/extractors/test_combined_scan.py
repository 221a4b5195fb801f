"""The one combined scan of a long text finds, for every shared needle, the offsets that a
``str.find`` loop on the lower-cased copy finds (the scan it replaced, one per needle), and
every built-in family reads only those.

The scan reads the text in pieces (``hints._CHUNK`` characters); the tests shrink the piece
so that needles straddle many piece boundaries in texts of a few thousand characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import doi, hints
from groundcheck.extractors.hints import (
    SHARED_NEEDLES,
    _find_all,
    _lower,
    hints_in,
    needle_near,
    needle_positions,
)
from groundcheck.extractors.pipeline import find_mentions, resolve_extractors

_FRAGMENTS = [
    *SHARED_NEEDLES,
    *(n.upper() for n in SHARED_NEEDLES),
    "lanlanl", "corpusbn", "titleitle", "papaper", "pmcid", "PMID:", "9797", "wwww.",
    "http://www.x", "WWW.", "Www.", "aclanthology", "arXiv", "\u0130", "\u212a", "\u0131",
    "\u00e9", "?", "\x00", " ", "\n", "/", ":",
]  # fmt: skip
_TEXTS = st.lists(
    st.one_of(st.sampled_from(_FRAGMENTS), st.text("pmcidlan97:/w.x ?", max_size=5)),
    max_size=80,
).map("".join)


def _long(text: str, pad: int) -> str:
    """``text`` past the memo threshold (4,096 characters), shifted by ``pad``."""
    return "." * pad + text + "." * (4200 - pad)


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    hints._cache = ()
    yield
    hints._cache = ()


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.integers(0, 40), st.sampled_from([1, 2, 3, 7, 64, 1 << 16]))
def test_the_combined_scan_finds_what_each_needle_scan_found(
    core: str, pad: int, chunk: int
) -> None:
    text = _long(core * 3, pad)
    hints._cache = ()
    saved = hints._CHUNK
    hints._CHUNK = chunk
    try:
        low = _lower(text)
        for needle in SHARED_NEEDLES:
            assert needle_positions(text, needle) == _find_all(low, needle), needle
    finally:
        hints._CHUNK = saved


def test_the_pieces_meet_without_losing_or_repeating_a_match() -> None:
    """Needles laid across the real piece boundary (65,536) of a long text."""
    boundary = hints._CHUNK
    text = "a" * (boundary - 8) + "semanticscholar.org/ lanlanl 97979 " + "b" * 100
    low = _lower(text)
    for needle in SHARED_NEEDLES:
        assert needle_positions(text, needle) == _find_all(low, needle), needle


def test_a_needle_outside_the_shared_set_is_searched_for() -> None:
    """A plug-in's needle: not in the combined scan, found by a scan of its own, kept."""
    text = "x" * 5000 + " Zenodo ZENODO zenodo"
    assert "zenodo" not in SHARED_NEEDLES
    assert needle_positions(text, "zenodo") == [5001, 5008, 5015]
    assert needle_positions(text, "zenodo") is needle_positions(text, "zenodo")
    assert needle_positions(text, "pmid") == []


@settings(max_examples=200, deadline=None)
@given(_TEXTS, st.sampled_from(["acl", "dblp", "corpus", "://", "10.18653"]))
def test_needle_near_reads_the_shared_offsets(core: str, needle: str) -> None:
    text = _long(core, 5)
    hints._cache = ()
    for anchor, offsets in ((":", range(6)), ("/", range(3, 9))):
        want = [
            p
            for p in _find_all(_lower(text), needle)
            if any(text[p + k : p + k + 1] == anchor for k in offsets)
        ]
        assert needle_near(text, needle, anchor, offsets) == want


@settings(max_examples=200, deadline=None)
@given(_TEXTS, st.integers(0, 600))
def test_the_doi_url_marks_are_those_the_regex_found(core: str, pad: int) -> None:
    for text in (core, _long(core, pad % 40), "x" * pad + core * 40):
        hints._cache = ()
        old = [m.start() for m in re.finditer(r"://|www\.|WWW\.", text)]
        marks = doi._UrlMarks.of(text)
        assert (marks._at if marks is not None else []) == old


def test_no_built_in_family_scans_a_long_text_on_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every needle the built-in extractors ask for is in the combined scan: no ``str.find``
    loop runs over the long text itself."""
    scanned: list[str] = []
    real = hints._find_all

    def spy(low: str, needle: str) -> list[int]:
        if len(low) >= 4096:
            scanned.append(needle)
        return real(low, needle)

    monkeypatch.setattr(hints, "_find_all", spy)
    body = (
        "arXiv:2005.11401 ar5iv.org/abs/2005.11401 huggingface.co/papers/2005.11401 "
        "xxx.lanl.gov/abs/hep-th/9711200 PMID: 31452104 PMC3531190 pubmed "
        "ISBN 978-0-262-03561-3 SBN 262-03561-8 ACL: P19-1001 ACL Anthology "
        "10.18653/v1/N19-1423 https://openreview.net/forum?id=abc www.semanticscholar.org/p "
        "CorpusId: 123 openalex.org/W2741809807 dblp:conf/acl/X19 Title: Paper References\n"
    )
    text = body * 40
    found = find_mentions(text, resolve_extractors())
    assert found
    assert hints_in(text, ("title", "paper"))
    assert scanned == []
