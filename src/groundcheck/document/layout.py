"""Where things sit in a report: paragraphs, and which title is written beside which id.

A title is believed to be *cited* when it is written the way a citation is: in a reference
list or a BibTeX field, or quoted, emphasised, linked or used as a heading within the same
paragraph as an identifier (a heading belongs to the paragraph below it). Other title-like
phrases are only looked up, never reported: a bold sentence is not a citation.
"""

from __future__ import annotations

import re
from bisect import bisect_right
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
        others = [c for c in self._ids.get(block, []) if c is not identifier]

        def clear(lo: int, hi: int) -> bool:
            return not any(lo <= c.start and c.end <= hi for c in others)

        start, end = identifier.start, identifier.end
        before = [t for t in candidates if t.end <= start and clear(t.end, start)]
        after = [t for t in candidates if t.start >= end and clear(end, t.start)]
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


def _same_line(a: Citation, b: Citation) -> bool:
    return a.line == b.line
