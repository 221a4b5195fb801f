"""The ``records`` format and outputs a trace did not record (OpenAI Agents SDK, Gemini CLI)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundcheck import audit
from groundcheck.errors import UnknownFormat
from groundcheck.evidence import load_evidence
from groundcheck.evidence.records import find_records
from groundcheck.model import Identifier

FIXTURES = Path(__file__).parent / "fixtures"
RECORDS = FIXTURES / "records"


def test_a_citation_database_is_read_as_what_the_tools_returned() -> None:
    trace = load_evidence(RECORDS / "citations.json", format="records")
    assert trace.format == "records"
    assert [c.call_id for c in trace.evidence.calls] == [
        "citations.json:citations[0]",
        "citations.json:citations[1]",
    ]
    assert Identifier("doi", "10.18653/v1/2020.emnlp-main.550") in trace.evidence.identifiers
    assert Identifier("arxiv", "2005.11401") in trace.evidence.identifiers
    report = "RAG (arXiv:2005.11401) uses DPR (doi:10.18653/v1/2020.emnlp-main.550); REALM (arXiv:2002.08909)."
    verdict = audit(report, trace.evidence)
    assert [(f.code, f.citation.id if f.citation else None) for f in verdict.findings] == [
        ("fabricated-id", "2002.08909")
    ]


def test_an_app_state_export_and_json_lines() -> None:
    state = load_evidence(RECORDS / "raw_papers.json", format="records")
    assert {Identifier("arxiv", "2101.03961"), Identifier("arxiv", "1701.06538")} <= (
        state.evidence.identifiers
    )
    assert state.evidence.calls[0].titles[0].startswith("Switch Transformers")
    hits = load_evidence(RECORDS / "hits.jsonl", format="records")
    assert [c.call_id for c in hits.evidence.calls] == ["hits.jsonl:1:hit", "hits.jsonl:2:hit"]


def test_records_are_never_guessed() -> None:
    with pytest.raises(UnknownFormat, match="--evidence-format records"):
        load_evidence(RECORDS / "raw_papers.json")


def test_a_file_without_records_says_so(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"stats": {"n": 0}}), "utf-8")
    trace = load_evidence(path, format="records")
    assert trace.evidence.calls == ()
    assert any("no record with an identifier" in n for n in trace.evidence.notes)


def test_find_records_takes_the_outermost() -> None:
    doc = {"paper": {"doi": "10.1/x", "references": [{"doi": "10.1/y"}]}}
    assert [where for where, _ in find_records(doc)] == ["paper"]


# -- outputs not recorded ----------------------------------------------------------------


def test_agents_sdk_without_sensitive_data_records_no_output() -> None:
    """trace_include_sensitive_data=False: function spans (MCP ones too) carry no output."""
    trace = load_evidence(FIXTURES / "provenance" / "openai-agents-no-sensitive.jsonl")
    assert trace.format == "openai-agents"
    calls = trace.evidence.calls
    assert [(c.tool, c.recorded, c.errored) for c in calls] == [
        ("arxiv_search", False, False),
        ("fetch", False, False),
        ("fetch", True, True),
    ]
    assert trace.report is None  # a Responses model: the export keeps only a response id
    verdict = audit("Switch Transformers (arXiv:2101.03961).", trace.evidence)
    assert [f.code for f in verdict.findings] == ["outputs-not-recorded", "fabricated-id"]
    assert "may hold it" in verdict.findings[1].message
    assert any("trace_include_sensitive_data=False" in n for n in trace.evidence.notes)


def test_gemini_cli_results_without_output_are_not_recorded() -> None:
    """The build that logs no output for shell commands: not recorded, never empty."""
    trace = load_evidence(FIXTURES / "provenance" / "gemini-cli-no-output.jsonl")
    assert [(c.recorded, c.empty) for c in trace.evidence.calls] == [(False, False)] * 2
    verdict = audit(trace.report or "", trace.evidence)
    assert [f.code for f in verdict.findings] == [
        "outputs-not-recorded",
        "fabricated-id",
        "fabricated-id",
    ]
    lenient = audit(trace.report or "", trace.evidence, unrecorded_severity="warning")
    assert lenient.ok


def test_csv_and_tsv_exports_are_read_row_by_row(tmp_path: Path) -> None:
    """A spreadsheet export of search results: header row, one paper per row, titles wrapped
    inside quoted fields (tests/corpus/langgraph-litagent-wrapped-titles-records)."""
    import groundcheck

    csv_path = tmp_path / "papers.csv"
    csv_path.write_text(
        "id,title,doi,url\n"
        'http://arxiv.org/abs/2507.02743v1,"Prompt learning with bounding box constraints\n'
        '  for medical image segmentation",,http://arxiv.org/abs/2507.02743v1\n'
        ",Some Paper,10.1000/xyz,\n",
        "utf-8",
    )
    trace = groundcheck.load_evidence(csv_path, format="records")
    assert [c.call_id for c in trace.evidence.calls] == ["papers.csv:2:$", "papers.csv:4:$"]
    report = "arXiv:2507.02743 and doi:10.1000/xyz."
    assert groundcheck.audit(report, trace.evidence).ok
    tsv_path = tmp_path / "papers.tsv"
    tsv_path.write_text("doi\ttitle\n10.1000/xyz\tSome Paper\n", "utf-8")
    assert groundcheck.audit(
        "doi:10.1000/xyz", groundcheck.load_evidence(tsv_path, format="records").evidence
    ).ok


def test_broken_csv_names_the_file_and_line(tmp_path: Path) -> None:
    import groundcheck
    from groundcheck.errors import InputError

    path = tmp_path / "bad.csv"
    path.write_text('doi,title\n10.1/x,"unterminated\n', "utf-8")
    with pytest.raises(InputError, match=r"bad\.csv.*CSV"):
        groundcheck.load_evidence(path, format="records")
