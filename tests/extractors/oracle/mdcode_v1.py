"""``CodeRegions.of`` of ``extractors/mdcode.py`` as it was at ec536c3 (issue 17, before the
fence lines were found from the needle positions of their fences, the indented lines from
their line breaks, both outside the fenced blocks only, and the backtick runs between the
blocks only). Frozen: the regions the faster code finds must stay these."""

from __future__ import annotations

import re
from bisect import bisect_right

from groundcheck.extractors.mdcode import BIBTEX, CODE, might_have_code
from groundcheck.text import LazyPattern


def code_regions(text: str) -> tuple[tuple[int, int, str], ...]:
    if not might_have_code(text):
        return ()
    blocks = _fenced(text)
    blocks = sorted(blocks + _indented(text, blocks))
    spans = _code_spans(text, blocks)
    return tuple(sorted(blocks + spans))


_FENCE = LazyPattern(r"^ {0,3}(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
_INDENTED = LazyPattern(r"^(?: {4}|[ ]{0,3}\t)[ \t]*\S", re.MULTILINE)
_TICKS = LazyPattern(r"`+")
_BLANK_LINE = LazyPattern(r"\n[ \t]*(?=\n)")
_LIST_ITEM = LazyPattern(r"[ ]{0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")
_BIBTEX_INFO = frozenset({"bibtex", "bib", "biblatex"})
_BIBTEX_ENTRY = LazyPattern(r"\s*@[A-Za-z]+\s*[{(]")


def _block_kind(info: str, body: str) -> str:
    word = info.strip().split(maxsplit=1)[0].strip("{}.").lower() if info.strip() else ""
    if word in _BIBTEX_INFO or _BIBTEX_ENTRY.match(body):
        return BIBTEX
    return CODE


def _fenced(text: str) -> list[tuple[int, int, str]]:
    blocks: list[tuple[int, int, str]] = []
    opened: tuple[int, str, int, str] | None = None  # (start, fence char, length, info)
    for m in _FENCE.finditer(text):
        fence, rest = m.group(1), m.group(2)
        if opened is None:
            if fence[0] == "`" and "`" in rest:
                continue  # not a fence: a code span at the start of a line
            opened = (m.start(), fence[0], len(fence), rest)
            continue
        start, char, length, info = opened
        if fence[0] == char and len(fence) >= length and not rest.strip():
            body_start = text.find("\n", start) + 1
            blocks.append((start, m.end(), _block_kind(info, text[body_start : m.start()])))
            opened = None
    if opened is not None:  # an unclosed fence runs to the end of the text (CommonMark)
        start, _, _, info = opened
        body_start = text.find("\n", start) + 1 or len(text)
        blocks.append((start, len(text), _block_kind(info, text[body_start:])))
    return blocks


def _inside(blocks: list[tuple[int, int, str]], pos: int, starts: list[int]) -> bool:
    i = bisect_right(starts, pos) - 1
    return i >= 0 and blocks[i][0] <= pos < blocks[i][1]


def _previous_line(text: str, line_start: int) -> tuple[int, str]:
    """The line before the one starting at ``line_start`` (its start and text)."""
    end = line_start - 1
    start = text.rfind("\n", 0, end) + 1
    return start, text[start:end]


def _indented(text: str, fenced: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    blocks: list[tuple[int, int, str]] = []
    starts = [b[0] for b in fenced]
    covered = -1
    for m in _INDENTED.finditer(text):
        start = m.start()
        if start < covered or _inside(fenced, start, starts):
            continue
        if start > 0:
            at, line = _previous_line(text, start)
            if line.strip():
                continue  # a paragraph's continuation, not a block
            while at > 0:  # skip the blank lines, to the last line with text
                at, line = _previous_line(text, at)
                if line.strip():
                    break
            if line.strip() and (line[0] in " \t" or _LIST_ITEM.match(line)):
                continue  # indented text under a list item continues the item
        end = start
        pos = start
        while pos < len(text):
            nl = text.find("\n", pos)
            line_end = len(text) if nl == -1 else nl
            line = text[pos:line_end]
            if line.strip():
                if not (line.startswith("    ") or line.lstrip(" ").startswith("\t")):
                    break
                end = line_end
            if nl == -1:
                break
            pos = nl + 1
        covered = end
        kind = BIBTEX if _BIBTEX_ENTRY.match(text, start, end) else CODE
        blocks.append((start, end, kind))
    return blocks


def _code_spans(text: str, blocks: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Inline code spans: a run of n backticks up to the next run of exactly n backticks."""
    if "`" not in text:
        return []
    starts = [b[0] for b in blocks]
    runs = [m for m in _TICKS.finditer(text) if not _inside(blocks, m.start(), starts)]
    following: list[int] = [-1] * len(runs)
    last: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        n = runs[i].end() - runs[i].start()
        following[i] = last.get(n, -1)
        last[n] = i
    blanks = [m.start() for m in _BLANK_LINE.finditer(text)]
    spans: list[tuple[int, int, str]] = []
    i = 0
    while i < len(runs):
        j = following[i]
        if j == -1:
            i += 1
            continue
        start, end = runs[i].start(), runs[j].end()
        k = bisect_right(blanks, start)
        b = bisect_right(starts, start)
        if (k < len(blanks) and blanks[k] < end) or (b < len(starts) and starts[b] < end):
            i += 1  # would cross a blank line or a code block: this backtick is literal
            continue
        spans.append((start, end, CODE))
        i = j + 1
    return spans
