"""Where to look: the positions of literal hints, found by plain substring search.

Every family below the URL layer is written with a label or a host (``PMID``, ``ISBN``,
``openreview.net``), so an extractor first finds those literals and runs its exact pattern
only there. A case-insensitive regex search tests every position of the text (about 90 MB/s
here); on a lower-cased copy, made once per text and shared by every extractor that asks for
it, one Aho-Corasick scan finds every family's literals at once (about 700 MB/s for all of
them, where one ``str.find`` scan per literal ran at 1-3 GB/s each, ~55 ms per 10 MiB for
the lot).
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
    "needle_near",
    "needle_positions",
    "text_memo",
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
    """Are ``text``'s needle positions kept (and found by the one combined scan)? A caller
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


def needle_positions(text: str, needle: str) -> list[int]:
    """Every offset in ``text`` where the lower-case literal ``needle`` starts, any case.

    This is the literal prefilter every family shares. In a long text every needle a built-in
    family asks for (:data:`SHARED_NEEDLES`) is found by one combined scan of the lower-cased
    copy, the first time any of them is asked for (see :func:`_scan_shared`), and each list is
    kept for every later caller; any other needle (a plug-in's) is searched for on its own, once
    per text. Overlapping occurrences count, as a fresh ``str.find`` loop would find them. The
    list is shared with every other caller: read it, never change it.

    >>> needle_positions("PMID 1, pmid 2", "pmid")
    [0, 8]
    """
    memo = _memo(text)
    if memo is None:
        return _find_all(_lower(text), needle)
    known: list[int] | None = memo.get(needle)
    if known is not None:
        return known
    if needle in _SHARED and _SCANNED not in memo:
        _scan_shared(text, memo)
        shared: list[int] | None = memo.get(needle)
        if shared is not None:
            return shared
    found = memo[needle] = _find_all(lowered(text), needle)
    return found


SHARED_NEEDLES = (
    # arXiv contexts (arxiv, alphaxiv, ar5iv, huggingface.co/papers, xxx.lanl.gov)
    "xiv", "5iv", "huggingface", "lanl",
    # PubMed and PubMed Central labels and URLs
    "pmid", "pmc", "pubmed",
    # ISBN labels, bare ISBN-13s
    "sbn", "97",
    # ACL Anthology
    "acl", "anthology", "10.18653",
    # URLs (and the DOI extractor's test for a URL before a DOI)
    "://", "www.",
    # OpenReview, Semantic Scholar, OpenAlex, DBLP
    "openreview.net/", "semanticscholar.org/", "corpus", "openalex", "dblp",
    # titles and listings (title keys, headers, reference sections) in tool outputs
    "title", "paper", "itle", "aper", "eferences", "ibliography",
)  # fmt: skip
"""Every needle a built-in family asks :func:`needle_positions` for: all are found by one
combined scan of a long text (:func:`_scan_shared`). A needle left out here is still found,
by a scan of its own."""

_SHARED = frozenset(SHARED_NEEDLES)
_SCANNED = "\x00scanned"
"""The memo key set once the combined scan of a text has run (never a needle)."""

_CHUNK = 1 << 16
"""The combined scan reads the text in pieces of this many characters (each with the few
characters after it that a match starting inside may need), so the matches it hands back at
once, three Python ints each, stay few however many the text holds."""

_automaton: Any = None


def _scan_shared(text: str, memo: dict[str, Any]) -> None:
    """Find every :data:`SHARED_NEEDLES` needle in ``text`` with one Aho-Corasick scan of the
    lower-cased copy, and keep each one's offsets in ``memo``.

    One pass over 10 MiB finds all of them in ~15 ms, where a ``str.find`` loop per needle
    (each ~3-8 ms, at ~1-3 GB/s) cost ~55 ms for the lot. The copy is encoded to ASCII with
    ``?`` for every other character, one byte per character, so byte offsets are character
    offsets; no needle holds ``?`` or a non-ASCII character, so no match is lost or made.
    Overlapping matches are all reported (``lanl`` in ``lanlanl`` twice, ``corpus`` and
    ``sbn`` in ``corpusbn``), as the ``str.find`` loops found them.
    """
    global _automaton
    if _automaton is None:
        from ahocorasick_rs import BytesAhoCorasick  # imported on the first long text only

        _automaton = BytesAhoCorasick([n.encode("ascii") for n in SHARED_NEEDLES])
    find = _automaton.find_matches_as_indexes
    data = memoryview(lowered(text).encode("ascii", "replace"))
    lists: list[list[int]] = [[] for _ in SHARED_NEEDLES]
    reach = _CHUNK + max(map(len, SHARED_NEEDLES)) - 1
    for lo in range(0, len(data), _CHUNK):
        for i, start, _end in find(data[lo : lo + reach], overlapping=True):
            if start < _CHUNK:  # one starting past the piece is found with the next piece
                lists[i].append(lo + start)
    for needle, found in zip(SHARED_NEEDLES, lists, strict=True):
        memo.setdefault(needle, found)
    memo[_SCANNED] = True


