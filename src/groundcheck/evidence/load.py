"""``load_evidence()`` and ``load_run()``: read any supported trace, finding its format in the
format table, with one provenance state for all the files of a run.

A path is opened once (see :mod:`groundcheck.evidence.jsonio`) and its format found in the
order of :mod:`groundcheck.evidence.formats`: a folder's own layout (session folders) or
a folder of trace files; a file's suffix or first bytes (BibTeX, inspect-ai logs); else the
shape of its JSON records, sampled, never the file name. ``format=`` overrides detection.

Several files of one run (``load_run``, or ``load_evidence`` of a list of paths) share what the
agent wrote: every file's calls are scanned first, so a file written in one transcript and read
back in another is known whichever is read first (see ``docs/evidence.md``).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from itertools import chain
from pathlib import Path
from typing import Any, BinaryIO, cast

from attrs import evolve, frozen

from groundcheck.collector import collection_paused
from groundcheck.errors import ConfigError, InputError, UnknownFormat
from groundcheck.evidence.formats import FORMATS, Format
from groundcheck.evidence.jsonio import Input, JsonRecords, limited_input, open_input, read_text
from groundcheck.evidence.provenance import FetchRule, Provenance
from groundcheck.evidence.trace import Reading, Trace, TraceBuilder
from groundcheck.extractors import Extractor, Registry
from groundcheck.extractors.pipeline import resolve_extractors
from groundcheck.model import EvidenceSet

__all__ = [
    "FORMATS",
    "detect_format",
    "load_evidence",
    "load_run",
    "load_tool_calls",
    "samples_of",
    "unwrap_document",
]

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
    "values",
    "state",
    "result",
    "trace",
    "traces",
    "records",
)
_SPOOL_IN_MEMORY = 8 * 1024 * 1024
"""A spooled pipe stays in memory up to this size, then moves to a temporary file."""
_PEEK = 50
"""Items of a list looked at to tell whether it holds records of a known format."""
_FOLDER_SUFFIXES = (".json", ".jsonl", ".bib", ".eval")
_UNKNOWN_HINT = (
    "see docs/formats.md, or pass --evidence-format NAME; if this file is what the tools "
    "returned (an export of papers or citations, not a trace), pass --evidence-format records"
)


# -- documents -------------------------------------------------------------------------------


def unwrap_document(doc: Any, source: str, reading: Reading | None = None) -> list[Any]:
    """The records of a whole JSON document, whatever its layout.

    A list is its records. For an object: a format's own ``unwrap`` hook decides first (an
    ATIF trajectory and an OTLP export are one record; an inspect-ai log is the sample
    ``reading.sample`` names); an object that is itself a record of a known format is that one
    record; otherwise the first list of recognised records under any key (``messages``,
    ``events``, ``spans``, ``samples``, …), up to three objects deep
    (``{"values": {"messages": [...]}}``), whatever other keys sit beside it.
    """
    reading = reading if reading is not None else Reading((), source=source)
    if isinstance(doc, list):
        return doc
    if not isinstance(doc, Mapping):
        raise InputError(
            f"expected a JSON object or array of records, got {type(doc).__name__}", source=source
        )
    found = _unwrap_object(doc, reading, 0)
    if found is not None:
        return found
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


def _unwrap_object(doc: Mapping[str, Any], reading: Reading, depth: int) -> list[Any] | None:
    for fmt in FORMATS.values():
        if fmt.unwrap is not None:
            found = fmt.unwrap(doc, reading)
            if found is not None:
                return found
    if _detected(doc):
        return [doc]
    nested: list[Mapping[str, Any]] = []
    keys = [k for k in _WRAPPERS if k in doc] + [k for k in doc if k not in _WRAPPERS]
    for key in keys:
        value = doc[key]
        if isinstance(value, list) and _holds_records(value):
            return list(value)
        if isinstance(value, Mapping):
            nested.append(value)
    if depth < 2:
        for inner in nested:
            found = _unwrap_object(inner, reading, depth + 1)
            if found is not None:
                return found
    return None


def _detected(record: Mapping[str, Any]) -> bool:
    return any(fmt.detect is not None and fmt.detect(record) for fmt in FORMATS.values())


def _holds_records(items: list[Any]) -> bool:
    return any(isinstance(item, Mapping) and _detected(item) for item in items[:_PEEK])


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
        f"{', '.join(f.name for f in formats)} ({_UNKNOWN_HINT})",
        source=source,
    )


# -- entry points ----------------------------------------------------------------------------


def _is_paths(value: Any) -> bool:
    return (
        isinstance(value, (list, tuple))
        and bool(value)
        and all(isinstance(v, (str, os.PathLike)) for v in value)
    )


def load_evidence(
    trace: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Any,
    *,
    format: str | None = None,
    registry: Registry | None = None,
    extractors: Sequence[Extractor] | None = None,
    sample: str | None = None,
    fetch: FetchRule | None = None,
    max_input_bytes: int | None = None,
) -> Trace:
    """Read a trace (a file, a folder, a list of the files of one run, or Python objects)
    into evidence and its report.

    Returns a :class:`Trace`: ``trace.evidence`` for :func:`groundcheck.audit`, and
    ``trace.report`` (the agent's final answer) when the trace holds one. ``sample`` picks one
    sample (``id`` or ``id:epoch``) of an inspect-ai log; ``fetch`` tunes which calls are
    fetches (:class:`~groundcheck.evidence.provenance.FetchRule`). ``max_input_bytes`` is the
    most any one file may hold (default :data:`~groundcheck.evidence.jsonio.MAX_INPUT_BYTES`,
    512 MiB; see ``docs/security.md``).
    """
    _check_format(format)
    with collection_paused():
        return _load_evidence(
            trace,
            format=format,
            registry=registry,
            extractors=extractors,
            sample=sample,
            fetch=fetch,
            max_input_bytes=max_input_bytes,
        )


def _load_evidence(
    trace: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Any,
    *,
    format: str | None,
    registry: Registry | None,
    extractors: Sequence[Extractor] | None,
    sample: str | None,
    fetch: FetchRule | None,
    max_input_bytes: int | None,
) -> Trace:
    chosen = tuple(extractors) if extractors is not None else resolve_extractors(registry)
    if isinstance(trace, (str, os.PathLike)) or _is_paths(trace):
        paths = [trace] if isinstance(trace, (str, os.PathLike)) else list(trace)
        return load_run(
            paths,
            format=format,
            extractors=chosen,
            sample=sample,
            fetch=fetch,
            max_input_bytes=max_input_bytes,
        )
    row = FORMATS[format] if format is not None else None
    if row is not None and row.load is None:
        raise ConfigError(f"format {format!r} reads files, not Python objects")
    reading = Reading(chosen, Provenance(fetch), sample, "<tool_calls>")
    records: Records = [(None, r) for r in unwrap_document(trace, "<tool_calls>", reading)]
    return _load_records(records, reading, fmt=format)


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


def _check_format(format: str | None) -> None:
    if format is not None and format not in FORMATS:
        raise ConfigError(f"unknown evidence format {format!r}; known: {', '.join(FORMATS)}")


@frozen
class _Member:
    """One file of a run: where it is, how to name it, a forced format, a report beside it."""

    path: Path
    name: str
    group: int
    """Which of the paths given it came from (a folder gives several files)."""
    format: str | None = None
    report: Path | None = None
    spool: BinaryIO | None = None
    """A pipe's bytes, copied once so a run's two passes can both read them."""


def _spooled(member: _Member, spools: ExitStack) -> _Member:
    """``member``, with its bytes copied once to a temporary file when it is not a regular
    file (a FIFO, ``<(process substitution)``, a character device): such a file can be read
    only once. The copy goes through :func:`open_input`, so the input limit holds."""
    try:
        regular = stat.S_ISREG(member.path.stat().st_mode)
    except OSError:
        return member  # open_input will name the problem
    if regular:
        return member
    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_IN_MEMORY)  # noqa: SIM115
    spools.enter_context(spool)  # closed (deleted) when the run is read
    with open_input(member.path) as source:
        while chunk := source.chunk():
            spool.write(chunk)
    spool.seek(0)
    return evolve(member, spool=cast(BinaryIO, spool))


def load_run(
    paths: Sequence[str | os.PathLike[str]],
    *,
    format: str | None = None,
    registry: Registry | None = None,
    extractors: Sequence[Extractor] | None = None,
    sample: str | None = None,
    fetch: FetchRule | None = None,
    max_input_bytes: int | None = None,
) -> Trace:
    """Every trace and evidence file of one run, read with one shared provenance state.

    Folders are opened (a session folder, or a folder of trace files); a file given twice is
    read once, with a note. The report is the first one found in the first path given.
    ``sample`` applies to the inspect-ai logs among the files (an error when there are none).
    Each file is opened once: when a run of several files needs two passes (the scan, then the
    reading), a pipe or FIFO among them is copied once to a temporary spool that both passes
    read. ``max_input_bytes`` limits every file (see :func:`load_evidence`).
    """
    _check_format(format)
    with collection_paused(), limited_input(max_input_bytes), ExitStack() as spools:
        return _load_run(
            paths,
            format=format,
            registry=registry,
            extractors=extractors,
            sample=sample,
            fetch=fetch,
            spools=spools,
        )


def _load_run(
    paths: Sequence[str | os.PathLike[str]],
    *,
    format: str | None,
    registry: Registry | None,
    extractors: Sequence[Extractor] | None,
    sample: str | None,
    fetch: FetchRule | None,
    spools: ExitStack,
) -> Trace:
    chosen = tuple(extractors) if extractors is not None else resolve_extractors(registry)
    members, notes = _members(paths, format)
    provenance = Provenance(fetch)
    base = Reading(chosen, provenance, sample)
    if len(members) > 1 and all(m.name != "-" for m in members):
        members = [_spooled(m, spools) for m in members]
        for member in members:  # the scan: which files each transcript writes
            provenance.begin(member.name, scanning=True)
            _load_path(member, base.at(member.name))
    traces: list[tuple[_Member, Trace]] = []
    for member in members:
        provenance.begin(member.name)
        trace = _load_path(member, base.at(member.name))
        if member.report is not None:
            trace = evolve(trace, report=read_text(member.report), report_path=str(member.report))
        traces.append((member, trace))
    if sample is not None and not any(t.format == "inspect-ai" for _, t in traces):
        raise InputError(
            f"--sample {sample}: none of the files is an inspect-ai log",
            source=", ".join(m.name for m in members),
        )
    return _combine(traces, notes)


def _members(
    paths: Sequence[str | os.PathLike[str]], fmt: str | None
) -> tuple[list[_Member], list[str]]:
    members: list[_Member] = []
    notes: list[str] = []
    seen: dict[str, str] = {}
    for group, given in enumerate(paths):
        name = os.fspath(given)
        path = Path(name)
        if name == "-":
            found = [_Member(path, name, group, fmt)]
        elif path.is_dir():
            found = _folder_members(path, name, group, fmt)
        elif not path.exists():
            raise InputError("no such file", source=name)
        else:
            found = [_Member(path, name, group, fmt)]
        for member in found:
            key = member.name if member.name == "-" else os.path.realpath(member.path)
            if key in seen:
                notes.append(f"{member.name}: given twice (also as {seen[key]}); read once")
                continue
            seen[key] = member.name
            members.append(member)
    return members, notes


def _folder_members(folder: Path, name: str, group: int, fmt: str | None) -> list[_Member]:
    for row in FORMATS.values():
        if row.open_folder is None or (fmt is not None and fmt != row.name):
            continue
        found = row.open_folder(folder)
        if found is not None:
            trace_file, report_file = found
            return [_Member(trace_file, str(trace_file), group, row.name, report_file)]
    files = sorted(
        p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in _FOLDER_SUFFIXES
    )
    if not files:
        raise InputError(
            "is a directory with no trace files (.json, .jsonl, .bib, .eval) and not a "
            "session folder (no logs/trace.jsonl)",
            source=name,
        )
    return [_Member(p, str(p), group, fmt) for p in files]


def _combine(traces: list[tuple[_Member, Trace]], notes: list[str]) -> Trace:
    if len(traces) == 1 and not notes:
        return traces[0][1]
    calls = [call for _, t in traces for call in t.evidence.calls]
    all_notes = list(dict.fromkeys([*notes, *(n for _, t in traces for n in t.evidence.notes)]))
    first = [t for m, t in traces if m.group == 0 and t.report is not None]
    report = first[0] if first else None
    formats = sorted({t.format for _, t in traces})
    return Trace(
        EvidenceSet(calls, all_notes),
        None if report is None else report.report,
        "+".join(formats),
        None if report is None else report.report_path,
    )


def samples_of(path: str | Path) -> list[tuple[str, str]] | None:
    """The runs a file holds when it holds several, as ``(sample, task)``: the samples of an
    inspect-ai log (``id`` or ``id:epoch``, and the sample id), or None for a file of one run."""
    for row in FORMATS.values():
        if row.samples is not None:
            found = row.samples(Path(path))
            if found is not None:
                return found
    return None


def _claims(row: Format, path: Path, head: bytes) -> bool:
    return path.suffix.lower() in row.suffixes or (row.sniff is not None and row.sniff(head))


def _reads_whole(row: Format | None, path: Path, head: bytes) -> bool:
    """A row that reads this whole file (a row with both hooks only for files it claims)."""
    if row is None or row.read is None:
        return False
    return row.load is None or _claims(row, path, head)


def _open_member(member: _Member) -> Input:
    if member.spool is None:
        return open_input(member.path)
    member.spool.seek(0)
    return Input(member.spool, member.name, owned=False)


def _load_path(member: _Member, reading: Reading) -> Trace:
    name, path, fmt = reading.source, member.path, member.format
    with _open_member(member) as source:
        head = source.head()
        row = FORMATS[fmt] if fmt is not None else _file_format(path, head)
        if _reads_whole(row, path, head):
            assert row is not None and row.read is not None
            return row.read(source, reading)
        records = JsonRecords(source, lambda doc, src: unwrap_document(doc, src, reading))
        return _load_records(
            records,
            reading,
            fmt=None if row is None else row.name,
            source=name,
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


def _load_records(
    records: Records,
    reading: Reading,
    *,
    fmt: str | None,
    source: str | None = None,
    notes: Callable[[], list[str]] = list,
    empty_document: Callable[[], bool] = lambda: True,
) -> Trace:
    iterator = iter(records)
    if fmt is None:
        first = next(iterator, None)
        if first is None and empty_document():
            return Trace(EvidenceSet((), notes()), None, "native")  # "[]": no call at all
        fmt, sample = detect_format(
            chain(() if first is None else (first,), iterator), reading.source
        )
        iterator = chain(sample, iterator)
    load = FORMATS[fmt].load
    if load is None:
        raise ConfigError(f"format {fmt!r} reads whole files; it cannot read JSON records")
    builder = TraceBuilder(reading.extractors, source, fmt, reading.provenance)
    load(iterator, builder)
    for note in notes():
        builder.note(note)
    return builder.finish()
