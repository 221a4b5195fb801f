"""The title checks: unverified-title, id-title-mismatch, and grounded titles in the verdict."""

from __future__ import annotations

import json
from typing import Any

import pytest

from groundcheck import audit
from groundcheck.errors import ConfigError

RAG = "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"
DPR = "Dense Passage Retrieval for Open-Domain Question Answering"
CALLS: list[dict[str, Any]] = [
    {
        "tool": "search",
        "id": "c1",
        "output": [
            {"arxiv_id": "2005.11401", "title": RAG},
            {"arxiv_id": "2004.04906", "title": DPR},
        ],
    }
]


def codes(report: str, calls: list[dict[str, Any]] = CALLS, **options: Any) -> list[str]:
    return [f.code for f in audit(report, calls, **options).findings]


def test_grounded_title_carries_match_and_score() -> None:
    v = audit(f"## {RAG.lower()}\nLewis et al., arXiv:2005.11401", CALLS)
    assert v.findings == ()
    data = json.loads(v.to_json())
    (title,) = [c for c in data["citations"] if c["scheme"] == "title"]
    assert title["matched_title"] == RAG
    assert title["score"] == 100.0
    assert title["evidence"] == ["c1"]
    assert title["kind"] == "heading"


def test_unverified_title_only_when_written_as_a_citation() -> None:
    """An invented heading over a cited id warns; a bold sentence with no id nearby does not."""
    assert codes("## Neural Retrieval Augmented Memory Networks\nSee arXiv:2005.11401.") == [
        "unverified-title"
    ]
    assert codes("**This result was never verified by anyone.**\n\nNothing cited here.") == []
    refs = "References\n\n1. Smith, J. (2021). Neural Retrieval Augmented Memory Networks. ICML."
    assert codes(refs) == ["unverified-title"]


def test_unverified_title_names_the_closest_title() -> None:
    """A title matching nothing names the closest returned title; a near-miss of the title
    returned with the id beside it names that title, the one it should have been."""
    v = audit('As "Dense Passage Retrieval for Open-Domain Dialogue Systems" shows', CALLS)
    messages = [f.message for f in v.findings if f.code == "unverified-title"]
    assert messages and "closest returned title is “Dense Passage Retrieval" in messages[0]
    v = audit(
        'As "Dense Passage Retrieval for Open-Domain Dialogue Systems" (arXiv:2004.04906) shows',
        CALLS,
    )
    (finding,) = v.findings
    assert finding.code == "unverified-title"
    assert "written for arXiv:2004.04906 does not match the title the tools returned" in (
        finding.message
    )
    assert f"“{DPR}”" in finding.message


def test_id_beside_another_returned_papers_title() -> None:
    """The real id, the real title of a different returned paper: an error naming both."""
    v = audit(f"## {DPR}\nKarpukhin et al. (2020), arXiv:2005.11401.", CALLS)
    (finding,) = v.findings
    assert finding.code == "id-title-mismatch"
    assert finding.severity == "error"
    assert "arXiv:2005.11401 was returned as “Retrieval-Augmented" in finding.message
    assert "the title of another returned paper (arXiv:2004.04906)" in finding.message


def test_id_beside_its_own_title_with_typos_is_fine() -> None:
    assert codes(f'"{RAG.replace("Knowledge", "Knowlege")}" (arXiv:2005.11401)') == []


def test_no_title_finding_when_the_ids_own_title_is_unknown() -> None:
    """A work grounded by its identifier is judged by the title returned *with* it. When the
    tools returned the id without a title, there is nothing to compare the title to: no
    finding (it used to be an unverified-title warning, which on real runs flagged honest
    titles whose tool put them where no loader looked, e.g. arXiv Atom XML)."""
    calls = [{"tool": "search", "output": "2005.11401"}]
    assert codes(f"## {DPR}\nSee arXiv:2005.11401.", calls) == []
    assert codes(f"## {DPR}\nSee arXiv:2004.04906.", calls) == ["fabricated-id"]


def test_title_threshold_is_tunable_and_validated() -> None:
    report = '"Dense Passage Retrieval for Open Domain Questions" (arXiv:2004.04906)'
    assert "unverified-title" in codes(report)
    assert codes(report, title_threshold=70) == []
    for bad in (0, -5, 101, "90", True):
        with pytest.raises(ConfigError, match="title_threshold"):
            audit(report, CALLS, title_threshold=bad)


