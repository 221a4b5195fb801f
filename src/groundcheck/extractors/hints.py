"""Where to look: the positions of literal hints, found by plain substring search.

Every family below the URL layer is written with a label or a host (``PMID``, ``ISBN``,
``openreview.net``), so an extractor first finds those literals and runs its exact pattern
only there. A case-insensitive regex search tests every position of the text (about 90 MB/s
here); a vectorised substring search on a lower-cased copy, made once per text and shared by
every extractor that asks for it, runs at tens of GB/s, so the two dozen literals of all the
families cost ~6 ms per 10 MiB together (a ``str.find`` loop per literal: ~55 ms).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

__all__ = [
    "char_positions",
    "hint_positions",
    "hints_in",
    "is_long",
    "lowered",
    "lowered_bytes",
    "needle_near",
    "needle_positions",
    "text_memo",
    "text_memo_keep",
    "text_memo_known",
    "word_matches",
]

T = TypeVar("T")

_DOTTED_CAPITAL_I = "\u0130"
"""The one character whose lower case is two characters long (``İ`` -> ``i̇``); replaced before
lowering so offsets in the lowered copy equal offsets in the text."""

_CACHE_FROM = 4096
"""Short texts (a URL handed to a family finder) are looked at afresh, so they never evict the
long text every extractor is reading."""
_cache_lock = threading.Lock()
_cache: tuple[tuple[str, dict[str, Any]], ...] = ()
_CACHED = 2
"""Texts whose lower-cased copy and needle positions are kept: a tool output's matching view
and the joined fields of its records are read in turn, and then the view again (its
listings)."""


def is_long(text: str) -> bool:
    """Are ``text``'s needle positions kept (and found by a vectorised search)? A caller
    with a cheaper search of its own for a short text uses it there."""
    return len(text) >= _CACHE_FROM


def _memo(text: str) -> dict[str, Any] | None:
    """What has been found in ``text`` so far (None for a short text, never cached)."""
    global _cache
    if len(text) < _CACHE_FROM:
        return None
    for original, found in _cache:
        if original is text:
            return found
    found = {}
    with _cache_lock:
        _cache = ((text, found), *_cache[: _CACHED - 1])
    return found


def _lower(text: str) -> str:
    if _DOTTED_CAPITAL_I in text:
        low = text.replace(_DOTTED_CAPITAL_I, "\x00").lower()
    else:
        low = text.lower()
    if len(low) != len(text):  # pragma: no cover - no other character changes length
        low = "".join(c.lower() if len(c.lower()) == 1 else "\x00" for c in text)
    return low


def lowered(text: str) -> str:
    """``text`` lower-cased, of the same length, so a hint's offset is its offset in ``text``.

    Only letters that lower-case to ASCII matter for the hints; a character outside that
    changes no ASCII hint. The results for the last texts asked about are kept, because the
    pipeline hands the same string to every extractor in turn.

    >>> lowered("See PMID: 1")
    'see pmid: 1'
    """
    memo = _memo(text)
    if memo is None:
        return _lower(text)
    low: str | None = memo.get(_LOWER)
    if low is None:
        low = memo[_LOWER] = _lower(text)
    return low


_LOWER = "\x00lower"
"""The memo key of the lower-cased copy (never a needle: needles are printable)."""
_BYTES = "\x00bytes"
"""The memo key of :func:`lowered_bytes`."""

_KELVIN = "\u212a"
"""The one character other than ``İ`` that lower-cases to ASCII (the Kelvin sign, to ``k``)."""


_LOWER_CHUNK = 1 << 18
""":func:`_lower_bytes` encodes and lowers this many characters at a time."""


def _lower_bytes(text: str) -> bytearray:
    # Written a chunk at a time into one buffer: encoding the whole text and lowering that
    # made two copies of it, the first thrown away at once, and in a fresh process each
    # 10 MB copy costs ~2,400 page faults (9.2 -> 7.1 ms CPU for 10 MB of ASCII). The chunks'
    # own copies are small and reuse the same memory.
    data = bytearray(len(text))
    for lo in range(0, len(text), _LOWER_CHUNK):
        hi = lo + _LOWER_CHUNK
        data[lo:hi] = text[lo:hi].encode("ascii", "replace").lower()
    if not text.isascii() and _KELVIN in text:
        at = text.find(_KELVIN)
        while at != -1:
            data[at] = 0x6B  # "k", as in the lower-cased text
            at = text.find(_KELVIN, at + 1)
    return data


def lowered_bytes(text: str) -> bytearray:
    """:func:`lowered` as ASCII bytes, one per character (``?`` for every non-ASCII one).

    It agrees with the lower-cased text on every ASCII character but ``?`` and NUL (``İ``
    is NUL there): a test for an ASCII literal without those two (``.startswith``, ``==``
    at an offset, a substring search) gives the same answer on either. It is made by the
    bytes' own ASCII ``lower``, ~6 ms per 10 MiB whatever the text holds, where ``str.lower``
    takes ~40 ms on a text with one em dash in it (the string is then two bytes a
    character, and each goes through the Unicode tables). Kept for the last long texts.

    >>> bytes(lowered_bytes("See PMID: 1 \u2014 \u212a"))
    b'see pmid: 1 ? k'

    A ``bytearray`` shared with every other caller: read it, never change it.
    """
    memo = _memo(text)
    if memo is None:
        return _lower_bytes(text)
    data: bytearray | None = memo.get(_BYTES)
    if data is None:
        data = memo[_BYTES] = _lower_bytes(text)
    return data


def needle_positions(text: str, needle: str) -> list[int]:
    """Every offset in ``text`` where the lower-case literal ``needle`` starts, any case.

    This is the literal prefilter every family shares: each needle is searched for once per
    long text, however many extractors ask for it (PubMed ids and PMCIDs both look for
    ``pubmed``), on the lower-cased copy, by a vectorised substring search (see
    :func:`_search`). Overlapping occurrences count, as a ``str.find`` loop finds them. The
    list is shared with every other caller: read it, never change it.

    >>> needle_positions("PMID 1, pmid 2", "pmid")
    [0, 8]
    """
    memo = _memo(text)
    if memo is None:
        return _find_all(_lower(text), needle)
    known: list[int] | None = memo.get(needle)
    if known is None:
        known = memo[needle] = _search(text, memo, needle)
    return known


_CHUNK = 1 << 18
"""A long text is searched in pieces of this many characters (each with the few characters
after it that a match starting inside may need), so the matches handed back at once, three
Python ints each, stay few however many the text holds."""

_finders: dict[str, Callable[..., list[tuple[int, int, int]]]] = {}
"""The search of each needle asked for so far (a one-pattern automaton: building one takes
~8 us, so it is kept)."""


def _search(text: str, memo: dict[str, Any], needle: str) -> list[int]:
    """:func:`_find_all` ``(lowered(text), needle)``, by ``memchr``'s SIMD substring search
    (through ``ahocorasick_rs``, which hands a one-pattern search to it) on
    :func:`lowered_bytes`.

    One byte per character, so byte offsets are character offsets; a needle holding ``?``,
    NUL or a non-ASCII character (where that copy and the lower-cased text differ) takes the
    ``str.find`` loop.
    Each needle costs ~0.2-0.4 ms per 10 MiB this way, against ~3-8 ms for a ``str.find``
    loop (CPython's search for a short needle runs at 1-3 GB/s); one Aho-Corasick automaton
    for every family's needles at once finds them all in ~15 ms (an overlapping search has
    no vectorised prefilter), slower than these searches together.
    """
    if not needle or not needle.isascii() or "?" in needle or "\x00" in needle:
        return _find_all(lowered(text), needle)
    find = _finders.get(needle)
    if find is None:
        from ahocorasick_rs import BytesAhoCorasick  # imported on the first long text only

        find = _finders[needle] = BytesAhoCorasick([needle.encode()]).find_matches_as_indexes
    data = memoryview(lowered_bytes(text))
    n = len(data)
    if n <= _CHUNK:
        return [start for _, start, _ in find(data, overlapping=True)]
    found: list[int] = []
    reach = _CHUNK + len(needle) - 1
    for lo in range(0, n, _CHUNK):
        piece = find(data[lo : lo + reach], overlapping=True)
        # a match starting past the piece's own characters is found again with the next piece
        found.extend([lo + start for _, start, _ in piece if start < _CHUNK])
    return found


_ANCHOR_SHARE = 1024
"""A character's offsets are listed (see :func:`char_positions`) while it occurs at most once
per this many characters of a text: then visiting each of its occurrences costs less than a
regex search of the whole text. Past that (a text full of URLs and ``/``) the caller runs its
own scan, after at most ``len(text) / _ANCHOR_SHARE`` steps spent finding that out."""


def _anchors(text: str, anchor: str) -> list[int] | None:
    """Every offset of the one character ``anchor`` in ``text``, or None if it is too common."""
    limit = len(text) // _ANCHOR_SHARE
    found: list[int] = []
    at = text.find(anchor)  # one character: a memchr-speed search, far faster than a needle's
    while at != -1:
        if len(found) == limit:
            return None
        found.append(at)
        at = text.find(anchor, at + 1)
    return found


def char_positions(text: str, char: str) -> list[int] | None:
    """Every offset of the one character ``char`` in a long ``text``, or None when it is too
    common there (more than once per ``_ANCHOR_SHARE`` characters) or the text is short.

    Found once per text (a memchr-speed search per occurrence) and shared: the ``/`` of a text
    serve the old-style arXiv ids, which start at one. A caller given None runs its own scan.
    Read the list, never change it.

    >>> long = "a" * 5000 + "/b/"
    >>> char_positions(long, "/"), char_positions("/" * 5000, "/"), char_positions("a/b", "/")
    ([5000, 5002], None, None)
    """
    memo = _memo(text)
    if memo is None:
        return None
    key = "\x00char" + char
    if key not in memo:
        memo[key] = _anchors(text, char)
    found: list[int] | None = memo[key]
    return found


def needle_near(text: str, needle: str, anchor: str, offsets: range) -> list[int]:
    """The offsets ``p`` of :func:`needle_positions` ``(text, needle)`` where ``anchor`` (one
    character with no case, such as ``:`` or ``/``) stands at ``p + k`` for a ``k`` in
    ``offsets`` (a range with step 1), in order.

    An extractor whose pattern cannot match without that character there (``CorpusId:`` needs
    its colon 8 to 13 characters after ``corpus``) reads only these. (The needle's own search
    costs ~0.3 ms per 10 MiB, so it is searched for, not read off windows around the anchors.)

    >>> needle_near("DBLP: x, dblp y, DBLP :z", "dblp", ":", range(4, 9))
    [0, 17]
    """
    first, stop = offsets.start, offsets.stop
    return [p for p in needle_positions(text, needle) if anchor in text[p + first : p + stop]]


def matches_at(
    match: Callable[[str, int], re.Match[str] | None], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """What ``finditer`` finds, for a pattern every match of which starts at one of
    ``starts`` (sorted, found by a literal search): ``match`` tried at each start that no
    match before covers, so the matches do not overlap, as ``finditer``'s."""
    resume = 0
    for at in starts:
        if at < resume:
            continue
        m = match(text, at)
        if m is not None:
            resume = m.end()
            yield m


