"""Reference entries cut by structure, in every common style: the title is never the venue or
the author list. Each row is a real reference written the way the style's guide writes it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document.authors import looks_like_authors, split_authors, surname, surname_key
from groundcheck.document.segment import segment

RAG = "Retrieval-augmented generation for knowledge-intensive NLP tasks"

STYLES = [
    (  # APA 7, journal: the italic venue after the title
        "Lewis, P., Perez, E., & Piktus, A. (2020). Retrieval-augmented generation for "
        "knowledge-intensive NLP tasks. *Advances in Neural Information Processing Systems*, "
        "*33*, 9459–9474. https://doi.org/10.5555/3495724.3496517",
        RAG, "Lewis, P.", 2020, "Advances in Neural Information Processing Systems",
    ),
    (  # APA, no period after the year, arXiv
        "Lewis, P., Perez, E. (2020) Retrieval-augmented generation for knowledge-intensive "
        "NLP tasks. arXiv. https://arxiv.org/abs/2005.11401",
        RAG, "Lewis, P.", 2020, "arXiv",
    ),
    (  # APA book: the italic right after the year is the title
        "Kahneman, D. (2011). *Thinking, fast and slow*. Farrar, Straus and Giroux.",
        "Thinking, fast and slow", "Kahneman, D.", 2011, "Farrar, Straus and Giroux",
    ),
    (  # APA with a question mark inside the title and an elided author list
        "Kasneci, E., Sessler, K., ... & Kasneci, G. (2023). ChatGPT for good? On opportunities "
        "and challenges of large language models for education. *Learning and Individual "
        "Differences*, *103*, 102274.",
        "ChatGPT for good? On opportunities and challenges of large language models for "
        "education", "Kasneci, E.", 2023, "Learning and Individual Differences",
    ),
    (  # Harvard: single quotes
        "Lewis, P. et al. (2020) 'Retrieval-augmented generation for knowledge-intensive NLP "
        "tasks', Advances in NeurIPS, 33, pp. 9459-9474.",
        RAG, "Lewis, P.", 2020, "Advances in NeurIPS, 33, pp. 9459-9474",
    ),
    (  # Chicago author-date
        'Lewis, Patrick, Ethan Perez, and Aleksandra Piktus. 2020. "Retrieval-Augmented '
        'Generation for Knowledge-Intensive NLP Tasks." In Advances in Neural Information '
        "Processing Systems 33.",
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", "Lewis", 2020,
        "Advances in Neural Information Processing Systems 33",
    ),
    (  # IEEE
        'P. Lewis, E. Perez, and A. Piktus, "Retrieval-augmented generation for '
        'knowledge-intensive NLP tasks," in Proc. NeurIPS, 2020, pp. 9459–9474.',
        RAG, "P. Lewis", 2020, "in Proc. NeurIPS",
    ),
    (  # ACM
        "Patrick Lewis, Ethan Perez, and Aleksandra Piktus. 2020. Retrieval-Augmented "
        "Generation for Knowledge-Intensive NLP Tasks. In Advances in Neural Information "
        "Processing Systems 33. 9459–9474.",
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", "Patrick Lewis",
        2020, "Advances in Neural Information Processing Systems 33",
    ),
    (  # Vancouver: initials without periods
        "Lewis P, Perez E, Piktus A. Retrieval-augmented generation for knowledge-intensive "
        "NLP tasks. Adv Neural Inf Process Syst. 2020;33:9459-74.",
        RAG, "Lewis P", 2020, "Adv Neural Inf Process Syst",
    ),
    (  # MLA
        'Lewis, Patrick, et al. "Retrieval-Augmented Generation for Knowledge-Intensive NLP '
        'Tasks." Advances in Neural Information Processing Systems, vol. 33, 2020.',
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", "Lewis", 2020,
        "Advances in Neural Information Processing Systems, vol. 33",
    ),
    (  # LaTeX thebibliography: ties and ``quotes''
        "P.~Lewis, E.~Perez, et~al., ``Retrieval-augmented generation for knowledge-intensive "
        "{NLP} tasks,'' in \\emph{NeurIPS}, 2020.",
        "Retrieval-augmented generation for knowledge-intensive {NLP} tasks", "P. Lewis", 2020,
        None,
    ),
    (  # Markdown link list
        "[Attention Is All You Need](https://arxiv.org/abs/1706.03762) - Vaswani et al., 2017",
        "Attention Is All You Need", "Vaswani", 2017, None,
    ),
    (  # footnote with a link after the authors
        "Lewis et al., [Retrieval-Augmented Generation for Knowledge-Intensive NLP "
        "Tasks](https://arxiv.org/abs/2005.11401), NeurIPS 2020.",
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", "Lewis", 2020, None,
    ),
    (  # agent listing: bold title first
        "**Attention Is All You Need** - Vaswani et al., 2017 - arXiv:1706.03762",
        "Attention Is All You Need", "Vaswani", 2017, None,
    ),
    (  # deep-research source: title, site, URL
        "Toyota says it is on track to launch solid-state battery EVs in 2027-28 - Reuters "
        "https://www.reuters.com/business/autos/toyota",
        "Toyota says it is on track to launch solid-state battery EVs in 2027-28", None, None,
        None,
    ),
    (  # the identifier first
        "arXiv:2005.11401 — Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", None, None, None,
    ),
    (  # a title with its year, and a site in parentheses
        "Toy Models of Superposition (2022) (transformer-circuits.pub)",
        "Toy Models of Superposition", None, 2022, None,
    ),
    (  # an organisation as author
        "OpenAI. (2023). GPT-4 Technical Report. arXiv:2303.08774",
        "GPT-4 Technical Report", "OpenAI.", 2023, None,
    ),
]  # fmt: skip


@pytest.mark.parametrize(("entry", "title", "first", "year", "venue"), STYLES)
def test_each_style_is_cut_into_its_parts(
    entry: str, title: str, first: str | None, year: int | None, venue: str | None
) -> None:
    parts = segment(entry, 0, len(entry))
    assert parts.title is not None
    assert entry[slice(*parts.title)] == title
    assert (parts.authors[0] if parts.authors else None) == first
    assert parts.year == year
    if venue is not None:
        assert parts.venue == venue


def test_italic_venue_and_author_list_are_never_the_title() -> None:
    """The failure the issue reports: "Frontiers in Education" or the authors taken as the
    title beside a DOI."""
    entry = (
        "Smith, J., & Doe, A. (2021). Teaching with AI tools. *Frontiers in Education*, 6, 1-10. "
        "https://doi.org/10.3389/feduc.2021.123"
    )
    parts = segment(entry, 0, len(entry))
    assert parts.title is not None and entry[slice(*parts.title)] == "Teaching with AI tools"
    assert parts.venue == "Frontiers in Education"
    assert parts.urls == ("https://doi.org/10.3389/feduc.2021.123",)


def test_strong_shape_needs_authors_and_a_year() -> None:
    """Outside a reference section an item is an entry only when shaped like one."""
    for entry, strong in [
        ("Lewis, P. (2020). Retrieval-augmented generation. NeurIPS.", True),
        ("Lewis et al. (2020) showed that retrieval helps.", False),
        ("As “Dense Passage Retrieval for QA” shows (arXiv:2004.04906).", False),
        ('P. Lewis, "Retrieval-augmented generation," NeurIPS, 2020.', True),
    ]:
        assert segment(entry, 0, len(entry)).strong is strong, entry


def test_authors_in_every_style() -> None:
    assert split_authors("Lewis, P., Perez, E., & Piktus, A.") == (
        "Lewis, P.", "Perez, E.", "Piktus, A.",
    )  # fmt: skip
    assert split_authors("Lewis P, Perez E, Piktus A") == ("Lewis P", "Perez E", "Piktus A")
    assert [surname(n) for n in ("Lewis, P.", "P. Lewis", "Lewis P", "Patrick Lewis")] == [
        "Lewis"
    ] * 4
    assert surname_key("de Vries") == surname_key("De Vries") == "vries"
    for not_authors in ("Attention Is All You Need", "Frontiers in Education", "As", "In"):
        assert not looks_like_authors(not_authors)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["Lewis, P.", " (2020). ", "Title words here", ". ", "*Venue*", '"Quoted title,"',
             "[Link text](https://x.org/a)", " https://doi.org/10.1/x", "et al.", " - ", "?",
             "2005.11401", "(", ")", "**", "``", "''", "~"]
        ),
        max_size=30,
    ).map("".join)
)  # fmt: skip
def test_any_entry_segments_into_valid_spans(entry: str) -> None:
    """On any entry-like text: no exception, a title span inside the entry, deterministic."""
    parts = segment(entry, 0, len(entry))
    assert parts == segment(entry, 0, len(entry))
    if parts.title is not None:
        start, end = parts.title
        assert 0 <= start < end <= len(entry)
