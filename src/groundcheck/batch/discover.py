"""Finding runs: folders, folders of runs, globs, and JSONL manifests, streamed.

A *run* is one report and the evidence of the run that produced it. Runs come from folders
(a session folder, a folder holding a report and its trace, or a folder of such folders),
globs, a JSONL manifest (``{"run", "report", "evidence", "group"?, "task"?}``), or logs that
hold many runs: every sample (and epoch) of an inspect-ai log is a run, its ``task`` the
sample id.

Discovery is a generator: a manifest is read line by line and a folder of runs is walked as
the workers need runs, so a million-line manifest costs no more memory than a short one
(duplicate run ids are caught by :class:`~groundcheck.batch.bounded.SeenIds`, 16 bytes per
run). A run that cannot be read is kept with its problem, to be counted, never silently
dropped; a problem in what the user wrote (a manifest row that is not a run, a run folder with
two reports, a path outside ``--root``) is marked as an *input error*, which makes the command
exit 2 after reporting the rest.
"""

from __future__ import annotations

import glob as globbing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from groundcheck.batch.bounded import SeenIds
from groundcheck.errors import ConfigError

__all__ = ["REPORT_NAME", "RunSpec", "count_runs", "discover_runs", "iter_runs"]

REPORT_NAME = "report.md"
"""The report file a run folder holds, by default (matched case-insensitively)."""
_EVIDENCE_SUFFIXES = (".json", ".jsonl", ".bib")

Note = Callable[[str], None]


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
    input_error: bool = False
    """The problem is in what the user wrote, not in the run's files (exit 2)."""
    where: str | None = None
    """``MANIFEST:LINE`` for a run named by a manifest row (errors point there)."""
    sample: str | None = None
    """The sample of a log that is this run (``id`` or ``id:epoch``), for logs of many runs."""


_LOG_SUFFIXES = (".eval", ".json")


def _log_runs(path: Path) -> list[RunSpec] | None:
    """One run per sample of a log of many runs (an inspect-ai log), or None for other files.

    A log that cannot be read is one unreadable run (its files' problem, not the user's)."""
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


def _report_files(folder: Path, names: frozenset[str]) -> list[Path]:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    return sorted(Path(e.path) for e in entries if e.name.casefold() in names and _is_file(e))


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _run_in_folder(folder: Path, names: frozenset[str]) -> RunSpec | None:
    """A run held by one folder, or None when the folder holds no report."""
    if (folder / "logs" / "trace.jsonl").is_file():
        return RunSpec(folder.name, None, (str(folder),))
    reports = _report_files(folder, names)
    if not reports:
        return None
    if len(reports) > 1:
        found = ", ".join(p.name for p in reports)
        return RunSpec(
            folder.name,
            None,
            (),
            problem=f"{folder}: two report files ({found}); name the one to audit with "
            "--report-name",
            input_error=True,
        )
    report = reports[0]
    evidence = tuple(
        str(p)
        for p in sorted(folder.iterdir())
        if p.is_file() and p.suffix.lower() in _EVIDENCE_SUFFIXES and p != report
    )
    if not evidence:
        return RunSpec(folder.name, str(report), (), problem="no evidence file beside the report")
    return RunSpec(folder.name, str(report), evidence)


class _Confine:
    """Whether paths resolve (symlinks followed) inside one root, cheaply for many paths.

    The resolved form of each directory is cached (a bounded table), so a path costs one
    ``lstat`` of its last component once its directory is known.
    """

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self.prefix = self.root.rstrip(os.sep) + os.sep
        self.dirs: dict[str, str] = {}

    def _dir(self, folder: str) -> str:
        held = self.dirs.get(folder)
        if held is None:
            if len(self.dirs) >= 4096:
                self.dirs.clear()
            held = self.dirs[folder] = os.path.realpath(folder)
        return held

    def resolve(self, path: str) -> str:
        # Plain string work, not Path objects: a million-row manifest makes two calls a row.
        folder, _, name = path.rpartition(os.sep)
        if not folder or name in ("", ".", "..") or os.path.islink(path):  # noqa: PTH114
            return os.path.realpath(path)
        return self._dir(folder) + os.sep + name

    def inside(self, path: str) -> bool:
        try:
            resolved = self.resolve(path)
        except (OSError, ValueError):  # a symlink loop, a NUL in the name
            return False
        return resolved == self.root or resolved.startswith(self.prefix)


