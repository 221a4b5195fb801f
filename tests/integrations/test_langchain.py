"""The LangChain callback handler on real ``langchain_core`` tool and retriever runs."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langchain_core.tools import create_retriever_tool, tool
from pydantic import BaseModel

import groundcheck
from groundcheck.integrations.langchain import GroundcheckCallbackHandler


class Paper(BaseModel):
    arxiv_id: str
    title: str


@tool
def arxiv_search(query: str) -> list[dict[str, str]]:
    """Search arXiv."""
    return [{"arxiv_id": "2005.11401", "title": "Retrieval-Augmented Generation"}]


@tool
def lookup(arxiv_id: str) -> Paper:
    """Look one paper up."""
    return Paper(arxiv_id=arxiv_id, title="Dense Passage Retrieval")


@tool
def broken(query: str) -> str:
    """Always fails."""
    raise RuntimeError("service unavailable")


@tool(response_format="content_and_artifact")
def screenshot(page: str) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """A page as an image; the artifact holds an id the model never sees."""
    return [{"type": "image", "base64": "iVBORw0KGgo=", "mime_type": "image/png"}], {
        "hidden": "arXiv:1706.03762"
    }


class StaticRetriever(BaseRetriever):
    """A retriever over two fixed documents, with their sources in metadata."""

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return [
            Document(
                page_content="Lewis et al. introduce RAG.",
                metadata={"source": "https://arxiv.org/abs/2005.11401"},
            ),
            Document(
                page_content="DPR retrieves passages.",
                metadata={"source": "https://arxiv.org/abs/2004.04906"},
            ),
        ]


def _config(handler: GroundcheckCallbackHandler) -> RunnableConfig:
    return {"callbacks": [handler]}


def test_tool_outputs_are_recorded_and_audited() -> None:
    """A real tool run is evidence; a citation no tool returned is fabricated."""
    handler = GroundcheckCallbackHandler()
    arxiv_search.invoke({"query": "rag"}, config=_config(handler))
    verdict = handler.audit("RAG (arXiv:2005.11401) beats DPR (arXiv:2004.04906).")
    assert isinstance(verdict, groundcheck.Verdict)
    assert [(f.code, f.citation.id if f.citation else None) for f in verdict.findings] == [
        ("fabricated-id", "2004.04906")
    ]
    [record] = handler.records()
    assert record["tool"] == "arxiv_search"
    assert record["input"] == {"query": "rag"}


def test_tool_call_invocation_reads_the_tool_message_and_its_id() -> None:
    """Invoked with a ToolCall, the tool returns a ToolMessage: its content counts, by call id."""
    handler = GroundcheckCallbackHandler()
    call = {
        "type": "tool_call",
        "name": "lookup",
        "args": {"arxiv_id": "2004.04906"},
        "id": "call_7",
    }
    message = lookup.invoke(call, config=_config(handler))
    assert message.tool_call_id == "call_7"
    [record] = handler.records()
    assert record["id"] == "call_7"
    assert "2004.04906" in str(record["output"])
    assert handler.audit("DPR is arXiv:2004.04906.").ok


def test_artifact_is_not_evidence_and_an_image_is_not_recorded() -> None:
    """An image-only ToolMessage is a gap; its artifact, which the model never saw, is ignored."""
    handler = GroundcheckCallbackHandler()
    call = {"type": "tool_call", "name": "screenshot", "args": {"page": "x"}, "id": "s1"}
    screenshot.invoke(call, config=_config(handler))
    [record] = handler.records()
    assert record["recorded"] is False
    verdict = handler.audit("See arXiv:1706.03762.")
    codes = [f.code for f in verdict.findings]
    assert "fabricated-id" in codes
    assert "outputs-not-recorded" in codes
    assert verdict.evidence.empty_calls == 0


def test_tool_error_is_recorded_as_failed() -> None:
    """A tool that raised is a failed call, and the handler lets the error reach the caller."""
    handler = GroundcheckCallbackHandler()
    with pytest.raises(RuntimeError, match="service unavailable"):
        broken.invoke({"query": "x"}, config=_config(handler))
    [record] = handler.records()
    assert record["error"] == "RuntimeError: service unavailable"
    verdict = handler.audit("See arXiv:2005.11401.")
    assert verdict.evidence.errored_calls == 1


def test_retriever_documents_are_evidence() -> None:
    """Documents a retriever returned ground the URLs in their metadata."""
    handler = GroundcheckCallbackHandler()
    StaticRetriever().invoke("rag", config=_config(handler))
    [record] = handler.records()
    assert record["tool"] == "StaticRetriever"
    assert handler.audit("See https://arxiv.org/abs/2004.04906 .").ok


def test_retriever_inside_a_tool_is_a_sub_run_kept_apart() -> None:
    """Wrapped as a tool, the retriever answers the tool, and only the tool's text reaches the
    agent: the URLs left in the documents' metadata are not evidence for the report."""
    handler = GroundcheckCallbackHandler()
    search = create_retriever_tool(StaticRetriever(), "search_docs", "Search the docs.")
    search.invoke({"query": "rag"}, config=_config(handler))
    [record] = handler.records()
    assert record["tool"] == "search_docs"
    verdict = handler.audit("See https://arxiv.org/abs/2004.04906 .")
    assert [f.code for f in verdict.findings] == ["fabricated-id"]


