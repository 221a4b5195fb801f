"""Pooling verdicts into rates: a mergeable tally of counts, then rates with intervals.

:class:`RateTally` is what a batch folds its results into: counts per group, per scheme of
cited identifier and per finding code, and the flagged and unreadable runs kept bounded (the
first :data:`LISTED` by run id, with a count of the rest). Tallies merge (``a.merge(b)``), and
the merge is order-free, so a tally folded on worker processes or Ray actors in any order
gives the same report, byte for byte. Memory does not grow with the number of runs (only
with the number of groups, schemes and codes).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from attrs import frozen

from groundcheck.batch.bounded import Smallest
from groundcheck.batch.execute import RunResult
from groundcheck.stats import (
    Interval,
    clean_runs_needed,
    rule_of_three,
    three_way_gate,
    wilson,
)

__all__ = [
    "LISTED",
    "FlaggedRun",
    "Gate",
    "GroupRate",
    "RateReport",
    "RateTally",
    "UnreadableRun",
    "summarize",
]

LISTED = 1000
"""At most this many flagged runs, unreadable runs and notes are listed (the first by run id,
or by text for notes); the report counts the rest."""

EXIT_INCONCLUSIVE = 3
"""The exit status of a gate that is neither passed nor failed (0 pass, 1 fail, 2 error)."""


@frozen
class GroupRate:
    """Rates for one group of runs (or all of them)."""

    name: str
    runs: int
    flagged: int
    run_rate: Interval
    cited: int
    fabricated: int
    citation_rate: Interval
    rule_of_three: float | None
    clean_runs_needed: int | None
    schemes: tuple[tuple[str, int, int], ...] = ()
    """(scheme, cited identifiers, fabricated ones), by scheme."""
    codes: tuple[tuple[str, int, int], ...] = ()
    """(finding code, runs with it, findings), by code."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.name,
            "runs_audited": self.runs,
            "runs_flagged": self.flagged,
            "run_rate": self.run_rate.to_dict(),
            "cited_identifiers": self.cited,
            "fabricated_citations": self.fabricated,
            "citation_rate": self.citation_rate.to_dict(),
            "rule_of_three_upper": self.rule_of_three,
            "clean_runs_needed_for_target": self.clean_runs_needed,
            "schemes": {s: {"cited": c, "fabricated": f} for s, c, f in self.schemes},
            "codes": {c: {"runs": r, "findings": n} for c, r, n in self.codes},
        }


@frozen
class FlaggedRun:
    """A run whose verdict holds an error: who it is and which codes it drew."""

    run: str
    group: str | None
    task: str | None
    codes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "group": self.group, "task": self.task, "codes": list(self.codes)}


@frozen
class UnreadableRun:
    """A run that could not be audited, and why (an input error makes the command exit 2)."""

    run: str
    problem: str | None
    input_error: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "problem": self.problem, "input_error": self.input_error}


@frozen
class Gate:
    """The three-way gate on the run rate's interval against ``max_rate``.

    ``pass`` when the upper bound is at most ``max_rate``, ``fail`` when the lower bound is
    above it, ``inconclusive`` otherwise; ``clean_runs_needed`` more runs, all clean, would
    bring the upper bound to ``max_rate`` (settle it as a pass).
    """

    max_rate: float
    verdict: str
    low: float
    high: float
    confidence: float
    runs: int
    flagged: int
    clean_runs_needed: int | None

    @property
    def exit_code(self) -> int:
        return {"pass": 0, "fail": 1}.get(self.verdict, EXIT_INCONCLUSIVE)

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_rate": self.max_rate,
            "verdict": self.verdict,
            "unit": "run",
            "low": self.low,
            "high": self.high,
            "confidence": self.confidence,
            "runs_audited": self.runs,
            "runs_flagged": self.flagged,
            "clean_runs_needed": self.clean_runs_needed,
            "exit_code": self.exit_code,
        }


def check_rate(value: float | None, name: str, low: float = 0.0) -> None:
    """A maximum rate must lie strictly between ``low`` and 1 (a :class:`ConfigError`)."""
    from groundcheck.errors import ConfigError

    if value is not None and not low < value < 1:
        span = f"between {low:g} and 1" if low else "between 0 and 1 (a proportion)"
        raise ConfigError(f"{name} must be {span}, got {value}")


