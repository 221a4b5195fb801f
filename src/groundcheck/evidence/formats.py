"""The table of trace formats: how each is recognised and how each is read.

Every format is one row, native tool calls, BibTeX, inspect-ai logs and session folders
included. A row says how to recognise its data (``detect`` a record's shape; ``sniff`` a file's
first bytes, for formats that are not JSON records; ``open_folder`` for formats that are a
folder) and how to read it (``load`` records into a
:class:`~groundcheck.evidence.trace.TraceBuilder`, or ``read`` a whole file). :data:`FORMATS`
is a read-only view; :func:`register_format` adds a row.

Detection order, so no decision depends on an error message: folders first, then the first
bytes of a file, then the shape of its JSON records. A row with neither ``detect`` nor
``sniff`` nor ``suffixes`` (``records``) is never chosen by guessing, only by name.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from attrs import frozen

from groundcheck.errors import RegistryError
from groundcheck.evidence import (
    agents_sdk,
    bibtex,
    chat,
    inspect_log,
    native,
    pydantic_ai,
    records,
    sovereign,
    telemetry,
    transcripts,
)
from groundcheck.evidence.trace import Reading, Trace, TraceBuilder
from groundcheck.model import EvidenceSet

if TYPE_CHECKING:
    from groundcheck.evidence.jsonio import Input

__all__ = ["FORMATS", "Format", "register_format"]

Records = Iterable[tuple[int | None, Any]]


@frozen
class Format:
    """A trace format: how to recognise its data, and how to read it.

    - ``detect(record)``: true for a JSON record of this format (records are sampled);
    - ``load(records, builder)``: report every record's calls, results and text to the builder;
    - ``unwrap(document, reading)``: the records of a whole JSON document of this format, or
      None when the document is not one (an ATIF trajectory is one record; an inspect-ai log
      is the sample ``reading.sample`` names);
    - ``sniff(head)``: true when a file's first bytes are this format (archives, BibTeX);
    - ``read(source, reading)``: read a whole file into a trace (``reading`` carries the
      extractors, the run's provenance and the wanted sample);
    - ``suffixes``: file suffixes that mean this format (``.bib``, ``.eval``);
    - ``open_folder(folder)``: ``(trace file, report file or None)`` for a folder of this
      format, or None;
    - ``samples(path)``: the runs a file holds when it holds several, as ``(sample, task)``
      (an inspect-ai log: one per sample and epoch, the task its sample id), or None;
      ``groundcheck rate`` audits each as a run.
    """

    name: str
    description: str
    detect: Callable[[Mapping[str, Any]], bool] | None = None
    load: Callable[[Records, TraceBuilder], None] | None = None
    unwrap: Callable[[Mapping[str, Any], Reading], list[Any] | None] | None = None
    sniff: Callable[[bytes], bool] | None = None
    read: Callable[[Input, Reading], Trace] | None = None
    suffixes: tuple[str, ...] = ()
    open_folder: Callable[[Path], tuple[Path, Path | None] | None] | None = None
    samples: Callable[[Path], list[tuple[str, str]] | None] | None = None


def _one_atif(doc: Mapping[str, Any], reading: Reading) -> list[Any] | None:
    return [doc] if telemetry.is_atif(doc) else None


def _one_otlp(doc: Mapping[str, Any], reading: Reading) -> list[Any] | None:
    return [doc] if "resourceSpans" in doc else None


def _one_state(doc: Mapping[str, Any], reading: Reading) -> list[Any] | None:
    return [doc] if chat.is_langgraph(doc) else None


def _read_bibtex(source: Input, reading: Reading) -> Trace:
    if reading.provenance.scanning:
        return Trace(EvidenceSet(), None, "bibtex")
    return bibtex.load_bibtex(source.text(), reading.extractors, source.name)


def _inspect_log(doc: Mapping[str, Any], reading: Reading) -> list[Any] | None:
    if not inspect_log.is_log(doc):
        return None
    return inspect_log.select_in_document(doc, reading.sample, reading.source)


def _read_inspect(source: Input, reading: Reading) -> Trace:
    sample = inspect_log.read_sample(source, reading.sample)
    builder = TraceBuilder(reading.extractors, source.name, "inspect-ai", reading.provenance)
    chat.load_inspect([(None, sample)], builder)
    return builder.finish()


def _inspect_samples(path: Path) -> list[tuple[str, str]] | None:
    keys = inspect_log.list_samples(path)
    if keys is None:
        return None
    epochs = any(k.epoch != 1 for k in keys)
    return [(k.label(epochs), k.id) for k in keys]


def _sniff_inspect(head: bytes) -> bool:
    return inspect_log.sniff_zip(head) or inspect_log.looks_like_json_log(head)


def _sniff_bibtex(head: bytes) -> bool:
    text = head.lstrip(b" \t\r\n\xef\xbb\xbf")
    return text[:1] not in (b"[", b"{") and bibtex.looks_like_bibtex(
        text.decode("utf-8", "replace")
    )


_ROWS = (
    Format(
        "native",
        "groundcheck tool calls {tool, input, output}",
        native.is_native,
        native.load_native,
    ),
    Format(
        "openai-chat",
        "OpenAI Chat Completions messages",
        chat.is_openai_chat,
        chat.load_openai_chat,
    ),
    Format("openai-responses", "OpenAI Responses items", chat.is_responses, chat.load_responses),
    Format(
        "anthropic",
        "Anthropic Messages (tool_use / tool_result)",
        chat.is_anthropic,
        chat.load_anthropic,
    ),
    Format(
        "langchain", "LangChain messages and LangSmith runs", chat.is_langchain, chat.load_langchain
    ),
    Format("gemini", "Gemini functionCall / functionResponse", chat.is_gemini, chat.load_gemini),
    Format(
        "pydantic-ai",
        "pydantic-ai message history (parts with part_kind)",
        pydantic_ai.is_pydantic_ai,
        pydantic_ai.load_pydantic_ai,
    ),
    Format(
        "inspect-ai",
        "inspect-ai logs (.eval archives, .json logs) and sample messages",
        chat.is_inspect,
        chat.load_inspect,
        unwrap=_inspect_log,
        sniff=_sniff_inspect,
        read=_read_inspect,
        suffixes=(".eval",),
        samples=_inspect_samples,
    ),
    Format(
        "langgraph",
        "LangGraph thread state / history (values.messages)",
        chat.is_langgraph,
        chat.load_langgraph,
        unwrap=_one_state,
    ),
    Format(
        "openai-agents",
        "OpenAI Agents SDK trace export (trace.span, span_data)",
        agents_sdk.is_openai_agents,
        agents_sdk.load_openai_agents,
    ),
    Format(
        "otel",
        "OpenTelemetry GenAI spans (gen_ai.*)",
        telemetry.is_otel,
        telemetry.load_otel,
        unwrap=_one_otlp,
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
        "atif",
        "Agent Trajectory Interchange Format",
        telemetry.is_atif,
        telemetry.load_atif,
        unwrap=_one_atif,
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
        open_folder=sovereign.session_paths,
    ),
    Format(
        "bibtex",
        "BibTeX entries (.bib): what a reference manager or tool returned",
        sniff=_sniff_bibtex,
        read=_read_bibtex,
        suffixes=(".bib",),
    ),
    Format(
        "records",
        "what the tools returned, as records (an export of papers or citations, not a trace)",
        read=records.read_records,
    ),
)

_TABLE: dict[str, Format] = {f.name: f for f in _ROWS}
_LOCK = threading.Lock()

FORMATS: Mapping[str, Format] = MappingProxyType(_TABLE)
"""Every format :func:`~groundcheck.evidence.load.load_evidence` reads, by name (read-only;
``format=`` / ``--evidence-format`` take these names)."""


def register_format(fmt: Format, *, replace: bool = False) -> Format:
    """Add a format to the table; a name clash is an error unless ``replace``."""
    if not isinstance(fmt, Format):
        raise RegistryError(f"register_format wants a Format, got {type(fmt).__name__}")
    if fmt.load is None and fmt.read is None:
        raise RegistryError(f"format {fmt.name!r} has neither a load nor a read hook")
    with _LOCK:
        if fmt.name in _TABLE and not replace:
            raise RegistryError(
                f"a format named {fmt.name!r} is already registered; pass replace=True"
            )
        _TABLE[fmt.name] = fmt
    return fmt
