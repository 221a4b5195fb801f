"""JSON documents whatever their layout: one line or pretty, wrapped or not, with keys beside.

A one-line document is exactly what ``json.dump(obj, f)`` writes; it must read like its
pretty-printed twin, whatever wrapper key holds the records.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from groundcheck.errors import UnknownFormat
from groundcheck.evidence import load_evidence
from groundcheck.model import Identifier

FIXTURES = Path(__file__).parent / "fixtures"
GROUNDED = Identifier("arxiv", "2101.03961")


def _jsonl(name: str) -> list[Any]:
    lines = (FIXTURES / name).read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.startswith("{")]


def _json(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text("utf-8"))


WRAPPED = {
    "messages + keys beside": lambda: {"model": "gpt-4o", "messages": _json("openai-chat.json"),
                                       "usage": {"total_tokens": 10}},
    "events": lambda: {"session": "s", "events": _jsonl("gemini-cli.jsonl")},
    "samples": lambda: {"eval": {"task": "t"}, "samples": [_json("inspect-ai.json")]},
    "resourceSpans + keys beside": lambda: {**_jsonl("otel.jsonl")[0], "exported_by": "x"},
    "data (agents sdk)": lambda: _json("openai-agents.json"),
    "values.messages (state)": lambda: {"values": {"messages": _json("langchain.json")}},
    "result.messages (nested)": lambda: {"status": "ok",
                                         "result": {"messages": _json("anthropic.json")}},
    "items": lambda: {"id": "resp_1", "items": _json("openai-responses.json")},
    "spans": lambda: {"trace_id": "t", "spans": _jsonl("openinference.jsonl")},
    "tool_calls (native)": lambda: {"run": "r1", "tool_calls": _jsonl("native.jsonl")},
}  # fmt: skip


@pytest.mark.parametrize("layout", ["one line", "pretty"])
@pytest.mark.parametrize("wrapper", list(WRAPPED))
def test_a_wrapped_document_reads_in_either_layout(
    tmp_path: Path, wrapper: str, layout: str
) -> None:
    doc = WRAPPED[wrapper]()
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(doc, indent=None if layout == "one line" else 2), "utf-8")
    trace = load_evidence(path)
    assert GROUNDED in trace.evidence.identifiers
    assert Identifier("arxiv", "2004.04906") not in trace.evidence.identifiers
    assert load_evidence(doc).evidence.identifiers == trace.evidence.identifiers


def test_one_line_and_pretty_give_the_same_evidence(tmp_path: Path) -> None:
    doc = {"messages": _json("openai-chat.json"), "model": "m"}
    (tmp_path / "a.json").write_text(json.dumps(doc), "utf-8")
    (tmp_path / "b.json").write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
    a, b = load_evidence(tmp_path / "a.json"), load_evidence(tmp_path / "b.json")
    assert a.evidence.to_dict() == b.evidence.to_dict() and a.report == b.report


def test_an_unknown_shape_says_how_to_read_it_as_records(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"raw_papers": [{"arxiv_id": "2101.03961"}]}), "utf-8")
    with pytest.raises(UnknownFormat, match="pass --evidence-format records"):
        load_evidence(path)
