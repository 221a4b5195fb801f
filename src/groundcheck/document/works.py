"""Cited works: what the extractors found, grouped into the works the report cites.

The unit of judgment is the cited work, not the token. This module decides:

- **what belongs to an entry.** Every identifier inside a reference entry is that entry's;
  its title is the one its segmentation found (:mod:`groundcheck.document.segment`). Any
  other title-like phrase inside the entry (the italic venue, the author list) is nobody's
  title.
- **which title is written for an inline identifier.** The nearest title in its own block
  (or table row) with no other identifier in between, on its line first, before it first,
  written titles (quoted, emphasised, linked, headed) before the bare words next to it;
  failing that, the heading above it when that heading names one paper: the section under
  it cites one work, or the paragraph right under it opens with this identifier.
- **one work per identifier.** An identifier cited in prose and again in the reference
  list is one work (the entry), however often it is written.
- **where markers point.** ``[4]``, ``[^2]``, ``\\cite{key}`` resolve by label; a label no
  entry has is *dangling* when the report labels its entries that way at all. Author–year
  citations resolve by first author's surname and year (or, failing that, an entry whose
  text holds both). A bracketed year (``[2025]``) that no entry is labelled with is a year.
- **which other titles are citations.** A quoted, emphasised, linked or heading title
  followed by a marker belongs to the entry the marker points at. A heading carrying a year
  or author (``### Toy Models of Superposition (2022)``), a quoted title in prose that looks
  like one (title case, or a year, marker or "paper"/"titled" beside it), a table cell in a
  title column: each cites a work by its title alone. Anything else is only looked up: a
  bold sentence or a section name is not a citation.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence

from attrs import frozen

from groundcheck.document.authors import surname, surname_key
from groundcheck.document.blocks import CELL, HEADING, KIND_CODE, PARAGRAPH, QUOTE
from groundcheck.document.references import Entry
from groundcheck.document.report import Document
from groundcheck.model import Citation, CitedWork, Identifier, Marker

__all__ = ["WorkSet", "build_works"]

INLINE = "inline"
ENTRY = "entry"
BIBTEX = "bibtex"

_WRITTEN = frozenset({"quoted", "emphasis", "link", "heading", "cell", "reference", "bibtex"})
_YEAR_LABEL = re.compile(r"(?:1[6-9]|20)\d{2}")
_CUE_AFTER = re.compile(r"(?:1[6-9]|20)\d{2}|\[\^?\w{1,6}[\],–-]|【\d|\bet\.? al\b|\\cite")
_CUE_BEFORE = re.compile(
    r"(?i)\b(?:paper|papers|titled|entitled|article|study|preprint|book|report|survey|"
    r"publication|thesis|chapter|proceedings|et\.? al\.?|(?:1[6-9]|20)\d{2})\b"
)
_EMPHASIS_CITED = re.compile(
    r"[*_]{0,2}[ \t]*[,:]?[ \t]*(?:\((?:[^()\n]{0,60}?(?:1[6-9]|20)\d{2})[^()\n]{0,20}\)"
    r"|\[\^?\d|【\d|\\cite)"
)
"""A citation right after an emphasised title: "*Title* (Lewis et al., 2020)", "*Title* [3]"."""
_HEADING_CITES = re.compile(r"\(\s*[^()\n]{0,80}?(?:1[6-9]|20)\d{2}|\bet\.? al\b|\[\^?\d")
_WORD = re.compile(r"[^\W\d_][\w'’-]*")


@frozen
class WorkSet:
    """The works of one report, and what could not be resolved.

    ``loose`` are title-only works that count only if their title matches a returned title
    (an emphasised phrase that happens to name a paper); ``dangling`` maps each label no entry
    has to the markers that name it; ``unresolved`` are unmistakable author–year citations
    that match no entry; ``has_list`` says whether the report has a reference list at all.
    """

    works: tuple[CitedWork, ...]
    loose: tuple[CitedWork, ...] = ()
    dangling: tuple[tuple[str, tuple[Marker, ...]], ...] = ()
    unresolved: tuple[Marker, ...] = ()
    has_list: bool = False
    notes: tuple[str, ...] = ()

    @property
    def cited_titles(self) -> frozenset[int]:
        """``id()`` of every title citation that is some definite work's title."""
        return frozenset(id(t) for w in self.works for t in w.titles)


