"""``may_be_strong`` says False only where the segmenter finds no strong entry.

The reference finder asks whether a paragraph or item with a year has the shape of a
reference; ``may_be_strong`` answers False without cutting the entry when it has no capital
letter (every author list has one), no link and no year in parentheses (where the looser
"45 et al." form is read). Checked against ``segment(...).strong`` on entries in several
styles, as written and in lower case, on generated entries made of reference-shaped pieces,
and on the benchmark's prose; and the entries found are unchanged on such texts.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document.report import Document
from groundcheck.document.segment import WINDOW, may_be_strong, segment

_STYLES = [
    "Lewis, P., Perez, E., & Piktus, A. (2020). Retrieval-augmented generation for "
    "knowledge-intensive NLP tasks. *Advances in Neural Information Processing Systems*, 33.",
    'P. Lewis and E. Perez, "Retrieval-augmented generation," in Proc. NeurIPS, 2020.',
    "Lewis, P. et al. (2020) 'Retrieval-augmented generation', Advances in NeurIPS, 33.",
    "Lewis P, Perez E, Piktus A. Retrieval-augmented generation. NeurIPS. 2020;33:9459-74.",
    "Patrick Lewis, Ethan Perez, and Aleksandra Piktus. 2020. Retrieval-augmented generation.",
    "[Retrieval-augmented generation](https://arxiv.org/abs/2005.11401) - Lewis et al., 2020",
    "Lewis et al., [Retrieval-augmented generation](https://x.org), NeurIPS 2020.",
    "**Lewis et al. (2020)** Retrieval-augmented generation for NLP.",
    "45 et al. (2020). retrieval-augmented generation.",
]

_PIECES = st.sampled_from(
    [
        "lewis", "perez", "p.", "e.", "lewis, p.", "et al.", "et al", " ", " ", ", ", ". ", "; ",
        "&", "and ", "(2020)", "(2020).", "2020", "2020.", " 2019 - ", "(n.d.)", "(n=120)",
        "(see)", "[12]", "[title words](http://x.org)", "](", "[", "]", "(", ")", '"', "'",
        "“quoted title”", "**bold**", "*venue*", "_x_", "in proc. ", "arxiv:2005.11401",
        "doi:10.1000/x", "https://x.org/a", "retrieval", "augmented", "generation", ":", "-",
        "—", "\n", "45 ", "45 et al. (2020) ", "vaswani et al., 2017", "L", "Lewis, P.", "é",
        "Ā", "x" * 30,
    ]
)  # fmt: skip


def _agrees(text: str) -> None:
    for start in (0, len(text) // 3):
        for end in (len(text), min(len(text), start + 40)):
            if start <= end and not may_be_strong(text, start, end):
                assert not segment(text, start, min(end, start + WINDOW)).strong


@settings(max_examples=3000, deadline=None)
@given(st.lists(_PIECES, max_size=40))
def test_false_only_where_segment_finds_no_strong_entry(pieces: list[str]) -> None:
    _agrees("".join(pieces))


@settings(max_examples=1000, deadline=None)
@given(st.text(st.characters(max_codepoint=127), max_size=200))
def test_false_only_where_segment_finds_no_strong_entry_in_any_ascii(text: str) -> None:
    _agrees(text)


def test_the_styles_in_lower_case() -> None:
    for entry in _STYLES:
        for text in (entry, entry.lower()):
            _agrees(text)
        assert may_be_strong(entry, 0, len(entry))  # a capital: the segmenter decides


def test_lower_case_prose_with_a_year_is_passed_over() -> None:
    """The benchmark's kind of paragraph, and its entries (none) are what they were."""
    rng = random.Random(3)
    words = ("the", "of", "and", "a", "in", "2019", "2020", "p.", "45", "(n=120)", "e.g.,",
             "et", "al.", "[12]", "v1.2.3")  # fmt: skip
    text = " ".join(rng.choice(words) for _ in range(3000))
    assert not may_be_strong(text, 0, len(text))
    assert Document(text).entries == ()
    with_capital = "Lewis, P. (2020). " + text
    assert may_be_strong(with_capital, 0, len(with_capital))
