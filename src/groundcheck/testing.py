"""Assertions for tests of agents: a failed audit reads like any other failed assert.

``assert_grounded(report, tool_calls)`` audits the report and raises ``AssertionError`` whose
message lists every finding — code, line:column, the identifier or title, and the message —
so pytest's (or unittest's) failure output says what the agent made up without a debugger.

Importing this module imports nothing heavy: groundcheck's stages load on the first audit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import groundcheck

__all__ = ["assert_grounded", "describe_findings", "describe_verdict"]


def _where(finding: groundcheck.Finding) -> str:
    c = finding.citation
    if c is None:
        return "-"
    place = f"{c.line}:{c.column}"
    return f"{c.source}:{place}" if c.source else place


def _what(finding: groundcheck.Finding) -> str:
    c = finding.citation
    if c is None:
        return ""
    if c.is_title:
        return f" “{c.raw}”"
    return f" {c.scheme}:{c.identifier.display}"


def describe_findings(findings: Iterable[groundcheck.Finding]) -> list[str]:
    """One line per finding, in report order: ``line:col severity code what: message``.

    >>> import groundcheck
    >>> verdict = groundcheck.audit("See arXiv:2005.11401.", [
    ...     {"tool": "search", "input": "rag", "output": "arXiv:2004.04906"}])
    >>> [line] = describe_findings(verdict.findings)
    >>> line.split(": ")[0]
    '1:11 error fabricated-id arxiv:2005.11401'
    """
    ordered = sorted(findings, key=lambda f: f.sort_key())
    return [f"{_where(f)} {f.severity} {f.code}{_what(f)}: {f.message}" for f in ordered]


def describe_verdict(verdict: groundcheck.Verdict) -> list[str]:
    """A headline, every finding (indented), and the summary line the CLI prints."""
    from groundcheck.integrations._scores import summary

    errors, warnings = len(verdict.errors), len(verdict.warnings)
    head = (
        "report is not grounded in its tool outputs"
        if not verdict.ok
        else "report is grounded in its tool outputs"
    )
    lines = [
        f"{head} ({errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}):"
    ]
    lines.extend(f"  {line}" for line in describe_findings(verdict.findings))
    lines.append(summary(verdict))
    return lines


def assert_grounded(
    report: str,
    tool_calls: Any,
    *,
    fail_on: Literal["error", "warning"] = "error",
    **options: Any,
) -> groundcheck.Verdict:
    """Audit ``report`` against ``tool_calls``; raise ``AssertionError`` if the verdict fails.

    ``tool_calls`` is anything :func:`groundcheck.audit` takes (native records, an evidence
    set, a trace path). ``options`` go to :func:`groundcheck.audit` (``policy=``,
    ``bibliography=``, ``registry=``, or any policy field such as ``title_threshold=85``).
    ``fail_on="warning"`` fails on warnings too. Returns the verdict when it passes, so a test
    can check more.

    >>> assert_grounded("RAG is arXiv:2005.11401.", [
    ...     {"tool": "search", "input": "rag", "output": "arXiv:2005.11401"}]).ok
    True
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this helper's body
    import groundcheck

    verdict = groundcheck.audit(report, tool_calls, **options)
    if verdict.fails(fail_on):
        raise AssertionError("\n".join(describe_verdict(verdict)))
    return verdict
