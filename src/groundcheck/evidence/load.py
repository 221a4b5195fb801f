"""``load_evidence()``: read any supported trace, detecting its format by shape.

Files are read as one JSON document or as JSON Lines (streamed: a trace of any size is read in
one pass in bounded memory). Plain-text lines among JSON lines (CLI start-up notices) are
skipped and counted; a line that starts like JSON but does not parse (a truncated last line)
is skipped with a note naming it. Formats are detected from the records' shape, never from the
file name; ``format=`` overrides detection.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

from attrs import frozen

from groundcheck.errors import ConfigError, InputError
from groundcheck.evidence import chat, sovereign, telemetry, transcripts
from groundcheck.evidence.bibtex import load_bibtex, looks_like_bibtex
from groundcheck.evidence.jsonio import decode, read_text
from groundcheck.evidence.native import evidence_from_record
from groundcheck.evidence.trace import Trace, TraceBuilder
from groundcheck.extractors import Extractor, Registry
from groundcheck.extractors.pipeline import resolve_extractors
from groundcheck.model import EvidenceSet

__all__ = ["FORMATS", "Format", "load_evidence"]

Records = Iterable[tuple[int | None, Any]]


def _is_native(r: Mapping[str, Any]) -> bool:
    # Loose on purpose: a record with a "tool" key and none of the other formats' markers is
    # meant as native, and native validation then says exactly what is wrong with it.
    return "tool" in r and not any(k in r for k in ("role", "type", "event_type", "jsonrpc"))


def _load_native(records: Records, b: TraceBuilder) -> None:  # pragma: no cover - see load
    raise AssertionError("native records are loaded by _native_trace")


@frozen
class Format:
    """A trace format: how to recognise one of its records, and how to read them all."""

    name: str
    description: str
    detect: Callable[[Mapping[str, Any]], bool]
    load: Callable[[Records, TraceBuilder], None]


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("native", "groundcheck tool calls {tool, input, output}", _is_native, _load_native),
        Format(
            "openai-chat",
            "OpenAI Chat Completions messages",
            chat.is_openai_chat,
            chat.load_openai_chat,
        ),
        Format(
            "openai-responses", "OpenAI Responses items", chat.is_responses, chat.load_responses
        ),
        Format(
            "anthropic",
            "Anthropic Messages (tool_use / tool_result)",
            chat.is_anthropic,
            chat.load_anthropic,
        ),
        Format(
            "langchain",
            "LangChain messages and LangSmith runs",
            chat.is_langchain,
            chat.load_langchain,
        ),
        Format(
            "gemini", "Gemini functionCall / functionResponse", chat.is_gemini, chat.load_gemini
        ),
        Format("inspect-ai", "inspect-ai sample messages", chat.is_inspect, chat.load_inspect),
        Format(
            "otel", "OpenTelemetry GenAI spans (gen_ai.*)", telemetry.is_otel, telemetry.load_otel
        ),
        Format(
            "otel-messages",
            "OpenTelemetry GenAI messages (parts)",
            telemetry.is_otel_messages,
            telemetry.load_otel_messages,
        ),
        Format(
            "openinference",
            "OpenInference spans",
            telemetry.is_openinference,
            telemetry.load_openinference,
        ),
        Format("mcp", "MCP JSON-RPC tools/call", telemetry.is_mcp, telemetry.load_mcp),
        Format(
            "atif", "Agent Trajectory Interchange Format", telemetry.is_atif, telemetry.load_atif
        ),
        Format(
            "claude-code",
            "Claude Code stream-json",
            transcripts.is_claude_code,
            transcripts.load_claude_code,
        ),
        Format(
            "gemini-cli",
            "Gemini CLI stream-json",
            transcripts.is_gemini_cli,
            transcripts.load_gemini_cli,
        ),
        Format("codex", "Codex exec --json", transcripts.is_codex, transcripts.load_codex),
        Format(
            "sovereign-agent",
            "sovereign-agent trace.jsonl / session folder",
            sovereign.is_sovereign,
            sovereign.load_sovereign,
        ),
    )
}
"""Every format :func:`load_evidence` reads, by name (``format=`` / ``--evidence-format``)."""

FORMAT_NAMES = (*FORMATS, "bibtex")

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


# -- reading ---------------------------------------------------------------------------------


class _LineReader:
    """JSON Lines with tolerance for the noise agent CLIs print between events."""

    def __init__(self, path: Path, name: str) -> None:
        self.path = path
        self.name = name
        self.plain = 0
        self.broken: list[int] = []

    def __iter__(self) -> Iterator[tuple[int | None, Any]]:
        with self.path.open("rb") as stream:
            for number, raw in enumerate(stream, 1):
                text = decode(raw, self.name, number).strip()
                if not text:
                    continue
                if text[0] not in "[{":
                    self.plain += 1
                    continue
                try:
                    value = json.loads(text)
                except RecursionError:
                    raise InputError(
                        "JSON nested too deeply to read", source=self.name, line=number
                    ) from None
                except ValueError:
                    self.broken.append(number)
                    continue
                yield number, value

    def notes(self) -> list[str]:
        notes = []
        if self.plain:
            notes.append(f"{self.name}: skipped {self.plain} plain-text line(s) between JSON lines")
        if self.broken:
            shown = ", ".join(map(str, self.broken[:5])) + (" ..." if len(self.broken) > 5 else "")
            notes.append(
                f"{self.name}: skipped {len(self.broken)} line(s) that are not valid JSON "
                f"(truncated?): line {shown}"
            )
        return notes


def _unwrap(doc: Any, source: str) -> list[Any]:
    """The records of a whole JSON document: a list, or the list under a well-known key."""
    if isinstance(doc, list):
        return doc
    if not isinstance(doc, Mapping):
        raise InputError(
            f"expected a JSON object or array of records, got {type(doc).__name__}", source=source
        )
    if telemetry.is_atif(doc) or "resourceSpans" in doc:
        return [doc]
    samples = doc.get("samples")
    if isinstance(samples, list):
        if len(samples) != 1:
            raise InputError(
                f"an inspect-ai log with {len(samples)} samples: audit one sample at a time "
                "(each sample is one run)",
                source=source,
            )
        return _unwrap(samples[0], source)
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


def _records_of_file(path: Path, name: str) -> tuple[Records, Callable[[], list[str]]]:
    with path.open("rb") as stream:
        head = stream.read(4096).lstrip(b" \t\r\n\xef\xbb\xbf")
    first = head[:1]
    if first == b"[" or (first == b"{" and not _first_line_is_json(path)):
        doc = _parse_document(path, name)
        return [(None, r) for r in _unwrap(doc, name)], list
    reader = _LineReader(path, name)
    return reader, reader.notes


def _first_line_is_json(path: Path) -> bool:
    with path.open("rb") as stream:
        for raw in stream:
            if raw.strip():
                try:
                    json.loads(raw)
                except (ValueError, RecursionError):
                    return False
                return True
    return False


def _parse_document(path: Path, name: str) -> Any:
    from groundcheck.evidence.jsonio import _loads

    return _loads(read_text(path), name)


# -- detection -------------------------------------------------------------------------------


def _detect(
    records: Iterator[tuple[int | None, Any]], source: str
) -> tuple[str, list[tuple[int | None, Any]]]:
    """The format of ``records``, and the records read to decide it (to be replayed)."""
    sample: list[tuple[int | None, Any]] = []
    seen: dict[str, int | None] = {}
    for line, record in records:
        sample.append((line, record))
        if isinstance(record, Mapping):
            for fmt in FORMATS.values():
                if fmt.name not in seen and fmt.detect(record):
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
    raise InputError(
        f"no known trace format in the first {len(sample)} record(s); formats tried: "
        f"{', '.join(FORMAT_NAMES)} (see docs/formats.md), or pass --evidence-format",
        source=source,
    )


# -- entry point -----------------------------------------------------------------------------


def load_evidence(
    trace: str | Path | Any,
    *,
    format: str | None = None,
    registry: Registry | None = None,
    extractors: Sequence[Extractor] | None = None,
) -> Trace:
    """Read a trace (file, session folder, or Python object) into evidence and its report.

    Returns a :class:`Trace`: ``trace.evidence`` for :func:`groundcheck.audit`, and
    ``trace.report`` (the agent's final answer) when the trace holds one.
    """
    if format is not None and format not in FORMAT_NAMES:
        raise ConfigError(f"unknown evidence format {format!r}; known: {', '.join(FORMAT_NAMES)}")
    chosen = tuple(extractors) if extractors is not None else resolve_extractors(registry)
    if isinstance(trace, (str, Path)):
        return _load_path(Path(trace), str(trace), format, chosen)
    records: Records = [(None, r) for r in _unwrap(trace, "<tool_calls>")]
    return _load_records(
        records, name="<tool_calls>", source=None, fmt=format, extractors=chosen, extra_notes=list
    )


def _load_path(path: Path, name: str, fmt: str | None, extractors: Sequence[Extractor]) -> Trace:
    if path.is_dir():
        found = sovereign.session_paths(path)
        if found is None:
            return _load_folder(path, name, fmt, extractors)
        trace_file, report_file = found
        loaded = _load_path(trace_file, str(trace_file), fmt or "sovereign-agent", extractors)
        if report_file is None:
            return loaded
        return Trace(loaded.evidence, read_text(report_file), loaded.format, str(report_file))
    if not path.exists():
        raise InputError("no such file", source=name)
    if fmt == "bibtex" or (fmt is None and path.suffix.lower() == ".bib"):
        return load_bibtex(read_text(path), extractors, name)
    try:
        records, notes = _records_of_file(path, name)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=name) from None
    if fmt is None and isinstance(records, list) and not records:
        return Trace(EvidenceSet(), None, "native")
    try:
        return _load_records(
            records, name=name, source=name, fmt=fmt, extractors=extractors, extra_notes=notes
        )
    except InputError as exc:
        if (
            fmt is None
            and "no known trace format" in exc.problem
            and looks_like_bibtex(read_text(path))
        ):
            return load_bibtex(read_text(path), extractors, name)
        raise


def _load_folder(
    folder: Path, name: str, fmt: str | None, extractors: Sequence[Extractor]
) -> Trace:
    """Every trace file in a folder (not recursive) as one run's evidence."""
    files = sorted(
        p
        for p in folder.iterdir()
        if p.is_file() and p.suffix.lower() in (".json", ".jsonl", ".bib")
    )
    if not files:
        raise InputError(
            "is a folder with no trace files (.json, .jsonl, .bib) and not a session folder "
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
    extractors: Sequence[Extractor],
    extra_notes: Callable[[], list[str]],
) -> Trace:
    iterator = iter(records)
    if fmt is None:
        fmt, sample = _detect(iterator, name)
        iterator = chain(sample, iterator)
    if fmt == "native":
        return _native_trace(iterator, source, extractors, extra_notes)
    builder = TraceBuilder(extractors, source, fmt)
    FORMATS[fmt].load(iterator, builder)
    for note in extra_notes():
        builder.note(note)
    return builder.finish()


def _native_trace(
    records: Iterator[tuple[int | None, Any]],
    source: str | None,
    extractors: Sequence[Extractor],
    extra_notes: Callable[[], list[str]],
) -> Trace:
    calls = [
        evidence_from_record(record, index, extractors, source=source, line=line)
        for index, (line, record) in enumerate(records, 1)
    ]
    return Trace(EvidenceSet(calls, extra_notes()), None, "native")
