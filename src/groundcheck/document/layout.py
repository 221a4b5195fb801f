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
        self._title_index: dict[int, _TitleIndex] = {}
        self._id_starts: dict[int, list[int]] = {}
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

    def _index(self, block: int) -> _TitleIndex:
        index = self._title_index.get(block)
        if index is None:
            index = self._title_index[block] = _TitleIndex(self._titles.get(block, []))
        return index

    def _neighbours(self, block: int, identifier: Citation) -> tuple[float, float]:
        """The start of the last other id that ends before ``identifier`` starts, and the end
        of the first other id that starts after it ends (infinities when there is none): a
        title between them has no other id between it and ``identifier``."""
        ids = self._ids.get(block, [])
        starts = self._id_starts.get(block)
        if starts is None:
            ids.sort(key=lambda c: c.start)
            starts = self._id_starts[block] = [c.start for c in ids]
        previous: float = float("-inf")
        i = bisect_right(starts, identifier.start) - 1
        while i >= 0:  # the largest start among the ids ending at or before our start
            c = ids[i]
            if c is not identifier and c.end <= identifier.start:
                previous = c.start
                break
            i -= 1
        following: float = float("inf")
        j = bisect_left(starts, identifier.end)
        while j < len(ids) and ids[j].start < following:  # the smallest end after our end
            c = ids[j]
            if c is not identifier:
                following = min(following, c.end)
            j += 1
        return previous, following

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
        # "No other id in between" bounds the titles to a window between the neighbouring
        # ids: found by bisection, so a paragraph of many ids and titles costs n log n, not
        # ids x titles x ids (a 100 KB paragraph of citations took 100 s).
        previous, following = self._neighbours(block, identifier)
        index = self._index(block)
        by_end, ends = index.by_end, index.ends
        by_start, starts = index.by_start, index.starts
        before = by_end[bisect_right(ends, previous) : bisect_right(ends, start)]
        after = by_start[bisect_left(starts, end) : bisect_left(starts, following)]
        before.sort(key=lambda t: index.order[id(t)])  # the candidates' own order, for ties
        after.sort(key=lambda t: index.order[id(t)])
        # Same line first ("Title (arXiv:X)", "X Title"), then the paragraph (a heading above);
        # before the id first, then after it; written titles before plain adjacent words.
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


class _TitleIndex:
    """A paragraph's title candidates sorted by end and by start, for window lookups."""

    def __init__(self, titles: Sequence[Citation]) -> None:
        self.order = {id(t): i for i, t in enumerate(titles)}
        self.by_end = sorted(titles, key=lambda t: t.end)
        self.ends = [t.end for t in self.by_end]
        self.by_start = sorted(titles, key=lambda t: t.start)
        self.starts = [t.start for t in self.by_start]


def _same_line(a: Citation, b: Citation) -> bool:
    return a.line == b.line
