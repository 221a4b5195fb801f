"""Many runs: find them, audit each (in parallel), and pool the verdicts into rates.

A *run* is one report and the evidence of the run that produced it. Runs come from folders
(a session folder, a folder holding a report and its trace, or a folder of such folders),
globs, or a JSONL manifest (``{"run", "report", "evidence", "group"?, "task"?}``). A run that
cannot be read is counted as unreadable and reported, never silently dropped.
"""

from __future__ import annotations

import glob as globbing
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from attrs import field, frozen

from groundcheck.errors import GroundcheckError, InputError
from groundcheck.stats import Interval, rule_of_three, wilson

__all__ = [
    "RateReport",
    "RunResult",
    "RunSpec",
    "audit_runs",
    "clean_runs_needed",
    "discover_runs",
    "summarize",
]

CANARY_NOTE = "groundcheck canary"
_REPORT_NAMES = ("report.md", "report.txt", "answer.md", "final.md", "output.md")
_EVIDENCE_SUFFIXES = (".json", ".jsonl", ".bib")


@frozen
class RunSpec:
    """Where one run's report and evidence are. ``report`` None: the trace holds the report."""

    run: str
    report: str | None
    evidence: tuple[str, ...]
    group: str | None = None
    task: str | None = None
    problem: str | None = None
    """Why the run cannot be audited (found while discovering), if it cannot."""


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


# -- discovery ------------------------------------------------------------------------------


def _run_in_folder(folder: Path) -> RunSpec | None:
    """A run held by one folder, or None when the folder holds no report."""
    if (folder / "logs" / "trace.jsonl").is_file():
        return RunSpec(folder.name, None, (str(folder),))
    report = next((folder / n for n in _REPORT_NAMES if (folder / n).is_file()), None)
    if report is None:
        return None
    evidence = tuple(
        str(p)
        for p in sorted(folder.iterdir())
        if p.is_file() and p.suffix in _EVIDENCE_SUFFIXES and p != report
    )
    if not evidence:
        return RunSpec(folder.name, str(report), (), problem="no evidence file beside the report")
    return RunSpec(folder.name, str(report), evidence)


def _manifest(path: Path) -> Iterator[RunSpec]:
    base = path.parent
    with path.open("rb") as stream:
        for number, raw in enumerate(stream, 1):
            if not raw.strip():
                continue
            where = f"{path}:{number}"
            try:
                entry = json.loads(raw)
            except (ValueError, RecursionError):
                yield RunSpec(where, None, (), problem="manifest line is not valid JSON")
                continue
            if not isinstance(entry, dict) or not isinstance(entry.get("run"), (str, int)):
                yield RunSpec(where, None, (), problem="manifest line needs a 'run' id")
                continue
            evidence = entry.get("evidence", [])
            evidence = [evidence] if isinstance(evidence, str) else evidence
            report = entry.get("report")
            if (
                not isinstance(evidence, list)
                or not all(isinstance(e, str) for e in evidence)
                or (report is not None and not isinstance(report, str))
            ):
                yield RunSpec(
                    str(entry["run"]), None, (), problem=f"{where}: bad 'report' or 'evidence'"
                )
                continue
            group = entry.get("group")
            task = entry.get("task")
            yield RunSpec(
                str(entry["run"]),
                None if report is None else str(base / report),
                tuple(str(base / e) for e in evidence),
                None if group is None else str(group),
                None if task is None else str(task),
            )


def discover_runs(sources: Iterable[str]) -> tuple[list[RunSpec], list[str]]:
    """Every run the sources name, and notes on what was skipped (empty folders, duplicates)."""
    specs: list[RunSpec] = []
    notes: list[str] = []
    for source in sources:
        paths = (
            [Path(p) for p in sorted(globbing.glob(source))]  # noqa: PTH207 - user patterns
            if globbing.has_magic(source)
            else [Path(source)]
        )
        if not paths:
            notes.append(f"{source}: the pattern matches nothing")
        for path in paths:
            if path.is_file() and path.suffix == ".jsonl" and path.name != "trace.jsonl":
                specs.extend(_manifest(path))
            elif path.is_dir():
                single = _run_in_folder(path)
                if single is not None:
                    specs.append(single)
                    continue
                found = [
                    s
                    for s in (_run_in_folder(c) for c in sorted(path.iterdir()) if c.is_dir())
                    if s
                ]
                if not found:
                    notes.append(
                        f"{path}: no runs found (a run folder holds report.md and its evidence)"
                    )
                specs.extend(found)
            elif not path.exists():
                specs.append(RunSpec(str(path), None, (), problem="no such file or folder"))
            else:
                specs.append(
                    RunSpec(str(path), None, (), problem="not a run folder or a .jsonl manifest")
                )
    seen: set[str] = set()
    unique: list[RunSpec] = []
    for spec in specs:
        if spec.run in seen:
            notes.append(f"duplicate run id {spec.run!r}: kept the first, skipped this one")
            continue
        seen.add(spec.run)
        unique.append(spec)
    return unique, notes


# -- auditing -------------------------------------------------------------------------------

_AUDITOR: Any = None


def _init_worker(options: dict[str, Any]) -> None:
    global _AUDITOR
    from groundcheck.auditor import Auditor, Policy
    from groundcheck.extractors import default_registry

    registry = default_registry().copy()
    if not options.pop("no_plugins", True):
        registry.discover()
    _AUDITOR = Auditor(Policy(**options), registry=registry)