def text_memo(text: str, key: str, compute: Callable[[str], T]) -> T:
    """``compute(text)``, computed once per long text and kept with its needle positions (a
    scan several extractors share: the dots after four digits, for arXiv and ACL ids)."""
    memo = _memo(text)
    if memo is None:
        return compute(text)
    key = "\x00" + key  # never a needle
    if key not in memo:
        memo[key] = compute(text)
    value: T = memo[key]
    return value


def text_memo_known(text: str, key: str) -> Any | None:
    """What :func:`text_memo` keeps for ``text`` under ``key``, or None when nothing is kept
    (a short text, or not computed yet). A caller whose own pass computes that value on the
    way (the arXiv extractor's scan of the id dots) asks first, and keeps it after with
    :func:`text_memo_keep`."""
    memo = _memo(text)
    return None if memo is None else memo.get("\x00" + key)


def text_memo_keep(text: str, key: str, value: Any) -> None:
    """Keep ``value`` under ``key`` for ``text``, as :func:`text_memo` would have (nothing is
    kept for a short text)."""
    memo = _memo(text)
    if memo is not None:
        memo["\x00" + key] = value


def hint_positions(low: str, needles: Iterable[str]) -> Iterator[int]:
    """Every offset where one of ``needles`` (lower-case literals) starts, in order, once each.

    Each needle is found with ``str.find`` in one forward pass, so the cost is one fast scan
    per needle plus the hits.
    """
    found: set[int] = set()
    for needle in needles:
        found.update(_find_all(low, needle))
    yield from sorted(found)