def _manifest(path: Path, root: Path | None) -> Iterator[RunSpec]:
    from groundcheck.errors import InputError
    from groundcheck.evidence.jsonio import loads, open_input

    base = str(path.parent)
    confine = _Confine(str(root) if root is not None else base)
    label = f"--root {root}" if root is not None else f"the manifest's folder {path.parent}"
    with open_input(path) as stream:  # once, under the input limit (a FIFO, an endless line)
        for number, raw in enumerate(stream.lines(), 1):
            if not raw.strip():
                continue
            where = f"{path}:{number}"
            try:
                entry = loads(raw.decode("utf-8"), where)
            except (InputError, UnicodeDecodeError, ValueError):
                yield _broken(where, "manifest line is not valid JSON")
                continue
            if not isinstance(entry, dict) or not isinstance(entry.get("run"), (str, int)):
                yield _broken(where, "manifest line needs a 'run' id")
                continue
            run = str(entry["run"])
            problem, report, evidence = _row_paths(entry, base)
            if problem is None and report is None and not evidence:
                problem = "the row names no report and no evidence"
            if problem is None:
                outside = next(
                    (p for p in (report, *evidence) if p is not None and not confine.inside(p)),
                    None,
                )
                if outside is not None:
                    problem = f"{outside} is outside {label} (see --root)"
            group, task = entry.get("group"), entry.get("task")
            yield RunSpec(
                run,
                None if problem else report,
                () if problem else tuple(evidence),
                None if group is None else str(group),
                None if task is None else str(task),
                problem=None if problem is None else f"{where}: {problem}",
                input_error=problem is not None,
                where=where,
            )


def _row_paths(entry: dict[str, Any], base: str) -> tuple[str | None, str | None, list[str]]:
    """(problem, report path, evidence paths) of one manifest row."""
    evidence = entry.get("evidence", [])
    evidence = [evidence] if isinstance(evidence, str) else evidence
    report = entry.get("report")
    if not isinstance(evidence, list) or not all(isinstance(e, str) and e for e in evidence):
        return "'evidence' must be a path or a list of paths", None, []
    if report is not None and (not isinstance(report, str) or not report):
        return "'report' must be a path", None, []
    prefix = base.rstrip(os.sep) + os.sep

    def join(name: str) -> str:
        return name if name.startswith(os.sep) else prefix + name

    return None, None if report is None else join(report), [join(e) for e in evidence]


def _broken(where: str, problem: str) -> RunSpec:
    return RunSpec(where, None, (), problem=f"{where}: {problem}", input_error=True, where=where)


def _given(path: Path, problem: str) -> RunSpec:
    return RunSpec(str(path), None, (), problem=f"{path}: {problem}", input_error=True)


