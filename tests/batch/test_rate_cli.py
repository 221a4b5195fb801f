"""``rate`` and ``compare`` as a CI gate: the three-way gate and its exit codes, the flagged
runs named, every policy option ``audit`` takes, per-scheme counts, and bad input as one
clear line with exit 2 (after the report of the rest)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from batch_helpers import make_run, write_manifest
from jsonschema import Draft202012Validator

from groundcheck.auditor import Policy
from groundcheck.cli import build_parser, main
from groundcheck.cli.options import policy_options
from groundcheck.schemas import load

ROOT = Path(__file__).resolve().parents[2]
RATE = Draft202012Validator(load("rate"))
COMPARE = Draft202012Validator(load("compare"))


def gc(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "groundcheck", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=False,
    )


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    status = main([*argv, "--format", "json", "--no-plugins"])
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    validator = RATE if argv[0] == "rate" else COMPARE
    errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(data)]
    assert not errors, errors
    return status, data, captured.err


def batch(tmp_path: Path, flagged: int, clean: int, **extra: Any) -> Path:
    rows = [
        make_run(tmp_path, f"r{i:03d}", fabricated=i < flagged, group="ab"[i % 2], task=f"t{i}")
        for i in range(flagged + clean)
    ]
    return write_manifest(tmp_path / "runs.jsonl", rows)


@pytest.mark.parametrize(
    "case", [(0, 120, "pass", 0), (12, 28, "fail", 1), (1, 39, "inconclusive", 3)]
)
def test_the_gate_is_three_way_with_its_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: tuple[int, int, str, int]
) -> None:
    flagged, clean, verdict, status = case
    max_rate = 0.05
    manifest = str(batch(tmp_path, flagged, clean))
    code, data, err = run_json(capsys, "rate", manifest, "--max-rate", str(max_rate))
    gate = data["gate"]
    assert (code, gate["verdict"], gate["exit_code"]) == (status, verdict, status)
    assert gate["max_rate"] == max_rate
    low, high = data["overall"]["run_rate"]["low"], data["overall"]["run_rate"]["high"]
    assert (gate["low"], gate["high"]) == (low, high)
    assert (high <= max_rate) == (verdict == "pass")
    assert (low > max_rate) == (verdict == "fail")
    assert err == ""
    assert main(["rate", manifest, "--max-rate", str(max_rate), "--no-plugins"]) == status
    text = capsys.readouterr().out
    assert f"gate: {verdict.upper()}" in text
    if verdict == "inconclusive":
        needed = gate["clean_runs_needed"]
        assert needed > 0
        assert f"{needed} more clean runs would settle it (a pass)" in text
        # ... and that many clean runs do settle it:
        more = batch(tmp_path / "more", flagged, clean + needed)
        assert run_json(capsys, "rate", str(more), "--max-rate", str(max_rate))[0] == 0


def test_no_gate_without_max_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, _ = run_json(capsys, "rate", str(batch(tmp_path, 5, 5)))
    assert (code, data["gate"]) == (0, None)


@pytest.mark.parametrize("value", ["0", "1", "1.5", "-0.1"])
def test_max_rate_outside_zero_one_is_one_line_exit_2(tmp_path: Path, value: str) -> None:
    make_run(tmp_path, "r1", fabricated=False)
    result = gc("rate", str(tmp_path), "--max-rate", value)
    assert result.returncode == 2
    assert result.stderr == (
        f"groundcheck: error: --max-rate must be between 0 and 1 (a proportion), got {float(value)}\n"
    )
    assert result.stdout == ""


def test_flagged_runs_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = str(batch(tmp_path, 14, 6))
    _, data, _ = run_json(capsys, "rate", manifest)
    assert data["flagged"][0] == {
        "run": "r000",
        "group": "a",
        "task": "t0",
        "codes": ["fabricated-id"],
    }
    assert [f["run"] for f in data["flagged"]] == [f"r{i:03d}" for i in range(14)]
    assert data["flagged_not_listed"] == 0
    main(["rate", manifest, "--no-plugins"])
    lines = capsys.readouterr().out.splitlines()
    named = [line for line in lines if line.startswith("flagged:")]
    assert named[0] == "flagged: r000 (group a, task t0): fabricated-id"
    assert named[-1] == "flagged: … and 4 more (see --format json)"
    assert len(named) == 11


def test_per_scheme_and_per_code_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, data, _ = run_json(capsys, "rate", str(batch(tmp_path, 3, 7)))
    assert data["overall"]["schemes"] == {
        "arxiv": {"cited": 10, "fabricated": 3},
        "doi": {"cited": 10, "fabricated": 0},
    }
    assert data["overall"]["codes"] == {"fabricated-id": {"runs": 3, "findings": 3}}
    by_group = {g["group"]: g["schemes"]["arxiv"] for g in data["groups"]}
    assert by_group == {"a": {"cited": 5, "fabricated": 2}, "b": {"cited": 5, "fabricated": 1}}


def _policy_dests(command: str) -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest for a in sub.choices[command]._actions}


@pytest.mark.parametrize("command", ["rate", "compare"])
def test_every_policy_option_of_audit_is_an_option_of(command: str) -> None:
    """Each Policy field (the URL options too, when they land) is an option here as in audit."""
    fields = {f.name for f in attrs.fields(Policy)}
    assert fields <= _policy_dests("audit"), fields - _policy_dests("audit")
    assert fields <= _policy_dests(command), fields - _policy_dests(command)
    assert _policy_dests("audit") & fields == _policy_dests(command) & fields


def test_policy_options_travel_to_the_workers() -> None:
    """The honest sovereign session does not record its tool outputs: flagged under the default
    policy, not with --unrecorded-severity warning (the issue-14 example, 2 of 2 flagged)."""
    runs = "examples/sovereign-agent-v0.2.0/*/sess_*"
    strict = json.loads(gc("rate", runs, "--format", "json", "--workers", "2").stdout)
    lenient = json.loads(
        gc("rate", runs, "--format", "json", "--unrecorded-severity", "warning").stdout
    )
    assert strict["overall"]["runs_flagged"] == 2
    assert [f["run"] for f in lenient["flagged"]] == ["sess_5b6bf0ea8f98"]
    parser = build_parser()
    args = parser.parse_args(["rate", runs, "--title-threshold", "95", "--long-report-chars", "9"])
    assert policy_options(args) == {"title_threshold": 95.0, "long_report_chars": 9}


def test_a_manifest_row_with_no_report_is_one_error_line_after_the_report(tmp_path: Path) -> None:
    rows = [make_run(tmp_path, f"r{i}", fabricated=False) for i in range(3)]
    rows.insert(1, {"run": "lost", "group": "a"})
    manifest = write_manifest(tmp_path / "runs.jsonl", rows)
    result = gc("rate", str(manifest), "--format", "json")
    assert result.returncode == 2
    assert result.stderr == (
        f"groundcheck: error: {manifest}:2: the row names no report and no evidence\n"
    )
    data = json.loads(result.stdout)  # the rest is rated and reported
    assert (data["overall"]["runs_audited"], data["input_errors"]) == (3, 1)


def test_a_row_whose_trace_holds_no_report_is_an_input_error(tmp_path: Path) -> None:
    make_run(tmp_path, "r1", fabricated=False)
    manifest = write_manifest(
        tmp_path / "runs.jsonl",
        [
            {"run": "r1", "evidence": "r1/tool_calls.json"},
            make_run(tmp_path, "r2", fabricated=False),
        ],
    )
    result = gc("rate", str(manifest))
    assert result.returncode == 2
    assert result.stderr == (
        f"groundcheck: error: {manifest}:1: the row names no report, and its trace holds no "
        "final answer\n"
    )


def test_a_run_folder_with_two_reports_is_one_error_line(tmp_path: Path) -> None:
    make_run(tmp_path, "r1", fabricated=False)
    make_run(tmp_path, "r2", fabricated=False)
    (tmp_path / "r2" / "REPORT.md").write_text("two", "utf-8")
    result = gc("rate", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr == (
        f"groundcheck: error: {tmp_path / 'r2'}: two report files (REPORT.md, report.md); "
        "name the one to audit with --report-name\n"
    )
    assert "runs: 2 (1 audited, 1 unreadable)" in result.stdout


def test_report_name_and_notes_for_folders_that_are_not_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_run(tmp_path, "r1", fabricated=False)
    make_run(tmp_path, "r2", fabricated=True)
    (tmp_path / "r2" / "report.md").rename(tmp_path / "r2" / "Final.MD")
    (tmp_path / "logs").mkdir()
    _, data, _ = run_json(capsys, "rate", str(tmp_path))
    assert data["overall"]["runs_audited"] == 1
    assert data["notes"] == [
        f"{tmp_path / 'logs'}: not a run (no report.md, no logs/trace.jsonl)",
        f"{tmp_path / 'r2'}: not a run (no report.md, no logs/trace.jsonl)",
    ]
    _, data, _ = run_json(
        capsys, "rate", str(tmp_path), "--report-name", "final.md", "--report-name", "report.md"
    )
    assert (data["overall"]["runs_audited"], data["overall"]["runs_flagged"]) == (2, 1)


def test_root_confines_manifest_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_run(tmp_path / "shared", "r1", fabricated=False)
    (tmp_path / "lists").mkdir()
    manifest = write_manifest(
        tmp_path / "lists" / "runs.jsonl",
        [
            {
                "run": "r1",
                "report": "../shared/r1/report.md",
                "evidence": "../shared/r1/tool_calls.json",
            }
        ],
    )
    assert main(["rate", str(manifest), "--no-plugins"]) == 2
    err = capsys.readouterr().err
    assert f"is outside the manifest's folder {tmp_path / 'lists'} (see --root)" in err
    code, data, _ = run_json(capsys, "rate", str(manifest), "--root", str(tmp_path))
    assert (code, data["overall"]["runs_audited"]) == (0, 1)
    assert main(["rate", str(manifest), "--root", str(tmp_path / "nope")]) == 2
    assert (
        capsys.readouterr().err
        == f"groundcheck: error: --root {tmp_path / 'nope'}: no such directory\n"
    )


def test_compare_gate_and_discordant_tasks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = [make_run(tmp_path / "A", f"a{i}", fabricated=i < 8, task=f"t{i:02d}") for i in range(20)]
    b = [
        make_run(tmp_path / "B", f"b{i}", fabricated=i in (0, 15), task=f"t{i:02d}")
        for i in range(20)
    ]
    side_a = str(write_manifest(tmp_path / "A" / "runs.jsonl", a))
    side_b = str(write_manifest(tmp_path / "B" / "runs.jsonl", b))
    _, plain, _ = run_json(capsys, "compare", side_a, side_b)
    assert plain["gate"] is None
    assert plain["discordant"]["only_a"] == [
        {"task": f"t{i:02d}", "run_a": f"a{i}", "run_b": f"b{i}"} for i in range(1, 8)
    ]
    assert plain["discordant"]["only_b"] == [{"task": "t15", "run_a": "a15", "run_b": "b15"}]
    low, high = plain["difference"]["low"], plain["difference"]["high"]
    assert low > 0
    for maximum, verdict, status in (
        (round(high + 0.01, 2), "pass", 0),
        (round(low - 0.01, 2), "fail", 1),
        (0.25, "inconclusive", 3),
    ):
        code, data, _ = run_json(
            capsys, "compare", side_a, side_b, "--max-difference", str(maximum)
        )
        gate = data["gate"]
        assert (code, gate["verdict"], gate["exit_code"]) == (status, verdict, status), maximum
        assert (gate["low"], gate["high"]) == (low, high)
        assert (gate["tasks_needed"] == 0) == (verdict != "inconclusive")
    code, data, _ = run_json(capsys, "compare", side_b, side_a, "--max-difference", "-0.01")
    assert (code, data["gate"]["verdict"]) == (0, "pass")  # B − A is below zero for sure
    main(["compare", side_a, side_b, "--max-difference", "0.25", "--no-plugins"])
    text = capsys.readouterr().out
    assert "only A flagged: t01, t02, t03, t04, t05, t06, t07" in text
    assert "only B flagged: t15" in text
    assert "gate: INCONCLUSIVE (exit 3)" in text and "more paired tasks" in text
    main(["compare", side_a, side_b, "--max-difference", "0.3", "--no-plugins"])
    assert "more tasks at these rates would not settle it" in capsys.readouterr().out  # on it
    assert main(["compare", side_a, side_b, "--max-difference", "1"]) == 2
    assert "--max-difference must be between -1 and 1" in capsys.readouterr().err
