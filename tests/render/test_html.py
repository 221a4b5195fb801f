"""The HTML page, read as a file: self-contained, every citation highlighted by its verdict,
data escaped. (tests/render/test_html_browser.py opens it in a real browser.)"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import attrs

from groundcheck import audit
from groundcheck.batch import rate
from groundcheck.model import Verdict
from groundcheck.render import RenderContext, render
from groundcheck.render.html import rate_html, verdict_html

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


class Tags(HTMLParser):
    """Every start tag with its attributes, and whether the document nests correctly."""

    VOID = frozenset({"meta", "br", "link", "img", "input", "hr", "path", "use", "rect"})

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()


def parse(page: str) -> Tags:
    tags = Tags()
    tags.feed(page)
    tags.close()
    assert not tags.problems, tags.problems[:5]
    assert tags.stack == [], tags.stack
    return tags


def review() -> tuple[str, Verdict]:
    report = (SCENARIOS / "review_with_references.md").read_text("utf-8")
    return report, audit(report, SCENARIOS / "rag_search.json")


def shown_report(page: str) -> str:
    """The report as the page shows it: the <pre>'s text, tags removed, entities decoded."""
    start = page.index('<pre class="report" id="report">') + len('<pre class="report" id="report">')
    return html.unescape(re.sub(r"<[^>]+>", "", page[start : page.index("</pre>")]))


def test_page_is_self_contained() -> None:
    """No asset from the network (or anywhere): no src, no stylesheet link, no url()."""
    report, verdict = review()
    page = verdict_html(verdict, "review.md", report, "1.0")
    tags = parse(page)
    for tag, attributes in tags.tags:
        assert "src" not in attributes, tag
        assert tag not in ("link", "img", "iframe", "object", "embed"), tag
        href = attributes.get("href")
        assert href is None or href.startswith("#"), href
    assert "url(" not in page and "@import" not in page
    assert page.startswith("<!DOCTYPE html>")


def test_every_citation_is_highlighted_by_its_verdict() -> None:
    report, verdict = review()
    page = verdict_html(verdict, "review.md", report)
    marks = [a for t, a in parse(page).tags if t == "mark"]
    in_report = [g for g in verdict.citations if g.citation.source is None]
    assert len(marks) == len(in_report)
    classes = [str(a["class"]).split()[1] for a in marks]
    # One fabricated work (Self-RAG, cited in prose and in the list): one finding, and every
    # place the work is written - its two ids and its title - is highlighted as an error.
    (fabricated,) = [f for f in verdict.findings if f.code == "fabricated-id"]
    assert fabricated.work is not None
    places = {(c.start, c.end) for c in (*fabricated.work.identifiers, *fabricated.work.titles)}
    assert classes.count("error") == len(places) == 3
    assert classes.count("grounded") == sum(g.grounded for g in in_report)
    assert shown_report(page) == report  # highlighting adds tags, never changes the text
    warned = audit(
        'As "A Neural Memory Network That Nobody Wrote" shows.', [{"tool": "s", "output": "x"}]
    )
    page = verdict_html(warned, "r.md", 'As "A Neural Memory Network That Nobody Wrote" shows.')
    assert [str(a["class"]).split()[1] for t, a in parse(page).tags if t == "mark"] == ["warning"]


def test_details_hold_the_evidence_or_the_reason() -> None:
    """One detail per citation: a grounded one names the call, an ungrounded one the finding."""
    report, verdict = review()
    page = verdict_html(verdict, "review.md", report)
    details = dict(
        re.findall(r'<li id="c(\d+)" class="detail \w+">(.*?)</li>(?=<li id="c|</ol>)', page)
    )
    ordered = sorted(verdict.citations, key=lambda g: g.citation.sort_key())
    assert len(details) == len(ordered)
    for n, g in enumerate(ordered, 1):
        detail = details[str(n)]
        if g.grounded:
            assert "Evidence that grounded it" in detail
            assert all(f"<code>{html.escape(c)}</code>" in detail for c in g.calls)
        else:
            assert "Why:" in detail or "not cited in a way" in detail
    assert sum("is not in any tool output" in d for d in details.values()) == 3  # one work


def test_data_is_escaped() -> None:
    """A title or tool name holding markup is shown as text, never run as markup."""
    report = '"<script>alert(1)</script> & friends" (arXiv:2005.11401) and <b>2004.04906</b>\x1b[2J'
    calls = [
        {
            "tool": "<img src=x onerror=alert(1)>",
            "output": [{"arxiv": "2005.11401", "title": "<i>T</i>"}],
        }
    ]
    verdict = audit(report, calls)
    page = render("verdict", "html", verdict, RenderContext(path="<r>.md", report=report))
    tags = parse(page)
    assert [t for t, _ in tags.tags if t in ("script", "img", "b", "i")] == ["script"]  # ours only
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\x1b" not in page and "\\x1b[2J" in page


def test_overlapping_citations_nest_or_are_listed() -> None:
    """A title holding an id (or any nested span) nests; nothing is lost from the text."""
    report = "“Results on arXiv:2005.11401 and more” see 2005.11401"
    verdict = audit(report, [{"tool": "s", "output": "2005.11401"}])
    page = verdict_html(verdict, "r.md", report)
    parse(page)
    assert page.count("<mark") == len(verdict.citations)
    assert shown_report(page) == report


def test_without_the_report_text_the_citations_are_still_listed() -> None:
    _, verdict = review()
    page = verdict_html(verdict, "review.md", None)
    parse(page)
    assert "<mark" not in page and 'id="c1"' in page


def test_rate_page_has_the_group_table_and_the_plot() -> None:
    report = rate([str(ROOT / "examples/batch/manifest.jsonl")], workers=1)
    page = render("rate", "html", report, RenderContext(version="1.0"))
    tags = parse(page)
    rows = page[page.index('<section id="groups">') : page.index("</section>")].count("<tr")
    assert rows == 1 + len(report.groups) + 1  # header, groups, pooled
    assert page.count("<svg") == 1  # matplotlib is a test dependency: the plot is inline
    assert all("src" not in a for _, a in tags.tags)
    assert "agent-a" in page and "agent-b" in page
    plain = rate_html(report, "1.0", None)
    assert "<svg" not in plain and "groundcheck-citations[plot]" in plain


def test_rate_page_shows_keys_it_does_not_know() -> None:
    """Keys added to the rate JSON (a gate, flagged runs) are shown without a renderer change."""
    report = rate([str(ROOT / "examples/batch/manifest.jsonl")], workers=1)

    class Wider(type(report)):  # type: ignore[misc]
        def to_dict(self):  # type: ignore[no-untyped-def]
            data = super().to_dict()
            data["gate"] = {"max_rate": 0.05, "verdict": "inconclusive"}
            data["flagged"] = [{"run": "a-task03", "group": "agent-a", "codes": ["fabricated-id"]}]
            return data

    wider = Wider(**{a.name: getattr(report, a.name) for a in attrs.fields(type(report))})
    page = rate_html(wider, "1.0", None)
    parse(page)
    assert "inconclusive" in page and "a-task03" in page and "fabricated-id" in page
    assert '<span class="status warn">gate: inconclusive</span>' in page