def test_audit_of_one_run_uses_the_calls_inside_it() -> None:
    """``run_id`` scopes the audit to one run: a sub-agent's tools answer the sub-agent."""
    handler = GroundcheckCallbackHandler()

    def sub_agent(question: str) -> str:
        lookup.invoke({"arxiv_id": "2004.04906"})  # callbacks propagate to child runs
        return "DPR is arXiv:2004.04906."

    agent = RunnableLambda(sub_agent)
    run_id = __import__("uuid").uuid4()
    agent.invoke("dpr?", config={"callbacks": [handler], "run_id": run_id})
    arxiv_search.invoke({"query": "rag"}, config=_config(handler))
    assert {r["tool"] for r in handler.records()} == {"lookup", "arxiv_search"}
    assert [r["tool"] for r in handler.records(run_id)] == ["lookup"]
    assert handler.audit("DPR is arXiv:2004.04906.", run_id=run_id).ok
    assert not handler.audit("RAG is arXiv:2005.11401.", run_id=run_id).ok


def test_batched_runs_from_threads_are_all_recorded() -> None:
    """``batch`` runs tools on worker threads; every run keeps its own record."""
    handler = GroundcheckCallbackHandler()
    lookup.batch([{"arxiv_id": f"2004.0490{i}"} for i in range(6)], config=_config(handler))
    ids = sorted(str(r["output"]["arxiv_id"]) for r in handler.records())
    assert ids == [f"2004.0490{i}" for i in range(6)]


def test_async_runs_are_recorded() -> None:
    """``ainvoke`` calls the same hooks."""
    handler = GroundcheckCallbackHandler()
    asyncio.run(arxiv_search.ainvoke({"query": "rag"}, config=_config(handler)))
    assert handler.audit("See arXiv:2005.11401.").ok


def test_options_and_reset() -> None:
    """Handler options set the policy; per-audit options override; reset forgets the runs."""
    with pytest.raises(ValueError, match="unknown audit option"):
        GroundcheckCallbackHandler(nonsense=True)
    handler = GroundcheckCallbackHandler(unrecorded_severity="warning")
    call = {"type": "tool_call", "name": "screenshot", "args": {"page": "x"}, "id": "s1"}
    screenshot.invoke(call, config=_config(handler))
    assert handler.audit("See arXiv:1706.03762.").ok
    assert not handler.audit("See arXiv:1706.03762.", unrecorded_severity="error").ok
    handler.reset()
    assert handler.records() == []
