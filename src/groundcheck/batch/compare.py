"""Two agents on the same tasks: pair their runs by task and compare the flagged rates.

Each side is folded into a :class:`SideTally`: one flag per task (the only thing pairing
needs, so memory grows with the tasks, not with what was found in them), duplicates resolved
order-free (the run with the smallest id is kept), unreadable runs bounded like a rate's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from attrs import frozen

from groundcheck.batch.bounded import Smallest
from groundcheck.batch.execute import RunResult
from groundcheck.batch.pool import EXIT_INCONCLUSIVE, LISTED, UnreadableRun
from groundcheck.stats import (
    PairedComparison,
    mcnemar_exact,
    newcombe_paired,
    tasks_to_settle,
    three_way_gate,
)

__all__ = ["CompareGate", "CompareReport", "Discordant", "SideTally", "compare_results"]


class SideTally:
    """One side of a comparison: task -> (kept run, flagged), and its unreadable runs."""

    __slots__ = ("duplicates", "input_errors", "tasks", "unreadable")

    def __init__(self, limit: int = LISTED) -> None:
        self.tasks: dict[str, tuple[str, bool]] = {}
        self.duplicates: dict[str, int] = {}
        self.unreadable: Smallest[tuple[str, str, bool]] = Smallest(limit)
        self.input_errors = 0

    @classmethod
    def of(cls, results: Iterable[RunResult]) -> SideTally:
        tally = cls()
        for r in results:
            tally.add(r)
        return tally

    def add(self, r: RunResult) -> None:
        if not r.readable:
            self.unreadable.add((r.run, r.problem or "", r.input_error))
            self.input_errors += r.input_error
            return
        self._put(r.task or r.run, r.run, r.flagged, 0)

    def _put(self, task: str, run: str, flagged: bool, extra: int) -> None:
        held = self.tasks.get(task)
        if held is None:
            self.tasks[task] = (run, flagged)
            if extra:
                self.duplicates[task] = self.duplicates.get(task, 0) + extra
            return
        self.duplicates[task] = self.duplicates.get(task, 0) + 1 + extra
        if run < held[0]:
            self.tasks[task] = (run, flagged)

    def merge(self, other: SideTally) -> None:
        for task, (run, flagged) in other.tasks.items():
            self._put(task, run, flagged, other.duplicates.get(task, 0))
        self.unreadable.merge(other.unreadable)
        self.input_errors += other.input_errors

    def __getstate__(self) -> tuple[Any, ...]:
        return self.tasks, self.duplicates, self.unreadable, self.input_errors

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.tasks, self.duplicates, self.unreadable, self.input_errors = state


@frozen
class Discordant:
    """A task flagged on one side only: the task and the run of each side."""

    task: str
    run_a: str
    run_b: str

    def to_dict(self) -> dict[str, str]:
        return {"task": self.task, "run_a": self.run_a, "run_b": self.run_b}


@frozen
class CompareGate:
    """The three-way gate on the difference A − B against ``max_difference``."""

    max_difference: float
    verdict: str
    low: float
    high: float
    confidence: float
    pairs: int
    tasks_needed: int | None
    """About how many more paired tasks, at the rates seen, would settle it (0: settled)."""

    @property
    def exit_code(self) -> int:
        return {"pass": 0, "fail": 1}.get(self.verdict, EXIT_INCONCLUSIVE)

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_difference": self.max_difference,
            "verdict": self.verdict,
            "unit": "difference in run rates, A − B",
            "low": self.low,
            "high": self.high,
            "confidence": self.confidence,
            "pairs": self.pairs,
            "tasks_needed": self.tasks_needed,
            "exit_code": self.exit_code,
        }


@frozen
class CompareReport:
    """What ``groundcheck compare`` reports: the paired comparison and notes on the pairing."""

    result: PairedComparison
    notes: tuple[str, ...]
    only_a: tuple[Discordant, ...] = ()
    """Tasks flagged in A only (the first :data:`LISTED` by task); ``result.only_a`` counts."""
    only_b: tuple[Discordant, ...] = ()
    unreadable: tuple[tuple[str, UnreadableRun], ...] = ()
    """(side, run): the first :data:`LISTED` unreadable runs of each side by run id."""
    runs_unreadable: tuple[int, int] = (0, 0)
    input_errors: int = 0
    tasks_only: tuple[int, int] = (0, 0)
    """Tasks audited on one side only (A, B), left out of the pairing."""
    gate: CompareGate | None = None

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {
            "schema": "groundcheck.compare/1",
            **r.to_dict(),
            "discordant": {
                "only_a": [d.to_dict() for d in self.only_a],
                "only_b": [d.to_dict() for d in self.only_b],
                "only_a_not_listed": r.only_a - len(self.only_a),
                "only_b_not_listed": r.only_b - len(self.only_b),
            },
            "gate": None if self.gate is None else self.gate.to_dict(),
            "tasks_only_in_a": self.tasks_only[0],
            "tasks_only_in_b": self.tasks_only[1],
            "runs_unreadable": {"a": self.runs_unreadable[0], "b": self.runs_unreadable[1]},
            "input_errors": self.input_errors,
            "unreadable": [{"side": side, **u.to_dict()} for side, u in self.unreadable],
            "notes": list(self.notes),
        }


def _side_notes(label: str, side: SideTally, out: list[str]) -> None:
    dup = sorted(side.duplicates.items())
    for task, extra in dup[:LISTED]:
        kept = side.tasks[task][0]
        out.append(
            f"{label}: task {task!r} has {extra + 1} runs: kept {kept!r} (the first by run id), "
            f"left {extra} out"
        )
    if len(dup) > LISTED:
        out.append(f"{label}: … and {len(dup) - LISTED} more tasks with several runs")


def _only(label: str, tasks: list[str], out: list[str]) -> None:
    if tasks:
        shown = ", ".join(tasks[:10])
        out.append(f"{len(tasks)} task(s) only in {label}, left out: {shown}")


def compare_tallies(
    a: SideTally,
    b: SideTally,
    *,
    confidence: float = 0.95,
    notes: Sequence[str] = (),
    max_difference: float | None = None,
) -> CompareReport:
    """Pair two folded sides by task; tasks on one side only are counted and noted."""
    out = list(notes)
    _side_notes("A", a, out)
    _side_notes("B", b, out)
    cells = [0, 0, 0, 0]  # both, only A, only B, neither
    only_a: Smallest[tuple[str, str, str]] = Smallest(LISTED)
    only_b: Smallest[tuple[str, str, str]] = Smallest(LISTED)
    paired = 0
    for task, (run_a, flag_a) in a.tasks.items():
        held = b.tasks.get(task)
        if held is None:
            continue
        paired += 1
        run_b, flag_b = held
        if flag_a and flag_b:
            cells[0] += 1
        elif flag_a:
            cells[1] += 1
            only_a.add((task, run_a, run_b))
        elif flag_b:
            cells[2] += 1
            only_b.add((task, run_a, run_b))
        else:
            cells[3] += 1
    left_a = sorted(t for t in a.tasks if t not in b.tasks)
    left_b = sorted(t for t in b.tasks if t not in a.tasks)
    _only("A", left_a, out)
    _only("B", left_b, out)
    both, just_a, just_b, neither = cells
    difference = newcombe_paired(both, just_a, just_b, neither, confidence)
    result = PairedComparison(
        both, just_a, just_b, neither, difference, mcnemar_exact(just_a, just_b)
    )
    gate = None
    if max_difference is not None:
        gate = CompareGate(
            max_difference,
            three_way_gate(difference.low, difference.high, max_difference),
            difference.low,
            difference.high,
            confidence,
            paired,
            tasks_to_settle(
                both, just_a, just_b, neither, maximum=max_difference, confidence=confidence
            ),
        )
    unreadable = tuple(
        (label, UnreadableRun(run, problem or None, bad))
        for label, side in (("A", a), ("B", b))
        for run, problem, bad in side.unreadable.items
    )
    return CompareReport(
        result,
        tuple(out),
        tuple(Discordant(*t) for t in only_a.items),
        tuple(Discordant(*t) for t in only_b.items),
        unreadable,
        (a.unreadable.total, b.unreadable.total),
        a.input_errors + b.input_errors,
        (len(left_a), len(left_b)),
        gate,
    )


def compare_results(
    a: Iterable[RunResult],
    b: Iterable[RunResult],
    *,
    confidence: float = 0.95,
    notes: Sequence[str] = (),
    max_difference: float | None = None,
) -> CompareReport:
    """Pair runs of A and B by task id (else run id); tasks on one side only are noted."""
    return compare_tallies(
        SideTally.of(a),
        SideTally.of(b),
        confidence=confidence,
        notes=notes,
        max_difference=max_difference,
    )
