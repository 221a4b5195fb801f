"""Auditing many runs: one run in this process, or a stream of runs across an executor.

The seam is :class:`concurrent.futures.Executor`: processes by default, but any executor that
can pickle a function and its arguments works (a thread pool, a Dask client's
``get_executor()``, :class:`groundcheck.batch.ray_engine.RayExecutor`). Run specs are streamed:
at most a few chunks per worker are in flight, and each chunk comes back already folded
(a list of results for :func:`audit_runs`, a small mergeable tally for ``rate`` and
``compare``), so memory does not grow with the number of runs. Each worker process builds one
:class:`~groundcheck.auditor.Auditor` per configuration and keeps it.

A chunk whose worker died (a process killed, a Ray worker lost) is not lost: it is sent again,
then each of its runs alone, and a run that still kills its worker is counted unreadable with
the reason. Nothing is dropped without a word.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures import wait as wait_all
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from attrs import frozen

from groundcheck.batch.discover import RunSpec
from groundcheck.errors import GroundcheckError, InputError, PluginError

if TYPE_CHECKING:
    from groundcheck.auditor import Auditor
    from groundcheck.evidence.trace import Trace
    from groundcheck.model import Verdict

__all__ = ["CANARY_NOTE", "RunResult", "audit_one", "audit_runs", "fold_runs"]

CANARY_NOTE = "groundcheck canary"
SMALL_BATCH = 64
"""Fewer runs than this are audited in this process: starting workers would cost more."""
CHUNK = 64
"""Runs per task sent to a worker: large enough that sending costs little next to auditing."""
IN_FLIGHT_PER_WORKER = 4
"""Chunks in flight per worker: enough to keep every worker busy, few enough to bound memory."""
POLL_SECONDS = 2.0
"""How often a wait for a worker checks that the executor is still there (a Ray cluster)."""
FABRICATION_CODES = ("fabricated-id", "malformed-id")
"""The findings counted as fabricated citations (per cited identifier)."""

R = TypeVar("R")


@frozen
class RunResult:
    """One run's outcome, reduced to what rates need (small, so it crosses processes cheaply)."""

    run: str
    group: str | None
    task: str | None
    readable: bool
    flagged: bool = False
    cited: int = 0
    fabricated: int = 0
    errors: int = 0
    warnings: int = 0
    codes: tuple[str, ...] = ()
    problem: str | None = None
    canary_caught: bool | None = None
    schemes: tuple[tuple[str, int, int], ...] = ()
    """Per scheme of cited identifier: (scheme, cited, fabricated), sorted by scheme."""
    findings: tuple[tuple[str, int], ...] = ()
    """Per finding code: (code, number of findings), sorted by code."""
    input_error: bool = False
    """The run could not be audited because of what the user wrote (a manifest row, a run
    folder with two reports), not because of a run's files: the command exits 2."""

    @classmethod
    def unreadable(cls, spec: RunSpec, problem: str, *, input_error: bool = False) -> RunResult:
        return cls(spec.run, spec.group, spec.task, False, problem=problem, input_error=input_error)


def _options_key(options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    """A hashable, order-free form of the options, so equal options share one auditor."""
    items = dict(options or {})
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in items.items()))


@lru_cache(maxsize=8)
def _auditor(key: tuple[tuple[str, Any], ...]) -> Auditor:
    """The auditor of this process for one configuration (built once, then reused)."""
    from groundcheck.auditor import Auditor, Policy
    from groundcheck.extractors import default_registry

    options = dict(key)
    no_plugins = bool(options.pop("no_plugins", True))
    registry = default_registry().copy()
    if not no_plugins:
        registry.discover(strict=False)  # broken plug-ins: reported once by the CLI
    return Auditor(Policy(**options), registry=registry)


def auditor_for(options: Mapping[str, Any] | None) -> Auditor:
    """The auditor for these options (a :class:`ConfigError` here, before any run, when an
    option is wrong: otherwise every run would be unreadable for the same reason)."""
    return _auditor(_options_key(options))


def _canary_for(identifiers: frozenset[Any]) -> str:
    """An arXiv id no tool returned: well-formed, far in the future, first free one."""
    from groundcheck.model import Identifier

    for seq in range(99999, 0, -1):
        candidate = f"9912.{seq:05d}"
        if Identifier("arxiv", candidate) not in identifiers:
            return candidate
    raise RuntimeError("every canary id is in the evidence")  # pragma: no cover


