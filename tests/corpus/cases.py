"""Load the real-run corpus: one folder per case, each described by its ``case.json``.

The corpus holds reports and traces that agents really wrote, taken from public repositories,
with hand-made labels saying what a correct checker should conclude about each cited
identifier, title, marker, URL and quote. This module only reads and validates that
description; it asserts nothing about groundcheck, so measurement tests can be built on it.

>>> cases = load_cases()
>>> all(case.report_path.is_file() for case in cases)
True
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from attrs import frozen

CORPUS = Path(__file__).resolve().parent
"""The folder holding one sub-folder per case."""

KINDS = frozenset({"id", "title", "marker", "quote", "url"})
"""What a label is about: an identifier, a cited title, an in-text marker, a quotation, a URL."""

EXPECTED = frozenset(
    {"grounded", "not-in-evidence", "dangling", "mismatch", "not-a-title", "uncertain"}
)
"""What a correct checker concludes about a labelled item (``uncertain``: the labeller could not tell)."""

_REQUIRED = ("provenance", "agent", "format", "report", "evidence", "labels", "files")
_PROVENANCE = ("repo", "paths", "url", "licence")


class CaseError(ValueError):
    """A case.json that does not describe its case correctly (names the file and the problem)."""


@frozen
class Label:
    """One hand-made judgement about something the report cites."""

    kind: str
    text: str
    line: int | None
    expected: str
    reason: str | None


@frozen
class Case:
    """One real agent run: its report, the trace or tool outputs it is checked against, labels."""

    name: str
    folder: Path
    provenance: dict[str, Any]
    agent: str
    format: str
    report: str
    evidence: tuple[str, ...]
    labels: tuple[Label, ...]
    run: dict[str, Any]
    raw: dict[str, Any]

    @property
    def report_path(self) -> Path:
        return self.folder / self.report

    @property
    def evidence_paths(self) -> tuple[Path, ...]:
        return tuple(self.folder / name for name in self.evidence)


def _fail(path: Path, problem: str) -> CaseError:
    return CaseError(f"{path}: {problem}")


def _label(path: Path, index: int, item: Any) -> Label:
    where = f"labels.items[{index}]"
    if not isinstance(item, dict):
        raise _fail(path, f"{where} is not an object")
    kind, text, expected = item.get("kind"), item.get("text"), item.get("expected")
    if kind not in KINDS:
        raise _fail(path, f"{where}.kind {kind!r} is not one of {sorted(KINDS)}")
    if not isinstance(text, str) or not text:
        raise _fail(path, f"{where}.text must be a non-empty string")
    if expected not in EXPECTED:
        raise _fail(path, f"{where}.expected {expected!r} is not one of {sorted(EXPECTED)}")
    line = item.get("line")
    if line is not None and (not isinstance(line, int) or isinstance(line, bool) or line < 1):
        raise _fail(path, f"{where}.line must be a positive integer or absent")
    reason = item.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise _fail(path, f"{where}.reason must be a string")
    if expected == "uncertain" and not reason:
        raise _fail(path, f"{where} is 'uncertain' without a reason")
    return Label(kind=kind, text=text, line=line, expected=expected, reason=reason)


def load_case(path: Path) -> Case:
    """Read and validate one ``case.json``; a problem raises :class:`CaseError` naming the file."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _fail(path, f"cannot be read as JSON: {exc}") from exc
    if not isinstance(raw, dict):
        raise _fail(path, "is not a JSON object")
    for key in _REQUIRED:
        if key not in raw:
            raise _fail(path, f"missing key {key!r}")
    provenance = raw["provenance"]
    if not isinstance(provenance, dict) or any(k not in provenance for k in _PROVENANCE):
        raise _fail(path, f"provenance needs {list(_PROVENANCE)}")
    evidence = raw["evidence"]
    if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
        raise _fail(path, "evidence must be a list of file names")
    labels = raw["labels"]
    if not isinstance(labels, dict) or not isinstance(labels.get("items"), list):
        raise _fail(path, "labels must be an object with an 'items' list")
    items = tuple(_label(path, i, item) for i, item in enumerate(labels["items"]))
    run = labels.get("run", {})
    if not isinstance(run, dict):
        raise _fail(path, "labels.run must be an object")
    return Case(
        name=path.parent.name,
        folder=path.parent,
        provenance=provenance,
        agent=str(raw["agent"]),
        format=str(raw["format"]),
        report=str(raw["report"]),
        evidence=tuple(evidence),
        labels=items,
        run=run,
        raw=raw,
    )


def check_files(case: Case) -> list[str]:
    """Problems with the files a case names: missing, or not the bytes its ``files`` digest records."""
    problems: list[str] = []
    files = case.raw.get("files", {})
    for name in (case.report, *case.evidence):
        target = case.folder / name
        if not target.is_file():
            problems.append(f"{case.name}: {name} does not exist")
            continue
        record = files.get(name)
        if not isinstance(record, dict):
            problems.append(f"{case.name}: files has no entry for {name}")
            continue
        data = target.read_bytes()
        if record.get("bytes") != len(data):
            problems.append(
                f"{case.name}: {name} is {len(data)} bytes, case.json says {record.get('bytes')}"
            )
        if record.get("sha256") != hashlib.sha256(data).hexdigest():
            problems.append(f"{case.name}: {name} does not match its recorded sha256")
    return problems


def load_cases(root: Path = CORPUS) -> list[Case]:
    """Every case under ``root``, sorted by folder name."""
    return [load_case(path) for path in sorted(root.glob("*/case.json"))]
