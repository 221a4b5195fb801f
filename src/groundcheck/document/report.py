"""The report parsed once: blocks, code, reference entries and in-text markers, with places.

:class:`Document` is what every later stage reads instead of the raw text: which block an
offset is in, whether it is code, which entry of which reference list it belongs to, and
which markers point where. Parsing is linear in the text (one pass over lines, one pass of
each anchored pattern), so it can run on every report and every tool output.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections.abc import Sequence
from functools import cached_property

from groundcheck.document.blocks import CELL, HEADING, KIND_CODE, Block, Blocks, LineMap, scan
from groundcheck.document.references import Entry, find_entries
from groundcheck.model import Marker

__all__ = ["Document"]

_LOCK = threading.Lock()
_HEADING, _CELL = KIND_CODE[HEADING], KIND_CODE[CELL]
_LAST: list[Document] = []


class Document:
    """A report's structure. ``ids`` are the sorted spans of the identifiers found in it.

    >>> doc = Document("See [1] and [3].\\n\\n## References\\n1. Lewis, P. (2020). RAG. NeurIPS.")
    >>> [e.label for e in doc.entries], [m.labels for m in doc.markers]
    (['1'], [('1',), ('3',)])
    """

    def __init__(self, text: str, ids: Sequence[tuple[int, int]] = ()) -> None:
        self.text = text
        blocks, code, line_starts = scan(text)
        self.blocks: Blocks = blocks
        self.code: tuple[tuple[int, int], ...] = tuple(code)
        self.lines = LineMap(line_starts)
        self.entries: tuple[Entry, ...] = tuple(find_entries(text, blocks, sorted(ids)))
        self._entry_starts = [e.start for e in self.entries]

    @classmethod
    def parse(cls, text: str, ids: Sequence[tuple[int, int]] = ()) -> Document:
        """The document of ``text``, parsed once for both the title extractor and the auditor.

        The last document parsed is kept (one, never more): extraction reads the report's
        blocks and entries for its titles, and the audit then reads the same text again.
        ``ids`` only mark where entries' identifiers start, so the extractor's and the
        auditor's lists (one before overlaps are resolved, one after) give the same parse.
        """
        with _LOCK:
            last = _LAST[0] if _LAST else None
        if last is not None and (last.text is text or last.text == text):
            return last  # equal texts: the extractor's view of a report it did not change
        with _LOCK:  # let the last one go first: a flood's document is as big as this one
            if _LAST and _LAST[0] is last:
                _LAST.clear()
        del last
        document = cls(text, ids)
        with _LOCK:
            _LAST[:] = [document]
        return document

    @cached_property
    def markers(self) -> tuple[Marker, ...]:
        """Numbered, footnote and cite-key markers, in order (see :mod:`.markers`)."""
        from groundcheck.document.markers import numbered_markers  # what the audit reads

        labels_at = frozenset(_label_offsets(self.text, self.blocks, self.entries))
        return tuple(numbered_markers(self.text, self.code, labels_at, self.lines))

    @cached_property
    def author_years(self) -> tuple[tuple[Marker, bool], ...]:
        """Author–year citations, each with whether its form is unmistakable."""
        from groundcheck.document.markers import author_year_markers

        return tuple(author_year_markers(self.text, self.code, self.lines))

    def in_code(self, offset: int) -> bool:
        from groundcheck.document.markers import in_spans  # markers compile on first use

        return in_spans(self.code, offset)

    def block_index(self, offset: int) -> int | None:
        """Index of the block holding ``offset`` (the last one starting at or before it)."""
        blocks = self.blocks
        i = bisect_right(blocks.starts, offset) - 1
        if i < 0 or offset > max(blocks.ends[i], blocks.bodies[i]):
            return None
        return i

    def block_at(self, offset: int) -> Block | None:
        i = self.block_index(offset)
        return None if i is None else self.blocks[i]

    def entry_at(self, offset: int) -> Entry | None:
        """The reference entry whose span holds ``offset``, if any."""
        i = bisect_right(self._entry_starts, offset) - 1
        if i < 0:
            return None
        e = self.entries[i]
        return e if offset < e.end else None

    def heading_above(self, index: int) -> int | None:
        """Index of the nearest heading before block ``index`` (None if there is none)."""
        j = self.blocks.codes.rfind(_HEADING, 0, max(index, 0))
        return None if j == -1 else j

    def unit(self, offset: int) -> tuple[str, int] | None:
        """What a citation at ``offset`` is written in: a table row, or a block."""
        i = self.block_index(offset)
        if i is None:
            return None
        blocks = self.blocks
        return ("row", blocks.rows[i]) if blocks.codes[i] == _CELL else ("block", i)


def _label_offsets(text: str, blocks: Blocks, entries: Sequence[Entry]) -> list[int]:
    """Where the labels of list items and entries start: ``[1] Lewis …`` is no marker of [1]."""
    out = []
    for marker, start, body in zip(blocks.markers, blocks.starts, blocks.bodies, strict=True):
        if marker[:1] in ("[", "【"):
            at = text.find(marker[:1], start, body)
            if at != -1:
                out.append(at)
    for e in entries:
        for opener in ("[", "【"):
            at = text.find(opener, e.start, e.body)
            if at != -1:
                out.append(at)
    return out
