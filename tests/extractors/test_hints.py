"""Literal hints: a lower-cased copy of the same length, and every position of each needle."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.hints import (
    hint_positions,
    hints_in,
    lowered,
    needle_near,
    needle_positions,
    text_memo,
)


def test_lowered_keeps_offsets_for_the_dotted_capital_i() -> None:
    """'İ'.lower() is two characters; the lowered copy must still line up with the text."""
    text = "İİ PMID: 1"
    low = lowered(text)
    assert len(low) == len(text)
    assert low.index("pmid") == text.index("PMID")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=100))
def test_lowered_has_the_same_length(text: str) -> None:
    low = lowered(text)
    assert len(low) == len(text)
    for i, ch in enumerate(text):
        if ch.isascii():
            assert low[i] == ch.lower()


def test_hint_positions_are_sorted_and_unique() -> None:
    low = "pmc pmcid pmid pubmed pmc"
    assert list(hint_positions(low, ("pmc", "pmcid", "pubmed"))) == [0, 4, 15, 22]


def test_the_cache_follows_the_text() -> None:
    """A long text's lowered copy is reused; a different text gets its own."""
    a = "A" * 5000
    b = "B" * 5000
    assert lowered(a) is lowered(a)
    assert lowered(b) == "b" * 5000
    assert lowered(a) == "a" * 5000


_needles = (
    "pmc", "pmid", "pubmed", "acl", "10.18653", "xiv", "://", "www.", "sbn", "openalex",
    "openreview.net/",
)  # fmt: skip
_pieces = (
    "PMC", "pmc", "PMID", "pm", "PubMed", "ACL", "10.18653", "arXiv", "://", "WWW.", "İ",
    "x", "OpenAlex", "open", "openreview.net/", "OPENREVIEW.NET/",
)  # fmt: skip
_hinted = st.lists(
    st.sampled_from(_pieces) | st.text(max_size=5),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_hinted, st.integers(0, 5000))
def test_shared_needle_positions_are_those_of_a_fresh_search(text: str, pad: int) -> None:
    """The per-text cache (long texts) and a fresh search (short ones) give the positions
    ``hint_positions`` gives on the lower-cased copy, for one needle and for several."""
    text = "." * pad + text
    low = lowered(text)
    for needle in _needles:
        assert needle_positions(text, needle) == list(hint_positions(low, (needle,)))
    assert hints_in(text, _needles) == list(hint_positions(low, _needles))
    assert hints_in(text, _needles) == list(hint_positions(low, _needles))  # cached now


def test_text_memo_computes_once_per_long_text() -> None:
    calls: list[str] = []

    def compute(text: str) -> int:
        calls.append(text)
        return len(text)

    long = "z" * 5000
    assert text_memo(long, "length", compute) == text_memo(long, "length", compute) == 5000
    assert len(calls) == 1
    assert text_memo("short", "length", compute) == 5
    assert len(calls) == 2


_near_pieces = ("dblp", "DBLP", "corpus", "CorpusId", ":", "/", " ", "\t", "a", "İ", "dblp.org/")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_near_pieces) | st.text(max_size=3), max_size=40).map("".join),
    st.tuples(st.sampled_from([".", ":", "/"]), st.integers(0, 5000)),
    st.sampled_from(["dblp", "corpus", "dblp.org/"]),
    st.sampled_from([":", "/"]),
    st.tuples(st.integers(0, 20), st.integers(0, 6)),
)
def test_needle_near_is_the_needle_positions_with_the_anchor_there(
    text: str, padding: tuple[str, int], needle: str, anchor: str, window: tuple[int, int]
) -> None:
    """Found from the anchor's occurrences (a long text where it is rare) or by filtering the
    needle's positions (a short text, or one full of the anchor): the same offsets."""
    filler, pad = padding
    text = text + filler * pad + text  # anchors near both ends of a long text
    offsets = range(window[0], window[0] + window[1] + 1)
    want = [
        p
        for p in needle_positions(text, needle)
        if any(p + k < len(text) and text[p + k] == anchor for k in offsets)
    ]
    assert needle_near(text, needle, anchor, offsets) == want
    assert needle_near(text, needle, anchor, offsets) == want  # the anchors kept now
