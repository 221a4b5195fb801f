"""Receipts: every tool call recorded as it happens, in SQLite; citations only of what was returned.

An after-the-fact audit finds fabrication; a schema can prevent it. ``Ledger`` keeps runs,
tool calls (tool, input, output, timestamps, error), the identifiers and titles each call
returned, and citations. A citation row references the row recording that the identifier was
*returned in the same run*: SQLite's foreign keys refuse anything else, whatever code does the
inserting. The proof tables are append-only (triggers refuse UPDATE and DELETE); an optional
hash chain over their rows makes edits by anyone who bypasses the triggers visible.

Durability: WAL journal, one transaction per recorded call; a process killed mid-run loses at
most the call it was recording. Each thread and each process uses its own connections: one
that writes (opened, and the schema created, only when something is recorded) and one that
reads (``mode=ro``: a read never writes, never creates a schema, and works on a read-only
file or file system). A busy database is retried with backoff.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import inspect
import json
import os
import random
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from urllib.parse import quote

from attrs import frozen

from groundcheck.errors import (
    CitationRefused,
    ConfigError,
    GroundcheckError,
    InputError,
    LedgerError,
    LedgerWarning,
)
from groundcheck.evidence.jsonio import parse_json

if TYPE_CHECKING:
    from groundcheck.extractors.registry import Extractor, Registry
    from groundcheck.model import Scheme, Verdict

__all__ = ["CitationRefused", "Ledger", "LedgerRun"]

APPLICATION_ID = 0x47434C47  # "GCLG": marks a file as a groundcheck ledger
SCHEMA_VERSION = 2
DEFAULT_RUN = "default"
_PROOF_TABLES = ("runs", "calls", "returned", "returned_titles", "citations")
_CHAIN_ALGORITHM = "sha256"
_GENESIS = "groundcheck-ledger"

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
    input_repr INTEGER NOT NULL DEFAULT 0 CHECK (input_repr IN (0, 1)),
    output_repr INTEGER NOT NULL DEFAULT 0 CHECK (output_repr IN (0, 1)),
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

_CHAIN_SCHEMA = """
CREATE TABLE IF NOT EXISTS chain (
    id INTEGER PRIMARY KEY,
    tbl TEXT NOT NULL,
    row_id INTEGER NOT NULL,
    digest TEXT NOT NULL,
    UNIQUE (tbl, row_id)
);
"""
"""One row per proof row, in the order they were written: the SHA-256 of the previous digest
and the row's table and values. Editing, deleting or slipping in a row breaks the chain."""

_MIGRATE_1_TO_2 = tuple(
    f"ALTER TABLE calls ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0 CHECK ({column} IN (0, 1))"
    for column in ("input_repr", "output_repr")
)
"""Schema 1 (groundcheck 0.1) to 2: the marks of values recorded by their ``repr``."""


def _append_only_triggers(tables: tuple[str, ...]) -> list[str]:
    """One trigger statement per table and action: UPDATE and DELETE are refused."""
    return [
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_{action.lower()} BEFORE {action} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, 'groundcheck ledger: {table} rows are append-only'); END"
        for table in tables
        for action in ("UPDATE", "DELETE")
    ]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


# -- encoding what tools return -----------------------------------------------------------------


