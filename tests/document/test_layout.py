"""Which title sits beside which id: the windowed lookup equals the plain definition."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document import Layout
from groundcheck.extractors import extract
from groundcheck.model import Citation

PIECES = [
    "arXiv:2005.11401", "10.1000/abc", "hep-th/9711200", '"Attention Is All You Need"',
    "*Deep Residual Learning*", "Dense Passage Retrieval", " (", ") ", ", ", " and ", "\n",
    "\n\n", "## Retrieval Augmented Generation\n", "[Graph RAG](https://arxiv.org/abs/2404.16130)",
    " see ", "2404.16130 Graph RAG for query-focused summarisation\n",
]  # fmt: skip


def _plain_title_beside(layout: Layout, identifier: Citation) -> Citation | None:
    """The definition, written out naively (ids x titles x ids), to compare against."""
    block = layout.block(identifier.start)
    candidates = layout._titles.get(block, [])
    others = [c for c in layout._ids.get(block, []) if c is not identifier]

    def clear(lo: int, hi: int) -> bool:
        return not any(lo <= c.start and c.end <= hi for c in others)

    start, end = identifier.start, identifier.end
    before = [t for t in candidates if t.end <= start and clear(t.end, start)]
    after = [t for t in candidates if t.start >= end and clear(end, t.start)]
    for pool, on_line in ((before, True), (after, True), (before, False), (after, False)):
        chosen = [t for t in pool if (t.line == identifier.line) == on_line]
        if on_line is False:
            chosen = [t for t in chosen if t.kind != "adjacent"]
        if chosen:
            return min(
                chosen,
                key=lambda t: (
                    t.kind == "adjacent",
                    start - t.end if t.end <= start else t.start - end,
                ),
            )
    return None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_title_beside_equals_its_definition(text: str) -> None:
    citations = extract(text)
    layout = Layout(text, citations)
    for c in citations:
        if not c.is_title and c.source is None:
            assert layout.title_beside(c) is _plain_title_beside(layout, c)