def judge(
    run: str,
    report: str,
    traces: Sequence[Trace],
    auditor: Auditor,
    *,
    group: str | None = None,
    task: str | None = None,
    canary: bool = False,
) -> RunResult:
    """Audit one run whose report and evidence are already read, reduced to a result."""
    from groundcheck.model import EvidenceSet

    evidence = EvidenceSet.merge(t.evidence for t in traces)
    verdict = auditor.audit(report, evidence)
    caught = None
    if canary:
        planted = _canary_for(evidence.identifiers)
        copy = f"{report}\n\nSee also arXiv:{planted} ({CANARY_NOTE}).\n"
        check = auditor.audit(copy, evidence)
        caught = any(
            f.code == "fabricated-id" and f.citation is not None and f.citation.id == planted
            for f in check.findings
        )
    return _reduce(run, group, task, verdict, caught)


def _reduce(
    run: str, group: str | None, task: str | None, verdict: Verdict, caught: bool | None
) -> RunResult:
    per_scheme: dict[str, list[int]] = {}
    for g in verdict.citations:
        if not g.citation.is_title:
            per_scheme.setdefault(g.citation.scheme, [0, 0])[0] += 1
    per_code: dict[str, int] = {}
    fabricated = 0
    for f in verdict.findings:
        per_code[f.code] = per_code.get(f.code, 0) + 1
        if f.code in FABRICATION_CODES:
            fabricated += 1
            if f.citation is not None and not f.citation.is_title:
                per_scheme.setdefault(f.citation.scheme, [0, 0])[1] += 1
    return RunResult(
        run,
        group,
        task,
        True,
        flagged=not verdict.ok,
        cited=sum(c for c, _ in per_scheme.values()),
        fabricated=fabricated,
        errors=len(verdict.errors),
        warnings=len(verdict.warnings),
        codes=tuple(sorted(per_code)),
        canary_caught=caught,
        schemes=tuple((s, c, min(f, c)) for s, (c, f) in sorted(per_scheme.items())),
        findings=tuple(sorted(per_code.items())),
    )


def audit_one(
    spec: RunSpec, canary: bool = False, options: Mapping[str, Any] | None = None
) -> RunResult:
    """Audit one run in this process (the worker side of :func:`audit_runs`).

    Whatever goes wrong with this one run (a file gone, a trace that does not parse, even a
    bug) makes it unreadable with the reason; it never stops the batch. A plug-in that fails
    is the exception: not a property of the run, it stops the batch with one error.
    """
    from groundcheck.evidence.jsonio import limited_input

    if spec.problem is not None:
        return RunResult.unreadable(spec, spec.problem, input_error=spec.input_error)
    limit = (options or {}).get("max_input_bytes")
    with limited_input(limit if isinstance(limit, int) else None):
        return _audit_one(spec, canary, options)


def _audit_one(spec: RunSpec, canary: bool, options: Mapping[str, Any] | None) -> RunResult:
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.evidence.load import load_run

    try:
        auditor = auditor_for(options)
        if not spec.evidence:
            raise InputError("the run has no evidence files", source=spec.run)
        # One run from all its files, with one shared provenance state (what counts as a
        # tool's answer across transcripts), and the sample when the file is a log of many.
        run = load_run(spec.evidence, extractors=auditor.extractors, sample=spec.sample)
        if spec.report is not None:
            report = read_text(spec.report)
        elif run.report is not None:
            report = run.report
        elif spec.where is not None:
            return RunResult.unreadable(
                spec,
                f"{spec.where}: the row names no report, and its trace holds no final answer",
                input_error=True,
            )
        else:
            raise InputError("the run has no report (and its trace holds none)", source=spec.run)
        return judge(
            spec.run, report, [run], auditor, group=spec.group, task=spec.task, canary=canary
        )
    except PluginError as exc:
        # Not a property of the run: every run would fail the same way, or some would be
        # silently dropped from the rates. The whole batch stops with this one error.
        raise PluginError(
            f"{spec.run}: {exc}; the batch stopped (fix or remove the plug-in, or pass "
            "--no-plugins / --extractor NAME)"
        ) from None
    except (GroundcheckError, OSError) as exc:
        return RunResult.unreadable(spec, str(exc))
    except RecursionError:
        return RunResult.unreadable(spec, "input nested too deeply to read")
    except MemoryError:
        return RunResult.unreadable(spec, "out of memory while auditing this run")
    except Exception as exc:  # a bug must not end a batch of a million runs; it is named
        return RunResult.unreadable(spec, f"internal error, please report it: {exc!r}")


