"""Anthropic content blocks under LangChain's roles (human / ai / tool), as a LangGraph state
dumped message by message holds them (tests/corpus/deepagents-langgraph-sources-from-memory)."""

from __future__ import annotations

import json
from pathlib import Path

import groundcheck


def _state(tmp_path: Path, tool_message: dict[str, object]) -> Path:
    messages = [
        {"role": "human", "content": "find MoE papers", "id": "h1"},
        {
            "role": "ai",
            "content": [
                {"type": "text", "text": "Searching."},
                {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "moe"}},
            ],
            "tool_calls": [{"name": "search", "args": {"q": "moe"}, "id": "toolu_1"}],
            "id": "run-1",
        },
        tool_message,
        {"role": "ai", "content": [{"type": "text", "text": "Done."}], "id": "run-2"},
    ]
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"messages": messages}), "utf-8")
    return path


def test_a_tool_message_without_a_call_id_answers_its_call(tmp_path: Path) -> None:
    """No ``tool_call_id``: paired with the open call of its tool, and its output counts."""
    path = _state(
        tmp_path,
        {"role": "tool", "name": "search", "id": "m3", "content": "Switch (arXiv:2101.03961)"},
    )
    trace = groundcheck.load_evidence(path)
    assert trace.format == "anthropic"
    (call,) = trace.evidence.calls
    assert call.recorded and call.call_id == "toolu_1"
    verdict = groundcheck.audit("Switch Transformers, arXiv:2101.03961.", trace.evidence)
    assert verdict.ok


def test_a_tool_message_with_a_call_id_is_paired_by_it(tmp_path: Path) -> None:
    """With a ``tool_call_id`` the file also reads as OpenAI chat, so detection refuses to
    guess (a clear error); named, the format pairs by the id."""
    path = _state(
        tmp_path,
        {"role": "tool", "tool_call_id": "toolu_1", "content": "GShard arXiv:2006.16668"},
    )
    (call,) = groundcheck.load_evidence(path, format="anthropic").evidence.calls
    assert call.tool == "search" and call.recorded
    assert "2006.16668" in {i.id for i in call.identifiers}
