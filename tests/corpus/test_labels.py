"""Every corpus case audited, every hand label checked: the measurement of issue 11.

Each case is audited as ``groundcheck audit`` would (its evidence read in the format it is
in; ``records`` for the exported-records cases). Each label is then matched to the findings
about it: a finding whose citation, or whose work's identifiers and titles, contain the
label's text on the label's line. From that, per finding class, true and false positives
and misses, so precision and recall can be written down (``python tests/corpus/test_labels.py``
prints the table recorded in tests/corpus/README.md).

The tests hold the two promises that matter most to a user: no error-level finding on an item
a tool really returned (an honest run never fails), and every labelled fabrication found.
Cases whose evidence no loader reads are audited on the report alone (markers need nothing
else) and listed; a plain final message with no tool record is refused, which is correct.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from groundcheck import Finding, Verdict, audit
from groundcheck.auditor import Auditor, audit_files
from groundcheck.errors import UnknownFormat
from groundcheck.evidence.jsonio import read_text
from groundcheck.model import ERROR, EvidenceSet

CORPUS = Path(__file__).resolve().parent


def _load_cases() -> list[Any]:
    spec = importlib.util.spec_from_file_location("corpus_cases", CORPUS / "cases.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules.get("corpus_cases") or importlib.util.module_from_spec(spec)
    if "corpus_cases" not in sys.modules:
        sys.modules["corpus_cases"] = module
        spec.loader.exec_module(module)
    return list(module.load_cases())


CASES = _load_cases()

CLASSES = {
    "fabricated-id": frozenset({"fabricated-id", "malformed-id"}),
    "title": frozenset({"unverified-title", "id-title-mismatch"}),
    "marker": frozenset({"dangling-marker", "unverified-author-year"}),
    "quote": frozenset({"unverified-quote", "misattributed-quote"}),
}
"""Finding classes, each judged on the labels of its kind (see ``_class_of``)."""
QUOTES_NOT_JUDGED = (
    "the two labelled quote mismatches are 4 and 2 words long, below quote_min_words (6: "
    "shorter quotes are scare quotes and terms), and the corpus formats' loaders keep no "
    "output text to search; the quote checks are measured in benchmarks/eval_quotes.py"
)
POSITIVE = frozenset({"not-in-evidence", "dangling", "mismatch"})
NEGATIVE = frozenset({"grounded", "not-a-title"})


def _class_of(kind: str) -> str:
    return {"id": "fabricated-id", "url": "fabricated-id"}.get(kind, kind)


@cache
def verdict_of(name: str) -> tuple[Verdict, str]:
    """The case's verdict and how it was obtained: ``evidence`` (audited against its
    evidence) or ``report only`` (no loader reads the evidence)."""
    case = next(c for c in CASES if c.name == name)
    fmt = "records" if "records" in case.format else None  # exports, not traces
    try:
        done = audit_files(
            Auditor(), str(case.report_path), [str(p) for p in case.evidence_paths],
            evidence_format=fmt,
        )  # fmt: skip
    except UnknownFormat:
        return audit(read_text(str(case.report_path)), EvidenceSet()), "report only"
    if fmt == "records" and not done.verdict.evidence.calls:
        return audit(read_text(str(case.report_path)), EvidenceSet()), "report only"
    return done.verdict, "evidence"


def _norm(text: str) -> str:
    return " ".join(text.casefold().replace("*", "").split())


def _same(a: str, b: str) -> bool:
    x, y = _norm(a), _norm(b)
    return bool(x) and bool(y) and (x in y or y in x)


def _places(f: Finding) -> list[Any]:
    out = [] if f.citation is None else [f.citation]
    if f.work is not None:
        out.extend((*f.work.identifiers, *f.work.titles))
    return out


def about(f: Finding, label: Any) -> bool:
    """Is ``f`` about the labelled item (its text, on its line when the label has one)?"""
    text = label.text.strip("[]()【】 ") if label.kind == "marker" else label.text
    for c in _places(f):
        lines = range(c.line, c.line + 1 + c.raw.count("\n"))
        if (label.line is None or label.line in lines) and _same(text, c.raw):
            return True
    return False


def _uncited_entry(label: Any) -> bool:
    return label.kind == "marker" and "no in-text marker cites" in (label.reason or "")


def _found(verdict: Verdict, label: Any) -> bool:
    """Did groundcheck report the labelled problem?"""
    if _uncited_entry(label):
        inner = label.text.strip("[]()【】 ")
        return any(f"[{inner}]" in note for note in verdict.notes)
    cls = _class_of(label.kind)
    codes = CLASSES[cls]
    if cls == "title":  # a fabricated work's error names its title: one finding per work
        codes = codes | CLASSES["fabricated-id"]
    if cls == "marker" and label.expected == "not-in-evidence":
        codes = CLASSES["fabricated-id"]  # the entry it points at names an unreturned source
        return any(f.code in codes for f in verdict.findings)
    if label.kind == "marker":  # one finding per label, however often it is cited
        inner = label.text.strip("[]()【】 ")
        return any(
            f.code in codes and f.citation is not None and _same(inner, f.citation.raw)
            for f in verdict.findings
        )
    return any(f.code in codes and about(f, label) for f in verdict.findings)


def _flagged(verdict: Verdict, label: Any, *, errors_only: bool = False) -> list[Finding]:
    """Findings of the label's class about an item labelled honest."""
    codes = CLASSES[_class_of(label.kind)]
    return [
        f
        for f in verdict.findings
        if (
            (f.severity == ERROR and (f.code in codes or label.kind in ("id", "url")))
            if errors_only
            else f.code in codes
        )
        and about(f, label)
    ]