def _find_all(low: str, needle: str) -> list[int]:
    """Every offset where ``needle`` starts in ``low``, overlapping ones too."""
    found = []
    at = low.find(needle)
    while at != -1:
        found.append(at)
        at = low.find(needle, at + 1)
    return found


def hints_in(text: str, needles: Iterable[str]) -> list[int]:
    """:func:`hint_positions` of ``text`` itself, from the shared per-text needle positions:
    every offset where one of ``needles`` starts, in order, once each.

    >>> hints_in("PMC1 and PubMed", ("pmc", "pubmed"))
    [0, 9]
    """
    if len(text) < _CACHE_FROM:  # nothing kept: lower the text once, not once per needle
        low = _lower(text)
        lists = [positions for n in needles if (positions := _find_all(low, n))]
    else:
        lists = [positions for n in needles if (positions := needle_positions(text, n))]
    if len(lists) == 1:
        return lists[0]
    return sorted({at for positions in lists for at in positions})


_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
"""The non-ASCII letters a case-insensitive regex matches to ASCII ones (İ ı ſ K)."""


def word_matches(
    text: str, pattern: re.Pattern[str], needles: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a case-insensitive pattern whose every match starts with
    one of ``needles`` (lower-case), at the speed of substring search.

    A ``(?i)`` regex tests every position (~15 MB/s); here the needles are found on the
    lower-cased copy (the shared offsets of a long text) and the pattern is tried only there,
    in order and without overlaps, as ``finditer`` would. A text holding a letter that
    ``(?i)`` folds to ASCII (``ı`` matches ``i``) takes the plain scan.

    >>> title = re.compile(r"(?i)\\btitle\\b")
    >>> [m.group() for m in word_matches("A Title, a TITLE", title, ("title",))]
    ['Title', 'TITLE']
    """
    if not text.isascii() and any(ch in text for ch in _FOLDS_TO_ASCII):
        yield from pattern.finditer(text)
        return
    resume = 0
    for at in hints_in(text, needles):
        if at < resume:
            continue
        m = pattern.match(text, at)
        if m is not None:
            yield m
            resume = max(m.end(), at + 1)
