"""Verdicts and citations as text for people and JSON for programs. Renderers never decide."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from groundcheck.model import Citation, Finding, Verdict, dumps

__all__ = ["citations_json", "citations_text", "summary_line", "verdict_sarif", "verdict_text"]


def _where(path: str, finding: Finding) -> str:
    c = finding.citation
    return path if c is None else f"{c.source or path}:{c.line}:{c.column}"


def verdict_text(verdict: Verdict, path: str = "report") -> str:
    """Compiler-style lines (``file:line:col: severity: code: message``) then one summary line.

    The format is the one editors and CI annotators already parse, so a finding is one click
    away from the citation that caused it.
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
    ids = [g for g in verdict.citations if g.citation.scheme != "title"]
    titles = [g for g in verdict.citations if g.citation.scheme == "title"]
    grounded = sum(1 for g in ids if g.grounded)
    errors, warnings = len(verdict.errors), len(verdict.warnings)
    status = "ok" if verdict.ok else "FAIL"
    calls = len(ev.calls)
    returned = len(ev.identifiers)
    matched = sum(g.grounded for g in titles)
    title_part = f", {len(titles)} title{'s' * (len(titles) != 1)} ({matched} matched)"
    return (
        f"{status}: {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
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


def citations_json(citations: Sequence[Citation]) -> str:
    data: list[Any] = [c.to_dict() for c in citations]
    return dumps(data)


_RULES = {
    "fabricated-id": "Cited identifier is in no tool output",
    "malformed-id": "Written as an identifier but breaks its grammar",
    "id-title-mismatch": "Returned identifier cited beside another paper's title",
    "unverified-title": "Cited title matches no returned title",
    "no-tool-calls": "Report written without any tool call",
    "empty-evidence-report": "Every lookup returned nothing, yet the report goes on",
    "outputs-not-recorded": "The trace did not record some tool outputs",
}


def verdict_sarif(verdict: Verdict, path: str = "report", version: str = "") -> str:
    """SARIF 2.1.0, for code-scanning dashboards and CI annotations."""
    codes = sorted({f.code for f in verdict.findings} | set(_RULES))
    results = []
    for f in sorted(verdict.findings, key=Finding.sort_key):
        result: dict[str, Any] = {
            "ruleId": f.code,
            "level": "error" if f.severity == "error" else "warning",
            "message": {"text": f.message},
        }
        uri = path if f.citation is None else (f.citation.source or path)
        location: dict[str, Any] = {"artifactLocation": {"uri": uri}}
        if f.citation is not None:
            c = f.citation
            region = {"startLine": c.line, "startColumn": c.column}
            if "\n" not in c.raw:
                region |= {"endLine": c.line, "endColumn": c.column + len(c.raw)}
            location["region"] = region
        result["locations"] = [{"physicalLocation": location}]
        results.append(result)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "groundcheck",
                        "version": version,
                        "informationUri": "https://pypi.org/project/groundcheck/",
                        "rules": [
                            {"id": code, "shortDescription": {"text": _RULES.get(code, code)}}
                            for code in codes
                        ],
                    }
                },
                "results": results,
            }
        ],
    }
    return dumps(sarif)