def measure() -> dict[str, Counter[str]]:
    """Per finding class: ``tp`` (labelled problems found), ``fn`` (missed), ``fp`` (honest
    items flagged), ``tn``; and per case how it was audited."""
    table: dict[str, Counter[str]] = {cls: Counter() for cls in CLASSES}
    for case in CASES:
        verdict, how = verdict_of(case.name)
        for label in case.labels:
            if label.expected not in POSITIVE | NEGATIVE:
                continue
            cls = _class_of(label.kind)
            needs_evidence = cls != "marker" or label.expected == "not-in-evidence"
            if needs_evidence and how != "evidence":
                table[cls]["not auditable"] += 1
                continue
            if label.expected in POSITIVE:
                table[cls]["tp" if _found(verdict, label) else "fn"] += 1
            else:
                table[cls]["fp" if _flagged(verdict, label) else "tn"] += 1
    return table


def misses() -> list[tuple[str, Any]]:
    out = []
    for case in CASES:
        verdict, how = verdict_of(case.name)
        for label in case.labels:
            if label.expected not in POSITIVE:
                continue
            cls = _class_of(label.kind)
            if cls == "quote":
                continue  # not judged on these runs: see QUOTES_NOT_JUDGED
            if (cls != "marker" or label.expected == "not-in-evidence") and how != "evidence":
                continue
            if not _found(verdict, label):
                out.append((case.name, label))
    return out


def false_errors() -> list[tuple[str, Any, Finding]]:
    out = []
    for case in CASES:
        verdict, how = verdict_of(case.name)
        for label in case.labels:
            if label.expected not in NEGATIVE:
                continue
            if label.kind != "marker" and how != "evidence":
                continue  # audited without its evidence: only markers can be judged
            for f in _flagged(verdict, label, errors_only=True):
                out.append((case.name, label, f))
    return out


pytestmark = pytest.mark.skipif(not CASES, reason="no corpus in this checkout")


def test_every_case_is_audited_and_most_against_their_evidence() -> None:
    hows = Counter(verdict_of(c.name)[1] for c in CASES)
    assert hows["evidence"] + hows["report only"] == len(CASES) == 14
    assert hows["evidence"] >= 10, hows


def test_no_error_on_anything_a_tool_returned() -> None:
    """No error-level finding about an item labelled grounded (or not a title)."""
    found = [(n, lb.kind, lb.text[:60], lb.line, f.code) for n, lb, f in false_errors()]
    assert found == []


def test_honest_cases_have_no_error() -> None:
    """A case whose labels hold no fabrication, dangling marker or mismatch, audited against
    its evidence, passes (warnings allowed)."""
    for case in CASES:
        verdict, how = verdict_of(case.name)
        if how != "evidence" or any(lb.expected in POSITIVE for lb in case.labels):
            continue
        errors = [(f.code, f.message[:80]) for f in verdict.findings if f.severity == ERROR]
        assert errors == [], case.name


KNOWN_MISSES = {
    (
        "pydantic-deepagents-search-down-notes-and-memory",
        "AlphaFold 3: AP3 and the Next Leap for Protein Folding.",
    ): "an invented title beside a URL the notes returned with only a label "
    "('**AlphaFold 3 Preprint/Release**: <url>'); labels of notes are descriptions, not "
    "titles, so they are not the URL's own title and the title cannot be judged",
}
"""Labelled fabrications the audit cannot see, each with the reason (kept few and explained)."""


def test_every_labelled_fabrication_is_found() -> None:
    """Every not-in-evidence id, URL and title, every dangling marker and every uncited entry
    of a case that can be audited is reported (an uncited entry as a note), except the
    explained KNOWN_MISSES, which must still be misses (a fix should remove them)."""
    missed = [(n, lb.kind, lb.text[:60], lb.line, lb.expected) for n, lb in misses()]
    known = [m for m in missed if (m[0], m[2]) in {(n, t[:60]) for n, t in KNOWN_MISSES}]
    assert [m for m in missed if m not in known] == []
    assert len(known) == len(KNOWN_MISSES)


def test_warnings_on_honest_items_stay_rare() -> None:
    """Title warnings on grounded titles and non-titles: at most ~3% (issue 11's target)."""
    title = measure()["title"]
    assert title["fp"] <= 0.03 * (title["fp"] + title["tn"]) + 1, title


def table() -> str:
    rows = [
        "| class | labelled problems | found | missed | honest items | flagged | "
        "precision | recall | not auditable |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for cls, c in measure().items():
        pos, neg = c["tp"] + c["fn"], c["fp"] + c["tn"]
        precision = f"{c['tp'] / (c['tp'] + c['fp']):.3f}" if c["tp"] + c["fp"] else "—"
        recall = f"{c['tp'] / pos:.3f}" if pos else "—"
        rows.append(
            f"| {cls} | {pos} | {c['tp']} | {c['fn']} | {neg} | {c['fp']} | {precision} | "
            f"{recall} | {c['not auditable']} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
    for name, label in misses():
        print("missed:", name, label.kind, label.text[:70], label.line, label.expected)
    for name, label, f in false_errors():
        print("false error:", name, label.kind, label.text[:70], label.line, f.code)
    for case in CASES:
        print(case.name, verdict_of(case.name)[1])