# -- folds: what a chunk of runs comes back as -----------------------------------------------


def as_list(results: list[RunResult]) -> list[RunResult]:
    """The fold of :func:`audit_runs`: every result, in order."""
    return results


def _audit_chunk(
    specs: Sequence[RunSpec],
    canary: bool,
    options: Mapping[str, Any],
    fold: Callable[[list[RunResult]], R],
) -> R:
    """The task a worker runs: audit a chunk of runs and fold their results."""
    return fold([audit_one(s, canary, options) for s in specs])


@frozen
class _Chunk:
    specs: tuple[RunSpec, ...]
    attempt: int


class _Engine(Generic[R]):
    """Chunks of specs through an executor, a bounded window in flight, outputs in order.

    A chunk whose future fails (its worker died, the pool broke) is retried once whole; if it
    fails again its runs are audited one at a time with nothing else in flight, and a run that
    fails alone is unreadable. A pool this engine started is replaced when it breaks; an
    executor given by the caller is used as it is (and if it cannot take work any more, that
    is an error, not a batch of unreadable runs).
    """

    def __init__(
        self,
        executor: Executor,
        *,
        make_pool: Callable[[], Executor] | None,
        canary: bool,
        options: Mapping[str, Any],
        fold: Callable[[list[RunResult]], R],
        window: int,
    ) -> None:
        self.executor = executor
        self.make_pool = make_pool
        self.canary = canary
        self.options = dict(options)
        self.fold = fold
        self.window = max(1, window)
        self.pending: deque[tuple[_Chunk, Future[Any], Executor]] = deque()

    def _send(
        self, specs: Sequence[RunSpec], fold: Callable[[list[RunResult]], Any]
    ) -> Future[Any]:
        batch = list(specs)
        try:
            return self.executor.submit(_audit_chunk, batch, self.canary, self.options, fold)
        except RuntimeError as exc:  # BrokenExecutor, or an executor shut down under us
            if self.make_pool is None:
                raise GroundcheckError(f"the executor cannot take work any more: {exc}") from None
            self._replace_pool()
            return self.executor.submit(_audit_chunk, batch, self.canary, self.options, fold)

    def _replace_pool(self) -> None:
        """A fresh pool for a broken one. Chunks that failed with the old pool are sent
        again when their turn comes (as a retry), never all at once: a run being audited
        alone must be alone."""
        assert self.make_pool is not None
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = self.make_pool()

    def _failed(self, exc: BaseException, used: Executor) -> None:
        """After a failure: replace our pool if that failure broke it (and not an older one)."""
        broke_ours = isinstance(exc, BrokenExecutor) and used is self.executor
        if broke_ours and self.make_pool is not None:
            self._replace_pool()

    def _result(self, future: Future[Any]) -> Any:
        """Wait for one chunk, checking now and then that the executor is still alive."""
        check = getattr(self.executor, "check_alive", None)
        while True:
            try:
                return future.result(timeout=POLL_SECONDS if check else None)
            except FutureTimeout:
                if check is not None:
                    check()

    def run(self, chunks: Iterator[tuple[RunSpec, ...]]) -> Iterator[tuple[int, R]]:
        """(runs in the chunk, the chunk's fold), chunk by chunk in input order."""
        for specs in chunks:
            self.pending.append((_Chunk(specs, 0), self._send(specs, self.fold), self.executor))
            while len(self.pending) >= self.window:
                yield self._next()
        while self.pending:
            yield self._next()

    def _next(self) -> tuple[int, R]:
        chunk, future, used = self.pending.popleft()
        while True:
            try:
                return len(chunk.specs), self._result(future)
            except GroundcheckError:
                raise
            except Exception as exc:
                problem = _death(exc)
                self._failed(exc, used)
            if chunk.attempt == 0:
                chunk = _Chunk(chunk.specs, 1)
                future, used = self._send(chunk.specs, self.fold), self.executor
                continue
            return len(chunk.specs), self._alone(chunk.specs, problem)

    def _alone(self, specs: tuple[RunSpec, ...], problem: str) -> R:
        """Each run of a chunk that failed twice, alone, with nothing else in flight."""
        if self.pending:
            wait_all([f for _, f, _ in self.pending])
        results: list[RunResult] = []
        for spec in specs:
            used = self.executor
            try:
                (result,) = self._result(self._send((spec,), as_list))
            except GroundcheckError:
                raise
            except Exception as exc:
                result = RunResult.unreadable(
                    spec, f"its worker failed three times ({_death(exc) or problem})"
                )
                self._failed(exc, used)
            results.append(result)
        return self.fold(results)


