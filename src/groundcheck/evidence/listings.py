"""Returned works in the text of a tool output: listings, tables, key-value blocks, references.

Search tools rarely return one clean JSON record per paper. They print numbered listings with
the metadata on the lines below (paper-finder: ``1. Title`` then ``Relevance: 3/3 | Year: 2024``),
Markdown tables with a Title column, tab-, pipe- or comma-separated rows under a header,
key-value blocks (LangChain's arXiv tool: ``Published: …`` / ``Title: …`` / ``Authors: …``),
JSON pasted after a label on one line (Claude Code's web search: ``Links: [{"title": …}]``),
and PDF text with a reference list. Each of those is a title with, around it, the identifiers,
authors and year of the same paper: a :class:`~groundcheck.model.Work`.

:func:`harvest` finds them all, together with the works of JSON records
(:class:`~groundcheck.evidence.walk.Record`). It is the one call
:func:`~groundcheck.evidence.trace.make_evidence` makes, and it is cheap when there is nothing
to find: every parser runs only when a literal it needs occurs in the text (``|``, a tab,
``itle``, ``[{"``, a numbered line, ``References``), so an output that is only ids and prose
costs a handful of substring tests. Every pattern is anchored at a line start with bounded
repetitions; each line is looked at a bounded number of times.
"""

from __future__ import annotations

import csv
import operator
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter

from attrs import frozen

from groundcheck.evidence.jsonio import parse_json
from groundcheck.evidence.walk import FlatOutput, authors_of, flatten, year_of
from groundcheck.extractors import Extractor, find_mentions, identifiers_in
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.hints import needle_positions, word_matches
from groundcheck.extractors.registry import schemes_of
from groundcheck.model import TITLE_SCHEME, Identifier, Mention, Work
from groundcheck.text import TextView

__all__ = ["Harvest", "harvest", "listed_works"]

_MAX_TITLE = 400
_MIN_TITLE_WORDS = 2


@frozen
class Harvest:
    """Titles and works found beyond title fields: listing titles (with or without ids) and
    the works of records and listings."""

    titles: tuple[str, ...] = ()
    works: tuple[Work, ...] = ()


def harvest(
    flat: FlatOutput,
    text: str,
    ids: Sequence[Mention],
    extractors: Sequence[Extractor],
    found: Sequence[str] = (),
    *,
    mentions: Sequence[tuple[Mention, str]] | None = None,
    view: TextView | None = None,
) -> Harvest:
    """Every returned work of one output: its JSON records, and the listings in its text.

    ``titles`` are ``found`` (the titles already found in the output) without the agent's own
    query echoed back (``Web search results for query: "…"``: the agent's words, not a result),
    then every listed title (some listings give nothing else); ``works`` those records and
    listed titles that come with identifiers, authors or a year.

    ``text`` is the matching view of ``flat.text`` and ``ids`` the identifiers already found in
    it, sorted by start (a listing's ids are looked up there, not searched again).
    ``mentions`` (with ``view``, the :class:`~groundcheck.text.TextView` of ``flat.text``) are
    every mention found in ``text`` with its extractor's name, before any provenance rule:
    the identifiers of a record's fields are then read off them rather than extracted again.
    """
    listed = listed_works(text, ids, extractors)
    works: list[Work] = []
    if flat.records:
        # A record's sibling fields only need their identifiers: skip the title finder.
        works.extend(_record_works(flat, _id_finders(extractors), mentions, view))
    works.extend(w for w in listed if w.identifiers or w.authors or w.year is not None)
    echoed = _echoed_query(text)
    kept = [t for t in found if t != echoed] if echoed else list(found)
    return Harvest((*kept, *(w.title for w in listed)), tuple(works))


_ECHO = re.compile(
    r"[ \t]{0,8}(?i:web[ \t]search[ \t]results|search[ \t]results|results)[ \t]for"
    r"(?:[ \t]query)?:?[ \t]{0,4}[\"“']([^\"”'\n]{1,500})[\"”']"
)


def _echoed_query(text: str) -> str | None:
    """The query a search tool repeats at the top of its output, if it does."""
    m = _ECHO.match(text, 0, 600)
    return m.group(1).strip() if m else None


def _finds_titles(extractor: Extractor) -> bool:
    return any(s.name == TITLE_SCHEME for s in schemes_of(extractor))