def gate_for(group: GroupRate, max_rate: float, confidence: float) -> Gate:
    interval = group.run_rate
    verdict = three_way_gate(interval.low, interval.high, max_rate)
    needed = (
        clean_runs_needed(group.flagged, group.runs, max_rate, confidence)
        if verdict == "inconclusive"
        else 0
        if verdict == "pass"
        else None
    )
    return Gate(
        max_rate,
        verdict,
        interval.low,
        interval.high,
        confidence,
        group.runs,
        group.flagged,
        needed,
    )


@frozen
class RateReport:
    """Everything ``groundcheck rate`` reports."""

    overall: GroupRate
    groups: tuple[GroupRate, ...]
    unreadable: tuple[UnreadableRun, ...]
    """The first :data:`LISTED` unreadable runs by run id; ``unreadable_count`` counts all."""
    notes: tuple[str, ...]
    target: float
    confidence: float
    canary_runs: int = 0
    canary_caught: int = 0
    flagged: tuple[FlaggedRun, ...] = ()
    """The first :data:`LISTED` flagged runs by run id; ``overall.flagged`` counts all."""
    unreadable_count: int | None = None
    input_errors: int = 0
    notes_omitted: int = 0
    gate: Gate | None = None

    @property
    def runs_unreadable(self) -> int:
        return len(self.unreadable) if self.unreadable_count is None else self.unreadable_count

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "groundcheck.rate/1",
            "unit": "run: a run is flagged when its verdict holds any error",
            "confidence": self.confidence,
            "target_upper_bound": self.target,
            "runs_total": self.overall.runs + self.runs_unreadable,
            "runs_unreadable": self.runs_unreadable,
            "input_errors": self.input_errors,
            "overall": self.overall.to_dict(),
            "groups": [g.to_dict() for g in self.groups],
            "gate": None if self.gate is None else self.gate.to_dict(),
            "flagged": [f.to_dict() for f in self.flagged],
            "flagged_not_listed": self.overall.flagged - len(self.flagged),
            "unreadable": [u.to_dict() for u in self.unreadable],
            "unreadable_not_listed": self.runs_unreadable - len(self.unreadable),
            "canary": None
            if not self.canary_runs
            else {"runs": self.canary_runs, "caught": self.canary_caught},
            "notes": list(self.notes),
            "notes_not_listed": self.notes_omitted,
        }


class _Counts:
    """The counts of one group: plain integers and small dictionaries, merged by addition."""

    __slots__ = (
        "canary_caught",
        "canary_runs",
        "cited",
        "codes",
        "fabricated",
        "flagged",
        "runs",
        "schemes",
    )

    def __init__(self) -> None:
        self.runs = self.flagged = self.cited = self.fabricated = 0
        self.canary_runs = self.canary_caught = 0
        self.schemes: dict[str, list[int]] = {}
        self.codes: dict[str, list[int]] = {}

    def add(self, r: RunResult) -> None:
        self.runs += 1
        self.flagged += r.flagged
        self.cited += r.cited
        self.fabricated += r.fabricated
        if r.canary_caught is not None:
            self.canary_runs += 1
            self.canary_caught += r.canary_caught
        for scheme, cited, fabricated in r.schemes:
            counts = self.schemes.setdefault(scheme, [0, 0])
            counts[0] += cited
            counts[1] += fabricated
        for code, findings in r.findings:
            counts = self.codes.setdefault(code, [0, 0])
            counts[0] += 1
            counts[1] += findings

    def merge(self, other: _Counts) -> None:
        self.runs += other.runs
        self.flagged += other.flagged
        self.cited += other.cited
        self.fabricated += other.fabricated
        self.canary_runs += other.canary_runs
        self.canary_caught += other.canary_caught
        for table, theirs in ((self.schemes, other.schemes), (self.codes, other.codes)):
            for key, (a, b) in theirs.items():
                counts = table.setdefault(key, [0, 0])
                counts[0] += a
                counts[1] += b

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self.__slots__, state, strict=True):
            setattr(self, name, value)

    def rate(self, name: str, target: float, confidence: float) -> GroupRate:
        fabricated = min(self.fabricated, self.cited)
        return GroupRate(
            name,
            self.runs,
            self.flagged,
            wilson(self.flagged, self.runs, confidence),
            self.cited,
            fabricated,
            wilson(fabricated, self.cited, confidence),
            rule_of_three(self.runs, confidence) if self.flagged == 0 else None,
            clean_runs_needed(self.flagged, self.runs, target, confidence) if self.runs else None,
            tuple((s, c, min(f, c)) for s, (c, f) in sorted(self.schemes.items())),
            tuple((c, r, n) for c, (r, n) in sorted(self.codes.items())),
        )


