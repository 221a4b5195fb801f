"""Cited works: what belongs to an entry, which title an inline id has, where markers point."""

from __future__ import annotations

from groundcheck.document import Document, WorkSet, build_works
from groundcheck.extractors import extract


def works(text: str) -> WorkSet:
    citations = extract(text)
    ids = [(c.start, c.end) for c in citations if not c.is_title]
    return build_works(Document(text, ids), citations)


def test_an_entry_holds_its_ids_and_its_own_title_only() -> None:
    """The italic venue and the authors inside an entry are nobody's title."""
    text = (
        "## References\n\nSmith, J., & Doe, A. (2021). Teaching with AI tools. *Frontiers in "
        "Education*, 6. https://doi.org/10.3389/feduc.2021.123\n"
    )
    (work,) = works(text).works
    assert work.kind == "entry"
    assert [c.id for c in work.identifiers] == ["10.3389/feduc.2021.123"]
    assert [t.raw for t in work.titles] == ["Teaching with AI tools"]
    assert work.venue == "Frontiers in Education"
    assert work.authors == ("Smith, J.", "Doe, A.") and work.year == 2021


def test_one_work_per_identifier_wherever_it_is_written() -> None:
    """An id cited in prose twice and again in the list is one work: the entry."""
    text = (
        "RAG (arXiv:2005.11401) works; see arXiv:2005.11401 again.\n\n## References\n\n"
        "1. Lewis, P. (2020). Retrieval-augmented generation for NLP. NeurIPS. arXiv:2005.11401\n"
    )
    (work,) = works(text).works
    assert work.kind == "entry" and len(work.identifiers) == 3


def test_inline_ids_pair_with_the_title_written_for_them() -> None:
    text = (
        "We compare *Dense Passage Retrieval for Open-Domain QA* (arXiv:2004.04906) with\n"
        "*Retrieval-Augmented Generation for NLP Tasks* (arXiv:2005.11401).\n"
    )
    found = works(text).works
    assert [(w.identifiers[0].id, w.titles[0].raw) for w in found] == [
        ("2004.04906", "Dense Passage Retrieval for Open-Domain QA"),
        ("2005.11401", "Retrieval-Augmented Generation for NLP Tasks"),
    ]


def test_a_heading_names_the_paper_of_a_one_paper_section_only() -> None:
    """'### Paper: Title' over one paper's id is its title; a section name over a list of
    papers ("Additional Relevant Papers") is nobody's title; nor is the report's title."""
    text = (
        "# A Review of Retrieval Models and Methods\n\nIntro arXiv:2101.00001.\n\n"
        "### Paper 3: Toy Models of Superposition Explained\n- **arXiv**: 2209.10652\n"
        "- **Contribution**: superposition.\n\n## Additional Relevant Papers\n\n"
        "- arXiv:2301.00001\n- arXiv:2301.00002\n"
    )
    by_id = {w.identifiers[0].id: [t.raw for t in w.titles] for w in works(text).works}
    assert by_id == {
        "2101.00001": [],
        "2209.10652": ["Toy Models of Superposition Explained"],
        "2301.00001": [],
        "2301.00002": [],
    }


def test_markers_resolve_and_dangling_labels_are_named() -> None:
    text = (
        "As shown [1][3], and [2025] was a good year.\n\n## Sources\n\n"
        "[1] First source title here https://a.org\n[2] Second source title here https://b.org\n"
    )
    found = works(text)
    assert [(w.label, [m.raw for m in w.markers]) for w in found.works] == [
        ("1", ["[1]"]),
        ("2", []),
    ]
    assert [(label, [m.raw for m in ms]) for label, ms in found.dangling] == [("3", ["[3]"])]
    assert found.notes == ("reference list entry [2] is cited nowhere in the text",)


def test_no_numbered_list_means_nothing_dangles() -> None:
    """A report with no numbered entries has nothing for [3] to dangle from."""
    assert works("As shown [3].\n\n## Notes\n\n- a remark on retrieval\n").dangling == ()


def test_a_quoted_title_before_a_marker_is_that_entrys_title() -> None:
    text = (
        'It follows "Dense Passage Retrieval for Open-Domain QA" [2].\n\n## References\n\n'
        "[2] Karpukhin, V. (2020). Dense passage retrieval for open-domain QA. EMNLP.\n"
    )
    (work,) = works(text).works
    assert [t.kind for t in work.titles] == ["reference", "quoted"]


def test_author_year_resolves_by_first_author_and_year() -> None:
    text = (
        "Lewis et al. (2020) and (Perez, 2021) and (Vygotsky, 1978).\n\n## References\n\n"
        "Lewis, P., & Perez, E. (2020). Retrieval-augmented generation for NLP. NeurIPS.\n"
        "Perez, E. (2021). Another paper on retrieval here. ACL.\n"
    )
    found = works(text)
    assert [[m.raw for m in w.markers] for w in found.works] == [
        ["Lewis et al. (2020)"],
        ["Perez, 2021"],
    ]
    assert [m.raw for m in found.unresolved] == ["Vygotsky, 1978"]
    assert found.has_list


