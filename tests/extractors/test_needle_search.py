"""A long text's needles are found by a vectorised search of its lower-cased copy encoded to
bytes (``hints._search``); each must be found where a ``str.find`` loop on the lower-cased
copy finds it (the scan it replaced), overlapping occurrences included.

The search reads the text in pieces (``hints._CHUNK`` characters); the tests shrink the piece
so that needles straddle many piece boundaries in texts of a few thousand characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import doi, hints
from groundcheck.extractors.hints import _find_all, _lower, needle_near, needle_positions

_NEEDLES = (
    "xiv", "5iv", "huggingface", "lanl", "pmid", "pmc", "pubmed", "sbn", "97", "acl",
    "anthology", "10.18653", "://", "www.", "openreview.net/", "semanticscholar.org/", "corpus",
    "openalex", "dblp", "title", "paper", "itle", "aper", "eferences", "ibliography",
    "a", "aa", "?", "a?", "\u00e9", "\u0130", "\x00", "",
)  # fmt: skip
"""The built-in families' needles, and the odd ones a plug-in might ask for (one letter, a
self-overlapping one, ``?`` and non-ASCII ones, which the byte copy cannot hold, the empty
one)."""

_FRAGMENTS = [
    *_NEEDLES,
    *(n.upper() for n in _NEEDLES),
    "lanlanl", "corpusbn", "titleitle", "papaper", "pmcid", "PMID:", "9797", "wwww.",
    "http://www.x", "WWW.", "Www.", "aclanthology", "arXiv", "\u0130", "\u212a", "\u0131",
    "\u00e9", "\u00c9", "?", "\x00", " ", "\n", "/", ":", "\U0001f600",
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
@given(_TEXTS, st.integers(0, 40), st.sampled_from([1, 2, 3, 7, 64, 1 << 18]))
def test_the_search_finds_what_a_find_loop_found(core: str, pad: int, chunk: int) -> None:
    text = _long(core * 3, pad)
    hints._cache = ()
    saved = hints._CHUNK
    hints._CHUNK = chunk
    try:
        low = _lower(text)
        for needle in _NEEDLES:
            assert needle_positions(text, needle) == _find_all(low, needle), needle
    finally:
        hints._CHUNK = saved


def test_the_pieces_meet_without_losing_or_repeating_a_match() -> None:
    """Needles laid across the real piece boundary of a long text."""
    boundary = hints._CHUNK
    text = "a" * (boundary - 8) + "semanticscholar.org/ lanlanl 97979 " + "b" * 100
    low = _lower(text)
    for needle in _NEEDLES:
        assert needle_positions(text, needle) == _find_all(low, needle), needle


def test_a_long_texts_positions_are_kept() -> None:
    text = "x" * 5000 + " Zenodo ZENODO zenodo"
    assert needle_positions(text, "zenodo") == [5001, 5008, 5015]
    assert needle_positions(text, "zenodo") is needle_positions(text, "zenodo")


@settings(max_examples=200, deadline=None)
@given(_TEXTS, st.sampled_from(["acl", "dblp", "corpus", "://", "10.18653", "dblp.org/"]))
def test_needle_near_is_the_needle_positions_with_the_anchor_there(core: str, needle: str) -> None:
    for text in (core, _long(core, 5)):
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


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.booleans())
def test_the_byte_copy_agrees_with_the_lowered_text_on_ascii_literals(
    core: str, long: bool
) -> None:
    """Every ASCII character but ``?`` and NUL stands at the same offsets in both (``İ`` is
    NUL in one and ``?`` in the other; the Kelvin sign is ``k`` in both)."""
    text = _long(core, 3) if long else core
    low, data = hints.lowered(text), hints.lowered_bytes(text)
    assert len(data) == len(low)

    def plain(ch: str) -> str:
        return ch if ch.isascii() and ch not in "?\x00" else "?"

    assert "".join(map(plain, low)) == "".join(map(plain, data.decode("ascii")))


def _lower_bytes_v1(text: str) -> bytes:
    """``hints._lower_bytes`` before it was built a chunk at a time."""
    data = bytearray(text.encode("ascii", "replace").lower())
    at = text.find("\u212a")
    while at != -1:
        data[at] = 0x6B
        at = text.find("\u212a", at + 1)
    return bytes(data)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3 * hints._LOWER_CHUNK), _TEXTS), max_size=8))
def test_the_byte_copy_built_in_chunks_is_the_whole_texts(pieces: list[tuple[int, str]]) -> None:
    """Pieces (non-ASCII characters, the Kelvin sign, ``İ``) placed anywhere in a text of
    several chunks, across their edges too."""
    chars = list("Mixed CASE text. " * (3 * hints._LOWER_CHUNK // 17 + 1))
    for at, piece in pieces:
        chars[at : at + len(piece)] = piece
    text = "".join(chars)
    assert bytes(hints._lower_bytes(text)) == _lower_bytes_v1(text)