_last_finders: tuple[tuple[Extractor, ...], list[Extractor]] | None = None
_last_builtin: tuple[Sequence[Extractor], bool] | None = None


def _id_finders(extractors: Sequence[Extractor]) -> list[Extractor]:
    """The extractors that do not find titles (a fresh list: the caller's to keep). Worked out
    once for a tuple of extractors (a trace hands every output the same one), not per call."""
    global _last_finders
    last = _last_finders
    if last is not None and last[0] is extractors:
        return list(last[1])
    found = [e for e in extractors if not _finds_titles(e)]
    if type(extractors) is tuple:
        _last_finders = (extractors, found)
        return list(found)
    return found


def _all_builtin(extractors: Sequence[Extractor]) -> bool:
    """Are all ``extractors`` built-in ones? Remembered for the last list asked about while it
    holds the same extractors (compared by identity: a few pointer tests, not a scan of
    ``BUILTIN`` for each)."""
    global _last_builtin
    last = _last_builtin
    if (
        last is not None
        and len(last[0]) == len(extractors)
        and all(map(operator.is_, last[0], extractors))
    ):
        return last[1]
    answer = all(any(e is b for b in BUILTIN) for e in extractors)
    _last_builtin = (tuple(extractors), answer)
    return answer


def _record_works(
    flat: FlatOutput,
    id_finders: Sequence[Extractor],
    mentions: Sequence[tuple[Mention, str]] | None = None,
    view: TextView | None = None,
) -> Iterator[Work]:
    records = flat.records
    named_by_record = _record_identifiers(flat, id_finders, mentions, view)
    for r, named in zip(records, named_by_record, strict=True):
        if named or r.authors or r.year is not None:
            yield Work(frozenset(named), r.title, r.authors, r.year, "record")


def _record_identifiers(
    flat: FlatOutput,
    id_finders: Sequence[Extractor],
    mentions: Sequence[tuple[Mention, str]] | None,
    view: TextView | None,
) -> list[set[Identifier]]:
    """What ``identifiers_in(record.siblings, id_finders)`` gives for every record, without
    extracting the fields again where the mentions of the output's text already hold them.

    A record's string fields are leaves of ``flat.text``, each between two blank lines, and
    what a built-in extractor finds inside a text between blank lines does not depend on
    what is around it (the property ``identifiers_by_text`` rests on, tested there and in
    tests/evidence/test_record_fields.py): so a record's identifiers are those of the
    mentions inside its leaves, plus those of its number fields (extracted, they are not in
    the text as written). Records that are not tracked, or plug-in extractors, take
    :func:`identifiers_by_text`.
    """
    records = flat.records
    builtin = _all_builtin(id_finders)
    if (
        mentions is None
        or view is None
        or not builtin
        or len(flat.record_leaves) != len(records)
        or view.original is not flat.text
    ):
        return identifiers_by_text([r.siblings for r in records], id_finders)
    names = {e.name for e in id_finders}
    # Where each leaf starts: the walk's starts (one more past the last: a leaf ends two
    # characters before the next one starts, the blank line between them), read as they are.
    leaf_starts: Sequence[int] = flat.starts
    leaf_ends: list[int] | None = None
    if len(leaf_starts) != len(flat.strings) + 1 or not flat.strings:
        leaves = flat.leaves
        leaf_starts = list(map(itemgetter(0), leaves))
        leaf_ends = list(map(itemgetter(1), leaves))
    keys_of_leaf: dict[int, set[Identifier]] = {}
    to_original = None if view.is_identity else view.to_original
    for mention, name in mentions:
        if mention.malformed is not None or name not in names:
            continue
        if to_original is None:
            start, end = mention.start, mention.end
        else:
            start, end = to_original(mention.start, mention.end)
        i = bisect_right(leaf_starts, start) - 1
        last = leaf_starts[i + 1] - 2 if leaf_ends is None else leaf_ends[i]
        if i < 0 or end > last:  # pragma: no cover - no mention spans a blank line
            return identifiers_by_text([r.siblings for r in records], id_finders)
        keys = keys_of_leaf.get(i)
        if keys is None:
            keys = keys_of_leaf[i] = {mention.identifier}
        else:
            keys.add(mention.identifier)
        if mention.aliases:  # (mention.keys, without building the tuple)
            keys.update(mention.aliases)
    found: list[set[Identifier]] = []
    untracked: list[int] = []
    number_texts: list[str] = []
    number_owner: list[int] = []
    for n, tracked in enumerate(flat.record_leaves):
        named: set[Identifier] = set()
        found.append(named)
        if tracked is None:
            untracked.append(n)
            continue
        fields, numbers = tracked
        # in field order, as the record's fields were extracted (one pass over the fields:
        # a record of a search result has an id among them, so a test for one first only
        # read them twice)
        for keys in filter(None, map(keys_of_leaf.get, fields)):
            named.update(keys)
        for number in numbers:
            number_texts.append(number)
            number_owner.append(n)
    if number_texts:
        numbered = identifiers_by_text(number_texts, id_finders)
        for n, keys in zip(number_owner, numbered, strict=True):
            found[n].update(keys)
    if untracked:
        again = identifiers_by_text([records[n].siblings for n in untracked], id_finders)
        for n, keys in zip(untracked, again, strict=True):
            found[n] = keys
    return found