class _Draft:
    """A work being assembled (the frozen :class:`CitedWork` is made at the end)."""

    __slots__ = (
        "authors",
        "doc",
        "end",
        "ids",
        "kind",
        "label",
        "markers",
        "section",
        "source",
        "start",
        "titles",
        "urls",
        "venue",
        "year",
    )  # fmt: skip

    def __init__(self, kind: str, start: int, end: int, source: str | None, doc: Document) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.source = source
        self.doc = doc
        self.label: str | None = None
        self.ids: list[Citation] = []
        self.titles: list[Citation] = []
        self.authors: tuple[str, ...] = ()
        self.year: int | None = None
        self.venue: str | None = None
        self.urls: tuple[str, ...] = ()
        self.markers: list[Marker] = []
        self.section: str | None = None

    def add_title(self, title: Citation) -> None:
        if all(t is not title for t in self.titles):
            self.titles.append(title)

    def freeze(self) -> CitedWork:
        line, column = self.doc.lines.locate(self.start)
        return CitedWork(
            key="w?",
            kind=self.kind,
            start=self.start,
            end=self.end,
            line=line,
            column=column,
            source=self.source,
            label=self.label,
            identifiers=tuple(self.ids),
            titles=tuple(self.titles),
            authors=self.authors,
            year=self.year,
            venue=self.venue,
            urls=self.urls,
            markers=tuple(sorted(self.markers, key=lambda m: m.start)),
            section=self.section,
        )


def _from_entry(entry: Entry, doc: Document, source: str | None) -> _Draft:
    d = _Draft(BIBTEX if entry.kind == "bibtex" else ENTRY, entry.start, entry.end, source, doc)
    d.label = entry.label
    d.authors = entry.parts.authors
    d.year = entry.parts.year
    d.venue = entry.parts.venue
    d.urls = entry.parts.urls
    d.section = entry.section
    return d


def _overlap(a: Citation, span: tuple[int, int] | None) -> int:
    if span is None:
        return 0
    return max(0, min(a.end, span[1]) - max(a.start, span[0]))


class _Builder:
    """Groups one text's citations (the report's, or one bibliography file's) into drafts."""

    def __init__(self, doc: Document, citations: Sequence[Citation], source: str | None) -> None:
        self.doc = doc
        self.source = source
        self.ids: list[Citation] = []
        titles: list[Citation] = []
        for c in citations:  # one pass (is_title is a Python call: a flood has 100,000)
            (titles if c.is_title else self.ids).append(c)
        # A report without code has no title in code to drop (each lookup costs a call).
        self.titles = (
            [c for c in titles if c.kind == "bibtex" or not doc.in_code(c.start)]
            if doc.code
            else titles
        )
        self.entries = [_from_entry(e, doc, source) for e in doc.entries]
        self.used: set[int] = set()
        self.inline_ids: list[Citation] = []
        self._assign_to_entries()

    def _assign_to_entries(self) -> None:
        by_start = {e.start: i for i, e in enumerate(self.doc.entries)}
        if not by_start:  # no reference list: every identifier is inline, every title free
            self.inline_ids = list(self.ids)
            self.free_titles: list[Citation] = list(self.titles)
            return
        for c in self.ids:
            entry = self.doc.entry_at(c.start)
            if entry is None:
                self.inline_ids.append(c)
            else:
                self.entries[by_start[entry.start]].ids.append(c)
        best: dict[int, tuple[tuple[int, int], Citation]] = {}
        self.free_titles = []
        for t in self.titles:
            entry = self.doc.entry_at(t.start)
            if entry is None:
                self.free_titles.append(t)
                continue
            i = by_start[entry.start]
            span = entry.parts.title
            overlap = _overlap(t, span)
            if overlap and span is not None:
                # The candidate closest to the segmented span: most shared, least extra.
                extra = (t.end - t.start) - overlap + (span[1] - span[0]) - overlap
                score = (overlap - extra, t.kind != "adjacent")
                if i not in best or score > best[i][0]:
                    best[i] = (score, t)
            self.used.add(id(t))  # inside an entry: its title, or nobody's (the venue, …)
        for i, (_, t) in best.items():
            self.entries[i].titles.insert(0, t)


