"""Where to look: the positions of literal hints, found by plain substring search.

Every family below the URL layer is written with a label or a host (``PMID``, ``ISBN``,
``openreview.net``), so an extractor first finds those literals and runs its exact pattern
only there. A case-insensitive regex search tests every position of the text (about 90 MB/s
here); a substring search on a lower-cased copy runs at about 1 GB/s, and the lower-cased copy
is made once per text and shared by every extractor that asks for it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator

__all__ = ["hint_positions", "lowered"]

_DOTTED_CAPITAL_I = "\u0130"
"""The one character whose lower case is two characters long (``İ`` -> ``i̇``); replaced before
lowering so offsets in the lowered copy equal offsets in the text."""

_CACHE_FROM = 4096
"""Short texts (a URL handed to a family finder) are lowered afresh, so they never evict the
long text every extractor is reading."""
_cache_lock = threading.Lock()
_cache: tuple[str, str] | None = None


def lowered(text: str) -> str:
    """``text`` lower-cased, of the same length, so a hint's offset is its offset in ``text``.

    Only letters that lower-case to ASCII matter for the hints; a character outside that
    changes no ASCII hint. The result for the last text asked about is kept, because the
    pipeline hands the same string to every extractor in turn.

    >>> lowered("See PMID: 1")
    'see pmid: 1'
    """
    global _cache
    cached = _cache
    if cached is not None and cached[0] is text:
        return cached[1]
    if _DOTTED_CAPITAL_I in text:
        low = text.replace(_DOTTED_CAPITAL_I, "\x00").lower()
    else:
        low = text.lower()
    if len(low) != len(text):  # pragma: no cover - no other character changes length
        low = "".join(c.lower() if len(c.lower()) == 1 else "\x00" for c in text)
    if len(text) >= _CACHE_FROM:
        with _cache_lock:
            _cache = (text, low)
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
