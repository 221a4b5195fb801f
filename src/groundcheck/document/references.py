"""The report's reference list(s): which blocks are entries, with labels and parts.

An entry is a block written as a reference:

- every top-level item, line or table row of a section whose heading names a reference list
  ("References", "Sources", "Bibliography", "Further reading", "Works cited", "Notes", …,
  also as ``**Sources:**``, a bare ``References`` line or ``\\begin{thebibliography}``);
- anywhere, an item written in reference-list syntax: ``[1] …``, ``【1】 …``, a footnote
  definition ``[^1]: …``, a link definition ``[1]: https://…``, ``\\bibitem{key}``;
- anywhere, an item or line with the shape of a reference in some style (an author list and
  a year around a title; see :mod:`groundcheck.document.segment`);
- a BibTeX entry ``@article{key, …}``, fenced or not.

Sub-items under an entry ("- arXiv: …", "- Authors: …") belong to it. Each entry keeps its
label (what markers call it) and its parts.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from attrs import frozen

from groundcheck.document.authors import looks_like_authors, split_authors
from groundcheck.document.blocks import (
    CELL,
    HEADING,
    ITEM,
    KIND_CODE,
    LABEL_LEVEL,
    PARAGRAPH,
    Block,
    Blocks,
)
from groundcheck.document.segment import WINDOW, Parts, may_be_strong, segment
from groundcheck.text import LazyPattern

__all__ = ["Entry", "bibtex_entries", "find_entries", "is_reference_heading"]


@frozen
class Entry:
    """One reference entry: its span, where its text starts after the label, and its parts."""

    start: int
    body: int
    end: int
    line: int
    label: str | None
    parts: Parts
    kind: str = "entry"
    section: str | None = None


_NAME = LazyPattern(
    r"(?:(?:key|selected|additional|cited|primary|main|full|complete|academic|web|other|"
    r"online|external)\s+)?"
    r"(?:references?|sources?|bibliography|bibliographies|citations?|works\s+cited|"
    r"further\s+reading|reading\s+list|literature(?:\s+cited)?|notes|footnotes|endnotes|"
    r"links|cited\s+(?:works|papers|sources|literature)|thebibliography)"
    r"(?:\s+(?:and|&)\s+(?:sources|references|further\s+reading|notes|links|citations))?"
    r"(?:\s+(?:cited|consulted|used|and\s+links))?"
)
_OTHER_LANGUAGES = frozenset(
    {
        "literaturverzeichnis", "quellen", "quellenverzeichnis", "literatur", "referenzen",
        "références", "bibliographie", "sources et références", "références bibliographiques",
        "referencias", "bibliografía", "fuentes", "referencias bibliográficas",
        "riferimenti", "bibliografia", "fonti", "riferimenti bibliografici",
        "referências", "fontes", "referências bibliográficas", "bronnen", "literatuur",
        "referenties", "källor", "referenser", "kilder", "litteratur", "lähteet",
        "źródła", "bibliografia i źródła", "literatura", "zdroje", "forrás", "források",
        "kaynaklar", "kaynakça", "литература", "источники", "список литературы",
        "参考文献", "参考资料", "资料来源", "来源", "出典", "참고문헌", "출처",
    }
)  # fmt: skip
"""The same headings in the languages reports are written in (matched whole, case folded)."""
_HEADING_NOISE = LazyPattern(r"[\W\d_]+")


def is_reference_heading(text: str, block: Block) -> bool:
    """Does this heading name a reference list ("References", "7. Sources", "**Sources:**")?

    >>> from groundcheck.document.blocks import scan
    >>> [is_reference_heading(t, scan(t)[0][0]) for t in (
    ...     "## 6. References and further reading", "## Źródła", "## Literaturverzeichnis",
    ...     "## Key Findings")]
    [True, True, True, False]
    """
    if block.kind != HEADING:
        return False
    if block.marker == "\\bib":
        return True
    raw = text[block.body : min(block.end, block.body + 80)].casefold().replace("&", " and ")
    name = " ".join(_HEADING_NOISE.sub(" ", raw).split())
    return bool(name) and (_NAME.fullmatch(name) is not None or name in _OTHER_LANGUAGES)


_LABELLED = LazyPattern(r"[ \t]*(?:\[(\d{1,5})\]|【(\d{1,5})】)[ \t]*")
_PREFILTER = re.compile(r"(?<![\d./:-])(?:1[6-9]|20)\d{2}(?!\d|\.\d)")
_YEAR_CORE = re.compile(r"(?:1[6-9]|20)\d{2}")
"""Where :data:`_PREFILTER` can match, found once per text: every match of it starts at one
of these (a year it accepts follows no digit, so no earlier year here can overlap it)."""
_ID_OR_URL = LazyPattern(r"https?://|\bdoi\s*:|\barxiv\s*:|\b10\.\d{4,9}/|\b\d{4}\.\d{4,5}\b", re.I)
_TITLE_HEADER = LazyPattern(r"(?i)title|paper|name|work|article|publication|source|reference")
_AUTHOR_HEADER = LazyPattern(r"(?i)author")
_YEAR_HEADER = LazyPattern(r"(?i)year|date")
_LABEL_HEADER = LazyPattern(r"(?i)^(?:#|no\.?|ref\.?|id|\[#\])$")
_CELL_LABEL = LazyPattern(r"\[?(\d{1,5})\]?\.?$")


def _local(ids: Sequence[tuple[int, int]], start: int, end: int) -> Sequence[tuple[int, int]]:
    lo = bisect_left(ids, (start, -1))
    hi = bisect_left(ids, (end, -1))
    return ids[lo:hi]


def _has_id(text: str, start: int, end: int, ids: Sequence[tuple[int, int]]) -> bool:
    return bool(_local(ids, start, end)) or _ID_OR_URL.search(text, start, end) is not None


def _entry(
    text: str,
    span: tuple[int, int, int],
    line: int,
    label: str | None,
    ids: Sequence[tuple[int, int]],
    *,
    section: str | None,
    segment_end: int | None = None,
) -> Entry:
    """An entry spanning ``span`` (start, body, end): its label and parts."""
    start, body, end = span
    m = _LABELLED.match(text, body, end)
    if m is not None and label is None:
        label = str(int(m.group(1) or m.group(2)))
        body = m.end()
    seg_end = end if segment_end is None else segment_end
    parts = segment(text, body, seg_end, _local(ids, body, seg_end))
    return Entry(start, body, end, line, label, parts, section=section)


_HEADING, _ITEM, _PARAGRAPH, _CELL = (KIND_CODE[k] for k in (HEADING, ITEM, PARAGRAPH, CELL))


def _heading_text(text: str, block: Block) -> str:
    return " ".join(text[block.body : min(block.end, block.body + 200)].split())


def find_entries(
    text: str, blocks: Sequence[Block], ids: Sequence[tuple[int, int]] = ()
) -> list[Entry]:
    """Every reference entry of ``text``, in order (see the module docstring).

    ``ids`` are the sorted spans of identifiers found by the extractors. The blocks are read
    as columns (see :class:`~groundcheck.document.blocks.Blocks`): a :class:`Block` is made
    only for a block that becomes part of an entry or whose heading text is new, so a flood
    of 250,000 headings or items makes none.
    """
    blocks = Blocks.of(blocks)
    entries: list[Entry] = []
    bibtex = bibtex_entries(text)
    bib_spans = [(e.start, e.end) for e in bibtex]
    section_level: int | None = None
    section: str | None = None
    item_indent: int | None = None
    open_item: Block | None = None
    open_end = 0
    rows: dict[int, list[Block]] = {}
    # Where a year can start: looked for in each head asked about until the heads together
    # would be as long as the text (a long report of few blocks, where scanning every digit
    # of the text would cost more; a flood of items with no text after their numbers asks
    # of one line), then found once for the whole text (an output of 130,000 short fields).
    # Either way a head with no year start is skipped, and _strong would find none in it.
    budget = len(text)
    years: list[int] | None = None

    def strong(start: int, end: int) -> bool:
        """:func:`_strong`, skipped where no year can start within its first 300 characters."""
        nonlocal years, budget
        head = min(end, start + 300)
        if years is None and budget > 0:
            budget -= 300
            if _YEAR_CORE.search(text, start, head) is None:
                return False
        else:
            if years is None:
                years = [m.start() for m in _YEAR_CORE.finditer(text)]
            k = bisect_left(years, start)
            if k == len(years) or years[k] > head - 4:
                return False
        return _strong(text, start, end, ids)

    names: dict[str, bool] = {}  # heading text -> names a reference list (headings repeat)

    def reference_heading(i: int, body: int, end: int) -> bool:
        """:func:`is_reference_heading`, once per heading text (what it reads of a heading)."""
        if markers[i] == "\\bib":
            return True
        head = text[body : min(end, body + 80)]
        known = names.get(head)
        if known is None:
            known = names[head] = is_reference_heading(text, blocks[i])
        return known

    def flush_item() -> None:
        nonlocal open_item
        if open_item is not None:
            b = open_item
            entries.append(
                _entry(
                    text,
                    (b.start, b.body, open_end),
                    b.line,
                    b.label,
                    ids,
                    section=section,
                    segment_end=b.end,
                )
            )
        open_item = None

    def flush_rows() -> None:
        for cells in rows.values():
            entry = _row_entry(text, cells, ids, section)
            if entry is not None:
                entries.append(entry)
        rows.clear()

    markers = blocks.markers
    columns = zip(
        blocks.codes, blocks.starts, blocks.bodies, blocks.ends, blocks.levels, strict=True
    )
    for i, (kind, start, body, end, level) in enumerate(columns):
        if bib_spans and _inside(bib_spans, start):
            continue
        if kind == _HEADING:
            if section_level is not None and (
                level <= section_level or section_level == LABEL_LEVEL
            ):
                flush_item()
                flush_rows()
                section_level = section = None
                item_indent = None
            if reference_heading(i, body, end):
                flush_item()
                flush_rows()
                section_level = level
                section = _heading_text(text, blocks[i])
                item_indent = None
            continue
        in_section = section_level is not None
        if kind == _ITEM:
            if open_item is not None and item_indent is not None and level > item_indent:
                open_end = end  # a sub-item belongs to the entry above it
                continue
            if open_item is not None:
                flush_item()
            marker = markers[i]
            syntax = marker[:1] in ("[", "【") or marker.startswith("\\bibitem")
            # (an item with no text after its number is no entry's shape: strong is False)
            if in_section or syntax or (end > body and strong(body, end)):
                open_item, open_end = blocks[i], end
                item_indent = level
            continue
        flush_item()
        if kind == _PARAGRAPH:
            if in_section or strong(body, min(end, body + 400)):
                firm = in_section and not _soft_section(section)
                for at, stop, line in _line_entries(text, blocks[i], ids, firm):
                    span = (at, at, stop)
                    entries.append(_entry(text, span, line, None, ids, section=section))
        elif kind == _CELL and in_section and level == 0:
            rows.setdefault(blocks.rows[i], []).append(blocks[i])
    flush_item()
    flush_rows()
    entries = [e for e in entries if not _placeholder(text, e.body, e.end, ids)]
    entries.extend(bibtex)
    entries.sort(key=lambda e: e.start)
    return entries


_PLACEHOLDER = LazyPattern(r"[*_]{0,3}(?:\[[^\[\]\n]{1,160}\]|\([^()\n]{1,160}\))[*_]{0,3}[.:]?")


def _placeholder(text: str, start: int, end: int, ids: Sequence[tuple[int, int]] = ()) -> bool:
    """Is ``text[start:end]`` a bracketed editorial note standing where entries will go?

    Generated documents leave ``[Wird automatisch generiert]``, ``[References to be added]``
    or ``*(to be completed)*`` under a references heading. Wholly enclosed in brackets, with no
    identifier, link or year inside, such a line cites nothing: reading it as an entry made
    its words a cited title no tool returned. A bracketed title with a year or an id stays an
    entry.

    >>> note = "[Wird automatisch generiert]"
    >>> _placeholder(note, 0, len(note))
    True
    >>> entry = "[Attention Is All You Need, 2017]"
    >>> _placeholder(entry, 0, len(entry))
    False
    """
    end = _rstrip(text, start, end)
    if end - start > 170 or _PLACEHOLDER.fullmatch(text, start, end) is None:
        return False
    return _YEAR_CORE.search(text, start, end) is None and not _has_id(text, start, end, ids)


_SOFT = frozenset({"notes", "footnotes", "endnotes", "links"})


def _soft_section(section: str | None) -> bool:
    """A "Notes" or "Links" section lists references as items, but its paragraphs are as often
    commentary ("Retrieval was introduced by Lewis et al."): there a paragraph line is an entry
    only when it has the shape of one, as outside any section."""
    return section is not None and _HEADING_NOISE.sub(" ", section.casefold()).strip() in _SOFT


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    k = bisect_left(spans, (offset + 1, -1)) - 1
    return k >= 0 and spans[k][0] <= offset < spans[k][1]


def _strong(text: str, start: int, end: int, ids: Sequence[tuple[int, int]]) -> bool:
    """Outside a reference section, is this item or line shaped like a reference entry?"""
    head_end = min(end, start + 300)
    if _PREFILTER.search(text, start, head_end) is None:
        return False
    if not may_be_strong(text, start, end):
        return False  # no capital, link or year in parentheses: no author list to find
    return segment(text, start, min(end, start + WINDOW), _local(ids, start, end)).strong


def _line_entries(
    text: str,
    block: Block,
    ids: Sequence[tuple[int, int]],
    in_section: bool,
) -> list[tuple[int, int, int]]:
    """The entries of a paragraph that lists references one per line (or one, wrapped).

    A line starts a new entry when the previous one ended a sentence or a link and this one
    opens like an entry: an author list and year, or, when both have one, an identifier.
    """
    out: list[tuple[int, int, int]] = []
    pos = block.body
    cur_start, cur_line, cur_has_id = block.body, block.line, False
    line = cur_line
    while pos < block.end:
        nl = text.find("\n", pos, block.end)
        line_end = block.end if nl == -1 else nl
        s = pos
        while s < line_end and text[s] in " \t":
            s += 1
        if s < line_end:
            has_id = _has_id(text, s, line_end, ids)
            if s != cur_start:
                back = _rstrip(text, cur_start, pos)
                prev_end = text[back - 1] if back > cur_start else ""
                ended = prev_end in ".)]>" or prev_end.isalnum() or prev_end == "/"
                opens = text[s].isupper() or text[s] in '[【*_"“' or text[s].isdigit()
                starts_entry = (
                    opens
                    and ended
                    and ((has_id and cur_has_id) or _author_start(text, s, line_end))
                )
                if starts_entry:
                    out.append((cur_start, _rstrip(text, cur_start, pos), cur_line))
                    cur_start, cur_line, cur_has_id = s, line, False
            cur_has_id = cur_has_id or has_id
        if nl == -1:
            break
        pos = nl + 1
        line += 1
    end = _rstrip(text, cur_start, block.end)
    if end > cur_start:
        out.append((cur_start, end, cur_line))
    if not in_section:
        out = [(a, b, n) for a, b, n in out if _strong(text, a, b, ids)]
    return out


def _rstrip(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


_YEAR_IN_HEAD = LazyPattern(r"\(\s*(?:1[6-9]|20)\d{2}|[.,]\s(?:1[6-9]|20)\d{2}\.")


def _author_start(text: str, start: int, end: int) -> bool:
    """Does this line open with an author list and a year ("Lewis, P. (2020).")?"""
    m = _YEAR_IN_HEAD.search(text, start, min(end, start + 300))
    return m is not None and looks_like_authors(text[start : m.start()])


def _row_entry(
    text: str, cells: list[Block], ids: Sequence[tuple[int, int]], section: str | None
) -> Entry | None:
    """A table row of a reference section: the title, author and year columns by header."""
    if not cells:
        return None
    start, end = cells[0].start, cells[-1].end
    label = None
    title_cell: Block | None = None
    authors: tuple[str, ...] = ()
    year = None
    for cell in cells:
        value = text[cell.body : cell.end].strip()
        if _LABEL_HEADER.match(cell.header) and _CELL_LABEL.match(value):
            m = _CELL_LABEL.match(value)
            label = str(int(m.group(1))) if m else None
        elif _AUTHOR_HEADER.search(cell.header):
            authors = split_authors(value)
        elif _YEAR_HEADER.search(cell.header):
            y = _PREFILTER.search(value)
            year = int(y.group()) if y else None
        elif title_cell is None and _TITLE_HEADER.search(cell.header):
            title_cell = cell
    if title_cell is None:
        title_cell = next((c for c in cells if not _LABEL_HEADER.match(c.header)), None)
    if title_cell is None:
        return None
    parts = segment(
        text, title_cell.body, title_cell.end, _local(ids, title_cell.body, title_cell.end)
    )
    parts = Parts(
        parts.title, authors or parts.authors, year or parts.year, parts.venue,
        tuple(u for c in cells for u in segment(text, c.body, c.end).urls), strong=True,
    )  # fmt: skip
    return Entry(start, title_cell.body, end, cells[0].line, label, parts, section=section)


_BIB_START = LazyPattern(r"@([A-Za-z]{2,30})[ \t]*\{[ \t]*([^,\s{}]{1,200})[ \t]*,")
_BIB_FIELD = LazyPattern(
    r"(?i)(?<![\w-])(title|author|year|journal|booktitle|date)[ \t]*=[ \t]*([{\"]?)"
)


_BARE_VALUE = LazyPattern(r"[^,}\n]*")
_BIB_AND = re.compile(r"\s+and\s+")
_LINE_AT = LazyPattern(r"\n[ \t]*@")


def bibtex_entries(text: str, limit: int = 20_000) -> list[Entry]:
    """BibTeX entries written in ``text``: key, title span, authors, year and venue.

    >>> t = ('@article{lewis2020, title={Retrieval-Augmented {G}eneration},'
    ...      ' author={Lewis, P. and Perez, E.}, year={2020}}')
    >>> (e,) = bibtex_entries(t)
    >>> e.label, t[slice(*e.parts.title)], e.parts.authors, e.parts.year
    ('lewis2020', 'Retrieval-Augmented {G}eneration', ('Lewis, P.', 'Perez, E.'), 2020)
    """
    if "@" not in text:
        return []
    out: list[Entry] = []
    pos = 0
    line = 1
    counted = 0
    while True:
        m = _BIB_START.search(text, pos)
        if m is None:
            break
        if m.group(1).casefold() in ("comment", "preamble", "string"):
            pos = m.end()
            continue
        close = _closing_brace(text, text.index("{", m.start()) + 1, limit)
        end = close + 1 if close is not None else _next_entry(text, m.end())
        line += text.count("\n", counted, m.start())
        counted = m.start()
        title = None
        authors: tuple[str, ...] = ()
        year = None
        venue = None
        for f in _BIB_FIELD.finditer(text, m.end(), end):
            name = f.group(1).casefold()
            opener = f.group(2)
            if opener == "{":
                value_end = _closing_brace(text, f.end(), limit)
            elif opener == '"':
                q = text.find('"', f.end(), end)
                value_end = q if q != -1 else None
            else:
                n = _BARE_VALUE.match(text, f.end(), end)
                value_end = n.end() if n else None
            if value_end is None:
                continue
            value = text[f.end() : value_end]
            if name == "title" and title is None:
                title = (f.end(), value_end)
            elif name == "author" and not authors:
                authors = tuple(a.strip() for a in _BIB_AND.split(value) if a.strip())
            elif name in ("year", "date") and year is None:
                y = _PREFILTER.search(value)
                year = int(y.group()) if y else None
            elif name in ("journal", "booktitle") and venue is None:
                venue = " ".join(value.replace("{", "").replace("}", "").split()) or None
        parts = Parts(title, authors, year, venue, strong=True)
        out.append(Entry(m.start(), m.end(), end, line, m.group(2), parts, kind="bibtex"))
        pos = max(end, m.end())
    return out


def _closing_brace(text: str, start: int, limit: int) -> int | None:
    depth = 1
    stop = min(len(text), start + limit)
    i = start
    while i < stop:
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _next_entry(text: str, start: int) -> int:
    """Where an unclosed BibTeX entry ends: the next ``@`` opening a line, or the text's end."""
    m = _LINE_AT.search(text, start)
    return len(text) if m is None else m.start() + 1