def test_titles_in_text_outputs_ground() -> None:
    """A search tool that returns plain lines: titles beside ids are evidence too."""
    calls = [
        {
            "tool": "web",
            "output": "1. Switch Transformers: Scaling to Trillion Parameter Models arxiv.org/abs/2101.03961",
        }
    ]
    v = audit(
        '"Switch Transformers: Scaling to Trillion Parameter Models" (arXiv:2101.03961)', calls
    )
    assert v.findings == ()
    assert [g.grounded for g in v.citations] == [True, True]


@pytest.mark.parametrize(
    "report",
    [
        f"We compare *{RAG}* (arXiv:2005.11401) with *{DPR}* (arXiv:2004.04906) in detail.",
        f"Also [{DPR}](https://arxiv.org/abs/2004.04906) and [{RAG}](https://arxiv.org/abs/2005.11401).",
        f"Results:\n2005.11401 {RAG}\n2004.04906 {DPR}\n",
        f"## {RAG}\nLewis et al., arXiv:2005.11401; see also arXiv:2004.04906 ({DPR}).",
    ],
)
def test_each_id_pairs_with_its_own_title(report: str) -> None:
    """Regression: with two cited papers in one paragraph, each id is paired with the title
    written for it (before it on its line, else after it), not with the neighbour's."""
    assert audit(report, CALLS).findings == ()


def test_title_matching_nothing_beside_a_returned_id_is_a_warning() -> None:
    """Errors are for certainty: a heading paraphrasing the paper over its id, or a quoted
    title matching no returned title, is a warning; only another returned paper's title
    beside the id is an id-title-mismatch error (issue 11)."""
    assert codes("## RAG: when retrieval meets generation\nSee arXiv:2005.11401.") == [
        "unverified-title"
    ]
    assert codes('"When Retrieval Meets Generation Anew" (arXiv:2005.11401)') == [
        "unverified-title"
    ]
    assert codes(f'"{DPR}" (arXiv:2005.11401)') == ["id-title-mismatch"]


# -- cited works: one finding per problem per work ------------------------------------------

REFS = "\n\n## References\n\n"


def test_fabricated_work_names_its_title_and_draws_no_title_warning() -> None:
    """A fabricated entry is one error naming the title written for it, nothing more."""
    report = (
        "See [1].\n\n## References\n\n[1] Smith, J. (2021). Neural Retrieval Augmented Memory "
        "Networks. ICML. arXiv:2106.01234\n"
    )
    v = audit(report, CALLS)
    (finding,) = v.findings
    assert finding.code == "fabricated-id"
    assert finding.message.startswith("arXiv:2106.01234 is not in any tool output")
    assert "cited as reference [1], “Neural Retrieval Augmented Memory Networks”" in (
        finding.message
    )
    assert finding.work is not None and finding.work.label == "1"
    assert json.loads(v.to_json())["findings"][0]["work"] == finding.work.key


def test_an_id_cited_in_prose_and_in_the_list_is_one_work() -> None:
    report = f"Self-RAG (arXiv:2310.11511) and again arXiv:2310.11511.{REFS}1. Asai, A. (2023). Self-RAG: Learning to retrieve and critique. arXiv:2310.11511\n"
    (finding,) = audit(report, CALLS).findings
    assert finding.code == "fabricated-id"
    assert "cited 3 times (lines 1, 5)" in finding.message


def test_a_work_grounded_by_one_id_is_grounded() -> None:
    """A publisher DOI beside a returned arXiv id in one entry: the work is grounded, the
    other identifier written for it is not accused."""
    report = f"See [1].{REFS}[1] Lewis, P. (2020). {RAG}. NeurIPS. arXiv:2005.11401. doi:10.5555/3495724.3496517\n"
    v = audit(report, CALLS)
    assert v.findings == ()
    (work,) = v.works
    assert work.grounded and work.by == "identifier" and len(work.work.identifiers) == 2


def test_a_near_variant_of_the_ids_own_title_is_never_a_mismatch() -> None:
    """A short form of the id's own title, even when another search returned that short form
    as a title of its own, is the id's own title ("…Nets" for "…Networks", by the title
    rules): no finding, and never a mismatch."""
    calls = [
        {"tool": "s", "id": "c1", "output": [
            {"arxiv_id": "1406.2661", "title": "Generative Adversarial Networks"}]},
        {"tool": "s", "id": "c2", "output": [{"title": "Generative Adversarial Nets"}]},
    ]  # fmt: skip
    v = audit('"Generative Adversarial Nets" (arXiv:1406.2661)', calls)
    assert v.findings == ()
    (work,) = v.works
    assert work.grounded and work.by == "identifier"


