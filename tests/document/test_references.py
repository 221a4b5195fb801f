"""Which blocks of a report are reference entries, with which labels and parts."""

from __future__ import annotations

import pytest

from groundcheck.document import Document
from groundcheck.document.references import bibtex_entries


def entries(text: str) -> list[tuple[str | None, str | None]]:
    doc = Document(text)
    return [(e.label, text[slice(*e.parts.title)] if e.parts.title else None) for e in doc.entries]


@pytest.mark.parametrize(
    "heading",
    [
        "## References",
        "## 7. Sources",
        "### Bibliography",
        "## Further Reading",
        "## Works Cited",
        "**Sources:**",
        "References:",
        "## 📚 References and further reading",
        "\\section{References}",
    ],
)
def test_every_reference_heading_opens_a_list(heading: str) -> None:
    """Under any of these headings, every item is an entry, shaped like one or not."""
    text = f"{heading}\n\n- Some web page about batteries https://example.org/a\n- Another page\n"
    assert [label for label, _ in entries(text)] == [None, None]


def test_a_section_ends_at_the_next_heading_of_its_level() -> None:
    text = (
        "## References\n\n1. Lewis, P. (2020). Retrieval models today. NeurIPS.\n\n"
        "### Web\n\n2. A page on retrieval models https://x.org\n\n## Appendix\n\n"
        "1. A plain numbered step of the method\n"
    )
    assert entries(text) == [
        ("1", "Retrieval models today"),
        ("2", "A page on retrieval models"),
    ]


def test_reference_syntax_anywhere() -> None:
    """[n], 【n】, footnote and link definitions and \\bibitem are entries wherever they are."""
    text = (
        "Text.\n\n[1] First source title here https://a.org\n【2】 Second source title here\n"
        '[^n]: Footnote source title here\n[3]: https://c.org/page "Third source title here"\n'
        "\\bibitem{k} A. Author, ``Keyed source title here,'' 2020.\n"
    )
    assert entries(text) == [
        ("1", "First source title here"),
        ("2", "Second source title here"),
        ("^n", "Footnote source title here"),
        ("3", "Third source title here"),
        ("k", "Keyed source title here"),
    ]


def test_reference_shaped_items_outside_a_section() -> None:
    """An APA item under any heading is an entry; an ordinary bullet with a year is not."""
    text = (
        "## Key papers\n\n- Lewis, P., & Perez, E. (2020). Retrieval-augmented generation for "
        "NLP. *NeurIPS*. arXiv:2005.11401\n- In 2020, retrieval became popular for QA.\n"
    )
    assert entries(text) == [(None, "Retrieval-augmented generation for NLP")]


def test_lines_of_a_paragraph_are_entries_and_wrapped_entries_stay_whole() -> None:
    text = (
        "## References\n\n"
        "Lewis, P. (2020). Retrieval-augmented generation for knowledge-intensive\n"
        "NLP tasks. NeurIPS. https://arxiv.org/abs/2005.11401\n"
        "Karpukhin, V. (2020). Dense passage retrieval for open-domain question answering.\n"
        "EMNLP. https://arxiv.org/abs/2004.04906\n"
    )
    assert entries(text) == [
        (None, "Retrieval-augmented generation for knowledge-intensive\nNLP tasks"),
        (None, "Dense passage retrieval for open-domain question answering"),
    ]


def test_sub_items_belong_to_their_entry() -> None:
    text = "## Sources\n\n1. **Toy Models of Superposition**\n   - arXiv: 2209.10652\n2. Other\n"
    doc = Document(text)
    first, second = doc.entries
    assert "2209.10652" in text[first.start : first.end]
    assert second.label == "2"


def test_table_rows_of_a_reference_section() -> None:
    text = (
        "## References\n\n| # | Title | Authors | Year |\n|---|---|---|---|\n"
        "| 1 | Attention Is All You Need | Vaswani et al. | 2017 |\n"
    )
    (entry,) = Document(text).entries
    assert entry.label == "1"
    assert entry.parts.title is not None
    assert text[slice(*entry.parts.title)] == "Attention Is All You Need"
    assert entry.parts.year == 2017 and entry.parts.authors == ("Vaswani",)


def test_bibtex_entries_fenced_or_not_and_unclosed() -> None:
    text = (
        "```bibtex\n@article{a, title={First {T}itle Here}, author={Lewis, P. and Perez, E.},"
        ' year={2020}, journal={JMLR}}\n```\n@misc{b, title = "Second", year = 2021,\n'
        "@inproceedings{c, title={Third}}\n"
    )
    found = bibtex_entries(text)
    assert [(e.label, e.parts.year, e.kind) for e in found] == [
        ("a", 2020, "bibtex"),
        ("b", 2021, "bibtex"),
        ("c", None, "bibtex"),
    ]
    assert found[0].parts.authors == ("Lewis, P.", "Perez, E.")
    assert found[0].parts.venue == "JMLR"
    assert text[found[1].start : found[1].end].endswith("2021,\n")  # ends where "@" opens


def test_plain_text_report_with_a_bare_references_line() -> None:
    """Plain text: "REFERENCES" alone on a line heads the entries right under it, and a prose
    sentence citing "Lewis et al. (2020)" is not an entry."""
    text = (
        "Notes\n\nRetrieval augmented generation was introduced by Lewis et al. (2020).\n\n"
        "REFERENCES\nLewis, P., Perez, E. (2020). Retrieval-augmented generation for NLP tasks. "
        "NeurIPS. arXiv:2005.11401\nKarpukhin, V. (2020). Dense passage retrieval for QA. EMNLP.\n"
    )
    assert entries(text) == [
        (None, "Retrieval-augmented generation for NLP tasks"),
        (None, "Dense passage retrieval for QA"),
    ]
    assert {e.section for e in Document(text).entries} == {"REFERENCES"}


@pytest.mark.parametrize(
    "note",
    [
        "[Wird automatisch generiert]",
        "[References to be added]",
        "*[To be generated by the citation compiler]*",
        "_(to be completed)_",
        "(Bibliography will be inserted here.)",
    ],
)
def test_a_bracketed_placeholder_under_a_references_heading_is_no_entry(note: str) -> None:
    """A generated thesis leaves ``[Wird automatisch generiert]`` ("generated automatically")
    under its ``## Literaturverzeichnis`` heading (corpus case multiagent-thesis-german-apa-honest,
    federicodeponte/academic-thesis-ai@5c8e216a, 15_compiled_citations.md): its words were
    read as a cited title and warned as unverified on an honest run."""
    title = "Retrieval-augmented generation for knowledge-intensive NLP tasks"
    text = f"## Literaturverzeichnis\n\n{note}\n\n## References\n\n- Lewis, P. (2020). {title}.\n"
    assert entries(text) == [(None, title)]


@pytest.mark.parametrize(
    "entry",
    [
        "[Attention Is All You Need, 2017]",
        "[Lewis et al., arXiv:2005.11401]",
        "[Retrieval-augmented generation](https://arxiv.org/abs/2005.11401)",
        "Attention Is All You Need",
    ],
)
def test_a_bracketed_entry_with_a_year_an_id_or_a_link_stays_an_entry(entry: str) -> None:
    text = f"## References\n\n{entry}\n"
    assert len(entries(text)) == 1
