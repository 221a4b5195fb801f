"""Where Markdown puts code: fences, indented blocks, code spans; BibTeX blocks; the limits."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.mdcode import BIBTEX, CODE, CodeRegions, on_indented_line


def kind_of(text: str, needle: str) -> str | None:
    return CodeRegions.of(text).kind_at(text.index(needle))


@pytest.mark.parametrize(
    ("text", "needle", "kind"),
    [
        ("```\ncurl X\n```\nafter", "X", CODE),
        ("```\ncurl X\n```\nafter", "after", None),
        ("~~~~ sh\nX\n~~~~", "X", CODE),
        ("```\nX\n", "X", CODE),  # an unclosed fence runs to the end
        ("```\n``` not a closer\nX\n```\nY", "X", CODE),
        ("```\n``` not a closer\nX\n```\nY", "Y", None),
        ("````\n```\nX\n````\nY", "X", CODE),  # a shorter fence does not close a longer one
        ("```bibtex\n@article{x, url={X}}\n```", "X", BIBTEX),
        ("```\n@misc{k,\n howpublished = {X}}\n```", "X", BIBTEX),
        ("see `X` here", "X", CODE),
        ("see ``a ` X`` here", "X", CODE),
        ("see `a\n\nX` here", "X", None),  # a code span never crosses a blank line
        ("a ` b ``X`` c", "X", CODE),
        ("`a\n```\nx\n```\nX b`", "X", None),  # a span never holds a block
        ("```js\nx\n```\n`X`", "X", CODE),
        ("para\n\n    X code\n\nafter", "X", CODE),
        ("para\n\n    X code\n\nafter", "after", None),
        ("    X at the start", "X", CODE),
        ("para\n    X continues the paragraph", "X", None),
        ("- item\n\n    X continues the item", "X", None),
        ("1. item\n   more\n\n    X continues", "X", None),
        ("text\n\n\tX tab-indented", "X", CODE),
        ("no code at all: X", "X", None),
    ],
)
def test_code_regions(text: str, needle: str, kind: str | None) -> None:
    assert kind_of(text, needle) == kind


def test_on_indented_line() -> None:
    text = "a\n    b\n\tc\n  d"
    assert on_indented_line(text, text.index("b"))
    assert on_indented_line(text, text.index("c"))
    assert not on_indented_line(text, text.index("d"))
    assert not on_indented_line(text, text.index("a"))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["`", "``", "```", "~~~", "\n", "\n\n", "    ", "\t", "x", "- "]),
        max_size=60,
    ).map("".join)
)
def test_regions_are_sorted_and_disjoint(text: str) -> None:
    """On any mix of backticks, fences and indentation the regions are ordered and disjoint."""
    regions = CodeRegions.of(text).regions
    for (s1, e1, _), (s2, _, _) in itertools.pairwise(regions):
        assert s1 < e1 <= s2
    for s, e, _ in regions:
        assert 0 <= s < e <= len(text)
