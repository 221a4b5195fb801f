"""Two agents on the same tasks: pair their runs by task and compare the flagged rates."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen

from groundcheck.batch.execute import RunResult
from groundcheck.stats import PairedComparison, paired_comparison

__all__ = ["CompareReport", "compare_results"]


@frozen
class CompareReport:
    """What ``groundcheck compare`` reports: the paired comparison and notes on the pairing."""

    result: PairedComparison
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "groundcheck.compare/1",
            **self.result.to_dict(),
            "notes": list(self.notes),
        }


def _by_task(label: str, results: Sequence[RunResult], notes: list[str]) -> dict[str, bool]:
    by_task: dict[str, bool] = {}
    for res in results:
        key = res.task or res.run
        if not res.readable:
            notes.append(f"{label}: unreadable run {res.run}: {res.problem}")
        elif key in by_task:
            notes.append(f"{label}: duplicate task {key!r}: kept the first")
        else:
            by_task[key] = res.flagged
    return by_task


def compare_results(
    a: Sequence[RunResult],
    b: Sequence[RunResult],
    *,
    confidence: float = 0.95,
    notes: Sequence[str] = (),
) -> CompareReport:
    """Pair runs of A and B by task id (else run id); tasks on one side only are noted."""
    out = list(notes)
    side_a, side_b = _by_task("A", a, out), _by_task("B", b, out)
    tasks = sorted(set(side_a) & set(side_b))
    only_a, only_b = sorted(set(side_a) - set(side_b)), sorted(set(side_b) - set(side_a))
    if only_a:
        out.append(f"{len(only_a)} task(s) only in A, left out: {', '.join(only_a[:10])}")
    if only_b:
        out.append(f"{len(only_b)} task(s) only in B, left out: {', '.join(only_b[:10])}")
    result = paired_comparison([side_a[t] for t in tasks], [side_b[t] for t in tasks], confidence)
    return CompareReport(result, tuple(out))
