"""Coding-agent CLI transcripts: Claude Code and Gemini CLI ``stream-json``, Codex
``exec --json``. What each records and what it does not: ``docs/formats.md``.

All three may print plain-text lines between the JSON events; the reader skips and counts
them (see :mod:`groundcheck.evidence.jsonio`). Where a CLI logs a summary instead of what the
tool returned (Gemini CLI's ``read_file``, Codex ``web_search``), the call is marked as not
recorded rather than empty.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from groundcheck.evidence.chat import anthropic_blocks
from groundcheck.evidence.trace import DELEGATED, TraceBuilder

__all__ = [
    "is_claude_code",
    "is_codex",
    "is_gemini_cli",
    "load_claude_code",
    "load_codex",
    "load_gemini_cli",
]

Records = Iterable[tuple[int | None, Any]]

# -- Claude Code -----------------------------------------------------------------------------


def is_claude_code(r: Mapping[str, Any]) -> bool:
    kind = r.get("type")
    if kind in ("assistant", "user"):
        return isinstance(r.get("message"), Mapping)
    if kind == "system":
        return r.get("subtype") == "init" or "claude_code_version" in r
    return kind == "result" and ("num_turns" in r or "total_cost_usd" in r)


_DELEGATION_TOOLS = frozenset({"Task", "Agent", "dispatch_agent"})
"""Claude Code's tools that run a sub-agent and return its final message as their result
(``dispatch_agent`` in its first releases, ``Task``, then ``Agent``)."""


class _SubAgents:
    """Which delegation calls' sub-agents left tool results of their own in the transcript.

    ``stream-json`` marks a sub-agent's events with ``parent_tool_use_id`` (the ``Task`` call's
    id); a session log marks them ``isSidechain``. A sub-agent runs before its ``Task`` result
    comes back, so by then it is known whether its own tool results were recorded."""

    def __init__(self) -> None:
        self.open: set[str] = set()
        self.worked: set[str] = set()

    def see(self, r: Mapping[str, Any], blocks: list[Mapping[str, Any]]) -> None:
        kind = r.get("type")
        if kind == "assistant":
            for block in blocks:
                if block.get("type") == "tool_use" and block.get("name") in _DELEGATION_TOOLS:
                    call_id = block.get("id")
                    if isinstance(call_id, str):
                        self.open.add(call_id)
        elif kind == "user" and any(block.get("type") == "tool_result" for block in blocks):
            parent = r.get("parent_tool_use_id")
            if isinstance(parent, str):
                self.worked.add(parent)
            elif r.get("isSidechain") is True:
                self.worked.update(self.open)  # a session log names no parent: any open Task

    def reports(self, blocks: list[Mapping[str, Any]]) -> set[str]:
        """The ids of the results in ``blocks`` that are a worked sub-agent's report."""
        found = set()
        for block in blocks:
            call_id = block.get("tool_use_id")
            if block.get("type") == "tool_result" and call_id in self.open:
                if call_id in self.worked:
                    found.add(call_id)
                self.open.discard(call_id)
        return found


def load_claude_code(records: Records, b: TraceBuilder) -> None:
    agents = _SubAgents()
    for line, r in records:
        if not isinstance(r, Mapping):
            continue
        kind = r.get("type")
        message = r.get("message")
        if kind in ("assistant", "user") and isinstance(message, Mapping):
            content = message.get("content")
            if isinstance(content, list):
                blocks = [c for c in content if isinstance(c, Mapping)]
                agents.see(r, blocks)
                reports = agents.reports(blocks) if kind == "user" else set()
                if reports:
                    blocks = _delegated(blocks, reports, b)
                text = anthropic_blocks(blocks, b, line)
            else:
                text = content if isinstance(content, str) else ""
            if kind == "assistant" and r.get("parent_tool_use_id") is None:
                b.said(text)
        elif kind == "result" and isinstance(r.get("result"), str):
            b.said(r["result"])


def _delegated(
    blocks: list[Mapping[str, Any]], reports: set[str], b: TraceBuilder
) -> list[Mapping[str, Any]]:
    """Report the sub-agents' reports among ``blocks`` as not evidence; the other blocks."""
    rest = []
    for block in blocks:
        call_id = block.get("tool_use_id")
        if block.get("type") == "tool_result" and call_id in reports:
            b.result(call_id, block.get("content"), excluded=DELEGATED)
        else:
            rest.append(block)
    return rest


# -- Gemini CLI ------------------------------------------------------------------------------

