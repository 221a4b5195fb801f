"""The ledger under faults: simultaneous first opens, odd results, full disks, damaged files,
read-only places, tampering, and reads that must never write."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

import groundcheck
from groundcheck.cli import main
from groundcheck.errors import (
    CitationRefused,
    ConfigError,
    GroundcheckError,
    InputError,
    LedgerError,
    LedgerWarning,
)
from groundcheck.extractors.builtin import builtin_registry
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.ledger import Ledger
from groundcheck.model import Identifier, Mention, Scheme, Verdict

RAG = {"arxiv_id": "2005.11401", "title": "Retrieval-Augmented Generation for NLP Tasks"}


def _search(ledger: Ledger) -> Any:
    @ledger.record
    def search(query: str) -> list[dict[str, str]]:
        return [RAG]

    return search


def _files(path: Path) -> dict[str, str]:
    """The bytes of a ledger and its WAL, by name (what "never writes" is checked against).

    An empty WAL does not count: SQLite's read-only connections create the (empty) side files
    a WAL database locks with, next to it, when the folder allows it."""
    out = {}
    for candidate in (path, Path(f"{path}-wal")):
        if candidate.exists() and candidate.stat().st_size:
            out[candidate.name] = hashlib.sha256(candidate.read_bytes()).hexdigest()
    return out


# -- first opens, busy databases -----------------------------------------------------------------


def _first_open(args: tuple[str, Any, int]) -> str:
    path, barrier, n = args
    barrier.wait()
    try:
        ledger = Ledger(path)
        with ledger.run(f"worker-{n}"):
            _search(ledger)("rag")
            ledger.cite("arXiv:2005.11401")
        return "ok"
    except Exception as exc:  # reported, not raised: the test lists every failure
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("round_", range(3))
def test_simultaneous_first_opens_of_a_new_ledger_all_succeed(tmp_path: Path, round_: int) -> None:
    """Eight processes open one new ledger at the same instant and each records a call."""
    path = str(tmp_path / "new.db")
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(8)
        with ctx.Pool(8) as pool:
            results = pool.map(_first_open, [(path, barrier, n) for n in range(8)])
    assert results == ["ok"] * 8
    ledger = Ledger(path)
    assert sorted(ledger.runs()) == sorted(f"worker-{n}" for n in range(8))
    assert ledger.integrity() == "ok"


class _FlakyConnection(sqlite3.Connection):
    """Answers "database is locked" at once to its first journal-mode switches, as SQLite does
    (without waiting) when another process is creating the same file."""

    failures = 0

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if sql.startswith("PRAGMA journal_mode") and _FlakyConnection.failures < 3:
            _FlakyConnection.failures += 1
            raise sqlite3.OperationalError("database is locked")
        return super().execute(sql, *args)


def test_a_busy_answer_at_first_open_is_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_connect = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        if not kwargs.get("uri"):
            kwargs["factory"] = _FlakyConnection
        return real_connect(*args, **kwargs)

    _FlakyConnection.failures = 0
    monkeypatch.setattr(sqlite3, "connect", connect)
    ledger = Ledger(tmp_path / "l.db")
    _search(ledger)("rag")
    assert _FlakyConnection.failures == 3
    assert len(ledger.tool_calls()) == 1


def test_a_lock_held_too_long_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    ledger = Ledger(path, timeout=0.2)
    _search(ledger)("rag")
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        other = Ledger(path, timeout=0.2)
        with pytest.raises(LedgerError, match=r"stayed locked by another connection for 0\.2 s"):
            other.log_call("search", {"q": "x"}, [RAG])
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


# -- results JSON cannot encode --------------------------------------------------------------------


class _Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no str for you")

    def __repr__(self) -> str:
        return "<Unprintable arXiv:2005.11401>"


def _circular() -> list[Any]:
    out: list[Any] = [{"arxiv_id": "2005.11401"}]
    out.append(out)
    return out


@pytest.mark.parametrize(
    "make",
    [
        _circular,
        lambda: {"papers": [_Unprintable()]},
        lambda: {("tuple", "key"): "arXiv:2005.11401"},
        lambda: {"arxiv_id": "2005.11401", "count": 10**5000},
    ],
    ids=["circular", "str raises", "tuple keys", "huge int"],
)
def test_a_result_json_cannot_encode_is_recorded_by_its_repr_and_returned(
    tmp_path: Path, make: Any
) -> None:
    """The agent gets its result back untouched; the ledger keeps the repr, marked so."""
    ledger = Ledger(tmp_path / "l.db")
    value = make()

    @ledger.record
    def odd_tool() -> Any:
        return value

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no LedgerWarning: the call is recorded
        assert odd_tool() is value
    (call,) = ledger.tool_calls()
    assert call["output_repr"] is True
    assert isinstance(call["output"], str)
    if "huge" not in call["output"]:
        assert "2005.11401" in call["output"]


def test_a_lone_surrogate_is_kept_exactly(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "l.db")

    @ledger.record
    def tool() -> str:
        return "arXiv:2005.11401 \ud800 end"

    assert tool() == "arXiv:2005.11401 \ud800 end"
    (call,) = ledger.tool_calls()
    assert call["output"] == "arXiv:2005.11401 \ud800 end"
    assert "output_repr" not in call
    assert ledger.audit("We cite arXiv:2005.11401.").ok


def test_an_unencodable_argument_is_recorded_by_its_repr(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "l.db")
    circular = _circular()

    @ledger.record
    def tool(arg: Any) -> str:
        return "arXiv:2005.11401"

    assert tool(circular) == "arXiv:2005.11401"
    (call,) = ledger.tool_calls()
    assert call["input_repr"] is True and "2005.11401" in call["input"]


# -- full disks, damaged files, odd schema versions ------------------------------------------------


def _fill_up(ledger: Ledger) -> None:
    """Cap the writing connection at its current size, as a full disk would."""
    conn = ledger._writer()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_disk_says_so_and_loses_nothing_recorded_before(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "l.db")
    _search(ledger)("rag")
    _fill_up(ledger)
    big = [{"arxiv_id": f"2005.{11401 + i}", "title": "x" * 500} for i in range(200)]
    with pytest.raises(LedgerError) as info:
        ledger.log_call("search", {"q": "big"}, big)
    message = str(info.value)
    assert "the disk is full" in message and "database or disk is full" in message
    assert "cannot rollback" not in message
    assert str(ledger.path) in message
    assert len(ledger.tool_calls()) == 1  # the earlier call is intact
    assert ledger.integrity() == "ok"


def test_a_full_disk_never_fails_the_agents_tool_call(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "l.db")
    search = _search(ledger)
    search("warm up")
    _fill_up(ledger)

    @ledger.record
    def big_search(query: str) -> list[dict[str, str]]:
        return [{"arxiv_id": f"2005.{11401 + i}", "title": "y" * 500} for i in range(200)]

    with pytest.warns(LedgerWarning, match="was not recorded: .*disk is full"):
        result = big_search("q")
    assert len(result) == 200


def _ledger_with_calls(path: Path, n: int = 300) -> None:
    ledger = Ledger(path)

    @ledger.record
    def search(query: str) -> list[dict[str, str]]:
        return [{"arxiv_id": f"2005.{10000 + int(query)}", "title": f"Paper {query} " * 20}]

    with ledger.run("r1"):
        for i in range(n):
            search(str(i))
    ledger.close()


@pytest.mark.parametrize("page", [2, 5, 9, 20])
def test_damaged_pages_give_a_clear_error_never_a_traceback(tmp_path: Path, page: int) -> None:
    """Every public read either answers or raises groundcheck's own error naming the file."""
    path = tmp_path / "l.db"
    _ledger_with_calls(path)
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    start = page_size * (page - 1)
    data[start + 8 : start + page_size - 8] = b"\xa5" * (page_size - 16)
    path.write_bytes(bytes(data))
    outcomes = []
    try:
        ledger = Ledger(path)
    except GroundcheckError as exc:
        assert str(path) in str(exc)
        return
    for read in (
        ledger.runs,
        lambda: ledger.tool_calls("r1"),
        lambda: ledger.works("r1"),
        ledger.summary,
        lambda: ledger.bibliography(run="r1"),
        ledger.integrity,
    ):
        try:
            outcomes.append(read())
        except GroundcheckError as exc:
            assert str(path) in str(exc)
            outcomes.append(exc)
    assert isinstance(outcomes[-1], str | GroundcheckError)
    if isinstance(outcomes[-1], str):
        assert outcomes[-1] != "ok"  # integrity() sees the damage it did not raise on


