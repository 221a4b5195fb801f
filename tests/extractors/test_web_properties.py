"""Property-based tests of the web and biomedical extractors, alone and together.

On any text: extraction never raises, every span is exactly ``text[start:end]``, output is
deterministic, and canonical forms are idempotent (a URL key is its own key; any other id,
written the way its scheme cites it, is found again as the same id).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import extract, identifiers_in
from groundcheck.extractors.acl import ACL_EXTRACTOR
from groundcheck.extractors.arxiv import ARXIV
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.dblp import DBLP_EXTRACTOR
from groundcheck.extractors.doi import DOI
from groundcheck.extractors.isbn import ISBN_EXTRACTOR
from groundcheck.extractors.openalex import OPENALEX_EXTRACTOR
from groundcheck.extractors.openreview import OPENREVIEW_EXTRACTOR
from groundcheck.extractors.pubmed import PMCID_EXTRACTOR, PMID_EXTRACTOR
from groundcheck.extractors.registry import schemes_of
from groundcheck.extractors.semanticscholar import S2_EXTRACTOR
from groundcheck.extractors.url import URL_EXTRACTOR
from groundcheck.extractors.urlkey import canonical_url
from groundcheck.model import Scheme

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
IDS = (*(e for e in BUILTIN if e.name != "title"), *WEB)
ALL = (*IDS, next(e for e in BUILTIN if e.name == "title"))
SCHEMES: dict[str, Scheme] = {s.name: s for e in WEB for s in schemes_of(e)}
SCHEMES.update({"arxiv": ARXIV, "doi": DOI})

_pieces = st.sampled_from(
    [
        "https://", "http://", "HTTP://", "ftp://", "www.", "://", "example.com", "x.org",
        "doi.org/", "arxiv.org/abs/", "pubmed.ncbi.nlm.nih.gov/", "ncbi.nlm.nih.gov/pmc/articles/",
        "europepmc.org/article/MED/", "aclanthology.org/", "openreview.net/forum?id=",
        "semanticscholar.org/paper/", "openalex.org/", "dblp.org/rec/", "openlibrary.org/isbn/",
        "frontiersin.org/articles/", "biorxiv.org/content/", "web.archive.org/web/2020/",
        "google.com/url?q=", "/", "?", "&", "=", "#", ":~:text=", "(", ")", "[", "]", "<", ">",
        "](", "![", '"', "'", "`", "```", "\n", "\n\n", "    ", " ", ".", ",", ";", ":", "!",
        "*", "_", "~", "&amp;", "&hl;", "%2F", "%41", "%zz", "utm_source=x", "v=1", "id=",
        "10.", "1000", "10.1000/xyz", "10.18653/v1/", "2005.11401", "v2", ".full.pdf", "/full",
        "PMID: ", "PMIDs ", "PubMed: ", "PMCID: ", "PMC", "128915", "31452104", " and ",
        "ISBN ", "ISBN-10: ", "978-0-262-03561-3", "0-262-03561-8", "X", "SBN ",
        "2020.acl-main.703", "N19-1423", "ACL:", "HklBjCEKvH", "CorpusId:", "215416146",
        "W2741809807", "openalex:", "DBLP:", "conf/nips/Vaswani17", "journals/corr/abs-1706-03762",
        "204e3073870fae3d05bcbc2f6a8e263d9b72e776", "中文", "，", "。", "\u200b", "İ", "é", "０",
    ]
)  # fmt: skip
_heads = st.sampled_from(
    [
        "https://", "http://www.", "www.", "https://doi.org/", "https://arxiv.org/abs/",
        "https://pubmed.ncbi.nlm.nih.gov/", "https://www.ncbi.nlm.nih.gov/pmc/articles/",
        "https://europepmc.org/article/PMC/", "https://aclanthology.org/",
        "https://openreview.net/forum?id=", "https://www.semanticscholar.org/paper/t/",
        "https://openalex.org/", "https://dblp.org/rec/", "https://openlibrary.org/isbn/",
        "https://www.frontiersin.org/articles/", "https://www.biorxiv.org/content/",
        "https://web.archive.org/web/2020/https://", "https://www.google.com/url?q=https://",
        "https://x.org/a?doi=", "https://en.m.wikipedia.org/wiki/", "https://youtu.be/",
        "PMID: ", "PMCID: ", "PubMed: ", "ISBN ", "ISBN-10: ", "ACL:", "CorpusId:", "openalex:",
        "DBLP:", "doi:", "arXiv:", "", "`", "[t](", "![i](", "<", '"', "(",
    ]
)  # fmt: skip
_bodies = st.sampled_from(
    [
        "example.com/a_(b)", "x.org/p?utm_source=x&id=2#f", "10.1000/xyz", "10.3389/f.1/full",
        "10.1101/2020.03.01.123456v2.full.pdf", "10.18653/v1/N19-1423", "2005.11401v2",
        "hep-th/9711200", "31452104", "PMC128915", "4747116", "2020.acl-main.703.pdf",
        "N19-1423/", "HklBjCEKvH", "204e3073870fae3d05bcbc2f6a8e263d9b72e776", "W2741809807",
        "conf/nips/Vaswani17.html", "journals/corr/abs-1706-03762", "978-0-262-03561-3",
        "0262035618", "0-262-03561-7", "215416146", "Mercury_(planet)", "dQw4w9WgXcQ?t=5",
        "例子.测试/路径", "a.b/" + "(" * 5, "123456789", "2313.01234",
    ]
)  # fmt: skip
_tails = st.sampled_from(["", ".", ",", ")", ").", "]", ">", '"', "`", "**", "，下", " ", "\n"])
_citations = st.tuples(_heads, _bodies, _tails).map("".join)
texts = st.one_of(
    st.text(max_size=200),
    st.lists(_pieces, max_size=40).map("".join),
    st.lists(st.one_of(_citations, _pieces), max_size=12).map(" ".join),
)


@settings(max_examples=600, deadline=None)
@given(texts)
def test_never_raises_and_spans_are_exact(text: str) -> None:
    previous = -1
    for c in extract(text, extractors=ALL):
        assert 0 <= c.start < c.end <= len(text)
        assert text[c.start : c.end] == c.raw
        assert c.start >= previous
        previous = c.start


@settings(max_examples=600, deadline=None)
@given(texts)
def test_each_extractor_alone_reports_exact_spans(text: str) -> None:
    """Every mention of every extractor indexes the text it was given."""
    for extractor in WEB:
        for m in extractor.find(text):
            assert 0 <= m.start < m.end <= len(text)


@settings(max_examples=500, deadline=None)
@given(texts)
def test_canonical_forms_are_idempotent(text: str) -> None:
    for c in extract(text, extractors=IDS):
        if c.malformed is not None:
            continue
        if c.scheme == "url":
            assert canonical_url(c.id) == c.id
            continue
        cited = SCHEMES[c.scheme].cite(c.identifier)
        assert c.identifier in identifiers_in(cited, IDS), (c.identifier, cited)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_url_ids_are_the_keys_of_what_was_written(text: str) -> None:
    """On a text the view leaves alone, a URL's id is canonical_url of its raw span."""
    if not text.isascii() or any(ch in text for ch in "&%\\\n"):
        return
    for c in extract(text, extractors=(URL_EXTRACTOR,)):
        if c.scheme == "url" and "](<" not in text:
            assert c.id == canonical_url(c.raw)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_deterministic(text: str) -> None:
    assert extract(text, extractors=ALL) == extract(text, extractors=ALL)
