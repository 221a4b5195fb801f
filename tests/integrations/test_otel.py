"""OpenTelemetry evaluation events, caught by the SDK's in-memory log record exporter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.trace import TracerProvider

import groundcheck
from groundcheck.integrations.otel import emit_evaluation

RAG = [{"tool": "arxiv_search", "input": {"q": "rag"}, "output": "arXiv:2005.11401"}]


@pytest.fixture
def exporter_and_provider() -> Iterator[tuple[InMemoryLogRecordExporter, LoggerProvider]]:
    """A logger provider whose records land in memory, shut down after the test."""
    exporter = InMemoryLogRecordExporter()
    provider = LoggerProvider()
    provider.add_log_record_processor(SimpleLogRecordProcessor(exporter))
    yield exporter, provider
    provider.shutdown()


def _one(exporter: InMemoryLogRecordExporter) -> Any:
    [readable] = exporter.get_finished_logs()
    return readable.log_record


def test_failing_verdict_is_an_evaluation_event(
    exporter_and_provider: tuple[InMemoryLogRecordExporter, LoggerProvider],
) -> None:
    """One fabricated of two cited ids: score 0.5, label fail, the summary as explanation."""
    exporter, provider = exporter_and_provider
    verdict = groundcheck.audit("RAG (arXiv:2005.11401) beats DPR (arXiv:2004.04906).", RAG)
    emit_evaluation(verdict, logger_provider=provider)
    record = _one(exporter)
    assert record.event_name == "gen_ai.evaluation.result"
    attributes = dict(record.attributes)
    assert attributes["gen_ai.evaluation.name"] == "groundcheck.grounded"
    assert attributes["gen_ai.evaluation.score.value"] == 0.5
    assert attributes["gen_ai.evaluation.score.label"] == "fail"
    explanation = attributes["gen_ai.evaluation.explanation"]
    assert explanation.startswith("FAIL: 1 error")
    assert "\n" not in explanation
    assert attributes["groundcheck.fabricated"] == 1
    assert attributes["groundcheck.cited"] == 2


def test_passing_verdict_scores_zero_and_passes(
    exporter_and_provider: tuple[InMemoryLogRecordExporter, LoggerProvider],
) -> None:
    """A grounded report: nothing fabricated, label pass."""
    exporter, provider = exporter_and_provider
    emit_evaluation(groundcheck.audit("RAG is arXiv:2005.11401.", RAG), logger_provider=provider)
    attributes = dict(_one(exporter).attributes)
    assert attributes["gen_ai.evaluation.score.value"] == 0.0
    assert attributes["gen_ai.evaluation.score.label"] == "pass"


def test_event_is_parented_to_the_evaluated_span(
    exporter_and_provider: tuple[InMemoryLogRecordExporter, LoggerProvider],
) -> None:
    """Given the span (or its context), the record carries that span's trace and span ids."""
    exporter, provider = exporter_and_provider
    tracer = TracerProvider().get_tracer("agent")
    verdict = groundcheck.audit("RAG is arXiv:2005.11401.", RAG)
    with tracer.start_as_current_span("invoke_agent") as span:
        context = span.get_span_context()
    emit_evaluation(verdict, logger_provider=provider, span_context=context)
    emit_evaluation(verdict, logger_provider=provider, span_context=span)
    for readable in exporter.get_finished_logs():
        assert readable.log_record.trace_id == context.trace_id
        assert readable.log_record.span_id == context.span_id


def test_global_logger_provider_is_the_default(
    exporter_and_provider: tuple[InMemoryLogRecordExporter, LoggerProvider],
) -> None:
    """Without ``logger_provider``, the event goes to the globally set provider."""
    from opentelemetry._logs import get_logger_provider, set_logger_provider

    exporter, provider = exporter_and_provider
    set_logger_provider(provider)  # the global can be set once per process
    if get_logger_provider() is not provider:
        pytest.skip("another test already set the global logger provider")
    emit_evaluation(groundcheck.audit("RAG is arXiv:2005.11401.", RAG))
    assert _one(exporter).event_name == "gen_ai.evaluation.result"