def _units(doc: Document, cits: Iterable[Citation]) -> dict[tuple[str, int], list[Citation]]:
    out: dict[tuple[str, int], list[Citation]] = {}
    for c in cits:
        unit = doc.unit(c.start)
        if unit is not None:
            out.setdefault(unit, []).append(c)
    return out


_TITLE_COLUMN = re.compile(r"(?i)\b(?:title|paper|publication|article|work|reference|source)s?\b")
"""A table header naming the column that holds each row's title."""


def _describing_cells(doc: Document, titles: list[Citation]) -> set[int]:
    """The ``id`` of each title in ``titles`` that sits in a table cell under a header that is
    not the title column, in a row that has one: the cell describes the row's paper, the title
    is in the title column — the whole cell, or an emphasis inside it (``Entropy over
    *simulated user intents*`` under "Mechanism"). The rows with a title column are found once
    per document."""
    blocks = doc.blocks
    titled_rows = {
        blocks.rows[i] for i in blocks.indices(CELL) if _TITLE_COLUMN.search(blocks.headers[i])
    }
    if not titled_rows:
        return set()
    out: set[int] = set()
    for t in titles:  # a cell's own text, and an emphasis or a quote inside it
        block = doc.block_at(t.start)
        if (
            block is not None
            and block.kind == CELL
            and block.row in titled_rows
            and not _TITLE_COLUMN.search(block.header)
        ):
            out.add(id(t))
    return out


