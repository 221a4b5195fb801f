"""``extract --format json`` written per citation gives the generic encoder's bytes.

:mod:`groundcheck.render.citations` writes each citation with an f-string instead of a dict
and ``json.dumps``; the generic path (``dumps([c.to_dict() ...], compact=True)``) is the oracle,
compared on generated citations (any text in every string: quotes, backslashes, controls,
surrogates, astral characters), on odd values a plug-in may put in a field, and through
``render`` on a real report.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import extract
from groundcheck.model import Citation, Identifier, dumps
from groundcheck.render import RenderContext, render
from groundcheck.render.citations import citations_json

_TEXT = st.text(st.characters(codec=None, blacklist_categories=()), max_size=12)


def _generic(citations: list[object]) -> str:
    data = [c.to_dict() if hasattr(c, "to_dict") else c for c in citations]
    return dumps(data, indent=None, compact=True)


@st.composite
def _citation(draw: st.DrawFn) -> Citation:
    ident = Identifier(
        draw(_TEXT.filter(bool)),
        draw(_TEXT.filter(bool)),
        draw(st.none() | st.integers(0, 10**12)),
    )
    start = draw(st.integers(0, 10**9))
    return Citation(
        ident,
        draw(_TEXT),
        start,
        start + draw(st.integers(0, 99)),
        draw(st.integers(0, 10**6)),
        draw(st.integers(0, 10**6)),
        draw(_TEXT),
        draw(st.none() | _TEXT),
        (),
        draw(st.none() | _TEXT),
        draw(_TEXT),
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(_citation(), max_size=6))
def test_same_bytes_as_the_generic_encoder(citations: list[Citation]) -> None:
    assert citations_json(citations) == _generic(list(citations))


class _Subclass(Citation):
    def to_dict(self) -> dict[str, object]:
        return {"mine": True}


def test_odd_values_take_the_generic_path() -> None:
    base = Citation(Identifier("x", "y"), "raw", 0, 3, 1, 1)
    odd: list[object] = [
        Citation(Identifier("x", "y", True), "raw", 0, 3, 1, 1),  # type: ignore[arg-type]
        Citation(Identifier("x", "y", "2"), "raw", 0, 3, 1, 1),  # type: ignore[arg-type]
        Citation(Identifier("x", "y"), "raw", True, 3, 1, 1),
        Citation(Identifier("x", "y"), "raw", 0, 3, 1, 1, kind=7),  # type: ignore[arg-type]
        Citation(Identifier("x", "y"), "raw", 0, 3, 1, 1, source=1),  # type: ignore[arg-type]
        _Subclass(Identifier("x", "y"), "raw", 0, 3, 1, 1),
        {"not": "a citation"},
        base,
    ]
    for item in odd:
        assert citations_json([item, base]) == _generic([item, base])


def test_render_gives_the_generic_bytes_on_a_real_report() -> None:
    report = Path(__file__).parents[1] / "corpus"
    texts = sorted(report.rglob("*.md"))[:20]
    assert texts
    for path in texts:
        citations = extract(path.read_text(encoding="utf-8"))
        out = render("citations", "json", citations, RenderContext())
        assert out == _generic(list(citations)) + "\n"
        indented = render("citations", "json", citations, RenderContext(indent=2))
        assert indented == dumps([c.to_dict() for c in citations], indent=2)
