"""``load_evidence()``: read any supported trace, finding its format in the format table.

A path is opened once (see :mod:`groundcheck.evidence.jsonio`) and its format found in the
order of :mod:`groundcheck.evidence.formats`: a folder's own layout (session folders) or
a folder of trace files; a file's suffix or first bytes (BibTeX); else the shape of its JSON
records, sampled, never the file name. ``format=`` overrides detection.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

from groundcheck.errors import ConfigError, InputError, UnknownFormat
from groundcheck.evidence.formats import FORMATS, Format
from groundcheck.evidence.jsonio import JsonRecords, open_input, read_text
from groundcheck.evidence.trace import Trace, TraceBuilder
from groundcheck.extractors import Extractor, Registry
from groundcheck.extractors.pipeline import resolve_extractors
from groundcheck.model import EvidenceSet

__all__ = ["FORMATS", "detect_format", "load_evidence", "load_tool_calls", "unwrap_document"]

Records = Iterable[tuple[int | None, Any]]

_SAMPLE = 200
_MAX_SAMPLE = 10_000
_WRAPPERS = (
    "messages",
    "items",
    "contents",
    "events",
    "spans",
    "runs",
    "tool_calls",
    "history",
    "data",
    "steps",
)
_FOLDER_SUFFIXES = (".json", ".jsonl", ".bib")


# -- documents -------------------------------------------------------------------------------


def unwrap_document(doc: Any, source: str) -> list[Any]:
    """The records of a whole JSON document: a list, or the records under a well-known key.

    A format's own ``unwrap`` hook decides first (an ATIF trajectory, an OTLP export are one
    record; an inspect-ai log holds samples); an object that is itself a record of a known
    format is that one record; otherwise the first list under a wrapper key (``messages``,
    ``items``, ``events``, ...), whatever other keys sit beside it.
    """
    if isinstance(doc, list):
        return doc
    if not isinstance(doc, Mapping):
        raise InputError(
            f"expected a JSON object or array of records, got {type(doc).__name__}", source=source
        )
    for fmt in FORMATS.values():
        if fmt.unwrap is not None:
            found = fmt.unwrap(doc, source)
            if found is not None:
                return found
    samples = doc.get("samples")
    if isinstance(samples, list):
        if len(samples) != 1:
            raise InputError(
                f"an inspect-ai log with {len(samples)} samples: audit one sample at a time "
                "(each sample is one run)",
                source=source,
            )
        return unwrap_document(samples[0], source)
    if any(fmt.detect is not None and fmt.detect(doc) for fmt in FORMATS.values()):
        return [doc]
    inputs, outputs = doc.get("input"), doc.get("output")
    if isinstance(inputs, list) or isinstance(outputs, list):
        return [
            *(inputs if isinstance(inputs, list) else []),
            *(outputs if isinstance(outputs, list) else []),
        ]
    for key in _WRAPPERS:
        if isinstance(doc.get(key), list):
            return list(doc[key])
    return [doc]


# -- detection -------------------------------------------------------------------------------


def _record_formats() -> list[Format]:
    return [f for f in FORMATS.values() if f.detect is not None and f.load is not None]


def detect_format(
    records: Iterator[tuple[int | None, Any]], source: str
) -> tuple[str, list[tuple[int | None, Any]]]:
    """The format of ``records``, and the records read to decide it (to be replayed)."""
    formats = _record_formats()
    sample: list[tuple[int | None, Any]] = []
    seen: dict[str, int | None] = {}
    for line, record in records:
        sample.append((line, record))
        if isinstance(record, Mapping):
            for fmt in formats:
                if fmt.name not in seen and fmt.detect is not None and fmt.detect(record):
                    seen[fmt.name] = line if line is not None else len(sample)
        if (len(sample) >= _SAMPLE and seen) or len(sample) >= _MAX_SAMPLE:
            break
    if len(seen) == 1:
        return next(iter(seen)), sample
    where = "line" if any(line is not None for line, _ in sample) else "record"
    if len(seen) > 1:
        found = ", ".join(f"{name} ({where} {at})" for name, at in seen.items())
        raise InputError(
            f"records of several trace formats: {found}; split the file, or pass "
            "--evidence-format / format= to read it as one",
            source=source,
        )
    if sample and all(isinstance(r, Mapping) and "role" in r for _, r in sample):
        return "openai-chat", sample  # a chat with no tool traffic at all
    raise UnknownFormat(
        f"no known trace format in the first {len(sample)} record(s); formats tried: "
        f"{', '.join(FORMATS)} (see docs/formats.md), or pass --evidence-format",
        source=source,
    )


# -- entry points ----------------------------------------------------------------------------


def load_evidence(
    trace: str | Path | Any,
    *,
    format: str | None = None,
    registry: Registry | None = None,
    extractors: Sequence[Extractor] | None = None,
) -> Trace:
    """Read a trace (file, folder, or Python object) into evidence and its report.

    Returns a :class:`Trace`: ``trace.evidence`` for :func:`groundcheck.audit`, and
    ``trace.report`` (the agent's final answer) when the trace holds one.
    """
    if format is not None and format not in FORMATS:
        raise ConfigError(f"unknown evidence format {format!r}; known: {', '.join(FORMATS)}")
    chosen = tuple(extractors) if extractors is not None else resolve_extractors(registry)
    if isinstance(trace, (str, Path)):
        return _load_path(Path(trace), str(trace), format, chosen)
    if format is not None and FORMATS[format].load is None:
        raise ConfigError(f"format {format!r} reads files, not Python objects")
    records: Records = [(None, r) for r in unwrap_document(trace, "<tool_calls>")]
    return _load_records(records, name="<tool_calls>", source=None, fmt=format, extractors=chosen)


def load_tool_calls(
    path: str | Path,
    *,
    registry: Registry | None = None,
    extractors: Sequence[Extractor] | None = None,
) -> EvidenceSet:
    """Native tool calls from a JSON array, a ``{"tool_calls": [...]}`` object, or JSON Lines.

    Read exactly as :func:`load_evidence` reads a native file (same reader, same notes).
    """
    return load_evidence(path, format="native", registry=registry, extractors=extractors).evidence


def _load_path(path: Path, name: str, fmt: str | None, extractors: tuple[Extractor, ...]) -> Trace:
    if path.is_dir():
        return _load_dir(path, name, fmt, extractors)
    if name != "-" and not path.exists():
        raise InputError("no such file", source=name)
    with open_input(path) as source:
        row = FORMATS[fmt] if fmt is not None else _file_format(path, source.head())
        if row is not None and row.read is not None:
            return row.read(source, extractors)
        records = JsonRecords(source, unwrap_document)
        return _load_records(
            records,
            name=name,
            source=name,
            fmt=None if row is None else row.name,
            extractors=extractors,
            notes=records.notes,
            empty_document=lambda: records.document,
        )


def _file_format(path: Path, head: bytes) -> Format | None:
    """A format known from the file itself (suffix, first bytes) before reading any JSON."""
    suffix = path.suffix.lower()
    for fmt in FORMATS.values():
        if fmt.read is not None and suffix in fmt.suffixes:
            return fmt
    for fmt in FORMATS.values():
        if fmt.read is not None and fmt.sniff is not None and fmt.sniff(head):
            return fmt
    return None


def _load_dir(folder: Path, name: str, fmt: str | None, extractors: tuple[Extractor, ...]) -> Trace:
    for row in FORMATS.values():
        if row.open_folder is None or (fmt is not None and fmt != row.name):
            continue
        found = row.open_folder(folder)
        if found is None:
            continue
        trace_file, report_file = found
        loaded = _load_path(trace_file, str(trace_file), row.name, extractors)
        if report_file is None:
            return loaded
        return Trace(loaded.evidence, read_text(report_file), loaded.format, str(report_file))
    return _load_folder(folder, name, fmt, extractors)


def _load_folder(
    folder: Path, name: str, fmt: str | None, extractors: tuple[Extractor, ...]
) -> Trace:
    """Every trace file in a folder (not recursive) as one run's evidence."""
    files = sorted(
        p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in _FOLDER_SUFFIXES
    )
    if not files:
        raise InputError(
            "is a directory with no trace files (.json, .jsonl, .bib) and not a session folder "
            "(no logs/trace.jsonl)",
            source=name,
        )
    traces = [_load_path(p, str(p), fmt, extractors) for p in files]
    report = next((t.report for t in traces if t.report is not None), None)
    formats = sorted({t.format for t in traces})
    return Trace(EvidenceSet.merge(t.evidence for t in traces), report, "+".join(formats))


def _load_records(
    records: Records,
    *,
    name: str,
    source: str | None,
    fmt: str | None,
    extractors: tuple[Extractor, ...],
    notes: Callable[[], list[str]] = list,
    empty_document: Callable[[], bool] = lambda: True,
) -> Trace:
    iterator = iter(records)
    if fmt is None:
        first = next(iterator, None)
        if first is None and empty_document():
            return Trace(EvidenceSet((), notes()), None, "native")  # "[]": no call at all
        fmt, sample = detect_format(chain(() if first is None else (first,), iterator), name)
        iterator = chain(sample, iterator)
    load = FORMATS[fmt].load
    if load is None:
        raise ConfigError(f"format {fmt!r} reads whole files; it cannot read JSON records")
    builder = TraceBuilder(extractors, source, fmt)
    load(iterator, builder)
    for note in notes():
        builder.note(note)
    return builder.finish()
