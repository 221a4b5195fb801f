"""Logs of many runs: every sample (and epoch) of an inspect-ai log is a run for rate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from groundcheck.batch import audit_runs, discover_runs, summarize
from groundcheck.cli import main

LOGS = Path(__file__).resolve().parents[1] / "evidence" / "fixtures" / "inspect"


def test_each_sample_and_epoch_is_a_run() -> None:
    specs, notes = discover_runs([str(LOGS / "moe.eval"), str(LOGS / "moe.json")])
    assert notes == []
    assert [s.run.rsplit("/", 1)[-1] for s in specs] == [
        f"moe.{ext}#{sample}"
        for ext in ("eval", "json")
        for sample in ("moe:1", "moe:2", "rag:1", "rag:2")
    ]
    assert [s.task for s in specs[:4]] == ["moe", "moe", "rag", "rag"]
    results = list(audit_runs(specs, workers=1))  # streamed: a generator
    assert all(r.readable and r.flagged for r in results)  # every answer cites 2004.04906
    assert [r.fabricated for r in results[:4]] == [1, 1, 1, 1]
    assert summarize(results).overall.runs == 8


def test_a_folder_of_logs(tmp_path: Path) -> None:
    shutil.copy(LOGS / "moe-deflate.eval", tmp_path / "a.eval")
    (tmp_path / "not-a-log.json").write_text(json.dumps([{"tool": "t", "output": "x"}]), "utf-8")
    specs, _ = discover_runs([str(tmp_path)])
    assert [s.sample for s in specs] == ["moe:1", "moe:2", "rag:1", "rag:2"]


def test_a_broken_log_is_an_unreadable_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.eval"
    bad.write_bytes(b"PK\x03\x04 truncated")
    specs, _ = discover_runs([str(bad)])
    assert len(specs) == 1 and specs[0].problem is not None


def test_cli_rate_takes_logs(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rate", str(LOGS / "moe.eval"), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert data["overall"]["runs_audited"] == 4 and data["overall"]["runs_flagged"] == 4