def _encode(value: Any) -> tuple[str, bool]:
    """JSON text for anything a tool returns, and whether it is the value's ``repr`` instead.

    What JSON cannot hold natively is converted (pydantic models, attrs and dataclass
    instances, sets, bytes as a size, anything else as ``str``). A lone surrogate is kept as a
    ``\\ud800`` escape, so the value reads back exactly. Only a value that still cannot be
    encoded (a circular reference, an integer too long to print, a ``__str__`` that raises) is
    recorded by its ``repr``, marked so: recording never fails because of what a tool returned.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, default=_fallback)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: SQLite stores UTF-8, so escape it
            text = json.dumps(value, ensure_ascii=True, default=_fallback)
        return text, False
    except Exception:  # any failure of any object's conversion
        return json.dumps(_safe_repr(value), ensure_ascii=True), True


def _safe_repr(value: Any, depth: int = 0, active: frozenset[int] = frozenset()) -> str:
    """``repr(value)``; where that fails (an integer too long to print, a ``__repr__`` that
    raises), containers are written item by item so what can be read stays readable."""
    try:
        return repr(value)
    except Exception as exc:
        failure = exc
    if depth < 50 and id(value) not in active and isinstance(value, (list, tuple, set, dict)):
        inner = active | {id(value)}
        if isinstance(value, dict):
            items = ", ".join(
                f"{_safe_repr(k, depth + 1, inner)}: {_safe_repr(v, depth + 1, inner)}"
                for k, v in value.items()
            )
            return "{" + items + "}"
        body = ", ".join(_safe_repr(v, depth + 1, inner) for v in value)
        return {list: "[{}]", tuple: "({})", set: "{{{}}}"}.get(type(value), "[{}]").format(body)
    if isinstance(value, int):
        return f"<int of about {int(value.bit_length() * 0.30103) + 1} digits>"
    return f"<{type(value).__name__} object: repr failed: {type(failure).__name__}: {failure}>"


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


# -- SQLite errors in plain words ---------------------------------------------------------------

_BUSY = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
_FULL = 13
_CORRUPT = 11
_NOT_A_DATABASE = 26
_READONLY = 8
_CANTOPEN = 14


def _code(exc: sqlite3.Error) -> int:
    return int(getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def _is_busy(exc: sqlite3.Error) -> bool:
    message = str(exc).lower()
    return _code(exc) in _BUSY or "locked" in message or "busy" in message


@frozen
class _Layout:
    """What an opened file is, read without writing anything."""

    ledger: bool  # False: an empty file or an empty SQLite database, not a ledger yet
    version: int = SCHEMA_VERSION
    chained: bool = False
    repr_columns: bool = True


F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


class LedgerRun:
    """One run in a ledger: a name, an id, and the calls recorded under it."""

    def __init__(self, ledger: Ledger, run_id: int, name: str) -> None:
        self.ledger = ledger
        self.id = run_id
        self.name = name

    def cite(self, identifier: str) -> int:
        return self.ledger.cite(identifier, run=self.name)

    def audit(self, report: str, **options: Any) -> Verdict:
        return self.ledger.audit(report, run=self.name, **options)

    def bibliography(self, style: Literal["markdown", "bibtex"] = "markdown") -> str:
        return self.ledger.bibliography(style=style, run=self.name)

    def __repr__(self) -> str:
        return f"LedgerRun({self.name!r}, id={self.id})"


class Ledger:
    """An evidence ledger in one SQLite file. Open it once; use it from any thread or process.

    Opening reads the file (a file that is not a ledger, or is damaged, fails here) but writes
    nothing: the schema is created when the first run or call is recorded. ``hash_chain=True``
    keeps a SHA-256 chain over every proof row, which :meth:`integrity` verifies (see
    ``docs/security.md`` for what it does and does not prove). ``timeout`` is how long a busy
    database is waited for, in seconds.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        registry: Registry | None = None,
        hash_chain: bool = False,
        timeout: float = 30.0,
    ) -> None:
        if not isinstance(timeout, (int, float)) or not timeout > 0:
            raise ConfigError(f"timeout must be a positive number of seconds, got {timeout!r}")
        self.path = Path(path)
        self.registry = registry
        self.hash_chain = hash_chain
        self.timeout = timeout
        self._local = threading.local()
        self._current: contextvars.ContextVar[LedgerRun | None] = contextvars.ContextVar(
            f"groundcheck_ledger_run_{id(self)}", default=None
        )
        self._last_run: str | None = None
        self._extractors: tuple[Extractor, ...] | None = None
        self._run_ids: dict[str, int] = {}
        self._reader()  # validate an existing file now, so a bad file fails at open

    # -- connections ----------------------------------------------------------------------------

    def _uri(self, *options: str) -> str:
        path = quote(str(self.path.resolve()), safe="/")
        return f"file:{path}?" + "&".join(("mode=ro", *options))

    def _local_conn(self, kind: str) -> sqlite3.Connection | None:
        conn: sqlite3.Connection | None = getattr(self._local, kind, None)
        if conn is not None and getattr(self._local, f"{kind}_pid", None) == os.getpid():
            return conn
        return None

    def _keep(self, kind: str, conn: sqlite3.Connection) -> sqlite3.Connection:
        setattr(self._local, kind, conn)
        setattr(self._local, f"{kind}_pid", os.getpid())
        return conn

    def _reader(self) -> sqlite3.Connection | None:
        """This thread's read-only connection; None while the file is not a ledger yet."""
        conn = self._local_conn("reader")
        if conn is not None:
            return conn
        try:
            if not self.path.is_file() or self.path.stat().st_size == 0:
                return None  # nothing recorded yet; opening it would not change that
        except OSError as exc:
            raise InputError(
                f"cannot read the ledger: {exc.strerror}", source=str(self.path)
            ) from None
        with self._errors("open the ledger"):
            try:
                conn, layout = self._open_reader()
            except sqlite3.OperationalError as exc:
                if _code(exc) != _CANTOPEN:
                    raise
                # A read-only folder or file system with no -shm file for the WAL: with
                # nobody able to write there, the file can be read as immutable.
                conn, layout = self._open_reader("immutable=1")
        if not layout.ledger:
            conn.close()
            return None
        return self._keep("reader", conn)

    def _open_reader(self, *options: str) -> tuple[sqlite3.Connection, _Layout]:
        conn = sqlite3.connect(
            self._uri(*options), uri=True, timeout=self.timeout, isolation_level=None
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            return conn, self._layout(conn)
        except BaseException:
            conn.close()
            raise

    def _writer(self) -> sqlite3.Connection:
        """This thread's writing connection; opening it creates (or upgrades) the schema."""
        conn = self._local_conn("writer")
        if conn is not None:
            return conn
        with self._errors("open the ledger for writing"):
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            try:
                conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
                self._retrying(lambda: self._prepare(conn))
            except BaseException:
                conn.close()
                raise
        return self._keep("writer", conn)

    def _layout(self, conn: sqlite3.Connection) -> _Layout:
        """Read what the file is; refuse a foreign database, a newer or unreadable schema."""
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables and "meta" not in tables):
            raise InputError(
                "is a SQLite database but not a groundcheck ledger (foreign tables: "
                f"{', '.join(sorted(tables)[:5])})",
                source=str(self.path),
            )
        if "meta" not in tables:
            return _Layout(ledger=False)
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        written = meta.get("schema_version")
        try:
            version = int(written) if written is not None else None
        except ValueError:
            version = None
        if version is None or version < 1:
            raise InputError(
                f"the ledger's schema version is {written!r}, not a version number: the "
                "file was edited or damaged",
                source=str(self.path),
            )
        if version > SCHEMA_VERSION:
            raise InputError(
                f"ledger schema version {version} is newer than this groundcheck understands "
                f"({SCHEMA_VERSION})",
                source=str(self.path),
            )
        return _Layout(
            ledger=True,
            version=version,
            chained="chain" in tables and meta.get("hash_chain") == _CHAIN_ALGORITHM,
            repr_columns=version >= 2,
        )

    def _prepare(self, conn: sqlite3.Connection) -> None:
        layout = self._layout(conn)  # refuse a foreign file before writing anything to it
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        if not layout.ledger:
            # Idempotent, in one write transaction: processes creating the same ledger at once
            # all succeed. (executescript commits first, so the BEGIN is in the script.)
            conn.executescript(
                "BEGIN IMMEDIATE;"
                + _SCHEMA
                + "".join(f"{trigger};" for trigger in _append_only_triggers(_PROOF_TABLES))
                + f"INSERT OR IGNORE INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}');"
                + f"PRAGMA application_id = {APPLICATION_ID};"
                + "COMMIT;"
            )
        elif layout.version < SCHEMA_VERSION:
            self._migrate(conn)
        if self.hash_chain and not self._layout(conn).chained:
            self._start_chain(conn)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            if self._layout(conn).version == 1:  # another process may have done it meanwhile
                for statement in _MIGRATE_1_TO_2:
                    conn.execute(statement)
                conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", ("2",))
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise

    def _start_chain(self, conn: sqlite3.Connection) -> None:
        """Turn the hash chain on: chain every row already written, in table and id order."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            if not self._layout(conn).chained:
                for statement in [_CHAIN_SCHEMA, *_append_only_triggers(("chain",))]:
                    conn.execute(statement)
                start = dict.fromkeys(_PROOF_TABLES, 0)
                _extend_chain(conn, start)
                conn.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('hash_chain', ?)", (_CHAIN_ALGORITHM,)
                )
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise

    def _retrying(self, action: Callable[[], T]) -> T:
        """``action()``, again with backoff while SQLite answers "busy" or "locked".

        SQLite waits for a lock itself (``busy_timeout``) but not everywhere: switching the
        journal mode and starting a write from a stale read answer at once. Simultaneous
        first opens of a new ledger hit exactly those.
        """
        deadline = time.monotonic() + self.timeout
        delay = 0.002
        while True:
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() >= deadline:
                    raise
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.25)

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """SQLite's errors as groundcheck's, in words that name the file and what failed."""
        try:
            yield
        except sqlite3.IntegrityError:
            raise  # a refusal by the schema: the caller words it
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc, action) from exc

    def _translate(self, exc: sqlite3.DatabaseError, action: str) -> GroundcheckError:
        code, message = _code(exc), str(exc)
        where = str(self.path)
        if code == _FULL or "disk is full" in message:
            return LedgerError(
                f"{where}: cannot {action}: the disk is full, or the ledger reached its size "
                f"limit (SQLite: {message}); nothing of it was recorded"
            )
        if _is_busy(exc):
            return LedgerError(
                f"{where}: cannot {action}: the ledger stayed locked by another connection "
                f"for {self.timeout:g} s (SQLite: {message})"
            )
        if code == _CANTOPEN and not self.path.parent.is_dir():
            return InputError(f"no folder {self.path.parent} to hold the ledger", source=where)
        if code == _READONLY or (code == _CANTOPEN and not self._writable()):
            return LedgerError(
                f"{where}: cannot {action}: the file or its folder is read-only here "
                f"(SQLite: {message}); reading it still works"
            )
        if code == _CORRUPT or "malformed" in message:
            return InputError(
                f"the ledger file is damaged ({message}); a copy of it can be inspected with "
                "`sqlite3 FILE 'PRAGMA integrity_check'`",
                source=where,
            )
        if code == _NOT_A_DATABASE:
            return InputError(
                f"not a usable groundcheck ledger ({message}): not SQLite, or its header is "
                "damaged",
                source=where,
            )
        return InputError(f"not a usable groundcheck ledger ({message})", source=where)

    def _writable(self) -> bool:
        folder = self.path.parent
        return os.access(folder, os.W_OK) and (
            not self.path.exists() or os.access(self.path, os.W_OK)
        )

    def close(self) -> None:
        for kind in ("reader", "writer"):
            conn = getattr(self._local, kind, None)
            if conn is not None:
                conn.close()
                setattr(self._local, kind, None)

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def extractors(self) -> tuple[Extractor, ...]:
        if self._extractors is None:
            from groundcheck.extractors.pipeline import resolve_extractors

            self._extractors = resolve_extractors(self.registry)
        return self._extractors

    # -- writing ----------------------------------------------------------------------------------

    def _transaction(self, action: str, body: Callable[[sqlite3.Connection], T]) -> T:
        """``body(conn)`` in one write transaction, retried while busy; chained if the ledger
        keeps a hash chain. A failure rolls back only a transaction that is still open (SQLite
        rolls back by itself on a full disk), so its own error is the one reported."""
        conn = self._writer()

        def attempt() -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                chained = self._chained(conn)
                start = _last_ids(conn) if chained else None
                result = body(conn)
                if start is not None:
                    _extend_chain(conn, start)
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
            return result

        with self._errors(action):
            return self._retrying(attempt)

    def _chained(self, conn: sqlite3.Connection) -> bool:
        row = conn.execute("SELECT value FROM meta WHERE key = 'hash_chain'").fetchone()
        return row is not None and row[0] == _CHAIN_ALGORITHM

    def _run_row(self, name: str) -> LedgerRun:
        run_id = self._run_ids.get(name)  # runs are append-only: a known id never changes
        if run_id is None:

            def insert(conn: sqlite3.Connection) -> int:
                conn.execute(
                    "INSERT OR IGNORE INTO runs (name, started_at) VALUES (?, ?)", (name, _now())
                )
                return int(
                    conn.execute("SELECT id FROM runs WHERE name = ?", (name,)).fetchone()[0]
                )

            run_id = self._run_ids[name] = self._transaction(f"start run {name!r}", insert)
        return LedgerRun(self, run_id, name)

    @contextmanager
    def run(self, name: str) -> Iterator[LedgerRun]:
        """Group the calls made inside the block under one run (created, or continued).

        Reads that name no run (``audit``, ``bibliography``, ``works``, ``tool_calls``) use
        this run inside the block, and the run of the last such block after it.
        """
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"a run needs a non-empty name, got {name!r}")
        run = self._run_row(name)
        self._last_run = name
        token = self._current.set(run)
        try:
            yield run
        finally:
            self._current.reset(token)

    def current_run(self) -> LedgerRun:
        """Where a call recorded now goes: the enclosing ``with ledger.run(...)`` block's run,
        else the run ``default`` (created when first needed)."""
        return self._current.get() or self._run_row(DEFAULT_RUN)

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
        """Record one finished call (what ``@record`` does for you); returns its row id.

        A result JSON cannot encode is recorded by its ``repr`` and marked so (``output_repr``
        in :meth:`tool_calls`). A full disk, a damaged file or a lock held too long raise
        :class:`~groundcheck.errors.LedgerError` or :class:`~groundcheck.errors.InputError`.
        """
        from groundcheck.evidence.trace import make_evidence

        target = self._existing_run(run) if run is not None else self.current_run()
        input_json, input_repr = _encode(input)
        if error is not None and output is None:
            output_json, output_repr = None, False
        else:
            output_json, output_repr = _encode(output)
        evidence = make_evidence(
            tool, "", parse_json(output_json) if output_json is not None else None,
            self.extractors, errored=error is not None, ignore=frozenset(),
        )  # fmt: skip
        ended = _now()

        def insert(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "INSERT INTO calls (run_id, tool, input, output, error, error_message, "
                "started_at, ended_at, input_repr, output_repr) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    target.id,
                    tool,
                    input_json,
                    output_json,
                    int(error is not None),
                    None if error is None else _safe_str(error),
                    started_at or ended,
                    ended,
                    int(input_repr),
                    int(output_repr),
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
            return call_id

        return self._transaction(f"record a call of {tool!r}", insert)

    def record(self, func: F | None = None, *, name: str | None = None) -> Any:
        """Decorator: record every call of a tool function, sync or async.

        ``@ledger.record`` or ``@ledger.record(name="arxiv_search")``. Arguments are recorded
        by parameter name; the return value is the output; an exception is recorded as a
        failed call and re-raised unchanged. The tool's result always reaches the caller: a
        result JSON cannot encode is recorded by its ``repr``, and if the ledger itself
        cannot record (full disk, damaged file), a :class:`~groundcheck.errors.LedgerWarning`
        says so instead of failing the agent's tool call.
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

            def log(args: tuple[Any, ...], kwargs: dict[str, Any], **call: Any) -> None:
                try:
                    self.log_call(tool, arguments(args, kwargs), **call)
                except Exception as exc:  # the audit layer never fails a tool
                    warnings.warn(
                        f"groundcheck ledger: the call of {tool!r} was not recorded: {exc}",
                        LedgerWarning,
                        stacklevel=3,
                    )

            if inspect.iscoroutinefunction(fn):

                @functools.wraps(fn)
                async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                    started = _now()
                    try:
                        result = await fn(*args, **kwargs)
                    except Exception as exc:
                        log(args, kwargs, error=exc, started_at=started)
                        raise
                    log(args, kwargs, output=result, started_at=started)
                    return result

                return cast(F, async_wrapper)

            @functools.wraps(fn)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                started = _now()
                try:
                    result = fn(*args, **kwargs)
                except Exception as exc:
                    log(args, kwargs, error=exc, started_at=started)
                    raise
                log(args, kwargs, output=result, started_at=started)
                return result

            return cast(F, wrapper)

        return wrap(func) if func is not None else wrap

    def cite(self, identifier: str, *, run: str | None = None) -> int:
        """Record a citation; refused (by the schema) when no call of the run returned it.

        With no run named, the run is chosen as for reads (see :meth:`runs`).
        """
        from groundcheck.extractors.pipeline import extract

        target = self._chosen_run(run)
        found = [c for c in extract(identifier, extractors=self.extractors) if c.scheme != "title"]
        if len(found) != 1 or found[0].malformed is not None:
            raise CitationRefused(f"{identifier!r} is not one well-formed identifier")
        keys = found[0].keys
        # The subquery finds the row proving a call of this run returned the work; if none
        # does, returned_id is NULL and the NOT NULL / foreign-key constraints refuse it.
        conditions = " OR ".join("(scheme = ? AND identifier = ?)" for _ in keys)
        params: list[Any] = [target.id, target.id]
        for key in keys:
            params += [key.scheme, key.id]

        def insert(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "INSERT INTO citations (run_id, returned_id, raw, created_at) SELECT ?, "
                f"(SELECT id FROM returned WHERE run_id = ? AND ({conditions}) "
                "ORDER BY id LIMIT 1), ?, ?",
                [*params, identifier, _now()],
            )
            return cast(int, cur.lastrowid)

        try:
            return self._transaction(f"cite {identifier!r}", insert)
        except sqlite3.IntegrityError as exc:
            raise CitationRefused(
                f"{identifier} was not returned by any tool call of run {target.name!r}; "
                f"the ledger refuses to record it ({exc})"
            ) from exc

    # -- reading ----------------------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of a read-only query; none while the file is not a ledger yet."""
        conn = self._reader()
        if conn is None:
            return []
        with self._errors("read the ledger"):
            return conn.execute(sql, params).fetchall()

    def runs(self) -> list[str]:
        """The ledger's runs, oldest first.

        A read that names no run uses the run of the enclosing ``with ledger.run(...)`` block,
        else the run of the last such block of this ``Ledger``, else the only run; with
        several runs and none of these, it is an error that lists them.
        """
        return [r[0] for r in self._query("SELECT name FROM runs ORDER BY id")]

    def _existing_run(self, name: str) -> LedgerRun:
        rows = self._query("SELECT id FROM runs WHERE name = ?", (name,))
        if not rows:
            names = self.runs()
            have = f"its runs: {', '.join(names)}" if names else "it has no runs yet"
            raise InputError(f"no run named {name!r} in the ledger ({have})", source=str(self.path))
        return LedgerRun(self, int(rows[0][0]), name)

    def _chosen_run(self, run: str | None) -> LedgerRun:
        """The run a read is about: named, or chosen as :meth:`runs` says. Never creates one."""
        if run is not None:
            return self._existing_run(run)
        current = self._current.get()
        if current is not None:
            return current
        if self._last_run is not None:
            return self._existing_run(self._last_run)
        names = self.runs()
        if len(names) == 1:
            return self._existing_run(names[0])
        if not names:
            raise InputError(
                "the ledger has no runs yet: nothing was recorded", source=str(self.path)
            )
        shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        raise InputError(
            f"the ledger holds {len(names)} runs ({shown}); name the one to read "
            "(run=NAME, or --run NAME)",
            source=str(self.path),
        )

    def _stored(self, text: str, call_id: int, column: str) -> Any:
        """A call's stored JSON; text that is not JSON (a row edited outside groundcheck) is a
        clear error naming the file and the call, never a traceback."""
        try:
            return parse_json(text)
        except (ValueError, TypeError, RecursionError):
            raise InputError(
                f"call {call_id}: the stored {column} is not valid JSON (the file was edited "
                "outside groundcheck?); check it with Ledger.integrity()",
                source=str(self.path),
            ) from None

    def tool_calls(self, run: str | None = None) -> list[dict[str, Any]]:
        """The run's calls in the native evidence form (what ``groundcheck.audit`` takes).

        A call whose output (or input) JSON could not encode carries ``"output_repr": true``
        (``"input_repr"``): its output is the ``repr`` of what the tool returned.
        """
        target = self._chosen_run(run)
        marks = "input_repr, output_repr" if self._current_layout().repr_columns else "0, 0"
        calls = []
        for (
            call_id,
            tool,
            input_json,
            output_json,
            error,
            message,
            in_repr,
            out_repr,
        ) in self._query(
            f"SELECT id, tool, input, output, error, error_message, {marks} FROM calls "
            "WHERE run_id = ? ORDER BY id",
            (target.id,),
        ):
            record: dict[str, Any] = {
                "tool": tool,
                "id": f"call-{call_id}",
                "input": self._stored(input_json, call_id, "input"),
                "output": None
                if output_json is None
                else self._stored(output_json, call_id, "output"),
            }
            if error:
                record["error"] = message or True
            if in_repr:
                record["input_repr"] = True
            if out_repr:
                record["output_repr"] = True
            calls.append(record)
        return calls

    def _current_layout(self) -> _Layout:
        """What the file is now (another process may have upgraded it or started a chain)."""
        conn = self._reader()
        if conn is None:
            return _Layout(ledger=False)
        with self._errors("read the ledger"):
            return self._layout(conn)

    def audit(self, report: str, *, run: str | None = None, **options: Any) -> Verdict:
        """The verdict ``groundcheck.audit`` gives for ``report`` against this run's calls."""
        from groundcheck.auditor import audit

        return audit(report, self.tool_calls(run), registry=self.registry, **options)

    def works(self, run: str | None = None) -> list[dict[str, Any]]:
        """Every identifier the run's calls returned, with a title when one was paired."""
        target = self._chosen_run(run)
        titles: dict[tuple[str, str], str] = {}
        for title, scheme, ident in self._query(
            "SELECT t.title, t.scheme, t.identifier FROM returned_titles t JOIN calls c ON "
            "c.id = t.call_id WHERE c.run_id = ? AND t.scheme IS NOT NULL ORDER BY t.id",
            (target.id,),
        ):
            titles.setdefault((scheme, ident), title)
        out: dict[tuple[str, str], dict[str, Any]] = {}
        for scheme, ident, call_id in self._query(
            "SELECT scheme, identifier, call_id FROM returned WHERE run_id = ? ORDER BY id",
            (target.id,),
        ):
            entry = out.setdefault(
                (scheme, ident),
                {"scheme": scheme, "id": ident, "title": titles.get((scheme, ident)), "calls": []},
            )
            entry["calls"].append(f"call-{call_id}")
        return list(out.values())

    def _schemes(self) -> dict[str, Scheme]:
        from groundcheck.extractors.registry import schemes_of

        found: dict[str, Scheme] = {}
        for extractor in self.extractors:
            for scheme in schemes_of(extractor):
                found.setdefault(scheme.name, scheme)
        return found

    def bibliography(
        self, style: Literal["markdown", "bibtex"] = "markdown", *, run: str | None = None
    ) -> str:
        """The references section, written from recorded evidence only (never from the model).

        One entry per returned work; the arXiv DOI and the arXiv id of one paper are one entry.
        Identifiers are written as their extractor family's scheme writes them (``arXiv:``,
        ``doi:``; a plug-in's scheme as ``name:id``).
        """
        from groundcheck.extractors.doi import ARXIV_DOI_PREFIX
        from groundcheck.model import Identifier, Scheme

        if style not in ("markdown", "bibtex"):
            raise ConfigError(f"style must be 'markdown' or 'bibtex', got {style!r}")
        works = self.works(run)
        schemes = self._schemes()
        by_key = {(w["scheme"], w["id"]) for w in works}
        entries = []
        for w in works:
            arxiv_doi = w["scheme"] == "doi" and w["id"].startswith(ARXIV_DOI_PREFIX)
            if arxiv_doi and ("arxiv", w["id"][len(ARXIV_DOI_PREFIX) :]) in by_key:
                continue  # the same paper as its arXiv id
            entries.append(w)

        def cited(w: dict[str, Any]) -> str:
            scheme = schemes.get(w["scheme"]) or Scheme.unknown(w["scheme"])
            return scheme.cite(Identifier(w["scheme"], w["id"]))

        if style == "markdown":
            lines = []
            for i, w in enumerate(entries, 1):
                title = f"{w['title']}. " if w["title"] else ""
                lines.append(f"{i}. {title}{cited(w)}")
            return "\n".join(lines) + ("\n" if lines else "")
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
                fields.append(f"  note = {{{cited(w)}}}")
            blocks.append(f"@misc{{{key},\n" + ",\n".join(fields) + "\n}")
        return "\n\n".join(blocks) + ("\n" if blocks else "")

    def summary(self, run: str | None = None) -> list[dict[str, Any]]:
        """Runs with their calls and returned identifiers (what ``ledger show`` prints)."""
        names = [run] if run is not None else self.runs()
        out = []
        for name in names:
            target = self._existing_run(name)
            returned: dict[int, list[str]] = {}
            for call_id, scheme, ident in self._query(
                "SELECT call_id, scheme, identifier FROM returned WHERE run_id = ? ORDER BY id",
                (target.id,),
            ):
                returned.setdefault(call_id, []).append(f"{scheme}:{ident}")
            calls = [
                {
                    "call": f"call-{call_id}",
                    "tool": tool,
                    "input": self._stored(input_json, call_id, "input"),
                    "error": bool(error),
                    "started_at": started,
                    "ended_at": ended,
                    "returned": returned.get(call_id, []),
                }
                for call_id, tool, input_json, error, started, ended in self._query(
                    "SELECT id, tool, input, error, started_at, ended_at FROM calls "
                    "WHERE run_id = ? ORDER BY id",
                    (target.id,),
                )
            ]
            cited = [
                r[0]
                for r in self._query(
                    "SELECT raw FROM citations WHERE run_id = ? ORDER BY id", (target.id,)
                )
            ]
            out.append({"run": name, "calls": calls, "citations": cited})
        return out

    # -- integrity --------------------------------------------------------------------------------

    def chain_head(self) -> str | None:
        """The last digest of the hash chain (None without one). Keep it outside the file (a
        CI log, a signed note): ``integrity(expected_head=...)`` then proves every row up to
        it is unchanged, even against someone who rewrote the whole chain."""
        if not self._current_layout().chained:
            return None
        rows = self._query("SELECT digest FROM chain ORDER BY id DESC LIMIT 1")
        return str(rows[0][0]) if rows else _digest_hex(_GENESIS)

    def integrity(self, *, expected_head: str | None = None) -> str:
        """SQLite's integrity check, a foreign-key check, and the hash chain when there is
        one (or when this ``Ledger`` was opened with ``hash_chain=True``): 'ok' when all is
        well, else what is wrong."""
        conn = self._reader()
        if conn is None:
            return "ok" if not self.hash_chain else "no hash chain: nothing was recorded yet"
        problems: list[str] = []
        with self._errors("check the ledger"):
            result = conn.execute("PRAGMA integrity_check").fetchone()[0]
            broken = conn.execute("PRAGMA foreign_key_check").fetchall()
            if result != "ok":
                problems.append(result)
            if broken:
                problems.append(f"{len(broken)} broken references")
            if self._current_layout().chained:
                problems += _verify_chain(conn, expected_head)
            elif self.hash_chain or expected_head is not None:
                problems.append(
                    "no hash chain: the ledger was written without one, or its chain (or its "
                    "'hash_chain' entry in meta) was removed"
                )
        return "ok" if not problems else "; ".join(problems)