_TEXT_GAP = "\n\n\x00\n\n"
"""Between the texts extracted in one pass: two line breaks (the view never joins across a
blank line, and no built-in pattern spans one) around a character that no label, gap or
identifier pattern accepts, so what each text holds is found exactly as if it were alone."""


def identifiers_by_text(
    texts: Sequence[str], extractors: Sequence[Extractor]
) -> list[set[Identifier]]:
    """``[identifiers_in(t, extractors) for t in texts]``, in one extraction pass.

    A search result holds a hundred records; extracting each record's fields on their own
    costs every extractor's fixed overhead a hundred times. The built-in extractors read the
    texts joined by :data:`_TEXT_GAP` and each mention goes to the text it lies in (a
    property test compares the two ways). A plug-in extractor might read across the gap, so
    with one the texts are read one by one.
    """
    if len(texts) < 2 or not _all_builtin(extractors):
        return [identifiers_in(t, extractors) if t else set() for t in texts]
    starts: list[int] = []
    at = 0
    for t in texts:
        starts.append(at)
        at += len(t) + len(_TEXT_GAP)
    joined = _TEXT_GAP.join(texts)
    view = TextView.of(joined)
    found: list[set[Identifier]] = [set() for _ in texts]
    for mention, _ in find_mentions(view.text, extractors):
        if mention.malformed is not None:
            continue
        start, end = view.to_original(mention.start, mention.end)
        i = bisect_right(starts, start) - 1
        if end > starts[i] + len(texts[i]):  # pragma: no cover - the gap is never crossed
            return [identifiers_in(t, extractors) if t else set() for t in texts]
        found[i].update(mention.keys)
    return found


# -- listings in text -------------------------------------------------------------------------


def listed_works(
    text: str, ids: Sequence[Mention], extractors: Sequence[Extractor] = ()
) -> list[Work]:
    """Works listed in ``text`` (see the module docstring), in text order, without repeats.

    ``ids`` are the identifier mentions in ``text`` sorted by start; a listed work gets those
    inside its own row, item or block. ``extractors`` are only needed for JSON pasted in text.

    >>> out = "1. Toy Models of Superposition\\n   Relevance: 3/3 | Year: 2022 | Citations: 900\\n"
    >>> [(w.title, w.year, w.origin) for w in listed_works(out, [])]
    [('Toy Models of Superposition', 2022, 'listing')]
    """
    if not text:
        return []
    starts = [m.start for m in ids]
    found: list[tuple[int, Work]] = []
    for wanted, finder in _FINDERS:
        if not wanted(text):
            continue
        for start, end, title, authors, year, origin in finder(text):
            clean = _clean_title(title)
            if clean is None:
                continue
            named = _ids_between(ids, starts, start, end)
            found.append((start, Work(named, clean, authors, year, origin)))
    if ids and (("|" in text and " | " in text) or "\t" in text):  # (a memchr first)
        listed = {w.title for _, w in found}  # a row another parser read keeps its metadata
        found.extend(p for p in _lines_with_ids(text, ids) if p[1].title not in listed)
    if _has_pasted_json(text):
        found.extend(_pasted_json(text, extractors))
    found.sort(key=lambda p: p[0])
    return list(dict.fromkeys(w for _, w in found))


