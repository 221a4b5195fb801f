"""Receipts: every tool call recorded as it happens, in SQLite; citations only of what was returned.

An after-the-fact audit finds fabrication; a schema can prevent it. ``Ledger`` keeps runs,
tool calls (tool, input, output, timestamps, error), the identifiers and titles each call
returned, and citations. A citation row references the row recording that the identifier was
*returned in the same run*: SQLite's foreign keys refuse anything else, whatever code does the
inserting. The proof tables are append-only (triggers refuse UPDATE and DELETE).

Durability: WAL journal, one transaction per recorded call; a process killed mid-run loses at
most the call it was recording. Each thread and each process uses its own connection.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

from groundcheck.errors import GroundcheckError, InputError

__all__ = ["CitationRefused", "Ledger", "LedgerRun"]

APPLICATION_ID = 0x47434C47  # "GCLG": marks a file as a groundcheck ledger
SCHEMA_VERSION = 1
DEFAULT_RUN = "default"
_PROOF_TABLES = ("runs", "calls", "returned", "returned_titles", "citations")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    started_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS calls (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    tool TEXT NOT NULL,
    input TEXT NOT NULL,
    output TEXT,
    error INTEGER NOT NULL DEFAULT 0 CHECK (error IN (0, 1)),
    error_message TEXT,
    started_at TEXT NOT NULL,
    ended_at TEXT NOT NULL,
    UNIQUE (run_id, id)
);
CREATE TABLE IF NOT EXISTS returned (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL,
    call_id INTEGER NOT NULL,
    scheme TEXT NOT NULL,
    identifier TEXT NOT NULL,
    UNIQUE (call_id, scheme, identifier),
    UNIQUE (run_id, id),
    FOREIGN KEY (run_id, call_id) REFERENCES calls(run_id, id)
);
CREATE INDEX IF NOT EXISTS returned_by_id ON returned(run_id, scheme, identifier);
CREATE TABLE IF NOT EXISTS returned_titles (
    id INTEGER PRIMARY KEY,
    call_id INTEGER NOT NULL REFERENCES calls(id),
    title TEXT NOT NULL,
    scheme TEXT,
    identifier TEXT
);
CREATE TABLE IF NOT EXISTS citations (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL,
    returned_id INTEGER NOT NULL,
    raw TEXT NOT NULL,
    created_at TEXT NOT NULL,
    FOREIGN KEY (run_id, returned_id) REFERENCES returned(run_id, id)
);
"""


def _append_only_triggers() -> str:
    out = []
    for table in _PROOF_TABLES:
        for action in ("UPDATE", "DELETE"):
            out.append(
                f"CREATE TRIGGER IF NOT EXISTS {table}_no_{action.lower()} BEFORE {action} "
                f"ON {table} BEGIN SELECT RAISE(ABORT, 'groundcheck ledger: {table} rows are "
                f"append-only'); END;"
            )
    return "\n".join(out)


