"""A LangChain / LangGraph callback handler that records what tools returned, to audit a report.

``GroundcheckCallbackHandler`` listens to tool and retriever runs (``on_tool_start`` /
``on_tool_end`` / ``on_tool_error``, ``on_retriever_start`` / ``on_retriever_end`` /
``on_retriever_error``), pairs start and end by ``run_id``, and keeps one record per run.
``handler.audit(report)`` then audits a report against them.

Sub-runs are kept apart: a tool or retriever run *inside* another tool run (a retriever
wrapped as a tool, an agent used as a tool) returned its output to that tool, not to the
agent, so it is not evidence for the agent's report — only the outer tool's output is.
``handler.audit(report, run_id=...)`` audits the report of one run (a sub-agent, say) against
the tools that run called directly.

Outputs arrive as whatever the tool returned: a ``ToolMessage`` is read by its ``content``
(its ``artifact`` never reaches the model, so it is not evidence); documents by their
``page_content`` and ``metadata``; pydantic models, dataclasses and bytes are converted;
images and other unreadable outputs are recorded as "not recorded", never as empty. The
handler never raises into the chain.

Install with ``pip install 'groundcheck-citations[langchain]'``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import groundcheck
from groundcheck.integrations._missing import missing
from groundcheck.integrations._records import NOT_HANDLED, record

try:
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.documents import Document
    from langchain_core.messages import BaseMessage, ToolMessage
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing(
        "the LangChain callback handler", "langchain-core", "langchain_core", "langchain"
    ) from exc

__all__ = ["GroundcheckCallbackHandler"]


def _special(value: Any) -> Any:
    """LangChain's own objects: what of them the model saw."""
    if isinstance(value, BaseMessage):
        return value.content
    if isinstance(value, Document):
        return {"page_content": value.page_content, "metadata": value.metadata}
    return NOT_HANDLED


class _Run:
    """One tool or retriever run: what it was asked, and what it returned once it ended."""

    __slots__ = ("call_id", "ended", "error", "input", "output", "tool")

    def __init__(self, tool: str, call_id: str, tool_input: Any) -> None:
        self.tool = tool
        self.call_id = call_id
        self.input = tool_input
        self.output: Any = None
        self.error: str | None = None
        self.ended = False

    def native(self) -> dict[str, Any]:
        # A run that has not ended returned nothing yet that anyone could cite: a gap.
        return record(
            self.tool,
            self.call_id,
            self.input,
            self.output,
            error=self.error,
            recorded=self.ended,
            special=_special,
        )


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


class GroundcheckCallbackHandler(BaseCallbackHandler):
    """Records tool and retriever outputs by run; ``audit(report)`` checks a report with them.

    ``options`` are groundcheck policy fields (``title_threshold=85``, ...), used by every
    :meth:`audit`; an unknown option is a :class:`groundcheck.ConfigError` at once.

    Thread-safe: LangChain may call handlers from worker threads.
    """

    raise_error = False  # a failing hook must never stop the user's chain

    def __init__(self, **options: Any) -> None:
        super().__init__()
        self._policy = groundcheck.Policy().with_options(**options)
        self._lock = threading.Lock()
        self._runs: dict[UUID, _Run] = {}
        self._parents: dict[UUID, UUID | None] = {}

    # -- what LangChain calls -------------------------------------------------------------

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        with self._lock:
            self._parents[run_id] = parent_run_id

    def on_tool_start(
        self,
        serialized: dict[str, Any] | None,
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = kwargs.get("name") or (serialized or {}).get("name") or "tool"
        call_id = kwargs.get("tool_call_id") or str(run_id)
        self._start(run_id, parent_run_id, str(name), str(call_id), inputs if inputs else input_str)

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        error = None
        if isinstance(output, ToolMessage) and output.status == "error":
            error = _text(output.content) or "the tool reported an error"
        self._end(run_id, output, error, kwargs.get("name"))

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._end(run_id, None, _error_text(error), kwargs.get("name"))

    def on_retriever_start(
        self,
        serialized: dict[str, Any] | None,
        query: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        name = kwargs.get("name") or (serialized or {}).get("name") or "retriever"
        self._start(run_id, parent_run_id, str(name), str(run_id), query)

    def on_retriever_end(
        self, documents: Sequence[Document], *, run_id: UUID, **kwargs: Any
    ) -> None:
        self._end(run_id, list(documents), None, None)

    def on_retriever_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._end(run_id, None, _error_text(error), None)

    def _start(
        self, run_id: UUID, parent: UUID | None, tool: str, call_id: str, tool_input: Any
    ) -> None:
        with self._lock:
            self._parents[run_id] = parent
            self._runs[run_id] = _Run(tool, call_id, tool_input)

    def _end(self, run_id: UUID, output: Any, error: str | None, name: Any) -> None:
        with self._lock:
            run = self._runs.get(run_id)
            if run is None:  # attached after the run started: still its output
                run = _Run(str(name or "tool"), str(run_id), None)
                self._runs[run_id] = run
                self._parents.setdefault(run_id, None)
            run.output, run.error, run.ended = output, error, True

    # -- what the user calls --------------------------------------------------------------

    def records(self, run_id: UUID | None = None) -> list[dict[str, Any]]:
        """Native records of the calls whose output reached ``run_id`` (None: the top level).

        A call counts when no other recorded call lies between it and ``run_id``: the output
        of a tool run inside another tool run went to that tool, not to the agent.
        """
        with self._lock:
            runs = list(self._runs.items())
            parents = dict(self._parents)
        calls = {key for key, _ in runs}
        chosen = []
        for key, run in runs:
            if key == run_id:
                continue
            if _direct(key, run_id, parents, calls):
                chosen.append(run.native())
        return chosen

    def audit(
        self, report: str, *, run_id: UUID | None = None, **options: Any
    ) -> groundcheck.Verdict:
        """Audit ``report`` against the calls of ``run_id`` (None: every top-level call).

        ``options`` override the handler's policy fields for this audit only.
        """
        policy = self._policy.with_options(**options) if options else self._policy
        return groundcheck.audit(report, self.records(run_id), policy=policy)

    def reset(self) -> None:
        """Forget every recorded run (reuse one handler across independent runs)."""
        with self._lock:
            self._runs.clear()
            self._parents.clear()


def _direct(
    key: UUID, scope: UUID | None, parents: dict[UUID, UUID | None], calls: set[UUID]
) -> bool:
    """True when ``key`` lies under ``scope`` (None: anywhere) with no call in between."""
    seen = {key}
    node = parents.get(key)
    while node is not None and node != scope:
        if node in calls or node in seen:
            return False
        seen.add(node)
        node = parents.get(node)
    return scope is None or node == scope


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            p if isinstance(p, str) else p.get("text", "")
            for p in content
            if isinstance(p, (str, dict))
        ]
        return " ".join(p for p in parts if isinstance(p, str) and p)
    return ""