def _ids_between(
    ids: Sequence[Mention], starts: list[int], lo: int, hi: int
) -> frozenset[Identifier]:
    keys: set[Identifier] = set()
    for m in ids[bisect_left(starts, lo) : bisect_left(starts, hi)]:
        keys.update(m.keys)
    return frozenset(keys)


_Item = tuple[int, int, str, tuple[str, ...], "int | None", str]
"""(start, end, title, authors, year, origin) of one listed work, offsets in the text."""

_MARKUP = re.compile(r"\*\*|__|`|^\s{0,4}[-*+•][ \t]{1,3}|^#{1,6}[ \t]{1,3}")
_LINK = re.compile(r"\[([^\[\]\n]{2,400})\]\([^()\n]{0,500}\)")
_TRAILING_YEAR = re.compile(
    r"[ \t]{0,4}[(\[][ \t]{0,2}(?:19|20)\d{2}[a-z]?[ \t]{0,2}[)\]][ \t.]{0,3}$"
)
_HAS_WORD = re.compile(r"[^\W\d_]{2}")


def _clean_title(raw: str) -> str | None:
    """A listing cell or line as a title: markup, links and a trailing ``(2024)`` removed.

    None when what is left is too short, too long or not words (a number, a URL, a dash).
    """
    text = _LINK.sub(r"\1", raw.strip())
    text = _MARKUP.sub("", text).strip()
    text = " ".join(_TRAILING_YEAR.sub("", text).strip().strip('"“”').split())
    if not text or len(text) > _MAX_TITLE or "://" in text:
        return None
    words = [w for w in text.split() if _HAS_WORD.search(w)]
    if len(words) < _MIN_TITLE_WORDS:
        return None
    return text


# Pipe- or tab-separated lines holding an identifier --------------------------------------------


def _lines_with_ids(text: str, ids: Sequence[Mention]) -> Iterator[tuple[int, Work]]:
    """``Title | 2310.05344v1``, ``2101.03961<TAB>Title<TAB>2021``: a delimited line with an
    identifier; its title is the first other field that reads as a title (not authors).

    Lines longer than :data:`_MAX_LINE` are not listings; every search is bounded by it, and
    a line's identifiers are found by bisection, so a flood of ids on one line stays linear.
    """
    starts = [m.start for m in ids]
    seen: set[int] = set()
    for m in ids:
        start = _line_start(text, m.start)
        if start is None or start in seen:
            continue
        seen.add(start)
        end = text.find("\n", m.end, m.end + _MAX_LINE)
        if end == -1:
            if len(text) - m.end > _MAX_LINE:
                continue
            end = len(text)
        line = text[start:end]
        if line.lstrip().startswith("|"):
            continue  # a Markdown table row: the table parser reads tables with a header
        sep = " | " if " | " in line else "\t" if "\t" in line else None
        if sep is None:
            continue
        on_line = ids[bisect_left(starts, start) : bisect_left(starts, end)]
        keys = frozenset(k for i in on_line for k in i.keys)
        offset = start
        for field in line.split(sep):
            at = offset
            offset += len(field) + len(sep)
            if any(at <= i.start < at + len(field) for i in on_line) or _looks_like_authors(field):
                continue
            title = _clean_title(field)
            if title is not None and len(title.split()) >= 3:
                yield start, Work(keys, title, origin="line")
                break


_MAX_LINE = 2000
"""A listing line is at most this long; longer lines are prose or packed data."""


def _line_start(text: str, at: int) -> int | None:
    """Start of the line holding ``text[at]``, or None when it lies over :data:`_MAX_LINE` back."""
    lo = max(0, at - _MAX_LINE)
    found = text.rfind("\n", lo, at)
    if found == -1:
        return 0 if lo == 0 else None
    return found + 1


# Markdown tables ------------------------------------------------------------------------------