def test_a_near_miss_of_the_ids_own_title_is_a_warning() -> None:
    """A title beside a returned id that only comes close to the id's own title (a rewritten
    subtitle), and matches no other returned work, is a warning naming the own title."""
    calls = [{"tool": "s", "id": "c1", "output": [
        {"arxiv_id": "2005.11401",
         "title": "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"}]}]  # fmt: skip
    v = audit('"Retrieval-Augmented Generation for Open-Domain Chat" (arXiv:2005.11401)', calls)
    assert [(f.code, f.severity) for f in v.findings] == [("unverified-title", "warning")]
    assert "Knowledge-Intensive NLP Tasks”" in v.findings[0].message


def test_another_returned_works_title_beside_an_id_is_a_mismatch() -> None:
    calls = [{"tool": "s", "id": "c1", "output": [
        {"arxiv_id": "2005.11401",
         "title": "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"},
        {"arxiv_id": "2004.04906",
         "title": "Dense Passage Retrieval for Open-Domain Question Answering"}]}]  # fmt: skip
    report = '"Dense Passage Retrieval for Open-Domain Question Answering" (arXiv:2005.11401)'
    v = audit(report, calls)
    assert [(f.code, f.severity) for f in v.findings] == [("id-title-mismatch", "error")]
    assert "arXiv:2004.04906" in v.findings[0].message


def test_the_venue_of_an_apa_entry_is_not_its_title() -> None:
    """The issue's failure: an honest APA entry whose italic venue was taken as the title
    beside its returned DOI, an error dozens of times per report."""
    calls = [{"tool": "crossref", "id": "c1", "output": [
        {"DOI": "10.3389/feduc.2021.654321", "title": ["Teaching with AI tools in class"]}]}]  # fmt: skip
    report = (
        f"As shown (Smith & Doe, 2021).{REFS}Smith, J., & Doe, A. (2021). Teaching with AI "
        "tools in class. *Frontiers in Education*, 6. https://doi.org/10.3389/feduc.2021.654321\n"
    )
    assert audit(report, calls).findings == ()


def test_dangling_marker_is_an_error_once_per_label() -> None:
    report = f"Shown [1][12], again [12].{REFS}[1] A source title here https://example.org/a\n"
    v = audit(report, [{"tool": "s", "id": "c1", "output": "https://example.org/a"}])
    (finding,) = v.findings
    assert finding.code == "dangling-marker" and finding.severity == "error"
    assert finding.citation is not None and finding.citation.raw == "[12]"
    assert finding.message == (
        "marker [12] points to no entry of the report's reference list (its entries are [1]);"
        " cited 2 times"
    )


def test_no_dangling_marker_without_a_numbered_list() -> None:
    assert codes("Shown [3] and [2025].", CALLS) == []


def test_unverified_author_year_against_the_list() -> None:
    report = (
        f"Lewis et al. (2020) and (Vygotsky, 1978) and GPT-4 (2023).{REFS}"
        f"Lewis, P. (2020). {RAG}. NeurIPS. arXiv:2005.11401\n"
    )
    findings = audit(report, CALLS).findings
    assert [(f.code, f.citation.raw if f.citation else "") for f in findings] == [
        ("unverified-author-year", "Vygotsky, 1978")
    ]
    assert findings[0].severity == "warning"


def test_unverified_author_year_without_a_list_uses_returned_authors() -> None:
    """No list: a citation is held against the returned works' first authors and years; when
    no tool gave authors at all, it is not judged (a note says so)."""
    from groundcheck.model import Evidence, EvidenceSet, Identifier, Work

    rag = Identifier("arxiv", "2005.11401")
    evidence = EvidenceSet(
        [Evidence("s", "c1", frozenset({rag}), works=(Work(frozenset({rag}), RAG, ("Patrick Lewis",), 2020),))]
    )  # fmt: skip
    report = "Retrieval helps (Lewis et al., 2020), dense retrieval too (Karpukhin et al., 2020)."
    v = audit(report, evidence)
    assert [(f.code, f.citation.raw if f.citation else "") for f in v.findings] == [
        ("unverified-author-year", "Karpukhin et al., 2020")
    ]
    plain = audit(report, CALLS)
    assert plain.findings == ()
    assert plain.notes == (
        "2 author–year citations could not be checked: the report has no reference list and "
        "no tool output gave authors and years",
    )


