"""The inspect-ai scorer inside a real ``inspect_ai.eval``: mock model, real tool, offline.

inspect's mock model counts tokens with tiktoken when an output carries no usage, and tiktoken
downloads its encoding on first use. Every mock output here carries a ``ModelUsage``, so the
mock model never counts and the eval never touches the network.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate, use_tools
from inspect_ai.tool import ContentImage, ContentText, Tool, tool

from groundcheck.integrations.inspect import evidence_from_messages, groundcheck_scorer

# inspect-ai's own retry set-up uses a tenacity argument tenacity has deprecated: not ours.
pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter:DeprecationWarning")

MODEL = "mockllm/model"
SEARCH_RESULT = [
    {
        "arxiv_id": "2005.11401",
        "title": "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
    }
]


@tool
def arxiv_search() -> Tool:
    async def execute(query: str) -> str:
        """Search arXiv for papers.

        Args:
            query: What to look for.
        """
        return json.dumps(SEARCH_RESULT)

    return execute


@tool
def screenshot() -> Tool:
    async def execute(page: str) -> list[ContentText | ContentImage]:
        """Take a screenshot of a page.

        Args:
            page: The page to show.
        """
        return [ContentImage(image="data:image/png;base64,iVBORw0KGgo=")]

    return execute


def _usage(output: ModelOutput) -> ModelOutput:
    output.usage = ModelUsage(input_tokens=10, output_tokens=10, total_tokens=20)
    return output


def _run(
    outputs: list[ModelOutput],
    tmp_path: Path,
    *,
    tools: list[Tool] | None = None,
    samples: int = 1,
    metadata: list[dict[str, Any]] | None = None,
    **options: Any,
) -> EvalLog:
    model = get_model(MODEL, custom_outputs=[_usage(o) for o in outputs])
    dataset = [
        Sample(input="Find the RAG paper.", id=i + 1, metadata=(metadata or [{}] * samples)[i])
        for i in range(samples)
    ]
    task = Task(
        dataset=dataset,
        solver=[use_tools(tools if tools is not None else [arxiv_search()]), generate()],
        scorer=groundcheck_scorer(**options),
    )
    # The progress line's metrics are computed after each sample (inspect-ai 0.3.285), so a
    # clustered interval is computed with one cluster so far: it must not fail the eval.
    [log] = eval(
        task,
        model=model,
        log_dir=str(tmp_path),
        display="none",
        max_samples=1,
    )
    assert log.status == "success", log.error
    return log


def _search(call_id: str = "call_1") -> ModelOutput:
    return ModelOutput.for_tool_call(MODEL, "arxiv_search", {"query": "rag"}, tool_call_id=call_id)


def _answer(text: str) -> ModelOutput:
    return ModelOutput.from_content(MODEL, text)


def _score(log: EvalLog, sample: int = 0) -> Any:
    assert log.samples is not None
    scores = log.samples[sample].scores
    assert scores is not None
    return scores["groundcheck_scorer"]


def test_fabricated_citation_scores_zero_with_findings_and_verdict(tmp_path: Path) -> None:
    """A real tool returns one paper; the answer cites it and a second one no tool returned."""
    log = _run([_search(), _answer("RAG is arXiv:2005.11401; DPR is arXiv:2004.04906.")], tmp_path)
    score = _score(log)
    assert score.value["grounded"] == 0.0
    assert score.value["cited"] == 2
    assert score.value["matched"] == 1
    assert score.value["fabricated"] == 1
    verdict = score.metadata["groundcheck"]
    assert verdict["ok"] is False
    assert [f["code"] for f in verdict["findings"]] == ["fabricated-id"]
    assert verdict["findings"][0]["citation"]["id"] == "2004.04906"
    assert "fabricated-id: arXiv:2004.04906 is not in any tool output" in score.explanation


def test_grounded_answer_scores_one_and_metrics_are_computed(tmp_path: Path) -> None:
    """Accuracy and the Wilson interval are reported for ``grounded``."""
    log = _run([_search(), _answer("See arXiv:2005.11401.")], tmp_path)
    assert _score(log).value["grounded"] == 1.0
    assert log.results is not None
    [group] = log.results.scores
    assert group.name == "grounded"
    metrics = group.metrics
    assert metrics["accuracy"].value == 1.0
    lower, upper = metrics["ci_wilson_lower"].value, metrics["ci_wilson_upper"].value
    assert 0.0 < lower < 1.0
    assert upper == 1.0


def test_tool_input_is_not_evidence(tmp_path: Path) -> None:
    """An id the agent put in its own query is not grounded by that query."""
    query = ModelOutput.for_tool_call(
        MODEL, "arxiv_search", {"query": "arXiv:2004.04906"}, tool_call_id="c9"
    )
    log = _run([query, _answer("DPR is arXiv:2004.04906.")], tmp_path)
    score = _score(log)
    assert score.value["fabricated"] == 1
    calls = score.metadata["groundcheck"]["evidence"]
    assert calls["calls"] == 1


def test_findings_cite_the_transcript_messages(tmp_path: Path) -> None:
    """Cites in the explanation resolve, through scanner_references, to real message ids."""
    answer = "DPR is arXiv:2004.04906."
    log = _run([_search(), _answer(answer)], tmp_path)
    assert log.samples is not None
    messages = log.samples[0].messages
    score = _score(log)
    refs = score.metadata["scanner_references"]
    by_cite = {r["cite"]: r["id"] for r in refs}
    report = next(m for m in reversed(messages) if m.role == "assistant")
    report_cite = next(c for c, i in by_cite.items() if i == report.id)
    column = answer.index("2004.04906") + 1
    assert score.explanation.startswith(f"{report_cite}:1:{column}: error: fabricated-id")
    for cite, message_id in by_cite.items():
        assert cite in score.explanation
        assert any(m.id == message_id for m in messages)


def test_empty_evidence_finding_cites_the_tool_message(tmp_path: Path) -> None:
    """A finding about tool calls names the tool messages it concerns."""
    empty = ModelOutput.for_tool_call(MODEL, "nothing", {}, tool_call_id="e1")

    @tool
    def nothing() -> Tool:
        async def execute() -> str:
            """Return nothing."""
            return ""

        return execute

    log = _run([empty, _answer("See arXiv:2004.04906.")], tmp_path, tools=[nothing()])
    assert log.samples is not None
    messages = log.samples[0].messages
    tool_message = next(m for m in messages if m.role == "tool")
    score = _score(log)
    refs = {r["id"]: r["cite"] for r in score.metadata["scanner_references"]}
    assert f"empty-evidence-report: tool messages {refs[tool_message.id]}" in score.explanation


def test_image_output_is_not_recorded_rather_than_empty(tmp_path: Path) -> None:
    """A tool that returned only an image leaves a gap in the evidence, not an empty output."""
    shot = ModelOutput.for_tool_call(MODEL, "screenshot", {"page": "x"}, tool_call_id="s1")
    log = _run([shot, _answer("See arXiv:2004.04906.")], tmp_path, tools=[screenshot()])
    verdict = _score(log).metadata["groundcheck"]
    assert verdict["evidence"]["unrecorded_calls"] == 1
    assert verdict["evidence"]["empty_calls"] == 0
    assert "outputs-not-recorded" in [f["code"] for f in verdict["findings"]]


def test_sample_without_final_text_is_unscored(tmp_path: Path) -> None:
    """No answer, no audit: the sample is left out of the metrics, with a reason."""
    log = _run([_search(), _answer("")], tmp_path)
    score = _score(log)
    assert score.reason == "no_response"
    assert math.isnan(score.value)
    assert "no final text" in score.explanation


def test_options_reach_the_policy(tmp_path: Path) -> None:
    """Policy options passed to the scorer change the verdict; unknown ones fail early."""
    shot = ModelOutput.for_tool_call(MODEL, "screenshot", {"page": "x"}, tool_call_id="s1")
    log = _run(
        [shot, _answer("See arXiv:2004.04906.")],
        tmp_path,
        tools=[screenshot()],
        unrecorded_severity="warning",
    )
    assert _score(log).value["grounded"] == 1.0
    with pytest.raises(ValueError, match="unknown audit option"):
        groundcheck_scorer(no_such_option=1)


def test_wilson_interval_clusters_by_sample_metadata(tmp_path: Path) -> None:
    """With ``cluster``, the interval is computed over clusters of samples (here two tasks)."""
    outputs = [_search("a"), _answer("arXiv:2005.11401"), _search("b"), _answer("arXiv:2004.04906")]
    outputs += [
        _search("c"),
        _answer("arXiv:2005.11401"),
        _search("d"),
        _answer("arXiv:2005.11401"),
    ]
    meta = [{"task": "t1"}, {"task": "t1"}, {"task": "t2"}, {"task": "t2"}]
    clustered = _run(outputs, tmp_path / "c", samples=4, metadata=meta, cluster="task")
    assert clustered.results is not None
    metrics = clustered.results.scores[0].metrics
    assert metrics["accuracy"].value == 0.75
    assert metrics["ci_wilson_lower"].params.get("cluster") == "task"


def test_clustered_interval_with_one_cluster_is_unestimable_not_a_failed_eval(
    tmp_path: Path,
) -> None:
    """One cluster in the whole eval: the interval is every rate ([0, 1]), the eval succeeds.

    inspect's own clustered ``ci_wilson`` raises on a single cluster, and inspect computes the
    progress line's metrics after each sample, so with it every clustered eval failed at its
    first sample (inspect-ai 0.3.285).
    """
    outputs = [_search("a"), _answer("arXiv:2005.11401"), _search("b"), _answer("arXiv:2005.11401")]
    meta = [{"task": "t1"}, {"task": "t1"}]
    log = _run(outputs, tmp_path, samples=2, metadata=meta, cluster="task")
    assert log.results is not None
    metrics = log.results.scores[0].metrics
    assert metrics["accuracy"].value == 1.0
    assert (metrics["ci_wilson_lower"].value, metrics["ci_wilson_upper"].value) == (0.0, 1.0)
    assert metrics["ci_wilson_upper"].params.get("cluster") == "task"


def test_clustered_interval_without_the_cluster_key_still_fails_the_eval(tmp_path: Path) -> None:
    """A sample missing the cluster key is a misconfigured task: inspect's error stands."""
    outputs = [_search("a"), _answer("arXiv:2005.11401")]
    model = get_model(MODEL, custom_outputs=[_usage(o) for o in outputs])
    task = Task(
        dataset=[Sample(input="Find the RAG paper.", id=1, metadata={})],
        solver=[use_tools([arxiv_search()]), generate()],
        scorer=groundcheck_scorer(cluster="task"),
    )
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "error"
    assert log.error is not None and "cluster metadata" in log.error.message