class _Pairing:
    """Which title is written for each inline identifier (see the module docstring)."""

    def __init__(self, doc: Document, ids: list[Citation], titles: list[Citation]) -> None:
        self.doc = doc
        # A quoted phrase that opens in lower case ("a “new standard of care”") is a scare
        # quote or a quotation, never the title written for the id beside it.
        titles = [t for t in titles if t.kind != "quoted" or not t.raw[:1].islower()]
        # In a table whose header names a title column ("Paper", "Title"), the other columns'
        # cells describe the paper ("Method/result", "Use and limit"): not its title.
        describing = _describing_cells(doc, titles)
        titles = [t for t in titles if id(t) not in describing]
        self.ids_by_unit = _units(doc, ids)
        self.titles_by_unit = _units(doc, titles)
        self.heading_titles: dict[int, Citation] = {}
        for t in titles:
            i = doc.block_index(t.start)
            if i is not None and doc.blocks[i].kind == HEADING:
                best = self.heading_titles.get(i)
                if best is None or (t.end - t.start) > (best.end - best.start):
                    self.heading_titles[i] = t
        # The inline identifiers of each heading's own section (up to the next heading).
        by_block: dict[int, list[Citation]] = {}
        for c in ids:
            i = doc.block_index(c.start)
            if i is not None:
                by_block.setdefault(i, []).append(c)
        heads = list(doc.blocks.indices(HEADING))
        self.section_ids: dict[int, list[Citation]] = {h: [] for h in heads}
        for i in sorted(by_block):  # a block's ids go to the last heading above it
            k = bisect_right(heads, i) - 1
            if k >= 0 and heads[k] != i:
                self.section_ids[heads[k]].extend(by_block[i])
        self.first_block = {h: h + 1 for h in self.section_ids if h + 1 < len(doc.blocks)}
        self._first_heading = min(self.section_ids, default=-1)
        self._indexes: dict[
            tuple[str, int], tuple[list[int], list[int], list[Citation], list[int]]
        ] = {}

    def beside(self, c: Citation) -> Citation | None:
        unit = self.doc.unit(c.start)
        if unit is None:
            return None
        own = self._in_unit(c, unit)
        if own is not None:
            return own
        i = self.doc.block_index(c.start)
        if i is None:
            return None
        h = self.doc.heading_above(i)
        if h is None or h not in self.heading_titles or not self._names_one_paper(h, c, i):
            return None
        return self.heading_titles[h]

    def _in_unit(self, c: Citation, unit: tuple[str, int]) -> Citation | None:
        """The title written for ``c`` in its own block or row.

        Only titles between ``c`` and its neighbouring identifiers are looked at, so each
        title is considered for at most two identifiers: a paragraph holding thousands of
        both costs no more than thousands of short ones.
        """
        titles = self.titles_by_unit.get(unit)
        if not titles:
            return None
        ids = self.ids_by_unit.get(unit, [])
        id_starts, title_starts, by_end, title_ends = self._index(unit)
        k = bisect_left(id_starts, c.start)
        while k < len(ids) and ids[k] is not c:
            k += 1
        prev_start = ids[k - 1].start if k > 0 else -1
        next_end = ids[k + 1].end if k + 1 < len(ids) else 1 << 62
        before = [
            t
            for t in by_end[
                bisect_right(title_ends, prev_start) : bisect_right(title_ends, c.start)
            ]
            if t.end <= c.start
        ]
        a = bisect_left(title_starts, c.end)
        b = bisect_left(title_starts, next_end)
        after = [t for t in titles[a:b] if t.start >= c.end]
        start, end = c.start, c.end
        # Written titles first (its line, before then after; then its block), the bare words
        # next to it on its line last.
        for pool, on_line, written in (
            (before, True, True),
            (after, True, True),
            (before, False, True),
            (after, False, True),
            (before, True, False),
            (after, True, False),
        ):
            chosen = [
                t
                for t in pool
                if (t.line == c.line) == on_line and (t.kind != "adjacent") == written
            ]
            if chosen:
                return min(chosen, key=lambda t: start - t.end if t.end <= start else t.start - end)
        return None

    def _index(
        self, unit: tuple[str, int]
    ) -> tuple[list[int], list[int], list[Citation], list[int]]:
        found = self._indexes.get(unit)
        if found is None:
            titles = self.titles_by_unit[unit]
            by_end = sorted(titles, key=lambda t: t.end)
            found = (
                [i.start for i in self.ids_by_unit.get(unit, [])],
                [t.start for t in titles],
                by_end,
                [t.end for t in by_end],
            )
            self._indexes[unit] = found
        return found

    def _names_one_paper(self, h: int, c: Citation, block: int) -> bool:
        heading = self.doc.blocks[h]
        if h == 0 and heading.level == 1 and not self._heading_cites(h):
            return False  # the report's own title
        if _one_work(self.section_ids.get(h, [])):
            return True
        # A sub-section about one paper that also mentions others ("### Paper 3: Title" over
        # "arXiv: X … see also Y"): the paragraph right under it opens with the paper's id.
        # Not for the report's own title or top sections (#, ##): those span many works.
        first = self.first_block.get(h)
        if heading.level < 3 or h == self._first_heading:
            return False
        if first != block or self.doc.blocks[block].kind not in (PARAGRAPH, QUOTE):
            return False
        in_first = self.ids_by_unit.get(("block", block), [])
        return bool(in_first) and in_first[0] is c

    def _heading_cites(self, h: int) -> bool:
        b = self.doc.blocks[h]
        return _HEADING_CITES.search(self.doc.text, b.body, b.end) is not None


def _one_work(ids: Sequence[Citation]) -> bool:
    """Do all of ``ids`` name one work (each shares a name with those before it)?"""
    if not ids:
        return False
    names = set(ids[0].keys)
    for c in ids[1:]:
        if names.isdisjoint(c.keys):
            return False
        names.update(c.keys)
    return True


def _title_shaped(raw: str) -> bool:
    """Title case, or a head and a colon: "Dense Passage Retrieval for …", "REALM: …"."""
    words = _WORD.findall(raw)
    if len(words) < 3 or not words[0][:1].isupper():
        return False
    if ": " in raw:
        return True
    significant = [w for w in words if len(w) >= 4]
    if not significant:
        return False
    capitalised = sum(1 for w in significant if w[0].isupper())
    return capitalised / len(significant) >= 0.6


