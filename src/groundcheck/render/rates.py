"""Rates and comparisons as text for people (their JSON is the reports' own ``to_dict``)."""

from __future__ import annotations

from groundcheck.batch import CompareReport, GroupRate, RateReport
from groundcheck.render.text import lines_text
from groundcheck.stats import Interval

__all__ = ["compare_text", "rate_text"]


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _interval(i: Interval) -> str:
    return f"{_pct(i.estimate)} ({i.confidence:.0%} CI {_pct(i.low)}–{_pct(i.high)})"


def _group_lines(g: GroupRate, target: float, indent: str = "") -> list[str]:
    lines = [
        f"{indent}runs flagged: {g.flagged} of {g.runs} → {_interval(g.run_rate)}  [unit: run]",
        f"{indent}fabricated citations: {g.fabricated} of {g.cited} cited identifiers → "
        f"{_interval(g.citation_rate)}  [unit: cited identifier]",
    ]
    if g.rule_of_three is not None and g.runs:
        lines.append(
            f"{indent}no run flagged: rule of three puts the upper bound at "
            f"{_pct(g.rule_of_three)} (≈3/{g.runs}); zero is not shown"
        )
    if g.clean_runs_needed is not None:
        if g.clean_runs_needed == 0:
            lines.append(f"{indent}upper bound is at or below the {_pct(target)} target")
        else:
            lines.append(
                f"{indent}{g.clean_runs_needed} more clean runs would bring the upper bound "
                f"to {_pct(target)}"
            )
    return lines


def rate_text(report: RateReport) -> str:
    """What ``groundcheck rate`` prints for people."""
    total = report.overall.runs + len(report.unreadable)
    lines = [f"runs: {total} ({report.overall.runs} audited, {len(report.unreadable)} unreadable)"]
    lines += _group_lines(report.overall, report.target)
    for g in report.groups:
        lines.append(f"group {g.name}:")
        lines += _group_lines(g, report.target, "  ")
    if report.canary_runs:
        lines.append(
            f"canary: planted in {report.canary_runs} report copies, caught in "
            f"{report.canary_caught}"
        )
    for r in report.unreadable[:20]:
        lines.append(f"unreadable: {r.run}: {r.problem}")
    if len(report.unreadable) > 20:
        lines.append(f"unreadable: … and {len(report.unreadable) - 20} more (see --format json)")
    lines += [f"note: {n}" for n in report.notes]
    return lines_text(lines)


def compare_text(report: CompareReport) -> str:
    """What ``groundcheck compare`` prints for people."""
    result = report.result
    n = result.pairs
    d = result.difference
    rate_a = (result.both + result.only_a) / n if n else 0.0
    rate_b = (result.both + result.only_b) / n if n else 0.0
    lines = [
        f"tasks paired: {n}",
        f"A flagged {result.both + result.only_a} ({rate_a:.1%}), "
        f"B flagged {result.both + result.only_b} ({rate_b:.1%})",
        f"discordant: {result.only_a} only A, {result.only_b} only B; "
        f"both {result.both}, neither {result.neither}",
        f"difference A − B: {d.estimate * 100:+.1f} points "
        f"({d.confidence:.0%} Newcombe CI {d.low * 100:+.1f} to {d.high * 100:+.1f})",
        f"exact McNemar test: p = {result.p_value:.4g}",
    ]
    lines += [f"note: {note}" for note in report.notes]
    return lines_text(lines)
