"""The command line: golden outputs, exit codes, and one-line errors for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from groundcheck.cli import main
from groundcheck.extractors.builtin import default_registry

GOLDEN = Path(__file__).parents[1] / "golden"
ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        code = main(list(argv))
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    return code, out, err


def golden(name: str, actual: str) -> None:
    """Compare with tests/golden/NAME; set GROUNDCHECK_UPDATE_GOLDEN=1 to rewrite on purpose."""
    path = GOLDEN / name
    if os.environ.get("GROUNDCHECK_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


def test_audit_fabricated_run_text(capsys: pytest.CaptureFixture[str]) -> None:
    """The re-enacted failure: exit 1, one line per finding, a summary line last."""
    code, out, err = run(
        capsys, "audit", "examples/apr23/report.md", "--evidence", "examples/apr23/tool_calls.json"
    )
    assert code == 1
    assert err == ""
    golden("apr23.audit.txt", out)


def test_audit_honest_run_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "audit",
        "examples/honest/report.md",
        "--evidence",
        "examples/honest/tool_calls.json",
    )
    assert code == 0
    golden("honest.audit.txt", out)


def test_audit_json_matches_api_golden(capsys: pytest.CaptureFixture[str]) -> None:
    """Machine output is compact JSON (one line) by default; ``--indent 2`` gives the API's
    ``Verdict.to_json()`` bytes, the golden file, exactly."""
    argv = ("audit", "examples/apr23/report.md", "--evidence", "examples/apr23/tool_calls.json")
    expected = (GOLDEN / "apr23.verdict.json").read_text(encoding="utf-8")
    code, out, _ = run(capsys, *argv, "--format", "json")
    assert code == 1
    compact = json.dumps(json.loads(expected), ensure_ascii=False, separators=(",", ":"))
    assert out == compact + "\n"
    code, out, _ = run(capsys, *argv, "--format", "json", "--indent", "2")
    assert code == 1
    assert out == expected


def test_indent_must_be_a_small_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run(capsys, "extract", "README.md", "--format", "json", "--indent", "x")
    assert exc.value.code == 2
    assert "--indent" in capsys.readouterr().err


def test_extract_text_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """extract lists each identifier; malformed tokens are marked in both formats."""
    report = tmp_path / "r.md"
    report.write_text("See arXiv:2005.11401v2,\nhep-th/9711200 and arXiv:2313.01234.\n", "utf-8")
    code, out, _ = run(capsys, "extract", str(report))
    assert code == 0
    golden("extract.txt", out.replace(str(report), "r.md"))
    code, out, _ = run(capsys, "extract", str(report), "--format", "json")
    data = json.loads(out)
    assert [(c["id"], c["malformed"]) for c in data] == [
        ("2005.11401", False),
        ("hep-th/9711200", False),
        ("2313.01234", True),
    ]


def test_extractors_lists_builtins(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "extractors", "--no-plugins")
    assert code == 0
    golden("extractors.txt", out)
    code, out, _ = run(capsys, "extractors", "--format", "json", "--no-plugins")
    assert [r["name"] for r in json.loads(out)] == default_registry().names()


def test_fail_on_warning_and_thresholds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    evidence = tmp_path / "e.jsonl"
    evidence.write_text('{"tool": "s", "output": []}\n', "utf-8")
    report = tmp_path / "r.md"
    report.write_text("From memory. " * 50, "utf-8")
    assert run(capsys, "audit", str(report), "--evidence", str(evidence))[0] == 0
    code, out, _ = run(
        capsys, "audit", str(report), "--evidence", str(evidence), "--fail-on", "warning"
    )
    assert code == 1
    assert "warning: empty-evidence-report" in out
    code, _, _ = run(
        capsys, "audit", str(report), "--evidence", str(evidence), "--long-report-chars", "5000"
    )
    assert code == 0


def test_repeated_evidence_is_one_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.jsonl"
    a.write_text('[{"tool": "s", "output": "2005.11401"}]', "utf-8")
    b.write_text('{"tool": "s", "output": "hep-th/9711200"}\n', "utf-8")
    report = tmp_path / "r.md"
    report.write_text("2005.11401 and hep-th/9711200", "utf-8")
    code, out, _ = run(capsys, "audit", str(report), "--evidence", str(a), "--evidence", str(b))
    assert code == 0, out


def test_report_from_stdin() -> None:
    """REPORT may be '-': the report is read from standard input."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "groundcheck",
            "audit",
            "-",
            "--evidence",
            "examples/apr23/tool_calls.json",
        ],
        input=b"See 2004.04906.",
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 1
    assert b"<stdin>:1:5: error: fabricated-id" in result.stdout


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"r.md": "x"}, "e.json: no such file"),
        ({"r.md": "x", "e.json": "[{"}, "e.json:1: invalid JSON"),
        ({"r.md": "x", "e.json": '{"tool": 1}\n'}, "e.json:1: tool call has no 'tool'"),
        ({"r.md": b"\xff\xfe bad", "e.json": "[]"}, "r.md:1: not valid UTF-8"),
        ({"e.json": "[]"}, "r.md: no such file"),
        ({"r.md": "x", "e.json": "[" * 100_000 + "]" * 100_000}, "nested too deeply"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, files: dict[str, str | bytes], message: str
) -> None:
    """Unreadable or malformed input: exit 2, one line on stderr naming the file, no traceback."""
    for name, content in files.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, "utf-8")
    code, out, err = run(capsys, "audit", "r.md", "--evidence", "e.json", cwd=tmp_path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("groundcheck: error: ")
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["audit", "r.md", "--evidence", "e", "--format", "xml"],
        ["audit", "r.md", "--evidence", "e", "--long-report-chars", "many"],
        ["nope"],
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_negative_threshold_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys,
        "audit",
        "examples/apr23/report.md",
        "--evidence",
        "examples/apr23/tool_calls.json",
        "--long-report-chars",
        "-1",
    )
    assert code == 2
    assert "long_report_chars must be" in err


