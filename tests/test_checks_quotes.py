"""unverified-quote and misattributed-quote, through audit(), and the quote_min_words policy.

The scenario is a web-research run in the OpenAI chat format (tests/scenarios/
openai_quotes_research.json): one web_search call and two fetch_url calls whose outputs are
real search snippets kept by STORM (tests/corpus/storm-article-numbered-markers/url_to_info.json,
from jiange91/lm_compiler@8500be325712a9c086e4545167f7da9e2ee93d7c), written as a Jina-Reader
style fetch result. The report (tests/scenarios/quotes_profile.md) is written for this test:
numbered sources, honest quotes (exact, wrapped, elided, a block quote), a changed number, a
changed name, a quote cited beside the wrong page, the agent's own query and a scare quote.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve

from groundcheck import Policy, audit, load_evidence
from groundcheck.checks import DEFAULT_CHECKS, MisattributedQuotes, UnverifiedQuotes
from groundcheck.errors import ConfigError
from groundcheck.evidence import native, trace
from groundcheck.evidence.walk import flatten
from groundcheck.model import Evidence, EvidenceSet

SCENARIOS = Path(__file__).parent / "scenarios"


@pytest.fixture
def texts_kept(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Loaders that keep each output's text in ``Evidence.text`` (the wiring the loaders get:
    the flattened output of every recorded, not excluded call)."""
    real = trace.make_evidence

    def make(tool: str, call_id: str, output: Any, extractors: Any, **kw: Any) -> Evidence:
        ev = real(tool, call_id, output, extractors, **kw)
        if ev.excluded is None and ev.recorded:
            ev = evolve(ev, text=flatten(output, kw.get("ignore", trace.STRUCTURAL_KEYS)).text)
        return ev

    monkeypatch.setattr(trace, "make_evidence", make)
    monkeypatch.setattr(native, "make_evidence", make)
    yield


def scenario() -> tuple[str, EvidenceSet]:
    report = (SCENARIOS / "quotes_profile.md").read_text("utf-8")
    return report, load_evidence(str(SCENARIOS / "openai_quotes_research.json")).evidence


@pytest.mark.usefixtures("texts_kept")
def test_web_research_scenario() -> None:
    report, evidence = scenario()
    verdict = audit(report, evidence)
    quotes = [
        (f.code, f.citation.line, f.citation.raw.split()[0])
        for f in verdict.findings
        if f.code.endswith("-quote") and f.citation
    ]
    assert quotes == [
        ("unverified-quote", 8, "named"),  # 50 best rock efforts, quoted as 10
        ("unverified-quote", 9, "Hawkins"),  # Josh Freese, quoted as Dave Grohl
        ("misattributed-quote", 12, "Taylor"),  # People's words, cited to Wikipedia
    ]
    by_line = {f.citation.line: f for f in verdict.findings if f.citation}
    assert "“50” and the quote “10”" in by_line[8].message
    assert by_line[8].severity == "warning"
    assert by_line[12].calls == ("call_people",)
    assert "en.wikipedia.org/wiki/Taylor_Hawkins" in by_line[12].message
    # Quoted sentences are quotations, not titles: no title finding on any of them.
    assert not [f for f in verdict.findings if f.code in ("unverified-title", "id-title-mismatch")]
    assert verdict.ok  # every URL was returned; quote findings are warnings


@pytest.mark.usefixtures("texts_kept")
def test_quote_min_words_is_a_policy_option() -> None:
    report, evidence = scenario()
    loose = audit(report, evidence, quote_min_words=30)
    assert not [f for f in loose.findings if f.code.endswith("-quote")]
    with pytest.raises(ConfigError, match="quote_min_words"):
        Policy(quote_min_words=0)


def test_without_kept_texts_quotes_are_not_judged() -> None:
    """Evidence built without the outputs' text (by hand, or a loader keeping ids only)."""
    report, evidence = scenario()
    bare = EvidenceSet([evolve(c, text=None) for c in evidence.calls])
    assert not [f for f in audit(report, bare).findings if f.code.endswith("-quote")]


def test_the_loaders_keep_each_outputs_text_for_the_quotes() -> None:
    """Without the fixture's wiring: the loaders themselves keep the text, so a wrong quote in
    a real run is found (they kept identifiers only, and no quote was ever checked)."""
    report, evidence = scenario()
    assert all(c.text for c in evidence.calls)
    codes = [f.code for f in audit(report, evidence).findings if f.code.endswith("-quote")]
    assert codes == ["unverified-quote", "unverified-quote", "misattributed-quote"]


def test_unverified_message_names_the_gap() -> None:
    calls = EvidenceSet(
        [
            Evidence("search", "s", text="nothing like the words of the report at all"),
            Evidence("fetch", "f", recorded=False),
        ]
    )
    verdict = audit('It said "the tariff will be lifted before the end of June".', calls)
    (finding,) = [f for f in verdict.findings if f.code == "unverified-quote"]
    assert finding.message == (
        "quote “the tariff will be lifted before the end of June” (10 words) is not in any "
        "tool output (1 output searched; but 1 lookup kept no output text, which may hold it)"
    )
    assert finding.citation is not None and finding.citation.scheme == "quote"


def test_the_checks_describe_themselves() -> None:
    for check in (UnverifiedQuotes(), MisattributedQuotes()):
        assert check in DEFAULT_CHECKS or any(type(c) is type(check) for c in DEFAULT_CHECKS)
        assert check.severity == "warning"
        assert check.description and len(check.help) > len(check.description)
    assert {c.code for c in DEFAULT_CHECKS} >= {"unverified-quote", "misattributed-quote"}
