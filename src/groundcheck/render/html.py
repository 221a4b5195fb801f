"""One self-contained HTML page per result: the report with every citation highlighted by its
verdict, a side panel with the evidence that grounded it or the reason it was not; for
``rate``, the per-group table and the forest plot inline.

Self-contained means no network asset of any kind: the style and the few lines of script are
inline, the plot is inline SVG with its text drawn as paths, so the file can be attached to a
CI run, mailed, or opened offline. Everything taken from the data is HTML-escaped, and control
characters are shown as visible escapes (see :mod:`groundcheck.render.escape`). The page works
without the script: each citation also carries a tooltip, and every detail is listed below
the report.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from groundcheck.model import Citation, Evidence, Finding, Grounding, Verdict
from groundcheck.render.escape import visible_controls
from groundcheck.render.text import summary_line

if TYPE_CHECKING:
    from groundcheck.batch import GroupRate, RateReport

__all__ = ["rate_html", "verdict_html"]

_CONTROL_BUT_LAYOUT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _e(text: object) -> str:
    """Data as HTML text or attribute value: escaped, controls shown as escapes."""
    return html.escape(visible_controls(str(text)), quote=True)


def _body_text(text: str) -> str:
    """Report text for a ``<pre>``: escaped, line breaks and tabs kept, other controls shown."""
    return html.escape(_CONTROL_BUT_LAYOUT.sub(lambda m: visible_controls(m.group()), text))


_STYLE = """
:root { --ok: #1a7f37; --ok-bg: #d3f5db; --err: #cf222e; --err-bg: #ffd8d3;
  --warn: #9a6700; --warn-bg: #fff8c5; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: #1f2328; background: #f6f8fa; }
header, section, main { max-width: 1200px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 18px 0 8px; }
.status { display: inline-block; padding: 1px 10px; border-radius: 12px; color: #fff;
  font-size: 15px; vertical-align: middle; }
.status.fail { background: var(--err); } .status.pass { background: var(--ok); }
.status.warn { background: var(--warn); }
.summary { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px;
  color: var(--muted); margin: 4px 0; }
.legend { list-style: none; padding: 0; margin: 6px 0 0; display: flex; gap: 14px;
  font-size: 13px; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(260px, 2fr); gap: 18px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; }
pre.report { white-space: pre-wrap; word-wrap: break-word; margin: 0;
  font: 14px/1.6 ui-monospace, SFMono-Regular, Menlo, monospace; }
mark.cite { border-radius: 3px; padding: 0 1px; cursor: pointer; background: #eaeef2;
  border-bottom: 2px solid var(--muted); color: inherit; }
mark.cite.grounded { background: var(--ok-bg); border-bottom-color: var(--ok); }
mark.cite.error { background: var(--err-bg); border-bottom-color: var(--err); }
mark.cite.warning { background: var(--warn-bg); border-bottom-color: var(--warn); }
mark.cite.selected { outline: 2px solid #0969da; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px;
  vertical-align: -1px; margin-right: 4px; }
#panel { position: sticky; top: 12px; align-self: start; }
.detail h3 { font-size: 15px; margin: 0 0 6px; }
.detail .badge { font-weight: 600; }
.detail.error .badge { color: var(--err); } .detail.warning .badge { color: var(--warn); }
.detail.grounded .badge { color: var(--ok); }
.detail ul { margin: 4px 0; padding-left: 20px; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; background: #eff1f3;
  padding: 0 3px; border-radius: 3px; word-break: break-all; }
ol.details { padding-left: 0; list-style: none; }
ol.details > li { margin-bottom: 8px; }
.js ol.details > li { display: none; }
.js ol.details.all > li { display: block; }
table { border-collapse: collapse; background: #fff; font-size: 13px; width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eaeef2; }
tr.pooled td { font-weight: 600; }
.finding.error { color: var(--err); } .finding.warning { color: var(--warn); }
.muted { color: var(--muted); font-size: 13px; }
footer { max-width: 1200px; margin: 24px auto; padding: 0 20px; color: var(--muted);
  font-size: 12px; }
svg { max-width: 100%; height: auto; }
"""

_SCRIPT = """
(function () {
  var root = document.documentElement;
  root.classList.add("js");
  var panel = document.getElementById("panel-body");
  var marks = document.querySelectorAll("mark.cite");
  function show(n) {
    var detail = document.getElementById("c" + n);
    if (!detail || !panel) { return; }
    panel.innerHTML = detail.innerHTML;
    panel.className = detail.className;
    panel.setAttribute("data-shown", n);
    for (var i = 0; i < marks.length; i++) {
      marks[i].classList.toggle("selected", marks[i].getAttribute("data-c") === String(n));
    }
  }
  for (var i = 0; i < marks.length; i++) {
    (function (mark) {
      var n = mark.getAttribute("data-c");
      mark.addEventListener("mouseenter", function () { show(n); });
      mark.addEventListener("focus", function () { show(n); });
      mark.addEventListener("click", function () { show(n); });
    })(marks[i]);
  }
  var toggle = document.getElementById("show-all");
  var list = document.querySelector("ol.details");
  if (toggle && list) {
    toggle.addEventListener("click", function () { list.classList.toggle("all"); });
  }
  var wanted = /^#c(\\d+)$/.exec(window.location.hash);
  if (wanted) { show(wanted[1]); }
  else {
    var first = document.querySelector("mark.cite.error") ||
      document.querySelector("mark.cite.warning") || document.querySelector("mark.cite");
    if (first) { show(first.getAttribute("data-c")); }
  }
  root.setAttribute("data-ready", "1");
})();
"""


def _page(title: str, body: str, version: str) -> str:
    made = f"groundcheck {version}" if version else "groundcheck"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="' + _e(made) + '">\n'
        f"<title>{_e(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"{body}\n<footer>Made by {_e(made)}: offline, deterministic; a citation is grounded "
        "when a tool output returned its work. Not in any tool output does not mean it does not "
        f"exist.</footer>\n<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )


# -- verdict -----------------------------------------------------------------------------------


def _key(c: Citation) -> tuple[str, int, int, str, str]:
    return (c.source or "", c.start, c.end, c.scheme, c.id)


def _status(g: Grounding, findings: Sequence[Finding]) -> str:
    if any(f.severity == "error" for f in findings):
        return "error"
    if findings:
        return "warning"
    return "grounded" if g.grounded else "unchecked"


_BADGE = {
    "error": "Error",
    "warning": "Warning",
    "grounded": "Grounded in a tool output",
    "unchecked": "Not judged",
}


def _what(c: Citation) -> str:
    """How a person writes the cited work: ``arXiv:2005.11401v2``, ``doi:10.1000/x``, a title."""
    if c.is_title:
        return f"title “{c.raw}”"
    from groundcheck.extractors.builtin import BUILTIN
    from groundcheck.extractors.registry import scheme_table

    scheme = scheme_table(BUILTIN).get(c.scheme)
    return scheme.cite(c.identifier) if scheme else f"{c.scheme}:{c.identifier.display}"


def _evidence_items(g: Grounding, calls: Mapping[str, Evidence]) -> list[str]:
    items = []
    for call_id in g.calls:
        call = calls.get(call_id)
        if call is None:
            items.append(f"<li>call <code>{_e(call_id)}</code></li>")
            continue
        where = f" in <code>{_e(call.source)}</code>" if call.source else ""
        titles = sorted(
            {w.title for w in call.works if w.title and set(w.identifiers) & set(g.citation.keys)}
        )
        said = "".join(f"<br>returned as “{_e(t)}”" for t in titles[:3])
        items.append(
            f"<li>call <code>{_e(call_id)}</code> (tool <code>{_e(call.tool)}</code>){where}"
            f"{said}</li>"
        )
    return items


def _detail(
    n: int, g: Grounding, findings: Sequence[Finding], calls: Mapping[str, Evidence]
) -> str:
    c = g.citation
    status = _status(g, findings)
    where = f"line {c.line}, column {c.column}" + (f" of {c.source}" if c.source else "")
    parts = [
        f'<li id="c{n}" class="detail {status}">',
        f'<h3>{_e(_what(c))}</h3><p><span class="badge">{_e(_BADGE[status])}</span></p>',
        f"<p>Written as <code>{_e(c.raw)}</code> at {_e(where)}.</p>",
    ]
    if c.malformed:
        parts.append(f"<p>Malformed: {_e(c.malformed)}.</p>")
    if findings:
        parts.append("<p>Why:</p><ul>")
        parts += [
            f'<li class="finding {f.severity}"><strong>{_e(f.code)}</strong>: {_e(f.message)}</li>'
            for f in findings
        ]
        parts.append("</ul>")
    if g.grounded:
        parts.append("<p>Evidence that grounded it:</p><ul>")
        parts += _evidence_items(g, calls)
        parts.append("</ul>")
        if g.matched_title is not None:
            score = "" if g.score is None else f" (similarity {g.score:.0f})"
            parts.append(f"<p>Matched the returned title “{_e(g.matched_title)}”{_e(score)}.</p>")
    elif not findings:
        parts.append("<p>Not in any tool output, but not cited in a way the checks judge.</p>")
    parts.append("</li>")
    return "".join(parts)


def _highlight(report: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """The report with each span wrapped in its tag; spans nest, a crossing one is skipped."""
    out: list[str] = []
    pos = 0
    stack: list[int] = []
    for start, end, tag in sorted(spans, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1] <= start:
            close = stack.pop()
            out.append(_body_text(report[pos:close]) + "</mark>")
            pos = close
        if end <= start or start < pos or (stack and end > stack[-1]):
            continue
        out.append(_body_text(report[pos:start]) + tag)
        pos = start
        stack.append(end)
    while stack:
        close = stack.pop()
        out.append(_body_text(report[pos:close]) + "</mark>")
        pos = close
    out.append(_body_text(report[pos:]))
    return "".join(out)


def _legend() -> str:
    items = [
        ("var(--ok-bg)", "grounded"),
        ("var(--err-bg)", "error"),
        ("var(--warn-bg)", "warning"),
        ("#eaeef2", "not judged"),
    ]
    return (
        '<ul class="legend">'
        + "".join(
            f'<li><span class="swatch" style="background:{color}"></span>{label}</li>'
            for color, label in items
        )
        + "</ul>"
    )


def verdict_html(
    verdict: Verdict, path: str = "report", report: str | None = None, version: str = ""
) -> str:
    """The verdict as one HTML page; ``report`` (the text audited) is shown highlighted."""
    by_citation: dict[tuple[str, int, int, str, str], list[Finding]] = {}
    run_level: list[Finding] = []
    groundings = sorted(verdict.citations, key=lambda g: g.citation.sort_key())
    cited = {_key(g.citation) for g in groundings}
    for f in sorted(verdict.findings, key=Finding.sort_key):
        if f.citation is None or _key(f.citation) not in cited:
            run_level.append(f)  # a run-level finding, or one about a marker ([12], "Lewis, 2020")
            continue
        # A finding is about a cited work: every place the work is written shows it.
        places = [f.citation, *(() if f.work is None else (*f.work.identifiers, *f.work.titles))]
        for key in dict.fromkeys(_key(c) for c in places):
            by_citation.setdefault(key, []).append(f)
    calls = {c.call_id: c for c in verdict.evidence.calls}
    details, spans = [], []
    for n, g in enumerate(groundings, 1):
        c = g.citation
        found = by_citation.get(_key(c), [])
        details.append(_detail(n, g, found, calls))
        if c.source is None and report is not None:
            status = _status(g, found)
            tip = "; ".join(f"{f.code}: {f.message}" for f in found) or _BADGE[status]
            tag = f'<mark class="cite {status}" data-c="{n}" tabindex="0" title="{_e(tip)}">'
            spans.append((c.start, c.end, tag))
    status = "pass" if verdict.ok else "fail"
    body = [
        "<header>",
        f'<h1>groundcheck <span class="status {status}">{"ok" if verdict.ok else "FAIL"}</span>'
        f" <small>{_e(path)}</small></h1>",
        f'<p class="summary" id="summary">{_e(summary_line(verdict))}</p>',
        _legend(),
        "</header>",
        "<main>",
        '<section class="card" id="report-card"><h2>Report</h2>',
    ]
    if report is not None:
        body.append(f'<pre class="report" id="report">{_highlight(report, spans)}</pre>')
    else:
        body.append('<p class="muted">The report text was not given; its citations are below.</p>')
    body += [
        "</section>",
        '<aside class="card" id="panel"><h2>Details</h2>',
        '<div id="panel-body"><p class="muted">Hover over or select a highlighted citation '
        "to see the evidence that grounded it, or why it was not.</p></div></aside>",
        "</main>",
    ]
    if run_level:
        body.append('<section id="run-findings"><h2>Findings about the whole run</h2><ul>')
        body += [
            f'<li class="finding {f.severity}"><strong>{_e(f.severity)} {_e(f.code)}</strong>: '
            f"{_e(f.message)}</li>"
            for f in run_level
        ]
        body.append("</ul></section>")
    body.append(
        '<section id="citations"><h2>Every citation '
        '<button type="button" id="show-all">show all</button></h2>'
        f'<ol class="details">{"".join(details)}</ol></section>'
    )
    body.append(_calls_table(verdict.evidence.calls))
    notes = [*verdict.notes, *verdict.evidence.notes]
    if notes:
        body.append('<section id="notes"><h2>Notes</h2><ul>')
        body += [f"<li>{_e(n)}</li>" for n in notes]
        body.append("</ul></section>")
    title = f"groundcheck: {'ok' if verdict.ok else 'FAIL'}: {path}"
    return _page(title, "\n".join(body), version)


def _calls_table(calls: Sequence[Evidence]) -> str:
    rows = []
    for c in calls:
        state = (
            "not evidence: " + c.excluded
            if c.excluded is not None
            else "failed"
            if c.errored
            else "not recorded"
            if not c.recorded
            else "empty"
            if c.empty
            else f"{len(c.identifiers)} identifier(s)"
        )
        rows.append(
            f"<tr><td><code>{_e(c.call_id)}</code></td><td>{_e(c.tool)}</td>"
            f"<td>{_e(state)}</td><td>{_e(c.source or '')}</td></tr>"
        )
    if not rows:
        return '<section id="calls"><h2>Tool calls</h2><p>No tool was called.</p></section>'
    return (
        '<section id="calls"><h2>Tool calls</h2><table><thead><tr><th>call</th><th>tool</th>'
        "<th>returned</th><th>trace</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></section>"
    )


# -- rate --------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _group_row(g: GroupRate, pooled: bool = False) -> str:
    r, cr = g.run_rate, g.citation_rate
    needed = "" if g.clean_runs_needed is None else str(g.clean_runs_needed)
    r3 = "" if g.rule_of_three is None else _pct(g.rule_of_three)
    cells = [
        g.name,
        str(g.runs),
        str(g.flagged),
        f"{_pct(r.estimate)} ({_pct(r.low)}–{_pct(r.high)})",
        str(g.cited),
        str(g.fabricated),
        f"{_pct(cr.estimate)} ({_pct(cr.low)}–{_pct(cr.high)})",
        r3,
        needed,
    ]
    cls = ' class="pooled"' if pooled else ""
    return f"<tr{cls}>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>"


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        return (
            "<dl>"
            + "".join(f"<dt>{_e(k)}</dt><dd>{_value(v)}</dd>" for k, v in value.items())
            + "</dl>"
        )
    if isinstance(value, (list, tuple)):
        return "<ul>" + "".join(f"<li>{_value(v)}</li>" for v in value) + "</ul>"
    return _e("" if value is None else value)


def _records_table(rows: Sequence[Mapping[str, Any]]) -> str:
    keys: list[str] = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    head = "".join(f"<th>{_e(k)}</th>" for k in keys)
    body = "".join(
        "<tr>" + "".join(f"<td>{_value(row.get(k))}</td>" for k in keys) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_KNOWN_RATE_KEYS = frozenset(
    {
        "schema",
        "unit",
        "confidence",
        "target_upper_bound",
        "runs_total",
        "runs_unreadable",
        "overall",
        "groups",
        "unreadable",
        "canary",
        "notes",
    }
)


def rate_html(report: RateReport, version: str = "", plot: str | None = None) -> str:
    """The rate report as one HTML page: summary, per-group table, the forest plot inline
    (``plot``: an ``<svg>``; without it, the table alone), unreadable runs and notes.

    Keys of the report's JSON this page does not lay out itself (a gate, the flagged runs)
    are shown too, as tables or lists, so nothing the report says is left out.
    """
    o = report.overall
    data = report.to_dict()
    gate = data.get("gate")
    verdict = gate.get("verdict") if isinstance(gate, Mapping) else None
    if verdict is not None:  # the gate decides the colour: pass, fail, or inconclusive
        badge = {"pass": "pass", "fail": "fail"}.get(str(verdict), "warn")
        label = f"gate: {verdict}"
    else:
        badge, label = ("fail" if o.flagged else "pass"), f"{o.flagged} of {o.runs} runs flagged"
    body = [
        "<header>",
        f'<h1>groundcheck rate <span class="status {badge}">{_e(label)}</span></h1>',
        f'<p class="summary" id="summary">runs: {data["runs_total"]} ({o.runs} audited, '
        f"{len(report.unreadable)} unreadable) · run rate {_pct(o.run_rate.estimate)} "
        f"({report.confidence:.0%} CI {_pct(o.run_rate.low)}–{_pct(o.run_rate.high)}) · "
        f"target upper bound {_pct(report.target)}</p>",
        "</header>",
        '<section id="groups"><h2>Per group</h2><table><thead><tr><th>group</th><th>runs</th>'
        "<th>flagged</th><th>run rate (CI)</th><th>cited ids</th><th>fabricated</th>"
        "<th>citation rate (CI)</th><th>rule of three</th><th>clean runs needed</th></tr>"
        "</thead><tbody>",
        *(_group_row(g) for g in report.groups),
        _group_row(o, pooled=True),
        "</tbody></table></section>",
    ]
    if plot is not None:
        body.append(
            f'<section id="plot"><h2>Forest plot</h2><div class="card">{plot}</div></section>'
        )
    else:
        body.append(
            '<section id="plot"><h2>Forest plot</h2><p class="muted">The forest plot needs '
            "matplotlib: pip install 'groundcheck-citations[plot]'. The table above holds the "
            "same intervals.</p></section>"
        )
    for key, value in data.items():
        if key in _KNOWN_RATE_KEYS or value in (None, [], {}):
            continue
        rows = (
            value
            if isinstance(value, list) and all(isinstance(v, Mapping) for v in value)
            else None
        )
        shown = _records_table(rows) if rows else _value(value)
        body.append(
            f'<section id="{_e(key)}"><h2>{_e(key.replace("_", " "))}</h2>{shown}</section>'
        )
    if report.canary_runs:
        body.append(
            f'<section id="canary"><h2>Canary</h2><p>planted in {report.canary_runs} report '
            f"copies, caught in {report.canary_caught}</p></section>"
        )
    if report.unreadable:
        body.append('<section id="unreadable"><h2>Unreadable runs</h2>')
        body.append(
            _records_table([{"run": r.run, "problem": r.problem} for r in report.unreadable])
        )
        body.append("</section>")
    if report.notes:
        body.append('<section id="notes"><h2>Notes</h2><ul>')
        body += [f"<li>{_e(n)}</li>" for n in report.notes]
        body.append("</ul></section>")
    return _page("groundcheck rate", "\n".join(body), version)
