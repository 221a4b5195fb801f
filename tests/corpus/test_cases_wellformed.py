"""The corpus is well formed: every case.json is valid, names files that exist, and its labels
point at lines that exist and hold the labelled text.

These tests check the corpus, not groundcheck: measurement tests are built on ``load_cases``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("corpus_cases", _HERE / "cases.py")
assert _spec is not None and _spec.loader is not None
cases_module = importlib.util.module_from_spec(_spec)
sys.modules["corpus_cases"] = cases_module
_spec.loader.exec_module(cases_module)

CASES = cases_module.load_cases()
NAMES = [case.name for case in CASES]


def test_the_corpus_has_cases() -> None:
    assert len(CASES) >= 5
    assert len(set(NAMES)) == len(NAMES)


def test_every_case_folder_has_a_case_json() -> None:
    folders = sorted(
        p.name for p in _HERE.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))
    )
    assert folders == sorted(NAMES)


@pytest.mark.parametrize("case", CASES, ids=NAMES)
def test_referenced_files_exist_and_match_their_digest(case: cases_module.Case) -> None:
    assert cases_module.check_files(case) == []


@pytest.mark.parametrize("case", CASES, ids=NAMES)
def test_provenance_names_a_public_source(case: cases_module.Case) -> None:
    provenance = case.provenance
    assert "/" in provenance["repo"]
    assert provenance["url"].startswith("https://")
    assert provenance["paths"]
    assert provenance["licence"]


@pytest.mark.parametrize("case", CASES, ids=NAMES)
def test_labels_point_at_the_text_they_label(case: cases_module.Case) -> None:
    lines = case.report_path.read_text(encoding="utf-8").split("\n")
    assert case.labels, "a case without labels measures nothing"
    for label in case.labels:
        if label.line is None:
            assert label.expected == "uncertain" or label.reason, label
            continue
        assert label.line <= len(lines), label
        if label.kind != "quote":
            assert label.text in lines[label.line - 1], label


@pytest.mark.parametrize("case", CASES, ids=NAMES)
def test_json_evidence_files_parse(case: cases_module.Case) -> None:
    """Evidence is kept as committed: JSON documents parse whole, JSONL lines that look like JSON parse."""
    for path in case.evidence_paths:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            json.loads(text)
            continue
        for number, line in enumerate(text.split("\n"), 1):
            if line.startswith("{"):
                try:
                    json.loads(line)
                except json.JSONDecodeError as exc:  # pragma: no cover - the message is the point
                    pytest.fail(f"{path.name}:{number}: {exc}")


def test_a_broken_case_json_is_reported_with_its_path(tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "case.json").write_text('{"provenance": {}}', encoding="utf-8")
    with pytest.raises(cases_module.CaseError, match=r"broken[/\\]case\.json: missing key"):
        cases_module.load_cases(tmp_path)


def test_an_unknown_expectation_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "odd"
    folder.mkdir()
    good = json.loads((CASES[0].folder / "case.json").read_text(encoding="utf-8"))
    good["labels"]["items"] = [{"kind": "id", "text": "x", "expected": "maybe"}]
    (folder / "case.json").write_text(json.dumps(good), encoding="utf-8")
    with pytest.raises(cases_module.CaseError, match="expected 'maybe'"):
        cases_module.load_cases(tmp_path)
