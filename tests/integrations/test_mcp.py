"""The MCP server, spoken to by the real MCP client over stdio (a subprocess, as clients run it)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client
from mcp.client.stdio import StdioServerParameters

import groundcheck
from groundcheck.integrations import mcp as server_module

ROOT = Path(__file__).resolve().parents[2]
APR23 = ROOT / "examples" / "apr23"
RAG = [{"tool": "arxiv_search", "input": {"q": "rag"}, "output": [{"arxiv_id": "2005.11401"}]}]


def _session(body: Callable[[Client], Awaitable[Any]]) -> Any:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "groundcheck.integrations.mcp"], cwd=str(ROOT)
    )

    async def run() -> Any:
        async with Client(params, read_timeout_seconds=60) as client:
            return await body(client)

    return asyncio.run(run())


@pytest.fixture(scope="module")
def answers() -> dict[str, Any]:
    """One server process answers every question of this module (starting one costs a second)."""

    async def ask(client: Client) -> dict[str, Any]:
        out: dict[str, Any] = {"tools": (await client.list_tools()).tools}
        out["fabricated"] = await client.call_tool(
            "audit",
            {"report": "RAG (arXiv:2005.11401) beats DPR (arXiv:2004.04906).", "tool_calls": RAG},
        )
        out["paths"] = await client.call_tool(
            "audit",
            {
                "report_path": "examples/apr23/report.md",
                "evidence_path": "examples/apr23/tool_calls.json",
            },
        )
        out["options"] = await client.call_tool(
            "audit",
            {
                "report": "See arXiv:2005.11401.",
                "tool_calls": RAG,
                "options": {"title_threshold": 0},
            },
        )
        out["neither"] = await client.call_tool("audit", {"report": "x"})
        out["bad_record"] = await client.call_tool(
            "audit", {"report": "x", "tool_calls": [{"output": 1}]}
        )
        out["extract"] = await client.call_tool(
            "extract", {"text": "RAG is arXiv:2005.11401v2; see also doi:10.1000/XYZ."}
        )
        out["extract_named"] = await client.call_tool(
            "extract", {"text": "arXiv:2005.11401 and doi:10.1000/xyz", "extractors": ["doi"]}
        )
        return out

    result: dict[str, Any] = _session(ask)
    return result


def test_tools_are_listed_read_only_and_idempotent(answers: dict[str, Any]) -> None:
    """Both tools are advertised with hints a client can trust to call them freely."""
    tools = {t.name: t for t in answers["tools"]}
    assert set(tools) == {"audit", "extract"}
    for tool in tools.values():
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.idempotent_hint is True
        assert tool.annotations.destructive_hint is False
        assert tool.description
    properties = tools["audit"].input_schema["properties"]
    assert {"report", "tool_calls", "report_path", "evidence_path", "options"} <= set(properties)


def test_audit_returns_the_verdict_as_structured_content(answers: dict[str, Any]) -> None:
    """The structured content is the verdict JSON, equal to the library's own."""
    result = answers["fabricated"]
    assert result.is_error is False
    verdict = result.structured_content
    report = "RAG (arXiv:2005.11401) beats DPR (arXiv:2004.04906)."
    assert verdict == json.loads(groundcheck.audit(report, RAG).to_json())
    assert [f["code"] for f in verdict["findings"]] == ["fabricated-id"]


def test_audit_reads_paths(answers: dict[str, Any]) -> None:
    """Report and evidence can be named by path (relative to the server's directory)."""
    verdict = answers["paths"].structured_content
    expected = groundcheck.audit(
        (APR23 / "report.md").read_text("utf-8"), APR23 / "tool_calls.json"
    )
    assert verdict["ok"] is False
    assert verdict["summary"] == json.loads(expected.to_json())["summary"]


def test_bad_input_is_a_tool_error_naming_the_problem(answers: dict[str, Any]) -> None:
    """Bad arguments come back as a tool error the model can read, not a dead server."""
    neither = answers["neither"]
    assert neither.is_error is True
    assert "exactly one of 'tool_calls' and 'evidence_path'" in neither.content[0].text
    bad = answers["bad_record"]
    assert bad.is_error is True
    assert "no 'tool' name" in bad.content[0].text
    options = answers["options"]
    assert options.is_error is True
    assert "title_threshold" in options.content[0].text


def test_extract_lists_citations(answers: dict[str, Any]) -> None:
    """``extract`` returns what ``groundcheck.extract`` finds, and honours extractor names."""
    text = "RAG is arXiv:2005.11401v2; see also doi:10.1000/XYZ."
    content = answers["extract"].structured_content
    assert content["citations"] == [c.to_dict() for c in groundcheck.extract(text)]
    assert content["count"] == len(content["citations"]) >= 2
    named = answers["extract_named"].structured_content
    assert [c["scheme"] for c in named["citations"]] == ["doi"]


def test_main_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    """``main`` parses its arguments like the other CLI verbs."""
    with pytest.raises(SystemExit) as exit_info:
        server_module.main(["--version"])
    assert exit_info.value.code == 0
    assert groundcheck.__version__ in capsys.readouterr().out


def test_the_cli_verb_serves_the_same_tools() -> None:
    """``groundcheck mcp`` is the command users configure in their MCP client."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "groundcheck", "mcp"], cwd=str(ROOT)
    )

    async def run() -> list[str]:
        async with Client(params, read_timeout_seconds=60) as client:
            return sorted(t.name for t in (await client.list_tools()).tools)

    assert asyncio.run(run()) == ["audit", "extract"]
