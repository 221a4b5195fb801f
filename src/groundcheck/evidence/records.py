"""The ``records`` format: a file that *is* what the tools returned, not a trace of them.

Pipelines and apps keep what they retrieved in exports of their own: a citation database
``{"citations": [{"doi": ..., "title": ...}, ...]}``, an app's state ``{"raw_papers": [...]}``,
a JSON Lines file of search hits. ``--evidence-format records`` (``format="records"``) reads
such a file: every JSON object that carries an identifier, URL or title field
(:data:`RECORD_KEYS`, any depth, the outermost one) is one returned work, evidence like a tool
output. A ``.csv`` or ``.tsv`` file (a spreadsheet export of search results: a header row, then
one paper per row) is read row by row, each row a record under its header's names. It is never
chosen by guessing: a file of records is only read so when asked.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from groundcheck.errors import InputError
from groundcheck.evidence.jsonio import JsonRecords
from groundcheck.evidence.trace import Trace, make_evidence
from groundcheck.model import EvidenceSet

if TYPE_CHECKING:
    from groundcheck.evidence.jsonio import Input
    from groundcheck.evidence.trace import Reading

__all__ = ["RECORD_KEYS", "find_records", "read_records"]

RECORD_KEYS = frozenset(
    {
        "id", "arxiv", "arxiv_id", "arxivid", "eprint", "doi", "url", "link", "href", "pdf_url",
        "pmid", "pmcid", "pmc", "isbn", "title", "paper_id", "paperid", "paperId", "corpus_id",
        "openalex", "openalex_id", "s2_id", "acl_id", "openreview_id", "source_url", "uri",
    }
)  # fmt: skip
"""Keys whose presence makes a JSON object a returned record (case as written or lower)."""


def _is_record(value: Mapping[str, Any]) -> bool:
    return any(
        (str(k) in RECORD_KEYS or str(k).lower() in RECORD_KEYS)
        and isinstance(v, (str, int, float))
        and not isinstance(v, bool)
        for k, v in value.items()
    )


def find_records(value: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(where, record)`` for the outermost record objects in ``value``, in document order.

    >>> doc = {"query": "moe", "citations": [{"doi": "10.1/x", "title": "X"}, {"n": 1}]}
    >>> [(where, r["doi"]) for where, r in find_records(doc)]
    [('citations[0]', '10.1/x')]
    """
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, Mapping):
            if _is_record(item):
                yield where or "$", item
                continue
            children = [(f"{where}.{k}" if where else str(k), v) for k, v in item.items()]
            stack.extend(reversed(children))
        elif isinstance(item, list):
            stack.extend(reversed([(f"{where}[{i}]", v) for i, v in enumerate(item)]))


def read_records(source: Input, reading: Reading) -> Trace:
    """Every record of a JSON document or JSON Lines file, one piece of evidence each."""
    if reading.provenance.scanning:
        return Trace(EvidenceSet(), None, "records")
    name = Path(source.name).name
    suffix = Path(source.name).suffix.lower()
    tabular = suffix in _DELIMITERS
    records = None if tabular else JsonRecords(source, lambda doc, _: [doc])
    rows = _table_rows(source, _DELIMITERS[suffix]) if tabular else records
    assert rows is not None
    calls = []
    shared: dict[Any, Any] = {}
    for line, value in rows:
        for where, record in find_records(value):
            call_id = f"{name}:{line}:{where}" if line is not None else f"{name}:{where}"
            calls.append(
                make_evidence(
                    "records", call_id, dict(record), reading.extractors,
                    source=source.name, ignore=frozenset(), shared=shared,
                )
            )  # fmt: skip
    notes = list(records.notes()) if records is not None else []
    if not calls:
        notes.append(
            f"{source.name}: no record with an identifier, URL or title field "
            f"({', '.join(sorted(RECORD_KEYS)[:8])}, …)"
        )
    return Trace(EvidenceSet(calls, notes), None, "records")


_DELIMITERS = {".csv": ",", ".tsv": "\t"}


def _table_rows(source: Input, delimiter: str) -> Iterator[tuple[int | None, Any]]:
    """``(line, {column: value})`` for each row of a CSV/TSV file with a header row. Quoted
    fields may span lines (titles wrapped by the exporter); the line is where the row starts.
    Empty cells are left out, so an empty ``doi`` column is no ``doi`` field."""
    text = source.text()
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None:
            return
        names = [h.strip() for h in header]
        start = reader.line_num + 1
        for row in reader:
            record = {k: v for k, v in zip(names, row, strict=False) if k and v.strip()}
            if record:
                yield start, record
            start = reader.line_num + 1
    except csv.Error as exc:
        where = reader.line_num
        raise InputError(f"not valid CSV: {exc}", source=source.name, line=where) from None
