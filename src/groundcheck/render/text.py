"""Text for people: compiler-style finding lines, summaries, citation and extractor listings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from groundcheck.model import Citation, Finding, Verdict

__all__ = [
    "citations_text",
    "extractors_text",
    "ledger_text",
    "summary_line",
    "verdict_text",
]


def _where(path: str, finding: Finding) -> str:
    c = finding.citation
    return path if c is None else f"{c.source or path}:{c.line}:{c.column}"


def verdict_text(verdict: Verdict, path: str = "report") -> str:
    """Compiler-style lines (``file:line:col: severity: code: message``) then one summary line.

    The format is the one editors and CI annotators already parse, so a finding is one click
    away from the citation that caused it. Findings are per cited work (one problem, one
    line): each names the work it is about — its identifier, its entry in the reference list
    (``reference [3]``) and the title written for it.
    """
    lines = [
        f"{_where(path, f)}: {f.severity}: {f.code}: {f.message}"
        for f in sorted(verdict.findings, key=Finding.sort_key)
    ]
    lines.extend(f"note: {note}" for note in (*verdict.notes, *verdict.evidence.notes))
    lines.extend(
        f"note: call {c.call_id} ({c.tool}) is not evidence: {c.excluded}"
        for c in verdict.evidence.calls
        if c.excluded is not None
    )
    lines.append(summary_line(verdict))
    return "\n".join(lines) + "\n"


def summary_line(verdict: Verdict) -> str:
    ev = verdict.evidence
    ids = [g for g in verdict.citations if not g.citation.is_title]
    titles = [g for g in verdict.citations if g.citation.is_title]
    grounded = sum(1 for g in ids if g.grounded)
    errors, warnings = len(verdict.errors), len(verdict.warnings)
    status = "ok" if verdict.ok else "FAIL"
    calls = len(ev.calls)
    returned = len(ev.identifiers)
    matched = sum(g.grounded for g in titles)
    title_part = f", {len(titles)} title{'s' * (len(titles) != 1)} ({matched} matched)"
    works = len(verdict.works)
    works_grounded = sum(1 for w in verdict.works if w.grounded)
    work_part = f" | {works} work{'s' * (works != 1)} cited, {works_grounded} grounded"
    return (
        f"{status}: {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
        f"{work_part if works else ''}"
        f" | {len(ids)} id{'s' * (len(ids) != 1)} cited, {grounded} grounded"
        f"{title_part if titles else ''}"
        f" | {calls} tool call{'s' * (calls != 1)} ({ev.empty_calls} empty, "
        f"{ev.errored_calls} failed), {returned} identifier{'s' * (returned != 1)} returned"
    )


def citations_text(citations: Sequence[Citation], path: str = "report") -> str:
    """One line per citation: place, scheme, canonical id, and what was written."""
    out = []
    for c in citations:
        note = f"  malformed: {c.malformed}" if c.malformed else ""
        where = f"{c.source or path}:{c.line}:{c.column}"
        out.append(f"{where}: {c.scheme} {c.identifier.display}  {c.raw!r}{note}")
    out.append(f"{len(citations)} identifier{'s' * (len(citations) != 1)} found")
    return "\n".join(out) + "\n"


def extractors_text(rows: Sequence[Mapping[str, str]]) -> str:
    """One aligned line per extractor: name, where it comes from, what it finds."""
    width = max((len(r["name"]) for r in rows), default=4)
    src_width = max((len(r["source"]) for r in rows), default=6)
    lines = [f"{r['name']:<{width}}  {r['source']:<{src_width}}  {r['description']}" for r in rows]
    return "\n".join(lines) + "\n"


def ledger_text(runs: Sequence[Mapping[str, Any]]) -> str:
    """What ``groundcheck ledger show`` prints: each run, its calls and what they returned."""
    lines = []
    for run in runs:
        lines.append(
            f"run {run['run']}: {len(run['calls'])} calls, {len(run['citations'])} citations"
        )
        for call in run["calls"]:
            flag = " FAILED" if call["error"] else ""
            returned = ", ".join(call["returned"]) or "no identifiers"
            lines.append(f"  {call['call']} {call['tool']}{flag}: {returned}")
        for cited in run["citations"]:
            lines.append(f"  cited {cited}")
    return "\n".join(lines) + "\n"