def _cue(doc: Document, t: Citation) -> bool:
    """A year, marker or "et al." just after the title, or "paper"/"titled"/… just before."""
    text = doc.text
    i = doc.block_index(t.start)
    lo, hi = (0, len(text)) if i is None else (doc.blocks[i].body, doc.blocks[i].end)
    after_end = min(hi, t.end + 100)
    sentence_end = text.find(". ", t.end, after_end)
    after_end = after_end if sentence_end == -1 else sentence_end
    if _CUE_AFTER.search(text, t.end, after_end):
        return True
    before_start = max(lo, t.start - 60)
    return _CUE_BEFORE.search(text, before_start, t.start) is not None


_PAPER_ENUMERATION = re.compile(
    r"(?i)[ \t]*(?:paper|study|article|publication|preprint)[ \t]*#?[ \t]*\d{1,3}[ \t]*[:.)—–-]"
)
_METADATA_FIELD = re.compile(
    r"(?im)^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:authors?|year|published|publication year|"
    r"publication date|venue|journal|conference)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]"
)
"""A field of a paper's record under its heading ("- **Authors**: …", "Year: 2025"). An
identifier field is not needed here: an identifier pairs with the heading by itself."""


_BYLINE = re.compile(r"[^\n.]{0,30}?\b(?:1[6-9]|20)\d{2}\b[a-z]?[,;]\s*[A-ZÀ-ÖØ-Þ]")
"""A byline right under a heading: "arXiv, 2025, Mélanie Gaillochet; …"."""


def _heading_names_a_paper(doc: Document, index: int, t: Citation) -> bool:
    """A heading cites a paper by its title when something says it is one: a year or author
    after the title ("### Toy Models of Superposition (2022)"), an explicit enumeration
    ("### Paper 3: …"), metadata fields under it ("- **Authors**: …", "- **Year**: 2025"), or
    a byline right under it ("arXiv, 2025, Mélanie Gaillochet; …")."""
    # Read from the blocks' columns: each Block read is an object made (a report cites
    # hundreds of papers by heading).
    blocks, text = doc.blocks, doc.text
    codes, starts, bodies, ends = blocks.codes, blocks.starts, blocks.bodies, blocks.ends
    if _HEADING_CITES.search(text, t.end, ends[index]) is not None:
        return True
    if _PAPER_ENUMERATION.match(text, bodies[index], t.start + 1) is not None:
        return True
    for j in range(index + 1, min(len(codes), index + 4)):
        if codes[j] == _HEADING_CODE:
            break
        if _METADATA_FIELD.search(text, starts[j], min(ends[j], starts[j] + 200)):
            return True
        if j == index + 1 and _BYLINE.match(text, bodies[j], min(ends[j], bodies[j] + 80)):
            return True
    return False


_HEADING_CODE = KIND_CODE[HEADING]


_NAMED_THING = re.compile(
    r"(?i)\b(?:album|song|single|track|record|EP|film|movie|show|series|episode|season|game|"
    r"play|musical|opera|band|tour|ship|company|product|brand|app|campaign|slogan|nickname|"
    r"motto|hashtag|query|prompt)s?[ \t]*[:,]?[ \t]*[\"“‘«]?$"
)
"""A word naming something a report names but does not cite (an album, a film, a product,
a query) right before a quoted title: the quoted words are that thing's name."""


_WORK_OF_ART = re.compile(
    r"(?i)\b(?:albums?|songs?|singles?|tracks?|EPs?|LPs?|films?|movies?|documentar(?:y|ies)|"
    r"episodes?|musicals?|operas?|DVDs?|VHS|recordings?|mixtapes?|soundtracks?)\b"
    r"(?:[^.!?\n]|\.(?! )){0,60}$"
)
"""A music or film noun earlier in the same clause: "albums, including "Red Light Fever"
(2010)", "the acclaimed VHS/DVD "Jagged Little Pill, Live" (1997)". Its year is a release
date, not a citation."""


def _names_a_thing(doc: Document, t: Citation) -> bool:
    """Is this quoted or italic title the name of something the report is about (an album, a
    film, a product) rather than a work it cites?"""
    text = doc.text
    before = max(0, t.start - 80)
    if _NAMED_THING.search(text, max(0, t.start - 30), t.start) is not None:
        return True
    return _WORK_OF_ART.search(text, before, t.start) is not None


