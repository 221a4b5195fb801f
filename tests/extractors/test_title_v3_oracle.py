"""The title finder's bounded searches beside an identifier give what they gave before.

``oracle/title_v3.py`` is ``extractors/title.py`` as it was at 2524cff (issue 17, before this
round): the run before an id was cut with ``rfind`` over a copied slice (each cut searched the
whole segment), the leading words and the listing's noise were two matches, words were counted
one search at a time, a phrase was tested for an identifier by one five-branch pattern and
for "et al" by a case-insensitive pattern tried at every character, and each title was built
through the validating constructors. Now each search is bounded by offsets, later cuts look
only after the cut found so far, and each test asks for its literal first. Compared on every
identifier of every fixture of the repository, on the benchmark's kind of prose, and on
generated texts; change the oracle with the rules when the rules are meant to change.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.builtin import default_registry
from groundcheck.extractors.pipeline import find_mentions
from groundcheck.extractors.title import (
    _WORD,
    TitleExtractor,
    _words_at_least,
    adjacent_title,
    normalize_title,
)
from oracles import load_oracle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


OLD = load_oracle(__file__, "title_v3")
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


_PROSE = " ".join(
    (
        "the of and a to in is was for on that with as by at from we model results table",
        "method show data train test accuracy baseline improves over prior work section figure",
        "see also 3.5 1.2% 0.05 12.345 2019 2020 p. 45 (n=120) e.g., i.e., et al. [12] v1.2.3",
        "10.5 1024.5678",
    )
).split(" ")
_IDS = (
    "2101.03961", "arXiv:2101.03961v2", "https://arxiv.org/abs/2101.03961", "hep-th/9308286",
    "math.AG/0208286v2", "doi:10.1000/j.x.42", "https://doi.org/10.48550/arXiv.2102.44339",
)  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_same_titles_in_benchmark_prose(seed: int) -> None:
    """The kind of text the extraction benchmark times: one long line of prose words, numbers
    and citations, an identifier every few dozen words (some lines broken, some not)."""
    rng = random.Random(seed)
    words: list[str] = []
    for _ in range(6000):
        roll = rng.random()
        if roll < 0.03:
            words.append(rng.choice(_IDS))
        elif roll < 0.035 and seed % 2:
            words.append("\n")
        else:
            words.append(rng.choice(_PROSE))
    _same_titles(" ".join(words))


_PIECES = st.sampled_from(
    [
        "Switch Transformers", "Scaling to Trillion Parameter Models", " ", "\t", "\n", "\n\n",
        ": ", ". ", "; ", ", ", "(", ")", ") ", "[", "]", "](", "{", "}", '"', "“", "”", "*",
        "**", "_", "__", "=", "`", "|", "<", "title={", "Title", "see ", "and ", "also ",
        "e.g. ", "i.e., ", "et al. ", "Et  Al ", "(2020) ", "(n=120) ", "(LLMs) ", "(a: b) ",
        "(²) ", "Ho, Jain & Abbeel 2020", "Smith, J. ", "arXiv:", "2101.03961", " 2101.03961 ",
        " (arXiv:2101.03961) ", "doi:10.1000/xyz ", "https://arxiv.org/abs/2005.11401 ",
        "www.example.org ", "/1234567 ", "1024.5678 ", "12.345 ", "v1.2.3 ", "# ", "### ",
        "- ", "• ", "| ", "1. ", "12) ", "[3] ", "2025-11-13 ", "2025-11-13T10:00 ", "é", "İ",
        "K", "ſ", "&amp;", "\\emph{", "Related Work", "x" * 40, "y" * 300, "—", "-", "'", "’",
    ]
)  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(st.lists(_PIECES, max_size=60))
def test_same_titles_in_a_generated_text(pieces: list[str]) -> None:
    _same_titles("".join(pieces))


@settings(max_examples=1500, deadline=None)
@given(st.lists(_PIECES, max_size=40), st.lists(_PIECES, max_size=40))
def test_same_title_beside_a_generated_identifier(before: list[str], after: list[str]) -> None:
    head, tail = "".join(before), "".join(after)
    for written in ("2101.03961", "https://arxiv.org/abs/2101.03961"):
        text = f"{head}{written}{tail}"
        start, end = len(head), len(head) + len(written)
        assert adjacent_title(text, start, end) == OLD.adjacent_title(text, start, end)


_PHRASE_CHARS = st.sampled_from(
    [*"abcXYZ019 _-:.,;'\"()[]{}/\\&#\t\n\x1c", "é", "İ", "ı", "K", "ſ", "²", "arxiv", "ArXiv",
     "et al", "ET AL", "et\tal.", "set al", "et\x1cal", "etal", "http://", "https://", "www.",
     "WWW.", "10.1234/", "10.", "2101.03961", "1024.5678", "/1234567", "(2020", "Smith, J. ",
     " and ", "Related Work"]
)  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.text(max_size=120), st.lists(_PHRASE_CHARS, max_size=40).map("".join)))
def test_same_verdict_on_a_phrase(phrase: str) -> None:
    """Looks like a title, and its normal form: the literal guards never change the answer."""
    for min_words in (1, 3, 5):
        new = TitleExtractor(min_words=min_words)
        old = OLD.TitleExtractor(min_words=min_words)
        assert new._normalized_if_title(phrase) == old._normalized_if_title(phrase)
        assert new._mention(phrase, 0, len(phrase), "adjacent") == old._mention(
            phrase, 0, len(phrase), "adjacent"
        )
    assert normalize_title(phrase) == OLD.normalize_title(phrase)


@settings(max_examples=3000, deadline=None)
@given(
    st.one_of(st.text(max_size=80), st.lists(_PHRASE_CHARS, max_size=30).map("".join)),
    st.integers(0, 6),
    st.integers(0, 90),
    st.integers(0, 90),
)
def test_words_counted_in_one_match(text: str, count: int, start: int, end: int) -> None:
    """One anchored match says what counting the word pattern's finds inside the bounds says."""
    expected = len(_WORD.findall(text[start:end])) >= count
    assert _words_at_least(text, count, start, end) == expected
    assert _words_at_least(text[start:end], count) == expected


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join))
def test_leading_words_and_noise_open_only_with_the_listed_characters(rest: str) -> None:
    """The finder skips the leading-words match where the segment opens with another ASCII
    character: from there the match is always empty."""
    from groundcheck.extractors.title import _LEADING_WORDS_NOISE, _MAY_LEAD

    for code in range(128):
        if chr(code) not in _MAY_LEAD:
            m = _LEADING_WORDS_NOISE.match(chr(code) + rest)
            assert m is not None and m.end() == 0