def _flag_key(r: RunResult) -> tuple[Any, ...]:
    return (r.run, r.group is not None, r.group or "", r.task is not None, r.task or "", r.codes)


class RateTally:
    """Counts of a batch so far; add results, merge tallies, then :meth:`report`.

    >>> from groundcheck.batch.execute import RunResult
    >>> a, b = RateTally(), RateTally()
    >>> a.add(RunResult("r1", None, None, True, flagged=True, codes=("fabricated-id",)))
    >>> b.add(RunResult("r2", None, None, False, problem="no such file"))
    >>> a.merge(b)
    >>> report = a.report()
    >>> report.overall.runs, report.overall.flagged, report.runs_unreadable
    (1, 1, 1)
    """

    __slots__ = ("flagged", "groups", "input_errors", "unreadable")

    def __init__(self, limit: int = LISTED) -> None:
        self.groups: dict[str | None, _Counts] = {}
        self.flagged: Smallest[tuple[Any, ...]] = Smallest(limit)
        self.unreadable: Smallest[tuple[str, str, bool]] = Smallest(limit)
        self.input_errors = 0

    @classmethod
    def of(cls, results: Iterable[RunResult]) -> RateTally:
        """A tally of these results (the fold a worker returns for a chunk)."""
        tally = cls()
        for r in results:
            tally.add(r)
        return tally

    def add(self, r: RunResult) -> None:
        if not r.readable:
            self.unreadable.add((r.run, r.problem or "", r.input_error))
            self.input_errors += r.input_error
            return
        counts = self.groups.get(r.group)
        if counts is None:
            counts = self.groups[r.group] = _Counts()
        counts.add(r)
        if r.flagged:
            self.flagged.add(_flag_key(r))

    def merge(self, other: RateTally) -> None:
        for name, theirs in other.groups.items():
            mine = self.groups.get(name)
            if mine is None:
                mine = self.groups[name] = _Counts()
            mine.merge(theirs)
        self.flagged.merge(other.flagged)
        self.unreadable.merge(other.unreadable)
        self.input_errors += other.input_errors

    def __getstate__(self) -> tuple[Any, ...]:
        return self.groups, self.flagged, self.unreadable, self.input_errors

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.groups, self.flagged, self.unreadable, self.input_errors = state

    @property
    def runs(self) -> int:
        """Runs tallied, readable or not."""
        return sum(c.runs for c in self.groups.values()) + self.unreadable.total

    def report(
        self,
        notes: Sequence[str] = (),
        *,
        target: float = 0.01,
        confidence: float = 0.95,
        max_rate: float | None = None,
        notes_omitted: int = 0,
    ) -> RateReport:
        overall = _Counts()
        for counts in self.groups.values():
            overall.merge(counts)
        named = sorted(name for name in self.groups if name is not None)
        total = overall.rate("all", target, confidence)
        return RateReport(
            total,
            tuple(self.groups[n].rate(n, target, confidence) for n in named),
            tuple(
                UnreadableRun(run, problem or None, bad)
                for run, problem, bad in self.unreadable.items
            ),
            tuple(notes),
            target,
            confidence,
            overall.canary_runs,
            overall.canary_caught,
            tuple(
                FlaggedRun(k[0], k[2] if k[1] else None, k[4] if k[3] else None, k[5])
                for k in self.flagged.items
            ),
            self.unreadable.total,
            self.input_errors,
            notes_omitted,
            None if max_rate is None else gate_for(total, max_rate, confidence),
        )


def summarize(
    results: Iterable[RunResult],
    notes: Sequence[str] = (),
    *,
    target: float = 0.01,
    confidence: float = 0.95,
    max_rate: float | None = None,
) -> RateReport:
    """Pool results (any iterable, folded as it streams) into a rate report."""
    return RateTally.of(results).report(
        notes, target=target, confidence=confidence, max_rate=max_rate
    )
