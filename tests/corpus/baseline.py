"""Measure the current groundcheck CLI against the corpus labels and print a baseline table.

Not a test: it records what groundcheck gets right and wrong today, so a later change can be
compared with it. Run it from the repository root::

    .venv/bin/python tests/corpus/baseline.py            # Markdown table
    .venv/bin/python tests/corpus/baseline.py --json     # per-case details

A label is matched to a verdict entry on the same report line whose text contains the label's
text (or is contained in it), case-insensitively.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("corpus_cases", _HERE / "cases.py")
assert _spec is not None and _spec.loader is not None
cases_module = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("corpus_cases", cases_module)
_spec.loader.exec_module(cases_module)

_TITLE_CODES = frozenset({"unverified-title", "id-title-mismatch"})


def _run(case: Any) -> tuple[dict[str, Any] | None, str]:
    """The JSON verdict of ``groundcheck audit`` on one case, or None and the error it printed."""
    command = [sys.executable, "-m", "groundcheck", "audit", str(case.report_path), "--format", "json"]
    for path in case.evidence_paths:
        command += ["--evidence", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        message = (done.stderr.strip().splitlines() or ["error"])[-1]
        if "no known trace format" in message:
            message = "evidence not readable (no known trace format)"
        return None, message
    return json.loads(done.stdout), ""


def _same(label_text: str, raw: str) -> bool:
    a, b = label_text.casefold(), raw.casefold()
    return a in b or b in a


def _id_status(label: Any, verdict: dict[str, Any]) -> str:
    """'grounded', 'flagged' or 'not-extracted' for an id/url label."""
    for citation in verdict.get("citations", []):
        if citation.get("scheme") == "title" or citation.get("line") != label.line:
            continue
        if _same(label.text, citation.get("raw", "")) or _same(label.text, citation.get("id", "")):
            return "grounded" if citation.get("grounded") else "flagged"
    return "not-extracted"


def _title_warned(label: Any, verdict: dict[str, Any]) -> bool:
    for finding in verdict.get("findings", []):
        citation = finding.get("citation") or {}
        code = finding.get("code")
        if code not in _TITLE_CODES or citation.get("line") != label.line:
            continue
        if code == "id-title-mismatch" or _same(label.text, citation.get("raw", "")):
            return True
    return False


def measure(case: Any) -> dict[str, Any]:
    """Counts for one case: how groundcheck's verdict compares with the labels."""
    verdict, error = _run(case)
    row: dict[str, Any] = {"case": case.name, "error": error}
    if verdict is None:
        return row
    counts = dict.fromkeys(
        (
            "ids_grounded_ok", "ids_falsely_flagged", "ids_grounded_not_extracted",
            "fabrications_caught", "fabrications_missed", "fabrications_not_extracted",
            "titles_grounded_ok", "titles_falsely_warned", "invented_titles_warned",
            "invented_titles_missed", "non_titles_warned", "title_warnings_total",
        ),
        0,
    )
    labelled_title_lines: set[tuple[int, str]] = set()
    for label in case.labels:
        if label.kind in ("id", "url") and label.line is not None:
            status = _id_status(label, verdict)
            if label.expected == "grounded":
                key = {"grounded": "ids_grounded_ok", "flagged": "ids_falsely_flagged"}.get(
                    status, "ids_grounded_not_extracted"
                )
                counts[key] += 1
            elif label.expected == "not-in-evidence":
                key = {"flagged": "fabrications_caught", "grounded": "fabrications_missed"}.get(
                    status, "fabrications_not_extracted"
                )
                counts[key] += 1
        elif label.kind == "title" and label.line is not None:
            labelled_title_lines.add((label.line, label.text))
            warned = _title_warned(label, verdict)
            if label.expected == "grounded":
                counts["titles_falsely_warned" if warned else "titles_grounded_ok"] += 1
            elif label.expected == "not-in-evidence":
                counts["invented_titles_warned" if warned else "invented_titles_missed"] += 1
            elif label.expected == "not-a-title" and warned:
                counts["non_titles_warned"] += 1
    counts["title_warnings_total"] = sum(
        1 for f in verdict.get("findings", []) if f.get("code") == "unverified-title"
    )
    codes = sorted({f.get("code", "") for f in verdict.get("findings", [])})
    row.update(counts, codes=codes, summary=verdict.get("summary", {}))
    return row


_COLUMNS = (
    ("case", "case"),
    ("ids ok", "ids_grounded_ok"),
    ("ids falsely flagged", "ids_falsely_flagged"),
    ("grounded ids not extracted", "ids_grounded_not_extracted"),
    ("fabrications caught", "fabrications_caught"),
    ("fabrications missed (grounded)", "fabrications_missed"),
    ("fabrications not extracted", "fabrications_not_extracted"),
    ("grounded titles ok", "titles_grounded_ok"),
    ("grounded titles warned", "titles_falsely_warned"),
    ("invented titles warned", "invented_titles_warned"),
    ("invented titles missed", "invented_titles_missed"),
    ("labelled non-titles warned", "non_titles_warned"),
    ("all title warnings", "title_warnings_total"),
)


def _table(rows: list[dict[str, Any]]) -> str:
    head = "| " + " | ".join(title for title, _ in _COLUMNS) + " |"
    rule = "|" + "---|" * len(_COLUMNS)
    lines = [head, rule]
    for row in rows:
        if row.get("error"):
            cells = [row["case"], f"not run: {row['error'][:90]}"] + [""] * (len(_COLUMNS) - 2)
        else:
            cells = [str(row.get(key, "")) for _, key in _COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print per-case details as JSON")
    args = parser.parse_args(argv)
    rows = [measure(case) for case in cases_module.load_cases()]
    print(json.dumps(rows, indent=2) if args.json else _table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
