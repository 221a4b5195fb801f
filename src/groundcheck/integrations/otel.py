"""A verdict as an OpenTelemetry GenAI evaluation event (``gen_ai.evaluation.result``).

OpenTelemetry's GenAI semantic conventions describe an evaluation of a model's output as an
event; in the Python SDK (1.45) an event is a log record with an ``event_name``. The event
carries:

- ``gen_ai.evaluation.name``: ``groundcheck.grounded``;
- ``gen_ai.evaluation.score.value``: fabricated identifiers / cited identifiers (0.0 when
  nothing is cited) — lower is better;
- ``gen_ai.evaluation.score.label``: ``pass`` (no error finding) or ``fail``;
- ``gen_ai.evaluation.explanation``: the summary line ``groundcheck audit`` prints;

and ``groundcheck.*`` attributes with the counts every groundcheck integration reports. Given
the span (or span context) of the evaluated operation, the event is parented to it, so
observability backends show it on that span.

Install with ``pip install 'groundcheck-citations[otel]'`` (the API and SDK).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import groundcheck
from groundcheck.integrations._scores import counts, fabrication_rate, summary

if TYPE_CHECKING:
    from opentelemetry._logs import LoggerProvider
    from opentelemetry.trace import Span, SpanContext

__all__ = ["EVALUATION_NAME", "EVENT_NAME", "emit_evaluation", "evaluation_attributes"]

EVENT_NAME = "gen_ai.evaluation.result"
EVALUATION_NAME = "groundcheck.grounded"


def evaluation_attributes(verdict: groundcheck.Verdict) -> dict[str, str | int | float]:
    """The event's attributes: the GenAI evaluation fields, then groundcheck's counts.

    >>> import groundcheck
    >>> verdict = groundcheck.audit("See arXiv:2005.11401.", [
    ...     {"tool": "search", "input": "rag", "output": "arXiv:2004.04906"}])
    >>> attributes = evaluation_attributes(verdict)
    >>> attributes["gen_ai.evaluation.score.label"], attributes["gen_ai.evaluation.score.value"]
    ('fail', 1.0)
    """
    attributes: dict[str, str | int | float] = {
        "gen_ai.evaluation.name": EVALUATION_NAME,
        "gen_ai.evaluation.score.value": fabrication_rate(verdict),
        "gen_ai.evaluation.score.label": "pass" if verdict.ok else "fail",
        "gen_ai.evaluation.explanation": summary(verdict),
    }
    attributes.update({f"groundcheck.{name}": n for name, n in counts(verdict).items()})
    return attributes


def emit_evaluation(
    verdict: groundcheck.Verdict,
    *,
    logger_provider: LoggerProvider | None = None,
    span_context: SpanContext | Span | None = None,
) -> None:
    """Emit ``verdict`` as a ``gen_ai.evaluation.result`` event.

    ``logger_provider`` defaults to the global one (``opentelemetry._logs.
    set_logger_provider``). ``span_context`` is the evaluated operation's span or its
    context; without it, the event takes the current span, as any log record does.
    """
    from groundcheck.integrations._missing import missing

    try:
        from opentelemetry import trace
        from opentelemetry._logs import SeverityNumber, get_logger_provider
    except ImportError as exc:
        raise missing("emit_evaluation", "opentelemetry-sdk", "opentelemetry", "otel") from exc

    provider = logger_provider if logger_provider is not None else get_logger_provider()
    logger = provider.get_logger("groundcheck", groundcheck.__version__)
    context: Any = None
    if span_context is not None:
        if isinstance(span_context, trace.Span):
            span_context = span_context.get_span_context()
        context = trace.set_span_in_context(trace.NonRecordingSpan(span_context))
    logger.emit(
        event_name=EVENT_NAME,
        attributes=evaluation_attributes(verdict),
        context=context,
        severity_number=SeverityNumber.INFO,
    )
