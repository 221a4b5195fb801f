"""Property-based tests of extraction: never raises, exact spans, idempotent canonical forms."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import extract, identifiers_in
from groundcheck.extractors.builtin import BUILTIN

_pieces = st.sampled_from(
    [
        "arXiv:",
        "arxiv ",
        "2005.11401",
        "v2",
        "1024.5678",
        "hep-th/",
        "9711200",
        "math.AG",
        "/",
        "10.",
        "1000",
        "/xyz",
        "doi:",
        "https://doi.org/",
        "https://arxiv.org/abs/",
        "(",
        ")",
        "<",
        ">",
        ".",
        ",",
        " ",
        "\n",
        "-\n",
        "\u200b",
        "２",
        "．",
        "%2F",
        "48550",
        "arXiv.",
        "0601001",
        "99",
        "13",
        "0",
        "中文",
        "&lt;",
        "[",
        "]",
        "#",
        "?",
    ]
)
texts = st.one_of(st.text(max_size=200), st.lists(_pieces, max_size=40).map("".join))


@settings(max_examples=500, deadline=None)
@given(texts)
def test_extract_never_raises_and_spans_are_exact(text: str) -> None:
    """On any text, extraction returns citations whose raw text is exactly text[start:end]."""
    citations = extract(text, extractors=BUILTIN)
    previous = -1
    for c in citations:
        assert 0 <= c.start <= c.end <= len(text)
        assert text[c.start : c.end] == c.raw
        assert c.raw
        assert c.start >= previous
        previous = c.start
        assert c.line == text.count("\n", 0, c.start) + 1


@settings(max_examples=500, deadline=None)
@given(texts)
def test_canonical_form_is_idempotent(text: str) -> None:
    """A canonical id, written the way its scheme cites it, is found again as the same work."""
    from groundcheck.extractors.registry import scheme_table
    from groundcheck.extractors.url import canonical_url

    schemes = scheme_table(BUILTIN)
    for c in extract(text, extractors=BUILTIN):
        if c.malformed is not None or c.scheme == "title":
            continue  # a title's canonical form is plain text, by design not a title again
        if c.scheme == "url":  # a URL key is its own canonical form
            assert canonical_url(c.id) == c.id
            continue
        written = schemes[c.scheme].cite(c.identifier)
        again = identifiers_in(written, BUILTIN)
        assert c.identifier in again, (c.identifier, written, again)


@settings(max_examples=200, deadline=None)
@given(texts)
def test_extraction_is_deterministic(text: str) -> None:
    """Same text, same citations, in the same order."""
    assert extract(text, extractors=BUILTIN) == extract(text, extractors=BUILTIN)


def test_cost_grows_linearly(linear: Callable[..., None]) -> None:
    """Four times the text, at most about four times the work (function calls counted; no
    quadratic blow-up). Speed itself is measured in benchmarks/."""
    unit = "See arXiv:2005.11401v2, hep-th/9711200 and doi:10.1000/xyz.1 (1024.5678). " * 200
    linear(lambda t: extract(t, extractors=BUILTIN), unit * 8)
