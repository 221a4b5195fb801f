"""In-text markers and author–year citations: what is one, what is not, and what it names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document import Document


def markers(text: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(m.raw, m.labels) for m in Document(text).markers]


def author_years(text: str) -> list[tuple[str, str, int | None, bool]]:
    return [(m.raw, m.author, m.year, certain) for m, certain in Document(text).author_years]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("as shown [4][9].", [("[4]", ("4",)), ("[9]", ("9",))]),
        ("see [2, 5].", [("[2, 5]", ("2", "5"))]),
        ("see [3–5].", [("[3–5]", ("3", "4", "5"))]),
        ("see [4]–[6].", [("[4]–[6]", ("4", "5", "6"))]),
        ("see [1; 3-4].", [("[1; 3-4]", ("1", "3", "4"))]),
        ("noted【7】.", [("【7】", ("7",))]),
        ("a note[^2].", [("[^2]", ("^2",))]),
        (
            "in \\cite{lewis2020, guu2020}.",
            [("\\cite{lewis2020, guu2020}", ("lewis2020", "guu2020"))],
        ),
        ("in \\citep[p.~4]{lewis2020}.", [("\\citep[p.~4]{lewis2020}", ("lewis2020",))]),
        ("huge [1–99999].", [("[1–99999]", ("1", "99999"))]),  # too long a range to spell out
    ],
)
def test_markers_and_their_labels(text: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert markers(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "[a link](https://example.org)",
        "[1](https://example.org)",
        "`x[1]` and\n\n```\nscores[2]\n```",
        "![1](image.png)",
        "- [ ] a task box, - [x] done",
        "[text][ref] is a reference-style link",
        "[1]: https://example.org is a link definition",
    ],
)
def test_not_markers(text: str) -> None:
    """Links, images, code, task boxes, reference-style links and definitions."""
    assert markers(text) == []


def test_an_entrys_own_label_is_not_a_marker() -> None:
    text = "Cited [2].\n\n## References\n[1] One title here.\n[2] Two title here.\n"
    assert markers(text) == [("[2]", ("2",))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lewis et al. (2020) show", [("Lewis et al. (2020)", "Lewis", 2020, True)]),
        ("Lewis and Perez (2020a) show", [("Lewis and Perez (2020a)", "Lewis", 2020, True)]),
        ("Fedus, Zoph and Shazeer (2022) show",
         [("Fedus, Zoph and Shazeer (2022)", "Fedus", 2022, True)]),
        ("Lewis (2020) shows", [("Lewis (2020)", "Lewis", 2020, False)]),
        ("(Lewis et al., 2020; Karpukhin et al., 2020)",
         [("Lewis et al., 2020", "Lewis", 2020, True), ("Karpukhin et al., 2020", "Karpukhin", 2020, True)]),
        ("(see Lewis & Perez, 2020, p. 4)", [("Lewis & Perez, 2020, p. 4", "Lewis", 2020, True)]),
        ("(Cotton et al.,\n2023)", [("Cotton et al.,\n2023", "Cotton", 2023, True)]),
        ("(van der Berg, 2019)", [("van der Berg, 2019", "van der Berg", 2019, True)]),
    ],
)  # fmt: skip
def test_author_year_citations(text: str, expected: list[tuple[str, str, int, bool]]) -> None:
    assert author_years(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "released in March (2023)",
        "(Figure 2020)",
        "(n = 2020)",
        "(see Table 3, 2020 data)",
        "`Lewis et al. (2020)` in code",
        "(In 2020, things changed)",
    ],
)
def test_not_author_year(text: str) -> None:
    assert [m for m, certain in Document(text).author_years if certain] == []


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["[", "]", "^", "1", "2", "–", ",", " ", "(", ")", "Lewis", "et al.",
                         "2020", ";", "【", "】", "\\cite{", "}", "`", "\n"]),
        max_size=60,
    ).map("".join)
)  # fmt: skip
def test_any_text_gives_markers_inside_it(text: str) -> None:
    doc = Document(text)
    for m in doc.markers:
        assert text[m.start : m.end] == m.raw and m.labels
    for m, _ in doc.author_years:
        assert text[m.start : m.end] == m.raw and m.author and m.year