def test_author_year_matching_an_undated_returned_work_by_its_first_author_passes() -> None:
    """A search that returns titles and authors but no year (Title/Authors/arXiv blocks): the
    citation's year cannot be checked, its first author can."""
    from groundcheck.model import Evidence, EvidenceSet, Identifier, Work

    rag = Identifier("arxiv", "2005.11401")
    evidence = EvidenceSet(
        [Evidence("s", "c1", frozenset({rag}), works=(Work(frozenset({rag}), RAG, ("Patrick Lewis",), None),))]
    )  # fmt: skip
    report = "Retrieval helps (Lewis et al., 2020), dense retrieval too (Karpukhin et al., 2020)."
    assert [(f.code, f.citation.raw if f.citation else "") for f in audit(report, evidence).findings] == [
        ("unverified-author-year", "Karpukhin et al., 2020")
    ]  # fmt: skip


def test_a_wrong_title_after_an_id_in_a_heading_is_warned() -> None:
    """"### <id> — <title> (authors)" headings (a Claude review's key papers, Hypogenic-AI/
    is-there-a-sounds-like-ai-direction-511e-claude-opus-5-5@ffb13e40): the title after the id
    is the title written for it, judged against the one returned with it."""
    report = (
        "# Review\n\n### 2005.11401 — Retrieval-Augmented Generation for Knowledge-Intensive NLP"
        " Tasks (Lewis et al., 2020)\n\nText.\n\n### 2004.04906 — Scaling Laws for Neural"
        " Language Models (Kaplan et al., 2020)\n\nText.\n"
    )
    findings = [f for f in audit(report, CALLS).findings if f.code == "unverified-title"]
    assert [f.citation.raw for f in findings if f.citation] == [
        "Scaling Laws for Neural Language Models"
    ]


def test_section_names_and_lead_ins_are_not_titles() -> None:
    report = (
        "## Additional Relevant Papers\n\n- **Key Technical Contribution**: retrieval.\n"
        "- arXiv:2005.11401\n- arXiv:2004.04906\n\n## Summary of the Main Findings Here\n\nText."
    )
    assert audit(report, CALLS).findings == ()


def test_quoted_names_and_quoted_prose_are_not_cited_works() -> None:
    """Three classes from a real web-research report: a name running into a quote is prose,
    not a Chicago entry; a quoted album, film or product name is a name, not a source; a
    quoted sentence that a fetched page also quotes is a quotation, not that page's title."""
    page = (
        "Title: Drummer's life in photos\n\n\"Taylor was playing with Alanis Morissette, who "
        'was selling out stadiums all over the world," Grohl told Radio X in 2017.'
    )
    calls = [{"tool": "fetch", "id": "c1", "output": page},
             {"tool": "search", "id": "c2", "output": "https://en.wikipedia.org/wiki/X"}]  # fmt: skip
    report = (
        "Loudwire “named the album one of the best rock efforts of 2019”.\n\n"
        'The album "There Is Nothing Left to Lose" followed.\n\n'
        'According to Wikipedia (https://en.wikipedia.org/wiki/X), "Taylor was playing\n'
        'with Alanis Morissette, who was selling out stadiums all over the world."\n'
    )
    v = audit(report, calls)
    assert [w.work.kind for w in v.works] == ["inline"]
    assert not [f for f in v.findings if f.code in ("unverified-title", "id-title-mismatch")]


def test_a_label_linking_a_web_page_is_not_a_title_claim() -> None:
    """ "[FDA Type B Meetings](url)": agents describe the pages they link (real case:
    tests/corpus/claude-code-subagent-web-sources-biotech, seven such warnings before)."""
    import groundcheck

    url = "https://investors.example.com/news/spruce-announces-positive-type-b-meetings"
    page = "Spruce Biosciences Announces Positive Type B Meetings with U.S. FDA for TA-ERT"
    calls = [{"tool": "WebSearch", "output": {"results": [{"title": page, "url": url}]}}]
    described = f"Sources:\n- [FDA Type B Meetings]({url})\n- [Q3 results]({url})\n"
    assert [f.code for f in groundcheck.audit(described, calls).findings] == []
    # a near copy of the page's title, changed, is still worth a warning
    copied = f"Sources:\n- [Spruce Biosciences Reports Failed FDA Meetings for TA-ERT]({url})\n"
    codes = [f.code for f in groundcheck.audit(copied, calls).findings]
    assert codes == ["unverified-title"]


