"""TraceBuilder behaviour shared by every loader: pairing, actions, self-echo, streaming."""

from __future__ import annotations

import contextlib
import json
import tracemalloc
from pathlib import Path

import pytest

from groundcheck import audit
from groundcheck.errors import InputError
from groundcheck.evidence import load_evidence
from groundcheck.evidence.trace import parse_arguments
from groundcheck.model import Identifier

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "sovereign-agent-v0.2.0"


def _jsonl(tmp_path: Path, name: str, events: list[object], noise: str = "") -> Path:
    path = tmp_path / name
    path.write_text(noise + "".join(json.dumps(e) + "\n" for e in events), "utf-8")
    return path


def _cc_tool(call_id: str, name: str, args: dict[str, object]) -> dict[str, object]:
    return {
        "type": "assistant",
        "message": {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": call_id, "name": name, "input": args}],
        },
    }


def _cc_result(call_id: str, content: str) -> dict[str, object]:
    return {
        "type": "user",
        "message": {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": call_id, "content": content}],
        },
    }


def test_reading_back_the_agents_own_file_is_not_evidence(tmp_path: Path) -> None:
    """Write notes.md with an id, Read it back: the id is still not grounded, and it says why."""
    path = _jsonl(
        tmp_path,
        "cc.jsonl",
        [
            _cc_tool("t1", "Write", {"file_path": "/w/notes.md", "content": "DPR is 2004.04906"}),
            _cc_result("t1", "File created successfully at: /w/notes.md"),
            _cc_tool("t2", "Read", {"file_path": "notes.md"}),
            _cc_result("t2", "DPR is 2004.04906"),
            {"type": "result", "result": "DPR (2004.04906).", "num_turns": 2},
        ],
    )
    trace = load_evidence(path)
    assert Identifier("arxiv", "2004.04906") not in trace.evidence.identifiers
    read = trace.evidence.calls[1]
    assert read.excluded == "reads back notes.md, which the agent wrote earlier in this run"
    assert trace.evidence.calls[0].action
    verdict = audit(trace.report or "", trace.evidence)
    codes = [f.code for f in verdict.findings]
    assert codes == ["empty-evidence-report", "fabricated-id"]
    assert "only read back the agent's own files" in verdict.findings[0].message
    data = json.loads(verdict.to_json())
    assert data["evidence"]["excluded"] == [{"call": "t2", "tool": "Read", "reason": read.excluded}]


def test_codex_cat_of_a_changed_file_is_not_evidence(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        "codex.jsonl",
        [
            {
                "type": "item.completed",
                "item": {
                    "id": "i1",
                    "type": "file_change",
                    "changes": [{"path": "report.md", "kind": "add"}],
                    "status": "completed",
                },
            },
            {
                "type": "item.completed",
                "item": {
                    "id": "i2",
                    "type": "command_execution",
                    "command": "bash -lc 'cat report.md'",
                    "aggregated_output": "see 2004.04906",
                    "exit_code": 0,
                },
            },
        ],
    )
    trace = load_evidence(path)
    assert trace.evidence.calls[1].excluded is not None
    assert trace.evidence.identifiers == frozenset()


def test_results_without_ids_pair_by_order_and_say_so(tmp_path: Path) -> None:
    """Gemini without ids: results answer the oldest open call of the same tool; noted."""
    doc = [
        {
            "role": "model",
            "parts": [
                {"functionCall": {"name": "a", "args": {}}},
                {"functionCall": {"name": "b", "args": {}}},
            ],
        },
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "b", "response": {"output": "2101.03961"}}}],
        },
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "a", "response": {"output": []}}}],
        },
    ]
    trace = load_evidence(doc)
    by_tool = {c.tool: c for c in trace.evidence.calls}
    assert by_tool["b"].identifiers == {Identifier("arxiv", "2101.03961")}
    assert by_tool["a"].empty
    assert any("paired with calls by order" in n for n in trace.evidence.notes)


def test_call_without_result_is_unrecorded(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, "cc.jsonl", [_cc_tool("t1", "WebSearch", {"query": "x"})])
    (call,) = load_evidence(path).evidence.calls
    assert not call.recorded


