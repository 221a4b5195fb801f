"""The blocks of a report, found in one pass over its lines.

Headings (ATX ``#``, setext underlines, LaTeX ``\\section``, and label lines such as
``**Sources:**`` or a bare ``References``), paragraphs, list items (``-``, ``1.``, ``[1]``,
``【1】``, ``[^1]:`` footnote definitions, ``[1]: url`` link definitions, ``\\bibitem``),
table cells, block quotes and code (fenced blocks and inline code spans). This is the part of
CommonMark the checks need and no more: a linear scanner over lines, every pattern anchored at
a line start, so a 10 MB report or a 1 MB paragraph costs one pass.

Code is kept apart: nothing in it is a marker or a title (identifiers still count, so an id in
backticks cannot hide, and BibTeX in a fenced block is still a bibliography).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, islice, repeat
from operator import lt
from typing import overload

from attrs import fields, frozen

from groundcheck.text import LazyPattern, extend_range

__all__ = [
    "CELL",
    "CODE",
    "HEADING",
    "ITEM",
    "LABEL_LEVEL",
    "LABEL_WORDS",
    "PARAGRAPH",
    "QUOTE",
    "Block",
    "Blocks",
    "scan",
]

HEADING = "heading"
PARAGRAPH = "paragraph"
ITEM = "item"
CELL = "cell"
QUOTE = "quote"
CODE = "code"

LABEL_LEVEL = 7
"""Level of a label line (``**References**``, ``Sources:``): below every real heading."""


@frozen
class Block:
    """One block: its kind, its span, and where its content starts.

    ``start`` is the first character of the block (marker included), ``body`` the first
    character of its content, ``end`` one past its last content character. ``label`` is what
    an in-text marker would call a list item (``3`` for ``3.``, ``[3]`` or ``【3】``, ``^a``
    for ``[^a]:``, the key of ``\\bibitem{key}``).
    """

    kind: str
    start: int
    body: int
    end: int
    line: int
    level: int = 0
    label: str | None = None
    marker: str = ""
    row: int = -1
    """For table cells: the index of their row among all table rows of the report (a header
    row's cells have ``level`` 1)."""
    header: str = ""
    """For table cells: the text of their column's header cell."""


_FENCE = LazyPattern(r"[ ]{0,3}(`{3,}|~{3,})")
_ATX = LazyPattern(r"[ ]{0,3}(#{1,6})(?:[ \t]+|$)")
_SETEXT = LazyPattern(r"[ ]{0,3}(=+|-+)[ \t]*$")
_RULE = LazyPattern(r"[ ]{0,3}(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*){3,})$")
_LATEX_HEADING = LazyPattern(
    r"[ \t]*\\(part|chapter|section|subsection|subsubsection|paragraph)\*?[ \t]*\{"
)
_BIBITEM = LazyPattern(
    r"[ \t]*\\bibitem[ \t]*(?:\[[^\]\n]{0,200}\])?[ \t]*\{([^}\n]{1,100})\}[ \t]*"
)
_THEBIBLIOGRAPHY = LazyPattern(r"[ \t]*\\begin\{thebibliography\}")
_ITEM = LazyPattern(
    r"([ \t]{0,12})"
    r"(?:"
    r"(?P<bullet>[-*+•‣▪◦])"
    r"|(?P<num>\d{1,5})[.)]"
    r"|\[(?P<bracket>\d{1,5})\]"
    r"|\[(?P<keyed>[A-Z][A-Za-z0-9]{0,15}(?:[-_][A-Za-z0-9]{1,15}){0,2}[-_]\d{1,4})\]"
    r"|【(?P<lenticular>\d{1,5})】"
    r"|\((?P<paren>\d{1,5})\)"
    r"|\[\^(?P<foot>[^\]\s]{1,40})\]:"
    r"|\[(?P<linkdef>[^\]\n]{1,40})\]:(?=[ \t]*\S)"
    r")"
    r"(?:[ \t]+|$)"
)
_ITEM_OPENERS = frozenset("-*+•‣▪◦[【(")
"""What an item's marker opens with, but a digit (``\\d``: what ``str.isdecimal`` says): a
line opening with anything else is no item, asked without the pattern."""
_QUOTE = LazyPattern(r"[ ]{0,3}>[ \t]?")
_DELIMITER = LazyPattern(r"[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
_BOLD_LINE = LazyPattern(r"(\*\*|__)([^*_\n]{1,120}?)\1[ \t]*:?[ \t]*$")
_LABEL_TEXT = LazyPattern(r"[A-Za-z][A-Za-z &/-]{2,60}:?[ \t]*$")
LABEL_WORDS = frozenset(
    {
        "references", "reference", "sources", "source", "bibliography", "citations",
        "works cited", "further reading", "reference list", "literature cited",
        "sources cited", "cited works", "notes", "footnotes", "endnotes", "links",
        "sources and references", "references and sources", "key references",
        "selected references", "additional references", "reading list", "papers cited",
        "cited papers", "works consulted", "sources consulted",
    }
)  # fmt: skip
"""Bare lines (``References``, ``Sources:``) that head a list: only these become labels, since
any other short line of plain text is more often prose than a heading."""


_SPECIAL = (
    r"[ \t]*(?:"
    r"[`~#=*_\\>|+•‣▪◦\[【(-]"  # a fence, heading, rule, quote, LaTeX, table or list item
    r"|[^\S \t\r\n]|\r(?!\n)"  # another space character first: left to the line loop
    r"|\d{1,5}[.)](?:[ \t]|\r?\n)"  # a numbered item ("1. Lewis")
    rf"|(?i:{'|'.join(sorted(LABEL_WORDS, key=lambda w: (-len(w), w)))})[ \t:]*\r?\n"
    r")"
)
_SPECIAL_HERE = LazyPattern(_SPECIAL)
_OPENS_BLOCK = frozenset("`~#=*_\\>|+•‣▪◦[【(-")
"""First characters of most lines the line loop must read: a cheap test before the regex."""
_SPECIAL_NEXT = LazyPattern(r"\n" + _SPECIAL)
"""A line the line loop must read: one that may open something other than a paragraph.

Every other line (blank, or plain: its first character opens no fence, heading, rule, quote,
LaTeX command, table or list item, and it is no label line) only starts or continues a
paragraph, or continues the item or quote above it; if it holds no ``|`` either, the scanner
reads a run of such lines in bulk (one block per paragraph, the paragraphs cut at blank lines
by one regex). The test is stricter than the branches it stands for (``Sources : :`` is no
label line; a number indented past twelve spaces is no item): a line in doubt is read by the
line loop, which gives the same blocks."""
_NUMBERED_LINE = LazyPattern(r"(?P<head>([ \t]{0,12})(\d{1,5})[.)])(?:[ \t]+([^|\n]*)|\r?)\n")
"""A whole line that is a numbered item and nothing the line loop reads otherwise (no ``|``):
``_ITEM``'s ``num`` branch, its body running to the line's end (a ``\r`` before the newline
is not part of it). Groups: 1 the head (indent, number, ``.`` or ``)``), 2 the indent, 3 the
number, 4 the body."""


def _item_head(m: re.Match[str]) -> tuple[int, str, str]:
    """Level, label and marker of the item a :data:`_NUMBERED_LINE` match reads."""
    indent, number = m.group(2, 3)
    return len(indent.expandtabs(4)) if indent else 0, str(int(number)), m.group(1).strip()


_ATX_BEFORE_ATX = LazyPattern(r"(#{1,6})(?:[ \t]+|(?=\r?\n))([^\n]*)\n(?=#)")
"""An ATX heading opening its line (``_ATX`` with no indent) whose next line opens with ``#``:
the heading is not wrapped onto it (``_wrapped_heading`` needs an indented line)."""
_BLANKS = LazyPattern(r"\n(?:[ \t]*\r?\n)+")
_LEADING_BLANKS = LazyPattern(r"(?:[ \t]*\r?\n)*")


def _copies(text: str, line: str, start: int, end: int) -> int:
    """How many copies of ``line`` follow one another from ``start`` (``line`` is there)
    within ``text[:end]``: by doubling, then halving, a run of copies, so a flood of one line
    costs a few string comparisons (at memcmp speed), not one per line."""
    size = len(line)
    count = 1
    chunk = line
    while text.startswith(chunk, start + count * size, end):  # count doubles while it fits
        count *= 2
        chunk += chunk
    step = count // 2
    while step:
        if text.startswith(line * step, start + count * size, end):
            count += step
        step //= 2
    return count


_SET_FIELDS = tuple(getattr(Block, f.name).__set__ for f in fields(Block))
_NEW = object.__new__


def _copy_block(  # noqa: PLR0917 - positional, as map() passes them
    kind: str,
    start: int,
    body: int,
    end: int,
    line: int,
    level: int,
    label: str | None,
    marker: str,
    row: int = -1,
    header: str = "",
) -> Block:
    """``Block(kind, start, body, end, line, level, label, marker, row, header)``, its slots
    filled as attrs' ``__init__`` fills them (a block has no validator, converter or
    post-init) but each by its slot's own setter: a quarter cheaper, and :class:`Blocks`
    makes one each time a block is read."""
    block = _NEW(Block)
    kind_, start_, body_, end_, line_, level_, label_, marker_, row_, header_ = _SET_FIELDS
    kind_(block, kind)
    start_(block, start)
    body_(block, body)
    end_(block, end)
    line_(block, line)
    level_(block, level)
    label_(block, label)
    marker_(block, marker)
    row_(block, row)
    header_(block, header)
    return block


KINDS = (HEADING, PARAGRAPH, ITEM, CELL, QUOTE, CODE)
"""Every kind of block, in the order of their codes in :attr:`Blocks.codes`."""
KIND_CODE = {kind: code for code, kind in enumerate(KINDS)}


def offsets(size: int) -> array[int]:
    """An empty array for offsets into a text of ``size`` characters: 4 bytes each when they
    fit (every text below 2 GiB), 8 otherwise."""
    return array("i" if size < 2**31 - 1 else "q")


class Blocks(Sequence[Block]):
    """The blocks of a text, kept as columns: a :class:`Block` is made each time one is read.

    A report of 1 MB can hold 250,000 blocks (a flood of ``# a`` lines); as objects, each
    with its four offsets as ints, they took 290 bytes each, 70 times the text. As columns
    (a byte for the kind, 4 for each offset and the level, a shared reference for each
    string) a block takes about 50. Code that reads every block of a long text reads the
    columns (:attr:`codes`, :attr:`starts` …) instead of making each :class:`Block`.
    """

    __slots__ = (
        "bodies", "codes", "ends", "headers", "labels", "levels", "lines", "markers", "rows",
        "starts",
    )  # fmt: skip

    def __init__(self, size: int = 0) -> None:
        self.codes = bytearray()
        """The kind of each block, as its index in :data:`KINDS`."""
        self.starts = offsets(size)
        self.bodies = offsets(size)
        self.ends = offsets(size)
        self.lines = offsets(size)
        self.levels = offsets(size)
        self.labels: list[str | None] = []
        self.markers: list[str] = []
        self.rows = offsets(size)
        self.headers: list[str] = []

    @classmethod
    def of(cls, blocks: Iterable[Block]) -> Blocks:
        """``blocks`` as columns (itself if it already is)."""
        if isinstance(blocks, Blocks):
            return blocks
        out = cls(2**31)
        for b in blocks:
            out.append(b)
        return out

    def add(  # noqa: PLR0917 - a block's fields, in order
        self,
        kind: str,
        start: int,
        body: int,
        end: int,
        line: int,
        level: int = 0,
        label: str | None = None,
        marker: str = "",
        row: int = -1,
        header: str = "",
    ) -> None:
        """Add the block ``Block(kind, start, body, end, line, level, label, marker, row,
        header)`` without making it."""
        self.codes.append(KIND_CODE[kind])
        self.starts.append(start)
        self.bodies.append(body)
        self.ends.append(end)
        self.lines.append(line)
        self.levels.append(level)
        self.labels.append(label)
        self.markers.append(marker)
        self.rows.append(row)
        self.headers.append(header)

    def append(self, block: Block) -> None:
        self.add(
            block.kind, block.start, block.body, block.end, block.line, block.level,
            block.label, block.marker, block.row, block.header,
        )  # fmt: skip

    def add_copies(self, first: Block, size: int, count: int) -> None:
        """Add ``count`` copies of ``first``, each moved ``size`` characters past the one
        before it and one line down (the blocks of a run of copies of one line), by a few
        C-level extends."""
        shift = count * size
        self.codes += bytes((KIND_CODE[first.kind],)) * count
        extend_range(self.starts, range(first.start, first.start + shift, size))
        extend_range(self.bodies, range(first.body, first.body + shift, size))
        extend_range(self.ends, range(first.end, first.end + shift, size))
        extend_range(self.lines, range(first.line, first.line + count))
        self.levels += array(self.levels.typecode, (first.level,)) * count
        self.labels.extend(repeat(first.label, count))
        self.markers.extend(repeat(first.marker, count))
        self.rows += array(self.rows.typecode, (first.row,)) * count
        self.headers.extend(repeat(first.header, count))

    def in_order(self) -> bool:
        """Do the blocks start at strictly increasing offsets?"""
        starts = self.starts
        return all(map(lt, starts, islice(starts, 1, None)))

    def sort(self) -> None:
        """Order the blocks by ``(start, body)``, as ``list.sort`` would (stably)."""
        starts, bodies = self.starts, self.bodies
        order = sorted(range(len(starts)), key=lambda i: (starts[i], bodies[i]))
        for name in self.__slots__:
            column = getattr(self, name)
            picked = [column[i] for i in order]
            if isinstance(column, list):
                setattr(self, name, picked)
            elif isinstance(column, bytearray):
                setattr(self, name, bytearray(picked))
            else:
                setattr(self, name, array(column.typecode, picked))

    def kind(self, index: int) -> str:
        return KINDS[self.codes[index]]

    def indices(self, kind: str, start: int = 0, stop: int | None = None) -> Iterator[int]:
        """The indices of the blocks of ``kind`` in ``[start, stop)``, found by a C-level
        search of :attr:`codes`: no block of another kind is looked at."""
        codes, code = self.codes, KIND_CODE[kind]
        stop = len(codes) if stop is None else stop
        i = codes.find(code, start, stop)
        while i != -1:
            yield i
            i = codes.find(code, i + 1, stop)

    def __len__(self) -> int:
        return len(self.codes)

    @overload
    def __getitem__(self, index: int) -> Block: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Block, ...]: ...

    def __getitem__(self, index: int | slice) -> Block | tuple[Block, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        if index < 0:
            index += len(self.codes)
        return _copy_block(
            KINDS[self.codes[index]], self.starts[index], self.bodies[index],
            self.ends[index], self.lines[index], self.levels[index], self.labels[index],
            self.markers[index], self.rows[index], self.headers[index],
        )  # fmt: skip

    def __iter__(self) -> Iterator[Block]:
        return map(
            _copy_block, map(KINDS.__getitem__, self.codes), self.starts, self.bodies,
            self.ends, self.lines, self.levels, self.labels, self.markers, self.rows,
            self.headers,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Blocks):
            return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable while scanned, as a list is

    def __repr__(self) -> str:
        return f"Blocks({list(self)!r})"


def _item_label(m: re.Match[str]) -> tuple[str | None, str]:
    for group in ("num", "bracket", "lenticular", "paren"):
        value = m.group(group)
        if value is not None:
            return str(int(value)), group
    if m.group("foot") is not None:
        return "^" + m.group("foot"), "foot"
    if m.group("keyed") is not None:
        return m.group("keyed"), "keyed"
    if m.group("linkdef") is not None:
        return m.group("linkdef").strip(), "linkdef"
    return None, "bullet"


class _Builder:
    """The block being read: paragraphs, items and quotes run over several lines."""

    __slots__ = ("body", "end", "kind", "label", "level", "line", "lines", "marker", "start")

    def __init__(
        self,
        kind: str,
        start: int,
        body: int,
        end: int,
        line: int,
        *,
        level: int = 0,
        label: str | None = None,
        marker: str = "",
    ) -> None:
        self.kind = kind
        self.start = start
        self.body = body
        self.end = end
        self.line = line
        self.level = level
        self.label = label
        self.marker = marker
        self.lines = 1

    def block(self) -> Block:
        return Block(
            self.kind, self.start, self.body, self.end, self.line, self.level, self.label,
            self.marker,
        )  # fmt: skip


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in " \t\r":
        start += 1
    while end > start and text[end - 1] in " \t\r":
        end -= 1
    return start, end


def _atx_title(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of an ATX heading's title in ``text[start:end]`` (the line after its ``#``):
    trimmed, without a closing run of ``#`` that stands apart (``## Title ##``)."""
    title = text[start:end].lstrip(" \t\r")  # as _trim does, by C-level strips
    body = end - len(title)
    title = title.rstrip(" \t\r")
    hend = body + len(title)
    stripped = title.rstrip("#")
    if len(stripped) != len(title) and (not stripped or stripped[-1] in " \t"):
        hend = body + len(stripped.rstrip(" \t"))
    return body, hend


def _label_heading(text: str, b: _Builder) -> Block | None:
    """A one-line paragraph that is a heading in all but syntax: ``**Sources**``, ``Notes:``."""
    if b.end - b.body > 62 and not text.startswith(("**", "__"), b.body, b.end):
        return None  # neither bold nor a short label: not copied (a long line is megabytes)
    line = text[b.body : b.end]
    bold = _BOLD_LINE.match(line)
    if bold is not None:
        body = b.body + bold.start(2)
        end = b.body + bold.end(2)
        return Block(HEADING, b.start, body, end, b.line, LABEL_LEVEL, marker=bold.group(1))
    if len(line) <= 62 and _LABEL_TEXT.match(line):
        name = line.rstrip(" \t:").strip().casefold()
        if name in LABEL_WORDS:
            end = b.body + len(line.rstrip(" \t:"))
            return Block(HEADING, b.start, b.body, end, b.line, LABEL_LEVEL)
    return None


def scan(text: str) -> tuple[Blocks, list[tuple[int, int]], array[int]]:
    """Blocks, code spans (sorted, disjoint) and line starts of ``text``, in one pass.

    >>> blocks, code, _ = scan("# RAG\\n\\n1. Lewis (2020). arXiv:2005.11401\\n\\nSee `x[1]`.")
    >>> [(b.kind, b.label) for b in blocks]
    [('heading', None), ('item', '1'), ('paragraph', None)]
    >>> code
    [(46, 52)]
    """
    n = len(text)
    blocks = Blocks(n)
    code: list[tuple[int, int]] = []
    line_starts = offsets(n)
    pos = 0
    line_no = 0
    current: _Builder | None = None
    fence: tuple[str, int, int, int] | None = None  # char, length, start, line
    table_header: list[str] | None = None
    table_rows = 0
    in_table = False
    last_line = text.rfind("\n") + 1  # the last line has no newline: the line loop reads it
    special_at = pipe_at = -1
    heads: dict[str, tuple[int, str, str]] = {}  # a numbered item's head: level, label, marker

    def close() -> None:
        nonlocal current
        if current is None:
            return
        if current.kind == PARAGRAPH and current.lines == 1:
            label = _label_heading(text, current)
            if label is not None:
                blocks.append(label)
                current = None
                return
        blocks.append(current.block())
        current = None

    while pos <= n:
        if fence is None and pos < last_line and (numbered := _NUMBERED_LINE.match(text, pos)):
            # A run of numbered items of one line each ("1. Lewis …", a flood of "2005."), read
            # without the line loop's tests: each is an item, and closes the block above it.
            # Each line is one match, which ends at its newline; the run ends at the first
            # line that is not one, and its last line is left open (the next line may continue
            # it). What an item's head makes of its level, label and marker is worked out once
            # per head (a list repeats "1.", a flood "2005.").
            close()
            add = blocks.add
            new_line = line_starts.append
            while numbered is not None:
                start, stop = numbered.span()
                nl = stop - 1
                content_end = nl - 1 if text[nl - 1] == "\r" else nl
                body = numbered.start(4)
                if body == -1:
                    body = content_end
                head = numbered.group(1)
                known = heads.get(head)
                if known is None:
                    known = heads[head] = _item_head(numbered)
                elif text.startswith(text[start:stop], stop):
                    # Copies of this line follow it (a flood repeats one line; a copy has the
                    # same head, so only a head seen before is looked at): a line's block
                    # depends on its text alone, so each copy's is this one's, moved. They are
                    # counted by a few string comparisons and their blocks made in one call,
                    # not one match and one pass a line. A copy that ends the run is left to
                    # the next pass.
                    size = stop - start
                    copies = _copies(text, text[start:stop], start, n)
                    after = start + copies * size
                    if _NUMBERED_LINE.match(text, after) is None:
                        copies -= 1
                        after -= size
                    one = Block(ITEM, start, body, content_end, line_no + 1, *known)
                    extend_range(line_starts, range(start, after, size))
                    blocks.add_copies(one, size, copies)
                    line_no += copies
                    numbered = _NUMBERED_LINE.match(text, after)
                    continue
                line_no += 1
                new_line(start)
                numbered = _NUMBERED_LINE.match(text, stop)
                if numbered is not None:
                    add(ITEM, start, body, content_end, line_no, *known)
                else:  # the run's last line: the next line may continue it
                    item_level, item_label, item_marker = known
                    current = _Builder(
                        ITEM, start, body, content_end, line_no, level=item_level,
                        label=item_label, marker=item_marker,
                    )  # fmt: skip
                    pos = stop
            continue
        if fence is None and text.startswith("#", pos) and (m := _ATX_BEFORE_ATX.match(text, pos)):
            # A run of ATX headings, each followed by another ("# a" lines): no heading in it
            # is wrapped onto the next line, which opens with "#". The last is the loop's.
            close()
            while True:
                nl = m.end() - 1
                content_end = nl - 1 if text[nl - 1] == "\r" else nl
                body, hend = _atx_title(text, m.start(2), content_end)
                # This heading and the copies of its line right after it, each followed by
                # a "#" line as the pattern asks (a flood of "# a"): made as the numbered
                # lines' copies are.
                size = nl + 1 - pos
                copies = _copies(text, text[pos : nl + 1], pos, n)
                if not text.startswith("#", pos + copies * size):
                    copies -= 1  # the last copy is followed by another line: the loop's
                one = Block(HEADING, pos, body, hend, line_no + 1, m.end(1) - pos)
                extend_range(line_starts, range(pos, pos + copies * size, size))
                blocks.add_copies(one, size, copies)
                line_no += copies
                pos += copies * size
                if (m := _ATX_BEFORE_ATX.match(text, pos)) is None:
                    break
            continue
        if fence is None and pos < last_line and text[pos] not in _OPENS_BLOCK:
            if pos > special_at:  # where the next line the loop must read starts
                if _SPECIAL_HERE.match(text, pos) is not None:
                    special_at = pos
                else:
                    special = _SPECIAL_NEXT.search(text, pos, last_line)
                    special_at = last_line if special is None else special.start() + 1
            if pos > pipe_at:  # where the next line holding a "|" starts
                bar = text.find("|", pos, last_line)
                pipe_at = last_line if bar == -1 else (text.rfind("\n", pos, bar) + 1 or pos)
            run_end = min(special_at, pipe_at)
            second = text.find("\n", pos, run_end) + 1  # 0: not one whole line
            if second and text.find("\n", second, run_end) != -1:
                # Two lines or more, plain or blank, read in bulk (see _SPECIAL); one line
                # costs the line loop less than setting up the bulk read.
                first_index = len(line_starts)
                lengths = map(len, text[pos : run_end - 1].split("\n"))
                extend_range(line_starts, accumulate(map((1).__add__, lengths), initial=pos))
                line_starts.pop()  # run_end: the next line's start, appended when it is read
                lead = _LEADING_BLANKS.match(text, pos, run_end)
                at = pos if lead is None else lead.end()
                if at > pos:
                    close()
                    in_table = False
                    table_header = None
                for gap in _BLANKS.finditer(text, at, run_end):  # whole paragraphs
                    newline = gap.start()
                    last = newline - 1 if text[newline - 1] == "\r" else newline
                    if current is not None:  # continues the paragraph, item or quote above
                        current.end = last
                        current.lines += text.count("\n", at, newline) + 1
                        close()
                    else:
                        body = at
                        while text[body] in " \t":
                            body += 1
                        line = bisect_left(line_starts, at, first_index) + 1
                        blocks.add(PARAGRAPH, at, body, last, line)
                    at = gap.end()
                    in_table = False
                    table_header = None
                if at < run_end:  # the last paragraph: the next line may continue it
                    newline = run_end - 1
                    last = newline - 1 if text[newline - 1] == "\r" else newline
                    lines = text.count("\n", at, newline) + 1
                    if current is not None:
                        current.end = last
                        current.lines += lines
                    else:
                        body = at
                        while text[body] in " \t":
                            body += 1
                        line = bisect_left(line_starts, at, first_index) + 1
                        current = _Builder(PARAGRAPH, at, body, last, line)
                        current.lines = lines
                line_no += text.count("\n", pos, run_end)
                pos = run_end
                continue
        nl = text.find("\n", pos)
        end = n if nl == -1 else nl
        line_no += 1
        line_starts.append(pos)
        content_end = end - 1 if end > pos and text[end - 1] == "\r" else end
        first = pos
        while first < content_end and text[first] in " \t":
            first += 1
        blank = first == content_end

        if fence is not None:
            char, length, fstart, _ = fence
            m = _FENCE.match(text, pos, content_end)
            if (
                m is not None
                and m.group(1)[0] == char
                and len(m.group(1)) >= length
                and not text[m.end() : content_end].strip()
            ):
                code.append((fstart, content_end))
                blocks.append(Block(CODE, fstart, fstart, content_end, fence[3]))
                fence = None
        elif blank:
            close()
            in_table = False
            table_header = None
        else:
            ch = text[first]
            handled = True
            if ch in "`~" and (m := _FENCE.match(text, pos, content_end)) is not None:
                close()
                fence = (m.group(1)[0], len(m.group(1)), pos, line_no)
            elif ch == "#" and (m := _ATX.match(text, pos, content_end)) is not None:
                close()
                body, hend = _atx_title(text, m.end(), content_end)
                wrapped = _wrapped_heading(text, nl)
                if wrapped is not None and hend > body:
                    hend = wrapped  # "### A long title\n  wrapped onto the next line"
                    line_starts.append(nl + 1)
                    line_no += 1
                    nl = text.find("\n", nl + 1)
                    content_end = len(text) if nl == -1 else nl
                blocks.add(HEADING, pos, body, hend, line_no, len(m.group(1)))
            elif (
                ch in "=-"
                and current is not None
                and current.kind == PARAGRAPH
                and current.lines == 1
                and _SETEXT.match(text, pos, content_end) is not None
            ):
                level = 1 if ch == "=" else 2
                b = current
                current = None
                blocks.append(Block(HEADING, b.start, b.body, b.end, b.line, level))
            elif ch in "*_-" and _RULE.match(text, pos, content_end) is not None:
                close()
            elif (
                (current is None or current.kind == PARAGRAPH)
                and content_end - first <= 62
                and _LABEL_TEXT.match(text, first, content_end) is not None
                and text[first:content_end].rstrip(" \t:").casefold() in LABEL_WORDS
            ):
                close()  # "REFERENCES" on its own line heads the lines under it
                hend = first + len(text[first:content_end].rstrip(" \t:"))
                blocks.append(Block(HEADING, pos, first, hend, line_no, LABEL_LEVEL))
            elif ch in "*_" and (m := _BOLD_LINE.match(text, first, content_end)) is not None:
                close()  # a line that is all bold heads what follows, even without a blank line
                blocks.append(
                    Block(HEADING, pos, m.start(2), m.end(2), line_no, LABEL_LEVEL, marker=m[1])
                )
            elif ch == "\\" and (m := _LATEX_HEADING.match(text, pos, content_end)) is not None:
                close()
                level = {"part": 1, "chapter": 1, "section": 2, "subsection": 3}.get(m.group(1), 4)
                close_brace = text.find("}", m.end(), content_end)
                hend = content_end if close_brace == -1 else close_brace
                blocks.append(Block(HEADING, pos, m.end(), hend, line_no, level, marker="\\"))
            elif ch == "\\" and _THEBIBLIOGRAPHY.match(text, pos, content_end) is not None:
                close()
                blocks.append(
                    Block(HEADING, pos, first, content_end, line_no, LABEL_LEVEL, marker="\\bib")
                )
            elif ch == "\\" and (m := _BIBITEM.match(text, pos, content_end)) is not None:
                close()
                current = _Builder(
                    ITEM, pos, m.end(), content_end, line_no, label=m.group(1), marker="\\bibitem"
                )
            elif ch == ">" and (m := _QUOTE.match(text, pos, content_end)) is not None:
                if current is not None and current.kind == QUOTE:
                    current.end = content_end
                    current.lines += 1
                else:
                    close()
                    current = _Builder(QUOTE, pos, m.end(), content_end, line_no)
            elif ch == "|" or (in_table and text.find("|", first, content_end) != -1):
                close()
                if _DELIMITER.match(text, pos, content_end) is None:
                    row_end = content_end
                    row_wrap = _wrapped_row(text, first, content_end, nl) if ch == "|" else None
                    if row_wrap is not None:
                        line_starts.append(nl + 1)
                        row_end, nl = row_wrap  # one row, hard-wrapped inside a cell
                    cells = _cells(text, first, row_end)
                    is_header = table_header is None
                    if table_header is None:
                        table_header = [text[a:b] for a, b in cells]
                    for i, (a, z) in enumerate(cells):
                        header = table_header[i] if i < len(table_header) else ""
                        blocks.append(
                            Block(
                                CELL,
                                a,
                                a,
                                z,
                                line_no,
                                int(is_header),
                                row=table_rows,
                                header=header.strip(),
                            )
                        )
                    table_rows += 1
                    if row_wrap is not None:
                        line_no += 1
                in_table = True
            elif (
                nl != -1
                and text.find("|", first, content_end) != -1
                and _is_delimiter(text, nl + 1)
            ):
                close()
                cells = _cells(text, first, content_end)
                table_header = [text[a:b] for a, b in cells]
                for i, (a, z) in enumerate(cells):
                    header = table_header[i].strip()
                    blocks.append(Block(CELL, a, a, z, line_no, 1, row=table_rows, header=header))
                table_rows += 1
                in_table = True
            else:
                handled = False
            if not handled:
                # (An item opens, after its indent, with a bullet, a digit or a bracket.)
                m = (
                    _ITEM.match(text, pos, content_end)
                    if ch in _ITEM_OPENERS or ch.isdecimal()
                    else None
                )
                if m is not None and (m.group("bullet") is None or m.end() < content_end):
                    close()
                    label, how = _item_label(m)
                    marker = text[pos + len(m.group(1)) : m.end()].strip()
                    indent = len(m.group(1).expandtabs(4))
                    current = _Builder(
                        ITEM,
                        pos,
                        m.end(),
                        content_end,
                        line_no,
                        level=indent,
                        label=label,
                        marker=marker,
                    )
                    if how == "linkdef" and not text[m.end() : content_end].strip():
                        current = None
                elif current is not None and current.kind in (PARAGRAPH, ITEM, QUOTE):
                    current.end = content_end
                    current.lines += 1
                else:
                    close()
                    current = _Builder(PARAGRAPH, pos, first, content_end, line_no)
        if nl == -1:
            break
        pos = nl + 1
    if fence is not None:  # an unclosed fence runs to the end, as in CommonMark
        code.append((fence[2], n))
        blocks.append(Block(CODE, fence[2], fence[2], n, fence[3]))
    close()
    if not blocks.in_order():  # mostly found in order already
        blocks.sort()
    spans = _code_spans(text, blocks)
    if spans:
        code = sorted(code + spans)
    return blocks, code, line_starts


_WRAPPED = LazyPattern(
    r"(?:[ ]{2,3}(?![-*+•][ \t]|\d{1,3}[.)][ \t]|[#>|])|[ \t]{2,}(?=[a-z(]))[^\n]*\S"
)


def _wrapped_heading(text: str, nl: int) -> int | None:
    """End of the next line when it continues a heading: indented by two or three spaces (four
    would be code) and not a list item, or indented and starting in lower case. Agents
    hard-wrap long paper titles in headings."""
    if nl == -1:
        return None
    m = _WRAPPED.match(text, nl + 1)
    if m is None or "\n" in text[nl + 1 : m.end()]:
        return None
    return m.end()


def _wrapped_row(text: str, first: int, end: int, nl: int) -> tuple[int, int] | None:
    """``(end, newline)`` of the next line when it finishes a table row this line began.

    Exporters hard-wrap long cells (the arXiv API wraps titles at ~70 characters): a row that
    opens with ``|`` but does not close with one, followed by a line that does not open with
    ``|`` but closes with one, is one row. Anything else (a table without outer pipes, a row
    followed by prose) is left as written.
    """
    if nl == -1 or text[first:end].rstrip(" \t").endswith("|"):
        return None
    start = nl + 1
    nxt = text.find("\n", start)
    stop = len(text) if nxt == -1 else nxt
    line = text[start:stop].rstrip("\r")
    body = line.strip(" \t")
    if not body or body.startswith("|") or not body.endswith("|") or body.count("|") < 2:
        return None
    return start + len(line), nxt


def _is_delimiter(text: str, pos: int) -> bool:
    """Is the line at ``pos`` a table's delimiter row (``|---|:---:|``)?"""
    nl = text.find("\n", pos)
    end = len(text) if nl == -1 else nl
    return text.find("|", pos, end) != -1 and _DELIMITER.match(text, pos, end) is not None


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of a table row's cells (trimmed), split at ``|`` outside code and escapes."""
    cells: list[tuple[int, int]] = []
    i = start
    if i < end and text[i] == "|":
        i += 1
    cell_start = i
    in_code = False
    while i < end:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "`":
            in_code = not in_code
        elif ch == "|" and not in_code:
            cells.append(_trim(text, cell_start, i))
            cell_start = i + 1
        i += 1
    last = _trim(text, cell_start, end)
    if last[1] > last[0]:
        cells.append(last)
    return cells


_BACKTICKS = LazyPattern(r"`+")


def _code_spans(text: str, blocks: Blocks) -> list[tuple[int, int]]:
    """Inline code spans of the non-code blocks: a backtick run to the next run of its length.

    Linear: each run is looked at once, and the next run of the same length is found from a
    table built backwards, so a flood of unmatched backticks costs no more than matched ones.
    """
    spans: list[tuple[int, int]] = []
    if "`" not in text:
        return spans
    code = KIND_CODE[CODE]
    for kind, body, end in zip(blocks.codes, blocks.bodies, blocks.ends, strict=True):
        if kind == code:
            continue
        if text.find("`", body, end) == -1:
            continue
        runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text, body, end)]
        following: list[int] = [-1] * len(runs)
        last: dict[int, int] = {}
        for k in range(len(runs) - 1, -1, -1):
            length = runs[k][1] - runs[k][0]
            following[k] = last.get(length, -1)
            last[length] = k
        k = 0
        while k < len(runs):
            j = following[k]
            if j == -1:
                k += 1
                continue
            spans.append((runs[k][0], runs[j][1]))
            k = j + 1
    return spans


class LineMap:
    """1-based line and column of any offset, by bisection over the line starts."""

    def __init__(self, line_starts: Sequence[int]) -> None:
        self._starts = line_starts or [0]

    def locate(self, offset: int) -> tuple[int, int]:
        i = bisect_right(self._starts, offset) - 1
        return i + 1, offset - self._starts[i] + 1

    def line_start(self, line: int) -> int:
        return self._starts[line - 1]
