"""Span and protocol traces: OpenTelemetry GenAI (spans and messages), OpenInference, MCP,
ATIF. What each records and what it does not: ``docs/formats.md``.

Tool results are opt-in in OpenTelemetry (``gen_ai.tool.call.result``): a span without one is
a call whose output was not recorded, and the verdict says so instead of guessing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from groundcheck.evidence.jsonio import parse_json
from groundcheck.evidence.trace import TraceBuilder, as_list, as_mapping, text_of

__all__ = [
    "is_atif",
    "is_mcp",
    "is_openinference",
    "is_otel",
    "is_otel_messages",
    "load_atif",
    "load_mcp",
    "load_openinference",
    "load_otel",
    "load_otel_messages",
    "span_attributes",
]

Records = Iterable[tuple[int | None, Any]]


def _otlp_value(value: Any) -> Any:
    """Decode an OTLP JSON ``AnyValue`` ({"stringValue": ...}, arrays, key-value lists)."""
    if not isinstance(value, Mapping):
        return value
    for key in ("stringValue", "boolValue", "intValue", "doubleValue", "bytesValue"):
        if key in value:
            return value[key]
    if "arrayValue" in value:
        values = (
            value["arrayValue"].get("values", [])
            if isinstance(value["arrayValue"], Mapping)
            else []
        )
        return [_otlp_value(v) for v in values]
    if "kvlistValue" in value:
        kv = (
            value["kvlistValue"].get("values", [])
            if isinstance(value["kvlistValue"], Mapping)
            else []
        )
        return {e.get("key"): _otlp_value(e.get("value")) for e in kv if isinstance(e, Mapping)}
    return value


def span_attributes(span: Mapping[str, Any]) -> dict[str, Any]:
    """A span's attributes as a flat dict, from either a dict or OTLP's key/value list."""
    attrs = span.get("attributes")
    if isinstance(attrs, Mapping):
        return dict(attrs)
    if isinstance(attrs, list):
        return {
            str(a.get("key")): _otlp_value(a.get("value")) for a in attrs if isinstance(a, Mapping)
        }
    return {}


def expand_otlp(document: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The spans of an OTLP JSON export (resourceSpans -> scopeSpans -> spans)."""
    for resource in as_list(document.get("resourceSpans")):
        if not isinstance(resource, Mapping):
            continue
        for scope in as_list(
            resource.get("scopeSpans", resource.get("instrumentationLibrarySpans"))
        ):
            if isinstance(scope, Mapping):
                for span in as_list(scope.get("spans")):
                    if isinstance(span, Mapping):
                        yield span


def _errored(span: Mapping[str, Any], attrs: Mapping[str, Any]) -> bool:
    status = span.get("status")
    code = status.get("code") if isinstance(status, Mapping) else status
    return bool(attrs.get("error.type")) or code in ("ERROR", "STATUS_CODE_ERROR", 2)


def _maybe_json(value: Any) -> Any:
    if isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        try:
            return parse_json(value)
        except (ValueError, RecursionError):
            return value
    return value


# -- OpenTelemetry GenAI ---------------------------------------------------------------------


def is_otel(r: Mapping[str, Any]) -> bool:
    if "resourceSpans" in r:
        return True
    attrs = span_attributes(r)
    return any(k.startswith("gen_ai.") for k in attrs)