def _children(folder: Path) -> tuple[list[Path], list[Path]]:
    """The subfolders of ``folder`` and the files that may be logs of many runs, each sorted
    by name (names only are held, not runs)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return [], []
    folders = sorted(e.name for e in entries if e.is_dir())
    logs = sorted(
        e.name for e in entries if e.name.lower().endswith(_LOG_SUFFIXES) and _is_file(e)
    )
    return [folder / n for n in folders], [folder / n for n in logs]


def _folder(path: Path, names: frozenset[str], shown: str, note: Note) -> Iterator[RunSpec]:
    single = _run_in_folder(path, names)
    if single is not None:
        yield single
        return
    found = 0
    folders, logs = _children(path)
    for child in folders:
        spec = _run_in_folder(child, names)
        if spec is None:
            note(f"{child}: not a run (no {shown}, no logs/trace.jsonl)")
            continue
        found += 1
        yield spec
    for log in logs:
        runs = _log_runs(log) or ()
        found += len(runs)
        yield from runs
    if not found:
        note(f"{path}: no runs found (a run folder holds {shown} and its evidence)")


def _report_names(report_names: Sequence[str]) -> tuple[frozenset[str], str]:
    names = tuple(report_names) or (REPORT_NAME,)
    for name in names:
        if not name or "/" in name or name in (".", ".."):
            raise ConfigError(f"--report-name wants a file name, got {name!r}")
    return frozenset(n.casefold() for n in names), " or ".join(names)


def _root(root: str | Path | None) -> Path | None:
    if root is None:
        return None
    path = Path(root)
    if not path.is_dir():
        problem = "no such directory" if not path.exists() else "not a directory"
        raise ConfigError(f"--root {root}: {problem}")
    return path.resolve()


def iter_runs(
    sources: Iterable[str],
    *,
    report_names: Sequence[str] = (REPORT_NAME,),
    root: str | Path | None = None,
    note: Note | None = None,
) -> Iterator[RunSpec]:
    """Every run the sources name, streamed; duplicates of a run id are skipped and noted.

    ``report_names``: the report file names of a run folder (case-insensitive). ``root``:
    manifest paths must resolve inside it (default: each manifest's own folder). ``note`` is
    called with each note (a subfolder that is not a run, a duplicate run id, ...).
    """
    names, shown = _report_names(report_names)  # wrong options fail here, before any run
    confine = _root(root)
    say: Note = note if note is not None else (lambda _text: None)
    return _unique(_all(list(sources), names, shown, confine, say), say)


def _unique(specs: Iterator[RunSpec], note: Note) -> Iterator[RunSpec]:
    seen = SeenIds()
    for spec in specs:
        if not seen.add(spec.run):
            note(f"duplicate run id {spec.run!r}: kept the first, skipped this one")
            continue
        yield spec


def _all(
    sources: Iterable[str], names: frozenset[str], shown: str, root: Path | None, note: Note
) -> Iterator[RunSpec]:
    for source in sources:
        paths = (
            [Path(p) for p in sorted(globbing.glob(source))]  # noqa: PTH207 - user patterns
            if globbing.has_magic(source)
            else [Path(source)]
        )
        if not paths:
            note(f"{source}: the pattern matches nothing")
        for path in paths:
            if _is_manifest(path):
                yield from _manifest(path, root)
            elif path.is_dir():
                yield from _folder(path, names, shown, note)
            elif not path.exists():
                yield _given(path, "no such file or folder")
            else:
                logged = _log_runs(path)
                if logged is None:
                    yield _given(
                        path, "not a run folder, a .jsonl manifest or an inspect-ai log"
                    )
                else:
                    yield from logged


def _is_manifest(path: Path) -> bool:
    """A ``.jsonl`` file (or a named pipe: a manifest still being written) that is not a
    trace of its own."""
    if path.suffix != ".jsonl" or path.name == "trace.jsonl":
        return False
    return path.is_file() or path.is_fifo()


def count_runs(sources: Iterable[str]) -> int:
    """About how many runs the sources hold (manifest lines, subfolders), without reading
    any run: the total a progress bar counts towards."""
    total = 0
    for source in sources:
        paths = sorted(globbing.glob(source)) if globbing.has_magic(source) else [source]  # noqa: PTH207
        for name in paths:
            path = Path(name)
            if path.is_fifo():
                continue  # read once, by the audit itself
            if _is_manifest(path):
                with path.open("rb") as stream:
                    total += sum(1 for line in stream if line.strip())
            elif path.is_dir():
                if (path / "logs" / "trace.jsonl").is_file():
                    total += 1
                    continue
                try:
                    total += max(1, sum(1 for e in os.scandir(path) if e.is_dir()))
                except OSError:
                    total += 1
            else:
                total += 1
    return total


def discover_runs(
    sources: Iterable[str],
    *,
    report_names: Sequence[str] = (REPORT_NAME,),
    root: str | Path | None = None,
) -> tuple[list[RunSpec], list[str]]:
    """Every run the sources name as a list, and the notes (for small batches and tests;
    :func:`iter_runs` streams)."""
    notes: list[str] = []
    specs = list(iter_runs(sources, report_names=report_names, root=root, note=notes.append))
    return specs, notes
