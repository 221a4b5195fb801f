"""Finding runs: folders, folders of runs, globs, and JSONL manifests.

A *run* is one report and the evidence of the run that produced it. Runs come from folders
(a session folder, a folder holding a report and its trace, or a folder of such folders),
globs, a JSONL manifest (``{"run", "report", "evidence", "group"?, "task"?}``), or logs that
hold many runs: every sample (and epoch) of an inspect-ai log is a run, its ``task`` the
sample id. A run that cannot be read is kept with its problem, to be counted as unreadable,
never silently dropped.
"""

from __future__ import annotations

import glob as globbing
from collections.abc import Iterable, Iterator
from pathlib import Path

from attrs import frozen

from groundcheck.evidence.jsonio import open_input, parse_json

__all__ = ["RunSpec", "discover_runs"]

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
    sample: str | None = None
    """The sample of a log that is this run (``id`` or ``id:epoch``), for logs of many runs."""


def _log_runs(path: Path) -> list[RunSpec] | None:
    """One run per sample of a log of many runs (an inspect-ai log), or None for other files."""
    from groundcheck.errors import GroundcheckError
    from groundcheck.evidence.load import samples_of

    try:
        samples = samples_of(path)
    except (GroundcheckError, OSError) as exc:
        return [RunSpec(str(path), None, (), problem=str(exc))]
    if samples is None:
        return None
    if not samples:
        return [RunSpec(str(path), None, (), problem="a log with no samples")]
    return [
        RunSpec(f"{path}#{sample}", None, (str(path),), task=task, sample=sample)
        for sample, task in samples
    ]


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
    with open_input(path) as stream:  # once, under the input limit (a FIFO, an endless line)
        for number, raw in enumerate(stream.lines(), 1):
            if not raw.strip():
                continue
            where = f"{path}:{number}"
            try:
                entry = parse_json(raw)
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
                for child in sorted(path.iterdir()):
                    if child.is_file() and child.suffix in (".eval", ".json"):
                        found.extend(_log_runs(child) or ())
                if not found:
                    notes.append(
                        f"{path}: no runs found (a run folder holds report.md and its evidence)"
                    )
                specs.extend(found)
            elif not path.exists():
                specs.append(RunSpec(str(path), None, (), problem="no such file or folder"))
            else:
                logged = _log_runs(path)
                specs.extend(
                    logged
                    or [
                        RunSpec(
                            str(path),
                            None,
                            (),
                            problem="not a run folder, a .jsonl manifest or an inspect-ai log",
                        )
                    ]
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
