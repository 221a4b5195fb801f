"""Batch audits: finding runs, auditing them in parallel, pooling them into rates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundcheck.batch import (
    audit_runs,
    clean_runs_needed,
    discover_runs,
    summarize,
)
from groundcheck.cli import main
from groundcheck.stats import wilson

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def make_run(
    root: Path, name: str, *, fabricated: bool, group: str | None = None
) -> dict[str, str]:
    folder = root / name
    folder.mkdir(parents=True)
    cited = "arXiv:2004.04906" if fabricated else "arXiv:2005.11401"
    (folder / "report.md").write_text(f"# Notes\n\nWe rely on {cited}.\n", "utf-8")
    calls = [{"tool": "search", "output": [{"arxiv_id": "2005.11401", "title": "RAG"}]}]
    (folder / "tool_calls.json").write_text(json.dumps(calls), "utf-8")
    entry = {"run": name, "report": f"{name}/report.md", "evidence": f"{name}/tool_calls.json"}
    if group:
        entry["group"] = group
    return entry


def test_discover_folders_globs_and_session_folders(tmp_path: Path) -> None:
    make_run(tmp_path / "batch", "r1", fabricated=False)
    make_run(tmp_path / "batch", "r2", fabricated=True)
    (tmp_path / "batch" / "empty").mkdir()
    specs, notes = discover_runs(
        [str(tmp_path / "batch"), str(EXAMPLES / "sovereign-agent-v0.2.0" / "*" / "sess_*")]
    )
    assert [s.run for s in specs] == ["r1", "r2", "sess_5b6bf0ea8f98", "sess_b40bd7824aed"]
    assert specs[2].report is None  # the session folder's report is read from the trace
    assert notes == [
        f"{tmp_path / 'batch' / 'empty'}: not a run (no report.md, no logs/trace.jsonl)"
    ]


def test_manifest_problems_are_counted_not_fatal(tmp_path: Path) -> None:
    entries = [make_run(tmp_path, "r1", fabricated=False)]
    lines = [
        json.dumps(entries[0]),
        "{not json",
        json.dumps({"report": "x"}),
        json.dumps(entries[0]),
    ]
    lines.append(json.dumps({"run": "gone", "report": "missing.md", "evidence": "missing.json"}))
    manifest = tmp_path / "runs.jsonl"
    manifest.write_text("\n".join(lines) + "\n", "utf-8")
    specs, notes = discover_runs([str(manifest)])
    assert notes == ["duplicate run id 'r1': kept the first, skipped this one"]
    results = audit_runs(specs, workers=1)
    report = summarize(results, notes)
    assert report.overall.runs == 1
    problems = {r.run: r.problem for r in report.unreadable}
    assert problems[f"{manifest}:2"] == f"{manifest}:2: manifest line is not valid JSON"
    assert problems[f"{manifest}:3"] == f"{manifest}:3: manifest line needs a 'run' id"
    assert "no such file" in (problems["gone"] or "")
    errors = {r.run for r in report.unreadable if r.input_error}
    assert errors == {f"{manifest}:2", f"{manifest}:3"}  # a missing file is not an input error


def test_rates_groups_and_targets(tmp_path: Path) -> None:
    entries = [make_run(tmp_path, f"a{i}", fabricated=i < 2, group="A") for i in range(10)]
    entries += [make_run(tmp_path, f"b{i}", fabricated=False, group="B") for i in range(10)]
    manifest = tmp_path / "runs.jsonl"
    manifest.write_text("".join(json.dumps(e) + "\n" for e in entries), "utf-8")
    specs, _ = discover_runs([str(manifest)])
    report = summarize(audit_runs(specs, workers=1, canary=True), target=0.05)
    assert (report.overall.runs, report.overall.flagged) == (20, 2)
    assert report.overall.run_rate == wilson(2, 20)
    assert (report.overall.cited, report.overall.fabricated) == (20, 2)
    a, b = report.groups
    assert (a.name, a.flagged, a.rule_of_three) == ("A", 2, None)
    assert (b.name, b.flagged) == ("B", 0)
    assert b.rule_of_three == pytest.approx(0.2996, abs=1e-4)
    assert b.clean_runs_needed == clean_runs_needed(0, 10, 0.05)
    assert (report.canary_runs, report.canary_caught) == (20, 20)
    data = report.to_dict()
    assert data["runs_total"] == 20
    assert data["overall"]["run_rate"]["estimate"] == 0.1


def test_parallel_matches_sequential(tmp_path: Path) -> None:
    entries = [make_run(tmp_path, f"r{i:03d}", fabricated=i % 7 == 0) for i in range(80)]
    manifest = tmp_path / "runs.jsonl"
    manifest.write_text("".join(json.dumps(e) + "\n" for e in entries), "utf-8")
    specs, _ = discover_runs([str(manifest)])
    assert list(audit_runs(specs, workers=1)) == list(audit_runs(specs, workers=2))


def test_any_executor_gives_the_same_results(tmp_path: Path) -> None:
    """The executor seam: a thread pool (or a Dask client's executor) gives what processes do."""
    from concurrent.futures import ThreadPoolExecutor

    entries = [make_run(tmp_path, f"r{i:03d}", fabricated=i % 5 == 0) for i in range(70)]
    manifest = tmp_path / "runs.jsonl"
    manifest.write_text("".join(json.dumps(e) + "\n" for e in entries), "utf-8")
    specs, _ = discover_runs([str(manifest)])
    with ThreadPoolExecutor(2) as pool:
        threaded = list(audit_runs(specs, executor=pool))
    assert threaded == list(audit_runs(specs, workers=1))
    assert sum(r.flagged for r in threaded) == 14


def test_policy_options_travel_to_the_workers(tmp_path: Path) -> None:
    """A Policy option given to the batch is the one every worker audits under."""
    entries = [make_run(tmp_path, f"r{i:03d}", fabricated=True) for i in range(70)]
    manifest = tmp_path / "runs.jsonl"
    manifest.write_text("".join(json.dumps(e) + "\n" for e in entries), "utf-8")
    specs, _ = discover_runs([str(manifest)])
    strict = list(audit_runs(specs, workers=2))
    ids_only = list(audit_runs(specs, workers=2, options={"extractors": ["doi"]}))
    assert all(r.flagged for r in strict)
    assert not any(r.flagged for r in ids_only)


def test_clean_runs_needed() -> None:
    assert clean_runs_needed(0, 300, 0.02) == 0
    extra = clean_runs_needed(3, 50, 0.05)
    assert extra is not None
    assert wilson(3, 50 + extra).high <= 0.05 < wilson(3, 50 + extra - 1).high
    assert clean_runs_needed(0, 10, 0) is None


def test_cli_rate_text_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(4):
        make_run(tmp_path / "runs", f"r{i}", fabricated=i == 0, group=None)
    plot = tmp_path / "rates.png"
    assert main(["rate", str(tmp_path / "runs"), "--canary", "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "runs flagged: 1 of 4 → 25.0%" in out
    assert "canary: planted in 4 report copies, caught in 4" in out
    assert plot.stat().st_size > 1000
    assert main(["rate", str(tmp_path / "runs"), "--format", "json", "--target", "0.05"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["overall"]["runs_flagged"] == 1
    assert data["target_upper_bound"] == 0.05


def test_cli_rate_nothing_measured(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["rate", str(tmp_path / "empty")]) == 2
    captured = capsys.readouterr()
    assert "no runs found" in captured.out
    assert "nothing was measured" in captured.err
    assert main(["rate", str(tmp_path / "empty"), "--target", "2"]) == 2
    assert main(["rate", str(tmp_path / "empty"), "--workers", "-1"]) == 2
    assert "--workers must be 1 or more" in capsys.readouterr().err


def test_cli_compare_pairs_by_task(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(6):
        make_run(tmp_path / "A", f"t{i}", fabricated=i < 3)
        make_run(tmp_path / "B", f"t{i}", fabricated=i == 0)
    make_run(tmp_path / "B", "t-extra", fabricated=False)
    assert main(["compare", str(tmp_path / "A"), str(tmp_path / "B"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pairs"] == 6
    assert (data["both_flagged"], data["only_a_flagged"], data["only_b_flagged"]) == (1, 2, 0)
    assert data["mcnemar_exact_p"] == 0.5
    assert any("only in B" in n for n in data["notes"])
    assert main(["compare", str(tmp_path / "A"), str(tmp_path / "B")]) == 0
    assert "difference A − B: +33.3 points" in capsys.readouterr().out


def test_plot_errors(tmp_path: Path) -> None:
    from groundcheck.errors import ConfigError
    from groundcheck.render.plot import forest_plot

    report = summarize([])
    with pytest.raises(ConfigError, match="png"):
        forest_plot(report, tmp_path / "rates.gif")
