"""The two batch jobs end to end: discover runs, audit them, pool (or pair) the results."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

from groundcheck.batch.compare import CompareReport, compare_results
from groundcheck.batch.discover import discover_runs
from groundcheck.batch.execute import audit_runs
from groundcheck.batch.pool import RateReport, summarize

__all__ = ["compare", "rate"]

Progress = Callable[[str], Callable[[int, int], None] | None]
"""Given a label ("auditing A"), a progress callback for that batch, or None."""


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
) -> RateReport:
    """Audit every run the sources name and pool the verdicts (``groundcheck rate``)."""
    specs, notes = discover_runs(sources)
    results = audit_runs(
        specs,
        options=options,
        canary=canary,
        workers=workers,
        executor=executor,
        progress=progress("auditing") if progress else None,
    )
    return summarize(results, notes, target=target, confidence=confidence)


def compare(
    a: str,
    b: str,
    *,
    options: Mapping[str, Any] | None = None,
    confidence: float = 0.95,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> CompareReport:
    """Audit the runs of two agents and pair them by task (``groundcheck compare``)."""
    sides = []
    notes: list[str] = []
    for label, source in (("A", a), ("B", b)):
        specs, found = discover_runs([source])
        notes += [f"{label}: {n}" for n in found]
        sides.append(
            audit_runs(
                specs,
                options=options,
                workers=workers,
                executor=executor,
                progress=progress(f"auditing {label}") if progress else None,
            )
        )
    return compare_results(sides[0], sides[1], confidence=confidence, notes=notes)