def test_a_link_label_for_a_paper_id_is_still_judged() -> None:
    """Scholarly identifiers are always judged: an invented title beside a real arXiv id."""
    import groundcheck

    calls = [
        {
            "tool": "arxiv_search",
            "output": [
                {
                    "arxiv_id": "2005.11401",
                    "title": "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
                }
            ],
        }
    ]
    report = (
        "Sources:\n- [Dense Passage Retrieval at Web Scale](https://arxiv.org/abs/2005.11401)\n"
    )
    codes = [f.code for f in groundcheck.audit(report, calls).findings]
    assert codes == ["unverified-title"]


def test_author_year_beside_a_title_returned_without_authors_is_not_judged() -> None:
    """ "### BERTology Meets Biology (Vig et al., 2020)" against a search result giving only
    id, title and year (real shape: Hypogenic-AI/novel-bio-mechanisms-c075-claude,
    paper_search_results/arxiv_targets.jsonl): the authors cannot be checked. A title
    returned *with* other authors still warns: that is a misattribution."""
    import groundcheck

    calls = [
        {
            "tool": "arxiv_search",
            "output": [
                {
                    "arxiv_id": "2006.15222",
                    "title": "BERTology Meets Biology: Interpreting Attention in Protein "
                    "Language Models",
                    "year": 2020,
                },
                {
                    "title": "Insights into the inner workings of transformer models for "
                    "protein function prediction",
                    "authors": "M. Wenzel, Erik Grüner, Nils Strodthoff",
                    "year": 2023,
                },
            ],
        }
    ]
    report = (
        "### BERTology Meets Biology: Interpreting Attention in Protein Language Models "
        "(Vig et al., 2020)\n\n"
        "### Insights into the Inner Workings of Transformer Models for Protein Function "
        "Prediction (Stark et al., 2023)\n"
    )
    findings = groundcheck.audit(report, calls).findings
    assert [(f.code, f.citation.raw if f.citation else None) for f in findings] == [
        ("unverified-author-year", "Stark et al., 2023")
    ]


def test_author_year_beside_a_returned_title_must_name_its_first_author() -> None:
    """ "Sparse Autoencoders Uncover … (Adams et al., 2025)": the tools returned that title
    as Gujral et al.'s, and Adams et al.'s 2025 paper under another title (real case:
    Hypogenic-AI/novel-bio-mechanisms-c075-claude). Any returned Adams 2025 used to satisfy
    the check; the work titled on the line must be the one. Its own first author passes."""
    import groundcheck

    calls = [
        {
            "tool": "paper_finder",
            "output": [
                {
                    "title": "Sparse autoencoders uncover biologically interpretable features in "
                    "protein language model representations",
                    "authors": "Onkar Gujral, Mihir Bafna, Eric J. Alm, Bonnie Berger",
                    "year": 2025,
                },
                {
                    "title": "From Mechanistic Interpretability to Mechanistic Biology: Training, "
                    "Evaluating, and Interpreting Sparse Autoencoders on Protein Language Models",
                    "authors": "Etowah Adams, Li Bai, Minji Lee",
                    "year": 2025,
                },
            ],
        }
    ]
    title = (
        "Sparse Autoencoders Uncover Biologically Interpretable Features in Protein Language "
        "Model Representations"
    )
    wrong = f"### {title} (Adams et al., 2025)\n\nThe PNAS paper.\n"
    (finding,) = groundcheck.audit(wrong, calls).findings
    assert finding.code == "unverified-author-year"
    assert "first author Onkar Gujral" in finding.message
    right = f"### {title} (Gujral et al., 2025)\n\nThe PNAS paper.\n"
    assert groundcheck.audit(right, calls).findings == ()


_S2 = [
    {
        "tool": "semantic_scholar_search",
        "input": {"query": "retrieval augmented generation"},
        "output": {
            "data": [
                {
                    "externalIds": {"ArXiv": "2005.11401", "CorpusId": 218869575},
                    "title": RAG,
                    "year": 2020,
                    "authors": [{"name": "Patrick Lewis"}],
                }
            ]
        },
    }
]


