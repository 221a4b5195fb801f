"""The table of trace formats: how each is recognised and how each is read.

Every format is one row, native tool calls, BibTeX and session folders included. A row says
how to recognise its data (``detect`` a record's shape; ``sniff`` a file's first bytes, for
formats that are not JSON; ``open_folder`` for formats that are a folder) and how to read it
(``load`` records into a :class:`~groundcheck.evidence.trace.TraceBuilder`, or ``read`` a whole
file). :data:`FORMATS` is a read-only view; :func:`register_format` adds a row.

Detection order, so no decision depends on an error message: folders first, then the first
bytes of a file, then the shape of its JSON records.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from attrs import frozen

from groundcheck.errors import RegistryError
from groundcheck.evidence import bibtex, chat, native, sovereign, telemetry, transcripts
from groundcheck.evidence.trace import TraceBuilder

if TYPE_CHECKING:
    from groundcheck.evidence.jsonio import Input
    from groundcheck.evidence.trace import Trace
    from groundcheck.extractors import Extractor

__all__ = ["FORMATS", "Format", "register_format"]

Records = Iterable[tuple[int | None, Any]]


@frozen
class Format:
    """A trace format: how to recognise its data, and how to read it.

    - ``detect(record)``: true for a JSON record of this format (records are sampled);
    - ``load(records, builder)``: report every record's calls, results and text to the builder;
    - ``unwrap(document)``: the records of a whole JSON document of this format, or None when
      the document is not one (``{"samples": [...]}``);
    - ``sniff(head)``: true when a file's first bytes are this format (for non-JSON formats);
    - ``read(source, extractors)``: read a whole file of a non-JSON format into a trace;
    - ``suffixes``: file suffixes that mean this format (``.bib``);
    - ``open_folder(folder)``: ``(trace file, report file or None)`` for a folder of this
      format, or None.
    """

    name: str
    description: str
    detect: Callable[[Mapping[str, Any]], bool] | None = None
    load: Callable[[Records, TraceBuilder], None] | None = None
    unwrap: Callable[[Mapping[str, Any], str], list[Any] | None] | None = None
    sniff: Callable[[bytes], bool] | None = None
    read: Callable[[Input, tuple[Extractor, ...]], Trace] | None = None
    suffixes: tuple[str, ...] = ()
    open_folder: Callable[[Path], tuple[Path, Path | None] | None] | None = None


def _one_atif(doc: Mapping[str, Any], source: str) -> list[Any] | None:
    return [doc] if telemetry.is_atif(doc) else None


def _one_otlp(doc: Mapping[str, Any], source: str) -> list[Any] | None:
    return [doc] if "resourceSpans" in doc else None


def _read_bibtex(source: Input, extractors: tuple[Extractor, ...]) -> Trace:
    return bibtex.load_bibtex(source.text(), extractors, source.name)


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
    Format("inspect-ai", "inspect-ai sample messages", chat.is_inspect, chat.load_inspect),
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