def test_titles_that_cite_by_themselves() -> None:
    """A heading with a year or author, and a quoted title in prose, are works by title; a
    bold sentence and a quoted phrase in lower case are not."""
    text = (
        "### Toy Models of Superposition (Elhage et al., 2022)\n\nText.\n\n"
        "Related work includes “Dense Passage Retrieval for Open-Domain Question Answering”.\n"
        "**This result was never verified by anyone.** He said “the results were very good "
        "indeed” twice.\n"
    )
    found = works(text)
    assert [(w.titles[0].kind, w.titles[0].raw) for w in found.works] == [
        ("heading", "Toy Models of Superposition"),
        ("quoted", "Dense Passage Retrieval for Open-Domain Question Answering"),
    ]
    # Only looked up: they become works if, and only if, a tool returned such a title.
    assert [w.titles[0].raw for w in found.loose] == [
        "This result was never verified by anyone",
        "the results were very good indeed",
    ]


def test_names_of_albums_and_films_are_not_cited_works() -> None:
    """From a real STORM article: quoted or italic Title Case names of albums, recordings and
    films, even with a release year after them, are names, not sources; a name stays one
    wherever else it is written ("his project, “Get the Money,”"). A paper title after a
    year-cued phrase still is a work."""
    text = (
        'The band released several albums, including "Red Light Fever" (2010) and '
        '"Get the Money" (2019) [1].\n\n'
        'He appeared in the acclaimed VHS/DVD "Jagged Little Pill, Live" (1997).\n\n'
        'He recorded with Nancy Wilson on his project, "Get the Money," which was praised in '
        "2019.\n\n"
        "Related work includes “Dense Passage Retrieval for Open-Domain Question Answering” "
        "(2020).\n\n## References\n\n[1] A page about the band https://example.org/band\n"
    )
    found = works(text)
    assert [w.titles[0].raw for w in found.works if w.kind == "inline"] == [
        "Dense Passage Retrieval for Open-Domain Question Answering"
    ]


def test_bold_or_lower_case_prose_before_a_marker_is_not_the_entrys_title() -> None:
    text = (
        "We study the **impact of emerging technologies on open-source work** (Lewis, 2020).\n\n"
        "## References\n\nLewis, P. (2020). *The Impact of Language Models on Open Source*. "
        "SSRN. https://doi.org/10.2139/ssrn.4684662\n"
    )
    (entry,) = [w for w in works(text).works if w.kind == "entry"]
    assert [t.raw for t in entry.titles] == ["The Impact of Language Models on Open Source"]


# A table of papers as a codex literature review wrote it (Hypogenic-AI/llms-are-bad-at-keeping-
# obvious-secrets-e0f3-codex-gpt-6-astra, literature_review.md at 6fdd798): the Paper column
# links the paper, the other columns describe it.
_PAPER_TABLE = (
    "|Paper|Method/result relevant to this project|Use and limit|\n"
    "|---|---|---|\n"
    "|[Yang et al., DOC (2022/ACL2023)](https://arxiv.org/abs/2212.10077)|Hierarchical outlines"
    " plus passage controller over Re3|Cloned outline templates; no secrecy evaluation|\n"
    "|[Hanna & Ameisen (2026)](https://arxiv.org/abs/2604.12493)|Qwen3 scaling; causal forward"
    " and backward licensing tests|Useful causal criterion; simple tasks differ from plots|\n"
)


def test_cells_describing_a_paper_are_not_its_title() -> None:
    """Beside a title column ("Paper"), the other columns' cells are descriptions, and the
    last cell of a row is not the title of the next row's author–year link."""
    found = works(_PAPER_TABLE).works
    assert [(w.identifiers[0].id, [t.raw for t in w.titles]) for w in found] == [
        ("2212.10077", []),
        ("2604.12493", []),
    ]


def test_an_emphasis_inside_a_describing_cell_is_not_the_rows_title() -> None:
    """A Claude review's table (Hypogenic-AI/when-should-an-ai-ask-for-clarification-f275-claude
    @3dd2f1d5, literature_review.md): the italic phrase in the "Mechanism" column was taken as
    the title of the id in the "Paper" column, and warned as not the returned title."""
    text = (
        "| Paper | Year | Mechanism | Note for this hypothesis |\n|---|---|---|---|\n"
        "| INTENT-SIM (2311.09469) | 2023 | Entropy over *simulated user intents* |"
        " Targets aleatoric uncertainty specifically |\n"
    )
    (work,) = works(text).works
    assert [t.raw for t in work.titles] == []


def test_a_title_column_still_gives_the_rows_title() -> None:
    """Under a "Title" header the cell is the row's title, ids in the same row."""
    text = (
        "| Title | arXiv | Notes |\n|---|---|---|\n"
        "| Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks | 2005.11401 |"
        " the RAG paper, used as our baseline |\n"
    )
    (work,) = works(text).works
    assert [t.raw for t in work.titles] == [
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"
    ]
