"""The shapes of one-line blocks that start with a letter, told without ``_shape``, are the ones
``_shape`` tells: the copy of ``title_text`` is unchanged (``oracle/mentions_v1.py``).

Blocks that are no label word, or longer than 80, are prose at once, and blocks that start with
a digit are prose unless they open a numbered item; label words padded to every length around
both bounds, with the blanks and colons ``_label`` strips, must still be read as labels (a
heading that may open a reference section), and numbered items as items.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document.blocks import LABEL_WORDS
from groundcheck.evidence import mentions
from groundcheck.evidence.mentions import _LONGEST_LABEL
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.title import TitleExtractor
from groundcheck.text import TextView
from oracles import load_oracle

OLD_MENTIONS = load_oracle(__file__, "mentions_v1")
TITLE = next(e for e in BUILTIN if isinstance(e, TitleExtractor))


def _same_copy(text: str) -> None:
    view = TextView.of(text).text
    ids = [m for e in BUILTIN if e.name != "title" for m in e.find(view)]
    for extractor in (TITLE, None):
        new = mentions.title_text(view, ids, extractor)
        assert new == OLD_MENTIONS.title_text(view, ids, extractor)


_PLAIN = "\n\n".join(["Wang, A.", "2022-09-01", "retrieval model language"] * 8)


def _padded() -> list[str]:
    found = []
    for word in sorted(LABEL_WORDS):
        wide = (" " * (80 - len(word)), ":" * (81 - len(word)))
        for pad in ("", " ", ":", " :", ":  ", "\t", *wide):
            for case in (word, word.title(), word.upper()):
                found.append(case + pad)
    return found


@pytest.mark.parametrize("block", _padded())
def test_label_words_padded_to_any_length_keep_their_shape(block: str) -> None:
    _same_copy(f"{_PLAIN}\n\n{block}\n\n{_PLAIN}\n\n1. An entry (2020).\n\n{_PLAIN}")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.text(alphabet="ab :\t#-*_=1.)²٣\nRefrncsSou", min_size=1, max_size=90).filter(
            lambda b: "\n\n" not in b
        ),
        min_size=1,
        max_size=12,
    )
)
def test_one_line_blocks_of_every_length_keep_their_shape(blocks: list[str]) -> None:
    _same_copy("\n\n".join([_PLAIN, *blocks, _PLAIN, *blocks]))


@pytest.mark.parametrize(
    "block",
    ["1. Item", "12) x", "1.", "1)", "1.\tx", "10000. x", "123456. x", "1.5 x", "2020-05-01",
     "2005.11401", "²x", "٣. x", "٣x", "1 References", "2 Sources:"],
)  # fmt: skip
def test_blocks_that_start_with_a_digit_keep_their_shape(block: str) -> None:
    _same_copy(f"{_PLAIN}\n\n{block}\n\n{_PLAIN}\n\n{block}\n\n{_PLAIN}")


def test_the_bounds_are_those_of_the_label_words() -> None:
    assert max(map(len, LABEL_WORDS)) == _LONGEST_LABEL < 80