def _death(exc: BaseException) -> str:
    """A short reason a chunk's worker failed, for the unreadable run's problem."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    name = type(exc).__name__
    return f"{name}: {text}"[:300] if text else name


def _chunked(specs: Iterable[RunSpec], size: int) -> Iterator[tuple[RunSpec, ...]]:
    it = iter(specs)
    while chunk := tuple(islice(it, size)):
        yield chunk


def fold_runs(
    specs: Iterable[RunSpec],
    fold: Callable[[list[RunResult]], R],
    *,
    options: Mapping[str, Any] | None = None,
    canary: bool = False,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    total: int = 0,
    chunk_size: int = CHUNK,
) -> Iterator[R]:
    """Audit a stream of runs, yielding each chunk's fold in input order.

    The engine under :func:`audit_runs` and the batch jobs: ``fold`` turns a chunk's results
    into what crosses back from the worker (the results themselves, or a tally).
    ``progress(done, total)`` is called after each chunk (``total``: an estimate, 0 if unknown).
    """
    opts = dict(options or {})
    _auditor.cache_clear()  # extractors registered since the last batch must be seen
    auditor_for(opts)  # a wrong option is one error now, not one per run
    done = 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, max(total, done))

    if executor is None:
        workers = workers or os.cpu_count() or 1
        it = iter(specs)
        head = list(islice(it, SMALL_BATCH))
        if workers <= 1 or len(head) < SMALL_BATCH:
            for chunk in _chunked(_chain(head, it), chunk_size):
                yield _audit_chunk(chunk, canary, opts, fold)
                step(len(chunk))
            return
        cores = workers

        def make_pool() -> Executor:
            return ProcessPoolExecutor(cores)

        pool = make_pool()
        engine = _Engine(
            pool,
            make_pool=make_pool,
            canary=canary,
            options=opts,
            fold=fold,
            window=cores * IN_FLIGHT_PER_WORKER,
        )
        try:
            for n, out in engine.run(_chunked(_chain(head, it), chunk_size)):
                yield out
                step(n)
        finally:
            engine.executor.shutdown(wait=True, cancel_futures=True)
        return
    cores = workers or os.cpu_count() or 1
    engine = _Engine(
        executor,
        make_pool=None,
        canary=canary,
        options=opts,
        fold=fold,
        window=cores * IN_FLIGHT_PER_WORKER,
    )
    for n, out in engine.run(_chunked(specs, chunk_size)):
        yield out
        step(n)


def _chain(head: list[RunSpec], rest: Iterator[RunSpec]) -> Iterator[RunSpec]:
    yield from head
    yield from rest


def audit_runs(
    specs: Iterable[RunSpec],
    *,
    options: Mapping[str, Any] | None = None,
    canary: bool = False,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    total: int = 0,
) -> Iterator[RunResult]:
    """Audit every run; results stream back in the order of ``specs``.

    ``specs`` may be any iterable (a generator over a million-line manifest is read as the
    workers need it). ``options`` are :class:`~groundcheck.auditor.Policy` fields plus
    ``no_plugins``. With an ``executor`` the chunks run there (it is not shut down);
    otherwise a process pool of ``workers`` processes (default: all cores), or this process
    for small batches.
    """
    for chunk in fold_runs(
        specs,
        as_list,
        options=options,
        canary=canary,
        workers=workers,
        executor=executor,
        progress=progress,
        total=total,
    ):
        yield from chunk
