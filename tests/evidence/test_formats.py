"""Every trace format, from a small hand-written fixture of the same run, gives the same verdict.

The run: one search returns 2101.03961 and 1701.06538; a second search, whose *query* holds
2004.04906, returns nothing; the final answer cites 2101.03961 and 2004.04906. Whatever the
format, 2101.03961 is grounded and 2004.04906 is fabricated: the agent's own query is never
evidence.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundcheck import audit
from groundcheck.errors import ConfigError, InputError
from groundcheck.evidence import FORMATS, load_evidence
from groundcheck.model import Identifier

FIXTURES = Path(__file__).parent / "fixtures"
REPORT = "Switch Transformers (arXiv:2101.03961) and DPR (arXiv:2004.04906)."

CASES = [
    ("native.jsonl", "native", False),
    ("openai-chat.json", "openai-chat", True),
    ("openai-responses.json", "openai-responses", True),
    ("anthropic.json", "anthropic", True),
    ("langchain.json", "langchain", True),
    ("langsmith.jsonl", "langchain", False),
    ("gemini.json", "gemini", True),
    ("inspect-ai.json", "inspect-ai", True),
    ("otel.jsonl", "otel", True),
    ("otel-messages.json", "otel-messages", True),
    ("openinference.jsonl", "openinference", True),
    ("mcp.jsonl", "mcp", False),
    ("atif.json", "atif", True),
    ("claude-code.jsonl", "claude-code", True),
    ("gemini-cli.jsonl", "gemini-cli", True),
    ("codex.jsonl", "codex", True),
    ("langgraph.json", "langgraph", True),
    ("openai-agents.json", "openai-agents", True),
    ("pydantic-ai.json", "pydantic-ai", True),
]


@pytest.mark.parametrize(("name", "fmt", "has_report"), CASES, ids=[c[0] for c in CASES])
def test_each_format_gives_the_same_verdict(name: str, fmt: str, has_report: bool) -> None:
    """Detected by shape; same grounded and fabricated ids; the query id is not evidence."""
    trace = load_evidence(FIXTURES / name)
    assert trace.format == fmt
    assert Identifier("arxiv", "2101.03961") in trace.evidence.identifiers
    assert Identifier("arxiv", "1701.06538") in trace.evidence.identifiers
    assert Identifier("arxiv", "2004.04906") not in trace.evidence.identifiers
    if has_report:
        assert trace.report == REPORT
    verdict = audit(trace.report or REPORT, trace.evidence)
    assert [(f.code, f.citation.id if f.citation else None) for f in verdict.findings] == [
        ("fabricated-id", "2004.04906")
    ]
    assert [g.grounded for g in verdict.citations] == [True, False]
    assert len(trace.evidence.calls) >= 2


@pytest.mark.parametrize(("name", "fmt", "has_report"), CASES, ids=[c[0] for c in CASES])
def test_explicit_format_matches_detection(name: str, fmt: str, has_report: bool) -> None:
    """format= reads the same evidence as detection does."""
    detected = load_evidence(FIXTURES / name)
    forced = load_evidence(FIXTURES / name, format=fmt)
    assert forced.evidence.identifiers == detected.evidence.identifiers


def test_every_format_has_a_fixture() -> None:
    """Record formats are in CASES; BibTeX, records and sovereign folders have tests of their own."""
    assert {fmt for _, fmt, _ in CASES} == set(FORMATS) - {"sovereign-agent", "bibtex", "records"}


def test_round_trip_same_evidence_from_python_objects() -> None:
    """A list of messages in memory loads exactly like the file."""
    messages = json.loads((FIXTURES / "openai-chat.json").read_text("utf-8"))
    from_file = load_evidence(FIXTURES / "openai-chat.json")
    from_obj = load_evidence(messages)
    assert from_obj.evidence.identifiers == from_file.evidence.identifiers
    assert from_obj.report == from_file.report


def test_empty_and_errored_flags_carry_over() -> None:
    chat = load_evidence(FIXTURES / "openai-chat.json").evidence
    assert [c.empty for c in chat.calls] == [False, True]
    inspect = load_evidence(FIXTURES / "inspect-ai.json").evidence
    assert [c.errored for c in inspect.calls] == [False, True]


def test_plain_text_lines_are_skipped_and_counted() -> None:
    trace = load_evidence(FIXTURES / "claude-code.jsonl")
    assert any("skipped 1 plain-text line" in n for n in trace.evidence.notes)


def test_bibtex_as_evidence_with_a_broken_entry() -> None:
    """Entries ground their eprint, DOI and URL; the broken one is a note with its line."""
    trace = load_evidence(FIXTURES / "references.bib")
    assert trace.format == "bibtex"
    ids = trace.evidence.identifiers
    assert Identifier("arxiv", "2101.03961") in ids
    assert Identifier("arxiv", "1701.06538") in ids
    assert Identifier("doi", "10.48550/arxiv.1701.06538") in ids
    assert [c.call_id for c in trace.evidence.calls] == ["fedus2021switch", "shazeer2017"]
    assert trace.evidence.calls[0].titles == (
        "Switch Transformers: Scaling to Trillion Parameter Models",
    )
    (note,) = trace.evidence.notes
    assert "references.bib:9: BibTeX entry skipped" in note


def test_unknown_format_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown evidence format 'xml'"):
        load_evidence(FIXTURES / "native.jsonl", format="xml")


def test_mixed_formats_are_a_clear_error(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(
        (FIXTURES / "codex.jsonl").read_text("utf-8")
        + (FIXTURES / "native.jsonl").read_text("utf-8"),
        "utf-8",
    )
    with pytest.raises(
        InputError,
        match=r"mixed\.jsonl: records of several trace formats: "
        r"codex \(line 1\), native \(line 8\)",
    ):
        load_evidence(mixed)


def test_unrecognised_records_list_formats_tried(tmp_path: Path) -> None:
    odd = tmp_path / "odd.json"
    odd.write_text('[{"foo": 1}]', "utf-8")
    with pytest.raises(
        InputError, match=r"no known trace format .* formats tried: native, openai-chat"
    ):
        load_evidence(odd)


def test_folder_that_is_not_a_session(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no trace files"):
        load_evidence(tmp_path)


def test_folder_of_trace_files_is_one_run(tmp_path: Path) -> None:
    """Several transcripts of one run in a folder load as one evidence set."""
    for name in ("anthropic.json", "mcp.jsonl"):
        (tmp_path / name).write_bytes((FIXTURES / name).read_bytes())
    trace = load_evidence(tmp_path)
    assert trace.format == "anthropic+mcp"
    assert trace.report == REPORT
    assert len(trace.evidence.calls) == 4


def test_audit_takes_a_trace_path() -> None:
    """audit(report, path) reads the trace at the path, in any format."""
    verdict = audit(REPORT, FIXTURES / "codex.jsonl")
    assert [f.code for f in verdict.findings] == ["fabricated-id"]
    assert audit(REPORT, str(FIXTURES / "codex.jsonl")).to_json() == verdict.to_json()


def test_the_format_table_is_read_only_and_registration_is_explicit() -> None:
    """Rows are added with register_format; a clash is an error; the view cannot be edited."""
    from groundcheck.errors import RegistryError
    from groundcheck.evidence.formats import Format, register_format

    with pytest.raises(TypeError):
        FORMATS["x"] = FORMATS["native"]  # type: ignore[index]
    with pytest.raises(RegistryError, match="already registered"):
        register_format(FORMATS["native"])

    def load(records: object, b: object) -> None:
        for _, r in records:  # type: ignore[attr-defined]
            b.call_and_result(r["id"], "lookup", None, r["found"])  # type: ignore[attr-defined]

    fmt = Format("acme", "ACME agent log", lambda r: "found" in r and "acme" in r, load)
    register_format(fmt)
    try:
        trace = load_evidence([{"acme": 1, "id": "a", "found": "2101.03961"}])
        assert trace.format == "acme"
        assert Identifier("arxiv", "2101.03961") in trace.evidence.identifiers
    finally:
        from groundcheck.evidence.formats import _TABLE

        del _TABLE["acme"]


def test_pydantic_ai_retry_prompt_is_a_failed_call() -> None:
    """A ``retry-prompt`` answering a tool call is the tool failing: its text (which names
    the id the agent asked for) is never evidence."""
    calls = load_evidence(FIXTURES / "pydantic-ai.json").evidence.calls
    assert [(c.call_id, c.errored, c.empty) for c in calls] == [
        ("call_1", False, False),
        ("call_2", True, True),
        ("call_3", False, True),
    ]