_TITLE_HEADERS = frozenset(
    {
        "title",
        "paper",
        "paper title",
        "article",
        "article title",
        "publication",
        "work",
        "name of paper",
    }
)
_AUTHOR_HEADERS = frozenset({"author", "authors", "first author", "author(s)", "creators"})
_YEAR_HEADERS = frozenset(
    {"year", "date", "published", "publication date", "pub year", "venue/year"}
)
_TABLE_RULE = re.compile(
    r"(?m)^[ \t]{0,8}\|?[ \t]{0,4}:?-{3,200}:?[ \t]{0,4}"
    r"(?:\|[ \t]{0,4}:?-{1,200}:?[ \t]{0,4}){1,40}\|?[ \t]{0,4}$"
)


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [c.strip() for c in body.split("|")]


def _header_key(cell: str) -> str:
    return " ".join(_MARKUP.sub("", cell).strip().strip(":").lower().split())


def _tables(text: str) -> Iterator[_Item]:
    """Rows of Markdown tables whose header names a title column."""
    for rule in _TABLE_RULE.finditer(text):
        header_end = rule.start() - 1
        if header_end <= 0:
            continue
        header_start = _line_start(text, header_end)
        if header_start is None:
            continue
        header = [_header_key(c) for c in _cells(text[header_start:header_end])]
        yield from _rows(text, rule.end() + 1, header, "|", "table")


def _rows(text: str, pos: int, header: list[str], sep: str, origin: str) -> Iterator[_Item]:
    """Rows under ``header`` from ``pos`` to the first line that is not a row of the table."""
    title_col = next((i for i, h in enumerate(header) if h in _TITLE_HEADERS), None)
    if title_col is None:
        return
    author_col = next((i for i, h in enumerate(header) if h in _AUTHOR_HEADERS), None)
    year_col = next((i for i, h in enumerate(header) if h in _YEAR_HEADERS), None)
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end == -1 else end
        if sep == ",":
            # A quoted CSV field may hold line breaks (a wrapped title): join up to 8 lines.
            for _ in range(8):
                if text.count('"', pos, end) % 2 == 0 or end >= len(text):
                    break
                nxt = text.find("\n", end + 1)
                end = len(text) if nxt == -1 else nxt
        line = text[pos:end]
        if sep not in line or not line.strip():
            return
        if sep == "|":
            cells = _cells(line)
        elif sep == ",":
            try:
                cells = next(csv.reader([line]), [])
            except csv.Error:  # a carriage return inside a field: no row CSV can read
                return
        else:
            cells = [c.strip() for c in line.split(sep)]
        if len(cells) != len(header) and (sep != "|" or abs(len(cells) - len(header)) > 1):
            return  # not a row of this listing: prose, or another table
        if len(cells) > title_col:
            authors = (
                authors_of(cells[author_col])
                if author_col is not None and author_col < len(cells)
                else ()
            )
            year = (
                year_of(cells[year_col]) if year_col is not None and year_col < len(cells) else None
            )
            yield pos, end, cells[title_col], authors, year, origin
        pos = end + 1


# Delimited listings under a header ------------------------------------------------------------

_TITLE_WORD = re.compile(r"(?i)\b(?:title|paper)\b")


def _delimited(text: str) -> Iterator[_Item]:
    """Rows of tab-, pipe- or comma-separated listings whose header line has a title field."""
    if not _may_have_header(text):
        return
    seen_lines: set[int] = set()
    for m in word_matches(text, _TITLE_WORD, ("title", "paper")):
        line_start = _line_start(text, m.start())
        if line_start is None or line_start in seen_lines:
            continue
        seen_lines.add(line_start)
        line_end = text.find("\n", m.end(), m.end() + _MAX_LINE)
        if line_end == -1:
            if len(text) - m.end() > _MAX_LINE:
                continue
            line_end = len(text)
        line = text[line_start:line_end]
        for sep in ("\t", "|", ","):
            if sep not in line or (sep == "|" and _TABLE_RULE.match(text, line_end + 1)):
                continue  # a Markdown table's header: the table parser reads it
            fields = _cells(line) if sep == "|" else [c.strip() for c in line.split(sep)]
            header = [_header_key(f) for f in fields]
            if len(header) >= 2 and any(h in _TITLE_HEADERS for h in header):
                yield from _rows(text, line_end + 1, header, sep, "line")
                break


_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
"""The non-ASCII letters ``(?i)`` matches to ASCII ones: with one, a title word may be
written without ``itle`` (``tıtle``)."""


