"""Chat-message traces: OpenAI Chat Completions and Responses, Anthropic Messages, LangChain,
Gemini, inspect-ai. What each records and what it does not: ``docs/formats.md``.

Each loader walks the messages in order and reports calls, results and assistant text to a
:class:`~groundcheck.evidence.trace.TraceBuilder`; it never judges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from groundcheck.evidence.trace import TraceBuilder, as_list, as_mapping, text_of

__all__ = [
    "is_anthropic",
    "is_gemini",
    "is_inspect",
    "is_langchain",
    "is_langgraph",
    "is_openai_chat",
    "is_responses",
    "load_anthropic",
    "load_gemini",
    "load_inspect",
    "load_langchain",
    "load_langgraph",
    "load_openai_chat",
    "load_responses",
]

Records = Iterable[tuple[int | None, Any]]


def _kind(record: Mapping[str, Any]) -> str | None:
    """A record's ``type`` when it is a string (traces are loose: it may be anything)."""
    kind = record.get("type")
    return kind if isinstance(kind, str) else None


def _tool_calls(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    calls = message.get("tool_calls")
    return [c for c in calls if isinstance(c, Mapping)] if isinstance(calls, list) else []


# -- OpenAI Chat Completions -----------------------------------------------------------------


def is_openai_chat(r: Mapping[str, Any]) -> bool:
    role = r.get("role")
    if role == "tool":
        return "tool_call_id" in r and not isinstance(r.get("function"), str)
    if role == "function":
        return "name" in r
    if role == "assistant":
        return any(isinstance(c.get("function"), Mapping) or "custom" in c for c in _tool_calls(r))
    return False


def _openai_call(c: Mapping[str, Any]) -> tuple[str, Any] | None:
    fn = c.get("function") or c.get("custom")
    if not isinstance(fn, Mapping):
        return None
    return str(fn.get("name") or "?"), fn.get("arguments", fn.get("input"))


def _inspect_call(c: Mapping[str, Any]) -> tuple[str, Any] | None:
    return str(c.get("function") or "?"), c.get("arguments")


def _load_chat(
    records: Records,
    b: TraceBuilder,
    call_of: Callable[[Mapping[str, Any]], tuple[str, Any] | None],
) -> None:
    """Role-based messages: assistant ``tool_calls``, ``role: tool`` results."""
    for line, m in records:
        if not isinstance(m, Mapping):
            continue
        role = m.get("role")
        if role == "assistant":
            calls = _tool_calls(m)
            for c in calls:
                parts = call_of(c)
                if parts is not None:
                    b.call(c.get("id"), parts[0], parts[1], line)
            legacy = m.get("function_call")
            if isinstance(legacy, Mapping):
                b.call(None, str(legacy.get("name") or "?"), legacy.get("arguments"), line)
            if not calls:
                b.said(text_of(m.get("content")))
        elif role == "tool":
            function = m.get("function")  # inspect-ai names the tool; OpenAI does not
            b.result(
                m.get("tool_call_id"),
                m.get("content"),
                tool=function if isinstance(function, str) else None,
                errored=bool(m.get("error")),
            )
        elif role == "function":
            b.result(None, m.get("content"), tool=str(m.get("name") or "?"))


def load_openai_chat(records: Records, b: TraceBuilder) -> None:
    _load_chat(records, b, _openai_call)


# -- inspect-ai ------------------------------------------------------------------------------


def _is_sample(r: Mapping[str, Any]) -> bool:
    """One sample of an inspect-ai log: ``id``, ``epoch``, ``messages``, ``output``."""
    return isinstance(r.get("messages"), list) and "epoch" in r and "id" in r


def is_inspect(r: Mapping[str, Any]) -> bool:
    if _is_sample(r):
        return True
    if r.get("role") == "tool":
        return isinstance(r.get("function"), str)
    if r.get("role") == "assistant":
        return any(isinstance(c.get("function"), str) for c in _tool_calls(r))
    return False


_ATTACHMENT = "attachment://"


def _resolve(value: Any, attachments: Mapping[str, Any], depth: int = 0) -> Any:
    """``value`` with ``attachment://<hash>`` strings replaced by the attachment they name
    (inspect-ai keeps long or repeated content once, under ``attachments``); messages keep
    their content a few levels deep, so deeper values are left as they are."""
    if isinstance(value, str):
        if value.startswith(_ATTACHMENT):
            found = attachments.get(value[len(_ATTACHMENT) :])
            return found if isinstance(found, str) else value
        return value
    if depth >= 8:
        return value
    if isinstance(value, Mapping):
        return {k: _resolve(v, attachments, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, attachments, depth + 1) for v in value]
    return value


def load_inspect(records: Records, b: TraceBuilder) -> None:
    """Messages, or whole samples: a sample's messages, then its ``output.completion``."""
    for line, r in records:
        if not isinstance(r, Mapping):
            continue
        if not _is_sample(r):
            _load_chat(((line, r),), b, _inspect_call)
            continue
        attachments = as_mapping(r.get("attachments"))
        messages = r["messages"]
        if attachments:
            messages = [_resolve(m, attachments) for m in messages]
        _load_chat(((line, m) for m in messages), b, _inspect_call)
        output = as_mapping(r.get("output"))
        completion = output.get("completion")
        if isinstance(completion, str) and completion.strip():
            b.said(_resolve(completion, attachments) if attachments else completion)
        error = as_mapping(r.get("error"))
        if error:
            b.note(f"inspect-ai: sample {r.get('id')} ended with an error: "
                   f"{str(error.get('message', ''))[:200]}")  # fmt: skip


# -- OpenAI Responses ------------------------------------------------------------------------

_RESPONSES_TYPES = frozenset(
    {
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "web_search_call",
        "file_search_call",
        "mcp_call",
        "computer_call",
    }
)


def is_responses(r: Mapping[str, Any]) -> bool:
    return _kind(r) in _RESPONSES_TYPES


def load_responses(records: Records, b: TraceBuilder) -> None:
    for line, item in records:
        if not isinstance(item, Mapping):
            continue
        kind = item.get("type")
        if kind in ("function_call", "custom_tool_call"):
            args = item.get("arguments", item.get("input"))
            b.call(item.get("call_id"), str(item.get("name") or "?"), args, line)
        elif kind in ("function_call_output", "custom_tool_call_output"):
            b.result(item.get("call_id"), item.get("output"))
        elif kind == "web_search_call":
            action = as_mapping(item.get("action"))
            sources = action.get("sources")
            b.call_and_result(
                item.get("id"),
                "web_search",
                {k: action.get(k) for k in ("query", "queries", "url", "pattern") if k in action},
                sources,
                recorded=sources is not None or action.get("type") == "open_page",
                errored=item.get("status") == "failed",
            )
            if sources is None and action.get("type") != "open_page":
                b.note(
                    "responses: web_search_call items carry no sources unless "
                    "include=['web_search_call.action.sources'] was requested"
                )
        elif kind == "file_search_call":
            results = item.get("results")
            b.call_and_result(
                item.get("id"),
                "file_search",
                {"queries": item.get("queries")},
                results,
                recorded=results is not None,
            )
        elif kind == "mcp_call":
            error = item.get("error")
            b.call_and_result(
                item.get("id"),
                str(item.get("name") or "mcp_call"),
                item.get("arguments"),
                item.get("output"),
                errored=bool(error),
            )
        elif kind == "message" and item.get("role") == "assistant":
            b.said(text_of(item.get("content")))


# -- Anthropic Messages ----------------------------------------------------------------------

_ANTHROPIC_BLOCKS = frozenset(
    {
        "tool_use",
        "tool_result",
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "mcp_tool_use",
        "mcp_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
    }
)


def _blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = message.get("content")
    return [c for c in content if isinstance(c, Mapping)] if isinstance(content, list) else []


def is_anthropic(r: Mapping[str, Any]) -> bool:
    return "role" in r and any(_kind(c) in _ANTHROPIC_BLOCKS for c in _blocks(r))


def anthropic_blocks(blocks: Iterable[Mapping[str, Any]], b: TraceBuilder, line: int | None) -> str:
    """Report each tool block to the builder; return the message's plain text."""
    text = []
    for block in blocks:
        kind = block.get("type")
        if kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
            b.call(block.get("id"), str(block.get("name") or "?"), block.get("input"), line)
        elif kind in ("tool_result", "mcp_tool_result"):
            b.result(
                block.get("tool_use_id"), block.get("content"), errored=bool(block.get("is_error"))
            )
        elif kind in ("web_search_tool_result", "web_fetch_tool_result") or (
            isinstance(kind, str) and kind.endswith("_tool_result")
        ):
            content = block.get("content")
            failed = isinstance(content, Mapping) and str(content.get("type", "")).endswith("error")
            b.result(block.get("tool_use_id"), None if failed else content, errored=failed)
        elif kind == "text" and isinstance(block.get("text"), str):
            text.append(block["text"])
    return "".join(text)


def load_anthropic(records: Records, b: TraceBuilder) -> None:
    for line, m in records:
        if not isinstance(m, Mapping):
            continue
        content = m.get("content")
        role = m.get("role")
        if role == "tool":
            # Anthropic blocks in LangChain's roles (human/ai/tool: a LangGraph state dumped
            # message by message): the answer is its own message, paired by id when it has
            # one, else with the oldest open call of its tool.
            call_id = m.get("tool_call_id") or m.get("tool_use_id")
            name = m.get("name")
            b.result(
                call_id if isinstance(call_id, str) else None,
                content,
                tool=name if isinstance(name, str) else None,
                errored=m.get("status") == "error",
            )
            continue
        text = anthropic_blocks(_blocks(m), b, line) if isinstance(content, list) else content
        if role in ("assistant", "ai") and isinstance(text, str):
            b.said(text)


# -- LangChain -------------------------------------------------------------------------------


def _langchain_message(r: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """(type, fields) of a message in messages_to_dict, dumpd or model_dump form."""
    if isinstance(r.get("data"), Mapping) and isinstance(r.get("type"), str):
        return r["type"], r["data"]
    if r.get("lc") == 1 and r.get("type") == "constructor" and isinstance(r.get("kwargs"), Mapping):
        ident = r.get("id")
        name = ident[-1] if isinstance(ident, list) and ident else ""
        kind = {"ToolMessage": "tool", "AIMessage": "ai", "HumanMessage": "human"}.get(name, name)
        return kind, r["kwargs"]
    if _kind(r) in _LC_TYPES:
        return r["type"], r
    return None


_LC_TYPES = frozenset({"ai", "tool", "human", "system", "AIMessageChunk"})


def is_langchain(r: Mapping[str, Any]) -> bool:
    if "run_type" in r or (r.get("lc") == 1 and r.get("type") == "constructor"):
        return True
    if _kind(r) not in _LC_TYPES:
        return False
    return isinstance(r.get("data"), Mapping) or "content" in r


def load_langchain(records: Records, b: TraceBuilder) -> None:
    for line, r in records:
        if not isinstance(r, Mapping):
            continue
        if "run_type" in r:  # LangSmith run export
            if r.get("run_type") in ("tool", "retriever"):
                b.call_and_result(
                    r.get("id"),
                    str(r.get("name") or r.get("run_type")),
                    r.get("inputs"),
                    r.get("outputs"),
                    errored=bool(r.get("error")) or r.get("status") == "error",
                    recorded="outputs" in r,
                )
            continue
        msg = _langchain_message(r)
        if msg is None:
            continue
        kind, data = msg
        if kind in ("ai", "AIMessageChunk"):
            calls = as_list(data.get("tool_calls"))
            for c in calls:
                if isinstance(c, Mapping):
                    b.call(c.get("id"), str(c.get("name") or "?"), c.get("args"), line)
            for c in as_list(data.get("invalid_tool_calls")):
                if isinstance(c, Mapping):
                    b.call(c.get("id"), str(c.get("name") or "?"), c.get("args"), line)
            if not calls:
                b.said(text_of(data.get("content")))
        elif kind == "tool":
            artifact = data.get("artifact")
            output = data.get("content") if artifact is None else [data.get("content"), artifact]
            b.result(
                data.get("tool_call_id"),
                output,
                tool=data.get("name") if isinstance(data.get("name"), str) else None,
                errored=data.get("status") == "error",
            )


# -- LangGraph -------------------------------------------------------------------------------


def _state_values(r: Mapping[str, Any]) -> Mapping[str, Any] | None:
    values = r.get("values")
    if isinstance(values, Mapping) and isinstance(values.get("messages"), list):
        return values
    return None


def is_langgraph(r: Mapping[str, Any]) -> bool:
    """A LangGraph thread state (``get_state``, the API's ``/threads/{id}/state``, one item of
    ``/history``) or thread: ``values.messages`` beside ``next``/``checkpoint``/``thread_id``."""
    return _state_values(r) is not None and any(
        k in r for k in ("next", "checkpoint", "thread_id", "parent_checkpoint", "tasks")
    )


def load_langgraph(records: Records, b: TraceBuilder) -> None:
    """Each state's messages, read as LangChain messages; a history repeats messages from one
    snapshot to the next, so a message id is read once."""
    seen: set[str] = set()
    for line, r in records:
        values = _state_values(r) if isinstance(r, Mapping) else None
        if values is None:
            continue
        fresh = []
        for m in values["messages"]:
            ident = m.get("id") if isinstance(m, Mapping) else None
            if isinstance(ident, str):
                if ident in seen:
                    continue
                seen.add(ident)
            fresh.append((line, m))
        load_langchain(fresh, b)


# -- Gemini ----------------------------------------------------------------------------------


def _parts(r: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    parts = r.get("parts")
    return [p for p in parts if isinstance(p, Mapping)] if isinstance(parts, list) else []


def is_gemini(r: Mapping[str, Any]) -> bool:
    return any("functionCall" in p or "functionResponse" in p for p in _parts(r))


def load_gemini(records: Records, b: TraceBuilder) -> None:
    for line, r in records:
        if not isinstance(r, Mapping):
            continue
        text = []
        for part in _parts(r):
            call = part.get("functionCall")
            response = part.get("functionResponse")
            if isinstance(call, Mapping):
                b.call(call.get("id"), str(call.get("name") or "?"), call.get("args"), line)
            elif isinstance(response, Mapping):
                body = response.get("response")
                failed = isinstance(body, Mapping) and "error" in body and len(body) == 1
                b.result(
                    response.get("id"),
                    body,
                    tool=str(response.get("name") or "?"),
                    errored=failed,
                )
            elif isinstance(part.get("text"), str) and not part.get("thought"):
                text.append(part["text"])
        if r.get("role") == "model" and text:
            b.said("".join(text))
