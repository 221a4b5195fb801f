"""The title finder's cheaper tests give what the finder gave before them.

``oracle/title_v2.py`` is ``extractors/title.py`` as it was at ea2905c (issue 17, before the
title finder's cost was cut): whether a phrase looks like a title was decided by running every
test in full (a case-insensitive regex, a word count of the whole phrase, a sum over its
letters), the words beside an identifier were counted in full, ids side by side each had their
span judged, and ``**``/``](``/``itle`` were looked for over the whole text. Now each test runs
only where a literal it needs occurs, stops at the word it needs, and a span is judged once.
Compared on every fixture of the repository and on generated texts; change the oracle with the
rules when the rules are meant to change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.builtin import default_registry
from groundcheck.extractors.pipeline import find_mentions
from groundcheck.extractors.title import TitleExtractor, adjacent_title, normalize_title
from oracles import load_oracle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


OLD = load_oracle(__file__, "title_v2")
_ID_FINDERS = [e for e in default_registry().select(None) if e.name != "title"]


def _fixtures() -> list[Path]:
    suffixes = {".md", ".txt", ".json", ".jsonl", ".tex", ".bib"}
    return [
        p
        for folder in (ROOT / "tests", ROOT / "examples", ROOT / "benchmarks" / "data")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and p.suffix in suffixes
        and "oracle" not in p.parts
        and p.stat().st_size < 1_000_000
    ]


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError:
        return ""


def _same_titles(text: str) -> None:
    mentions = [m for m, _ in find_mentions(text, _ID_FINDERS)]
    for m in mentions:
        assert adjacent_title(text, m.start, m.end) == OLD.adjacent_title(text, m.start, m.end)
    assert list(TitleExtractor().find_beside(text, mentions)) == list(
        OLD.TitleExtractor().find_beside(text, mentions)
    )


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: str(p.relative_to(ROOT)))
def test_same_titles_in_every_fixture(path: Path) -> None:
    _same_titles(_read(path))


_PIECES = st.sampled_from(
    [
        "Switch Transformers", "Scaling to Trillion Parameter Models", " ", "\t", "\n", "\n\n",
        ": ", ". ", "; ", ", ", "(", ")", "[", "]", "](", "{", "}", '"', "“", "”", "*", "**",
        "_", "__", "=", "title={", "TITLE = \"", "Title", "see ", "and ", "et al. ", "Et  Al ",
        "(2020) ", "Ho, Jain & Abbeel 2020", "Smith, J. ", "arXiv:", "ARXIV ", "2101.03961",
        " (arXiv:2101.03961) ", "doi:10.1000/xyz ", "https://arxiv.org/abs/2005.11401 ",
        "www.example.org ", "/1234567 ", "1024.5678 ", "12.345 ", "v1.2.3 ", "# ", "| ",
        "1. ", "[3] ", "é", "İ", "ı", "K", "ſ", "&amp;", "\\emph{", "²", "①", "Related Work",
        "x" * 40, "—", "-", "'", "’",
    ]
)  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(st.lists(_PIECES, max_size=60))
def test_same_titles_in_a_generated_text(pieces: list[str]) -> None:
    _same_titles("".join(pieces))


_PHRASE_CHARS = st.sampled_from(
    [*"abcXYZ019 _-:.,;'\"()[]{}/\\&#\t\n", "é", "İ", "ı", "K", "ſ", "²", "arxiv", "ArXiv",
     "et al", "ET AL", "et\tal.", "http://", "https://", "www.", "10.1234/", "2101.03961",
     "/1234567", "(2020", "Smith, J. ", " and ", "Related Work"]
)  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.text(max_size=120), st.lists(_PHRASE_CHARS, max_size=40).map("".join)))
def test_same_verdict_on_a_phrase(phrase: str) -> None:
    """Looks like a title, and its normal form: the literal guards never change the answer."""
    for min_words in (1, 3, 5):
        new = TitleExtractor(min_words=min_words)
        old = OLD.TitleExtractor(min_words=min_words)
        assert new._normalized_if_title(phrase) == old._normalized_if_title(phrase)
    assert normalize_title(phrase) == OLD.normalize_title(phrase)
