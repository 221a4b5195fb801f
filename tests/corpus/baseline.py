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
    command = [
        sys.executable,
        "-m",
        "groundcheck",
        "audit",
        str(case.report_path),
        "--format",
        "json",
    ]
    for path in case.evidence_paths:
        command += ["--evidence", str(path)]
    records = "records" in case.format  # exports, not traces: read as test_labels reads them
    if records:
        command += ["--evidence-format", "records"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        message = (done.stderr.strip().splitlines() or ["error"])[-1]
        if "no known trace format" in message:
            message = "evidence not readable (no known trace format)"
        return None, message
    verdict: dict[str, Any] = json.loads(done.stdout)
    if records and not verdict.get("evidence", {}).get("calls"):
        return None, "evidence not readable (no records in it)"  # as test_labels: report only
    return verdict, ""


def _same(label_text: str, raw: str) -> bool:
    a, b = label_text.casefold(), raw.casefold()
    return a in b or b in a


def _id_status(label: Any, citations: list[dict[str, Any]]) -> str:
    """'grounded', 'flagged' or 'not-extracted' for an id/url label."""
    for citation in citations:
        if citation.get("scheme") == "title" or citation.get("line") != label.line:
            continue
        if _same(label.text, citation.get("raw", "")) or _same(label.text, citation.get("id", "")):
            return "grounded" if citation.get("grounded") else "flagged"
    return "not-extracted"


def _title_extracted(label: Any, citations: list[dict[str, Any]]) -> bool:
    """Whether groundcheck saw the title: as a title citation, or beside an id on its line.

    A title on the same line as an extracted id is not a citation of its own: groundcheck
    compares it with the id's evidence (``id-title-mismatch``) instead.
    """
    return any(
        c.get("line") == label.line
        and (c.get("scheme") != "title" or _same(label.text, c.get("raw", "")))
        for c in citations
    )


def _title_warned(label: Any, verdict: dict[str, Any]) -> bool:
    for finding in verdict.get("findings", []):
        citation = finding.get("citation") or {}
        code = finding.get("code")
        if code not in _TITLE_CODES or citation.get("line") != label.line:
            continue
        if code == "id-title-mismatch" or _same(label.text, citation.get("raw", "")):
            return True
    return False


def _extract_only(case: Any) -> list[dict[str, Any]]:
    """The citations groundcheck finds in the report alone, as verdict-like dictionaries."""
    from groundcheck import extract

    text = case.report_path.read_text(encoding="utf-8")
    return [
        {
            "scheme": c.scheme,
            "id": str(c.identifier),
            "raw": c.raw,
            "line": c.line,
            "grounded": None,
        }
        for c in extract(text)
    ]


_COUNTS = (
    "ids_grounded_ok",
    "ids_falsely_flagged",
    "ids_grounded_not_extracted",
    "fabrications_caught",
    "fabrications_missed",
    "fabrications_not_extracted",
    "titles_grounded_ok",
    "titles_grounded_not_extracted",
    "titles_falsely_warned",
    "invented_titles_warned",
    "invented_titles_missed",
    "non_titles_warned",
    "title_warnings_total",
    "unchecked_labels",
)


def measure(case: Any) -> dict[str, Any]:
    """Counts for one case: how groundcheck's verdict compares with the labels.

    When the evidence cannot be read, the row says so and adds what extraction alone finds in
    the report (``extract_only``): labelled ids and titles found, and all title candidates.
    """
    verdict, error = _run(case)
    row: dict[str, Any] = {"case": case.name, "error": error}
    if verdict is None:
        citations = _extract_only(case)
        ids = [lab for lab in case.labels if lab.kind in ("id", "url") and lab.line is not None]
        titles = [lab for lab in case.labels if lab.kind == "title" and lab.expected == "grounded"]
        row["extract_only"] = {
            "labelled_ids": len(ids),
            "labelled_ids_extracted": sum(
                _id_status(lab, citations) != "not-extracted" for lab in ids
            ),
            "labelled_titles": len(titles),
            "labelled_titles_extracted": sum(_title_extracted(lab, citations) for lab in titles),
            "title_candidates": sum(1 for c in citations if c["scheme"] == "title"),
        }
        return row
    citations = verdict.get("citations", [])
    counts = dict.fromkeys(_COUNTS, 0)
    for label in case.labels:
        if label.line is None or label.expected == "uncertain":
            continue
        if label.kind in ("id", "url"):
            status = _id_status(label, citations)
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
        elif label.kind == "title":
            warned = _title_warned(label, verdict)
            if label.expected == "grounded":
                if warned:
                    counts["titles_falsely_warned"] += 1
                elif _title_extracted(label, citations):
                    counts["titles_grounded_ok"] += 1
                else:
                    counts["titles_grounded_not_extracted"] += 1
            elif label.expected == "not-in-evidence":
                counts["invented_titles_warned" if warned else "invented_titles_missed"] += 1
            elif label.expected == "not-a-title" and warned:
                counts["non_titles_warned"] += 1
        else:
            counts["unchecked_labels"] += 1
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
    ("grounded titles not extracted", "titles_grounded_not_extracted"),
    ("grounded titles warned", "titles_falsely_warned"),
    ("invented titles warned", "invented_titles_warned"),
    ("invented titles missed", "invented_titles_missed"),
    ("labelled non-titles warned", "non_titles_warned"),
    ("all title warnings", "title_warnings_total"),
    ("marker/quote labels (no check)", "unchecked_labels"),
    ("finding codes", "codes"),
)


def _table(rows: list[dict[str, Any]]) -> str:
    head = "| " + " | ".join(title for title, _ in _COLUMNS) + " |"
    rule = "|" + "---|" * len(_COLUMNS)
    lines = [head, rule]
    for row in rows:
        if row.get("error"):
            only = row.get("extract_only", {})
            note = (
                f"not run: {row['error'][:70]}; extraction alone finds "
                f"{only.get('labelled_ids_extracted', 0)}/{only.get('labelled_ids', 0)} labelled ids, "
                f"{only.get('labelled_titles_extracted', 0)}/{only.get('labelled_titles', 0)} labelled titles, "
                f"{only.get('title_candidates', 0)} title candidates"
            )
            cells = [row["case"], note] + [""] * (len(_COLUMNS) - 2)
        else:
            cells = [
                ", ".join(value) if isinstance(value := row.get(key, ""), list) else str(value)
                for _, key in _COLUMNS
            ]
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
