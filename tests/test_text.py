"""The text view: normalisation for matching, with every span mapped back to the original."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.text import TextView, locate


def test_ascii_fast_path_is_identity() -> None:
    """Plain ASCII with no broken numbers is used as it is, without a copy or a map."""
    text = "arXiv:2005.11401 and hep-th/9711200\nnext line"
    view = TextView.of(text)
    assert view.is_identity
    assert view.to_original(3, 9) == (3, 9)


@pytest.mark.parametrize(
    ("original", "view_text"),
    [
        ("２３０１．００００１", "2301.00001"),
        ("2301.0\u200b0001", "2301.00001"),
        ("2301.\u00ad00001", "2301.00001"),
        ("2301.000\u200d01", "2301.00001"),
        ("\ufeff2301.00001", "2301.00001"),
        ("hep\u2010th/9711200", "hep-th/9711200"),
        ("2005.114-\n01", "2005.11401"),
        ("2005.114-\r\n  01", "2005.11401"),
        ("2005.-\n11401", "2005.11401"),
        ("２-\n２", "22"),  # regression: a fullwidth digit after the break was not seen
        ("0\u2010\n0", "00"),  # regression: a typographic hyphen at the line end was not seen
        ("２\u2010\n0", "20"),  # regression: ... nor one swallowed by a run of other symbols
        ("２００５.１１４-\n０１", "2005.11401"),
        ("hep-\nth/9711200", "hep-\nth/9711200"),
        ("state-of-\nthe-art", "state-of-\nthe-art"),
        ("ﬁle 2301.00001", "file 2301.00001"),
        ("é 2301.00001", "é 2301.00001"),
    ],
)
def test_view_normalises(original: str, view_text: str) -> None:
    """NFKC, invisible characters, typographic hyphens and number line breaks."""
    assert TextView.of(original).text == view_text


def test_spans_map_back_around_removed_characters() -> None:
    """A span in the view covers the same characters, invisible ones included, in the original."""
    original = "see 2301.0\u200b0001 now"
    view = TextView.of(original)
    start = view.text.index("2301")
    end = start + len("2301.00001")
    s, e = view.to_original(start, end)
    assert original[s:e] == "2301.0\u200b0001"


def test_expansion_maps_to_whole_character() -> None:
    """A character NFKC expands (ﬁ -> fi) is never cut in half by a mapped span."""
    original = "aﬁb"
    view = TextView.of(original)
    assert view.text == "afib"
    assert view.to_original(1, 2) == (1, 2)  # "f" -> the whole ligature
    assert view.to_original(2, 3) == (1, 2)  # "i" -> the whole ligature
    assert view.to_original(3, 4) == (2, 3)


def test_locate_lines_and_columns() -> None:
    """Lines and columns are 1-based and computed in one forward pass."""
    text = "ab\ncd\n\nef"
    assert list(locate(text, [0, 1, 3, 7, 8])) == [(1, 1), (1, 2), (2, 1), (4, 1), (4, 2)]


def test_locate_rejects_unsorted_offsets() -> None:
    with pytest.raises(ValueError, match="sorted"):
        list(locate("abc", [2, 1]))


_alphabet = st.sampled_from(
    [
        *"ab09.-/ \n:v",
        "\u200b",
        "\u00ad",
        "２",
        "．",
        "ﬁ",
        "é",
        "\u2010",
        "\ufeff",
        "\u0301",
        "中",
        "\r",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_alphabet, max_size=60).map("".join))
def test_view_maps_every_span_inside_the_original(original: str) -> None:
    """Any view span maps to an ordered span within the original text."""
    view = TextView.of(original)
    n = len(view.text)
    for start in range(n + 1):
        for end in range(start, min(n, start + 4) + 1):
            s, e = view.to_original(start, end)
            assert 0 <= s <= e <= len(original)


@settings(max_examples=300, deadline=None)
@given(st.lists(_alphabet, max_size=60).map("".join))
def test_view_of_view_is_stable(original: str) -> None:
    """Normalising twice changes nothing more: the view is a fixed point."""
    once = TextView.of(original).text
    assert TextView.of(once).text == once