def _self_cited(doc: Document, t: Citation) -> bool:
    """Does this title cite a work by itself (see the module docstring)?"""
    i = doc.block_index(t.start)
    if i is None:
        return False
    heading = doc.blocks.codes[i] == _HEADING_CODE
    if t.kind == "heading" or (heading and t.kind == "emphasis"):
        return heading and _heading_names_a_paper(doc, i, t)
    if heading:
        return False
    block = doc.blocks[i]
    if t.kind == "quoted":
        if ". " in t.raw or not t.raw[:1].isupper():
            return False
        if _names_a_thing(doc, t):
            return False  # the album "There Is Nothing Left to Lose": a name, not a source
        return _title_shaped(t.raw) or _cue(doc, t)
    if t.kind == "emphasis":
        if _names_a_thing(doc, t):
            return False
        # Italics also name albums, films and books in passing ("*Jagged Little Pill*,
        # released in 1995"): only a citation written right after the title counts.
        italic = doc.text[t.start - 2 : t.start] not in ("**", "__")
        return (
            italic and _title_shaped(t.raw) and _EMPHASIS_CITED.match(doc.text, t.end) is not None
        )
    if t.kind == "cell" and block.kind == CELL:
        return bool(re.search(r"(?i)title|paper", block.header))
    return False


_MARKER_GAP = 40


def _names_title(doc: Document, t: Citation) -> bool:
    """Can this phrase be the title of the work the marker after it cites? Not a phrase in
    lower case, nor one in bold: "the **impact of emerging technologies** (Lewis, 2020)"
    stresses words and cites a work for them; it does not write the work's title."""
    if t.raw[:1].islower():
        return False
    return t.kind != "emphasis" or doc.text[t.start - 2 : t.start] not in ("**", "__")


def _following_marker(
    doc: Document, t: Citation, markers: Sequence[Marker], starts: Sequence[int]
) -> Marker | None:
    """A marker written right after a title ("“Title” [2]", "*Title* (Lewis et al., 2020)")."""
    k = bisect_left(starts, t.end)
    if k >= len(markers):
        return None
    m = markers[k]
    if m.start - t.end > _MARKER_GAP:
        return None
    gap = doc.text[t.end : m.start]
    if "\n\n" in gap or len(gap.strip(" \t\n\"”’'*_,.;:)(")) > 25:
        return None
    if "|" in gap and doc.unit(t.start) != doc.unit(m.start):
        return None  # a cell's text and the next row's "Hanna & Ameisen (2026)"
    return m


