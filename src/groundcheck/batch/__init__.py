"""Many runs: discover them (streamed), audit each (through an executor, or on Ray), fold the
verdicts into a mergeable tally and rates, and compare two agents on the same tasks."""

from groundcheck.batch.bounded import Notes, SeenIds, Smallest
from groundcheck.batch.compare import CompareGate, CompareReport, SideTally, compare_results
from groundcheck.batch.discover import RunSpec, count_runs, discover_runs, iter_runs
from groundcheck.batch.execute import CANARY_NOTE, RunResult, audit_one, audit_runs, fold_runs
from groundcheck.batch.pool import (
    EXIT_INCONCLUSIVE,
    FlaggedRun,
    Gate,
    GroupRate,
    RateReport,
    RateTally,
    UnreadableRun,
    summarize,
)
from groundcheck.batch.rates import ENGINES, compare, rate
from groundcheck.batch.ray_engine import audit_dataset
from groundcheck.stats import clean_runs_needed

__all__ = [
    "CANARY_NOTE",
    "ENGINES",
    "EXIT_INCONCLUSIVE",
    "CompareGate",
    "CompareReport",
    "FlaggedRun",
    "Gate",
    "GroupRate",
    "Notes",
    "RateReport",
    "RateTally",
    "RunResult",
    "RunSpec",
    "SeenIds",
    "SideTally",
    "Smallest",
    "UnreadableRun",
    "audit_dataset",
    "audit_one",
    "audit_runs",
    "clean_runs_needed",
    "compare",
    "compare_results",
    "count_runs",
    "discover_runs",
    "fold_runs",
    "iter_runs",
    "rate",
    "summarize",
]