def _may_have_header(text: str) -> bool:
    """Does any line holding ``itle`` or ``aper`` (any case: where every title word of a header
    is) hold a separator too? A flattened search result has a ``title`` key line per record,
    and the header search is a regex match and a few searches at each; such a line (the word
    alone between line breaks) is told at a glance. The positions are the extractors' shared
    ones (``itle`` is the key-value test's too)."""
    if not text.isascii() and any(ch in text for ch in _FOLDS_TO_ASCII):
        return True
    for needle in ("itle", "aper"):
        for at in needle_positions(text, needle):
            # "\ntitle\n": a word of five letters alone on its line has no separator
            if at >= 2 and text[at - 2] == "\n" and text[at + 4 : at + 5] == "\n":
                continue
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            line = text[start:] if end == -1 else text[start:end]
            if "\t" in line or "|" in line or "," in line:
                return True
    return False


# Key-value blocks ------------------------------------------------------------------------------

_KV_TITLE = re.compile(
    r"(?m)^[ \t]{0,8}(?:[-*][ \t]{1,3})?\*{0,2}(?i:title|paper title)\*{0,2}[ \t]{0,3}:"
    r"\*{0,2}[ \t]{0,4}(\S[^\n]{2,400})$"
)
_KV_LINE = re.compile(
    r"(?m)^[ \t]{0,8}(?:[-*][ \t]{1,3})?\*{0,2}([A-Za-z][A-Za-z ()]{1,30})\*{0,2}[ \t]{0,3}:"
    r"\*{0,2}[ \t]{0,4}([^\n]{0,2000})$"
)
_AUTHOR_KEYS = frozenset({"authors", "author", "author(s)", "creators", "by"})
_YEAR_KEYS = frozenset(
    {"year", "published", "date", "publication date", "publication year", "submitted"}
)


def _block_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The paragraph (between blank lines) around ``text[start:end]``, at most 3000 characters."""
    lo = text.rfind("\n\n", max(0, start - 3000), start)
    hi = text.find("\n\n", end, end + 3000)
    return (max(0, start - 3000) if lo == -1 else lo + 2), (
        min(len(text), end + 3000) if hi == -1 else hi
    )


def _key_value_blocks(text: str) -> Iterator[_Item]:
    """``Title: …`` lines, with the ``Authors:`` and ``Published:``/``Year:`` of their block."""
    titles = list(_KV_TITLE.finditer(text))
    for n, m in enumerate(titles):
        lo, hi = _block_bounds(text, m.start(), m.end())
        if n > 0:
            lo = max(lo, titles[n - 1].end())
        if n + 1 < len(titles):
            hi = min(hi, titles[n + 1].start())
        authors: tuple[str, ...] = ()
        year: int | None = None
        for kv in _KV_LINE.finditer(text, lo, hi):
            key = kv.group(1).strip().lower()
            if not authors and key in _AUTHOR_KEYS:
                authors = authors_of(kv.group(2))
            elif year is None and key in _YEAR_KEYS:
                year = year_of(kv.group(2))
        yield lo, hi, m.group(1), authors, year, "listing"


# Numbered listings with metadata lines --------------------------------------------------------

_NUMBERED = re.compile(r"(?m)^[ \t]{0,4}(?:\d{1,4}[.)]|\[\d{1,4}\])[ \t]{1,4}(\S[^\n]{0,500})$")
_META = re.compile(
    r"[ \t]{0,12}(?:[-*][ \t]{1,3})?\*{0,2}"
    r"(?i:relevance|year|authors?|url|link|citations?|published|"
    r"venue|journal|abstract|summary|arxiv(?: id)?|doi|id|score|date|pdf|source|tldr)"
    r"\*{0,2}[ \t]{0,3}:"
)


_INLINE_META = re.compile(r"[ \t]{1,4}\|[ \t]{0,4}(?=" + _META.pattern[len(r"[ \t]{0,12}") :] + ")")


def _inline_meta(line: str) -> int | None:
    """Where a listing line's own metadata starts (`` | Relevance: …``), or None."""
    if "|" not in line:
        return None
    m = _INLINE_META.search(line)
    return m.start() if m is not None and m.start() > 0 else None