def test_truncated_last_line_is_skipped_with_a_note(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        "cc.jsonl",
        [_cc_tool("t1", "WebSearch", {"query": "x"}), _cc_result("t1", "2101.03961")],
    )
    with path.open("a", encoding="utf-8") as f:
        f.write('{"type": "assistant", "message": {"role": "ass')
    trace = load_evidence(path)
    assert Identifier("arxiv", "2101.03961") in trace.evidence.identifiers
    assert any("not valid JSON (truncated?): line 3" in n for n in trace.evidence.notes)


def test_deep_nesting_in_a_line_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(
        json.dumps(_cc_tool("t1", "X", {})) + "\n" + "[" * 10_000 + "]" * 10_000 + "\n", "utf-8"
    )
    with pytest.raises(InputError, match=r"deep\.jsonl:2: JSON nested too deeply"):
        load_evidence(path)


def test_deeply_nested_output_object_is_walked() -> None:
    """A Python caller's 10,000-level output is walked without recursion."""
    deep: object = "2101.03961"
    for _ in range(10_000):
        deep = {"content": [deep]}
    trace = load_evidence([{"tool": "t", "output": deep}])
    assert trace.evidence.identifiers == {Identifier("arxiv", "2101.03961")}


def test_binary_blobs_are_not_scanned() -> None:
    """Base64 image data is skipped (not text), so it neither grounds nor fills an output."""
    blob = "A" * 100_000 + "2101.03961"
    messages = [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t", "name": "shot", "input": {}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t",
                    "content": [{"type": "image", "source": {"type": "base64", "data": blob}}],
                }
            ],
        },
    ]
    (call,) = load_evidence(messages).evidence.calls
    assert call.identifiers == frozenset()


def test_invalid_json_arguments_are_kept_as_text() -> None:
    assert parse_arguments('{"q": "x"') == '{"q": "x"'
    assert parse_arguments('{"q": "x"}') == {"q": "x"}


