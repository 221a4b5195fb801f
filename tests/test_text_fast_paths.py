"""The text view's fast paths, each against the slow path it stands for.

- non-ASCII characters found through a Latin-1 encode, against the UTF-8 one;
- a text whose only non-ASCII characters are *inert* (they fold to themselves and no rule
  reads them) decided as an ASCII text is, against the full build;
- the hyphen-break scan left out when every line break is a ``\\n`` of a blank line, against
  every scan run ungated.
"""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.text import _ASCII_BYTES, _NOT_IN_RUNS, TextView, _fold

_INERT_ALPHABET = ["ü", "é", "Ö", "ß", "“", "”", "×", "ñ", "\u00e7"]
"""Non-ASCII characters of real search results that fold to themselves."""
_TRICKY = ["ı", "İ", "\u212a", "ſ", "\u00b5", "²", "\u00a0", "\u2028", "\u2013", "\uff0e", "ﬁ"]
"""Characters that are not inert, or look it and are not: dotless and dotted i match ``i`` in
``(?i:arxiv)``, the Kelvin sign lowers to ``k``, the rest fold to something else or start a
scan of their own."""

_PIECES = st.sampled_from(
    [
        *"0123456789. \t\n\r-/x%&\\*_:",
        "arXiv:",
        "arx",
        "iv:",
        "ARXIV ",
        "arxiv.org/abs/",
        "2005",
        "2005.",
        "11401",
        ". ",
        "hep",
        "th",
        "10.",
        "1000",
        "%2E",
        "&#46;",
        "**",
        "\n\n",
        "\r\n",
        "arxiv_id",
        *_INERT_ALPHABET,
        *_TRICKY,
    ]
)


def _slow_non_ascii(text: str) -> frozenset[str]:
    rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
    return frozenset(rest.decode("utf-8", "surrogatepass"))


@given(st.text(max_size=60))
def test_non_ascii_is_the_utf8_deletion(text: str) -> None:
    """Whatever the text's widest character, the set is the one the UTF-8 deletion finds."""
    from groundcheck.text import _non_ascii

    assert _non_ascii(text) == _slow_non_ascii(text)
    assert _non_ascii(text + "é") == _slow_non_ascii(text + "é")


def _built(text: str, paired: bool | None = None) -> TextView:
    """The view as the full build makes it (the path every non-ASCII text took before)."""
    chars = _slow_non_ascii(text)
    return TextView._build(text, chars, paired=paired) if chars else TextView.of(text)


def _same(a: TextView, b: TextView) -> None:
    assert a.text == b.text
    assert a.is_identity == b.is_identity
    n = len(a.text)
    for start in range(0, n + 1, 3):
        for end in (start, min(n, start + 1), min(n, start + 7), n):
            assert a.to_original(start, end) == b.to_original(start, end)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_inert_characters_give_the_view_of_the_build(text: str) -> None:
    """A text whose non-ASCII characters are all inert is decided as an ASCII text; its view
    is the one the full build makes (which copies each run of them for itself)."""
    _same(TextView.of(text), _built(text))


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=20))
def test_inert_characters_in_strings_joined_by_blank_lines(pieces: list[str]) -> None:
    """The same for a flattened output (strings joined by blank lines, the paired hint)."""
    text = "\n\n".join(p.replace("\n", " ") for p in pieces)
    _same(TextView.of(text, paired=True), _built(text, paired=True))


def test_the_letters_a_rule_reads_are_not_inert() -> None:
    """``arxıv:2005. 11401`` (dotless i) is an arXiv prefix to ``(?i:arxiv)``, so the space
    is dropped; the check must not take the dotless i for an inert accent."""
    from groundcheck.text import _inert

    text = "maxiv arx\u0131v:2005. 11401 \u00fc"
    assert TextView.of(text).text == _built(text).text == "maxiv arx\u0131v:2005.11401 \u00fc"
    assert not any(map(_inert, "ıİ\u212aſ"))
    assert all(map(_inert, _INERT_ALPHABET))


def test_no_inert_character_lowers_to_ascii() -> None:
    """Every character that lowers to (or contains) an ASCII letter is a letter that
    ``(?i)[a-z]`` matches: the rules' case-insensitive reads see only ASCII letters, so an
    inert character never completes an "arxiv"."""
    from groundcheck.text import _ASCII_LETTER, _inert

    odd = [
        chr(c)
        for c in range(0x80, sys.maxunicode + 1)
        if not 0xD800 <= c <= 0xDFFF and any(map(str.isascii, chr(c).lower()))
    ]
    assert all(_ASCII_LETTER.match(ch) for ch in odd)
    assert not any(map(_inert, odd))
    for ch in _INERT_ALPHABET:
        assert _fold(ch) == ch and ch not in _NOT_IN_RUNS


_BREAKY = st.sampled_from(
    ["-", " ", "\t", "\n\n", "\n", "\r", "\r\n", "\v", "\f", "2", "19", "a", "\u2028", "\u2010"]
)


@settings(max_examples=800, deadline=None)
@given(st.lists(_BREAKY, max_size=30).map("".join))
def test_hyphen_scan_gate_drops_nothing_it_would_find(text: str) -> None:
    """Gating the hyphen-break scan on a break other than the paired "\\n" keeps every
    candidate every scan finds over the whole text."""
    from groundcheck.text import _ASCII_SCANS, _UNICODE_SCANS, _candidates, _paired_newlines

    ascii = text.isascii()
    scans = _ASCII_SCANS if ascii else _ASCII_SCANS + _UNICODE_SCANS
    every = sorted(
        (m.start() + (kind == "dotspace"), priority, m.end(), kind)
        for _, kind, priority, pattern in scans
        for m in pattern.finditer(text)
        if kind == "hyphen"
    )
    found = [c for c in _candidates(text, ascii, paired=_paired_newlines(text)) if c[3] == "hyphen"]
    assert found == every