def build_works(
    doc: Document,
    citations: Sequence[Citation],
    bibliographies: Mapping[str, tuple[Document, Sequence[Citation]]] | None = None,
) -> WorkSet:
    """Group the report's citations (and those of its bibliography files) into cited works.

    >>> from groundcheck.extractors import extract
    >>> text = ("RAG [1] beats BM25 [2].\\n\\n## References\\n[1] Lewis, P. (2020). "
    ...         "Retrieval-augmented generation for NLP. NeurIPS. arXiv:2005.11401")
    >>> cits = extract(text)
    >>> ws = build_works(Document(text, [(c.start, c.end) for c in cits if not c.is_title]), cits)
    >>> [(w.kind, w.label, [c.raw for c in w.identifiers], w.title.raw) for w in ws.works]
    [('entry', '1', ['2005.11401'], 'Retrieval-augmented generation for NLP')]
    >>> [(label, [m.raw for m in ms]) for label, ms in ws.dangling]
    [('2', ['[2]'])]
    """
    report = _Builder(doc, [c for c in citations if c.source is None], None)
    builders = [report]
    for name, (bib_doc, bib_cits) in (bibliographies or {}).items():
        builders.append(_Builder(bib_doc, bib_cits, name))

    drafts: list[_Draft] = []
    owner: dict[Identifier, _Draft] = {}
    for b in builders:
        for d in b.entries:
            drafts.append(d)
            for c in d.ids:
                for k in c.keys:
                    owner.setdefault(k, d)

    # Inline identifiers: their titles, then one work per identifier (or the entry's).
    paired: set[int] = set()
    # A work an identifier names, by the identifier object: an owner once set never changes,
    # and a flood's citations share one object (hashing it is a Python call; its id is not).
    owned_by: dict[int, _Draft] = {}
    for b in builders:
        # With no title to pair (a run of bare ids), no id has one beside it: none is sought.
        pairing = (
            _Pairing(b.doc, b.inline_ids, b.free_titles)
            if b.source is None and b.free_titles
            else None
        )
        for c in b.inline_ids:
            beside = pairing.beside(c) if pairing is not None else None
            work = owned_by.get(id(c.identifier))  # the first key's owner comes first
            if work is None:
                work = owner.get(c.identifier)
                if work is not None:
                    owned_by[id(c.identifier)] = work
                else:
                    for k in c.aliases:
                        work = owner.get(k)
                        if work is not None:
                            break
            if work is None:
                work = _Draft(INLINE, c.start, c.end, b.source, b.doc)
                drafts.append(work)
                for k in c.keys:
                    owner[k] = work
            work.ids.append(c)
            if beside is not None and (work.kind == INLINE or beside.kind != "adjacent"):
                work.add_title(beside)
                paired.add(id(beside))

    # Markers, by label.
    labelled: dict[str, _Draft] = {}
    for d in drafts:
        if d.label is not None and d.kind != INLINE:
            labelled.setdefault(d.label, d)
    numeric = any(label.isdigit() for label in labelled)
    footnotes = any(label.startswith("^") for label in labelled)
    keys = any(not label.isdigit() and not label.startswith("^") for label in labelled)
    dangling: dict[str, list[Marker]] = {}
    resolved_to: dict[int, list[_Draft]] = {}
    for m in doc.markers:
        targets: list[_Draft] = []
        for label in m.labels:
            target = labelled.get(label)
            if target is not None:
                targets.append(target)
                continue
            if m.kind == "number" and _YEAR_LABEL.fullmatch(label):
                continue  # [2025]: a year, unless an entry is labelled so
            namespace = (
                numeric if m.kind == "number" else footnotes if m.kind == "footnote" else keys
            )
            if namespace:
                dangling.setdefault(label, []).append(m)
        unique = list(dict.fromkeys(targets))
        for target in unique:
            target.markers.append(m)
        resolved_to[id(m)] = unique

    # Author–year citations, by first author and year (else by a name the entry holds).
    listed = [d for d in drafts if d.kind != INLINE]
    by_author: dict[tuple[str, int], _Draft] = {}
    for d in listed:
        if d.authors and d.year is not None:
            by_author.setdefault((surname_key(surname(d.authors[0])), d.year), d)
    by_name: dict[tuple[str, int], _Draft] | None = None
    unresolved: list[Marker] = []
    author_markers: list[Marker] = []
    inline: list[tuple[int, int, _Draft]] = []
    inline_starts: list[int] = []
    if doc.author_years:  # made only when asked of: a flood of bare ids has no author-year
        for c in report.inline_ids:
            owned = owned_by.get(id(c.identifier))
            if owned is None:
                owned = owner.get(c.identifier)
            if owned is not None:
                inline.append((c.start, c.end, owned))
        inline.sort(key=lambda x: x[0])
        inline_starts = [s for s, _, _ in inline]
    for m, certain in doc.author_years:
        if doc.entry_at(m.start) is not None:
            continue  # "Lewis et al. (2020). Title." inside the list is the entry itself
        key = surname_key(m.author)
        assert m.year is not None
        target = _id_beside(doc.text, m, inline, inline_starts) or by_author.get((key, m.year))
        if target is None:
            if by_name is None:
                by_name = _names_index(listed)
            target = by_name.get((key, m.year))
        if target is not None:
            target.markers.append(m)
            resolved_to[id(m)] = [target]
            author_markers.append(m)
        elif certain:
            unresolved.append(m)
            author_markers.append(m)

    # Titles that are not an entry's and not written beside an identifier.
    loose: list[_Draft] = []
    all_markers = sorted((*doc.markers, *author_markers), key=lambda m: m.start)
    starts = [m.start for m in all_markers]
    # A name is a name throughout: "Get the Money" is an album on one line, so it is one
    # on the line that calls it "his project" too.
    named = {
        t.id
        for t in report.free_titles
        if t.kind in ("quoted", "emphasis") and _names_a_thing(doc, t)
    }
    for t in report.free_titles:
        if id(t) in report.used or id(t) in paired or t.kind == "adjacent":
            continue
        follows = _following_marker(doc, t, all_markers, starts) if _names_title(doc, t) else None
        targets = resolved_to.get(id(follows), []) if follows is not None else []
        if len(targets) == 1:
            targets[0].add_title(t)
            continue
        d = _Draft(INLINE, t.start, t.end, None, doc)
        d.titles.append(t)
        if t.kind in _WRITTEN and t.id not in named and _self_cited(doc, t):
            drafts.append(d)
        elif t.kind in _WRITTEN:
            loose.append(d)

    notes = _uncited_note(drafts, numeric, doc)
    works = tuple(d.freeze() for d in drafts)
    return WorkSet(
        works=works,
        loose=tuple(d.freeze() for d in loose),
        dangling=tuple((label, tuple(ms)) for label, ms in dangling.items()),
        unresolved=tuple(unresolved),
        has_list=any(d.kind != INLINE for d in drafts),
        notes=notes,
    )