class CitationRefused(GroundcheckError, ValueError):
    """``cite`` was asked for an identifier no recorded call of the run returned."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _to_json(value: Any) -> str:
    """JSON for anything a tool returns; what JSON cannot hold is kept as its text."""
    return json.dumps(value, ensure_ascii=False, default=_fallback)


def _fallback(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump()
    if hasattr(value, "__attrs_attrs__") or hasattr(value, "__dataclass_fields__"):
        return {k: getattr(value, k) for k in getattr(value, "__match_args__", ()) or vars(value)}
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return str(value)


F = TypeVar("F", bound=Callable[..., Any])


class LedgerRun:
    """One run in a ledger: a name, an id, and the calls recorded under it."""

    def __init__(self, ledger: Ledger, run_id: int, name: str) -> None:
        self.ledger = ledger
        self.id = run_id
        self.name = name

    def cite(self, identifier: str) -> int:
        return self.ledger.cite(identifier, run=self.name)

    def audit(self, report: str, **options: Any) -> Any:
        return self.ledger.audit(report, run=self.name, **options)

    def bibliography(self, style: Literal["markdown", "bibtex"] = "markdown") -> str:
        return self.ledger.bibliography(style=style, run=self.name)

    def __repr__(self) -> str:
        return f"LedgerRun({self.name!r}, id={self.id})"


class Ledger:
    """An evidence ledger in one SQLite file. Open it once; use it from any thread or process."""

    def __init__(self, path: str | Path, *, registry: Any = None) -> None:
        self.path = Path(path)
        self.registry = registry
        self._local = threading.local()
        self._current: contextvars.ContextVar[LedgerRun | None] = contextvars.ContextVar(
            f"groundcheck_ledger_run_{id(self)}", default=None
        )
        self._extractors: Any = None
        self._run_ids: dict[str, int] = {}
        self._connect()  # validate (or create) now, so a bad file fails at open

    # -- connections ----------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and getattr(self._local, "pid", None) == os.getpid():
            return conn
        try:
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = 30000")
            self._prepare(conn)
        except sqlite3.DatabaseError as exc:
            raise InputError(
                f"not a usable groundcheck ledger: {exc}", source=str(self.path)
            ) from None
        self._local.conn = conn
        self._local.pid = os.getpid()
        return conn

    def _prepare(self, conn: sqlite3.Connection) -> None:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables and "meta" not in tables):
            raise InputError(
                "is a SQLite database but not a groundcheck ledger (foreign tables: "
                f"{', '.join(sorted(tables)[:5])})",
                source=str(self.path),
            )
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        if app_id == 0:
            # Idempotent, in one write transaction: two processes creating the same ledger at
            # once both succeed. (executescript commits first, so the BEGIN is in the script.)
            conn.executescript(
                "BEGIN IMMEDIATE;"
                + _SCHEMA
                + _append_only_triggers()
                + f"INSERT OR IGNORE INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}');"
                + f"PRAGMA application_id = {APPLICATION_ID};"
                + "COMMIT;"
            )
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if version is None or int(version[0]) > SCHEMA_VERSION:
            raise InputError(
                f"ledger schema version {version[0] if version else '?'} is newer than this "
                f"groundcheck understands ({SCHEMA_VERSION})",
                source=str(self.path),
            )

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def extractors(self) -> Any:
        if self._extractors is None:
            from groundcheck.extractors.pipeline import resolve_extractors

            self._extractors = resolve_extractors(self.registry)
        return self._extractors

    # -- runs -------------------------------------------------------------------------------------

    def _run_row(self, name: str) -> LedgerRun:
        run_id = self._run_ids.get(name)  # runs are append-only: a known id never changes
        if run_id is None:
            conn = self._connect()
            conn.execute(
                "INSERT OR IGNORE INTO runs (name, started_at) VALUES (?, ?)", (name, _now())
            )
            row = conn.execute("SELECT id FROM runs WHERE name = ?", (name,)).fetchone()
            run_id = self._run_ids[name] = int(row[0])
        return LedgerRun(self, run_id, name)

    @contextmanager
    def run(self, name: str) -> Iterator[LedgerRun]:
        """Group the calls made inside the block under one run (created, or continued)."""
        if not isinstance(name, str) or not name.strip():
            raise ValueError("a run needs a non-empty name")
        run = self._run_row(name)
        token = self._current.set(run)
        try:
            yield run
        finally:
            self._current.reset(token)

    def current_run(self) -> LedgerRun:
        return self._current.get() or self._run_row(DEFAULT_RUN)

    def _resolve_run(self, run: str | None) -> LedgerRun:
        if run is None:
            return self.current_run()
        row = self._connect().execute("SELECT id FROM runs WHERE name = ?", (run,)).fetchone()
        if row is None:
            raise InputError(f"no run named {run!r} in the ledger", source=str(self.path))
        return LedgerRun(self, int(row[0]), run)

    def runs(self) -> list[str]:
        return [r[0] for r in self._connect().execute("SELECT name FROM runs ORDER BY id")]

    # -- recording --------------------------------------------------------------------------------

    def log_call(
        self,
        tool: str,
        input: Any,
        output: Any = None,
        *,
        error: BaseException | str | None = None,
        started_at: str | None = None,
        run: str | None = None,
    ) -> int:
        """Record one finished call (what ``@record`` does for you); returns its row id."""
        from groundcheck.evidence.trace import make_evidence

        target = self._resolve_run(run) if run is not None else self.current_run()
        output_json = None if error is not None and output is None else _to_json(output)
        evidence = make_evidence(
            tool, "", json.loads(output_json) if output_json is not None else None,
            self.extractors, errored=error is not None, ignore=frozenset(),
        )  # fmt: skip
        conn = self._connect()
        conn.execute("BEGIN IMMEDIATE")
        try:
            cur = conn.execute(
                "INSERT INTO calls (run_id, tool, input, output, error, error_message, "
                "started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    target.id,
                    tool,
                    _to_json(input),
                    output_json,
                    int(error is not None),
                    None if error is None else str(error),
                    started_at or _now(),
                    _now(),
                ),
            )
            call_id = cast(int, cur.lastrowid)
            conn.executemany(
                "INSERT OR IGNORE INTO returned (run_id, call_id, scheme, identifier) "
                "VALUES (?, ?, ?, ?)",
                [
                    (target.id, call_id, i.scheme, i.id)
                    for i in sorted(evidence.identifiers, key=str)
                ],
            )
            paired = {w.title: sorted(w.identifiers, key=str) for w in evidence.works}
            rows = []
            for title in evidence.titles:
                first = paired.get(title, [None])[0]
                rows.append(
                    (call_id, title, first.scheme if first else None, first.id if first else None)
                )
            for work in evidence.works:
                if work.title not in evidence.titles:
                    first = sorted(work.identifiers, key=str)[0]
                    rows.append((call_id, work.title, first.scheme, first.id))
            conn.executemany(
                "INSERT INTO returned_titles (call_id, title, scheme, identifier) "
                "VALUES (?, ?, ?, ?)",
                rows,
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return call_id

    def record(self, func: F | None = None, *, name: str | None = None) -> Any:
        """Decorator: record every call of a tool function, sync or async.

        ``@ledger.record`` or ``@ledger.record(name="arxiv_search")``. Arguments are recorded
        by parameter name; the return value is the output; an exception is recorded as a
        failed call and re-raised unchanged.
        """

        def wrap(fn: F) -> F:
            tool: str = name or str(getattr(fn, "__name__", "tool"))
            signature = inspect.signature(fn)

            def arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
                try:
                    bound = signature.bind(*args, **kwargs)
                except TypeError:
                    return {"args": list(args), "kwargs": kwargs}
                return dict(bound.arguments)

            if inspect.iscoroutinefunction(fn):

                @functools.wraps(fn)
                async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                    started = _now()
                    try:
                        result = await fn(*args, **kwargs)
                    except Exception as exc:
                        self.log_call(tool, arguments(args, kwargs), error=exc, started_at=started)
                        raise
                    self.log_call(tool, arguments(args, kwargs), result, started_at=started)
                    return result

                return cast(F, async_wrapper)

            @functools.wraps(fn)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                started = _now()
                try:
                    result = fn(*args, **kwargs)
                except Exception as exc:
                    self.log_call(tool, arguments(args, kwargs), error=exc, started_at=started)
                    raise
                self.log_call(tool, arguments(args, kwargs), result, started_at=started)
                return result

            return cast(F, wrapper)

        return wrap(func) if func is not None else wrap

    # -- reading ----------------------------------------------------------------------------------

    def tool_calls(self, run: str | None = None) -> list[dict[str, Any]]:
        """The run's calls in the native evidence form (what ``groundcheck.audit`` takes)."""
        target = self._resolve_run(run)
        rows = self._connect().execute(
            "SELECT id, tool, input, output, error, error_message FROM calls "
            "WHERE run_id = ? ORDER BY id",
            (target.id,),
        )
        calls = []
        for call_id, tool, input_json, output_json, error, message in rows:
            record: dict[str, Any] = {
                "tool": tool,
                "id": f"call-{call_id}",
                "input": json.loads(input_json),
                "output": None if output_json is None else json.loads(output_json),
            }
            if error:
                record["error"] = message or True
            calls.append(record)
        return calls

    def audit(self, report: str, *, run: str | None = None, **options: Any) -> Any:
        """The verdict ``groundcheck.audit`` gives for ``report`` against this run's calls."""
        from groundcheck.auditor import audit

        return audit(report, self.tool_calls(run), registry=self.registry, **options)

    def cite(self, identifier: str, *, run: str | None = None) -> int:
        """Record a citation; refused (by the schema) when no call of the run returned it."""
        from groundcheck.extractors.pipeline import extract

        target = self._resolve_run(run)
        found = [c for c in extract(identifier, extractors=self.extractors) if c.scheme != "title"]
        if len(found) != 1 or found[0].malformed is not None:
            raise CitationRefused(f"{identifier!r} is not one well-formed identifier")
        keys = found[0].keys
        conn = self._connect()
        conn.execute("BEGIN IMMEDIATE")
        try:
            # The subquery finds the row proving a call of this run returned the work; if none
            # does, returned_id is NULL and the NOT NULL / foreign-key constraints refuse it.
            conditions = " OR ".join("(scheme = ? AND identifier = ?)" for _ in keys)
            params: list[Any] = [target.id, target.id]
            for key in keys:
                params += [key.scheme, key.id]
            cur = conn.execute(
                "INSERT INTO citations (run_id, returned_id, raw, created_at) SELECT ?, "
                f"(SELECT id FROM returned WHERE run_id = ? AND ({conditions}) "
                "ORDER BY id LIMIT 1), ?, ?",
                [*params, identifier, _now()],
            )
            conn.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            conn.execute("ROLLBACK")
            raise CitationRefused(
                f"{identifier} was not returned by any tool call of run {target.name!r}; "
                f"the ledger refuses to record it ({exc})"
            ) from exc
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return cast(int, cur.lastrowid)

    def works(self, run: str | None = None) -> list[dict[str, Any]]:
        """Every identifier the run's calls returned, with a title when one was paired."""
        target = self._resolve_run(run)
        conn = self._connect()
        titles: dict[tuple[str, str], str] = {}
        for title, scheme, ident in conn.execute(
            "SELECT t.title, t.scheme, t.identifier FROM returned_titles t JOIN calls c ON "
            "c.id = t.call_id WHERE c.run_id = ? AND t.scheme IS NOT NULL ORDER BY t.id",
            (target.id,),
        ):
            titles.setdefault((scheme, ident), title)
        out: dict[tuple[str, str], dict[str, Any]] = {}
        for scheme, ident, call_id in conn.execute(
            "SELECT scheme, identifier, call_id FROM returned WHERE run_id = ? ORDER BY id",
            (target.id,),
        ):
            entry = out.setdefault(
                (scheme, ident),
                {"scheme": scheme, "id": ident, "title": titles.get((scheme, ident)), "calls": []},
            )
            entry["calls"].append(f"call-{call_id}")
        return list(out.values())

    def bibliography(
        self, style: Literal["markdown", "bibtex"] = "markdown", *, run: str | None = None
    ) -> str:
        """The references section, written from recorded evidence only (never from the model).

        One entry per returned work; the arXiv DOI and the arXiv id of one paper are one entry.
        """
        works = self.works(run)
        by_key = {(w["scheme"], w["id"]): w for w in works}
        entries = []
        for w in works:
            arxiv_doi = w["scheme"] == "doi" and w["id"].startswith("10.48550/arxiv.")
            if arxiv_doi and ("arxiv", w["id"][len("10.48550/arxiv.") :]) in by_key:
                continue  # the same paper as its arXiv id
            entries.append(w)
        if style == "markdown":
            lines = []
            for i, w in enumerate(entries, 1):
                label = {"arxiv": "arXiv:", "doi": "doi:"}.get(w["scheme"], f"{w['scheme']}:")
                title = f"{w['title']}. " if w["title"] else ""
                lines.append(f"{i}. {title}{label}{w['id']}")
            return "\n".join(lines) + ("\n" if lines else "")
        if style == "bibtex":
            blocks = []
            for w in entries:
                key = "".join(ch if ch.isalnum() else "_" for ch in f"{w['scheme']}_{w['id']}")
                fields = []
                if w["title"]:
                    fields.append(f"  title = {{{w['title']}}}")
                if w["scheme"] == "arxiv":
                    fields += [f"  eprint = {{{w['id']}}}", "  archivePrefix = {arXiv}"]
                elif w["scheme"] == "doi":
                    fields.append(f"  doi = {{{w['id']}}}")
                else:
                    fields.append(f"  note = {{{w['scheme']}:{w['id']}}}")
                blocks.append(f"@misc{{{key},\n" + ",\n".join(fields) + "\n}")
            return "\n\n".join(blocks) + ("\n" if blocks else "")
        raise ValueError(f"style must be 'markdown' or 'bibtex', got {style!r}")

    def summary(self, run: str | None = None) -> list[dict[str, Any]]:
        """Runs with their calls and returned identifiers (what ``ledger show`` prints)."""
        conn = self._connect()
        names = [run] if run is not None else self.runs()
        out = []
        for name in names:
            target = self._resolve_run(name)
            calls = []
            for call_id, tool, input_json, error, started, ended in conn.execute(
                "SELECT id, tool, input, error, started_at, ended_at FROM calls WHERE run_id = ? "
                "ORDER BY id",
                (target.id,),
            ):
                returned = [
                    f"{s}:{i}"
                    for s, i in conn.execute(
                        "SELECT scheme, identifier FROM returned WHERE call_id = ? ORDER BY id",
                        (call_id,),
                    )
                ]
                calls.append(
                    {
                        "call": f"call-{call_id}",
                        "tool": tool,
                        "input": json.loads(input_json),
                        "error": bool(error),
                        "started_at": started,
                        "ended_at": ended,
                        "returned": returned,
                    }
                )
            cited = [
                r[0]
                for r in conn.execute(
                    "SELECT raw FROM citations WHERE run_id = ? ORDER BY id", (target.id,)
                )
            ]
            out.append({"run": name, "calls": calls, "citations": cited})
        return out

    def integrity(self) -> str:
        """SQLite's own integrity check plus a foreign-key check: 'ok' when all is well."""
        conn = self._connect()
        result = conn.execute("PRAGMA integrity_check").fetchone()[0]
        broken = conn.execute("PRAGMA foreign_key_check").fetchall()
        return (
            "ok" if result == "ok" and not broken else f"{result}; {len(broken)} broken references"
        )
