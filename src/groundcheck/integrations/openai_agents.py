"""An OpenAI Agents SDK tracing processor that keeps what function tools returned, per trace.

``GroundcheckProcessor`` receives every span the SDK traces. It keeps the function-tool spans
(``FunctionSpanData``: name, input, output — MCP tool calls are function spans too) of each
trace, and ``processor.audit(report, trace_id=None)`` audits a report against the tool calls
of one trace (None: the last trace that finished).

When a run disables sensitive data (``RunConfig(trace_include_sensitive_data=False)``), the
SDK leaves a tool span's input and output unset: such a call is "not recorded", never
"empty", and the verdict says so. The hooks only copy references under a lock — no
extraction, no I/O — so they never block the agent, and they never raise into it.

Add it next to the default exporter with ``agents.add_trace_processor(processor)``, or
instead of it (nothing leaves the machine) with ``agents.set_trace_processors([processor])``.
Install with ``pip install 'groundcheck-citations[openai-agents]'``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import groundcheck
from groundcheck.integrations._missing import missing
from groundcheck.integrations._records import record

try:
    from agents.tracing import FunctionSpanData, Span, Trace, TracingProcessor
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing(
        "the Agents SDK tracing processor", "openai-agents", "agents", "openai-agents"
    ) from exc

__all__ = ["GroundcheckProcessor"]


class _Call:
    """A finished function span, copied as it was when it ended."""

    __slots__ = ("call_id", "error", "input", "output", "recorded", "tool")

    def __init__(self, span: Span[Any], data: FunctionSpanData) -> None:
        self.tool = data.name
        self.call_id = span.span_id
        self.input = data.input
        self.output = data.output
        error = span.error
        self.error = str(error.get("message") or "the tool failed") if error else None
        # With sensitive data off the SDK sets neither field; with it on, input is the
        # arguments string ("{}" when there are none), so a missing input means not recorded.
        self.recorded = data.input is not None or data.output is not None

    def native(self) -> dict[str, Any]:
        return record(
            self.tool,
            self.call_id,
            self.input,
            self.output,
            error=self.error,
            recorded=self.recorded,
        )


class GroundcheckProcessor(TracingProcessor):
    """Buffers function-tool outputs per trace; :meth:`audit` checks a report against them.

    ``options`` are groundcheck policy fields, used by every audit. ``max_traces`` bounds
    the memory: the oldest finished traces are forgotten first.
    """

    def __init__(self, *, max_traces: int = 256, **options: Any) -> None:
        if max_traces < 1:
            raise groundcheck.ConfigError(f"max_traces must be at least 1, got {max_traces}")
        self._policy = groundcheck.Policy().with_options(**options)
        self._max_traces = max_traces
        self._lock = threading.Lock()
        self._calls: OrderedDict[str, list[_Call]] = OrderedDict()
        self._finished: list[str] = []

    # -- what the SDK calls ---------------------------------------------------------------

    def on_trace_start(self, trace: Trace) -> None:
        with self._lock:
            self._calls.setdefault(trace.trace_id, [])
            self._trim()

    def on_trace_end(self, trace: Trace) -> None:
        with self._lock:
            trace_id = trace.trace_id
            self._calls.setdefault(trace_id, [])
            if trace_id in self._finished:
                self._finished.remove(trace_id)
            self._finished.append(trace_id)
            while len(self._finished) > self._max_traces:
                self._calls.pop(self._finished.pop(0), None)

    def _trim(self) -> None:
        # Traces that never end (an agent killed mid-run) must not grow the buffer forever.
        while len(self._calls) > 2 * self._max_traces:
            oldest = next(iter(self._calls))
            del self._calls[oldest]
            if oldest in self._finished:
                self._finished.remove(oldest)

    def on_span_start(self, span: Span[Any]) -> None:
        return None

    def on_span_end(self, span: Span[Any]) -> None:
        try:
            data = span.span_data
            if not isinstance(data, FunctionSpanData):
                return
            call = _Call(span, data)
            with self._lock:
                if span.trace_id not in self._calls:
                    self._calls[span.trace_id] = []
                    self._trim()
                self._calls[span.trace_id].append(call)
        except Exception:  # a tracing hook must never break the agent run
            return

    def shutdown(self) -> None:
        return None

    def force_flush(self) -> None:
        return None

    # -- what the user calls --------------------------------------------------------------

    def trace_ids(self) -> list[str]:
        """The finished traces still buffered, oldest first."""
        with self._lock:
            return list(self._finished)

    def records(self, trace_id: str | None = None) -> list[dict[str, Any]]:
        """Native records of one trace's function-tool calls (None: the last finished trace)."""
        with self._lock:
            if trace_id is None:
                if not self._finished:
                    raise groundcheck.InputError(
                        "no trace has finished yet: run the agent inside a trace first",
                        source="GroundcheckProcessor",
                    )
                trace_id = self._finished[-1]
            calls = self._calls.get(trace_id)
            if calls is None:
                raise groundcheck.InputError(
                    f"no trace {trace_id!r} (unknown, or forgotten after {self._max_traces})",
                    source="GroundcheckProcessor",
                )
            calls = list(calls)
        return [c.native() for c in calls]

    def audit(
        self, report: str, trace_id: str | None = None, **options: Any
    ) -> groundcheck.Verdict:
        """Audit ``report`` against the tool calls of ``trace_id`` (None: the last finished).

        ``options`` override the processor's policy fields for this audit only.
        """
        policy = self._policy.with_options(**options) if options else self._policy
        return groundcheck.audit(report, self.records(trace_id), policy=policy)