def test_streaming_reads_in_bounded_memory(tmp_path: Path) -> None:
    """A 60 MB JSONL trace is read line by line: peak Python memory stays below its size.

    What is kept is each output's text (the words quotes are looked up in: here half the
    file), never the parsed lines or the file: reading it whole would take several times
    its size."""
    path = tmp_path / "big.jsonl"
    filler = "x" * 3000
    with path.open("w", encoding="utf-8") as f:
        for i in range(10_000):
            f.write(json.dumps(_cc_tool(f"t{i}", "WebSearch", {"query": filler})) + "\n")
            f.write(json.dumps(_cc_result(f"t{i}", f"{filler} 2101.{i:05d}")) + "\n")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        trace = load_evidence(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(trace.evidence.calls) == 10_000
    kept = sum(len(c.text or "") for c in trace.evidence.calls)
    assert kept < size * 0.55
    assert peak < size * 0.8, (peak, size)


def test_sovereign_session_folders() -> None:
    """The real sample runs: the failure is caught; the honest run warns about lost outputs."""
    apr23 = load_evidence(EXAMPLES / "apr23" / "sess_5b6bf0ea8f98")
    assert apr23.format == "sovereign-agent"
    assert apr23.report_path is not None and apr23.report_path.endswith("workspace/report.md")
    v = audit(apr23.report or "", apr23.evidence)
    assert [f.code for f in v.findings].count("fabricated-id") == 5
    assert "empty-evidence-report" in [f.code for f in v.findings]
    assert [c.action for c in apr23.evidence.calls] == [False] * 4 + [True, True]

    honest = load_evidence(EXAMPLES / "honest" / "sess_b40bd7824aed")
    v = audit(honest.report or "", honest.evidence)
    assert [f.code for f in v.findings] == [
        "outputs-not-recorded",
        "fabricated-id",  # one finding per work: it names the title, no second title warning
        "fabricated-id",
    ]
    for finding in v.findings[1:]:
        assert "did not record its output, which may hold it" in finding.message
    soft = audit(honest.report or "", honest.evidence, unrecorded_severity="warning")
    assert soft.ok


def test_sovereign_trace_with_outputs_grounds(tmp_path: Path) -> None:
    """A trace that does record outputs (a patched runtime) grounds as usual."""
    path = _jsonl(
        tmp_path,
        "trace.jsonl",
        [
            {
                "event_type": "executor.tool_called",
                "actor": "a",
                "payload": {
                    "tool": "web_lookup",
                    "arguments": {"query": "rag"},
                    "success": True,
                    "summary": "→ 1 result(s)",
                    "output": {"results": [{"arxiv": "2005.11401"}]},
                },
            }
        ],
    )
    trace = load_evidence(path)
    assert trace.evidence.identifiers == {Identifier("arxiv", "2005.11401")}
    assert trace.evidence.unrecorded_calls == ()


def test_result_for_an_unknown_call_id_is_still_evidence() -> None:
    """Regression (found by hypothesis): a result naming a call id never seen raised KeyError."""
    trace = load_evidence([{"role": "tool", "tool_call_id": "ghost", "content": "2101.03961"}])
    (call,) = trace.evidence.calls
    assert call.call_id == "ghost"
    assert Identifier("arxiv", "2101.03961") in call.identifiers


def test_loose_field_types_do_not_crash() -> None:
    """Regressions (found by hypothesis): a list 'type' and a number 'parts' are just ignored."""
    for records in ([{"role": None, "type": []}], [{"parts": 1, "role": None}]):
        with contextlib.suppress(InputError):
            load_evidence(records)


def _sub(
    record: dict[str, object], parent: str | None = None, sidechain: bool = False
) -> dict[str, object]:
    """A Claude Code event of a sub-agent: stream-json names its Task, a session log marks it."""
    if parent is not None:
        return {**record, "parent_tool_use_id": parent}
    return {**record, "isSidechain": True} if sidechain else record


_REPORT = {
    "type": "assistant",
    "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
}


@pytest.mark.parametrize(
    ("marking", "tool"),
    [("stream-json", "Task"), ("session-log", "Task"), ("stream-json", "Agent"),
     ("session-log", "dispatch_agent")],
)  # fmt: skip
def test_a_sub_agents_report_is_not_evidence_when_its_own_calls_are_recorded(
    tmp_path: Path, marking: str, tool: str
) -> None:
    """Claude Code's Task returns the sub-agent's final message: its words, not a tool's. With
    the sub-agent's own WebSearch in the transcript, an id only its report holds (invented by
    the sub-agent) is not returned; the one its search returned still is."""
    task = "toolu_task"
    parent, side = (task, False) if marking == "stream-json" else (None, True)
    path = _jsonl(
        tmp_path,
        "t.jsonl",
        [
            _cc_tool(task, tool, {"description": "find papers", "prompt": "RAG papers"}),
            _sub(_cc_tool("toolu_s1", "WebSearch", {"query": "rag"}), parent, side),
            _sub(_cc_result("toolu_s1", "Links: arxiv.org/abs/2005.11401"), parent, side),
            _cc_result(task, "Found arXiv:2005.11401 and arXiv:2401.99999."),
            _REPORT,
        ],
    )
    evidence = load_evidence(path).evidence
    (report,) = [c for c in evidence.calls if c.tool == tool]
    assert report.excluded is not None and "sub-agent" in report.excluded
    assert arxiv("2005.11401") in evidence.identifiers
    assert arxiv("2401.99999") not in evidence.identifiers
    assert any("sub-agent report" in n for n in evidence.notes)


def test_a_sub_agents_report_counts_when_its_own_calls_are_not_recorded(tmp_path: Path) -> None:
    """A transcript without the sub-agent's events: its report is all the trace has of what
    the sub-agent's tools returned, so it counts as before."""
    path = _jsonl(
        tmp_path,
        "t.jsonl",
        [
            _cc_tool("toolu_task", "Task", {"description": "d", "prompt": "p"}),
            _cc_result("toolu_task", "Found arXiv:2005.11401."),
            _REPORT,
        ],
    )
    evidence = load_evidence(path).evidence
    assert arxiv("2005.11401") in evidence.identifiers
    assert all(c.excluded is None for c in evidence.calls)


def arxiv(id_: str) -> Identifier:
    return Identifier("arxiv", id_)
