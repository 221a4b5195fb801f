"""groundcheck as an MCP server over stdio: tools ``audit`` and ``extract``.

An agent (or the person driving one in an MCP client) can check a draft before sending it:
``audit`` takes the report — as text or a path — and the tool calls of the run — as native
records or the path of any trace groundcheck reads — and returns the verdict as structured
content (the same JSON as ``groundcheck audit --format json``). ``extract`` lists the
citations a text makes. Both are annotated read-only and idempotent: they read the files they
are given and change nothing.

Run it with ``groundcheck mcp`` or ``python -m groundcheck.integrations.mcp``; install with
``pip install 'groundcheck-citations[mcp]'`` (the official ``mcp`` package, 2.x).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import groundcheck

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["audit", "build_server", "extract", "main"]

SERVER_NAME = "groundcheck"
INSTRUCTIONS = (
    "groundcheck checks that a report cites only sources its tools really returned. Call "
    "`audit` with the report and the run's tool calls (each {tool, input, output}) before "
    "presenting a report; a finding with severity 'error' names a citation no tool output "
    "holds. Offline and deterministic: it never looks anything up."
)


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise groundcheck.InputError(f"cannot read the {what}: {exc}", source=path) from exc


def audit(
    report: str | None = None,
    tool_calls: list[dict[str, Any]] | None = None,
    report_path: str | None = None,
    evidence_path: str | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Audit a report against what its tools returned; the verdict as JSON.

    Give the report as `report` (text) or `report_path`, and the evidence as `tool_calls`
    (native records: {"tool": name, "input": arguments, "output": what it returned, "id"?,
    "error"?}) or `evidence_path` (a trace file or folder: OpenAI, Anthropic, LangChain,
    OpenTelemetry, inspect-ai, MCP, Claude Code and more, detected by shape). `options` are
    audit policy fields, e.g. {"title_threshold": 85, "unrecorded_severity": "warning"}.
    The verdict's `ok` is false when any finding is an error (a citation no tool returned).
    """
    if (report is None) == (report_path is None):
        raise groundcheck.InputError(
            "give exactly one of 'report' and 'report_path'", source="audit"
        )
    if (tool_calls is None) == (evidence_path is None):
        raise groundcheck.InputError(
            "give exactly one of 'tool_calls' and 'evidence_path'", source="audit"
        )
    text = report if report is not None else _read(str(report_path), "report")
    evidence: Any = tool_calls if tool_calls is not None else str(evidence_path)
    policy = groundcheck.Policy().with_options(**(options or {}))
    verdict = groundcheck.audit(text, evidence, policy=policy)
    result: dict[str, Any] = json.loads(verdict.to_json())
    return result


def extract(text: str, extractors: list[str] | None = None) -> dict[str, Any]:
    """The citations a text makes: identifiers, URLs and titles, each with its place.

    `extractors` names the extractors to run (default: all registered, see
    `groundcheck extractors`). Each citation has its scheme, canonical id, the raw text
    written, and line and column (1-based).
    """
    chosen = groundcheck.default_registry().select(extractors) if extractors else None
    citations = groundcheck.extract(text, extractors=chosen)
    return {"count": len(citations), "citations": [c.to_dict() for c in citations]}


def build_server() -> MCPServer:
    """The server with both tools registered (not yet running)."""
    from groundcheck.integrations._missing import missing

    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.types import ToolAnnotations
    except ImportError as exc:
        raise missing("the MCP server", "mcp", "mcp", "mcp") from exc

    server = MCPServer(name=SERVER_NAME, instructions=INSTRUCTIONS, version=groundcheck.__version__)
    annotations = ToolAnnotations(
        read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False
    )

    def audit_tool(
        report: str | None = None,
        tool_calls: list[dict[str, Any]] | None = None,
        report_path: str | None = None,
        evidence_path: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        try:
            return audit(report, tool_calls, report_path, evidence_path, options)
        except groundcheck.GroundcheckError as exc:  # bad input: a tool error, not a crash
            raise ToolError(str(exc)) from exc

    def extract_tool(text: str, extractors: list[str] | None = None) -> dict[str, Any]:
        try:
            return extract(text, extractors)
        except groundcheck.GroundcheckError as exc:
            raise ToolError(str(exc)) from exc

    for tool, public in ((audit_tool, audit), (extract_tool, extract)):
        tool.__name__ = tool.__qualname__ = public.__name__  # names the schemas "audit..."
        tool.__doc__ = public.__doc__
    server.tool(
        name="audit",
        title="Audit a report's citations",
        annotations=annotations,
        structured_output=True,
    )(audit_tool)
    server.tool(
        name="extract",
        title="List a text's citations",
        annotations=annotations,
        structured_output=True,
    )(extract_tool)
    return server


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="groundcheck mcp",
        description="Run groundcheck as an MCP server over stdio (tools: audit, extract).",
    )
    parser.add_argument("--version", action="version", version=groundcheck.__version__)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Serve over stdio until the client closes the connection; returns the exit status."""
    _parser().parse_args(argv)
    try:
        server = build_server()
    except ImportError as exc:
        sys.stderr.write(f"groundcheck: error: {exc}\n")
        return 2
    try:
        server.run("stdio")
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover - exercised through a subprocess in the tests
    sys.exit(main())