_ID_GAP = re.compile(
    r"[\s,;:()\[\]]{0,6}(?:(?i:arxiv|doi|pmid|pmcid|isbn)[\s:]{0,3})?(?:https?://)?"
)


def _id_beside(
    text: str, m: Marker, inline: Sequence[tuple[int, int, _Draft]], starts: Sequence[int]
) -> _Draft | None:
    """The inline work whose identifier is written right beside an author–year citation
    ("Lewis et al. (2020), arXiv:2005.11401"; "arXiv:2005.11401 (Lewis et al., 2020)"): the
    citation names that work, whatever list the report has or lacks."""
    k = bisect_left(starts, m.end)
    if k < len(inline):
        gap = _ID_GAP.match(text, m.end, inline[k][0])
        if gap is not None and gap.end() == inline[k][0]:
            return inline[k][2]
    if k > 0:
        _, end, draft = inline[k - 1]
        if end <= m.start and text[end : m.start].strip(" \t,;:([") == "":
            return draft
    return None


_CAPITALISED = re.compile(r"[A-ZÀ-ÖØ-Þ][\w'’-]+")
_YEARS = re.compile(r"(?<![\d.])(?:1[6-9]|20)\d{2}(?![\d])")


def _names_index(drafts: Sequence[_Draft]) -> dict[tuple[str, int], _Draft]:
    """(name, year) for every capitalised word at the head of each entry: finds the entry of
    "Lewis et al. (2020)" when its author list did not parse. Built once, only if needed."""
    index: dict[tuple[str, int], _Draft] = {}
    for d in drafts:
        head = d.doc.text[d.start : min(d.end, d.start + 400)]
        years = {int(y) for y in _YEARS.findall(head)}
        if d.year is not None:
            years.add(d.year)
        for word in sorted(set(_CAPITALISED.findall(head))):
            for year in sorted(years):
                index.setdefault((surname_key(word), year), d)
    return index


def _uncited_note(drafts: Sequence[_Draft], numeric: bool, doc: Document) -> tuple[str, ...]:
    """Numbered entries no marker points at: worth a note, never a finding."""
    if not numeric:
        return ()
    uncited = [
        d.label
        for d in drafts
        if d.label
        and d.label.isdigit()
        and not d.markers
        and all(d.start <= c.start < d.end for c in (*d.ids, *d.titles))
    ]
    if not uncited:
        return ()
    shown = ", ".join(f"[{label}]" for label in uncited[:10])
    more = f" and {len(uncited) - 10} more" if len(uncited) > 10 else ""
    what = "entry" if len(uncited) == 1 else "entries"
    verb = "is" if len(uncited) == 1 else "are"
    return (f"reference list {what} {shown}{more} {verb} cited nowhere in the text",)
