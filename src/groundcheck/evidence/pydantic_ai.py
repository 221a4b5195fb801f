"""pydantic-ai message histories: ``result.all_messages_json()`` and
``ModelMessagesTypeAdapter.dump_json(...)``, a list of messages ``{"kind": "request" |
"response", "parts": [...]}`` whose parts carry a ``part_kind``.

- ``tool-call`` (in a response): ``tool_name``, ``args`` (a JSON string or an object),
  ``tool_call_id``;
- ``tool-return`` (in the next request): ``tool_name``, ``content`` (anything JSON),
  ``tool_call_id`` — the tool's output;
- ``retry-prompt`` with a ``tool_name``: the tool raised ``ModelRetry`` or its arguments failed
  validation — the call failed (its ``content`` is the error, never evidence);
- ``builtin-tool-call`` / ``builtin-tool-return``: a provider's own tool (web search, code
  execution), paired the same way;
- ``text`` parts of responses: what the agent wrote; the last one is the report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from groundcheck.evidence.trace import TraceBuilder, as_list

__all__ = ["is_pydantic_ai", "load_pydantic_ai"]

Records = Iterable[tuple[int | None, Any]]

_CALLS = frozenset({"tool-call", "builtin-tool-call"})
_RETURNS = frozenset({"tool-return", "builtin-tool-return"})
_KNOWN = frozenset(
    {"system-prompt", "user-prompt", "retry-prompt", "text", "thinking", "file", *_CALLS, *_RETURNS}
)


def _parts(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [p for p in as_list(message.get("parts")) if isinstance(p, Mapping)]


def is_pydantic_ai(r: Mapping[str, Any]) -> bool:
    """A message whose parts name their ``part_kind`` (every pydantic-ai part does)."""
    parts = _parts(r)
    return bool(parts) and all(p.get("part_kind") in _KNOWN for p in parts)


def _id(part: Mapping[str, Any]) -> str | None:
    value = part.get("tool_call_id")
    return value if isinstance(value, str) and value.strip() else None


def _name(part: Mapping[str, Any]) -> str | None:
    value = part.get("tool_name")
    return value if isinstance(value, str) and value else None


def load_pydantic_ai(records: Records, b: TraceBuilder) -> None:
    for line, message in records:
        if not isinstance(message, Mapping):
            continue
        text: list[str] = []
        for part in _parts(message):
            kind = part.get("part_kind")
            if kind in _CALLS:
                b.call(_id(part), _name(part) or "?", part.get("args"), line)
            elif kind in _RETURNS:
                b.result(_id(part), part.get("content"), tool=_name(part))
            elif kind == "retry-prompt" and _name(part) is not None:
                b.result(_id(part), None, tool=_name(part), errored=True)
            elif kind == "text" and isinstance(part.get("content"), str):
                text.append(part["content"])
        if text and message.get("kind", "response") == "response":
            b.said("".join(text))
