"""An inspect-ai scorer: is the sample's final answer grounded in what its tools returned?

``groundcheck_scorer(**options)`` is an inspect ``@scorer``. For each sample it turns the tool
messages of ``state.messages`` into native tool-call records (output: the tool message's
content; input: the arguments of the assistant's tool call with the same id; error: the tool
message's error) and audits ``state.output.completion`` against them. Deterministic and
offline: no grader model.

- ``Score.value``: ``{"grounded": 1.0 | 0.0, "cited": ..., "fabricated": ..., ...}``
  (``grounded`` is 1.0 when the verdict holds no error; the counts are those of every
  groundcheck integration).
- ``Score.explanation``: the text verdict, each line citing the transcript message it is
  about (``[M5]:7:28: error: fabricated-id: ...``); ``Score.metadata["scanner_references"]``
  maps those cites to message ids, so Inspect View links them.
- ``Score.metadata["groundcheck"]``: the verdict JSON (``verdict.to_dict()``).
- Metrics on ``grounded``: ``accuracy()`` and ``ci_wilson()`` (the Wilson interval), clustered
  by a sample-metadata key when ``cluster="task"`` (say) is given.
- A sample with no final text is unscored (``Score.unscored(reason="no_response")``).

Install with ``pip install 'groundcheck-citations[inspect]'``.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, cast

import groundcheck
from groundcheck.integrations._missing import missing
from groundcheck.integrations._records import NOT_HANDLED, UNREADABLE, record
from groundcheck.integrations._scores import counts, text

try:
    from inspect_ai.model import (
        ChatMessage,
        ChatMessageAssistant,
        ChatMessageTool,
        ContentReasoning,
        ContentText,
    )
    from inspect_ai.scorer import (
        Metric,
        SampleScore,
        Score,
        Scorer,
        Target,
        Value,
        accuracy,
        scorer,
    )
    from inspect_ai.solver import TaskState
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing("the inspect-ai scorer", "inspect-ai", "inspect_ai", "inspect") from exc

_wilson: Callable[..., Metric] | None
try:
    from inspect_ai.scorer import ci_wilson

    _wilson = ci_wilson
except ImportError:  # pragma: no cover - inspect-ai releases before ci_wilson
    _wilson = None


__all__ = ["evidence_from_messages", "groundcheck_scorer"]

SCORER_NAME = "groundcheck_scorer"


def _content(value: Any) -> Any:
    """Text parts read as their text; reasoning is the model's, never a tool's output."""
    if isinstance(value, ContentText):
        return value.text
    if isinstance(value, ContentReasoning):
        return UNREADABLE
    return NOT_HANDLED


def _cite(index: int) -> str:
    return f"[M{index + 1}]"


def evidence_from_messages(
    messages: Sequence[ChatMessage],
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Native records for the tool messages, and the message index of each record's call id.

    A tool call the model asked for but that has no tool message returned nothing to the
    agent, so it is not a record.
    """
    arguments: dict[str, Any] = {}
    for message in messages:
        if isinstance(message, ChatMessageAssistant):
            for call in message.tool_calls or ():
                arguments[call.id] = call.arguments
    records: list[dict[str, Any]] = []
    where: dict[str, int] = {}
    for index, message in enumerate(messages):
        if not isinstance(message, ChatMessageTool):
            continue
        call_id = message.tool_call_id or f"M{index + 1}"
        error = (message.error.message or message.error.type) if message.error else None
        records.append(
            record(
                message.function,
                call_id,
                arguments.get(call_id),
                message.content,
                error=error,
                special=_content,
            )
        )
        where[call_id] = index
    return records, where


def _report_index(state: TaskState) -> int | None:
    wanted = state.output.message.id if state.output.choices else None
    for index in range(len(state.messages) - 1, -1, -1):
        message = state.messages[index]
        if isinstance(message, ChatMessageAssistant) and (wanted is None or message.id == wanted):
            return index
    return None


def _references(
    verdict: groundcheck.Verdict,
    messages: Sequence[ChatMessage],
    report_at: int | None,
    where: Mapping[str, int],
) -> tuple[list[str], list[dict[str, Any]]]:
    """Lines naming the tool messages findings are about, and Inspect View's references."""
    cited: dict[int, None] = {}
    if report_at is not None:
        cited[report_at] = None
    lines: list[str] = []
    for finding in verdict.findings:
        at = [where[c] for c in finding.calls if c in where]
        if at:
            lines.append(f"{finding.code}: tool messages {' '.join(_cite(i) for i in at)}")
            cited.update(dict.fromkeys(at))
    refs = [
        {"type": "message", "cite": _cite(i), "id": messages[i].id}
        for i in sorted(cited)
        if messages[i].id is not None
    ]
    return lines, refs