_ANCHOR_SHARE = 1024
"""A character is used as an anchor (see :func:`needle_near`) while it occurs at most once per
this many characters of a text: then visiting each of its occurrences costs less than a
full-text scan for a needle. Past that (a text full of URLs and ``/``) the needle is searched
for as usual, after at most ``len(text) / _ANCHOR_SHARE`` steps spent finding that out."""


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
    serve :func:`needle_near` and the old-style arXiv ids, which start at one. A caller given
    None runs its own scan. Read the list, never change it.

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


_REACH = 32
"""How far around each anchor :func:`needle_near` looks: the window of an anchor at ``a`` is
``[a - _REACH, a + _REACH)``."""
_STRIDE = 2 * _REACH + 1
"""A window and the NUL (never in a needle) that keeps a match from running into the next."""


def _windows(text: str, anchors: list[int]) -> str:
    """The lower-cased text around each anchor, each window ``2 * _REACH`` long (padded with
    NUL at the ends of the text) and followed by one NUL."""
    low, n = lowered(text), len(text)
    pieces = [
        low[a - _REACH : a + _REACH]
        if _REACH <= a <= n - _REACH
        else "\x00" * max(0, _REACH - a)
        + low[max(0, a - _REACH) : a + _REACH]
        + "\x00" * max(0, a + _REACH - n)
        for a in anchors
    ]
    pieces.append("")
    return "\x00".join(pieces)


def needle_near(text: str, needle: str, anchor: str, offsets: range) -> list[int]:
    """The offsets ``p`` of :func:`needle_positions` ``(text, needle)`` where ``anchor`` (one
    character with no case, such as ``:`` or ``/``) stands at ``p + k`` for a ``k`` in
    ``offsets`` (a range with step 1), in order.

    An extractor whose pattern cannot match without that character there (``CorpusId:`` needs
    its colon 8 to 13 characters after ``corpus``) reads only these. Where the anchor is rare,
    as ``:`` and ``/`` are in prose, the needle is searched for only in a short window around
    each anchor, all windows joined in one string: a fraction of a full-text scan. The result
    is the same either way.

    >>> needle_near("DBLP: x, dblp y, DBLP :z", "dblp", ":", range(4, 9))
    [0, 17]
    """
    memo = _memo(text)
    fits = bool(offsets) and offsets[-1] < _REACH and len(needle) - offsets[0] <= _REACH
    if memo is None or not fits or needle in _SHARED:  # a shared needle's offsets are known
        return _with_anchor(text, needle_positions(text, needle), anchor, offsets)
    key = "\x00anchor" + anchor
    if key not in memo:
        anchors = char_positions(text, anchor)
        memo[key] = None if anchors is None else (anchors, _windows(text, anchors))
    kept: tuple[list[int], str] | None = memo[key]
    if kept is None:  # the anchor is too common to be worth it: search the whole text
        return _with_anchor(text, needle_positions(text, needle), anchor, offsets)
    anchors, windows = kept
    # A needle with its anchor at p + k lies wholly inside that anchor's window (k < _REACH
    # and len(needle) - k <= _REACH), so every such p is among these, each maybe more than once.
    near = {anchors[j // _STRIDE] - _REACH + j % _STRIDE for j in _find_all(windows, needle)}
    return _with_anchor(text, sorted(near), anchor, offsets)


def _with_anchor(text: str, positions: list[int], anchor: str, offsets: range) -> list[int]:
    first, stop = offsets.start, offsets.stop
    return [p for p in positions if anchor in text[p + first : p + stop]]


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
        return list(hint_positions(_lower(text), needles))
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
