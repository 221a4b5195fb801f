"""Mentions in a tool output, with the title extractor reading only the lines that can hold one.

The title extractor parses its whole text into blocks and reference entries
(:class:`groundcheck.document.Document`) before it looks for titles: a Python step per line.
A flattened search result is mostly lines that cannot hold a title: author names, dates,
abstracts of plain prose, JSON keys. :func:`title_text` hands the title extractor a copy of
the output of the same length in which every run of such *plain* lines is one line of spaces
(after a letter), so the parser steps over a run at once and every offset, distance and window
is the one of the real text. What it finds there is exactly what it finds in the real text:

- A *plain* line is a line of its own between blank lines (or the text's edges), starting with
  a letter or with a digit that opens no numbered item, with no quote opener (``"“‘«``), no
  ``[``, no brace, no pair of ``*`` or ``_``, no ``\\r``, not a label word (``References``,
  ``Sources``), not part of ``title … =`` (a BibTeX field); with no identifier, unless the line
  is one identifier, perhaps with a one-word label glued to it (``arXiv:2101.03961``: nothing
  stands beside it); and with no year (the sign of a reference entry), unless the line is
  short and, read alone, is no entry and holds no title (memoised: dates repeat).
  Read alone, such a line is one paragraph (no heading, list item, table row, quote or code),
  it is no reference entry outside a reference section, and no title kind finds anything in
  it (each needs a quote, a link, emphasis, a cell, a heading, an entry, a BibTeX field or an
  identifier with words beside it).
- Runs of plain lines and the blank lines between them become one plain line: what the
  document parser keeps from one blank-separated block to the next is only an open code fence,
  an open reference section and an open list item (which any paragraph closes), and every
  inline pattern stops at a blank line. So the text is read as it is when it has a fence line
  or a BibTeX entry, and no line after the first heading that may open a reference section is
  collapsed (every paragraph of such a section is an entry).

``tests/evidence/test_title_text.py`` compares the two readings on real and generated outputs.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from groundcheck.document.blocks import HEADING, LABEL_WORDS, PARAGRAPH, scan
from groundcheck.document.references import is_reference_heading
from groundcheck.document.report import Document
from groundcheck.extractors import Extractor, find_mentions
from groundcheck.extractors.pipeline import _run, resolve_overlaps
from groundcheck.extractors.title import TitleExtractor
from groundcheck.model import Mention

__all__ = ["output_mentions", "title_text"]

_TITLE_FIELD = re.compile(r"(?i:title)\s*=")
_FENCE_LINE = re.compile(r"(?m)^ {0,3}(?:```|~~~)")
_BIBTEX = re.compile(r"@[A-Za-z]{2,30}[ \t]*\{")
_HEADING_START = frozenset("#\\*_=-")
"""First characters of the lines the document parser may read as a heading (with the label
words): ATX, LaTeX, bold lines and setext underlines."""
_MIN_SAVING = 8
"""Fewer plain lines than this: the real text is read, the copy would cost more than it saves."""
_SMALL = 4096
"""Only so much of a text is counted to tell whether it has enough blocks to be worth a copy."""


def output_mentions(
    text: str,
    extractors: Sequence[Extractor],
    blocks: Sequence[str] | None = None,
    starts: Sequence[int] | None = None,
) -> list[tuple[Mention, str]]:
    """``find_mentions(text, extractors)``, with the title extractor reading :func:`title_text`.

    Only the built-in :class:`~groundcheck.extractors.title.TitleExtractor` reads the copy (its
    rules are the ones the copy keeps); any other extractor with ``find_beside`` means the
    text is read as it is. ``blocks``, when given, are ``text.split("\n\n")``, and
    ``starts`` where they start (see :func:`title_text`).
    """
    one_line = "\n" not in text
    if not one_line and text.count("\n\n", 0, _SMALL) < 2 * _MIN_SAVING - 1:
        return find_mentions(text, extractors)  # too few blocks to collapse: no copy
    second = [e for e in extractors if callable(getattr(e, "find_beside", None))]
    if not second or any(type(e) is not TitleExtractor for e in second):
        return find_mentions(text, extractors)
    found: list[tuple[Mention, str]] = []
    for extractor in extractors:
        if not any(extractor is e for e in second):
            found.extend(_run(extractor, text))
    if one_line and not found and _plain_line(text):
        # A one-line output (a snippet, "No results for ...") is read as it is; one that
        # names no identifier and is what the copy calls a plain line holds no title either
        # (see the module docstring): the title extractor is not asked (~30 us of document
        # parsing per such call).
        return found
    first = [m for m, _ in found]
    for extractor in second:
        assert isinstance(extractor, TitleExtractor)
        copy = None if one_line else title_text(text, first, extractor, blocks, starts)
        beside, kept = (text, first) if copy is None else copy
        found.extend(_run(extractor, beside, kept))
    return resolve_overlaps(found)  # exactly as find_mentions does for the real text


def title_text(
    text: str,
    ids: Sequence[Mention],
    extractor: TitleExtractor | None = None,
    blocks: Sequence[str] | None = None,
    starts: Sequence[int] | None = None,
) -> tuple[str, list[Mention]] | None:
    """``text`` with its runs of plain lines (see the module docstring) made one line of the
    same length, and the identifiers outside those runs; None when nothing would be saved or
    the text must be read as it is.

    ``ids`` are the identifier mentions found in ``text`` (every extractor's, before overlaps
    are resolved: what the title extractor is handed). ``blocks`` are ``text.split("\n\n")``
    when the caller has them already: a flattened tool output is its strings joined by blank
    lines, and when none holds a line break they are its blocks (splitting the text again
    copies every one of them, a tenth of this function's cost on a search result).
    ``starts``, given with ``blocks``, are where each block starts in ``text`` and one more
    (``len(text) + 2``): :attr:`~groundcheck.evidence.walk.FlatOutput.starts` (a sum over
    the blocks the walk has made already).

    >>> out = "authors\\n\\nWang, A.\\n\\nChen, B.\\n\\n" * 6
    >>> out += "See \\"Toy Models of Superposition\\"."
    >>> copy, _ = title_text(out, [])
    >>> len(copy) == len(out), copy.count("\\n"), copy[-34:]
    (True, 2, 'See "Toy Models of Superposition".')
    """
    # (one-character tests first: each is a memchr, a three-character search is not)
    fenced = ("`" in text and "```" in text) or ("~" in text and "~~~" in text)
    if (fenced and _FENCE_LINE.search(text)) or ("@" in text and _BIBTEX.search(text)):
        return None
    # Blocks between blank lines: a block without a line break is one line between blank
    # lines (a block starting with a line break follows a blank line of its own: kept).
    if blocks is None:
        blocks = text.split("\n\n")
    n = len(blocks)
    if n < 2 * _MIN_SAVING:
        return None
    if starts is None or len(starts) != n + 1:
        starts = list(accumulate(map((2).__add__, map(len, blocks)), initial=0))
    bad = bytearray(n)

    def block_of(offset: int) -> int:
        return bisect_right(starts, offset) - 1

    def mark(start: int, end: int) -> None:
        for i in range(block_of(start), block_of(max(start, end - 1)) + 1):
            bad[i] = 1

    for ch in _OPENERS:
        at = text.find(ch)
        while at != -1:
            bad[block_of(at)] = 1
            at = text.find(ch, at + 1)
    for ch in "*_":
        at = text.find(ch)
        while at != -1:
            nxt = text.find(ch, at + 1)
            if nxt != -1 and text.find("\n", at, nxt) == -1:
                bad[block_of(at)] = 1  # a pair on one line: emphasis, a bold line, a rule
            at = nxt
    if "=" in text:
        for m in _TITLE_FIELD.finditer(text):
            mark(m.start(), m.end())
    year = bytearray(n)
    for pattern in _YEARS:
        for m in pattern.finditer(text):
            year[bisect_right(starts, m.start()) - 1] = 1
    alone: list[int] = []  # blocks that are one identifier (with a glued label) may be plain
    for ident in ids:
        i = bisect_right(starts, ident.start) - 1
        if bad[i]:
            continue
        start, end = starts[i], starts[i + 1] - 2  # (each block and its "\n\n")
        if (
            ident.malformed is None
            and ident.end == end
            and (ident.start == start or _GLUED_LABEL.fullmatch(text, start, ident.start))
        ):
            if alone and alone[-1] == i:
                bad[i] = 1  # two identifiers in one block
            alone.append(i)
            if year[i]:
                bad[i] = 1  # an identifier and a year: maybe an entry, read it as it is
        else:
            mark(ident.start, ident.end)
    # 1: plain, 2: blank (may sit inside a run), 0: kept as it is. Worked out for every block
    # at once, by C-level passes over byte strings (one byte a block): a search result is
    # thousands of short blocks, and a Python step for each cost more than the copy saved.
    memo: dict[str, int] = dict.fromkeys(blocks, 0)  # the shape of each distinct block, once
    known = _SHAPES  # and of short blocks, once per run: keys, names, dates repeat across calls
    for block in memo:
        # One line starting with a letter that is no label word is prose, and one starting
        # with a digit is prose unless it opens a numbered item (no label word starts with a
        # digit): what _shape says of a search result's titles, abstracts, identifiers and
        # dates, without the call (nor a memo entry for each new one).
        if "\n" not in block:
            head = block[:1]
            if head.isalpha():
                # (_label's own first test, inline: a line longer than every label word,
                # with nothing at its end to strip, is none; shorter ones repeat, and take
                # the memo below, which gives what _label says of them)
                size = len(block)
                if size > 80 or (size > _LONGEST_LABEL and block[-1] not in " \t:"):
                    memo[block] = _PROSE
                    continue
            elif head.isdigit():
                memo[block] = _KEPT if _NUMBERED.match(block) else _PROSE
                continue
        if len(block) > 80:
            memo[block] = _shape(block)
            continue
        seen = known.get(block)
        if seen is None:
            seen = _shape(block)
            if len(known) >= _MAX_SHAPES:
                known.clear()
            known[block] = seen
        memo[block] = seen
    shape = bytes(map(memo.__getitem__, blocks))
    # shape | bad << 2 | year << 3, byte by byte: a byte-wise or of the three as integers
    code = (
        int.from_bytes(shape, "little")
        | int.from_bytes(bad.translate(_TIMES_4), "little")
        | int.from_bytes(year.translate(_TIMES_8), "little")
    ).to_bytes(n, "little")
    kind = bytearray(code.translate(_KIND))
    opens = shape.find(_OPENS)
    if opens != -1:
        kind[opens:] = bytes(n - opens)  # every paragraph of a reference section is an entry
    # A prose line with a year may be a reference entry: short ones are read alone.
    i = kind.find(_YEARLY)
    while i != -1:
        block = blocks[i]
        plain = len(block) <= 80 and extractor is not None and _plain_alone(block, extractor)
        kind[i] = 1 if plain else 0
        i = kind.find(_YEARLY, i + 1)
    if kind.count(1) < _MIN_SAVING:
        return None
    pieces: list[str] = []
    runs: list[tuple[int, int]] = []
    pos = 0
    for run in _RUN.finditer(kind):  # from a plain block to the last plain block after it
        start, last = starts[run.start()], run.end() - 1
        end = starts[last] + len(blocks[last])
        pieces.append(text[pos:start])
        pieces.append("x" + " " * (end - start - 1))
        runs.append((start, end))
        pos = end
    pieces.append(text[pos:])
    run_starts = [s for s, _ in runs]
    kept = []
    for ident in ids:
        r = bisect_right(run_starts, ident.start) - 1
        if r < 0 or ident.start >= runs[r][1]:
            kept.append(ident)
    return "".join(pieces), kept


_TIMES_4 = bytes(min(255, 4 * b) for b in range(256))
_TIMES_8 = bytes(min(255, 8 * b) for b in range(256))
_YEARLY = 3
"""Kind of a prose block with a year, not yet decided (read alone: plain or kept)."""
_RUN = re.compile(rb"\x01(?:[\x01\x02]*\x01)?")
"""A run to collapse: plain blocks and the blank blocks between them."""


_OPENERS = '"“‘«[{}\r'
"""Quote openers, a link's bracket, braces (where a BibTeX value ends), a carriage return."""
_YEARS = (
    re.compile(r"20(?<![\d./:-]20)\d\d(?!\d|\.\d)"),
    re.compile(r"1(?<![\d./:-]1)[6-9]\d\d(?!\d|\.\d)"),
)
"""The years of reference entries (``(?<![\\d./:-])(?:1[6-9]|20)\\d{2}(?!\\d|\\.\\d)``) as two
patterns with a literal head (each a fast scan), the look-behind put after the head: every
match is a year, and neither the heads of arXiv ids (``2003.12345``) nor digits inside a
longer number take a Python step."""
_GLUED_LABEL = re.compile(r"[A-Za-z]{1,16}:")
"""``arXiv:`` glued to an identifier: one word, never a title beside it."""
_NUMBERED = re.compile(r"\d{1,5}[.)](?:[ \t]|$)")
"""A line that opens with a number is a list item when a dot or parenthesis and a blank follow."""


_SHAPES: dict[str, int] = {}
_MAX_SHAPES = 50_000
"""The shapes of short blocks seen so far (:func:`_shape` reads nothing but the block)."""

_ALONE: dict[tuple[int, int, frozenset[str], str], bool] = {}
_MAX_ALONE = 50_000


def _plain_alone(block: str, extractor: TitleExtractor) -> bool:
    """Is this one-line block, read alone, one paragraph that is no entry and holds no title?
    (Memoised: dates and short metadata repeat across a trace.)"""
    key = (extractor.min_words, extractor.max_chars, extractor.stop_phrases, block)
    found = _ALONE.get(key)
    if found is None:
        document = Document(block)
        found = (
            len(document.blocks) == 1
            and document.blocks[0].kind == PARAGRAPH
            and not document.code
            and not document.entries
            and next(iter(extractor.find_beside(block, [])), None) is None
        )
        if len(_ALONE) >= _MAX_ALONE:
            _ALONE.clear()
        _ALONE[key] = found
    return found


def _plain_line(line: str) -> bool:
    """Is ``line`` (one line, no identifier in it) a line :func:`title_text` would collapse:
    prose (:func:`_shape`) with no quote opener, bracket, brace or carriage return, no pair
    of ``*`` or ``_``, no ``title =`` and no year? (A year sends a line to be read alone,
    which costs what is saved: such a line is read as it is.)"""
    if _shape(line) != _PROSE or any(ch in line for ch in _OPENERS):
        return False
    if line.count("*") > 1 or line.count("_") > 1:
        return False  # a pair on one line: emphasis, a bold line, a rule
    if "=" in line and _TITLE_FIELD.search(line):
        return False
    return not any(pattern.search(line) for pattern in _YEARS)


def _label(line: str) -> bool:
    """Could the parser read this line as a label heading (``References``, ``Sources:``)?"""
    if len(line) > _LONGEST_LABEL and len(line.strip(" \t:")) > _LONGEST_LABEL:
        return False  # (case folding never shortens a text)
    return line.strip(" \t").rstrip(" \t:").strip().casefold() in LABEL_WORDS


_LONGEST_LABEL = max(map(len, LABEL_WORDS))


_KEPT, _PROSE, _BLANK, _OPENS = range(4)
_KIND = bytes(
    (_YEARLY if code & 8 else 1)
    if code & 3 == _PROSE and not code & 4
    else 2
    if code & 3 == _BLANK and not code & 4
    else 0
    for code in range(256)
)
"""The kind of a block from its code (shape | bad << 2 | year << 3)."""


def _shape(block: str) -> int:
    """What a block is, read alone: one line that may be plain (:data:`_PROSE`, if nothing at
    its place says otherwise), blank, a heading opening a reference section (:data:`_OPENS`),
    or anything else (:data:`_KEPT`)."""
    if "\n" in block:
        if any(_may_head(line) for line in block.split("\n")) and _opens_section(block):
            return _OPENS
        return _KEPT
    head = block[:1]
    if head in " \t":
        head = block.lstrip(" \t")[:1]
    if head in _HEADING_START or (len(block) <= 80 and _label(block)):
        return _OPENS if _opens_section(block) else _KEPT
    if head.isalpha() or (head.isdigit() and not _NUMBERED.match(block)):
        return _PROSE
    return _BLANK if not block.strip(" \t") else _KEPT


def _opens_section(block: str) -> bool:
    """Does this block hold a heading that opens a reference section? (Read alone: the parser
    keeps nothing from one block to the next but fences, and a text with one is not copied.)"""
    return any(b.kind == HEADING and is_reference_heading(block, b) for b in scan(block)[0])


def _may_head(line: str) -> bool:
    return line.lstrip(" \t")[:1] in _HEADING_START or (len(line) <= 80 and _label(line))