def _message_parts(messages: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for message in _maybe_json(messages) if isinstance(_maybe_json(messages), list) else []:
        if isinstance(message, Mapping):
            for part in as_list(message.get("parts")):
                if isinstance(part, Mapping):
                    yield str(message.get("role", "")), part


def _report_parts(
    b: TraceBuilder, parts: Iterable[tuple[str, Mapping[str, Any]]], line: int | None
) -> None:
    text = []
    for role, part in parts:
        kind = part.get("type")
        if kind == "tool_call":
            b.call(part.get("id"), str(part.get("name") or "?"), part.get("arguments"), line)
        elif kind == "tool_call_response":
            response = part.get("response", part.get("result"))
            b.result(part.get("id"), response, recorded="response" in part or "result" in part)
        elif kind == "text" and role == "assistant" and isinstance(part.get("content"), str):
            text.append(part["content"])
    if text:
        b.said("".join(text))


def load_otel(records: Records, b: TraceBuilder) -> None:
    for line, r in records:
        if not isinstance(r, Mapping):
            continue
        spans = expand_otlp(r) if "resourceSpans" in r else iter((r,))
        for span in spans:
            attrs = span_attributes(span)
            if attrs.get("gen_ai.operation.name") == "execute_tool" or "gen_ai.tool.name" in attrs:
                recorded = "gen_ai.tool.call.result" in attrs
                b.call_and_result(
                    attrs.get("gen_ai.tool.call.id"),
                    str(attrs.get("gen_ai.tool.name") or "?"),
                    attrs.get("gen_ai.tool.call.arguments"),
                    _maybe_json(attrs.get("gen_ai.tool.call.result")),
                    errored=_errored(span, attrs),
                    recorded=recorded,
                )
                if not recorded:
                    b.note(
                        "otel: gen_ai.tool.call.result is opt-in and was not recorded on "
                        "some execute_tool spans"
                    )
            for key in ("gen_ai.input.messages", "gen_ai.output.messages"):
                if key in attrs:
                    _report_parts(b, _message_parts(attrs[key]), line)
            for event in as_list(span.get("events")):
                if isinstance(event, Mapping):
                    _deprecated_event(b, event, line)


def _deprecated_event(b: TraceBuilder, event: Mapping[str, Any], line: int | None) -> None:
    name = event.get("name")
    body = event.get("body", span_attributes(event))
    if not isinstance(body, Mapping):
        return
    if name == "gen_ai.assistant.message":
        for call in as_list(body.get("tool_calls")):
            if isinstance(call, Mapping):
                fn = as_mapping(call.get("function"))
                b.call(call.get("id"), str(fn.get("name") or "?"), fn.get("arguments"), line)
    elif name == "gen_ai.tool.message":
        b.result(body.get("id"), body.get("content"))


def is_otel_messages(r: Mapping[str, Any]) -> bool:
    return "role" in r and any(
        isinstance(p, Mapping) and p.get("type") in ("tool_call", "tool_call_response")
        for p in as_list(r.get("parts"))
    )


def load_otel_messages(records: Records, b: TraceBuilder) -> None:
    for line, r in records:
        if isinstance(r, Mapping):
            _report_parts(b, _message_parts([r]), line)


# -- OpenInference ---------------------------------------------------------------------------

_DOC = re.compile(r"retrieval\.documents\.(\d+)\.document\.(\w+)")
_LLM_MSG = re.compile(r"llm\.(input|output)_messages\.(\d+)\.message\.(.+)")


def is_openinference(r: Mapping[str, Any]) -> bool:
    attrs = span_attributes(r) or r
    return "openinference.span.kind" in attrs


def load_openinference(records: Records, b: TraceBuilder) -> None:
    for line, r in records:
        if not isinstance(r, Mapping):
            continue
        attrs = span_attributes(r) or dict(r)
        kind = attrs.get("openinference.span.kind")
        if kind == "TOOL":
            b.call_and_result(
                attrs.get("tool.id") or attrs.get("tool_call.id") or r.get("span_id"),
                str(attrs.get("tool.name") or "?"),
                attrs.get("input.value"),
                _maybe_json(attrs.get("output.value")),
                errored=_errored(r, attrs),
                recorded="output.value" in attrs,
            )
        elif kind == "RETRIEVER":
            docs: dict[int, dict[str, Any]] = {}
            for key, value in attrs.items():
                m = _DOC.fullmatch(key)
                if m:
                    docs.setdefault(int(m[1]), {})[m[2]] = value
            context = r.get("context")
            span_id = r.get("span_id") or (
                context.get("span_id") if isinstance(context, Mapping) else None
            )
            b.call_and_result(
                span_id,
                str(r.get("name") or "retriever"),
                attrs.get("input.value"),
                [docs[i] for i in sorted(docs)],
            )
        elif kind == "LLM":
            _openinference_llm(attrs, b, line)


def _openinference_llm(attrs: Mapping[str, Any], b: TraceBuilder, line: int | None) -> None:
    messages: dict[tuple[str, int], dict[str, Any]] = {}
    for key, value in attrs.items():
        m = _LLM_MSG.fullmatch(key)
        if m:
            messages.setdefault((m[1], int(m[2])), {})[m[3]] = value
    for (_, _), msg in sorted(messages.items(), key=lambda kv: (kv[0][0] == "output", kv[0][1])):
        if msg.get("role") == "tool":
            b.result(msg.get("tool_call_id"), msg.get("content"), tool=msg.get("name"))
        calls: dict[int, dict[str, Any]] = {}
        for key, value in msg.items():
            cm = re.fullmatch(r"tool_calls\.(\d+)\.tool_call\.(.+)", key)
            if cm:
                calls.setdefault(int(cm[1]), {})[cm[2]] = value
        for i in sorted(calls):
            c = calls[i]
            b.call(
                c.get("id"), str(c.get("function.name") or "?"), c.get("function.arguments"), line
            )
        if msg.get("role") == "assistant" and not calls:
            b.said(text_of(msg.get("content")))


# -- MCP -------------------------------------------------------------------------------------


def is_mcp(r: Mapping[str, Any]) -> bool:
    if r.get("method") == "tools/call":
        return True
    result = r.get("result")
    return r.get("jsonrpc") == "2.0" or (
        isinstance(result, Mapping) and ("isError" in result or "structuredContent" in result)
    )


def load_mcp(records: Records, b: TraceBuilder) -> None:
    tools: dict[str, str] = {}
    for line, r in records:
        if not isinstance(r, Mapping):
            continue
        rid = r.get("id")
        key = None if rid is None else f"rpc-{rid}"
        if r.get("method") == "tools/call":
            params = as_mapping(r.get("params"))
            name = str(params.get("name") or "?")
            if key is not None:
                tools[key] = name
            b.call(key, name, params.get("arguments"), line)
        elif "result" in r or "error" in r:
            if key is None or key not in tools:
                continue  # a response to something other than tools/call (initialize, list)
            tools.pop(key)
            result = r.get("result")
            if isinstance(result, Mapping):
                output = [result.get("content"), result.get("structuredContent")]
                b.result(key, output, errored=bool(result.get("isError")))
            else:
                b.result(key, None, errored=True)


# -- ATIF ------------------------------------------------------------------------------------


def is_atif(r: Mapping[str, Any]) -> bool:
    return str(r.get("schema_version", "")).startswith("ATIF-")


def load_atif(records: Records, b: TraceBuilder) -> None:
    for _, doc in records:
        if not isinstance(doc, Mapping):
            continue
        for step in as_list(doc.get("steps")):
            if not isinstance(step, Mapping):
                continue
            for call in as_list(step.get("tool_calls")):
                if isinstance(call, Mapping):
                    b.call(
                        call.get("tool_call_id"),
                        str(call.get("function_name") or "?"),
                        call.get("arguments"),
                    )
            observation = step.get("observation")
            if isinstance(observation, Mapping):
                for res in as_list(observation.get("results")):
                    if isinstance(res, Mapping):
                        b.result(res.get("source_call_id"), res.get("content"))
            if step.get("source") == "agent" and not step.get("tool_calls"):
                b.said(step.get("message") if isinstance(step.get("message"), str) else None)
