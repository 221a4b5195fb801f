"""Literal hints: a lower-cased copy of the same length, and every position of each needle."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.hints import hint_positions, lowered


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
