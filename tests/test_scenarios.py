"""Whole, realistic runs end to end: the findings a user would read, and nothing else.

Each scenario is a report (or a transcript holding it) written the way agents write: prose
with emphasis, links, numbered references, several papers per paragraph. The expected
findings are exact, so a false alarm is as much a failure as a miss.
"""

from __future__ import annotations

from pathlib import Path

from groundcheck import Verdict, audit
from groundcheck.evidence import load_evidence

HERE = Path(__file__).parent / "scenarios"


def findings(report: str, evidence: object) -> list[tuple[str, str]]:
    verdict = audit(report, evidence)  # type: ignore[arg-type]
    return [(f.code, f.citation.raw if f.citation else "") for f in verdict.findings]


def test_review_with_a_reference_list() -> None:
    """Two grounded papers cited three ways each; one paper no tool returned, cited twice: one
    work, so one finding, at its reference entry, naming its title and both places."""
    report = (HERE / "review_with_references.md").read_text("utf-8")
    evidence = load_evidence(HERE / "rag_search.json").evidence
    verdict = audit(report, evidence)
    assert [(f.code, f.citation.raw if f.citation else "") for f in verdict.findings] == [
        ("fabricated-id", "2310.11511"),
    ]
    (finding,) = verdict.findings
    assert finding.citation is not None and finding.citation.line == 15
    assert "; cited as reference [3], “Self-RAG: Learning to retrieve" in finding.message
    assert "cited 2 times (lines 9, 15)" in finding.message


def test_two_papers_per_paragraph_pair_correctly() -> None:
    """Emphasised titles and markdown links, two papers per paragraph: all correct, no finding."""
    report = (HERE / "two_papers_per_paragraph.md").read_text("utf-8")
    evidence = load_evidence(HERE / "rag_search.json").evidence
    verdict = audit(report, evidence)
    assert verdict.findings == ()
    assert sum(g.grounded for g in verdict.citations) == 8


def test_claude_code_transcript_audited_alone() -> None:
    """Search results packed as JSON text; a note the agent wrote itself; an abbreviated title
    (SAEs: grounded by the acronym rule) beside its returned id, an invented title and the id
    beside it (one error, naming the title: no second warning for it)."""
    trace = load_evidence(HERE / "claude_code_sae.jsonl")
    assert trace.format == "claude-code"
    # "…with Gated SAEs" is an honest short form of a returned paper's title, cited with its
    # returned id: no warning (the tool gave no title *with* that id to hold it against).
    assert findings(trace.report or "", trace.evidence) == [
        ("fabricated-id", "2406.04093"),  # names its title: no second warning for it
    ]


def test_openai_chat_with_crossref_dois() -> None:
    """Crossref results (titles as lists, DOIs); a numbered reference list in author-year
    style; one paper, cited by its arXiv DOI, that no tool returned."""
    trace = load_evidence(HERE / "openai_crossref_dois.json")
    assert trace.format == "openai-chat"
    assert findings(trace.report or "", trace.evidence) == [
        ("fabricated-id", "10.48550/arXiv.2010.02502"),  # one finding for the entry [3]
    ]


def _verdict(trace: str, report: str | None = None) -> Verdict:
    loaded = load_evidence(HERE / trace)
    text = (HERE / report).read_text("utf-8") if report else loaded.report
    assert text, f"{trace} holds no report"
    return audit(text, loaded.evidence)


def _found(verdict: Verdict) -> list[tuple[str, str]]:
    return [(f.code, f.citation.raw if f.citation else "") for f in verdict.findings]


def test_apa_thesis_with_author_year_prose() -> None:
    """A thesis chapter from a multi-agent writer: APA references whose italic venue sits where
    a naive reader takes the title ("*Frontiers in …*"), author–year prose, Crossref evidence.
    Every returned DOI is grounded with its own title; the one invented entry is one error
    naming its title; the one author–year citation with no entry is a warning."""
    verdict = _verdict("apa_thesis_trace.json", "apa_thesis.md")
    assert _found(verdict) == [
        ("unverified-author-year", "Vygotsky, 1978"),
        ("fabricated-id", "https://doi.org/10.1016/j.compedu.2022.104512"),
    ]
    assert "“Prompting strategies for formative feedback" in verdict.findings[1].message
    entries = [w.work for w in verdict.works]
    assert [w.kind for w in entries] == ["entry"] * 8
    assert all(w.title is not None and "Journal" not in w.title.raw for w in entries)
    assert entries[5].venue == "Learning and Individual Differences"
    assert entries[5].authors[0] == "Kasneci, E." and entries[5].year == 2023
    # Every author–year citation in the prose resolved to its entry, line breaks included.
    cited = {w.authors[0]: len(w.markers) for w in entries}
    assert cited == {
        "Baidoo-Anu, D.": 1, "Chan, C. K. Y.": 1, "Cotton, D. R. E.": 1, "Dai, W.": 1,
        "Escalante, J.": 1, "Kasneci, E.": 2, "Smith, J.": 1, "Zawacki-Richter, O.": 1,
    }  # fmt: skip