# -- the hash chain -------------------------------------------------------------------------------


def _digest_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _row_digest(previous: str, table: str, row: tuple[Any, ...]) -> str:
    values = json.dumps(list(row), ensure_ascii=True, separators=(",", ":"))
    return _digest_hex(f"{previous}\x1e{table}\x1e{values}")


def _last_ids(conn: sqlite3.Connection) -> dict[str, int]:
    """The highest row id of each proof table: rows above it are this transaction's."""
    return {
        table: int(conn.execute(f"SELECT coalesce(max(id), 0) FROM {table}").fetchone()[0])
        for table in _PROOF_TABLES
    }


def _extend_chain(conn: sqlite3.Connection, after: dict[str, int]) -> None:
    """Chain the rows written since ``after`` (the caller holds the write lock)."""
    head = conn.execute("SELECT digest FROM chain ORDER BY id DESC LIMIT 1").fetchone()
    previous = str(head[0]) if head else _digest_hex(_GENESIS)
    links = []
    for table in _PROOF_TABLES:
        for row in conn.execute(f"SELECT * FROM {table} WHERE id > ? ORDER BY id", (after[table],)):
            previous = _row_digest(previous, table, row)
            links.append((table, row[0], previous))
    conn.executemany("INSERT INTO chain (tbl, row_id, digest) VALUES (?, ?, ?)", links)


