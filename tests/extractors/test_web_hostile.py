"""Hostile inputs for the web and biomedical extractors finish in linear time and do not crash.

Bounds are generous on purpose (seconds for 100 kB, where a quadratic Python step takes hours);
exact figures against a benign text live in benchmarks/bench_web.py.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from groundcheck import audit
from groundcheck.extractors import extract
from groundcheck.extractors.acl import ACL_EXTRACTOR
from groundcheck.extractors.builtin import BUILTIN, builtin_registry
from groundcheck.extractors.dblp import DBLP_EXTRACTOR
from groundcheck.extractors.isbn import ISBN_EXTRACTOR
from groundcheck.extractors.openalex import OPENALEX_EXTRACTOR
from groundcheck.extractors.openreview import OPENREVIEW_EXTRACTOR
from groundcheck.extractors.pubmed import PMCID_EXTRACTOR, PMID_EXTRACTOR
from groundcheck.extractors.semanticscholar import S2_EXTRACTOR
from groundcheck.extractors.url import URL_EXTRACTOR, find_url
from groundcheck.extractors.urlkey import canonical_url

WEB = (
    URL_EXTRACTOR,
    PMID_EXTRACTOR,
    PMCID_EXTRACTOR,
    ISBN_EXTRACTOR,
    ACL_EXTRACTOR,
    OPENREVIEW_EXTRACTOR,
    S2_EXTRACTOR,
    OPENALEX_EXTRACTOR,
    DBLP_EXTRACTOR,
)
ALL = (*BUILTIN, *WEB)

SIZE = 100_000

FLOODS = {
    "open parentheses after a URL": "https://a.b/" + "(" * SIZE,
    "close parentheses after a URL": "https://a.b/" + ")" * SIZE,
    "brackets after a URL": "https://a.b/" + "]" * SIZE,
    "dots after a URL": "https://a.b/" + "." * SIZE,
    "entity-like tails": "https://a.b/" + "&a;" * (SIZE // 3),
    "comma-joined URLs": ",https://x.com" * (SIZE // 14),
    "www flood": "www." * (SIZE // 4),
    "scheme separator flood": "://" * (SIZE // 3),
    "schemes without hosts": "https://" * (SIZE // 8),
    "one long URL": "https://example.com/" + "a" * SIZE,
    "one long host": "https://" + "a." * (SIZE // 2) + "com/",
    "many parameters": "https://example.com/a?" + "&".join(f"p{i}=1" for i in range(SIZE // 8)),
    "redirect chain": "https://www.google.com/url?q=" * (SIZE // 29),
    "percent signs": "https://x.org/" + "%" * SIZE,
    "undecodable escapes": "https://x.org/" + "%C3%28%zz" * (SIZE // 9),
    "angle destinations": "](<https://" * (SIZE // 11),
    "angle destinations without a closer": "](<https://x.org/a " * (SIZE // 19),
    "a DOI run through many URLs": "https://doi.org/10.1000/a<1(" * (SIZE // 28),
    "image links": "![a](https://x.org/i.png)" * (SIZE // 25),
    "backticks": "`" * SIZE,
    "backtick pairs around URLs": "`https://x.org/a` " * (SIZE // 18),
    "unclosed fences": "```\nhttps://x.org/a\n" * (SIZE // 20),
    "indented lines": "\n\n    https://x.org/a" * (SIZE // 21),
    "list continuations": "- a\n\n    https://x.org/a\n" * (SIZE // 25),
    "CJK after punctuation": "https://x.org/中,中." * (SIZE // 18),
    "IDN homographs": "https://аpple.com/ https://xn--pple-43d.com/ " * (SIZE // 44),
    "PMID list": "PMID: " + "1, " * (SIZE // 3),
    "PMID labels": "PMID " * (SIZE // 5),
    "PMC flood": "PMC" * (SIZE // 3),
    "PMCID labels": "PMCID: " * (SIZE // 7),
    "PubMed URLs": "pubmed.ncbi.nlm.nih.gov/" * (SIZE // 24),
    "ISBN groups": "ISBN " + "1-" * (SIZE // 2),
    "ISBN labels": "ISBN " * (SIZE // 5),
    "bare ISBN starts": "978-" * (SIZE // 4),
    "ACL year dots": "2020.a-b." * (SIZE // 9),
    "ACL prefixes": "ACL: " * (SIZE // 5),
    "ACL DOI prefixes": "10.18653/v1/" * (SIZE // 12),
    "OpenReview queries": "openreview.net/forum?" + "a&" * (SIZE // 2),
    "OpenReview hosts": "openreview.net/" * (SIZE // 15),
    "Semantic Scholar slugs": "semanticscholar.org/paper/" + "a" * SIZE,
    "CorpusId prefixes": "CorpusId:" * (SIZE // 9),
    "OpenAlex prefixes": "openalex:" * (SIZE // 9),
    "DBLP segments": "DBLP:conf" + "/a" * (SIZE // 2),
    "DOI in long URLs": ("https://onlinelibrary.wiley.com/doi/" + "a" * 600 + "/10.1000/x ") * 500,
}


DENSE = {"comma-joined URLs", "PMID list", "IDN homographs", "a DOI run through many URLs"}
"""Floods with a mention every few characters: their cost is the pipeline's per mention (and
the title extractor's words-beside-each-id), so they run at a quarter of the size. A quadratic
step is still minutes there."""


@pytest.mark.parametrize(
    "text",
    [text[: SIZE // 4] if name in DENSE else text for name, text in FLOODS.items()],
    ids=FLOODS.keys(),
)
def test_flood_is_linear(text: str, linear: Callable[..., None]) -> None:
    """Each flood is extracted by every extractor, and audited, with work linear in its size
    (function calls counted on the flood and its first quarter; nothing is timed)."""
    registry = builtin_registry()
    for extractor in WEB:
        registry.register(extractor, replace=True)  # already built in once registered

    def work(t: str) -> None:
        extract(t, extractors=ALL)
        audit(t, [{"tool": "t", "output": t}], registry=registry)

    linear(work, text)


def test_a_one_megabyte_url() -> None:
    """A 1 MB URL is one URL, keyed in one pass."""
    text = "see https://example.com/" + "ab/" * 350_000 + " end"
    (m,) = find_url(text)
    assert m.end == text.index(" end")


def test_two_hundred_thousand_open_parentheses() -> None:
    text = "https://a.b/" + "(" * 200_000
    (m,) = find_url(text)
    assert (m.start, m.end) == (0, len(text))


def test_homographs_stay_apart() -> None:
    """Cyrillic а in a host is another site, however it is written (Unicode or punycode)."""
    latin, cyrillic, puny = (
        canonical_url("https://apple.com/"),
        canonical_url("https://аpple.com/"),
        canonical_url("https://xn--pple-43d.com/"),
    )
    assert cyrillic == puny
    assert latin != cyrillic
