"""Text for people: compiler-style finding lines, summaries, citation and extractor listings.

Every line passes through :func:`~groundcheck.render.escape.visible_controls`: a title or tool
name holding a newline or an escape sequence prints as one visible line, never as a forged
finding or a terminal command. Colour (``color=True``, decided by the CLI: a terminal, and no
``NO_COLOR``) is added after escaping, so the only escape sequences printed are our own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from groundcheck.model import Citation, Finding, Verdict
from groundcheck.render.escape import visible_controls

__all__ = [
    "citations_text",
    "extractors_text",
    "ledger_text",
    "lines_text",
    "summary_line",
    "verdict_text",
]


_SGR = {"error": "1;31", "warning": "33", "FAIL": "1;31", "ok": "1;32", "note": "2", "at": "1"}
"""Select Graphic Rendition codes: bold red errors, yellow warnings, dim notes, bold places."""


def _paint(text: str, what: str, color: bool) -> str:
    return f"\x1b[{_SGR[what]}m{text}\x1b[0m" if color else text


def lines_text(lines: Iterable[str]) -> str:
    """Lines joined for printing, each made one visible line (see the module docstring)."""
    return "".join(visible_controls(line) + "\n" for line in lines)


def _where(path: str, finding: Finding) -> str:
    c = finding.citation
    return path if c is None else f"{c.source or path}:{c.line}:{c.column}"


def verdict_text(
    verdict: Verdict, path: str = "report", *, color: bool = False, quiet: bool = False
) -> str:
    """Compiler-style lines (``file:line:col: severity: code: message``) then one summary line.

    The format is the one editors and CI annotators already parse, so a finding is one click
    away from the citation that caused it. Findings are per cited work (one problem, one
    line): each names the work it is about — its identifier, its entry in the reference list
    (``reference [3]``) and the title written for it. ``quiet`` leaves out the ``note:`` lines.
    """
    out = []
    for f in sorted(verdict.findings, key=Finding.sort_key):
        where = _paint(visible_controls(_where(path, f)), "at", color)
        severity = _paint(f.severity, f.severity, color)
        out.append(f"{where}: {severity}: {f.code}: {visible_controls(f.message)}")
    if not quiet:
        notes = [f"note: {note}" for note in (*verdict.notes, *verdict.evidence.notes)]
        notes.extend(
            f"note: call {c.call_id} ({c.tool}) is not evidence: {c.excluded}"
            for c in verdict.evidence.calls
            if c.excluded is not None
        )
        out.extend(_paint(visible_controls(n), "note", color) for n in notes)
    summary = visible_controls(summary_line(verdict))
    if color:
        status, _, rest = summary.partition(":")
        summary = _paint(status, status if status in _SGR else "at", color) + ":" + rest
    out.append(summary)
    return "\n".join(out) + "\n"


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
    return lines_text(out)


def extractors_text(rows: Sequence[Mapping[str, Any]]) -> str:
    """One aligned line per extractor: name, where it comes from, what it finds.

    A plug-in that could not be loaded is listed too, marked ``BROKEN`` with its error.
    """
    width = max((len(r["name"]) for r in rows), default=4)
    src_width = max((len(r["source"]) for r in rows), default=6)
    lines = []
    for r in rows:
        what = f"BROKEN: {r['error']}" if r.get("error") else r["description"]
        lines.append(f"{r['name']:<{width}}  {r['source']:<{src_width}}  {what}")
    return lines_text(lines)


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
    return lines_text(lines)
