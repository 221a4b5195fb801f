"""The evidence ledger: recording, schema-enforced refusals, append-only rows, reliability."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from groundcheck import audit
from groundcheck.cli import main
from groundcheck.errors import InputError
from groundcheck.ledger import CitationRefused, Ledger

RAG = {
    "arxiv_id": "2005.11401",
    "title": "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
}
DPR = {
    "doi": "10.48550/arXiv.2004.04906",
    "title": "Dense Passage Retrieval for Open-Domain Question Answering",
}


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path / "evidence.db")


def _search_tool(ledger: Ledger) -> Any:
    @ledger.record
    def arxiv_search(query: str, limit: int = 5) -> list[dict[str, str]]:
        return [RAG, DPR] if "rag" in query else []

    return arxiv_search


def test_record_sync_async_and_errors(ledger: Ledger) -> None:
    """Each call is recorded with its arguments by name, its output, or its failure."""
    search = _search_tool(ledger)

    @ledger.record(name="fetch")
    async def fetch_page(url: str) -> str:
        return "page text"

    @ledger.record
    def broken(x: int) -> None:
        raise RuntimeError("tool crashed")

    with ledger.run("r1"):
        assert search("rag") == [RAG, DPR]
        assert asyncio.run(fetch_page("https://example.org")) == "page text"
        with pytest.raises(RuntimeError, match="tool crashed"):
            broken(3)
    calls = ledger.tool_calls("r1")
    assert [c["tool"] for c in calls] == ["arxiv_search", "fetch", "broken"]
    assert calls[0]["input"] == {"query": "rag"}
    assert calls[1]["output"] == "page text"
    assert calls[2]["error"] == "tool crashed"


def test_calls_outside_a_run_go_to_the_default_run(ledger: Ledger) -> None:
    search = _search_tool(ledger)
    search("rag")
    assert ledger.runs() == ["default"]
    assert len(ledger.tool_calls("default")) == 1


def test_ledger_audit_equals_groundcheck_audit(ledger: Ledger) -> None:
    """Same verdict, byte for byte, as auditing the recorded calls directly."""
    search = _search_tool(ledger)
    with ledger.run("r1") as run:
        search("rag")
        search("nothing")
        report = "See arXiv:2005.11401, arXiv:2004.04906 and the invented arXiv:2310.11511."
        verdict = run.audit(report)
    direct = audit(report, ledger.tool_calls("r1"))
    assert verdict.to_json() == direct.to_json()
    assert [f.code for f in verdict.findings] == ["fabricated-id"]


def test_cite_refuses_what_no_call_returned(ledger: Ledger) -> None:
    """The refusal comes from SQLite's constraints, and is scoped to the run."""
    search = _search_tool(ledger)
    with ledger.run("r1") as run:
        search("rag")
        run.cite("arXiv:2005.11401v2")
        run.cite("https://doi.org/10.48550/arXiv.2004.04906")
        with pytest.raises(
            CitationRefused, match="not returned by any tool call of run 'r1'"
        ) as info:
            run.cite("arXiv:2310.11511")
        assert isinstance(info.value.__cause__, sqlite3.IntegrityError)
        with pytest.raises(CitationRefused, match="not one well-formed"):
            run.cite("arXiv:2313.01234")
    with ledger.run("r2") as other, pytest.raises(CitationRefused):
        other.cite("arXiv:2005.11401")  # returned in r1, not in r2
    assert ledger.summary("r1")[0]["citations"] == [
        "arXiv:2005.11401v2",
        "https://doi.org/10.48550/arXiv.2004.04906",
    ]