def _canary_for(identifiers: frozenset[Any]) -> str:
    """An arXiv id no tool returned: well-formed, far in the future, first free one."""
    from groundcheck.model import Identifier

    for seq in range(99999, 0, -1):
        candidate = f"9912.{seq:05d}"
        if Identifier("arxiv", candidate) not in identifiers:
            return candidate
    raise RuntimeError("every canary id is in the evidence")  # pragma: no cover


def audit_one(spec: RunSpec, canary: bool = False) -> RunResult:
    """Audit one run in this process (the worker side of :func:`audit_runs`)."""
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.evidence.load import load_evidence
    from groundcheck.model import EvidenceSet

    if _AUDITOR is None:
        _init_worker({})
    auditor = _AUDITOR
    if spec.problem is not None:
        return RunResult(spec.run, spec.group, spec.task, False, problem=spec.problem)
    try:
        traces = [load_evidence(p, extractors=auditor.extractors) for p in spec.evidence]
        if spec.report is not None:
            report = read_text(spec.report)
        elif traces and traces[0].report is not None:
            report = traces[0].report
        else:
            raise InputError("the run has no report (and its trace holds none)", source=spec.run)
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
    except (GroundcheckError, OSError) as exc:
        return RunResult(spec.run, spec.group, spec.task, False, problem=str(exc))
    ids = [g for g in verdict.citations if g.citation.scheme != "title"]
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


def _audit_chunk(args: tuple[list[RunSpec], bool]) -> list[RunResult]:
    specs, canary = args
    return [audit_one(s, canary) for s in specs]


def audit_runs(
    specs: Sequence[RunSpec],
    *,
    options: dict[str, Any] | None = None,
    canary: bool = False,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[RunResult]:
    """Audit every run, across processes; results come back in the order of ``specs``."""
    options = dict(options or {})
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(specs) < 64:
        _init_worker(dict(options))
        results = []
        for i, spec in enumerate(specs, 1):
            results.append(audit_one(spec, canary))
            if progress is not None:
                progress(i, len(specs))
        return results
    size = max(16, min(512, len(specs) // (workers * 8) or 1))
    chunks = [(list(specs[i : i + size]), canary) for i in range(0, len(specs), size)]
    results = []
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(options,)) as pool:
        for chunk in pool.map(_audit_chunk, chunks):
            results.extend(chunk)
            if progress is not None:
                progress(len(results), len(specs))
    return results


# -- pooling --------------------------------------------------------------------------------


def clean_runs_needed(
    flagged: int, runs: int, target: float, confidence: float = 0.95
) -> int | None:
    """Further runs, all clean, needed for the Wilson upper bound to reach ``target``.

    None when the target cannot be reached (it is not above zero).
    """
    if not 0 < target < 1:
        return None
    if wilson(flagged, runs, confidence).high <= target:
        return 0
    lo, hi = 1, 1
    while wilson(flagged, runs + hi, confidence).high > target:
        lo, hi = hi, hi * 2
        if hi > 10**9:
            return None
    while lo < hi:
        mid = (lo + hi) // 2
        if wilson(flagged, runs + mid, confidence).high <= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


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


class TerminalProgress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty()
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = int(width * done / total) if total else width
        bar = "█" * filled + "·" * (width - filled)
        end = "\n" if done >= total else ""
        sys.stderr.write(f"\r{self.label} {bar} {done}/{total}{end}")
        sys.stderr.flush()


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _interval(i: Interval) -> str:
    return f"{_pct(i.estimate)} ({i.confidence:.0%} CI {_pct(i.low)}–{_pct(i.high)})"


def _group_lines(g: GroupRate, target: float, indent: str = "") -> list[str]:
    lines = [
        f"{indent}runs flagged: {g.flagged} of {g.runs} → {_interval(g.run_rate)}  [unit: run]",
        f"{indent}fabricated citations: {g.fabricated} of {g.cited} cited identifiers → "
        f"{_interval(g.citation_rate)}  [unit: cited identifier]",
    ]
    if g.rule_of_three is not None and g.runs:
        lines.append(
            f"{indent}no run flagged: rule of three puts the upper bound at "
            f"{_pct(g.rule_of_three)} (≈3/{g.runs}); zero is not shown"
        )
    if g.clean_runs_needed is not None:
        if g.clean_runs_needed == 0:
            lines.append(f"{indent}upper bound is at or below the {_pct(target)} target")
        else:
            lines.append(
                f"{indent}{g.clean_runs_needed} more clean runs would bring the upper bound "
                f"to {_pct(target)}"
            )
    return lines


def rate_text(report: RateReport) -> str:
    """What ``groundcheck rate`` prints for people."""
    total = report.overall.runs + len(report.unreadable)
    lines = [f"runs: {total} ({report.overall.runs} audited, {len(report.unreadable)} unreadable)"]
    lines += _group_lines(report.overall, report.target)
    for g in report.groups:
        lines.append(f"group {g.name}:")
        lines += _group_lines(g, report.target, "  ")
    if report.canary_runs:
        lines.append(
            f"canary: planted in {report.canary_runs} report copies, caught in "
            f"{report.canary_caught}"
        )
    for r in report.unreadable[:20]:
        lines.append(f"unreadable: {r.run}: {r.problem}")
    if len(report.unreadable) > 20:
        lines.append(f"unreadable: … and {len(report.unreadable) - 20} more (see --format json)")
    lines += [f"note: {n}" for n in report.notes]
    return "\n".join(lines) + "\n"
