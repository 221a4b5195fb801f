"""A web-research run end to end: search results as JSON text in an OpenAI chat trace, and a
report with numbered sources written the way deep-research agents write them.

The trace (tests/scenarios/openai_web_research.json) is constructed for this test, after the
shape of OpenAI chat-completions traces with a web-search tool; the URLs are real pages'
forms. Sources 1-6 are honest (a mobile Wikipedia host with a fragment, http and no www. and
no trailing slash, tracking parameters dropped by the agent, a DOI cited without its URL, an
arXiv abs page cited as its PDF, a PubMed URL cited as a PMID); 7 is an invented page on a
real domain (a rewritten slug), 8 a page no tool returned.
"""

from __future__ import annotations

from pathlib import Path

from groundcheck import audit
from groundcheck.evidence import load_evidence
from groundcheck.extractors.acl import ACL_EXTRACTOR
from groundcheck.extractors.builtin import builtin_registry
from groundcheck.extractors.dblp import DBLP_EXTRACTOR
from groundcheck.extractors.isbn import ISBN_EXTRACTOR
from groundcheck.extractors.openalex import OPENALEX_EXTRACTOR
from groundcheck.extractors.openreview import OPENREVIEW_EXTRACTOR
from groundcheck.extractors.pubmed import PMCID_EXTRACTOR, PMID_EXTRACTOR
from groundcheck.extractors.registry import Registry
from groundcheck.extractors.semanticscholar import S2_EXTRACTOR
from groundcheck.extractors.url import URL_EXTRACTOR

TRACE = Path(__file__).resolve().parent.parent / "scenarios" / "openai_web_research.json"


def web_registry() -> Registry:
    registry = builtin_registry()
    for extractor in (
        URL_EXTRACTOR,
        PMID_EXTRACTOR,
        PMCID_EXTRACTOR,
        ISBN_EXTRACTOR,
        ACL_EXTRACTOR,
        OPENREVIEW_EXTRACTOR,
        S2_EXTRACTOR,
        OPENALEX_EXTRACTOR,
        DBLP_EXTRACTOR,
    ):
        registry.register(extractor, replace=True)  # already built in once registered
    return registry


def test_web_research_report_with_numbered_sources() -> None:
    registry = web_registry()
    trace = load_evidence(TRACE, registry=registry)
    assert trace.format == "openai-chat"
    verdict = audit(trace.report or "", trace.evidence, registry=registry)
    found = [(f.code, f.citation.raw if f.citation else "") for f in verdict.findings]
    assert found == [
        (
            "fabricated-id",
            "https://www.nasa.gov/news-release/messenger-measures-thickness-of-water-ice-at-mercurys-poles/",
        ),
        ("fabricated-id", "https://global.jaxa.jp/press/2024/01/20240108-1_e.html"),
    ]
    by_scheme = sorted(
        (g.citation.scheme, g.grounded) for g in verdict.citations if g.citation.scheme != "title"
    )
    assert by_scheme == [
        ("arxiv", True),
        ("doi", True),
        ("pmid", True),
        ("url", False),
        ("url", False),
        ("url", True),
        ("url", True),
        ("url", True),
    ]
