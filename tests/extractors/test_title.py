"""Title candidates in a report: what counts as a title, and how it was written."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.errors import ConfigError
from groundcheck.extractors.title import TitleExtractor

FIND = TitleExtractor()


def found(text: str) -> list[tuple[str, str]]:
    return [(m.kind, text[m.start : m.end]) for m in FIND.find(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('As "Attention Is All You Need" shows', [("quoted", "Attention Is All You Need")]),
        ("As “Attention Is All You Need” shows", [("quoted", "Attention Is All You Need")]),
        (
            "*Deep Residual Learning for Image Recognition*",
            [("emphasis", "Deep Residual Learning for Image Recognition")],
        ),
        (
            "**Deep Residual Learning for Image Recognition**",
            [("emphasis", "Deep Residual Learning for Image Recognition")],
        ),
        (
            "_Deep Residual Learning for Image Recognition_",
            [("emphasis", "Deep Residual Learning for Image Recognition")],
        ),
        (
            "[Deep Residual Learning for Image Recognition](https://x.org)",
            [("link", "Deep Residual Learning for Image Recognition")],
        ),
        (
            "## Deep Residual Learning for Image Recognition",
            [("heading", "Deep Residual Learning for Image Recognition")],
        ),
        (
            "title = {{BERT}: Pre-training of Deep Bidirectional Transformers},",
            [("bibtex", "{BERT}: Pre-training of Deep Bidirectional Transformers")],
        ),
        (
            'title = "Layer Normalization Explained Simply",',
            [("bibtex", "Layer Normalization Explained Simply")],
        ),
        (
            "[3] Lewis, P., Perez, E., et al. (2020). Retrieval-augmented generation for knowledge-intensive NLP tasks. NeurIPS.",
            [("reference", "Retrieval-augmented generation for knowledge-intensive NLP tasks")],
        ),
        (
            "- Vaswani, A. et al. Attention is all you need. In NeurIPS 2017.",
            [("reference", "Attention is all you need")],
        ),
        (  # regression: a lower-case "arXiv:" after the title kept the id in the segment
            "3. Asai, A., et al. (2023). Self-RAG: Learning to retrieve and critique. arXiv:2310.11511",
            [("reference", "Self-RAG: Learning to retrieve and critique")],
        ),
        (
            "Dense Passage Retrieval for QA (arXiv:2004.04906) is strong.",
            [("adjacent", "Dense Passage Retrieval for QA")],
        ),
        (
            "2101.03961 Switch Transformers: Scaling to Trillion Parameter Models",
            [("adjacent", "Switch Transformers: Scaling to Trillion Parameter Models")],
        ),
    ],
)
def test_candidates(text: str, expected: list[tuple[str, str]]) -> None:
    """Each way of writing a title yields it, trimmed, with its kind."""
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        '"Two words"',  # too short
        "*very* important",
        "## Related Work",
        "## References",
        "*Lewis et al., 2020*",
        '"see https://example.org/page for more"',
        '"arXiv:2005.11401 and more words"',
        "snake_case_name and other_name_here",
        "x" * 50,
        "Lewis et al. (2020), arXiv:2005.11401.",
        "## 2023",
        "2. Ho, Jain & Abbeel (2020). NeurIPS.",  # regression: the author-year segment
    ],
)
def test_not_titles(text: str) -> None:
    """Short phrases, section names, author lines, URLs and ids are not titles."""
    assert found(text) == []


def test_min_words_and_stop_phrases_are_tunable() -> None:
    strict = TitleExtractor(min_words=5, stop_phrases={"Deep Residual Learning Overview"})
    assert list(strict.find('"Attention Is All You Need"')) != []
    assert list(strict.find('"Layer Normalization Explained"')) == []
    assert list(strict.find("## Deep Residual Learning Overview")) == []
    with pytest.raises(ConfigError, match="min_words"):
        TitleExtractor(min_words=0)


def test_identifier_is_normalised_title() -> None:
    (m,) = FIND.find('"{BERT}: Pre-Training of Deep Models"')
    assert m.identifier.scheme == "title"
    assert m.identifier.id == "bert pre training of deep models"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([*'ab #*_[]()"“”:.-\n10/', "2005.11401", "et al", "Word ", "title = {"]),
        max_size=120,
    ).map("".join)
)
def test_never_raises_and_spans_are_valid(text: str) -> None:
    """On any mix of markup, ids and words: no exception, spans inside the text."""
    for m in FIND.find(text):
        assert 0 <= m.start < m.end <= len(text)
        assert m.identifier.id


def test_titles_beside_ids_from_any_extractor() -> None:
    """Through the pipeline, the title extractor reads the ids the other extractors found,
    a user's PMID extractor included, instead of searching for ids itself."""
    import re as regex_module

    from groundcheck.extractors import extract
    from groundcheck.extractors.builtin import builtin_registry
    from groundcheck.model import Identifier, Mention

    registry = builtin_registry()

    @registry.extractor("rfc")
    def rfc(text: str):  # type: ignore[no-untyped-def]
        for m in regex_module.finditer(r"RFC\s*(\d+)", text):
            yield Mention(Identifier("rfc", m[1]), m.start(1), m.end(1))

    text = "Hypertext Transfer Protocol Semantics Explained (RFC 9110)."
    found = [(c.scheme, c.raw) for c in extract(text, registry)]
    assert ("title", "Hypertext Transfer Protocol Semantics Explained") in found
    assert ("rfc", "9110") in found


def test_packed_json_gives_no_title_fragments() -> None:
    """Regression: in '..."title":"X Y Z","url":"https://arxiv.org/abs/ID"' the words before
    the glued URL were taken as a title, a fragment of X Y Z."""
    text = '[{"title":"Improving Dictionary Learning with Gated Sparse Autoencoders","url":"https://arxiv.org/abs/2404.16014"}]'
    titles = [text[m.start : m.end] for m in FIND.find(text)]
    assert titles == ["Improving Dictionary Learning with Gated Sparse Autoencoders"]


