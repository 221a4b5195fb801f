"""Which title sits beside which id: the indexed pairing equals the plain definition."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document.layout import Layout, _title_beside
from groundcheck.model import TITLE_SCHEME, Citation, Identifier

_KINDS = st.sampled_from(["adjacent", "quoted", "heading", "emphasis", "link", "reference"])


@st.composite
def _citations(draw: st.DrawFn) -> list[Citation]:
    out = []
    for n in range(draw(st.integers(1, 25))):
        start = draw(st.integers(0, 200))
        end = start + draw(st.integers(1, 30))
        title = draw(st.booleans())
        ident = Identifier(TITLE_SCHEME, f"t{n}") if title else Identifier("arxiv", f"{n}")
        out.append(
            Citation(
                ident, "x" * (end - start), start, end, draw(st.integers(1, 3)), 1,
                kind=draw(_KINDS) if title else "",
            )
        )  # fmt: skip
    out.sort(key=lambda c: (c.start, c.end))
    return out


@settings(max_examples=300, deadline=None)
@given(_citations())
def test_pairing_equals_the_plain_definition(citations: list[Citation]) -> None:
    text = "y" * 300  # one paragraph
    layout = Layout(text, citations)
    titles = [c for c in citations if c.is_title]
    ids = [c for c in citations if not c.is_title]
    for ident in ids:
        assert layout.title_beside(ident) is _title_beside(ident, titles, ids)
