"""The two batch jobs end to end: discover runs, audit them, fold (or pair) the results.

Runs stream from discovery to the workers and back into a tally; nothing holds one object
per run. ``engine="process"`` (the default) audits on this machine's cores, or on any
``executor`` given; ``engine="ray"`` on a Ray cluster (``RAY_ADDRESS``, else a local one).
Every engine gives the same report, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from groundcheck.batch.bounded import Notes
from groundcheck.batch.compare import CompareReport, SideTally, compare_tallies
from groundcheck.batch.discover import REPORT_NAME, count_runs, iter_runs
from groundcheck.batch.execute import fold_runs
from groundcheck.batch.pool import LISTED, RateReport, RateTally, check_rate
from groundcheck.errors import ConfigError

__all__ = ["ENGINES", "compare", "rate"]

Progress = Callable[[str], Callable[[int, int], None] | None]
"""Given a label ("auditing A"), a progress callback for that batch, or None."""

ENGINES = ("process", "ray")


@contextmanager
def _executor(
    engine: str, executor: Executor | None, workers: int | None
) -> Iterator[Executor | None]:
    if engine not in ENGINES:
        raise ConfigError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    if engine == "process":
        yield executor
        return
    if executor is not None:
        raise ConfigError("engine='ray' runs on Ray: give no executor with it")
    from groundcheck.batch.ray_engine import RayExecutor

    with RayExecutor(num_cpus=workers) as ray_executor:
        yield ray_executor


def rate(
    sources: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    target: float = 0.01,
    confidence: float = 0.95,
    canary: bool = False,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    max_rate: float | None = None,
    report_names: Sequence[str] = (REPORT_NAME,),
    root: str | Path | None = None,
    engine: str = "process",
) -> RateReport:
    """Audit every run the sources name and pool the verdicts (``groundcheck rate``).

    ``max_rate``: also gate the run rate (pass, fail or inconclusive, see
    :class:`~groundcheck.batch.pool.Gate`). ``report_names``: a run folder's report file
    (case-insensitive). ``root``: manifest paths must resolve inside it (default: each
    manifest's folder).
    """
    check_rate(max_rate, "--max-rate")
    notes = Notes(LISTED)
    specs = iter_runs(sources, report_names=report_names, root=root, note=notes)
    callback = progress("auditing") if progress else None
    total = count_runs(sources) if callback is not None else 0
    tally = RateTally()
    with _executor(engine, executor, workers) as chosen:
        for part in fold_runs(
            specs,
            RateTally.of,
            options=options,
            canary=canary,
            workers=workers,
            executor=chosen,
            progress=callback,
            total=total,
        ):
            tally.merge(part)
    return tally.report(
        notes.items,
        target=target,
        confidence=confidence,
        max_rate=max_rate,
        notes_omitted=notes.omitted,
    )


def compare(
    a: str,
    b: str,
    *,
    options: Mapping[str, Any] | None = None,
    confidence: float = 0.95,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    max_difference: float | None = None,
    report_names: Sequence[str] = (REPORT_NAME,),
    root: str | Path | None = None,
    engine: str = "process",
) -> CompareReport:
    """Audit the runs of two agents and pair them by task (``groundcheck compare``).

    ``max_difference``: also gate the difference in run rates A − B (pass when the
    interval's upper bound is at most it, fail when its lower bound is above it).
    """
    check_rate(max_difference, "--max-difference", low=-1.0)
    sides: list[SideTally] = []
    notes: list[str] = []
    with _executor(engine, executor, workers) as chosen:
        for label, source in (("A", a), ("B", b)):
            found = Notes(LISTED)
            specs = iter_runs([source], report_names=report_names, root=root, note=found)
            callback = progress(f"auditing {label}") if progress else None
            side = SideTally()
            for part in fold_runs(
                specs,
                SideTally.of,
                options=options,
                workers=workers,
                executor=chosen,
                progress=callback,
                total=count_runs([source]) if callback is not None else 0,
            ):
                side.merge(part)
            sides.append(side)
            notes += [f"{label}: {n}" for n in found.items]
            if found.omitted:
                notes.append(f"{label}: … and {found.omitted} more notes")
    return compare_tallies(
        sides[0], sides[1], confidence=confidence, notes=notes, max_difference=max_difference
    )
