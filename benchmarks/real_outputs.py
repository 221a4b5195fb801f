"""Real tool outputs from the corpus (tests/corpus), as plain strings per call, for quote cases.

Each output is what a tool really returned in a committed agent run (provenance of every file
in tests/corpus/<case>/case.json): Claude Code WebSearch results, Codex and Gemini CLI command
outputs (arXiv API listings, PDF text), a Tavily research result and sub-agent notes
(pydantic-ai histories), LangGraph sub-agent reports, STORM's search-result snippets. Formats
main's loaders read are read by them, with the output text kept the way the loaders will keep
it (``Evidence.text`` = the flattened output); the others are parsed here directly.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from attrs import evolve, frozen

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"


@frozen
class Output:
    call_id: str
    tool: str
    text: str
    case: str


@frozen
class Query:
    """An argument string the agent itself wrote for a search (never evidence)."""

    text: str
    case: str


def _keep_texts() -> Any:
    """Load with ``Evidence.text`` filled as the loaders will fill it (see the report)."""
    from groundcheck.evidence import native, trace
    from groundcheck.evidence.walk import flatten

    real = trace.make_evidence

    def make(tool: str, call_id: str, output: Any, extractors: Any, **kw: Any) -> Any:
        ev = real(tool, call_id, output, extractors, **kw)
        if ev.excluded is None and ev.recorded:
            ev = evolve(ev, text=flatten(output, kw.get("ignore", trace.STRUCTURAL_KEYS)).text)
        return ev

    trace.make_evidence = make
    native.make_evidence = make
    return real


_LOADED = (
    ("claude-code-subagent-web-sources-biotech", "consolidate-b.session.jsonl"),
    ("codex-lit-review-curl-from-memory", "resource_finder_codex_transcript.jsonl"),
    ("codex-lit-review-titles-only", "resource_finder_codex_transcript.jsonl"),
    ("gemini-cli-lit-review-echo-summaries", "resource_finder_gemini_transcript.jsonl"),
)
_NOT_CONTENT = ("write_file", "write_todos", "update_todo_status", "todowrite", "ToolSearch")


def _loaded() -> Iterator[Output]:
    from groundcheck import load_evidence

    _keep_texts()
    for case, name in _LOADED:
        trace = load_evidence(str(CORPUS / case / name))
        for call in trace.evidence.calls:
            if call.text and len(call.text) > 200 and call.tool not in _NOT_CONTENT:
                yield Output(f"{case}:{call.call_id}", call.tool, call.text, case)


def _pydantic(case: str) -> Iterator[Output]:
    history = json.loads((CORPUS / case / "history.json").read_text("utf-8"))
    for n, message in enumerate(history):
        for part in message.get("parts", []):
            if part.get("part_kind") != "tool-return" or part.get("tool_name") in _NOT_CONTENT:
                continue
            content = part.get("content")
            text = content if isinstance(content, str) else json.dumps(content)
            if len(text) > 200:
                yield Output(f"{case}:{part.get('tool_call_id', n)}", part["tool_name"], text, case)


def _storm() -> Iterator[Output]:
    case = "storm-article-numbered-markers"
    info = json.loads((CORPUS / case / "url_to_info.json").read_text("utf-8"))["url_to_info"]
    for n, (url, record) in enumerate(info.items()):
        text = "\n\n".join(
            [record.get("title", ""), url, record.get("description", ""), *record["snippets"]]
        )
        yield Output(f"{case}:{n}", "search", text, case)


def _langgraph() -> Iterator[Output]:
    case = "deepagents-langgraph-sources-from-memory"
    state = json.loads((CORPUS / case / "run_state_20250814_222256.json").read_text("utf-8"))
    for n, message in enumerate(state["messages"]):
        is_tool = "tool" in (message.get("type"), message.get("role"))
        if is_tool and len(str(message.get("content"))) > 2000:
            yield Output(f"{case}:{n}", "task", str(message["content"]), case)


def real_outputs() -> list[Output]:
    out = list(_loaded())
    out += _pydantic("pydantic-deepagents-tavily-report-copied")
    out += _pydantic("pydantic-deepagents-search-down-notes-and-memory")
    out += _storm()
    out += _langgraph()
    return out


def real_queries() -> list[Query]:
    """The WebSearch queries of the Claude Code run, as the agent wrote them."""
    case = "claude-code-subagent-web-sources-biotech"
    found = []
    for line in (CORPUS / case / "consolidate-b.session.jsonl").read_text("utf-8").splitlines():
        record = json.loads(line)
        content = record.get("message", {}).get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                query = block.get("input", {}).get("query")
                if isinstance(query, str):
                    found.append(Query(query, case))
    return found


if __name__ == "__main__":
    outs = real_outputs()
    for o in outs:
        print(f"{o.case[:34]:<35}{o.tool:<24}{len(o.text):>7}  {o.text[:60]!r}")
    print(
        len(outs),
        "outputs,",
        sum(len(o.text) for o in outs),
        "characters;",
        len(real_queries()),
        "queries",
    )
