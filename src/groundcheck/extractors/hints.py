"""Where to look: the positions of literal hints, found by plain substring search.

Every family below the URL layer is written with a label or a host (``PMID``, ``ISBN``,
``openreview.net``), so an extractor first finds those literals and runs its exact pattern
only there. A case-insensitive regex search tests every position of the text (about 90 MB/s
here); a substring search on a lower-cased copy runs at about 1 GB/s, and the lower-cased copy
is made once per text and shared by every extractor that asks for it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator

__all__ = ["hint_positions", "lowered", "word_matches"]

_DOTTED_CAPITAL_I = "\u0130"
"""The one character whose lower case is two characters long (``İ`` -> ``i̇``); replaced before
lowering so offsets in the lowered copy equal offsets in the text."""

_CACHE_FROM = 4096
"""Short texts (a URL handed to a family finder) are lowered afresh, so they never evict the
long text every extractor is reading."""
_cache_lock = threading.Lock()
_cache: tuple[tuple[str, str], ...] = ()
_CACHED = 2
"""Texts whose lower-cased copy is kept: a tool output's matching view and the joined fields
of its records are read in turn, and then the view again (its listings)."""


def lowered(text: str) -> str:
    """``text`` lower-cased, of the same length, so a hint's offset is its offset in ``text``.

    Only letters that lower-case to ASCII matter for the hints; a character outside that
    changes no ASCII hint. The results for the last texts asked about are kept, because the
    pipeline hands the same string to every extractor in turn.

    >>> lowered("See PMID: 1")
    'see pmid: 1'
    """
    global _cache
    for original, low in _cache:
        if original is text:
            return low
    if _DOTTED_CAPITAL_I in text:
        low = text.replace(_DOTTED_CAPITAL_I, "\x00").lower()
    else:
        low = text.lower()
    if len(low) != len(text):  # pragma: no cover - no other character changes length
        low = "".join(c.lower() if len(c.lower()) == 1 else "\x00" for c in text)
    if len(text) >= _CACHE_FROM:
        with _cache_lock:
            _cache = ((text, low), *_cache[: _CACHED - 1])
    return low


def hint_positions(low: str, needles: Iterable[str]) -> Iterator[int]:
    """Every offset where one of ``needles`` (lower-case literals) starts, in order, once each.

    Each needle is found with ``str.find`` in one forward pass, so the cost is one fast scan
    per needle plus the hits.
    """
    found: set[int] = set()
    for needle in needles:
        at = low.find(needle)
        while at != -1:
            found.add(at)
            at = low.find(needle, at + 1)
    yield from sorted(found)


_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
"""The non-ASCII letters a case-insensitive regex matches to ASCII ones (İ ı ſ K)."""


def word_matches(
    text: str, pattern: re.Pattern[str], needles: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a case-insensitive pattern whose every match starts with
    one of ``needles`` (lower-case), at the speed of substring search.

    A ``(?i)`` regex tests every position (~15 MB/s); here the needles are found on the
    lower-cased copy and the pattern is tried only there, in order and without overlaps,
    as ``finditer`` would. A text holding a letter that ``(?i)`` folds to ASCII (``ı``
    matches ``i``) takes the plain scan.

    >>> title = re.compile(r"(?i)\\btitle\\b")
    >>> [m.group() for m in word_matches("A Title, a TITLE", title, ("title",))]
    ['Title', 'TITLE']
    """
    if not text.isascii() and any(ch in text for ch in _FOLDS_TO_ASCII):
        yield from pattern.finditer(text)
        return
    low = lowered(text)
    resume = 0
    for at in hint_positions(low, needles):
        if at < resume:
            continue
        m = pattern.match(text, at)
        if m is not None:
            yield m
            resume = max(m.end(), at + 1)
