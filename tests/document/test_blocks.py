"""The block scanner: which lines are headings, items, cells, quotes and code, with offsets."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document.blocks import CELL, CODE, HEADING, ITEM, LABEL_LEVEL, PARAGRAPH, scan


def kinds(text: str) -> list[tuple[str, str]]:
    blocks, _, _ = scan(text)
    return [(b.kind, text[b.body : b.end]) for b in blocks]


def test_headings_in_every_syntax() -> None:
    """ATX, setext, LaTeX sections, bold label lines and bare reference-list names."""
    text = (
        "# Title #\n\nSetext heading\n---\n\n\\section{Related Work}\n\n**Sources:**\n\n"
        "References\n\nNot a heading, just a line.\n"
    )
    assert kinds(text) == [
        (HEADING, "Title"),
        (HEADING, "Setext heading"),
        (HEADING, "Related Work"),
        (HEADING, "Sources:"),
        (HEADING, "References"),
        (PARAGRAPH, "Not a heading, just a line."),
    ]
    blocks, _, _ = scan(text)
    assert [b.level for b in blocks[:5]] == [1, 2, 2, LABEL_LEVEL, LABEL_LEVEL]


def test_list_items_and_their_labels() -> None:
    """Numbered, bracketed, lenticular, footnote and link-definition items carry the label a
    marker would use; bullets carry none; a wrapped line continues its item."""
    text = (
        "1. One\n[2] Two\n【3】 Three\n(4) Four\n[^a]: Note a\n[5]: https://x.org/5\n"
        "- bullet\n  continued\n\\bibitem{key} Keyed\n"
    )
    blocks, _, _ = scan(text)
    assert [(b.kind, b.label) for b in blocks] == [
        (ITEM, "1"), (ITEM, "2"), (ITEM, "3"), (ITEM, "4"), (ITEM, "^a"), (ITEM, "5"),
        (ITEM, None), (ITEM, "key"),
    ]  # fmt: skip
    assert text[blocks[6].body : blocks[6].end] == "bullet\n  continued"


def test_tables_give_cells_with_their_column_header() -> None:
    text = "| Paper | Year |\n|---|---|\n| Attention Is All You Need | 2017 |\n"
    blocks, _, _ = scan(text)
    cells = [(text[b.body : b.end], b.header, b.row, b.level) for b in blocks if b.kind == CELL]
    assert cells == [
        ("Paper", "Paper", 0, 1),
        ("Year", "Year", 0, 1),
        ("Attention Is All You Need", "Paper", 1, 0),
        ("2017", "Year", 1, 0),
    ]


def test_code_fences_and_inline_spans_are_code() -> None:
    """Fenced blocks (an unclosed one runs to the end) and inline spans of any length."""
    text = "Prose `x[1]` and ``a ` b``.\n\n```python\nscores[2]\n```\n\n~~~\nunclosed [3]\n"
    blocks, code, _ = scan(text)
    assert [text[a:b] for a, b in code] == [
        "`x[1]`",
        "``a ` b``",
        "```python\nscores[2]\n```",
        "~~~\nunclosed [3]\n",
    ]
    assert [b.kind for b in blocks] == [PARAGRAPH, CODE, CODE]


def test_line_starts_map_offsets() -> None:
    _, _, starts = scan("a\nbb\n\nccc")
    assert list(starts) == [0, 2, 5, 6]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["#", " ", "\n", "|", "-", "*", "`", ">", "1.", "[1]", "[^a]:", "word"]),
        max_size=80,
    ).map("".join)
)
def test_any_text_scans_into_ordered_valid_blocks(text: str) -> None:
    """On any mix of block syntax: no exception, spans inside the text, blocks in order,
    code spans sorted and disjoint, and the same result every time."""
    blocks, code, starts = scan(text)
    assert (blocks, code, starts) == scan(text)
    for b in blocks:
        assert 0 <= b.start <= b.body <= len(text) and b.end <= len(text)
    assert [b.start for b in blocks] == sorted(b.start for b in blocks)
    for (a, b), (c, _) in pairwise(code):
        assert a <= b <= c


def test_a_table_row_hard_wrapped_inside_a_cell_is_one_row() -> None:
    """Exporters wrap long titles (the arXiv API at ~70 characters): ``| A long title that``
    then ``  goes on | arXiv | 2024 |`` is one row, its first cell the whole title."""
    from groundcheck.document.blocks import scan

    text = (
        "| Title | Venue | Year |\n|---|---|---|\n"
        "| FMARS: Annotating Remote Sensing Images for Disaster Management using\n"
        "  Foundation Models | arXiv | 2024 |\n"
        "| Short | NeurIPS | 2020 |\n"
    )
    blocks, _, line_starts = scan(text)
    cells = [(b.line, b.row, " ".join(text[b.body : b.end].split())) for b in blocks]
    assert cells[3:] == [
        (
            3,
            1,
            "FMARS: Annotating Remote Sensing Images for Disaster Management using "
            "Foundation Models",
        ),
        (3, 1, "arXiv"),
        (3, 1, "2024"),
        (5, 2, "Short"),
        (5, 2, "NeurIPS"),
        (5, 2, "2020"),
    ]
    assert len(line_starts) == text.count("\n") + 1


def test_a_row_followed_by_prose_is_not_joined() -> None:
    from groundcheck.document.blocks import scan

    text = "| a | b\nplain prose line\n"
    blocks, _, _ = scan(text)
    assert all("prose" not in text[b.body : b.end] for b in blocks if b.kind == "cell")
