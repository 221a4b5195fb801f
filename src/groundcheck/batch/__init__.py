"""Many runs: discover them, audit each (through an executor), pool the verdicts into rates,
and compare two agents on the same tasks."""

from groundcheck.batch.compare import CompareReport, compare_results
from groundcheck.batch.discover import RunSpec, discover_runs
from groundcheck.batch.execute import CANARY_NOTE, RunResult, audit_one, audit_runs
from groundcheck.batch.pool import GroupRate, RateReport, summarize
from groundcheck.batch.rates import compare, rate
from groundcheck.stats import clean_runs_needed

__all__ = [
    "CANARY_NOTE",
    "CompareReport",
    "GroupRate",
    "RateReport",
    "RunResult",
    "RunSpec",
    "audit_one",
    "audit_runs",
    "clean_runs_needed",
    "compare",
    "compare_results",
    "discover_runs",
    "rate",
    "summarize",
]
