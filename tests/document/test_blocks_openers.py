"""Two short cuts of the block scanner give what the line-by-line model gave.

A line opening (after its indent) with no bullet, bracket or decimal digit is no list item,
so the item pattern is not asked; and a one-line paragraph longer than a label that does not
open with ``**`` or ``__`` is no label heading, so it is not copied to be asked. Compared
with ``oracle/blocks_v1.py`` on lines opening with every kind of character the item pattern
reads (digits of other scripts among them) and on long one-line paragraphs.
"""

from __future__ import annotations

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document.blocks import scan
from oracles import load_oracle

OLD_BLOCKS = load_oracle(__file__, "blocks_v1")

_OPENERS = st.sampled_from(
    [
        "-", "*", "+", "•", "‣", "▪", "◦", "[", "【", "(", "1", "9", "٣", "３", "߁", "²", "½",
        "a", "Z", "é", " ", "\t", "#", ">", "|", "`", "\\", "_", "=", ".", ")", "]", "】",
    ]
)  # fmt: skip
_RESTS = st.sampled_from(
    [
        "", " ", ". x", ") x", "] x", "】 x", "1] Lewis", "12) x", "3. item", " item", "x",
        "^a]: note", "a]: https://x.org", "KEY-2020] x", "*Sources*", "*Sources:**", "_Notes__",
        "References", " words " * 20, "**" + "bold " * 30 + "**",
    ]
)  # fmt: skip


def _same(text: str) -> None:
    new_blocks, new_code, new_starts = scan(text)
    old_blocks, old_code, old_starts = OLD_BLOCKS.scan(text)
    assert [attrs.astuple(b) for b in new_blocks] == [attrs.astuple(b) for b in old_blocks]
    assert (new_code, list(new_starts)) == (old_code, list(old_starts))


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", " ", "   ", "\t", " " * 13]), _OPENERS, _RESTS)))
def test_lines_opening_with_any_character(lines: list[tuple[str, str, str]]) -> None:
    _same("\n".join(indent + opener + rest for indent, opener, rest in lines))


@settings(max_examples=300, deadline=None)
@given(_OPENERS, _RESTS, st.integers(50, 200))
def test_a_long_one_line_paragraph(opener: str, rest: str, size: int) -> None:
    line = (opener + rest + " words" * size)[: size + 10]
    for text in (line, "x\n\n" + line + "\n\nnext", "**" + line + "**", "__" + line[:60] + "__"):
        _same(text)
