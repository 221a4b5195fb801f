"""The title extractor reading the collapsed copy of an output finds exactly what it finds in the
output itself (evidence/mentions.py): same mentions, same Evidence, on realistic tool outputs
(Tavily, Exa, Semantic Scholar, OpenAlex, arXiv shapes with titles inside their content fields),
on generated texts and outputs, and on every real trace of the corpus and the fixtures."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence import load_evidence, trace
from groundcheck.evidence.mentions import output_mentions, title_text
from groundcheck.evidence.trace import STRUCTURAL_KEYS, make_evidence
from groundcheck.evidence.walk import flatten
from groundcheck.extractors import Extractor, find_mentions
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.title import TitleExtractor
from groundcheck.model import Evidence, Mention
from groundcheck.text import TextView

TESTS = Path(__file__).resolve().parent.parent

# Pieces of real tool outputs that hold titles, or look as if they might ------------------------

TITLED = [
    'As "Dense Passage Retrieval for Open-Domain Question Answering" showed, retrieval helps.',
    "Builds on **Toy Models of Superposition** and on _Scaling Monosemanticity_ results.",
    "See [Attention Is All You Need](https://arxiv.org/abs/1706.03762) for the architecture.",
    "Switch Transformers: Scaling to Trillion Parameter Models (arXiv:2101.03961)",
    "2005.11401 Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
    "Lewis, P., Perez, E., Piktus, A. (2020). Retrieval-augmented generation for "
    "knowledge-intensive NLP tasks. NeurIPS.",
    "# Retrieval-Augmented Generation\n\nWe study retrieval.",
    "Sparse Attention Survey\n=======================\n\nBody text here.",
    "## References\n\n1. Karpukhin, V. et al. (2020). Dense passage retrieval for open-domain "
    "question answering. EMNLP.\n2. Izacard, G., Grave, E. (2021). Leveraging passage "
    "retrieval with generative models for open domain question answering. EACL.",
    "| Title | Year |\n|---|---|\n| Language Models are Few-Shot Learners | 2020 |",
    "@article{lewis2020, title={Retrieval-Augmented Generation for NLP}, year={2020}}",
    "title = {Leveraging Passage Retrieval with Generative Models}",
    "“Chain-of-Thought Prompting Elicits Reasoning in Large Language Models” (Wei et al.)",
    "**Sources:**\n\n- Language Models are Few-Shot Learners, Brown et al. 2020",
    "Published: 2020-05-22\nTitle: Retrieval-Augmented Generation for Knowledge-Intensive "
    "NLP Tasks\nAuthors: Patrick Lewis, Ethan Perez",
    "```\ntitle: Not A Title Because Code\n```",
    "> Quoted block about Scaling Laws for Neural Language Models",
    "[1] Kaplan, J. et al. Scaling laws for neural language models. arXiv:2001.08361, 2020.",
    "\\section{Deep Residual Learning for Image Recognition}",
]
PLAIN = [
    "We study sparse attention for long context language models and find gains.",
    "Wang, A.",
    "Chen, B. and Silva, C.",
    "2022-09-01",
    "2016",
    "retrieval feedback optimization tool sparse distillation model language retrieval",
    "arxiv_id",
    "abstract",
    "content",
    "references",
    "Sources",
    "notes",
    "arXiv:2209.61034",
    "2209.61034",
    "10.48550/arXiv.2005.11401",
    "https://arxiv.org/abs/2005.11401",
    "PMID: 31452104",
    "3D Gaussian splatting for real-time rendering of radiance fields",
    "1. Not really a list",
    "Graph neural networks (GNNs) in 2019 and beyond",
    "it's the model’s own words",
    "score 0.93",
]


def _records(shape: str, texts: list[str]) -> Any:
    """A search result of ``shape`` whose free-text fields hold ``texts``."""
    t = itertools.cycle(texts)
    if shape == "tavily":
        return {
            "query": "retrieval augmented generation",
            "results": [
                {"title": f"Result {k}: Retrieval Study", "url": f"https://arxiv.org/abs/2005.1140{k}",
                 "content": next(t), "raw_content": next(t), "score": 0.9 - k / 10}
                for k in range(4)
            ],
        }  # fmt: skip
    if shape == "exa":
        return {
            "results": [
                {"id": f"https://example.org/{k}", "title": f"Exa Hit Number {k}",
                 "url": f"https://example.org/{k}", "publishedDate": "2023-06-01T00:00:00.000Z",
                 "author": "Smith, J.", "text": next(t), "highlights": [next(t)]}
                for k in range(4)
            ]
        }  # fmt: skip
    if shape == "semanticscholar":
        return {
            "total": 4,
            "data": [
                {"paperId": f"{k}" * 40, "externalIds": {"ArXiv": f"2101.0396{k}",
                 "DOI": f"10.48550/arXiv.2101.0396{k}", "CorpusId": 1000 + k},
                 "title": f"Semantic Paper {k} About Transformers", "abstract": next(t),
                 "year": 2021, "venue": "NeurIPS", "citationCount": 12,
                 "authors": [{"authorId": "1", "name": "Ada Lovelace"}],
                 "tldr": {"model": "tldr@v2", "text": next(t)}}
                for k in range(4)
            ],
        }  # fmt: skip
    if shape == "openalex":
        return {
            "results": [
                {"id": f"https://openalex.org/W{k}", "doi": f"https://doi.org/10.1000/x{k}",
                 "title": f"OpenAlex Work {k} On Retrieval", "publication_year": 2020,
                 "primary_location": {"source": {"display_name": next(t)}},
                 "authorships": [{"author": {"display_name": "Grace Hopper"}}],
                 "abstract": next(t)}
                for k in range(4)
            ]
        }  # fmt: skip
    return [  # arXiv API entries
        {"id": f"http://arxiv.org/abs/1706.0376{k}v5", "title": f"Arxiv Entry {k} Title Words",
         "summary": next(t), "published": "2017-06-12T17:57:34Z",
         "authors": ["Ashish Vaswani", "Noam Shazeer"], "comment": next(t),
         "links": [{"href": f"http://arxiv.org/pdf/1706.0376{k}v5", "title": "pdf"}]}
        for k in range(4)
    ]  # fmt: skip


SHAPES = ["tavily", "exa", "semanticscholar", "openalex", "arxiv"]


def _as_it_is(
    text: str,
    extractors: Sequence[Extractor],
    blocks: Sequence[str] | None = None,
    starts: Sequence[int] | None = None,
) -> list[tuple[Mention, str]]:
    """What make_evidence found before the copy: every extractor reading the text itself."""
    return find_mentions(text, extractors)


def _both(output: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Evidence, Evidence]:
    new = make_evidence("search", "c1", output, BUILTIN)
    with monkeypatch.context() as m:
        m.setattr(trace, "output_mentions", _as_it_is)
        old = make_evidence("search", "c1", output, BUILTIN)
    return new, old


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("piece", range(len(TITLED)))
def test_titles_inside_content_fields_are_all_kept(
    shape: str, piece: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [PLAIN[(piece + k) % len(PLAIN)] for k in range(10)]
    texts.insert(piece % 7, TITLED[piece])
    new, old = _both(_records(shape, texts), monkeypatch)
    assert new == old


def test_the_copy_is_used_on_a_large_search_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a test that cannot fail: the copy must really be made on the benchmark's shape."""
    output = _records("semanticscholar", PLAIN * 3)["data"] * 10
    view = TextView.of(flatten(output, STRUCTURAL_KEYS).text).text
    ids = [m for e in BUILTIN if e.name != "title" for m in e.find(view)]
    copy = title_text(view, ids)
    assert copy is not None and len(copy[0]) == len(view)
    assert copy[0].count("\n") < view.count("\n") // 2
    new, old = _both(output, monkeypatch)
    assert new == old and new.titles


