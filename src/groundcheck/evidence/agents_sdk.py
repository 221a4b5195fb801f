"""OpenAI Agents SDK trace exports: ``Trace.export()`` and ``Span.export()`` records.

The SDK's exporter sends ``{"data": [trace, span, span, ...]}``; a custom processor usually
writes the same items one per line. A span is
``{"object": "trace.span", "id", "trace_id", "parent_id", "started_at", "ended_at",
"span_data": {...}, "error"}`` (``src/agents/tracing/spans.py`` in openai/openai-agents-python).
Tool calls are ``span_data.type == "function"`` spans (MCP tools too, with ``mcp_data``):
``name``, ``input`` (the JSON arguments) and ``output`` (``str(result)``). A run with
``trace_include_sensitive_data=False`` (or ``OPENAI_AGENTS_TRACE_INCLUDE_SENSITIVE_DATA=false``)
exports neither, so such a span is a call whose output was *not recorded*. ``generation`` spans
(Chat Completions models) carry the model's output messages; ``response`` spans carry only a
response id, so a Responses-model run's final answer is not in the export.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from groundcheck.evidence.trace import TraceBuilder, as_list, as_mapping, text_of

__all__ = ["is_openai_agents", "load_openai_agents"]

Records = Iterable[tuple[int | None, Any]]


def is_openai_agents(r: Mapping[str, Any]) -> bool:
    if r.get("object") == "trace.span":
        return isinstance(r.get("span_data"), Mapping)
    if r.get("object") == "trace":
        return "workflow_name" in r
    data = r.get("span_data")
    return isinstance(data, Mapping) and isinstance(data.get("type"), str) and "trace_id" in r


def load_openai_agents(records: Records, b: TraceBuilder) -> None:
    for _, r in records:
        if not isinstance(r, Mapping):
            continue
        data = as_mapping(r.get("span_data"))
        kind = data.get("type")
        if kind == "function":
            arguments, output = data.get("input"), data.get("output")
            recorded = arguments is not None or output is not None
            name = str(data.get("name") or "function")
            b.call_and_result(
                r.get("id") or r.get("span_id"),
                name,
                arguments,
                output,
                errored=bool(r.get("error")),
                recorded=recorded or bool(r.get("error")),
            )
            if not recorded:
                b.note(
                    "openai-agents: function spans carry no input or output (the run set "
                    "trace_include_sensitive_data=False); their outputs were not recorded"
                )
        elif kind == "generation":
            for message in as_list(data.get("output")):
                if not isinstance(message, Mapping) or message.get("role") != "assistant":
                    continue
                if not message.get("tool_calls"):
                    b.said(text_of(message.get("content")))