def _score(verdict: groundcheck.Verdict, state: TaskState, where: Mapping[str, int]) -> Score:
    report_at = _report_index(state)
    path = _cite(report_at) if report_at is not None else "report"
    lines, refs = _references(verdict, state.messages, report_at, where)
    explanation = text(verdict, path) + "".join(f"{line}\n" for line in lines)
    value: dict[str, str | int | float | bool | None] = {"grounded": 1.0 if verdict.ok else 0.0}
    value.update(counts(verdict))
    metadata = {"groundcheck": json.loads(verdict.to_json()), "scanner_references": refs}
    return Score(value=value, explanation=explanation, metadata=metadata)


def _unscored(reason: str, explanation: str) -> Score:
    if hasattr(Score, "unscored"):
        return Score.unscored(reason=reason, explanation=explanation)
    return Score(value=float("nan"), explanation=explanation)  # pragma: no cover - old inspect


UNESTIMABLE: dict[str, float] = {"lower": 0.0, "upper": 1.0}
"""The clustered interval while fewer than two clusters have been scored: every rate is
possible. inspect computes the progress line's metrics after each sample, and its own clustered
``ci_wilson`` raises on one cluster, which fails the whole eval."""


def _clustered_wilson(wilson: Callable[..., Metric], cluster: str) -> Metric:
    """inspect's ``ci_wilson(cluster=...)``, answering :data:`UNESTIMABLE` instead of raising
    while the scores so far hold fewer than two clusters. A sample without the cluster key
    still raises (inspect's error names it): that is a misconfigured task, not a partial one.

    The wrapper carries the wrapped metric's attributes (``functools.update_wrapper`` copies
    its ``__dict__``), so inspect logs it as ``ci_wilson`` with its ``cluster`` param.
    """
    clustered = cast(Callable[[list[SampleScore]], Value], wilson(cluster=cluster))

    def compute(scores: list[SampleScore]) -> Value:
        seen = set()
        for sample_score in scores:
            key = (sample_score.sample_metadata or {}).get(cluster)
            if key is None or (isinstance(key, float) and math.isnan(key)):
                return clustered(scores)
            seen.add(key)
        if len(seen) < 2:
            return dict(UNESTIMABLE)
        return clustered(scores)

    functools.update_wrapper(compute, clustered, assigned=(), updated=("__dict__",))
    return cast(Metric, compute)


def _metrics(cluster: str | None) -> dict[str, list[Metric]]:
    metrics: list[Metric] = [accuracy()]
    if _wilson is not None:
        if cluster is None:
            metrics.append(_wilson())
        else:
            metrics.append(_clustered_wilson(_wilson, cluster))
    return {"grounded": metrics}


def _make(options: Mapping[str, Any]) -> Scorer:
    policy = groundcheck.Policy().with_options(**options)  # a bad option fails at task build

    async def score(state: TaskState, target: Target) -> Score:
        report = state.output.completion if state.output is not None else ""
        if not report.strip():
            return _unscored(
                "no_response", "no final text to audit: the sample ended without an answer"
            )
        records, where = evidence_from_messages(state.messages)
        verdict = groundcheck.audit(report, records, policy=policy)
        return _score(verdict, state, where)

    return score


@cache
def _factory(cluster: str | None) -> Callable[..., Scorer]:
    """The registered scorer factory for one choice of clustering.

    inspect fixes a scorer's metrics when its factory is registered, so each ``cluster`` gets
    its own factory, all under one name so logs and ``Sample.scores`` read the same. (A log
    re-scored by name in a fresh process gets the factory registered there: the unclustered
    one unless the task's code asks for ``cluster`` again.)
    """

    def groundcheck_scorer(cluster: str | None = None, **options: Any) -> Scorer:
        return _make(options)

    decorated: Callable[..., Scorer] = scorer(metrics=_metrics(cluster), name=SCORER_NAME)(
        groundcheck_scorer
    )
    return decorated


def groundcheck_scorer(*, cluster: str | None = None, **options: Any) -> Scorer:
    """An inspect scorer auditing each sample's final completion against its tool messages.

    ``options`` are groundcheck policy fields (``title_threshold=85``,
    ``unrecorded_severity="warning"``, ``extractors=["arxiv", "doi"]``, ...). ``cluster``
    names a sample-metadata key (a task id, say) by which ``ci_wilson`` clusters its interval,
    for samples that are not independent; with fewer than two clusters scored (the progress
    line's metrics after the first sample, or a one-task eval) the interval is ``[0, 1]``.
    """
    return _factory(cluster)(cluster=cluster, **options)


_factory(None)  # registered on import, so inspect finds the scorer by name in a log