def test_schema_refuses_forged_rows_and_edits(ledger: Ledger) -> None:
    """Direct SQL cannot forge a citation, edit a call or delete a proof row."""
    _search_tool(ledger)("rag")
    conn = sqlite3.connect(ledger.path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    forged = (
        "INSERT INTO citations (run_id, returned_id, raw, created_at) VALUES (1, 999, 'x', 'now')"
    )
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        conn.execute(forged)
    for statement in (
        "UPDATE calls SET output = '[]'",
        "DELETE FROM calls",
        "UPDATE returned SET identifier = '2310.11511'",
        "DELETE FROM returned",
        "DELETE FROM runs",
        "UPDATE returned_titles SET title = 'x'",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(statement)
    conn.close()
    assert ledger.integrity() == "ok"


def test_bibliography_from_records_only(ledger: Ledger) -> None:
    search = _search_tool(ledger)
    with ledger.run("r1") as run:
        search("rag")
        markdown = run.bibliography()
        bibtex = run.bibliography("bibtex")
    assert markdown == (
        "1. Dense Passage Retrieval for Open-Domain Question Answering. arXiv:2004.04906\n"
        "2. Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks. arXiv:2005.11401\n"
    )
    assert "@misc{arxiv_2005_11401,\n  title = {Retrieval-Augmented" in bibtex
    assert "archivePrefix = {arXiv}" in bibtex
    with pytest.raises(ValueError, match="style"):
        ledger.bibliography("html")  # type: ignore[arg-type]


def test_concurrent_threads(ledger: Ledger) -> None:
    search = _search_tool(ledger)

    def worker(n: int) -> None:
        with ledger.run(f"t{n % 2}"):
            for _ in range(25):
                search("rag")

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ledger.tool_calls("t0")) + len(ledger.tool_calls("t1")) == 100
    assert ledger.integrity() == "ok"


def _process_worker(path: str) -> int:
    ledger = Ledger(path)

    @ledger.record
    def search(q: str) -> list[dict[str, str]]:
        return [RAG]

    with ledger.run(f"p{os.getpid()}"):
        for _ in range(30):
            search("x")
    return os.getpid()


def test_concurrent_processes(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    Ledger(path)
    with ProcessPoolExecutor(3) as pool:
        pids = list(pool.map(_process_worker, [path] * 3))
    ledger = Ledger(path)
    # A worker process may take more than one task; every task recorded 30 calls.
    assert sum(len(ledger.tool_calls(f"p{pid}")) for pid in set(pids)) == 30 * len(pids)
    assert ledger.integrity() == "ok"


def test_kill_9_loses_no_committed_row(tmp_path: Path) -> None:
    """A process killed mid-run leaves a readable ledger with every call it reported done."""
    path = tmp_path / "killed.db"
    script = textwrap.dedent(
        f"""
        import sys
        from groundcheck.ledger import Ledger
        ledger = Ledger({str(path)!r})
        @ledger.record
        def search(q):
            return [{{"arxiv_id": "2005.11401"}}] * 50
        with ledger.run("doomed"):
            for i in range(100000):
                search(str(i))
                print(i, flush=True)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    done = -1
    for line in proc.stdout:
        done = int(line)
        if done >= 200:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    ledger = Ledger(path)
    assert ledger.integrity() == "ok"
    assert len(ledger.tool_calls("doomed")) >= done + 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is not a database at all" * 100, "not a usable groundcheck ledger"),
        (None, "not a groundcheck ledger"),
    ],
)
def test_corrupt_or_foreign_files(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "other.db"
    if content is None:
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
        conn.commit()
        conn.close()
    else:
        path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        Ledger(path)


def test_cli_ledger_show_and_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ledger = Ledger(tmp_path / "l.db")
    search = _search_tool(ledger)
    with ledger.run("r1") as run:
        search("rag")
        run.cite("arXiv:2005.11401")
    assert main(["ledger", "show", str(ledger.path)]) == 0
    out = capsys.readouterr().out
    assert "run r1: 1 calls, 1 citations" in out
    assert (
        "call-1 arxiv_search: arxiv:2004.04906, arxiv:2005.11401, doi:10.48550/arxiv.2004.04906"
        in out
    )
    assert main(["ledger", "show", str(ledger.path), "--format", "json", "--run", "r1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["runs"][0]["calls"][0]["input"] == {"query": "rag"}
    report = tmp_path / "r.md"
    report.write_text("See arXiv:2005.11401 and arXiv:2310.11511.", "utf-8")
    assert main(["ledger", "audit", str(ledger.path), str(report), "--run", "r1"]) == 1
    assert "fabricated-id: arXiv:2310.11511" in capsys.readouterr().out
    assert main(["ledger", "audit", str(tmp_path / "none.db"), str(report)]) == 2
    assert main(["ledger", "audit", str(ledger.path), str(report), "--run", "nope"]) == 2


def test_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The first example of docs/ledger.md runs as written and prints what it promises."""
    import re

    doc = (Path(__file__).resolve().parents[1] / "docs" / "ledger.md").read_text("utf-8")
    code = re.findall(r"```python\n(.*?)```", doc, re.S)[0]
    exec(code, {})
    out = capsys.readouterr().out
    assert "was not returned by any tool call of run 'rag-survey'" in out
    assert (
        "1. Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks. arXiv:2005.11401"
        in out
    )
    assert "['fabricated-id']" in out
