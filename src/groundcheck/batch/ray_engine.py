"""Auditing on a Ray cluster (the ``ray`` extra): an executor for ``rate --engine ray``, and
:func:`audit_dataset` for runs that already live in a :class:`ray.data.Dataset`.

- :class:`RayExecutor` is a :class:`concurrent.futures.Executor` whose tasks are Ray tasks, so
  ``rate``'s streaming engine (bounded chunks in flight, tallies folded as they return, chunks
  retried when a worker dies) runs on Ray unchanged. It connects to ``RAY_ADDRESS`` when set,
  else starts a local cluster, and shuts down only a cluster it started.
- :func:`audit_dataset` maps batches of a dataset's rows through actors (one
  :class:`~groundcheck.auditor.Auditor` per actor, built once) and folds their results into the
  same tally on the driver, in the dataset's order, so its report is the report ``rate`` gives
  for the same runs.

Ray is imported only here, only when used: ``import groundcheck`` never imports it.
"""

from __future__ import annotations

import importlib
import logging
import os
import pickle
import socket
import warnings
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, TypeVar

from groundcheck.batch.bounded import Notes, SeenIds
from groundcheck.batch.discover import RunSpec
from groundcheck.batch.execute import RunResult, audit_one, auditor_for, judge
from groundcheck.batch.pool import LISTED, RateReport, RateTally, check_rate
from groundcheck.errors import ConfigError, GroundcheckError, InputError

__all__ = ["RayExecutor", "audit_dataset"]

INSTALL_HINT = "pip install 'groundcheck-citations[ray]'"
T = TypeVar("T")