# Generated texts and outputs ------------------------------------------------------------------

_SEPARATORS = st.sampled_from(["\n\n", "\n\n", "\n\n", "\n", "\n\n\n", "\n \n", "\r\n\r\n"])
_PIECE = st.one_of(st.sampled_from(TITLED), st.sampled_from(PLAIN), st.sampled_from(PLAIN))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_PIECE, _SEPARATORS), min_size=1, max_size=40))
def test_mentions_of_the_copy_equal_mentions_of_the_text(parts: list[tuple[str, str]]) -> None:
    text = TextView.of("".join(p + s for p, s in parts)).text
    assert output_mentions(text, BUILTIN) == find_mentions(text, BUILTIN)


_LEAF = st.one_of(_PIECE, st.integers(0, 3000), st.none())
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["title", "abstract", "text", "source", "links", "id"]),
                        inner, max_size=4),
    ),
    max_leaves=30,
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SHAPES), st.lists(_PIECE, min_size=1, max_size=12), _VALUE)
def test_evidence_of_generated_outputs_is_unchanged(
    shape: str, texts: list[str], extra: Any
) -> None:
    output = {"records": _records(shape, texts), "extra": extra}
    new = make_evidence("search", "c1", output, BUILTIN)
    saved = trace.output_mentions
    trace.output_mentions = _as_it_is
    try:
        old = make_evidence("search", "c1", output, BUILTIN)
    finally:
        trace.output_mentions = saved
    assert new == old