def test_ieee_survey_with_a_dangling_marker_and_a_swapped_title() -> None:
    """A Claude Code survey in IEEE style with markers [1], [2], [3], [4]–[6], [8, 9]: the
    marker [11] past the end of the list is an error, and entry [9] pairing a returned id with
    another returned paper's title is an id-title-mismatch. The ranges resolve ([5] is cited
    by "[4]–[6]"); [10], cited nowhere, is a note."""
    verdict = _verdict("claude_code_ieee_survey.jsonl")
    assert _found(verdict) == [
        ("dangling-marker", "[11]"),
        ("id-title-mismatch", "2006.16236"),
    ]
    assert "its entries are [1]–[10]" in verdict.findings[0].message
    assert "; cited as reference [9]" in verdict.findings[1].message
    assert "(arXiv:1701.06538)" in verdict.findings[1].message
    assert verdict.notes == ("reference list entry [10] is cited nowhere in the text",)
    assert all(w.grounded for w in verdict.works)


def test_deep_research_numbered_sources() -> None:
    """An OpenAI deep-research style report: [n][m] markers, a Sources list of "Title - Site
    URL" lines, a table citing sources. [12] past the list's end is an error; the source whose
    URL no search returned is one error naming its title (no second title warning); every
    other source is grounded by its URL (or the DOI inside it)."""
    verdict = _verdict("deep_research_sources.json")
    assert _found(verdict) == [
        ("dangling-marker", "[12]"),
        ("fabricated-id", "https://www.nature.com/articles/s41560-023-01234-5"),
    ]
    message = verdict.findings[1].message
    assert "cited as reference [3], “Dendrite suppression in garnet" in message
    works = list(verdict.works)
    assert [w.work.label for w in works] == [str(n) for n in range(1, 10)]
    assert [w.by for w in works] == ["identifier"] * 2 + [None] + ["identifier"] * 6
    assert works[3].work.title is not None
    assert works[3].work.title.raw.endswith("in 2027-28")  # " - Reuters" is the site


def test_headings_quotes_lead_ins_and_tables() -> None:
    """A Gemini CLI review written the way agents write: numbered headings with a year or
    author after the title, quoted titles in prose, bold lead-ins under headings, a section
    of papers, a comparison table. Only the invented quoted title, the heading that puts an
    invented title over a returned id, and a URL the agent wrote from memory are reported;
    section names, lead-ins and honest headings are not."""
    verdict = _verdict("gemini_cli_sae_review.jsonl")
    assert _found(verdict) == [
        (
            "unverified-title",
            "Dictionary Learning at Scale: Monosemantic Circuits in Frontier Models",
        ),
        ("fabricated-id", "https://transformer-circuits.pub/2022/toy_model/index.html"),
        ("unverified-title", "Gated Sparse Autoencoders for Faithful Feature Recovery"),
    ]
    # The search named the site of "Toy Models of Superposition", never this URL: one error
    # for the work, naming the heading's title (without "1." and "(Elhage et al., 2022)").
    assert "cited with the title “Toy Models of Superposition”" in verdict.findings[1].message
    assert "written for arXiv:2404.16014" in verdict.findings[2].message
    titles = {t.raw for w in verdict.works for t in w.work.titles}
    assert not any("Contribution" in t or "Relevant Papers" in t for t in titles)


def test_footnotes_and_link_lists() -> None:
    """A Codex transcript: footnote markers and definitions holding Markdown links, a fenced
    code block with an index, arXiv Atom XML as evidence. [^6] has no definition (error); the
    footnote whose id no search returned is one error naming its title; the titles of the
    grounded footnotes are not doubted for want of a parsed evidence title."""
    verdict = _verdict("codex_footnotes.jsonl")
    assert _found(verdict) == [
        ("dangling-marker", "[^6]"),
        ("fabricated-id", "https://arxiv.org/abs/2112.04426"),
    ]
    assert "cited as footnote [^4], “Improving language models" in verdict.findings[1].message


def test_latex_with_thebibliography_and_cite_keys() -> None:
    """A LangGraph agent writing LaTeX: \\cite{a, b} markers, a thebibliography of \\bibitem
    entries with ``quoted'' titles and LaTeX ties (P.~Lewis). The key no \\bibitem defines is
    an error, and so is the entry whose arXiv id no search returned."""
    verdict = _verdict("langgraph_latex.json")
    assert _found(verdict) == [
        ("dangling-marker", "\\cite{asai2023tart, su2023instructor}"),
        ("fabricated-id", "2112.04426"),
    ]
    assert "\\cite{su2023instructor}" in verdict.findings[0].message
    assert [w.work.label for w in verdict.works] == [
        "lewis2020rag", "karpukhin2020dpr", "izacard2022atlas", "borgeaud2022retro",
        "asai2023tart",
    ]  # fmt: skip
    assert verdict.works[0].work.authors == ("P. Lewis", "E. Perez", "A. Piktus")


def test_honest_review_in_mixed_styles_has_no_finding_but_its_unsourced_quote() -> None:
    """An honest review mixing every style above (author–year prose, an italic title beside its
    id, bold lead-ins, a quoted sentence, a table of papers, a heading with its citation, code,
    APA references one per line) draws no finding on its citations, and each paper is one work.
    Its one quoted sentence is in no output (the searches returned no abstracts): a warning,
    which the loaders' outputs never gave before they kept their text (quotes were unchecked)."""
    verdict = _verdict("honest_moe_mcp.jsonl", "honest_moe_review.md")
    assert [(f.code, f.severity) for f in verdict.findings] == [("unverified-quote", "warning")]
    assert verdict.notes == ()
    works = [w.work for w in verdict.works]
    assert len(works) == 4 and all(w.grounded for w in verdict.works)
    assert all(w.kind == "entry" and len(w.markers) == 1 for w in works)
    mixtral = works[1]
    assert {t.kind for t in mixtral.titles} == {"reference", "cell", "heading"}