def test_clustered_interval_matches_inspect_from_two_clusters_on() -> None:
    """From two clusters on, the wrapper answers exactly what inspect's ci_wilson answers."""
    from inspect_ai.scorer import SampleScore, Score, ci_wilson

    from groundcheck.integrations.inspect import _clustered_wilson

    def scores(values: list[float], tasks: list[str]) -> list[SampleScore]:
        return [
            SampleScore(score=Score(value=v), sample_id=i, sample_metadata={"task": t})
            for i, (v, t) in enumerate(zip(values, tasks, strict=True))
        ]

    ours, theirs = _clustered_wilson(ci_wilson, "task"), ci_wilson(cluster="task")
    two = scores([1.0, 0.0, 1.0, 1.0], ["a", "a", "b", "b"])
    assert ours(two) == theirs(two)
    one = scores([1.0, 0.0], ["a", "a"])
    assert ours(one) == {"lower": 0.0, "upper": 1.0}
    with pytest.raises(ValueError, match="at least two clusters"):
        theirs(one)


def test_evidence_from_messages_converts_and_pairs_inputs() -> None:
    """Tool messages become native records with the assistant's arguments as input."""
    from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
    from inspect_ai.tool import ToolCall, ToolCallError

    messages = [
        ChatMessageAssistant(
            content="",
            tool_calls=[ToolCall(id="t1", function="search", arguments={"q": "rag"})],
        ),
        ChatMessageTool(
            content=[ContentText(text="arXiv:2005.11401")], tool_call_id="t1", function="search"
        ),
        ChatMessageTool(
            content="boom",
            tool_call_id="t2",
            function="fetch",
            error=ToolCallError("timeout", "timed out"),
        ),
    ]
    records, where = evidence_from_messages(messages)
    assert records == [
        {"tool": "search", "input": {"q": "rag"}, "output": ["arXiv:2005.11401"], "id": "t1"},
        {"tool": "fetch", "input": None, "output": "boom", "id": "t2", "error": "timed out"},
    ]
    assert where == {"t1": 1, "t2": 2}
