"""Texts that repeat themselves (runs of ids, headings written alike) give the titles the
finder gave before it remembered anything between them.

The title finder now keeps, for one text, the stretch last found free of letters (so a run
of ids with no word beside them is searched once, not 600 characters an id) and the title of
each heading text it has read (so headings written alike are judged once). Both are
compared with ``oracle/title_v2.py`` (the finder before either) on generated repetitive
texts, and the letter memo with a plain search on any sequence of questions; the identifier
test of a title candidate with the pattern it replaced.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.builtin import default_registry
from groundcheck.extractors.pipeline import find_mentions
from groundcheck.extractors.title import TitleExtractor
from oracles import load_oracle

OLD = load_oracle(__file__, "title_v2")
_ID_FINDERS = [e for e in default_registry().select(None) if e.name != "title"]

_UNITS = st.sampled_from(
    [
        "10.1234/&#", "10.1234/", "2101.03961 ", "arXiv:2101.03961", "doi:10.1000/xyz ", " ",
        "\n", "# ", "## ", "a", "Scaling Laws for Neural Language Models", "# a\n",
        "## Switch Transformers: Scaling to Trillion Parameter Models\n", "### 1. Toy Models\n",
        "# Related Work\n", "```\n", "(", ")", ". ", "; ", "**", '"', "é", "2005.\n1", "1. ",
    ]
)  # fmt: skip


def _same_titles(text: str) -> None:
    mentions = [m for m, _ in find_mentions(text, _ID_FINDERS)]
    assert list(TitleExtractor().find_beside(text, mentions)) == list(
        OLD.TitleExtractor().find_beside(text, mentions)
    )


@settings(max_examples=800, deadline=None)
@given(st.lists(st.tuples(_UNITS, st.integers(1, 80)), max_size=8))
def test_same_titles_in_a_repetitive_text(runs: list[tuple[str, int]]) -> None:
    _same_titles("".join(unit * times for unit, times in runs))


def test_same_titles_in_floods() -> None:
    for unit in ("10.1234/&#", "10.1234/&#a", "# a\n", "## Scaling Laws for Neural Models\n"):
        _same_titles(unit * 3000)
        _same_titles("Dense Passage Retrieval for QA " + unit * 500 + " and more words here")


_OLD_ID_LIKE = re.compile(r"\d{4}\.\d{4,5}|10\.\d{4,9}/|/\d{7}|https?://|www\.")


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [*"0123456789./ a:hwsAW", "http", "www", "10.", "://", "arxiv", "ArXiv", "١٢"]
        ),
        max_size=40,
    )
)
def test_id_like_test_finds_what_it_found(pieces: list[str]) -> None:
    """The identifier test of an ASCII phrase asks each branch alone, where its literals
    occur; it finds an id-like number, DOI, link or "arXiv" in exactly the texts where the old
    pattern did (and the pattern the non-ASCII path uses agrees with the old one too)."""
    from groundcheck.extractors.title import _ID_LIKE, _LOWER_ALNUM, _id_like_ascii

    text = "".join(pieces)
    old = _OLD_ID_LIKE.search(text) is not None or "arxiv" in text.lower()
    assert (_ID_LIKE.search(text) is not None) == old
    if text.isascii():
        data = text.encode()
        assert _id_like_ascii(text, data, data.translate(_LOWER_ALNUM)) == old