_GEMINI_SUMMARY = re.compile(
    r"^(?:"
    r"Content processed from prompt\."
    r"|Content for \S{1,4000} processed using fallback fetch\."
    r"|Search results for \".{0,2000}\" returned(?: \(\d+ results?\))?\."
    r"|Listed \d+ item\(s\)\.?(?: \(\d+ (?:git-)?ignored\))?"
    r"|Found \d+ match(?:es)?(?: \(limited\))?"
    r"|Found \d+ matching file\(s\)"
    r"|Read (?:lines? \d+(?:-\d+)? of \d+|\d+ (?:file|line)s?|(?:pdf|image|audio|video) file)"
    r".{0,4000}"
    r"|Successfully read and concatenated content from \*\*\d+ file\(s\)\*\*.{0,100000}"
    r")$",
    re.DOTALL,
)
"""What Gemini CLI's ``stream-json`` writes as a ``tool_result``'s ``output``: the tool's
``returnDisplay``, a one-line summary for these tools, never what the model was given."""
_GEMINI_READERS = frozenset({"read_file", "read_many_files", "list_directory", "glob"})


def is_gemini_cli(r: Mapping[str, Any]) -> bool:
    kind = r.get("type")
    if kind in ("tool_use", "tool_result"):
        return "tool_id" in r
    if kind == "message":  # Responses API messages have list content; Gemini CLI a string
        return "role" in r and isinstance(r.get("content"), str)
    return kind == "init" and "model" in r and "message" not in r


def load_gemini_cli(records: Records, b: TraceBuilder) -> None:
    tools: dict[str, str] = {}
    assistant: list[str] = []
    for line, r in records:
        if not isinstance(r, Mapping):
            continue
        kind = r.get("type")
        if kind == "tool_use":
            name = str(r.get("tool_name") or "?")
            key = b.call(r.get("tool_id"), name, r.get("parameters"), line)
            tools[key] = name
        elif kind == "tool_result":
            key = str(r.get("tool_id") or "")
            output = r.get("output")
            errored = r.get("status") not in (None, "success")
            text = output.strip() if isinstance(output, str) else None
            if "output" not in r and not errored:
                recorded = False
                b.note(
                    "gemini-cli: some tool_result events have no output field (this build logs "
                    "only string displays, e.g. none for shell commands); those outputs were "
                    "not recorded"
                )
            elif text is not None and _GEMINI_SUMMARY.match(text) is not None:
                recorded = False
                b.note(
                    "gemini-cli: stream-json logs a one-line summary for some tools (web_fetch, "
                    "google_web_search, read_file, glob, ...); the content the model saw was "
                    "not recorded"
                )
            elif text == "" and tools.get(key) in _GEMINI_READERS:
                recorded = False
                b.note(
                    "gemini-cli: read_file/list_directory results are logged as a summary; "
                    "the content the agent saw was not recorded"
                )
            else:
                recorded = True
            error = r.get("error")
            b.result(
                r.get("tool_id"),
                output if output is not None or not isinstance(error, Mapping) else error,
                errored=errored,
                recorded=recorded,
            )
            assistant.clear()
        elif kind == "message" and r.get("role") == "assistant":
            content = r.get("content")
            if isinstance(content, str):
                if r.get("delta"):
                    assistant.append(content)
                else:
                    assistant[:] = [content]
                b.said("".join(assistant))


# -- Codex -----------------------------------------------------------------------------------


def is_codex(r: Mapping[str, Any]) -> bool:
    kind = r.get("type")
    return isinstance(kind, str) and (
        kind in ("thread.started", "turn.started", "turn.completed", "turn.failed")
        or (kind.startswith("item.") and isinstance(r.get("item"), Mapping))
    )


def load_codex(records: Records, b: TraceBuilder) -> None:
    for _, r in records:
        if not isinstance(r, Mapping) or r.get("type") != "item.completed":
            continue
        item = r.get("item")
        if not isinstance(item, Mapping):
            continue
        kind = item.get("type")
        iid = item.get("id")
        if kind == "command_execution":
            exit_code = item.get("exit_code")
            b.call_and_result(
                iid,
                "command_execution",
                {"command": item.get("command")},
                item.get("aggregated_output"),
                errored=item.get("status") == "failed"
                or (isinstance(exit_code, int) and exit_code != 0),
            )
        elif kind == "web_search":
            b.call_and_result(iid, "web_search", {"query": item.get("query")}, None, recorded=False)
            b.note("codex: web_search items record only the query, not the results")
        elif kind == "mcp_tool_call":
            error = item.get("error")
            result = item.get("result")
            b.call_and_result(
                iid,
                str(item.get("tool") or "mcp_tool_call"),
                item.get("arguments"),
                result,
                errored=bool(error) or item.get("status") == "failed",
                recorded="result" in item or bool(error),
            )
        elif kind == "file_change":
            b.call_and_result(iid, "file_change", {"changes": item.get("changes")}, None)
        elif kind == "agent_message":
            b.said(item.get("text") if isinstance(item.get("text"), str) else None)
