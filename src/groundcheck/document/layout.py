"""Where things sit in a report: paragraphs, and which title is written beside which id.

A title is believed to be *cited* when it is written the way a citation is: in a reference
list or a BibTeX field, or quoted, emphasised, linked or used as a heading within the same
paragraph as an identifier (a heading belongs to the paragraph below it). Other title-like
phrases are only looked up, never reported: a bold sentence is not a citation.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from groundcheck.model import Citation

__all__ = ["Layout"]

_BLANK_LINES = re.compile(r"\n[ \t]*\n")
_HEADING_LINE = re.compile(r"[ \t]{0,3}#{1,6}[ \t]")
_ALWAYS_CITED = frozenset({"reference", "bibtex"})
_CITED_NEAR_ID = frozenset({"quoted", "heading", "emphasis", "link"})


class Layout:
    """Paragraph blocks of one text, with the identifiers and titles cited in each."""

    def __init__(self, text: str, citations: Sequence[Citation]) -> None:
        starts = [0]
        for m in _BLANK_LINES.finditer(text):
            following = m.end()
            # A paragraph that is only a heading joins the paragraph under it.
            previous = text[starts[-1] : m.start()].strip()
            if previous and "\n" not in previous and _HEADING_LINE.match(previous):
                continue
            starts.append(following)
        self._starts = starts
        self._ids: dict[int, list[Citation]] = {}
        self._titles: dict[int, list[Citation]] = {}
        self._pairing: dict[int, _Pairing] = {}
        for c in citations:
            if c.source is not None:
                continue  # bibliography files have no paragraphs worth pairing
            bucket = self._titles if c.is_title else self._ids
            bucket.setdefault(self.block(c.start), []).append(c)

    def block(self, offset: int) -> int:
        return bisect_right(self._starts, offset) - 1

    def cited(self, title: Citation) -> bool:
        """Is this title candidate written as a citation (see the module docstring)?"""
        if title.kind in _ALWAYS_CITED or title.source is not None:
            return True
        return title.kind in _CITED_NEAR_ID and bool(self._ids.get(self.block(title.start)))

    def title_beside(self, identifier: Citation) -> Citation | None:
        """The title written for an identifier, within its paragraph.

        Citations are written "Title (arXiv:X)", "[Title](.../abs/X)" or, in tool-style lists,
        "X Title". So: the nearest title *before* the id with no other id in between; failing
        that, the nearest title after it, again with no other id in between. Titles written
        as titles (quoted, heading, ...) win over plain words next to the id.
        """
        if identifier.source is not None:
            return None
        block = self.block(identifier.start)
        candidates = self._titles.get(block, [])
        if not candidates:
            return None
        start, end = identifier.start, identifier.end
        if end <= start:  # an empty span could sit inside a gap: the plain definition
            return _title_beside(identifier, candidates, self._ids.get(block, []))
        pairs = self._pairing.get(block)
        if pairs is None:
            pairs = self._pairing[block] = _Pairing(candidates, self._ids.get(block, []))
        before, after = pairs.around(start, end)
        # Same line first ("Title (arXiv:X)", "X Title"), then the paragraph (a heading above);
        # before the id first, then after it; written titles before plain adjacent words.
        return _choose(identifier, before, after)


class _Pairing:
    """The titles and ids of one paragraph, indexed by position, so that finding the titles
    with no other id between them and an id is two binary searches, not a scan of every
    title times every id (a reference list of thousands of entries is one paragraph).

    A title before the id at ``start`` is clear when no id lies wholly inside
    ``[title.end, start]``: when its end is after the last start of an id ending by
    ``start``. After the id (ending at ``end``): when the title starts before the first end
    of an id starting from ``end``. (The id itself lies in neither range: its span is not
    empty.)
    """

    def __init__(self, titles: list[Citation], ids: list[Citation]) -> None:
        self.order = {id(t): k for k, t in enumerate(titles)}
        self.by_end = sorted(titles, key=lambda t: t.end)
        self.ends = [t.end for t in self.by_end]
        self.by_start = sorted(titles, key=lambda t: t.start)
        self.starts = [t.start for t in self.by_start]
        ending = sorted(ids, key=lambda c: c.end)
        self.id_ends = [c.end for c in ending]
        self.max_start: list[int] = []  # max start among ids[:k+1] by end
        for c in ending:
            self.max_start.append(max(c.start, self.max_start[-1]) if self.max_start else c.start)
        starting = sorted(ids, key=lambda c: c.start)
        self.id_starts = [c.start for c in starting]
        self.min_end = [c.end for c in starting]  # min end among ids[k:] by start
        for k in range(len(self.min_end) - 2, -1, -1):
            self.min_end[k] = min(self.min_end[k], self.min_end[k + 1])

    def around(self, start: int, end: int) -> tuple[list[Citation], list[Citation]]:
        """(clear titles before, clear titles after) the id ``[start, end)``, in title order."""
        k = bisect_right(self.id_ends, start)
        last = self.max_start[k - 1] if k else None  # an id inside [t.end, start] needs this
        lo = bisect_left(self.ends, last + 1) if last is not None else 0
        before = self.by_end[lo : bisect_right(self.ends, start)]
        k = bisect_left(self.id_starts, end)
        first = self.min_end[k] if k < len(self.min_end) else None
        hi = bisect_left(self.starts, first) if first is not None else len(self.starts)
        after = self.by_start[bisect_left(self.starts, end) : hi]
        if first is not None:
            after = [t for t in after if t.start < first]
        order = self.order
        return sorted(before, key=lambda t: order[id(t)]), sorted(after, key=lambda t: order[id(t)])


def _title_beside(
    identifier: Citation, candidates: list[Citation], ids: list[Citation]
) -> Citation | None:
    """The plain definition :meth:`Layout.title_beside` follows (kept for empty spans)."""
    others = [c for c in ids if c is not identifier]

    def clear(lo: int, hi: int) -> bool:
        return not any(lo <= c.start and c.end <= hi for c in others)

    start, end = identifier.start, identifier.end
    before = [t for t in candidates if t.end <= start and clear(t.end, start)]
    after = [t for t in candidates if t.start >= end and clear(end, t.start)]
    return _choose(identifier, before, after)


def _choose(identifier: Citation, before: list[Citation], after: list[Citation]) -> Citation | None:
    start, end = identifier.start, identifier.end
    for pool, on_line in ((before, True), (after, True), (before, False), (after, False)):
        chosen = [t for t in pool if _same_line(t, identifier) == on_line]
        if on_line is False:
            chosen = [t for t in chosen if t.kind != "adjacent"]
        if chosen:
            return min(
                chosen,
                key=lambda t: (
                    t.kind == "adjacent",
                    start - t.end if t.end <= start else t.start - end,
                ),
            )
    return None


def _same_line(a: Citation, b: Citation) -> bool:
    return a.line == b.line
