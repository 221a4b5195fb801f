"""Auditing many runs: one run in this process, or a batch across an executor.

The seam is :class:`concurrent.futures.Executor`: processes by default, but any executor that
can pickle a function and its arguments works (a thread pool, a Dask client's
``get_executor()``). Each task is a chunk of runs plus the policy to audit them under; each
worker process builds one :class:`~groundcheck.auditor.Auditor` per distinct configuration and
keeps it, so a chunk costs no set-up after the first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from attrs import frozen

from groundcheck.batch.discover import RunSpec
from groundcheck.errors import GroundcheckError, InputError, PluginError

if TYPE_CHECKING:
    from groundcheck.auditor import Auditor

__all__ = ["CANARY_NOTE", "RunResult", "audit_one", "audit_runs"]

CANARY_NOTE = "groundcheck canary"
_SMALL_BATCH = 64
"""Fewer runs than this are audited in this process: starting workers would cost more."""


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


def _canary_for(identifiers: frozenset[Any]) -> str:
    """An arXiv id no tool returned: well-formed, far in the future, first free one."""
    from groundcheck.model import Identifier

    for seq in range(99999, 0, -1):
        candidate = f"9912.{seq:05d}"
        if Identifier("arxiv", candidate) not in identifiers:
            return candidate
    raise RuntimeError("every canary id is in the evidence")  # pragma: no cover


def audit_one(
    spec: RunSpec, canary: bool = False, options: Mapping[str, Any] | None = None
) -> RunResult:
    """Audit one run in this process (the worker side of :func:`audit_runs`)."""
    from groundcheck.evidence.jsonio import limited_input

    if spec.problem is not None:
        return RunResult(spec.run, spec.group, spec.task, False, problem=spec.problem)
    limit = (options or {}).get("max_input_bytes")
    with limited_input(limit if isinstance(limit, int) else None):
        return _audit_one(spec, canary, options)


def _audit_one(
    spec: RunSpec, canary: bool, options: Mapping[str, Any] | None
) -> RunResult:
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.evidence.load import load_run

    try:
        auditor = _auditor(_options_key(options))
        if not spec.evidence:
            raise InputError("the run has no evidence files", source=spec.run)
        run = load_run(spec.evidence, extractors=auditor.extractors, sample=spec.sample)
        if spec.report is not None:
            report = read_text(spec.report)
        elif run.report is not None:
            report = run.report
        else:
            raise InputError("the run has no report (and its trace holds none)", source=spec.run)
        evidence = run.evidence
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
    except PluginError as exc:
        # Not a property of the run: every run would fail the same way, or some would be
        # silently dropped from the rates. The whole batch stops with this one error.
        raise PluginError(
            f"{spec.run}: {exc}; the batch stopped (fix or remove the plug-in, or pass "
            "--no-plugins / --extractor NAME)"
        ) from None
    except (GroundcheckError, OSError) as exc:
        return RunResult(spec.run, spec.group, spec.task, False, problem=str(exc))
    ids = [g for g in verdict.citations if not g.citation.is_title]
    fabricated = sum(1 for f in verdict.findings if f.code in ("fabricated-id", "malformed-id"))
    return RunResult(
        spec.run,
        spec.group,
        spec.task,
        True,
        flagged=not verdict.ok,
        cited=len(ids),
        fabricated=fabricated,
        errors=len(verdict.errors),
        warnings=len(verdict.warnings),
        codes=tuple(sorted({f.code for f in verdict.findings})),
        canary_caught=caught,
    )


def _audit_chunk(
    specs: Sequence[RunSpec], canary: bool, options: Mapping[str, Any]
) -> list[RunResult]:
    return [audit_one(s, canary, options) for s in specs]


def _chunks(specs: Sequence[RunSpec], workers: int) -> Iterator[Sequence[RunSpec]]:
    size = max(16, min(512, len(specs) // (workers * 8) or 1))
    for i in range(0, len(specs), size):
        yield specs[i : i + size]


def audit_runs(
    specs: Sequence[RunSpec],
    *,
    options: Mapping[str, Any] | None = None,
    canary: bool = False,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[RunResult]:
    """Audit every run; results come back in the order of ``specs``.

    ``options`` are :class:`~groundcheck.auditor.Policy` fields plus ``no_plugins``. With an
    ``executor`` the chunks run there (it is not shut down); otherwise a process pool of
    ``workers`` processes (default: all cores), or this process for small batches.
    """
    opts = dict(options or {})
    total = len(specs)
    _auditor.cache_clear()  # extractors registered since the last batch must be seen
    if executor is None:
        workers = workers or os.cpu_count() or 1
        if workers <= 1 or total < _SMALL_BATCH:
            results = []
            for i, spec in enumerate(specs, 1):
                results.append(audit_one(spec, canary, opts))
                if progress is not None:
                    progress(i, total)
            return results
        with ProcessPoolExecutor(workers) as pool:
            return _run_on(pool, specs, canary, opts, workers, progress=progress)
    cores = workers or os.cpu_count() or 1
    return _run_on(executor, specs, canary, opts, cores, progress=progress)


def _run_on(
    executor: Executor,
    specs: Sequence[RunSpec],
    canary: bool,
    options: Mapping[str, Any],
    workers: int,
    *,
    progress: Callable[[int, int], None] | None,
) -> list[RunResult]:
    futures = [
        executor.submit(_audit_chunk, chunk, canary, options) for chunk in _chunks(specs, workers)
    ]
    results: list[RunResult] = []
    try:
        for future in futures:
            results.extend(future.result())
            if progress is not None:
                progress(len(results), len(specs))
    except BaseException:
        for future in futures:  # one error stops the batch: audit nothing more
            future.cancel()
        raise
    return results
