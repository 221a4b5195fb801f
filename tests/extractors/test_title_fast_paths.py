"""The title extractor's faster search beside identifiers gives what it gave before.

``oracle/title_v1.py`` is the extractor as it was before (commit 7f6cf4d, issue 17), when
:func:`adjacent_title` looked for each stop character with its own ``rfind``/``find``; now one
regex over the (reversed) window finds the same boundary. Changes meant to change what is
found are applied to the oracle too (2691043: labels after a heading's title, a closing
parenthesis kept), so it stays the old *algorithm* with today's rules. Compared on every identifier of
every fixture in the repository and on generated lines.
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


OLD = load_oracle(__file__, "title_v1")
_ID_FINDERS = [e for e in default_registry().select(None) if e.name != "title"]


def _fixtures() -> list[Path]:
    suffixes = {".md", ".txt", ".json", ".jsonl", ".tex", ".bib"}
    return [
        p
        for folder in (ROOT / "tests", ROOT / "examples")
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


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: str(p.relative_to(ROOT)))
def test_same_titles_beside_every_identifier_of_every_fixture(path: Path) -> None:
    text = _read(path)
    mentions = [m for m, _ in find_mentions(text, _ID_FINDERS)]
    for m in mentions:
        assert adjacent_title(text, m.start, m.end) == OLD.adjacent_title(text, m.start, m.end)
    new = list(TitleExtractor().find_beside(text, mentions))
    old = list(OLD.TitleExtractor().find_beside(text, mentions))
    assert new == old


_PIECES = st.sampled_from(
    [
        "Switch Transformers", " ", "\t", ": ", ". ", "; ", ", ", "(", ")", "[", "]", "{", "}",
        '"', "“", "”", "‘", "’", "'", "<", ">", "|", "`", "*", "_", "=", "\n", "see ", "and ",
        "arXiv:", "https://arxiv.org/abs/", "doi:", "(arXiv:2101.03961) ", "2025-11-13 ", "1. ",
        "[3] ", "Models (LLMs) ", "Scaling to Trillion Parameter Models", "x" * 40, "—", "-",
    ]
)  # fmt: skip


@settings(max_examples=1000, deadline=None)
@given(st.lists(_PIECES, max_size=30), st.lists(_PIECES, max_size=30))
def test_same_title_beside_a_generated_identifier(before: list[str], after: list[str]) -> None:
    head, tail = "".join(before), "".join(after)
    text = f"{head}2101.03961{tail}"
    start = len(head)
    assert adjacent_title(text, start, start + 10) == OLD.adjacent_title(text, start, start + 10)


_TITLE_CHARS = st.sampled_from(
    [*"abcXYZ019 _-:.,;'\"()[]{}\\&#\t\n\r\x0c\xa0", "é", "ﬁ", "Σ", "ß", "İ", "&amp;", "\\emph{"]
)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(st.text(), st.lists(_TITLE_CHARS, max_size=40).map("".join)))
def test_same_normalised_title(title: str) -> None:
    """The ASCII fast path and the one-regex word split give the old normal form."""
    assert normalize_title(title) == OLD.normalize_title(title)
