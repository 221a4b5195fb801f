"""The OpenAI Agents SDK tracing processor, set as the only processor (nothing is exported).

Spans come from the SDK itself: ``trace``/``function_span`` directly, and a real
``Runner.run`` of an ``Agent`` with a real ``function_tool``, driven by a scripted ``Model``
(the SDK's model interface, implemented locally, so no request leaves the machine).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

pytest.importorskip("agents")

import agents
from agents import Agent, ModelResponse, RunConfig, Runner, Usage, function_tool
from agents.models.interface import Model
from agents.tracing import function_span, trace
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

import groundcheck
from groundcheck.integrations.openai_agents import GroundcheckProcessor


@pytest.fixture
def processor() -> Iterator[GroundcheckProcessor]:
    """The processor as the SDK's only one, restored to the default afterwards."""
    mine = GroundcheckProcessor()
    agents.set_trace_processors([mine])
    yield mine
    agents.set_trace_processors([])


def test_function_spans_are_buffered_per_trace(processor: GroundcheckProcessor) -> None:
    """Each trace keeps its own calls; audit() defaults to the last finished trace."""
    with trace("first") as first, function_span("arxiv_search", input='{"q": "rag"}') as span:
        span.span_data.output = [{"arxiv_id": "2005.11401", "title": "RAG"}]
    with trace("second"), function_span("arxiv_search", input='{"q": "dpr"}') as span:
        span.span_data.output = "arXiv:2004.04906"
    assert processor.audit("DPR is arXiv:2004.04906.").ok
    assert not processor.audit("DPR is arXiv:2004.04906.", trace_id=first.trace_id).ok
    assert processor.audit("RAG is arXiv:2005.11401.", first.trace_id).ok
    [record] = processor.records(first.trace_id)
    assert record["tool"] == "arxiv_search"
    assert record["input"] == '{"q": "rag"}'


def test_mcp_tool_spans_count(processor: GroundcheckProcessor) -> None:
    """An MCP tool call is a function span with mcp_data; its output is evidence too."""
    with trace("mcp"), function_span("fetch_paper", input='{"id": "x"}') as span:
        span.span_data.output = '[{"type": "text", "text": "doi:10.1000/xyz"}]'
        span.span_data.mcp_data = {"server": "papers"}
    assert processor.audit("See doi:10.1000/xyz.").ok


def test_failed_tool_span_is_an_errored_call(processor: GroundcheckProcessor) -> None:
    """A span with an error is a failed call, not evidence."""
    with trace("failing"), function_span("arxiv_search", input="{}") as span:
        span.set_error({"message": "Error running tool", "data": {"error": "timeout"}})
    verdict = processor.audit("See arXiv:2005.11401.")
    assert verdict.evidence.errored_calls == 1
    assert "empty-evidence-report" in [f.code for f in verdict.findings]


def test_audit_before_any_trace_is_a_clear_error(processor: GroundcheckProcessor) -> None:
    """No finished trace, or an unknown id: an InputError saying so."""
    with pytest.raises(groundcheck.InputError, match="no trace has finished yet"):
        processor.audit("x")
    with pytest.raises(groundcheck.InputError, match="no trace 'trace_nope'"):
        processor.audit("x", trace_id="trace_nope")


def test_old_traces_are_forgotten_beyond_the_bound() -> None:
    """``max_traces`` bounds memory, oldest first."""
    mine = GroundcheckProcessor(max_traces=2)
    agents.set_trace_processors([mine])
    try:
        ids = []
        for name in ("a", "b", "c"):
            with trace(name) as t:
                ids.append(t.trace_id)
        assert mine.trace_ids() == ids[1:]
    finally:
        agents.set_trace_processors([])


def test_hooks_are_thread_safe(processor: GroundcheckProcessor) -> None:
    """Spans ending on many threads at once are all kept."""

    def work(n: int) -> None:
        with trace(f"t{n}"):
            for i in range(20):
                with function_span("lookup", input="{}") as span:
                    span.span_data.output = f"arXiv:2004.{n:02d}{i:03d}"

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(processor.trace_ids()) == 8
    assert all(len(processor.records(t)) == 20 for t in processor.trace_ids())


def _message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="msg_1",
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


class ScriptedModel(Model):
    """Answers with a tool call first, then with the final text: the SDK's model interface."""

    def __init__(self, answer: str) -> None:
        self.turn = 0
        self.answer = answer

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        self.turn += 1
        if self.turn == 1:
            item: Any = ResponseFunctionToolCall(
                id="fc_1",
                call_id="call_1",
                type="function_call",
                name="arxiv_search",
                arguments=json.dumps({"query": "rag"}),
            )
        else:
            item = _message(self.answer)
        return ModelResponse(output=[item], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


@function_tool
def arxiv_search(query: str) -> list[dict[str, str]]:
    """Search arXiv."""
    return [{"arxiv_id": "2005.11401", "title": "Retrieval-Augmented Generation"}]


def _run(answer: str, config: RunConfig) -> str:
    agent = Agent(name="researcher", model=ScriptedModel(answer), tools=[arxiv_search])
    result = asyncio.run(Runner.run(agent, "find rag", run_config=config))
    return str(result.final_output)


def test_a_real_agent_run_is_audited(processor: GroundcheckProcessor) -> None:
    """Runner.run traces the tool call; the final output is audited against it."""
    report = _run("RAG is arXiv:2005.11401; DPR is arXiv:2004.04906.", RunConfig())
    verdict = processor.audit(report)
    [record] = processor.records()
    assert record["tool"] == "arxiv_search"
    assert record["input"] == '{"query": "rag"}'
    assert [(f.code, f.citation.id if f.citation else None) for f in verdict.findings] == [
        ("fabricated-id", "2004.04906")
    ]


def test_sensitive_data_off_means_not_recorded(processor: GroundcheckProcessor) -> None:
    """With trace_include_sensitive_data=False the outputs are a gap, never "empty"."""
    report = _run("RAG is arXiv:2005.11401.", RunConfig(trace_include_sensitive_data=False))
    [record] = processor.records()
    assert record["recorded"] is False
    verdict = processor.audit(report)
    assert verdict.evidence.empty_calls == 0
    assert sorted(f.code for f in verdict.findings) == ["fabricated-id", "outputs-not-recorded"]
    assert processor.audit(report, unrecorded_severity="warning").ok
