"""Flatten a tool output (any JSON-like value) into the text and titles it holds.

Tool outputs nest arbitrarily and are sometimes hostile, so the walk is iterative (no recursion
limit to hit at 100,000 levels) and touches every value once.

A record with a title (``{"title": ..., "arxiv_id": ..., "authors": [...], "year": 2020}``) is
one returned paper: its title, the text of its other fields (where its identifiers are), and
its authors and year, read from the fields real tools use (measured on Semantic Scholar,
OpenAlex, Crossref, arXiv and paper-finder outputs): ``authors``/``author``/``creators``/
``authorships`` as strings, lists of names or of ``{"name"}``/``{"given", "family"}``/
``{"author": {"display_name"}}``; ``year``/``publication_year``/``published``/
``publication_date``/``publicationDate``/``date``/``issued`` as numbers, dates or Crossref
``date-parts``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import accumulate
from operator import add
from typing import Any

from attrs import frozen

from groundcheck.evidence.feeds import feed_records
from groundcheck.evidence.jsonio import parse_json
from groundcheck.extractors.arxiv import reads_bare
from groundcheck.extractors.keys import labelled, scheme_of_key

__all__ = ["FlatOutput", "Record", "authors_of", "flatten", "year_of"]

_MAX_LABELLED = 300
"""Longer strings are text, never one identifier (keys.labelled refuses them too)."""
_NUMBER_KEYS = ("arxiv", "eprint", "doi", "pmid", "pmc", "isbn", "issn")
"""Numbers under these keys are identifiers a tool returned as JSON numbers (``"pmid": 123``)."""

_MAX_EMBEDDED_JSON = 10_000_000
"""String leaves that look like JSON are parsed (chat tool results are often a JSON string, or
JSON Lines: one record per line); larger ones are scanned as text only."""


@frozen
class Record:
    """One paper described by one JSON record: its title, the text of its other fields (one
    level down: where its identifiers are), and its authors and year when the record has them."""

    title: str
    siblings: str
    authors: tuple[str, ...] = ()
    year: int | None = None


@frozen
class FlatOutput:
    """The searchable text of an output, the titles under ``title`` keys, and emptiness."""

    text: str
    titles: tuple[str, ...]
    empty: bool
    pairs: tuple[tuple[str, str], ...] = ()
    """(title, the text of the same record's other fields): a paper described in one record."""
    records: tuple[Record, ...] = ()
    """The same records with their authors and year (``pairs`` is kept for older callers)."""
    _leaves: tuple[tuple[int, int], ...] = ()
    """(Given as ``leaves=``: see :attr:`leaves`; :func:`flatten` leaves it empty.)"""
    record_leaves: tuple[tuple[tuple[int, ...], tuple[str, ...]] | None, ...] = ()
    """For each record: the leaves (indices into ``leaves``) that are its string fields, and
    its number fields as written in ``Record.siblings`` (``"pmid: 123"``); None when its
    fields are not all leaves of ``text`` (a record inside a JSON string, a field under a
    structural key). The identifiers of a record's fields can then be read off the mentions
    already found in ``text``, instead of extracting ``siblings`` again."""
    strings: tuple[str, ...] = ()
    """The strings ``text`` joins with blank lines (``"\\n\\n".join(strings)``), in order. When
    none holds a line break they are the text's blocks: a reader splitting ``text`` at blank
    lines would only copy them again (:func:`~groundcheck.evidence.mentions.title_text`)."""
    starts: tuple[int, ...] = ()
    """Where each of ``strings`` starts in ``text``, and one more (``len(text) + 2``, where
    a next one would): what a reader of the blocks bisects, made once here, where the
    lengths are at hand (empty when the strings are not known)."""

    @property
    def leaves(self) -> tuple[tuple[int, int], ...]:
        """``(start, end)`` in ``text`` of every string joined into it, in order: made when
        asked for, from ``starts`` and ``strings`` (a pair per string, some 1,200 for a
        search result of 100 papers, that the loading of evidence never reads)."""
        starts = self.starts
        if self._leaves or len(starts) != len(self.strings) + 1:
            return self._leaves
        return tuple(zip(starts, map(add, starts, map(len, self.strings)), strict=False))


_NOT_JSON = object()

_PLAIN_TYPES = frozenset({int, float, bool, type(None), list, dict})
"""Types of JSON values that are neither strings nor mappings (no isinstance test needed)."""


def _embedded_json(s: str) -> Any:
    stripped = s.strip()
    if len(stripped) < 2 or len(stripped) > _MAX_EMBEDDED_JSON:
        return _NOT_JSON
    if (stripped[0], stripped[-1]) not in (("{", "}"), ("[", "]")):
        return _NOT_JSON
    try:
        return parse_json(stripped)
    except (ValueError, RecursionError):
        pass
    if stripped[0] == "{" and "}\n{" in stripped:
        return _json_lines(stripped)
    return _NOT_JSON


def _json_lines(text: str) -> Any:
    """A JSON Lines string (a tool that prints one record per line): the list of its records,
    or not JSON when any non-blank line is not a JSON value."""
    records: list[Any] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            records.append(parse_json(line))
        except (ValueError, RecursionError):
            return _NOT_JSON
    return records


def flatten(output: Any, ignore: frozenset[str] = frozenset()) -> FlatOutput:
    """Every string leaf and dict key of ``output``, joined for one extraction pass.

    An output is *empty* when it holds no non-blank string and no number or boolean: ``None``,
    ``""``, ``[]``, ``{}``, and containers of those, such as ``{"results": []}`` or the string
    ``"[]"`` (chat tool results are often JSON inside a string, so such strings are parsed for
    titles and emptiness; their text is scanned as it is). Keys alone do not make an output
    non-empty. Values under the keys in ``ignore`` are skipped entirely: loaders pass the
    structural keys of their format (``type``) and binary payloads (``data``), which are
    neither text nor a sign of content.
    """
    texts: list[str] = []
    titles: list[str] = []
    records: list[Record] = []
    tracked: list[tuple[list[int], int, tuple[str, ...]] | None] = []  # leaves, strings, numbers
    empty = True
    none: tuple[int, ...] = ()
    # (value, key, the records a string here is a field of, the records the strings directly
    # inside a container here are fields of, whether the key is text to take before the value)
    stack: list[tuple[Any, str | None, tuple[int, ...], tuple[int, ...], bool]] = [
        (output, None, none, none, False)
    ]
    while stack:
        value, key, owners, inner_owners, keyed = stack.pop()
        if keyed and key is not None:
            texts.append(key)  # keys are returned data too, but never make it non-empty
        kind = type(value)
        if kind is not str and kind is not dict and kind is not list:
            # subclasses and other containers take the branch of their kind (the common kinds
            # skip these isinstance tests: an ABC check costs a microsecond)
            if value is None:
                continue
            if isinstance(value, str):
                kind = str
            elif isinstance(value, Mapping):
                kind = dict
            elif isinstance(value, (list, tuple)):
                kind = list
        if kind is str:
            for owner in owners:
                slot = tracked[owner]
                if slot is not None:
                    slot[0].append(len(texts))
            texts.append(value)
            if not value.strip():
                continue
            if key is not None:
                flags = _key_kind(key)
                if flags & _ID_KEY and len(value) <= _MAX_LABELLED:
                    written = _labelled_copy(key, value)
                    if written is not None:
                        # {"pmid": "31452104"}: the bare value is a number no extractor takes.
                        texts.append(written)
                if flags & _TITLE_KEY:
                    titles.append(value.strip())
            first = value[0]
            # Only a string that starts (after blanks) with a bracket can be JSON.
            parsed = _embedded_json(value) if first in "{[" or first.isspace() else _NOT_JSON
            if parsed is _NOT_JSON and (first == "<" or first.isspace()):
                feed = feed_records(value)  # an Atom, PubMed or RSS feed: its records
                if feed is not None:
                    parsed = feed
            if parsed is _NOT_JSON:
                empty = False
            else:
                inner = flatten(parsed, ignore)
                titles.extend(inner.titles)
                records.extend(inner.records)
                tracked.extend(None for _ in inner.records)  # fields inside the JSON string
                empty = empty and inner.empty
        elif kind is dict:
            # A record (a mapping with a title) is read in the same pass as its fields: its
            # sibling fields, authors and year are gathered as the fields are taken, and its
            # Record is made once they all have been (see _record, which reads it alone).
            title = _title_of(value)
            mine = none
            if title is not None:
                named: str = title
                at = len(records)
                mine = (at,)
                records.append(_NO_RECORD)  # (until its fields are read, below)
                record_leaves: list[int] = []
                tracked.append((record_leaves, 0, ()))
                parts: list[str] = []
                numbers: list[str] = []
                strings = 0
                authors: tuple[str, ...] = ()
                year: int | None = None
            items = list(value.items())
            kinds = _KEY_KINDS  # (what _key_kind memoises, read without a call)
            # Fields that are strings, lists of strings, numbers or null (a search result's
            # paper) are taken here, in order, instead of each going through the stack; from
            # the first field that is anything else (a nested object, a string that may be
            # JSON or a feed), the rest go through the stack, which takes them next.
            done = 0
            for k, v in items:
                if type(k) is not str:
                    break
                tv = type(v)
                if tv is str:
                    if v and ((head := v[0]) in "{[<" or head.isspace()):
                        break
                elif tv is list:
                    plain = True
                    for item in v:
                        if type(item) is not str or (
                            item and ((head := item[0]) in "{[<" or head.isspace())
                        ):
                            plain = False
                            break
                    if not plain:
                        break
                elif v is not None and tv is not int and tv is not float and tv is not bool:
                    break
                done += 1
                if k in ignore:
                    continue
                known = kinds.get(k)
                flags = known if known is not None else _key_kind(k)
                field = mine if mine and not flags & _TITLE_KEY else none
                if field:  # a sibling field of this record: what _record takes from it
                    if flags & _AUTHOR_KEY:
                        if not authors:
                            # (a list here holds plain strings only: what authors_of gives
                            # for one, without its tests of the types)
                            authors = (
                                _string_names(v[:_MAX_AUTHORS]) if tv is list else authors_of(v)
                            )
                    elif flags & _YEAR_KEY and year is None:
                        year = year_of(v)
                    if tv is str:
                        parts.append(v)
                        strings += 1
                    elif tv is list:
                        parts.extend(v)
                        strings += len(v)
                    elif v is not None and tv is not bool:
                        parts.append(f"{k}: {v}")
                        numbers.append(parts[-1])
                texts.append(k)
                if tv is str:
                    if inner_owners:
                        for owner in (*inner_owners, *field):
                            slot = tracked[owner]
                            if slot is not None:
                                slot[0].append(len(texts))
                    elif field:  # (field is mine: this record's own leaves)
                        record_leaves.append(len(texts))
                    texts.append(v)
                    if v:  # (no blank at its start: a string of blanks took the stack)
                        empty = False
                        if (
                            flags & _ID_KEY
                            and len(v) <= _MAX_LABELLED
                            and not (flags & _ARXIV_KEY and reads_bare(v))  # (no copy: below)
                        ):
                            written = _labelled_copy(k, v)
                            if written is not None:
                                texts.append(written)
                        if flags & _TITLE_KEY:
                            titles.append(v.strip())
                elif tv is list:
                    if not flags & (_ID_KEY | _TITLE_KEY):  # (authors, keywords): no item adds text
                        if field:
                            n = len(texts)
                            record_leaves.extend(range(n, n + len(v)))
                        texts.extend(v)
                        if empty and any(v):
                            empty = False
                        continue
                    for item in v:
                        for owner in field:
                            slot = tracked[owner]
                            if slot is not None:
                                slot[0].append(len(texts))
                        texts.append(item)
                        if item:
                            empty = False
                            if flags & _ID_KEY and len(item) <= _MAX_LABELLED:
                                written = _labelled_copy(k, item)
                                if written is not None:
                                    texts.append(written)
                            if flags & _TITLE_KEY:
                                titles.append(item.strip())
                elif v is not None:
                    empty = False
                    if tv is not bool:
                        written = _number_text(k, v)
                        if written is not None:
                            texts.append(written)
            if mine:
                if done < len(items):
                    strings, authors, year = _record_fields(
                        items[done:], ignore, parts, numbers, strings=strings, authors=authors,
                        year=year,
                    )  # fmt: skip
                records[at] = Record(named, "\n\n".join(parts), authors, year)
                tracked[at] = (record_leaves, strings, tuple(numbers))
            if done == len(items):
                continue  # every field taken above (a search result's paper): none to stack
            for k, v in reversed(items[done:]):
                k_str = k if type(k) is str else str(k)
                if k_str in ignore:
                    continue
                field = mine if mine and not _key_kind(k_str) & _TITLE_KEY else none
                tv = type(v)
                if tv is str or (tv not in _PLAIN_TYPES and isinstance(v, str)):
                    stack.append((v, k_str, (*inner_owners, *field), none, True))
                elif (
                    tv is list or tv is dict or (tv not in _PLAIN_TYPES and isinstance(v, Mapping))
                ):
                    stack.append((v, k_str, inner_owners, field, True))
                else:
                    stack.append((v, k_str, inner_owners, none, True))
        elif kind is list:
            stack.extend((item, key, inner_owners, none, False) for item in reversed(value))
        elif value is None:
            continue
        else:  # numbers, booleans, and whatever objects a Python caller passes
            empty = False
            if isinstance(value, bool):
                continue
            if not isinstance(value, (int, float)):
                texts.append(str(value))
            elif key is not None:
                written = _number_text(key, value)
                if written is not None:
                    texts.append(written)
    starts = accumulate(map((2).__add__, map(len, texts)), initial=0)
    # (the tuples below are made from lists: a list comprehension runs faster than a
    # generator is iterated)
    return FlatOutput(
        "\n\n".join(texts),
        tuple(titles),
        empty,
        tuple([(r.title, r.siblings) for r in records]),
        tuple(records),
        (),  # (the leaves: made from the starts when asked for)
        tuple(
            [
                None if slot is None or len(slot[0]) != slot[1] else (tuple(slot[0]), slot[2])
                for slot in tracked
            ]
        ),
        tuple(texts),
        tuple(starts),
    )


def _labelled_copy(key: str, value: str) -> str | None:
    """What an identifier field adds to the text after its value: the value written so its
    scheme's extractor reads it (``{"pmid": "31452104"}`` as ``PMID: 31452104``), or None
    when the value alone already reads as that identifier. A whole modern arXiv id is found
    as it is (:func:`~groundcheck.extractors.arxiv.reads_bare`): its ``arXiv:`` copy named
    the same id again and doubled the arXiv extraction of every search result with an
    ``arxiv_id`` field."""
    if _key_kind(key) & _ARXIV_KEY and reads_bare(value):
        return None  # (only an arXiv key's copy is written "arXiv:" + the value)
    written = labelled(key, value)
    return None if written is None or written == value else written


def _number_text(key: str, value: float) -> str | None:
    """The text a number under ``key`` adds: ``{"pmid": 31452104}`` as ``PMID: 31452104``, the
    form its extractor reads; other numbers under id-like keys as ``key: value`` for an
    extractor needing a label; None for any other number."""
    written = labelled(key, value) if isinstance(value, int) and _key_kind(key) & _ID_KEY else None
    if written is not None:
        return written
    if any(k in key.lower() for k in _NUMBER_KEYS):
        return f"{key}: {value}"
    return None


_AUTHOR_KEYS = ("authors", "author", "creators", "creator", "authorships", "author_names")
_YEAR_KEYS = (
    "year", "publication_year", "publicationyear", "published", "publication_date",
    "publicationdate", "published_date", "date", "issued", "pub_date", "pubdate", "created",
)  # fmt: skip
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_ET_AL = re.compile(r"(?i)[,;]?\s{0,4}(?:et\.?\s{1,4}al\.?|and\s{1,4}others)\s{0,4}$")
_NAME_SPLIT = re.compile(r"\s{0,4}(?:;|,|\band\b|&)\s{0,4}")


def year_of(value: Any) -> int | None:
    """A publication year from what tools put under a date key, or None.

    >>> year_of(2020), year_of("2020-05-22T17:58:44Z"), year_of({"date-parts": [[2019, 6]]})
    (2020, 2020, 2019)
    """
    if type(value) is str and value[:2] in ("19", "20") and value[2:4].isdecimal():
        # "2020-05-22": the year the pattern finds first, read without a search
        after = value[4:5]
        if not after.isdecimal() and len(value) >= 4:
            return int(value[:4])
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1800 <= value <= 2200 else None
    if isinstance(value, str):
        m = _YEAR.search(value[:64])
        return int(m.group()) if m else None
    if isinstance(value, Mapping):
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return year_of(parts[0][0])
        for key in ("year", "date", "date-time"):
            if key in value:
                return year_of(value[key])
    return None


_STRINGS = {str}
_MAX_AUTHORS = 50
"""Authors read from one record (:func:`authors_of`'s default limit)."""


def authors_of(value: Any, limit: int = _MAX_AUTHORS) -> tuple[str, ...]:
    """Author names, first author first, from a string, a list of names, or name records.

    >>> authors_of("Patrick Lewis, Ethan Perez, Aleksandra Piktus et al.")
    ('Patrick Lewis', 'Ethan Perez', 'Aleksandra Piktus')
    >>> authors_of([{"given": "Vladimir", "family": "Karpukhin"}, {"name": "Barlas Oguz"}])
    ('Vladimir Karpukhin', 'Barlas Oguz')
    """
    names: list[str] = []
    if isinstance(value, str):
        text = _ET_AL.sub("", value.strip()[:4000])
        if ";" in text or ", " in text or " and " in text:
            names = [n for n in _NAME_SPLIT.split(text) if n]
        elif text:
            names = [text]
    elif isinstance(value, list):
        head = value[:limit]
        if set(map(type, head)) == _STRINGS:
            return _string_names(head)
        for item in head:
            name = item.strip() if type(item) is str else _name_of(item)
            if name:
                names.append(name)
        if all(n.isprintable() and "  " not in n and n[0] != " " != n[-1] for n in names):
            # names whose only blanks are single spaces between words (every other blank is
            # unprintable): each is its own " ".join(n.split()), and none is blank
            return tuple(names[:limit])
    elif isinstance(value, Mapping):
        name = _name_of(value)
        names = [name] if name else []
    return tuple([" ".join(n.split()) for n in names[:limit] if n.strip()])


def _string_names(head: list[str]) -> tuple[str, ...]:
    """The names of a list of plain strings (the usual author list; what
    :func:`authors_of` gives for it): stripped and tested in C. Joined by single spaces,
    stripped names are printable with no double space exactly when each of them is (what
    :func:`authors_of` asks of each name otherwise)."""
    names = list(filter(None, map(str.strip, head)))
    joined = " ".join(names)
    if joined.isprintable() and "  " not in joined:
        return tuple(names)
    return tuple([" ".join(n.split()) for n in names])


def _name_of(item: Any) -> str | None:
    if isinstance(item, str):
        return item.strip() or None
    if not isinstance(item, Mapping):
        return None
    for key in ("name", "display_name", "full_name", "fullName", "raw_author_name"):
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    family = item.get("family") or item.get("last") or item.get("lastName")
    given = item.get("given") or item.get("first") or item.get("firstName")
    if isinstance(family, str) and family.strip():
        return f"{given.strip()} {family.strip()}" if isinstance(given, str) else family.strip()
    nested = item.get("author")
    return _name_of(nested) if isinstance(nested, Mapping) else None


def _title_of(record: Mapping[Any, Any]) -> str | None:
    """The record's ``title`` (any case): a string, or a list holding one (Crossref)."""
    kinds = _KEY_KINDS
    for k, v in record.items():
        key = k if type(k) is str else str(k)
        known = kinds.get(key)
        if not (known if known is not None else _key_kind(key)) & _TITLE_KEY:
            continue
        value = v[0] if isinstance(v, list) and v else v
        if isinstance(value, str):
            stripped = value.strip()
            if stripped:
                return stripped
    return None


_ID_KEY, _TITLE_KEY, _AUTHOR_KEY, _YEAR_KEY, _ARXIV_KEY = 1, 2, 4, 8, 16
_KEY_KINDS: dict[str, int] = {}


def _key_kind(key: str) -> int:
    """What a key names, as bits: an identifier key, whose values ``labelled`` writes
    (:data:`_ID_KEY`, and :data:`_ARXIV_KEY` for an arXiv one); ``title``
    (:data:`_TITLE_KEY`), authors (:data:`_AUTHOR_KEY`) or a year (:data:`_YEAR_KEY`), in any
    case. Memoised: a search result repeats a handful of keys ten thousand times."""
    known = _KEY_KINDS.get(key)
    if known is None:
        low = key.lower()
        scheme = scheme_of_key(key)
        known = (
            (_ID_KEY if scheme is not None else 0)
            | (_ARXIV_KEY if scheme == "arxiv" else 0)
            | (_TITLE_KEY if low == "title" else 0)
            | (_AUTHOR_KEY if low in _AUTHOR_KEYS else 0)
            | (_YEAR_KEY if low in _YEAR_KEYS else 0)
        )
        if len(_KEY_KINDS) < 10_000:
            _KEY_KINDS[key] = known
    return known


def _record(
    record: Mapping[Any, Any], ignore: frozenset[str]
) -> tuple[Record, int, tuple[str, ...]] | None:
    """The paper a record with a ``title`` describes: its other fields, one level down; with
    how many of them are strings, and the number fields as written (``"pmid: 123"``).
    (:func:`flatten` gathers the same while it takes the fields.)"""
    title = _title_of(record)
    if title is None:
        return None
    parts: list[str] = []
    numbers: list[str] = []
    strings, authors, year = _record_fields(
        record.items(), ignore, parts, numbers, strings=0, authors=(), year=None
    )
    return Record(title, "\n\n".join(parts), authors, year), strings, tuple(numbers)


def _record_fields(
    fields: Iterable[tuple[Any, Any]],
    ignore: frozenset[str],
    parts: list[str],
    numbers: list[str],
    *,
    strings: int,
    authors: tuple[str, ...],
    year: int | None,
) -> tuple[int, tuple[str, ...], int | None]:
    """A record's ``fields`` added to what was gathered of it so far: their strings and
    numbers (as written) to ``parts``, the numbers also to ``numbers``; returns the count of
    strings, the authors and the year, each taken from the first field that gives it."""
    kinds = _KEY_KINDS
    for k, v in fields:
        key = k if type(k) is str else str(k)
        known = kinds.get(key)
        field = known if known is not None else _key_kind(key)
        if field & _TITLE_KEY or key in ignore:
            continue
        if field & _AUTHOR_KEY:
            if not authors:
                authors = authors_of(v)
        elif field & _YEAR_KEY and year is None:
            year = year_of(v)
        tv = type(v)
        if tv is str:  # the commonest field: one string
            parts.append(v)
            strings += 1
            continue
        values = (
            v
            if tv is list
            else v.values()
            if isinstance(v, Mapping)
            else v
            if isinstance(v, list)
            else (v,)
        )
        for item in values:
            if type(item) is str or isinstance(item, str):
                parts.append(item)
                strings += 1
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                parts.append(f"{key}: {item}")
                numbers.append(parts[-1])
    return strings, authors, year


_NO_RECORD = Record("", "")
"""Holds a record's place in :func:`flatten` while its fields are read."""
