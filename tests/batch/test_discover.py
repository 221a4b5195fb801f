"""Finding runs, streamed: report names, notes for what is not a run, --root, input errors,
and a million-line manifest read in bounded memory."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest
from batch_helpers import make_run, write_manifest

from groundcheck.batch import count_runs, discover_runs, iter_runs
from groundcheck.errors import ConfigError


def test_report_name_is_case_insensitive_and_chosen(tmp_path: Path) -> None:
    make_run(tmp_path, "upper", fabricated=False)
    (tmp_path / "upper" / "report.md").rename(tmp_path / "upper" / "REPORT.MD")
    make_run(tmp_path, "answer", fabricated=False)
    (tmp_path / "answer" / "report.md").rename(tmp_path / "answer" / "answer.md")
    specs, notes = discover_runs([str(tmp_path)])
    assert [s.run for s in specs] == ["upper"]
    assert specs[0].report is not None and specs[0].report.endswith("REPORT.MD")
    assert notes == [f"{tmp_path / 'answer'}: not a run (no report.md, no logs/trace.jsonl)"]
    specs, notes = discover_runs([str(tmp_path)], report_names=["Answer.md", "report.md"])
    assert [s.run for s in specs] == ["answer", "upper"]
    assert notes == []


def test_every_subfolder_that_is_not_a_run_is_noted(tmp_path: Path) -> None:
    make_run(tmp_path, "r1", fabricated=False)
    for name in ("notes", "scratch", ".cache"):
        (tmp_path / name).mkdir()
    (tmp_path / "README.md").write_text("not a folder", "utf-8")
    specs, notes = discover_runs([str(tmp_path)])
    assert [s.run for s in specs] == ["r1"]
    assert sorted(notes) == sorted(
        f"{tmp_path / n}: not a run (no report.md, no logs/trace.jsonl)"
        for n in (".cache", "notes", "scratch")
    )


def test_a_run_folder_with_two_reports_is_an_input_error(tmp_path: Path) -> None:
    make_run(tmp_path, "r1", fabricated=False)
    (tmp_path / "r1" / "Report.md").write_text("another", "utf-8")
    (spec,), _ = discover_runs([str(tmp_path / "r1")])
    assert spec.input_error
    assert spec.problem == (
        f"{tmp_path / 'r1'}: two report files (Report.md, report.md); name the one to audit "
        "with --report-name"
    )


def test_manifest_row_problems_are_input_errors_naming_the_line(tmp_path: Path) -> None:
    ok = make_run(tmp_path, "r1", fabricated=False)
    manifest = write_manifest(
        tmp_path / "runs.jsonl",
        [
            ok,
            {"run": "empty"},
            {"run": "bad", "report": 3},
            {"run": "bad2", "evidence": [""]},
            "[1, 2]",
        ],
    )
    specs, _ = discover_runs([str(manifest)])
    problems = {s.run: s.problem for s in specs if s.input_error}
    assert problems == {
        "empty": f"{manifest}:2: the row names no report and no evidence",
        "bad": f"{manifest}:3: 'report' must be a path",
        "bad2": f"{manifest}:4: 'evidence' must be a path or a list of paths",
        f"{manifest}:5": f"{manifest}:5: manifest line needs a 'run' id",
    }
    assert [s.run for s in specs if not s.input_error] == ["r1"]


def test_manifest_paths_are_confined_to_its_folder_by_default(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    make_run(outside, "secret", fabricated=False)
    inside = tmp_path / "runs"
    row = make_run(inside, "r1", fabricated=False)
    (inside / "link").symlink_to(outside / "secret")
    manifest = write_manifest(
        inside / "runs.jsonl",
        [
            row,
            {"run": "up", "report": "../outside/secret/report.md"},
            {"run": "abs", "report": str(outside / "secret" / "report.md")},
            {"run": "via-link", "report": "link/report.md"},
            {"run": "inside-up", "report": "r1/../r1/report.md"},
        ],
    )
    specs = {s.run: s for s in iter_runs([str(manifest)])}
    assert not specs["r1"].input_error
    assert not specs["inside-up"].input_error
    for run in ("up", "abs", "via-link"):
        assert specs[run].input_error, run
        assert f"is outside the manifest's folder {inside}" in (specs[run].problem or "")
    wide = {s.run: s for s in iter_runs([str(manifest)], root=tmp_path)}
    assert not any(s.input_error for s in wide.values())
    assert wide["via-link"].report == str(inside / "link" / "report.md")


def test_root_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"--root .*: no such directory"):
        iter_runs([str(tmp_path)], root=tmp_path / "nope")
    (tmp_path / "file").write_text("x", "utf-8")
    with pytest.raises(ConfigError, match="not a directory"):
        iter_runs([str(tmp_path)], root=tmp_path / "file")
    with pytest.raises(ConfigError, match="--report-name wants a file name"):
        iter_runs([str(tmp_path)], report_names=["a/b.md"])


def test_missing_and_odd_sources_are_input_errors(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", "utf-8")
    specs, notes = discover_runs(
        [str(tmp_path / "nope"), str(tmp_path / "notes.txt"), str(tmp_path / "*.zzz")]
    )
    assert [(s.problem, s.input_error) for s in specs] == [
        (f"{tmp_path / 'nope'}: no such file or folder", True),
        (f"{tmp_path / 'notes.txt'}: not a run folder, a .jsonl manifest or an inspect-ai log", True),
    ]
    assert notes == [f"{tmp_path / '*.zzz'}: the pattern matches nothing"]


def test_discovery_is_lazy(tmp_path: Path) -> None:
    """The first run is handed over before the rest of the manifest is read: a manifest
    still being written (a pipe, a file growing) is audited as it grows."""
    make_run(tmp_path, "r1", fabricated=False)
    manifest = tmp_path / "runs.jsonl"
    fifo = tmp_path / "runs.fifo.jsonl"
    os.mkfifo(fifo)
    row = json.dumps({"run": "r1", "report": "r1/report.md", "evidence": "r1/tool_calls.json"})
    writer = os.open(fifo, os.O_RDWR)  # keeps the pipe open: nothing more arrives yet
    try:
        os.write(writer, (row + "\n").encode())
        first = next(iter_runs([str(fifo)]))
        assert first.run == "r1"
    finally:
        os.close(writer)
    assert not manifest.exists()


def test_many_rows_with_one_broken_row_stream_in_bounded_memory(tmp_path: Path) -> None:
    """Issue 16: a long manifest with one broken row in the middle: the broken row is an input
    error naming its line, every other row is a run, and discovery holds no list. (The
    benchmark's --million runs the same at 10^6 rows, audited.)"""
    rows = 100_000
    manifest = tmp_path / "million.jsonl"
    with manifest.open("w", encoding="utf-8") as out:
        for i in range(rows):
            if i == rows // 2:
                out.write('{"run": "broken", "report": \n')
                continue
            out.write(f'{{"run": "r{i:07d}", "report": "f/report.md", "evidence": "f/c.json"}}\n')
    warm = write_manifest(tmp_path / "warm.jsonl", [{"run": "w", "report": "f/report.md"}])
    list(iter_runs([str(warm)]))  # the modules a manifest needs are imported before counting
    tracemalloc.start()
    try:
        runs = broken = 0
        bad = []
        for spec in iter_runs([str(manifest)]):
            runs += 1
            if spec.input_error:
                broken += 1
                bad.append(spec.problem)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (runs, broken) == (rows, 1)
    assert bad == [f"{manifest}:{rows // 2 + 1}: manifest line is not valid JSON"]
    # The duplicate check holds 16 bytes per run id (at most 32 while its table doubles):
    # a list of a million specs would take hundreds of MiB.
    assert peak < 48 * rows, peak
    assert count_runs([str(manifest)]) == rows


def test_duplicates_are_skipped_in_bounded_memory(tmp_path: Path) -> None:
    row = make_run(tmp_path, "r1", fabricated=False)
    manifest = write_manifest(tmp_path / "runs.jsonl", [row, row, {**row, "run": 1}, row])
    specs, notes = discover_runs([str(manifest), str(tmp_path / "r1")])
    assert [s.run for s in specs] == ["r1", "1"]
    assert notes == ["duplicate run id 'r1': kept the first, skipped this one"] * 3