def _numbered_with_metadata(text: str) -> Iterator[_Item]:
    """``1. Title`` items whose next line is metadata (``Relevance: 3/3 | Year: 2024``,
    ``Authors: …``, ``URL: …``): the item line is the title, the lines below describe it."""
    items = [
        m
        for m in _NUMBERED.finditer(text)
        if _META.match(text, m.end() + 1) or _inline_meta(m.group(1)) is not None
    ]
    for n, m in enumerate(items):
        cut = _inline_meta(m.group(1))
        if cut is not None:  # "1. Title | Relevance: high | Year: 2024": metadata on its line
            on_line = next(
                (
                    year_of(v)
                    for k, sep, v in (p.partition(":") for p in m.group(1)[cut:].split("|"))
                    if sep and _header_key(k) in _YEAR_KEYS
                ),
                None,
            )
            yield m.start(), m.end(), m.group(1)[:cut], (), on_line, "listing"
            continue
        end = items[n + 1].start() if n + 1 < len(items) else len(text)
        blank = text.find("\n\n", m.end(), end)
        end = min(end, m.end() + 4000) if blank == -1 else blank
        authors: tuple[str, ...] = ()
        year: int | None = None
        for kv in _KV_LINE.finditer(text, m.end() + 1, end):
            key = kv.group(1).strip().lower()
            values = kv.group(2)
            if not authors and key in _AUTHOR_KEYS:
                authors = authors_of(values)
            for part in (kv.group(0), *values.split("|")):
                k, sep, v = part.partition(":")
                if sep and year is None and _header_key(k) in _YEAR_KEYS:
                    year = year_of(v)
        yield m.start(), end, m.group(1), authors, year, "listing"


# PDF reference lists ----------------------------------------------------------------------------

_REFERENCES = re.compile(
    r"(?m)^[ \t]{0,8}#{0,3}[ \t]{0,2}(?:References|REFERENCES|Bibliography|BIBLIOGRAPHY)[ \t]{0,4}$"
)
_ENTRY = re.compile(r"(?m)^[ \t]{0,8}(?:\[\d{1,4}\]|\d{1,4}\.(?=[ \t]))[ \t]{0,4}")
_QUOTED = re.compile(r"[\"“]([^\"“”\n]{10,300}?)[,.]?[\"”]")
_SEGMENT = re.compile(r"(?<=[a-z0-9)?!])\.[ \t]{1,4}(?=[A-Z0-9\"“(]|arXiv|(?:in|In)[ \t]|preprint)")
_INITIALS = re.compile(r"\b[A-Z]\.(?:[ \t]?-?[A-Z]\.)*")
_YEAR_ONLY = re.compile(r"^\(?(?:19|20)\d{2}[a-z]?\)?$")
_MAX_ENTRIES = 5000


def _pdf_references(text: str) -> Iterator[_Item]:
    """Entries of a reference list in PDF text: ``[12] A. Author, B. Author. Title. Venue, 2020.``
    Lines of one entry are joined (a line-end hyphen rejoins its word); the title is the quoted
    part (IEEE) or the first sentence after the authors and year (ACL, NeurIPS, APA)."""
    heading = _REFERENCES.search(text)
    if heading is None:
        return
    entries = list(_ENTRY.finditer(text, heading.end()))[:_MAX_ENTRIES]
    for n, m in enumerate(entries):
        end = entries[n + 1].start() if n + 1 < len(entries) else min(len(text), m.end() + 1500)
        end = min(end, m.end() + 1500)
        body = text[m.end() : end].replace("-\n", "-").replace("\n", " ")
        title, authors = _reference_title(body)
        if title is not None:
            yield m.start(), end, title, authors, year_of(_last_year(body)), "reference"


_REF_YEAR = re.compile(r"(?<![\d./:])(?:19|20)\d{2}(?![\d]|\.\d)")
"""A year in a reference entry, not the head of an arXiv id (``2002.08909``) or of a DOI."""


def _last_year(body: str) -> str:
    years = _REF_YEAR.findall(body[:1500])
    return years[-1] if years else ""


def _reference_title(body: str) -> tuple[str | None, tuple[str, ...]]:
    quoted = _QUOTED.search(body)
    if quoted is not None:
        return quoted.group(1).strip(), authors_of(body[: quoted.start()].strip(" ,"))
    segments = [s.strip() for s in _SEGMENT.split(body) if s.strip()]
    authors: tuple[str, ...] = ()
    for i, segment in enumerate(segments):
        if _YEAR_ONLY.match(segment):
            continue
        if i == 0 and (_looks_like_authors(segment) or len(segments) > 2):
            authors = authors_of(segment)
            continue
        if len(segment.split()) >= 3 and not _looks_like_authors(segment):
            return segment.rstrip("."), authors
    return None, authors


