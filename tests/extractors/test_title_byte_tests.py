"""The byte and character tests of the title finder agree with the regexes they stand for.

``_WORD_MARKS`` makes a letter ``a``, another word character ``0``, anything else a space:
the letters are counted by ``count`` and the words (what ``_WORD`` finds) by a split of the
marks with the ``0`` deleted. Compared with ``title_words`` and a letter count on generated
ASCII phrases (the frozen finder, ``oracle/title_v4.py``, is compared with the whole verdict
in test_title_v4_oracle.py).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.title import (
    _LEADING_PAIRS,
    _LEADING_WORDS_NOISE,
    _MAY_LEAD_NOT_LETTER,
    _WORD_MARKS,
    _has_two_words,
    _marked_words_at_least,
    title_words,
)

_ASCII = st.one_of(
    st.text(st.characters(max_codepoint=127), max_size=80),
    st.lists(
        st.sampled_from(["ab", "X", "1", "2019", "_", "'", "-", " ", "\t", "\x1c", ".", "3.5",
                         "a-b", "v1.2.3", "e.g.,", "__x", "9a", "a9", "''", "--", "(n=120)"]),
        max_size=30,
    ).map("".join),
)  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(_ASCII)
def test_words_and_letters_by_marks(text: str) -> None:
    marks = text.encode("ascii").translate(_WORD_MARKS)
    assert marks.count(b"a") == sum(c.isalpha() for c in text)
    words = title_words(text)
    for count in range(1, 7):
        assert _marked_words_at_least(marks, count) == (words >= count)
    assert _has_two_words(text) == (words >= 2)


_BODIES = st.lists(
    st.sampled_from(
        [" ", "\t", "  ", "\x0c", "\x1c", "\xa0", "and ", "AND ", "see ", "also ", "e.g. ", "i.e., ",
         "cf. ", "in ", "by ", "from ", "or ", "anderson ", "orbit ", "ſee ", "ın ", "12. ", "3.5 ",
         "2025-11-13 ", "2025-11-13T10:00 ", "[3] ", "# ", "- ", "+ ", "• ", "٣. ", "Title", "x",
         "(", "“"]
    ),
    max_size=8,
).map("".join)  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(_BODIES)
def test_leading_words_and_noise_only_where_the_test_lets_them(body: str) -> None:
    """Where the first characters after the blanks open neither part, the pattern matches
    nothing (what _adjacent asks before running it)."""
    head = body.lstrip(" \t")
    if not (
        head
        and (
            head[0] in _MAY_LEAD_NOT_LETTER
            or not head[0].isascii()
            or head[:2].lower() in _LEADING_PAIRS
        )
    ):
        assert _LEADING_WORDS_NOISE.match(body).end() == 0  # type: ignore[union-attr]