def ray_module() -> Any:
    """The ``ray`` package, or a clear error naming the extra to install."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ConfigError(f"the Ray engine needs Ray, which is optional: {INSTALL_HINT}") from None


def _connect(num_cpus: int | None) -> bool:
    """Join ``RAY_ADDRESS`` or start a local cluster; True when this call started Ray.

    Without ``RAY_ADDRESS`` a new local cluster is started (``address="local"``), never one
    left behind by an earlier session. Ray's own log lines during start-up (a notice per
    component) are held back: errors still show.
    """
    ray = ray_module()
    if ray.is_initialized():
        return False
    address = os.environ.get("RAY_ADDRESS") or None
    kwargs: dict[str, Any] = {
        "address": address or "local",
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if address is None and num_cpus is not None:
        kwargs["num_cpus"] = num_cpus
    where = f"the Ray cluster at {address}" if address else "a local Ray cluster"
    gcs = _gcs_of(address) if address else None
    if gcs is not None and not _reachable(gcs, timeout=5.0):
        # ray.init would retry an address where nothing listens for as long as it runs.
        raise GroundcheckError(f"cannot start or reach {where}: nothing answers there")
    quiet = logging.getLogger("ray")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        ray.init(**kwargs)
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError or bare Exceptions
        raise GroundcheckError(f"cannot start or reach {where}: {_first_line(exc)}") from None
    finally:
        quiet.setLevel(level)
    return True


def _gcs_of(address: str) -> str | None:
    """``host:port`` of a ``RAY_ADDRESS`` to check before joining (``ray://`` included), or
    None for the forms Ray resolves itself (``auto``, ``local``)."""
    bare = address.split("://", 1)[-1].rstrip("/")
    host, _, port = bare.rpartition(":")
    return bare if host and port.isdigit() else None


def _reachable(address: str, timeout: float = 2.0) -> bool:
    """Whether something accepts connections at ``host:port`` (the cluster's GCS)."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


class RayExecutor(Executor):
    """Ray tasks behind the :class:`concurrent.futures.Executor` interface.

    Each submitted call runs as a Ray task (retried by Ray up to ``max_retries`` times when
    its worker dies). Workers are reused between tasks, so each keeps its auditor.
    ``check_alive()`` raises a clear error when the cluster's control store no longer
    answers; the batch engine calls it while it waits, so a cluster that goes away is an
    error within seconds, never a hang (nor Ray ending the process a minute later).
    """

    def __init__(self, *, num_cpus: int | None = None, max_retries: int = 2) -> None:
        self._ray = ray_module()
        self._started = _connect(num_cpus)
        self._max_retries = max_retries
        self._remote: dict[Callable[..., Any], Any] = {}
        self._closed = False
        self._gcs = str(self._ray.get_runtime_context().gcs_address or "")

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        if self._closed:
            raise RuntimeError("cannot submit to a RayExecutor that was shut down")
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._ray.remote(fn).options(max_retries=self._max_retries, num_cpus=1)
            self._remote[fn] = remote
        future: Future[T] = remote.remote(*args, **kwargs).future()
        return future

    def check_alive(self) -> None:
        """Raise :class:`GroundcheckError` when the Ray cluster can no longer be reached."""
        if not self._ray.is_initialized():
            raise GroundcheckError("the Ray cluster went away (Ray is no longer initialised)")
        if self._gcs and not _reachable(self._gcs):
            self._closed = True
            raise GroundcheckError(
                f"the Ray cluster went away: nothing answers at {self._gcs} any more; "
                "no rate is reported from a part of the runs"
            )

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._closed and not self._started:
            return
        self._closed = True
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()


# -- datasets --------------------------------------------------------------------------------

_REPORT_SUFFIXES = (".md", ".markdown", ".txt", ".rst", ".html", ".htm")


def _is_path_text(value: str) -> bool:
    """A report cell that names a file: one line, not too long, ending in a report suffix."""
    return "\n" not in value and len(value) <= 4096 and value.lower().endswith(_REPORT_SUFFIXES)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


class _Row:
    """One dataset row read into a run: paths where the cells hold paths, else inline."""

    def __init__(self, row: Mapping[str, Any], cols: Mapping[str, str], base: str) -> None:
        self.run = _text(row.get(cols["run"]))
        self.group = _text(row.get(cols["group"]))
        self.task = _text(row.get(cols["task"]))
        self.report_cell = row.get(cols["report"])
        self.evidence = row.get(cols["evidence"])
        self.base = Path(base)

    def _path(self, value: str) -> str:
        path = Path(value)
        return str(path if path.is_absolute() else self.base / path)

    def report(self) -> tuple[str, str | None]:
        """("path", path), ("text", the report itself) or ("none", None): no report cell."""
        value = self.report_cell
        if isinstance(value, Mapping):
            if value.get("path") is not None:
                return "path", self._path(str(value["path"]))
            if value.get("text") is not None:
                return "text", str(value["text"])
            return "none", None
        if value is None or value == "":
            return "none", None
        text = _text(value) or ""
        return ("path", self._path(text)) if _is_path_text(text) else ("text", text)

    def evidence_items(self) -> list[Any]:
        """Each evidence source: a path (str) or an inline object (records, a trace)."""
        value = self.evidence
        if value is None:
            return []
        if hasattr(value, "tolist"):  # numpy arrays from some batch formats
            value = value.tolist()
        if isinstance(value, str):
            stripped = value.lstrip()
            if stripped.startswith(("[", "{")):
                return [_inline_json(stripped)]
            return [self._path(value)] if value else []
        if isinstance(value, Mapping):
            return [dict(value)]
        if isinstance(value, (list, tuple)):
            if all(isinstance(v, str) for v in value):
                return [self._path(v) for v in value if v]
            return [list(value)]
        raise InputError(f"evidence cell of type {type(value).__name__} is not a path or records")


def _inline_json(text: str) -> Any:
    """Inline evidence text: one JSON document, else JSON Lines."""
    from groundcheck.evidence.jsonio import loads

    try:
        return loads(text, "<evidence cell>")
    except InputError:
        return [
            loads(line, "<evidence cell>", n)
            for n, line in enumerate(text.splitlines(), 1)
            if line.strip()
        ]


def audit_row(
    row: Mapping[str, Any],
    cols: Mapping[str, str],
    base: str,
    options: Mapping[str, Any],
    canary: bool,
) -> RunResult:
    """Audit one dataset row (paths or inline report and evidence); never raises."""
    from groundcheck.evidence.load import load_evidence

    r = _Row(row, cols, base)
    run = r.run if r.run is not None else "<row without a run id>"
    spec_base = RunSpec(run, None, (), r.group, r.task)
    if r.run is None:
        return RunResult.unreadable(
            spec_base, f"a row has no {cols['run']!r} (the run id)", input_error=True
        )
    try:
        kind, report = r.report()
        evidence = r.evidence_items()
        if kind == "none" and not evidence:
            return RunResult.unreadable(
                spec_base, f"row {run!r} names no report and no evidence", input_error=True
            )
        if kind != "text" and all(isinstance(e, str) for e in evidence):
            spec = RunSpec(run, report, tuple(evidence), r.group, r.task, where=f"row {run!r}")
            return audit_one(spec, canary, options)
        auditor = auditor_for(options)
        traces = [load_evidence(e, extractors=auditor.extractors) for e in evidence]
        if report is not None and kind == "text":
            text = report
        elif report is not None:
            from groundcheck.evidence.jsonio import read_text

            text = read_text(report)
        elif traces and traces[0].report is not None:
            text = traces[0].report
        else:
            return RunResult.unreadable(
                spec_base,
                f"row {run!r} names no report, and its evidence holds no final answer",
                input_error=True,
            )
        return judge(run, text, traces, auditor, group=r.group, task=r.task, canary=canary)
    except (GroundcheckError, OSError) as exc:
        return RunResult.unreadable(spec_base, str(exc))
    except RecursionError:
        return RunResult.unreadable(spec_base, "input nested too deeply to read")
    except Exception as exc:  # a bug must not end the dataset; it is named
        return RunResult.unreadable(spec_base, f"internal error, please report it: {exc!r}")


class DatasetAuditor:
    """The callable class ``map_batches`` runs: one per actor, holding one auditor.

    Takes a batch of rows (a ``pyarrow.Table``) and returns one column, ``result``: each
    row's :class:`~groundcheck.batch.execute.RunResult`, pickled (small, and it keeps every
    field exactly as the process engine makes it).
    """

    def __init__(
        self, cols: Mapping[str, str], base: str, options: Mapping[str, Any], canary: bool
    ) -> None:
        self.cols = dict(cols)
        self.base = base
        self.options = dict(options)
        self.canary = canary
        auditor_for(self.options)  # built once per actor

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        rows = batch.to_pylist()
        results = [
            pickle.dumps(audit_row(row, self.cols, self.base, self.options, self.canary))
            for row in rows
        ]
        return pa.table({"result": pa.array(results, type=pa.binary())})


def audit_dataset(
    ds: Any,
    *,
    run_col: str = "run",
    report_col: str = "report",
    evidence_col: str = "evidence",
    group_col: str = "group",
    task_col: str = "task",
    target: float = 0.01,
    confidence: float = 0.95,
    canary: bool = False,
    max_rate: float | None = None,
    base: str | Path | None = None,
    concurrency: int | None = None,
    batch_size: int = 64,
    **options: Any,
) -> RateReport:
    """Audit every row of a :class:`ray.data.Dataset` and pool the verdicts into rates.

    Each row is one run. ``report_col`` holds a report path (one line ending in ``.md``,
    ``.txt``, ``.markdown``, ``.rst`` or ``.html``), the report text itself, or
    ``{"path": ...}`` / ``{"text": ...}`` to say which; without it the trace's final answer is
    audited. ``evidence_col`` holds a path, a list of paths, inline records (a list of tool-call
    records, a trace object) or inline JSON / JSON Lines text. Relative paths are taken from
    ``base`` (default: the working directory of this process). ``options`` are
    :class:`~groundcheck.auditor.Policy` fields (and ``no_plugins``).

    Rows are audited by ``concurrency`` actors (default: the cluster's CPUs), one auditor each;
    results come back in the dataset's order and are folded into one tally, so a dataset gives
    the report ``rate`` gives for the same runs, byte for byte. A duplicate run id is noted and
    left out (the first row is kept), as in a manifest.

    >>> import ray.data  # doctest: +SKIP
    >>> ds = ray.data.read_json("runs.jsonl")  # doctest: +SKIP
    >>> audit_dataset(ds, max_rate=0.05).gate.verdict  # doctest: +SKIP
    'pass'
    """
    check_rate(max_rate, "max_rate")
    ray = ray_module()
    data = importlib.import_module("ray.data")
    opts = dict(options)
    auditor_for(opts)  # a wrong option is one error here, not one per row
    columns = _columns(ds)
    if columns is not None and run_col not in columns:
        raise ConfigError(
            f"the dataset has no {run_col!r} column (the run id); columns: {', '.join(columns)}"
        )
    cols = {
        "run": run_col,
        "report": report_col,
        "evidence": evidence_col,
        "group": group_col,
        "task": task_col,
    }
    if concurrency is None:
        concurrency = max(1, int(ray.cluster_resources().get("CPU", 1)))
    context = data.DataContext.get_current()
    ordered = context.execution_options.preserve_order
    context.execution_options.preserve_order = True  # "the first row" must mean the first
    notes = Notes(LISTED)
    seen = SeenIds()
    tally = RateTally()
    try:
        with warnings.catch_warnings():
            # Bounded restarts are passed as remote args (deprecated in recent Ray, with no
            # named replacement yet): Ray Data's default restarts an actor forever, so a row
            # that kills its actor every time would never end the job.
            warnings.filterwarnings("ignore", message=".*ray_remote_args.*deprecated")
            mapped = _map(
                ds,
                data=data,
                cols=cols,
                base=base,
                opts=opts,
                canary=canary,
                batch_size=batch_size,
                concurrency=concurrency,
            )
        for batch in mapped.iter_batches(batch_format="pyarrow", batch_size=None):
            for blob in batch.column("result").to_pylist():
                result: RunResult = pickle.loads(blob)  # our own actors' output
                if not seen.add(result.run):
                    notes(f"duplicate run id {result.run!r}: kept the first, skipped this one")
                    continue
                tally.add(result)
    except GroundcheckError:
        raise
    except Exception as exc:
        problem = _first_line(exc)
        raise GroundcheckError(f"the Ray dataset could not be audited: {problem}") from None
    finally:
        context.execution_options.preserve_order = ordered
    return tally.report(
        notes.items,
        target=target,
        confidence=confidence,
        max_rate=max_rate,
        notes_omitted=notes.omitted,
    )


def _map(
    ds: Any,
    *,
    data: Any,
    cols: Mapping[str, str],
    base: str | Path | None,
    opts: Mapping[str, Any],
    canary: bool,
    batch_size: int,
    concurrency: int,
) -> Any:
    """The dataset mapped through :class:`DatasetAuditor` actors (lazily: nothing runs yet)."""
    return ds.map_batches(
        DatasetAuditor,
        fn_constructor_kwargs={
            "cols": dict(cols),
            "base": str(Path(base) if base is not None else Path.cwd()),
            "options": dict(opts),
            "canary": canary,
        },
        batch_format="pyarrow",
        batch_size=batch_size,
        compute=data.ActorPoolStrategy(size=concurrency),
        num_cpus=1,
        max_task_retries=2,
        max_restarts=2,
    )


def _columns(ds: Any) -> list[str] | None:
    try:
        schema = ds.schema()
    except Exception:
        return None
    names = getattr(schema, "names", None)
    return list(names) if names is not None else None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"[:500]
