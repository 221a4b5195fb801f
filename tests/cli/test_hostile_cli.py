"""Hostile input through the command line: a verdict, or one line naming the file (exit 2).

Each test is an input that once gave a traceback, a hang or a misleading answer (issue 18);
the readers' side is in ``tests/evidence/test_hostile_input.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
import threading
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from groundcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
HONEST = ROOT / "examples" / "honest"
BIG = "7" * 5000
MESSAGES = [
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "Switch Transformers 2101.03961"},
    {"role": "assistant", "content": "See arXiv:2101.03961."},
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_error_line(err: str, *names: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("groundcheck: error: "), err
    assert "Traceback" not in err
    for name in names:
        assert name in lines[0]


@pytest.mark.parametrize("where", ["jsonl", "document", "tool output", "arguments"])
def test_a_5000_digit_number_anywhere_in_a_trace_gives_a_verdict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    """Before: ValueError from the int limit, exit 1 (which CI reads as "findings")."""
    messages = json.loads(json.dumps(MESSAGES))
    if where == "tool output":
        messages[1]["content"] = '{"arxiv": "2101.03961", "n": ' + BIG + "}"
    if where == "arguments":
        messages[0]["tool_calls"][0]["function"]["arguments"] = '{"n": ' + BIG + "}"
    trace = tmp_path / "trace.json"
    if where == "jsonl":
        text = "".join(json.dumps(m) + "\n" for m in messages)
        text += '{"role": "user", "content": "x", "n": ' + BIG + "}\n"
    else:
        text = json.dumps({"messages": messages, "n": "BIG"}).replace('"BIG"', BIG)
    trace.write_text(text, "utf-8")
    code, out, err = run(capsys, "audit", "--trace", str(trace), "--format", "json")
    assert (code, err) == (0, "")
    verdict = json.loads(out)
    assert verdict["ok"] is True
    assert [c["id"] for c in verdict["citations"]] == ["2101.03961"]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_is_one_line_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Before: read without limit (a hang, then memory exhaustion)."""
    code, _, err = run(
        capsys, "audit", str(HONEST / "report.md"), "--evidence", "/dev/zero"
    )
    assert code == 2
    _one_error_line(err, "/dev/zero", "binary data")
    code, _, err = run(
        capsys,
        "audit",
        "/dev/zero",
        "--evidence",
        str(HONEST / "tool_calls.json"),
        "--max-input-bytes",
        "1M",
    )
    assert code == 2
    _one_error_line(err, "/dev/zero", "more than the input limit of 1,048,576 bytes")


def test_a_file_over_the_limit_names_the_file_and_the_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    evidence = str(HONEST / "tool_calls.json")
    for command in (["audit", str(HONEST / "report.md"), "--evidence", evidence], ["extract", evidence]):
        code, _, err = run(capsys, *command, "--max-input-bytes", "100")
        assert code == 2
        _one_error_line(err, "--max-input-bytes", "input limit of 100 bytes")
    with pytest.raises(SystemExit) as usage:
        main(["audit", str(HONEST / "report.md"), "--evidence", evidence, "--max-input-bytes", "0"])
    assert usage.value.code == 2
    assert "--max-input-bytes: expected a positive number of bytes" in capsys.readouterr().err


def _fifo(path: Path, text: str) -> threading.Thread:
    os.mkfifo(path)

    def write() -> None:
        with path.open("w", encoding="utf-8") as stream:
            stream.write(text)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


def test_two_pipes_as_evidence_are_both_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--evidence <(cmd) --evidence <(cmd)``: before, the second pass found the pipes empty
    ("no known trace format in the first 0 record(s)")."""
    report = tmp_path / "report.md"
    report.write_text("See arXiv:2101.03961 and arXiv:2005.11401.\n", "utf-8")
    writers = [
        _fifo(tmp_path / "a", "".join(json.dumps(m) + "\n" for m in MESSAGES[:2])),
        _fifo(tmp_path / "b", (HONEST / "tool_calls.json").read_text("utf-8")),
    ]
    code, out, err = run(
        capsys, "audit", str(report), "--evidence", str(tmp_path / "a"), "--evidence",
        str(tmp_path / "b"), "--format", "json",
    )  # fmt: skip
    for writer in writers:
        writer.join(timeout=10)
    assert (code, err) == (0, "")
    assert json.loads(out)["summary"]["grounded"] == 2


def test_a_broken_plugin_in_a_rate_of_64_runs_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a BrokenProcessPool traceback, or one 'unreadable' line per run (rates computed
    over whatever runs the plug-in let through)."""
    (tmp_path / "gc_broken_plugin.py").write_text(
        textwrap.dedent(
            """
            def find(text):
                raise RuntimeError("plug-in bug")
            """
        ),
        "utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "gc_broken_plugin", raising=False)
    eps = [EntryPoint(name="broken", value="gc_broken_plugin:find", group="groundcheck.extractors")]
    monkeypatch.setattr(
        "importlib.metadata.entry_points", lambda group: [e for e in eps if e.group == group]
    )
    runs = tmp_path / "runs"
    for i in range(66):
        shutil.copytree(HONEST, runs / f"run{i:02d}")
    code, out, err = run(capsys, "rate", str(runs), "--workers", "2", "-q")
    assert code == 2
    assert out == ""
    _one_error_line(err, "extractor 'broken' failed: RuntimeError: plug-in bug", "--no-plugins")
    code, out, err = run(capsys, "rate", str(runs), "--workers", "2", "-q", "--no-plugins")
    assert (code, err) == (0, "")
    assert "runs flagged: 0 of 66" in out


def test_running_out_of_memory_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a 10 MB report reached 7.2 GB and a MemoryError traceback."""

    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr("groundcheck.auditor.Auditor.audit", exhausted)
    code, out, err = run(
        capsys, "audit", str(HONEST / "report.md"), "--evidence", str(HONEST / "tool_calls.json")
    )
    assert (code, out) == (2, "")
    _one_error_line(err, "out of memory", "--max-input-bytes")