def _verify_chain(conn: sqlite3.Connection, expected_head: str | None) -> list[str]:
    rows = {
        table: {r[0]: r for r in conn.execute(f"SELECT * FROM {table} ORDER BY id")}
        for table in _PROOF_TABLES
    }
    chained: dict[str, set[int]] = {table: set() for table in _PROOF_TABLES}
    problems: list[str] = []
    previous = _digest_hex(_GENESIS)
    digests = {previous}
    for link_id, table, row_id, digest in conn.execute(
        "SELECT id, tbl, row_id, digest FROM chain ORDER BY id"
    ):
        row = rows.get(table, {}).get(row_id)
        if row is None:
            problems.append(f"hash chain entry {link_id} names {table} row {row_id}, which is gone")
        elif _row_digest(previous, table, row) != digest:
            problems.append(
                f"{table} row {row_id} does not match its hash (chain entry {link_id}): the row, "
                "or the chain before it, was edited"
            )
        if row is not None:
            chained[table].add(row_id)
        previous = str(digest)
        digests.add(previous)
    for table in _PROOF_TABLES:
        loose = sorted(rows[table].keys() - chained[table])
        if loose:
            shown = ", ".join(map(str, loose[:5])) + (" ..." if len(loose) > 5 else "")
            problems.append(
                f"{len(loose)} {table} rows are not in the hash chain (ids {shown}): written "
                "around groundcheck"
            )
    if expected_head is not None and expected_head not in digests:
        problems.append(
            "the expected chain head is not in the hash chain: rows were removed or the chain "
            "was rewritten"
        )
    if len(problems) > 10:
        problems = [*problems[:10], f"and {len(problems) - 10} more problems"]
    return problems


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back if a transaction is still open; SQLite may already have (a full disk)."""
    if conn.in_transaction:
        with suppress(sqlite3.Error):  # the original error is the one that matters
            conn.execute("ROLLBACK")


def _safe_str(value: object) -> str:
    try:
        return str(value)
    except Exception:  # an exception's __str__ may raise
        return _safe_repr(value)
