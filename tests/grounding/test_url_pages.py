"""A cited URL whose page a tool returned under other parameters is a warning, not an error."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import groundcheck
from groundcheck.extractors.urlkey import canonical_url
from groundcheck.grounding.url_pages import PageIndex, page_of
from groundcheck.model import Identifier

RETURNED = [
    "https://www.youtube.com/watch?v=abc",
    "https://example.com/blog/2023/05/post-title",
    "https://amp.theguardian.com/world/2020/x",
    "https://news.example.org/item?id=1",
]


def _url(u: str) -> Identifier:
    return Identifier("url", canonical_url(u))


def _audit(cited: str) -> list[tuple[str, str]]:
    calls = [{"tool": "search", "input": {"q": "x"}, "output": [{"url": u} for u in RETURNED]}]
    verdict = groundcheck.audit(f"Source: {cited}", calls)
    return [(f.code, f.severity) for f in verdict.findings]


def test_honest_variants_warn() -> None:
    """A position, a referrer, a mobile or AMP host: the page a tool returned."""
    for cited in (
        "https://m.youtube.com/watch?v=abc&t=10s",
        "https://example.com/blog/2023/05/post-title?ref=hn",
        "https://www.theguardian.com/world/2020/x",
        "https://news.example.org/item",
    ):
        assert _audit(cited) == [("fabricated-id", "warning")], cited


def test_other_pages_stay_errors() -> None:
    """Another video, another item, a rewritten slug or a wrong date segment."""
    for cited in (
        "https://www.youtube.com/watch?v=xyz",
        "https://news.example.org/item?id=2",
        "https://example.com/blog/2023/05/post-title.html",
        "https://example.com/blog/2023/06/post-title",
        "https://example.com/blog/2023/05/post-titles",
        "https://other.theguardian.com/world/2020/x",
    ):
        assert _audit(cited) == [("fabricated-id", "error")], cited


def test_the_message_names_the_returned_url() -> None:
    calls = [{"tool": "s", "output": [{"url": "https://www.youtube.com/watch?v=abc"}]}]
    verdict = groundcheck.audit("https://youtu.be/abc?t=3", calls)
    assert verdict.findings[0].message.endswith(
        "a tool returned the same page at another address: youtube.com/watch?v=abc"
    )


def test_the_answer_does_not_depend_on_evidence_order() -> None:
    returned = [_url("https://x.org/p?a=1&b=2"), _url("https://x.org/p?a=1")]
    cited = _url("https://x.org/p?a=1&b=2&c=3")
    assert PageIndex(returned).same_page(cited) == PageIndex(returned[::-1]).same_page(cited)
    assert PageIndex(returned).same_page(cited) == _url("https://x.org/p?a=1")


def test_non_urls_are_never_pages() -> None:
    assert PageIndex([_url("https://arxiv.org/abs/x")]).same_page(Identifier("arxiv", "x")) is None


_names = st.text("abcdefgh", min_size=1, max_size=4)
_params = st.lists(st.tuples(_names, _names), max_size=4, unique_by=lambda p: p[0])


@settings(max_examples=300, deadline=None)
@given(path=_names, returned=_params, extra=_params)
def test_added_parameters_find_the_page_and_changed_ones_do_not(
    path: str, returned: list[tuple[str, str]], extra: list[tuple[str, str]]
) -> None:
    base = f"https://site.example/{path}"
    query = "&".join(f"{k}={v}" for k, v in returned)
    shown = _url(f"{base}?{query}" if query else base)
    names = {k for k, _ in returned}
    added = [(k, v) for k, v in extra if k not in names]
    cited_query = "&".join(f"{k}={v}" for k, v in returned + added)
    cited = _url(f"{base}?{cited_query}" if cited_query else base)
    assert PageIndex([shown]).same_page(cited) == shown
    if returned:
        k, v = returned[0]
        changed = "&".join(f"{a}={b}" for a, b in [(k, v + "z"), *returned[1:]])
        assert PageIndex([shown]).same_page(_url(f"{base}?{changed}")) is None


def test_page_of_keeps_routes() -> None:
    assert page_of("example.com/app#!/inbox").where == "example.com/app#!/inbox"