@pytest.mark.parametrize("version", ["two", "", "1.5", "-3"])
def test_a_schema_version_that_is_not_a_number_is_a_clear_error(
    tmp_path: Path, version: str
) -> None:
    path = tmp_path / "l.db"
    _search(Ledger(path))("rag")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (version,))
    with pytest.raises(InputError, match=r"schema version is .* not a version number"):
        Ledger(path)


def test_a_version_1_ledger_is_read_then_upgraded_by_its_first_write(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(V1_SCHEMA)
    conn.close()
    ledger = Ledger(path)
    assert ledger.tool_calls("r1")[0]["output"] == [RAG]  # read as it is, without writing
    assert ledger.audit("We cite arXiv:2005.11401.", run="r1").ok
    with ledger.run("r1"):
        _search(ledger)("again")
    assert [c["input"] for c in ledger.tool_calls("r1")] == [{"query": "rag"}, {"query": "again"}]
    assert ledger.integrity() == "ok"


V1_SCHEMA = """
PRAGMA journal_mode = WAL;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, started_at TEXT NOT NULL);
CREATE TABLE calls (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), tool TEXT NOT NULL,
    input TEXT NOT NULL, output TEXT, error INTEGER NOT NULL DEFAULT 0 CHECK (error IN (0, 1)),
    error_message TEXT, started_at TEXT NOT NULL, ended_at TEXT NOT NULL, UNIQUE (run_id, id)
);
CREATE TABLE returned (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, call_id INTEGER NOT NULL,
    scheme TEXT NOT NULL, identifier TEXT NOT NULL, UNIQUE (call_id, scheme, identifier),
    UNIQUE (run_id, id), FOREIGN KEY (run_id, call_id) REFERENCES calls(run_id, id)
);
CREATE TABLE returned_titles (
    id INTEGER PRIMARY KEY, call_id INTEGER NOT NULL REFERENCES calls(id), title TEXT NOT NULL,
    scheme TEXT, identifier TEXT
);
CREATE TABLE citations (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, returned_id INTEGER NOT NULL,
    raw TEXT NOT NULL, created_at TEXT NOT NULL,
    FOREIGN KEY (run_id, returned_id) REFERENCES returned(run_id, id)
);
INSERT INTO meta VALUES ('schema_version', '1');
PRAGMA application_id = 1195592775;
INSERT INTO runs VALUES (1, 'r1', '2025-01-01T00:00:00+00:00');
INSERT INTO calls VALUES (1, 1, 'search', '{"query": "rag"}',
    '[{"arxiv_id": "2005.11401", "title": "Retrieval-Augmented Generation for NLP Tasks"}]',
    0, NULL, '2025-01-01T00:00:00+00:00', '2025-01-01T00:00:01+00:00');
INSERT INTO returned VALUES (1, 1, 1, 'arxiv', '2005.11401');
"""
"""A ledger as groundcheck 0.1 wrote it (schema version 1: no repr marks)."""


# -- reads never write ---------------------------------------------------------------------------


def test_reading_an_empty_file_leaves_it_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    ledger = Ledger(path)
    assert ledger.runs() == [] and ledger.summary() == [] and ledger.integrity() == "ok"
    with pytest.raises(InputError, match="no runs yet"):
        ledger.audit("We cite arXiv:2005.11401.")
    with pytest.raises(InputError, match="no run named 'r1' in the ledger \\(it has no runs"):
        ledger.tool_calls("r1")
    assert main(["ledger", "show", str(path)]) == 0
    assert main(["ledger", "show", str(path), "--format", "json"]) == 0
    capsys.readouterr()
    assert path.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


def test_reading_a_missing_file_creates_nothing(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "later.db")
    assert ledger.runs() == []
    assert list(tmp_path.iterdir()) == []


def test_reads_of_a_ledger_change_no_byte_of_it(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    ledger = Ledger(path)
    search = _search(ledger)
    with ledger.run("r1") as run:
        search("rag")
        run.cite("arXiv:2005.11401")
    with ledger.run("r2"):
        search("rag")
    ledger.close()
    before = _files(path)
    reader = Ledger(path)
    reader.runs()
    reader.tool_calls("r1")
    reader.works("r2")
    reader.bibliography(run="r1")
    reader.summary()
    reader.integrity()
    reader.audit("We cite arXiv:2005.11401.", run="r1")
    with pytest.raises(InputError):
        reader.audit("x")  # two runs, none chosen
    with pytest.raises(InputError):
        reader.tool_calls("nope")
    reader.close()
    assert _files(path) == before
    assert Ledger(path).runs() == ["r1", "r2"]  # no run was created by a read


def test_a_sqlite_file_that_is_not_yet_a_ledger_is_not_turned_into_one(tmp_path: Path) -> None:
    path = tmp_path / "blank.db"
    sqlite3.connect(path).execute("PRAGMA user_version = 7").connection.close()
    before = _files(path)
    ledger = Ledger(path)
    assert ledger.runs() == [] and ledger.summary() == []
    assert _files(path) == before


def _can_mount() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /mnt"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount(), reason="needs unshare and mount (a mount namespace)")
def test_a_ledger_on_a_read_only_file_system_can_still_be_read(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "l.db"
    ledger = Ledger(path)
    with ledger.run("r1"):
        _search(ledger)("rag")
    ledger.close()
    script = textwrap.dedent(
        f"""
        import json
        from groundcheck.ledger import Ledger
        from groundcheck.errors import LedgerError
        ledger = Ledger({str(path)!r})
        print(json.dumps([ledger.runs(), len(ledger.tool_calls()), ledger.integrity()]))
        try:
            ledger.log_call("t", {{}}, "x", run="r1")
        except LedgerError as exc:
            print("refused:", exc)
        """
    )
    mount = f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder}"
    out = subprocess.run(
        ["unshare", "-m", "sh", "-c", f'{mount} && "$0" -c "$1"', sys.executable, script],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    assert json.loads(first) == [["r1"], 1, "ok"]
    assert second.startswith("refused: ") and "read-only" in second


# -- which run a read is about ----------------------------------------------------------------------


def test_after_a_run_block_reads_use_that_run_and_create_none(tmp_path: Path) -> None:
    """Regression (issue 14): audit after `with ledger.run("x")` audited a new, empty default."""
    ledger = Ledger(tmp_path / "l.db")
    with ledger.run("x"):
        _search(ledger)("rag")
    verdict = ledger.audit("We cite arXiv:2005.11401.")
    assert isinstance(verdict, Verdict) and verdict.ok
    assert ledger.works()[0]["id"] == "2005.11401"
    assert ledger.bibliography().startswith("1. Retrieval-Augmented")
    assert ledger.runs() == ["x"]


def test_the_only_run_is_read_when_none_is_named(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    writer = Ledger(path)
    with writer.run("only"):
        _search(writer)("rag")
    assert Ledger(path).audit("We cite arXiv:2005.11401.").ok


def test_several_runs_and_none_chosen_is_an_error_listing_them(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    writer = Ledger(path)
    for name in ("alpha", "beta", "gamma"):
        with writer.run(name):
            _search(writer)("rag")
    reader = Ledger(path)
    for read in (reader.audit, lambda _: reader.works(), lambda _: reader.bibliography()):
        with pytest.raises(InputError, match=r"holds 3 runs \(alpha, beta, gamma\); name"):
            read("We cite arXiv:2005.11401.")
    with pytest.raises(InputError, match="no run named 'delta' in the ledger \\(its runs: alpha"):
        reader.audit("x", run="delta")


# -- types, errors, schemes ------------------------------------------------------------------------


def test_bad_configuration_is_a_config_error(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "l.db")
    with pytest.raises(ConfigError, match="non-empty name"), ledger.run(""):
        pass
    with ledger.run("r"):
        _search(ledger)("rag")
    with pytest.raises(ConfigError, match="style must be 'markdown' or 'bibtex'"):
        ledger.bibliography("html")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="timeout must be a positive number"):
        Ledger(tmp_path / "l.db", timeout=0)


def test_citation_refused_lives_in_errors_and_is_still_importable_from_the_ledger() -> None:
    from groundcheck.ledger import CitationRefused as FromLedger

    assert FromLedger is CitationRefused is groundcheck.CitationRefused
    assert issubclass(CitationRefused, GroundcheckError) and issubclass(CitationRefused, ValueError)


def test_bibliography_writes_each_scheme_as_its_extractor_family_does(tmp_path: Path) -> None:
    def find_pmid(text: str) -> Any:
        at = text.find("PMID ")
        if at >= 0:
            yield Mention(Identifier("pmid", text[at + 5 : at + 13]), at, at + 13)

    def find_isbn(text: str) -> Any:
        at = text.find("ISBN ")
        if at >= 0:
            yield Mention(Identifier("isbn", text[at + 5 : at + 18]), at, at + 18)

    registry = builtin_registry()
    for shipped in ("pmid", "isbn"):  # stand-ins for the built-ins: one described, one not
        registry.unregister(shipped)
    registry.register(
        FunctionExtractor("pmid", find_pmid, schemes=(Scheme("pmid", "PMID", "PMID:"),))
    )
    registry.register(FunctionExtractor("isbn", find_isbn))  # no scheme described
    ledger = Ledger(tmp_path / "l.db", registry=registry)
    with ledger.run("r"):
        ledger.log_call("search", {}, "PMID 12345678 and ISBN 9780262035613 and 2005.11401")
    assert ledger.bibliography().splitlines() == [
        "1. arXiv:2005.11401",
        "2. isbn:9780262035613",
        "3. PMID:12345678",
    ]
    assert "note = {PMID:12345678}" in ledger.bibliography("bibtex")


# -- the hash chain ---------------------------------------------------------------------------------


def _tamper(path: Path, *statements: str) -> None:
    """What anyone who can write the file can do: drop the triggers, then edit rows."""
    conn = sqlite3.connect(path, isolation_level=None)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    for statement in statements:
        conn.execute(statement)
    conn.close()


def _chained_ledger(path: Path) -> Ledger:
    ledger = Ledger(path, hash_chain=True)
    search = _search(ledger)
    with ledger.run("r1") as run:
        search("rag")
        search("again")
        run.cite("arXiv:2005.11401")
    return ledger


def test_without_the_chain_an_edit_that_drops_the_triggers_goes_unseen(tmp_path: Path) -> None:
    """The limitation docs/security.md states: triggers stop mistakes, not a file's owner."""
    path = tmp_path / "plain.db"
    ledger = Ledger(path)
    _search(ledger)("rag")
    _tamper(path, "UPDATE returned SET identifier = '2310.11511'")
    assert Ledger(path).integrity() == "ok"


@pytest.mark.parametrize(
    ("statement", "finding"),
    [
        ("UPDATE returned SET identifier = '2310.11511' WHERE id = 1", "returned row 1 does not"),
        ("UPDATE calls SET output = '[]' WHERE id = 2", "calls row 2 does not match its hash"),
        ("DELETE FROM returned_titles WHERE id = 1", "names returned_titles row 1, which is gone"),
        (
            "INSERT INTO runs (name, started_at) VALUES ('forged', 'now')",
            "1 runs rows are not in the hash chain",
        ),
        ("UPDATE chain SET digest = 'x' WHERE id = 3", "does not match its hash"),
        ("DELETE FROM chain WHERE id = 4", "not in the hash chain"),
    ],
)
def test_the_hash_chain_shows_every_edit(tmp_path: Path, statement: str, finding: str) -> None:
    path = tmp_path / "chained.db"
    _chained_ledger(path)
    assert Ledger(path).integrity() == "ok"
    _tamper(path, statement)
    assert finding in Ledger(path).integrity()


def test_a_rewritten_chain_is_caught_by_a_head_kept_elsewhere(tmp_path: Path) -> None:
    path = tmp_path / "chained.db"
    ledger = _chained_ledger(path)
    head = ledger.chain_head()
    assert head is not None and len(head) == 64
    with ledger.run("r1"):
        _search(ledger)("later")  # appending is fine: the old head stays in the chain
    assert ledger.integrity(expected_head=head) == "ok"
    _tamper(
        path,
        "UPDATE calls SET output = '[]' WHERE id = 1",
        "DELETE FROM chain",
        "DELETE FROM meta WHERE key = 'hash_chain'",
    )
    rewritten = Ledger(path, hash_chain=True)  # re-chains every row as it now is
    rewritten.log_call("t", {}, "x", run="r1")
    assert rewritten.integrity() == "ok"  # a consistent forgery ...
    assert "expected chain head is not in the hash chain" in rewritten.integrity(
        expected_head=head
    )  # ... but not the chain that was


def test_a_removed_chain_is_reported_when_one_is_expected(tmp_path: Path) -> None:
    path = tmp_path / "chained.db"
    _chained_ledger(path)
    _tamper(path, "DELETE FROM meta WHERE key = 'hash_chain'", "DROP TABLE chain")
    assert Ledger(path).integrity() == "ok"  # nothing says there was one ...
    assert "no hash chain" in Ledger(path, hash_chain=True).integrity()  # ... unless asked


def _chained_worker(path: str) -> int:
    ledger = Ledger(path, hash_chain=True)
    search = _search(ledger)
    with ledger.run(f"p{multiprocessing.current_process().name}"):
        for _ in range(20):
            search("x")
    return 20


def test_the_chain_holds_under_concurrent_writers(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    Ledger(path, hash_chain=True).log_call("t", {}, "x")
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(3) as pool:
        assert sum(pool.map(_chained_worker, [path] * 3)) == 60
    assert Ledger(path).integrity() == "ok"


def test_refusals_still_come_from_the_schema_with_the_chain_on(tmp_path: Path) -> None:
    ledger = _chained_ledger(tmp_path / "chained.db")
    with pytest.raises(CitationRefused, match="not returned by any tool call of run 'r1'"):
        ledger.cite("arXiv:2310.11511", run="r1")
    assert ledger.integrity() == "ok"
