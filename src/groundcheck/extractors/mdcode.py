"""Where a Markdown text holds code: fenced blocks, indented blocks and inline code spans.

A URL in code is usually an endpoint or an example (``curl https://api.x.org/v1/...``), not a
source the report cites, so the URL extractor marks it ``kind="code"``. BibTeX blocks are the
exception: every URL in them is a citation. The rules follow CommonMark/GFM closely enough for
reports, in one pass each, with two deliberate limits: a code span never crosses a blank line
(a stray backtick in one paragraph must not turn the rest of a report into code), and an
indented block is recognised only after a blank line that follows an unindented, non-list line
(indented text after a list item is the item's continuation).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from attrs import frozen

from groundcheck.extractors.hints import needle_positions
from groundcheck.text import LazyPattern

__all__ = ["BIBTEX", "CODE", "CodeRegions", "might_have_code", "on_indented_line"]

CODE = "code"
BIBTEX = "bibtex"

_FENCE = LazyPattern(r"^ {0,3}(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
_INDENTED = LazyPattern(r"^(?: {4}|[ ]{0,3}\t)[ \t]*\S", re.MULTILINE)
_INDENTED_AFTER_BREAK = LazyPattern(r"\n(?: {4}|[ ]{0,3}\t)[ \t]*\S")
""":data:`_INDENTED` after the first line, from the line break before: a search for a literal
character, where a search for ``^`` in multi-line mode tests every position (~4 ns each)."""
_TICKS = LazyPattern(r"``*")
"""A run of backticks, spelt to start with the literal (a run written as a repeat is searched
for by testing a character set at every position: ~55 ms per 10 MB of Markdown, not ~5)."""
_BLANK_LINE = LazyPattern(r"\n[ \t]*(?=\n)")
_LIST_ITEM = LazyPattern(r"[ ]{0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")
_BIBTEX_INFO = frozenset({"bibtex", "bib", "biblatex"})
_BIBTEX_ENTRY = LazyPattern(r"\s*@[A-Za-z]+\s*[{(]")


def might_have_code(text: str) -> bool:
    """A cheap test: without a backtick, a tilde or an indented line there is no code.

    Single characters first: ``in`` finds one character at memory speed, a longer needle
    about twenty times slower.
    """
    return "`" in text or "~" in text or "\t" in text or "    " in text


def on_indented_line(text: str, pos: int, lookback: int = 2000) -> bool:
    """Is ``pos`` on a line indented like an indented code block (4 spaces or a tab)?

    Looks back at most ``lookback`` characters for the line start, so the cost is bounded.
    """
    lo = max(0, pos - lookback)
    start = text.rfind("\n", lo, pos) + 1
    if start == 0 and lo > 0:
        return False
    head = text[start : start + 4]
    return head == "    " or ("\t" in head and not head[: head.index("\t")].strip())


@frozen
class CodeRegions:
    """Sorted, non-overlapping ``(start, end, kind)`` regions of code in one text."""

    starts: tuple[int, ...]
    regions: tuple[tuple[int, int, str], ...]

    @classmethod
    def of(cls, text: str) -> CodeRegions:
        if not might_have_code(text):
            return cls((), ())
        blocks = _fenced(text)
        blocks = sorted(blocks + _indented(text, blocks))
        spans = _code_spans(text, blocks)
        regions = tuple(sorted(blocks + spans))
        return cls(tuple(r[0] for r in regions), regions)

    def kind_at(self, pos: int) -> str | None:
        """``"code"``, ``"bibtex"`` or None for the character at ``pos``."""
        i = bisect_right(self.starts, pos) - 1
        if i < 0:
            return None
        start, end, kind = self.regions[i]
        return kind if start <= pos < end else None


def _block_kind(info: str, body: str) -> str:
    word = info.strip().split(maxsplit=1)[0].strip("{}.").lower() if info.strip() else ""
    if word in _BIBTEX_INFO or _BIBTEX_ENTRY.match(body):
        return BIBTEX
    return CODE


def _fence_lines(text: str) -> Iterator[re.Match[str]]:
    """``_FENCE.finditer(text)``, matched only at the lines where three backticks or ``~~~`` are
    found (the shared needle positions) after at most three spaces. A search for ``^`` in
    multi-line mode tests every position of the text (~35 ms per 10 MB); each match is one
    whole line, so matching at each such line start, once, gives the same matches."""
    last = -1
    for at in _merged(needle_positions(text, "```"), needle_positions(text, "~~~")):
        start = at
        while start > 0 and at - start < 3 and text[start - 1] == " ":
            start -= 1
        if start == last or (start > 0 and text[start - 1] != "\n"):
            continue
        m = _FENCE.match(text, start)
        if m is not None:
            last = start
            yield m


def _merged(a: list[int], b: list[int]) -> list[int]:
    return sorted(a + b) if a and b else a or b


def _fenced(text: str) -> list[tuple[int, int, str]]:
    blocks: list[tuple[int, int, str]] = []
    opened: tuple[int, str, int, str] | None = None  # (start, fence char, length, info)
    for m in _fence_lines(text):
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


def _previous_line(text: str, line_start: int) -> tuple[int, str]:
    """The line before the one starting at ``line_start`` (its start and text)."""
    end = line_start - 1
    start = text.rfind("\n", 0, end) + 1
    return start, text[start:end]


def _gaps(text: str, blocks: list[tuple[int, int, str]]) -> Iterator[tuple[int, int]]:
    """The stretches of ``text`` between the (sorted, disjoint) ``blocks``. Each block starts
    at a line start and ends at a line end or the end of the text, so a match that lies within
    one line and holds no line break but at its start (the searches below) is either wholly
    in a gap or starts inside a block."""
    at = 0
    for start, end, _ in blocks:
        if at < start:
            yield at, start
        at = max(at, end)
    if at < len(text):
        yield at, len(text)


def _indented_starts(text: str, fenced: list[tuple[int, int, str]]) -> Iterator[int]:
    """Where ``_INDENTED.finditer(text)`` matches outside the ``fenced`` blocks: each match
    lies within one line, so the first line's and those after each line break are all of
    them; the blocks' own lines are not searched."""
    for lo, hi in _gaps(text, fenced):
        if lo == 0 and _INDENTED.match(text, 0, hi) is not None:
            yield 0
        for m in _INDENTED_AFTER_BREAK.finditer(text, lo, hi):
            yield m.start() + 1


def _indented(text: str, fenced: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    blocks: list[tuple[int, int, str]] = []
    covered = -1
    for start in _indented_starts(text, fenced):
        if start < covered:
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
    # the runs outside the blocks (a run never crosses a block's edge: a line break is there)
    runs = [m for lo, hi in _gaps(text, blocks) for m in _TICKS.finditer(text, lo, hi)]
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
