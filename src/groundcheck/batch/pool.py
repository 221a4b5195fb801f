"""Pooling verdicts into rates: per run, per cited identifier, per group, with intervals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import field, frozen

from groundcheck.batch.execute import RunResult
from groundcheck.stats import Interval, clean_runs_needed, rule_of_three, wilson

__all__ = ["GroupRate", "RateReport", "summarize"]


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
        }


@frozen
class RateReport:
    """Everything ``groundcheck rate`` reports."""

    overall: GroupRate
    groups: tuple[GroupRate, ...]
    unreadable: tuple[RunResult, ...]
    notes: tuple[str, ...]
    target: float
    confidence: float
    canary_runs: int = 0
    canary_caught: int = 0
    results: tuple[RunResult, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "groundcheck.rate/1",
            "unit": "run: a run is flagged when its verdict holds any error",
            "confidence": self.confidence,
            "target_upper_bound": self.target,
            "runs_total": self.overall.runs + len(self.unreadable),
            "runs_unreadable": len(self.unreadable),
            "overall": self.overall.to_dict(),
            "groups": [g.to_dict() for g in self.groups],
            "unreadable": [{"run": r.run, "problem": r.problem} for r in self.unreadable],
            "canary": None
            if not self.canary_runs
            else {"runs": self.canary_runs, "caught": self.canary_caught},
            "notes": list(self.notes),
        }


def _group(name: str, results: Sequence[RunResult], target: float, confidence: float) -> GroupRate:
    runs = len(results)
    flagged = sum(r.flagged for r in results)
    cited = sum(r.cited for r in results)
    fabricated = min(sum(r.fabricated for r in results), cited)
    return GroupRate(
        name,
        runs,
        flagged,
        wilson(flagged, runs, confidence),
        cited,
        fabricated,
        wilson(fabricated, cited, confidence),
        rule_of_three(runs, confidence) if flagged == 0 else None,
        clean_runs_needed(flagged, runs, target, confidence) if runs else None,
    )


def summarize(
    results: Sequence[RunResult],
    notes: Sequence[str] = (),
    *,
    target: float = 0.01,
    confidence: float = 0.95,
) -> RateReport:
    readable = [r for r in results if r.readable]
    unreadable = tuple(r for r in results if not r.readable)
    names = sorted({r.group for r in readable if r.group is not None})
    groups = tuple(
        _group(n, [r for r in readable if r.group == n], target, confidence) for n in names
    )
    canaries = [r for r in readable if r.canary_caught is not None]
    return RateReport(
        _group("all", readable, target, confidence),
        groups,
        unreadable,
        tuple(notes),
        target,
        confidence,
        len(canaries),
        sum(1 for r in canaries if r.canary_caught),
        tuple(results),
    )
