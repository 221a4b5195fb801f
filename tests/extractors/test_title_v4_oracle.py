"""The title finder's cheaper candidate searches give what they gave before.

``oracle/title_v4.py`` is ``extractors/title.py`` as it was at 6ddfea0 (issue 17, session 9,
before this round): link texts were found by a regex scan of the whole text, the run before
an identifier was cut by one ``rfind`` per kind of cut and a regex over the reversed run,
and every phrase was judged by regexes and a lower-cased copy. Compared on every identifier
of every fixture of the repository, on the benchmark's kind of prose, on long texts with
links and on generated texts; change the oracle with the rules when the rules are meant to
change.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.builtin import default_registry
from groundcheck.extractors.pipeline import _run
from groundcheck.extractors.title import TitleExtractor, adjacent_title
from oracles import load_oracle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

OLD = load_oracle(__file__, "title_v4")
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
    """Every id's span beside it and every title found, as the pipeline hands the ids over
    (each extractor's, before overlaps are resolved), by the default finder and a lax one."""
    mentions = [m for e in _ID_FINDERS for m, _ in _run(e, text)]
    for m in mentions:
        assert adjacent_title(text, m.start, m.end) == OLD.adjacent_title(text, m.start, m.end)
    for new, old in (
        (TitleExtractor(), OLD.TitleExtractor()),
        (TitleExtractor(min_words=1, max_chars=10), OLD.TitleExtractor(min_words=1, max_chars=10)),
    ):
        assert list(new.find_beside(text, mentions)) == list(old.find_beside(text, mentions))


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: str(p.relative_to(ROOT)))
def test_same_titles_in_every_fixture(path: Path) -> None:
    _same_titles(_read(path))


_PROSE = " ".join(
    (
        "the of and a to in is was for on that with as by at from we model results table",
        "method show data train test accuracy baseline improves over prior work section figure",
        "see also 3.5 1.2% 0.05 12.345 2019 2020 p. 45 (n=120) e.g., i.e., et al. [12] v1.2.3",
        "10.5 1024.5678 Attention Is All You Need; (LLMs) (a: b) (²) — “Dense” **Bold Words**",
        "[a link to a paper](http://x.org) [12](y) see: And Or See Also CF In By From E.g I.e",
    )
).split(" ")
_IDS = (
    "2101.03961", "arXiv:2101.03961v2", "https://arxiv.org/abs/2101.03961", "hep-th/9308286",
    "math.AG/0208286v2", "doi:10.1000/j.x.42", "https://doi.org/10.48550/arXiv.2102.44339",
)  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_same_titles_in_benchmark_prose(seed: int) -> None:
    """The kind of text the extraction benchmark times (one long line of prose words, numbers
    and citations, an identifier every few dozen words), some lines broken, some with links
    and non-ASCII characters, long enough for the shared literal search (over 4 KiB)."""
    rng = random.Random(seed)
    words: list[str] = []
    for _ in range(8000):
        roll = rng.random()
        if roll < 0.03:
            words.append(rng.choice(_IDS))
        elif roll < 0.035 and seed % 2:
            words.append("\n")
        else:
            words.append(rng.choice(_PROSE if seed < 4 else _PROSE[:60]))
    _same_titles(" ".join(words))


_PIECES = st.sampled_from(
    [
        "Switch Transformers", "Scaling to Trillion Parameter Models", " ", "\t", "\n", "\n\n",
        ": ", ". ", "; ", ", ", "(", ")", ") ", "[", "]", "](", "{", "}", '"', "“", "”", "*",
        "**", "_", "__", "=", "`", "|", "<", "title={", "Title", "see ", "and ", "also ",
        "e.g. ", "i.e., ", "et al. ", "Et  Al ", "(2020) ", "(n=120) ", "(LLMs) ", "(a: b) ",
        "(²) ", "(①) ", "Ho, Jain & Abbeel 2020", "Smith, J. ", "arXiv:", "2101.03961",
        " 2101.03961 ", " (arXiv:2101.03961) ", "doi:10.1000/xyz ", "www.example.org ",
        "https://arxiv.org/abs/2005.11401 ", "/1234567 ", "1024.5678 ", "12.345 ", "v1.2.3 ",
        "# ", "### ", "- ", "• ", "| ", "1. ", "12) ", "[3] ", "2025-11-13 ", "2025-11-13T10:00 ",
        "é", "İ", "K", "ſ", "ı", "\x1c", "&amp;", "\\emph{", "Related Work", "x" * 40, "y" * 300,
        "—", "-", "'", "’", "AND ", "In ", "From ", "Cf. ", "By ", "Or ", "anderson ", "orbit ",
        "[A link title here](", "[x](", "ArXiv ", "WWW.", "10.", "/",
    ]
)  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(st.lists(_PIECES, max_size=60))
def test_same_titles_in_a_generated_text(pieces: list[str]) -> None:
    _same_titles("".join(pieces))


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=60), st.integers(4096, 6000))
def test_same_titles_in_a_generated_long_text(pieces: list[str], size: int) -> None:
    """Past 4 KiB the literal offsets are shared and searched by SIMD (links found from
    their ``](``)."""
    text = "".join(pieces)
    _same_titles(("filler words " * (size // 13)) + text + " end")


@pytest.mark.parametrize(
    "unit", ["10.1234/&#", "10.1234/&#a", "10.1000/(", "2101.03961 ", "\n10.1/x"]
)
def test_same_titles_in_floods_among_prose(unit: str) -> None:
    """Runs of ids with no letter near them are passed over by the letter-free stretch, which
    starts anew after prose; what is found is the same."""
    prose = "Dense Passage Retrieval for Open-Domain QA (arXiv:2004.04906) and more words. "
    for text in (
        unit * 2000,
        prose + unit * 1000 + prose + unit * 1000 + prose,
        (prose + unit * 30) * 50,
        (unit * 70 + "a") * 30,
    ):
        _same_titles(text)


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
     " and ", "Related Work", "Ho, Jain & Abbeel 2020", "Xu, Li and Jiang, 2025", "Lewis, P. ",
     "&amp;", "{BERT}", "\\emph{x}", "1234.567", "123.4567", "/123456", "9999.9999", " 2025a\n",
     " 2024", "Xu, Li and Jiang 2025a", "&", "19", "20"]
)  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.text(max_size=120), st.lists(_PHRASE_CHARS, max_size=40).map("".join)))
def test_same_verdict_on_a_phrase(phrase: str) -> None:
    """Looks like a title, and its normal form, for several rule settings."""
    for min_words, max_chars in ((1, 300), (2, 300), (3, 300), (5, 300), (3, 40)):
        new = TitleExtractor(min_words=min_words, max_chars=max_chars)
        old = OLD.TitleExtractor(min_words=min_words, max_chars=max_chars)
        assert new._normalized_if_title(phrase) == old._normalized_if_title(phrase)
        assert new._mention(phrase, 0, len(phrase), "adjacent") == old._mention(
            phrase, 0, len(phrase), "adjacent"
        )