def test_reference_with_a_quoted_title_is_taken_by_the_quote() -> None:
    """Regression: a reference entry holding a quoted title also yielded the unquoted segment
    with the closing quote and the venue glued on."""
    text = '- "Towards Monosemanticity: Decomposing Language Models" (Anthropic, 2023)'
    assert found(text) == [("quoted", "Towards Monosemanticity: Decomposing Language Models")]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="{}ab", max_size=300), st.lists(st.integers(0, 300), max_size=40))
def test_brace_matching_equals_the_scan(text: str, starts: list[int]) -> None:
    """Past the first few values, BibTeX ends come from one brace-matching pass: the same
    ends as scanning each value."""
    from groundcheck.extractors.title import _Closers, _closing

    closers = _Closers(text)
    for start in sorted({s for s in starts if 0 < s <= len(text) and text[s - 1] == "{"}):
        assert closers.closing(start, "{") == _closing(text, start, "{")


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        # Hypogenic-AI/novel-bio-mechanisms-c075-claude, literature_review.md (a45205d):
        # the label after the citation ended up inside the title.
        (
            "### Paper 3: Interpreting and Steering PLMs (Villegas Garcia & Ansuini, 2025)"
            " — **CORE**",
            "Interpreting and Steering PLMs",
        ),
        (
            "### Toy Models of Superposition — *Elhage et al., 2022* ⭐",
            "Toy Models of Superposition",
        ),
        (
            "### Sparse Autoencoders Find Features [HIGH PRIORITY]",
            "Sparse Autoencoders Find Features",
        ),
        (
            "### Language Models are Few-Shot Learners - ESSENTIAL ✅",
            "Language Models are Few-Shot Learners",
        ),
        # a subtitle after a dash has lower-case words: it stays
        (
            "### BERTology Meets Biology — Interpreting Attention in Protein Language Models",
            "BERTology Meets Biology — Interpreting Attention in Protein Language Models",
        ),
        # a parenthesis with capitals only and no dash is part of the title
        (
            "### Holistic Evaluation of Language Models (HELM)",
            "Holistic Evaluation of Language Models (HELM)",
        ),
    ],
)
def test_labels_after_a_heading_title_are_not_the_title(heading: str, title: str) -> None:
    """Tags agents put after a heading's title (bold labels, capitals, emoji) are cut off."""
    found = [m for m in TitleExtractor().find(heading) if m.kind == "heading"]
    assert [heading[m.start : m.end] for m in found] == [title]


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        # Hypogenic-AI/is-there-a-sounds-like-ai-direction-511e-claude-opus-5-5@ffb13e40,
        # literature_review.md: every key paper is a heading "id — title (authors) [tag]"
        (
            "### 2608.24780 — Linear Probing Provides Robust and Efficient Detection of MGT"
            " (Quaremba et al., 2026, EMNLP) [user-specified]",
            "Linear Probing Provides Robust and Efficient Detection of MGT",
        ),
        ("### 2601.10387 — The Assistant Axis (Lu et al., 2026, Anthropic)", "The Assistant Axis"),
        ("## arXiv:2005.11401: Retrieval-Augmented Generation for NLP",
         "Retrieval-Augmented Generation for NLP"),
        ("### [2106.09685] - LoRA: Low-Rank Adaptation", "LoRA: Low-Rank Adaptation"),
        ("### 10.1038/nature14539 — Deep learning review", "Deep learning review"),
        ("### hep-th/9711200: The Large N Limit of Superconformal Field Theories",
         "The Large N Limit of Superconformal Field Theories"),
    ],
)  # fmt: skip
def test_an_identifier_leading_a_heading_is_not_part_of_its_title(
    heading: str, title: str
) -> None:
    found = [m for m in TitleExtractor().find(heading) if m.kind == "heading"]
    assert [heading[m.start : m.end] for m in found] == [title]


@pytest.mark.parametrize("line", ["### Sparse Autoencoders Find Features (2309.08600)",
                                  "- Sparse Autoencoders Find Features (2309.08600)"])  # fmt: skip
def test_a_title_beside_an_id_starts_after_the_heading_marks_or_the_bullet(line: str) -> None:
    from groundcheck.extractors.title import adjacent_title

    at = line.index("2309")
    span = adjacent_title(line, at, at + 10)
    assert span is not None and line[slice(*span)] == "Sparse Autoencoders Find Features"


@pytest.mark.parametrize(
    "lead",
    ["Panickssery, Bowman & Feng 2024", "Xu, Li and Jiang, 2025", "Kim & Khashabi 2025"],
)
def test_bold_surnames_and_a_year_are_not_a_title(lead: str) -> None:
    """Hypogenic-AI/do-llms-behave-differently-when-6bce-claude-opus-5-5 (literature_review.md
    at 89e7f0a) leads paragraphs with '**Panickssery, Bowman & Feng 2024** (arXiv 2404.13076)':
    the authors of the paper cited next, which became its title and a warning."""
    text = f"**{lead}** (arXiv 2404.13076, NeurIPS 2024)\n"
    assert [text[m.start : m.end] for m in TitleExtractor().find(text)] == []


def test_a_title_with_an_ampersand_and_a_year_is_still_a_title() -> None:
    """Words that are not all capitalised surnames stay a title."""
    text = "**Pride and Prejudice in Language Models 2024**\n"
    assert [text[m.start : m.end] for m in TitleExtractor().find(text)] == [
        "Pride and Prejudice in Language Models 2024"
    ]