# Every real trace ----------------------------------------------------------------------------

_TRACES = sorted(
    p
    for root in (TESTS / "corpus", TESTS / "evidence" / "fixtures", TESTS / "fixtures")
    for p in root.rglob("*")
    if p.is_file() and p.suffix in (".json", ".jsonl", ".eval")
)


@pytest.mark.parametrize("path", _TRACES, ids=lambda p: str(p.relative_to(TESTS)))
def test_real_traces_give_the_same_evidence(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        new = load_evidence(path).evidence
    except Exception as exc:  # not a trace (a case description, an expected-output file)
        pytest.skip(f"not evidence: {type(exc).__name__}")
    with monkeypatch.context() as m:
        m.setattr(trace, "output_mentions", _as_it_is)
        old = load_evidence(path).evidence
    assert new == old


def test_outputs_of_the_corpus_are_compared() -> None:
    assert len(_TRACES) >= 20 and json.loads  # the corpus and fixtures are where they were


_TOKENS = st.sampled_from(
    ["Word", "word", "Deep Learning", " ", " ", "\n", "\n\n", "\n\n", "2020", "1999", "2005.11401",
     "arXiv:", "10.1000/xyz", '"', "“", "”", "*", "**", "_", "[", "](", ")", "(", "#", "# ", "-",
     "- ", "1. ", "[1] ", "=", "===", "|", "---", "`", "```", "title", "title={", "}", "@article{",
     "References", "Sources:", ",", ".", ":", "et al.", "Lewis, P.", "\t", ">", "\\section{"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PIECE, st.lists(_TOKENS, max_size=12).map("".join)), max_size=60))