def test_an_added_publisher_doi_for_a_returned_paper_is_a_warning() -> None:
    """The paper was returned (title, arXiv id); the agent added its DOI from memory. The DOI
    is in no output — said — but the source is not invented: a warning, naming the paper."""
    report = f"## References\n\n1. Lewis, P., et al. (2020). {RAG}. *NeurIPS*. https://doi.org/10.5555/3495724.3496517\n"
    (finding,) = [f for f in audit(report, _S2).findings if f.code == "fabricated-id"]
    assert finding.severity == "warning"
    assert "its title is that of a paper the tools returned (arXiv:2005.11401)" in finding.message


@pytest.mark.parametrize(
    "cited",
    [
        f"1. Lewis, P., et al. (2020). {RAG}. arXiv:2401.99999",  # its arXiv id is another
        "1. Lewis, P., et al. (2020). Dense Passages All The Way Down. doi:10.5555/1",  # no twin
    ],
)
def test_an_unreturned_id_stays_an_error_without_a_returned_twin(cited: str) -> None:
    findings = audit(f"## References\n\n{cited}\n", _S2).findings
    assert [(f.code, f.severity) for f in findings if f.code == "fabricated-id"] == [
        ("fabricated-id", "error")
    ]


def test_an_id_beside_a_returned_title_in_prose_stays_an_error() -> None:
    """The words next to an id are not a written title: no twin is looked for."""
    report = f"We use {RAG} (doi:10.5555/3495724.3496517) throughout."
    findings = [f for f in audit(report, _S2).findings if f.code == "fabricated-id"]
    assert [f.severity for f in findings] == ["error"]


def test_checks_read_the_context_as_the_maps_over_every_citation_did() -> None:
    """The grounding map is made when first asked, and malformed-id looks up only the works of
    malformed citations: each gives what the map over every citation gave, on a verdict's
    own context and on one whose works are shuffled against its citations (a context built
    by hand)."""
    import random

    from groundcheck.checks import AuditContext, FabricatedIds, MalformedIds

    report = (
        "See arXiv:2005.11401, arXiv:2013.00001, doi:10.1234/abc and arXiv:2005.1140.\n\n"
        "## References\n1. Lewis (2020). RAG. arXiv:2005.11401\n"
        "2. Smith (2021). Made Up. arXiv:2013.00001 and arXiv:2101.99999\n"
        f"3. {DPR}. doi:10.1234/abc\n"
    )
    v = audit(report, CALLS)
    assert any(g.citation.malformed for g in v.citations)
    shuffled = list(v.works)
    random.Random(3).shuffle(shuffled)
    for works in (v.works, tuple(shuffled), ()):
        ctx = AuditContext(report, v.citations, v.evidence, works=works)
        by_citation = {id(g.citation): g for g in v.citations}
        for g in v.citations:
            assert ctx.grounding(g.citation) is by_citation[id(g.citation)]
        owner = {id(c): wg.work for wg in works for c in wg.work.identifiers}
        found = list(MalformedIds().run(ctx))
        malformed = [g.citation for g in v.citations if g.citation.malformed is not None]
        assert [f.citation for f in found] == malformed
        assert [f.work for f in found] == [owner.get(id(c)) for c in malformed]
        if works is v.works:  # the malformed id of the prose is a work of its own
            assert any(f.work is not None for f in found)
        assert [f.message for f in FabricatedIds().run(ctx)]


def test_a_work_names_each_identifier_once_in_order_as_before() -> None:
    """fabricated-id names a work's identifiers by each distinct identifier object (a flood's
    citations share one): the same names, in the same order, as naming every citation."""
    from groundcheck.auditor import Auditor
    from groundcheck.checks import AuditContext, FabricatedIds

    flood = "doi:10.1234/x " * 50
    report = (
        f"{flood}\n\n## References\n"
        "1. Smith (2021). Made Up. arXiv:2103.00001 and doi:10.9999/zz and arXiv:2103.00001\n"
    )
    v = audit(report, CALLS)
    schemes = Auditor().schemes
    ctx = AuditContext(report, v.citations, v.evidence, works=v.works, schemes=schemes)
    found = list(FabricatedIds().run(ctx))
    assert len(found) == len([wg for wg in v.works if not wg.grounded])
    for f in found:
        assert f.work is not None
        missing = [c for c in f.work.identifiers if c.malformed is None]
        named = list(dict.fromkeys(ctx.cited_as(c.identifier) for c in missing))
        assert f.message.startswith(f"{' and '.join(named)} {'is' if len(named) == 1 else 'are'}")
    assert any("cited 50 times" in f.message for f in found)
    assert any(" and " in f.message.split(" not in ")[0] for f in found)
