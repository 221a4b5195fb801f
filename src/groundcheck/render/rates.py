"""Rates and comparisons as text for people (their JSON is the reports' own ``to_dict``)."""

from __future__ import annotations

from groundcheck.batch import CompareReport, GroupRate, RateReport
from groundcheck.batch.compare import CompareGate
from groundcheck.batch.pool import Gate
from groundcheck.render.text import lines_text
from groundcheck.stats import Interval

__all__ = ["compare_text", "rate_text"]

SHOWN = 10
"""Flagged runs, unreadable runs and discordant tasks shown in text (JSON lists more)."""


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
    if len(g.schemes) > 1:
        parts = ", ".join(f"{s} {f}/{c}" for s, c, f in g.schemes)
        lines.append(f"{indent}by scheme (fabricated/cited): {parts}")
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


def _gate_line(gate: Gate) -> str:
    bounds = f"{gate.confidence:.0%} CI {_pct(gate.low)}–{_pct(gate.high)}"
    limit = _pct(gate.max_rate)
    if gate.verdict == "pass":
        return f"gate: PASS: the upper bound {_pct(gate.high)} is at most {limit} ({bounds})"
    if gate.verdict == "fail":
        return f"gate: FAIL: the lower bound {_pct(gate.low)} is above {limit} ({bounds})"
    settle = (
        f"{gate.clean_runs_needed} more clean runs would settle it (a pass)"
        if gate.clean_runs_needed is not None
        else "no number of clean runs would settle it"
    )
    return f"gate: INCONCLUSIVE (exit {gate.exit_code}): {limit} lies inside the {bounds}; {settle}"


def rate_text(report: RateReport) -> str:
    """What ``groundcheck rate`` prints for people."""
    unreadable = report.runs_unreadable
    total = report.overall.runs + unreadable
    lines = [f"runs: {total} ({report.overall.runs} audited, {unreadable} unreadable)"]
    lines += _group_lines(report.overall, report.target)
    for g in report.groups:
        lines.append(f"group {g.name}:")
        lines += _group_lines(g, report.target, "  ")
    if report.gate is not None:
        lines.append(_gate_line(report.gate))
    if report.canary_runs:
        lines.append(
            f"canary: planted in {report.canary_runs} report copies, caught in "
            f"{report.canary_caught}"
        )
    for f in report.flagged[:SHOWN]:
        where = ", ".join(
            part
            for part in (f"group {f.group}" if f.group else "", f"task {f.task}" if f.task else "")
            if part
        )
        lines.append(f"flagged: {f.run}{f' ({where})' if where else ''}: {', '.join(f.codes)}")
    more = report.overall.flagged - min(len(report.flagged), SHOWN)
    if more > 0:
        lines.append(f"flagged: … and {more} more (see --format json)")
    for r in report.unreadable[:SHOWN]:
        problem = r.problem or ""
        lines.append(f"unreadable: {problem if r.input_error else f'{r.run}: {problem}'}")
    more = unreadable - min(len(report.unreadable), SHOWN)
    if more > 0:
        lines.append(f"unreadable: … and {more} more (see --format json)")
    lines += [f"note: {n}" for n in report.notes]
    if report.notes_omitted:
        lines.append(f"note: … and {report.notes_omitted} more notes")
    return lines_text(lines)


def _compare_gate_line(gate: CompareGate) -> str:
    def points(x: float) -> str:
        return f"{x * 100:+.1f}"

    bounds = f"{gate.confidence:.0%} CI {points(gate.low)} to {points(gate.high)} points"
    limit = f"{points(gate.max_difference)} points"
    if gate.verdict == "pass":
        return f"gate: PASS: the difference's upper bound is at most {limit} ({bounds})"
    if gate.verdict == "fail":
        return f"gate: FAIL: the difference's lower bound is above {limit} ({bounds})"
    settle = (
        f"about {gate.tasks_needed} more paired tasks at these rates would settle it"
        if gate.tasks_needed is not None
        else "more tasks at these rates would not settle it"
    )
    return f"gate: INCONCLUSIVE (exit {gate.exit_code}): {limit} lies inside the {bounds}; {settle}"


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
    if report.gate is not None:
        lines.append(_compare_gate_line(report.gate))
    for label, listed, count in (
        ("only A flagged", report.only_a, result.only_a),
        ("only B flagged", report.only_b, result.only_b),
    ):
        if listed:
            shown = ", ".join(x.task for x in listed[:SHOWN])
            rest = f" … and {count - min(len(listed), SHOWN)} more" if count > SHOWN else ""
            lines.append(f"{label}: {shown}{rest}")
    for side, r in report.unreadable[:SHOWN]:
        problem = r.problem or ""
        lines.append(f"unreadable: {side}: {problem if r.input_error else f'{r.run}: {problem}'}")
    more = sum(report.runs_unreadable) - min(len(report.unreadable), SHOWN)
    if more > 0:
        lines.append(f"unreadable: … and {more} more (see --format json)")
    lines += [f"note: {note}" for note in report.notes]
    return lines_text(lines)