def test_the_strings_of_an_output_are_its_blocks(strings: list[str]) -> None:
    """make_evidence hands title_text the flattened strings as the text's blocks when none
    holds a line break: the copy is the one made by splitting the text."""
    strings = [s.replace("\n", " ").replace("\r", " ") for s in strings]
    flat = flatten(strings)
    if not flat.text:
        return  # (make_evidence reads no text then)
    assert flat.text.count("\n") == 2 * (len(flat.strings) - 1)
    view = TextView.of(flat.text, paired=True)
    assert view == TextView.of(flat.text)
    if not view.is_identity:
        return
    ids = [m for e in BUILTIN if e.name != "title" for m in e.find(view.text)]
    title = next(e for e in BUILTIN if isinstance(e, TitleExtractor))
    assert title_text(view.text, ids, title, flat.strings) == title_text(view.text, ids, title)
    assert title_text(view.text, ids, title, flat.strings, flat.starts) == title_text(
        view.text, ids, title
    )
    assert output_mentions(view.text, BUILTIN, flat.strings) == find_mentions(view.text, BUILTIN)
    assert output_mentions(view.text, BUILTIN, flat.strings, flat.starts) == find_mentions(
        view.text, BUILTIN
    )
    # the walk's starts are the sums title_text makes of the blocks
    sums = [0]
    for block in view.text.split("\n\n"):
        sums.append(sums[-1] + len(block) + 2)
    assert list(flat.starts) == sums


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(_TOKENS, max_size=60).map("".join), min_size=1, max_size=4))
def test_mentions_of_the_copy_equal_mentions_of_token_soup(soups: list[str]) -> None:
    plain = "\n\n".join(PLAIN)
    text = TextView.of("\n\n".join(f"{plain}\n\n{soup}" for soup in soups)).text
    assert output_mentions(text, BUILTIN) == find_mentions(text, BUILTIN)


def test_a_bibtex_value_closed_by_a_brace_on_a_later_line_keeps_its_end() -> None:
    """A brace on a line that is otherwise plain closes a BibTeX value opened blocks before:
    such a line is never collapsed (it was, before braces made a line more than prose)."""
    plain = "\n\n".join(["Wang, A."] * 20)
    text = (
        f"{plain}\n\ntitle={{Retrieval Augmented Generation Study\n\nsome words }} more\n\n{plain}"
    )
    found = output_mentions(text, BUILTIN)
    assert found == find_mentions(text, BUILTIN)
    assert [m.kind for m, _ in found if m.kind == "bibtex"] == ["bibtex"]


_ONE_LINE_TOKENS = st.sampled_from(
    ["Word", "word", "Deep Learning", "Models", "of", "the", " ", " ", "\t", "2020", "1999",
     "2005.11401", "arXiv:", "10.1000/xyz", "https://example.org/a", '"', "“", "”", "‘", "’",
     "«", "»", "*", "**", "_", "__", "[", "](", ")", "(", "#", "# ", "-", "- ", "1. ", "1)",
     "[1] ", "=", "|", "`", "```", "title", "title={", "title = ", "{", "}", "@article{",
     "References", "Sources:", "Bibliography", ",", ".", ":", ";", "et al.", "Lewis, P.", ">",
     "\\section{", "\r", "PMID: 31452104", "v2", "2019a", "12", "ü", "—"]
)  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(st.lists(_ONE_LINE_TOKENS, max_size=40).map("".join))
def test_a_one_line_output_reads_as_find_mentions_reads_it(line: str) -> None:
    """One line with no identifier that the copy would call plain is not handed to the title
    extractor (output_mentions): the mentions are those find_mentions finds, titles included."""
    text = TextView.of(line).text
    if "\n" in text:
        return
    assert output_mentions(text, BUILTIN) == find_mentions(text, BUILTIN)


@pytest.mark.parametrize("line", [*PLAIN, *(t for t in TITLED if "\n" not in t)])
def test_one_line_pieces_read_as_find_mentions_reads_them(line: str) -> None:
    assert output_mentions(line, BUILTIN) == find_mentions(line, BUILTIN)


def test_a_plain_line_skips_the_title_extractor(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    title = next(e for e in BUILTIN if isinstance(e, TitleExtractor))
    real = TitleExtractor.find_beside

    def spy(self: TitleExtractor, text: str, ids: Any) -> Any:
        asked.append(text)
        return real(self, text, ids)

    monkeypatch.setattr(TitleExtractor, "find_beside", spy)
    assert output_mentions("No results were found for this query", BUILTIN) == []
    assert asked == []
    quoted = 'See "Dense Passage Retrieval for Open-Domain Question Answering" here'
    assert [n for _, n in output_mentions(quoted, BUILTIN)] == ["title"]
    assert asked == [quoted]
    assert title in BUILTIN