def test_console_script_help_runs() -> None:
    """The module entry point prints help and exits 0 (what the README promises)."""
    result = subprocess.run(
        [sys.executable, "-m", "groundcheck", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "audit" in result.stdout


def test_trace_alone_is_audited(capsys: pytest.CaptureFixture[str]) -> None:
    """--trace: the report comes from the trace (here a sovereign-agent session folder)."""
    code, out, _ = run(
        capsys, "audit", "--trace", "examples/sovereign-agent-v0.2.0/apr23/sess_5b6bf0ea8f98"
    )
    assert code == 1
    golden("apr23.trace.txt", out)


def test_trace_without_final_answer_needs_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "audit", "--trace", "tests/evidence/fixtures/mcp.jsonl")
    assert code == 2
    assert "holds no final answer" in err


def test_any_format_via_evidence_and_explicit_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "r.md"
    report.write_text("Switch Transformers (arXiv:2101.03961).", "utf-8")
    for fixture, fmt in [("anthropic.json", "anthropic"), ("codex.jsonl", "codex")]:
        path = f"tests/evidence/fixtures/{fixture}"
        assert run(capsys, "audit", str(report), "--evidence", path)[0] == 0
        assert (
            run(capsys, "audit", str(report), "--evidence", path, "--evidence-format", fmt)[0] == 0
        )
    code, _, err = run(capsys, "audit", str(report), "--evidence", "x", "--evidence-format", "yaml")
    assert code == 2
    assert "unknown evidence format 'yaml'" in err


def test_missing_report_and_evidence_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "audit")
    assert code == 2
    assert "give a REPORT" in err
    code, _, err = run(capsys, "audit", "examples/apr23/report.md")
    assert code == 2
    assert "no evidence" in err


def test_bibliography_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{a, eprint={2004.04906}}\n", "utf-8")
    code, out, _ = run(
        capsys,
        "audit",
        "examples/honest/report.md",
        "--evidence",
        "examples/honest/tool_calls.json",
        "--bibliography",
        str(bib),
    )
    assert code == 1
    assert f"{bib}:1:18: error: fabricated-id: arXiv:2004.04906" in out


def test_audit_sarif(capsys: pytest.CaptureFixture[str]) -> None:
    """--format sarif: SARIF 2.1.0 with one result per finding, located like the text output."""
    code, out, _ = run(
        capsys,
        "audit",
        "examples/apr23/report.md",
        "--evidence",
        "examples/apr23/tool_calls.json",
        "--format",
        "sarif",
    )
    assert code == 1
    data = json.loads(out)
    assert data["version"] == "2.1.0"
    results = data["runs"][0]["results"]
    assert len(results) == 6  # 5 fabricated works (each naming its title) and the guard
    fabricated = [r for r in results if r["ruleId"] == "fabricated-id"]
    assert fabricated[0]["level"] == "error"
    region = fabricated[0]["locations"][0]["physicalLocation"]["region"]
    assert region == {
        "startLine": 7,
        "startColumn": 28,
        "endLine": 7,
        "endColumn": 38,
        "snippet": {"text": "2005.11401"},
    }
    rules = {r["id"] for r in data["runs"][0]["tool"]["driver"]["rules"]}
    assert {"fabricated-id", "unverified-title", "no-tool-calls"} <= rules


def test_the_command_freezes_the_collector_only_when_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``console`` (the ``groundcheck`` script, ``python -m groundcheck``) takes the objects
    still alive out of the collector's reach just before the process exits; ``main``, which a
    caller may run and go on, never does."""
    import gc

    from groundcheck import cli

    frozen = gc.get_freeze_count()
    assert main(["extractors"]) == 0
    assert gc.get_freeze_count() == frozen
    calls: list[str] = []
    monkeypatch.setattr(cli, "main", lambda: calls.append("main") or 1)
    monkeypatch.setattr(cli.gc, "freeze", lambda: calls.append("freeze"))
    with pytest.raises(SystemExit) as exited:
        cli.console()
    assert exited.value.code == 1
    assert calls == ["main", "freeze"]