def _looks_like_authors(segment: str) -> bool:
    """Names: initials ("P. Lewis, E. Perez"), "and"/"&" between capitalised words, et al."""
    if "et al" in segment or _INITIALS.search(segment):
        return True
    words = segment.replace(",", " ").replace(";", " ").split()
    capitalised = sum(1 for w in words if w[:1].isupper() or w in ("and", "&"))
    return ("," in segment or ";" in segment) and capitalised == len(words) and len(words) >= 2


# JSON pasted after a label ---------------------------------------------------------------------

_PASTED = re.compile(r"(?m)^[ \t]{0,8}[A-Za-z][\w .-]{0,30}:[ \t]{0,4}(?=\[\{)")
_MAX_PASTED = 10_000_000


def _pasted_json(text: str, extractors: Sequence[Extractor]) -> Iterator[tuple[int, Work]]:
    """``Links: [{"title": …, "url": …}]``: a JSON array pasted on one line after a label."""
    id_finders = _id_finders(extractors)
    for m in _PASTED.finditer(text):
        end = text.find("\n", m.end())
        end = len(text) if end == -1 else end
        if end - m.end() > _MAX_PASTED:
            continue
        try:
            parsed = parse_json(text[m.end() : end])
        except (ValueError, RecursionError):
            continue
        for r in flatten(parsed).records:
            named = identifiers_in(r.siblings, id_finders) if r.siblings else set()
            yield m.start(), Work(frozenset(named), r.title, r.authors, r.year, "record")


# The tests below run on every output: one-character checks (memchr, fast) come first, so
# that an output of ids and prose is rejected in a few microseconds.


def _has_table(text: str) -> bool:
    return "|" in text and "\n" in text and "---" in text


def _has_header(text: str) -> bool:
    return (
        "\n" in text
        and ("\t" in text or "|" in text or "," in text)
        and ("itle" in text or "ITLE" in text or "aper" in text)
    )


def _has_title_lines(text: str) -> bool:
    """``itle:``, ``itle**:`` or ``ITLE:`` in ``text``: looked for where ``itle`` is, in any
    case (the positions the extractors share), rather than by three searches of the text."""
    return ":" in text and any(
        text.startswith(_TITLE_LABELS, at) for at in needle_positions(text, "itle")
    )


_TITLE_LABELS = ("itle:", "itle**:", "ITLE:")


_FIRST_ITEM = re.compile(r"\n(?:1[.)] |\[1\] )")
"""``\\n1. ``, ``\\n1) `` or ``\\n[1] ``: one scan for the line break instead of three
substring searches that stop at every one."""


def _has_numbered(text: str) -> bool:
    """Listings are numbered from 1 (a later page of results alone is not seen)."""
    return "\n" in text and (
        _FIRST_ITEM.search(text) is not None or text[:12].lstrip()[:3] in ("1. ", "1) ", "[1]")
    )


def _has_references(text: str) -> bool:
    """``eferences`` or ``ibliography`` in any case (the positions the extractors share): two
    searches instead of four; a mixed-case word lets :func:`_pdf_references` look for its
    heading, which it does not find."""
    return "\n" in text and bool(
        needle_positions(text, "eferences") or needle_positions(text, "ibliography")
    )


def _has_pasted_json(text: str) -> bool:
    """JSON after a label on a line (``Links: [{…``); not an output that *is* JSON (the walk
    already read that one's records)."""
    return "[" in text and text[:1] not in ("[", "{") and (":[{" in text or ": [{" in text)


_FINDERS: tuple[tuple[Callable[[str], bool], Callable[[str], Iterator[_Item]]], ...] = (
    (_has_table, _tables),
    (_has_header, _delimited),
    (_has_title_lines, _key_value_blocks),
    (_has_numbered, _numbered_with_metadata),
    (_has_references, _pdf_references),
)
"""Each parser, and the cheap test (substring checks) that must pass before it reads a text."""
