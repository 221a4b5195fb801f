"""``groundcheck audit --trace LOG --sample ID`` and ``--evidence-format`` names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundcheck.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "evidence" / "fixtures"
LOG = FIXTURES / "inspect" / "moe.eval"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_audit_one_sample_of_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "audit", "--trace", str(LOG), "--sample", "moe:1", "--format", "json"
    )
    assert code == 1, err
    verdict = json.loads(out)
    assert [f["citation"]["id"] for f in verdict["findings"]] == ["2004.04906"]


def test_a_log_of_several_samples_needs_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "audit", "--trace", str(LOG))
    assert code == 2
    assert "pass --sample ID (one of: moe:1, moe:2, rag:1, rag:2)" in err
    code, _, err = run(capsys, "audit", "--trace", str(LOG), "--sample", "nope")
    assert code == 2 and "no sample 'nope' in this log" in err


def test_sample_on_a_trace_that_is_not_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "audit", "--trace", str(FIXTURES / "claude-code.jsonl"), "--sample", "moe"
    )
    assert code == 2 and "none of the files is an inspect-ai log" in err


def test_every_format_name_and_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tmp_path / "report.md"
    report.write_text("RAG (arXiv:2005.11401).\n", "utf-8")
    code, out, err = run(
        capsys, "audit", str(report), "--evidence", str(FIXTURES / "records" / "citations.json"),
        "--evidence-format", "records",
    )  # fmt: skip
    assert code == 0, (out, err)
    code, _, err = run(
        capsys, "audit", "--trace", str(FIXTURES / "inspect" / "moe.json"), "--sample", "rag:2",
        "--evidence-format", "inspect-ai",
    )  # fmt: skip
    assert code == 1, err
    code, _, err = run(capsys, "audit", str(report), "--evidence", str(LOG),
                       "--evidence-format", "xml")  # fmt: skip
    assert code == 2 and "unknown evidence format 'xml'" in err
