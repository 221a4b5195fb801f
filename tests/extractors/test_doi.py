"""Table-driven tests of the DOI extractor: prefixes, trimming, decoding, the arXiv DOI."""

from __future__ import annotations

import pytest

from groundcheck.extractors import extract
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.model import Identifier


def dois(text: str) -> list[tuple[str, str | None]]:
    return [(c.id, c.malformed) for c in extract(text, extractors=BUILTIN) if c.scheme == "doi"]


POSITIVE = [
    ("10.1000/xyz", "10.1000/xyz"),
    ("doi:10.1000/xyz", "10.1000/xyz"),
    ("DOI: 10.1000/XYZ", "10.1000/xyz"),
    ("doi 10.1000/xyz", "10.1000/xyz"),
    ("https://doi.org/10.1000/xyz", "10.1000/xyz"),
    ("http://dx.doi.org/10.1000/xyz", "10.1000/xyz"),
    ("doi.org/10.1000/xyz", "10.1000/xyz"),
    ("https://onlinelibrary.wiley.com/doi/full/10.1002/abc.123", "10.1002/abc.123"),
    ("https://link.springer.com/article/10.1007/s11263-015-0816-y", "10.1007/s11263-015-0816-y"),
    ("10.1016/0031-9163(64)91136-9", "10.1016/0031-9163(64)91136-9"),
    ("10.1007/JHEP06(2013)081", "10.1007/jhep06(2013)081"),
    ("(doi:10.1038/nature14539)", "10.1038/nature14539"),
    ("[paper](https://doi.org/10.1038/nature14539)", "10.1038/nature14539"),
    ("<https://doi.org/10.1038/nature14539>", "10.1038/nature14539"),
    ("See 10.1038/nature14539.", "10.1038/nature14539"),
    ("10.1038/nature14539, and", "10.1038/nature14539"),
    ("*10.1038/nature14539*", "10.1038/nature14539"),
    ("https://doi.org/10.1000/456%23789", "10.1000/456#789"),
    ("http://dx.doi.org/10.1063%2F1.881498", "10.1063/1.881498"),
    ("https://doi.org/10.1000/abc?download=true", "10.1000/abc"),
    ("https://doi.org/10.1000/abc#section", "10.1000/abc"),
    ("10.1000.10/123456", "10.1000.10/123456"),
    (
        "10.1002/(SICI)1097-4636(199709)36:4<493::AID-JBM6>3.0.CO;2-E",
        "10.1002/(sici)1097-4636(199709)36:4<493::aid-jbm6>3.0.co;2-e",
    ),
    ("<a href=x>10.1000/abc</a>", "10.1000/abc"),
    ("10.1000/abc&lt;b", "10.1000/abc"),
    ("“10.1000/abc”", "10.1000/abc"),
    ("10.1000/abc—next", "10.1000/abc"),
    ("10.1016/üникóδé-дôΐ", "10.1016/üникóδé-дôΐ"),
    ("`10.1000/abc`", "10.1000/abc"),
    ("{10.1000/abc}", "10.1000/abc"),
    ("10.123456789/x", "10.123456789/x"),
]


@pytest.mark.parametrize(("text", "canonical"), POSITIVE)
def test_doi_positive(text: str, canonical: str) -> None:
    """Each written form yields the same percent-decoded, lower-cased canonical DOI."""
    assert dois(text) == [(canonical, None)]


NEGATIVE = [
    "10.5/year",  # registrant below 4 digits, bare
    "10.2/3.1",
    "version 10.1000 released",
    "110.1000/x",
    "v10.1000/x",
    "10.1234567890/x",  # 10 digits
    "the ratio was 10.12345",
]


@pytest.mark.parametrize("text", NEGATIVE)
def test_doi_negative(text: str) -> None:
    """Numbers and short registrants are not DOIs."""
    assert dois(text) == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("doi:10.123/abc", "4 to 9 digits"),
        ("https://doi.org/10.12/abc", "4 to 9 digits"),
        ("doi:10.1000/", "no suffix"),
        ("doi: 10.1000/).", "no suffix"),
    ],
)
def test_doi_malformed(text: str, reason: str) -> None:
    """After a doi: prefix or a doi.org URL, a grammar break is reported as malformed."""
    (found,) = dois(text)
    assert found[1] is not None
    assert reason in found[1]


def test_arxiv_doi_names_the_arxiv_id_once() -> None:
    """10.48550/arXiv.X is one citation whose aliases include arXiv X; no second arXiv hit."""
    (c,) = extract("https://doi.org/10.48550/arXiv.2202.01037", extractors=BUILTIN)
    assert c.identifier == Identifier("doi", "10.48550/arxiv.2202.01037")
    assert [a for a in c.aliases if a.scheme != "url"] == [Identifier("arxiv", "2202.01037")]
    assert [a.scheme for a in c.aliases if a.scheme == "url"] == ["url"]  # the link itself


def test_arxiv_doi_legacy_and_version() -> None:
    """The legacy arXiv DOI and a versioned arXiv DOI map to the canonical arXiv key."""
    (c,) = extract("10.48550/arXiv.hep-th/9711200", extractors=BUILTIN)
    assert c.aliases == (Identifier("arxiv", "hep-th/9711200"),)
    (v,) = extract("10.48550/arXiv.2202.01037v2", extractors=BUILTIN)
    assert v.id == "10.48550/arxiv.2202.01037"
    assert v.identifier.version == 2


def test_doi_span_excludes_trimmed_characters() -> None:
    """The span ends where the DOI ends, before trimmed punctuation and closers."""
    text = "(see doi:10.1038/nature14539)."
    (c,) = extract(text, extractors=BUILTIN)
    assert c.raw == "10.1038/nature14539"
    assert text[c.start : c.end] == c.raw


def test_doi_inside_arxiv_like_numbers_not_double_counted() -> None:
    """A DOI whose suffix holds a YYYY.NNNNN run yields no arXiv citation."""
    found = [(c.scheme, c.id) for c in extract("10.1109/CVPR52688.2022.01042", extractors=BUILTIN)]
    assert found == [("doi", "10.1109/cvpr52688.2022.01042")]


PUBLISHER_URLS = [
    # (url, canonical DOI, version): spec-2 section 1.3; each was returned wrong before the fix
    (
        "https://link.springer.com/content/pdf/10.1007/s10994-021-05946-3.pdf",
        "10.1007/s10994-021-05946-3",
        None,
    ),
    (
        "https://www.frontiersin.org/articles/10.3389/fnins.2019.00123/full",
        "10.3389/fnins.2019.00123",
        None,
    ),
    (
        "https://www.frontiersin.org/articles/10.3389/fnins.2019.00123/pdf",
        "10.3389/fnins.2019.00123",
        None,
    ),
    (
        "https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0123456&type=printable",
        "10.1371/journal.pone.0123456",
        None,
    ),
    (
        "https://journals.plos.org/plosone/article/file?id=10.1371/journal.pone.0123456&type=printable",
        "10.1371/journal.pone.0123456",
        None,
    ),
    (
        "https://www.biorxiv.org/content/10.1101/2020.03.01.123456v2.full.pdf",
        "10.1101/2020.03.01.123456",
        2,
    ),
    (
        "https://www.biorxiv.org/content/10.1101/2020.03.01.123456v2.full",
        "10.1101/2020.03.01.123456",
        2,
    ),
    (
        "https://www.medrxiv.org/content/10.1101/2021.01.01.21249123v1",
        "10.1101/2021.01.01.21249123",
        1,
    ),
    ("https://www.biorxiv.org/content/10.1101/123456v3.abstract", "10.1101/123456", 3),
    (
        "https://onlinelibrary.wiley.com/doi/10.1111/j.1365-2486.2010.02164.x/abstract",
        "10.1111/j.1365-2486.2010.02164.x",
        None,
    ),
    (
        "https://agupubs.onlinelibrary.wiley.com/doi/full/10.1029/2020GL087820",
        "10.1029/2020gl087820",
        None,
    ),
    (
        "https://onlinelibrary.wiley.com/doi/epdf/10.1002/anie.201915678",
        "10.1002/anie.201915678",
        None,
    ),
    ("https://dl.acm.org/doi/pdf/10.1145/3442188.3445922", "10.1145/3442188.3445922", None),
    ("https://dl.acm.org/doi/abs/10.1145/3442188.3445922", "10.1145/3442188.3445922", None),
    (
        "https://www.tandfonline.com/doi/full/10.1080/01621459.2017.1285773",
        "10.1080/01621459.2017.1285773",
        None,
    ),
    ("https://www.science.org/doi/10.1126/science.abc1234", "10.1126/science.abc1234", None),
    (
        "https://pubs.acs.org/doi/suppl/10.1021/acs.jpcb.1c00001/suppl_file/jp1c00001_si_001.pdf",
        "10.1021/acs.jpcb.1c00001",
        None,
    ),
    (
        "https://iopscience.iop.org/article/10.1088/1742-6596/1234/1/012001/pdf",
        "10.1088/1742-6596/1234/1/012001",
        None,
    ),
    # a DOI in any URL's query ends at "&"; a decoded redirect target is such a query value
    ("https://www.google.com/url?q=https://doi.org/10.1000/xyz&sa=D", "10.1000/xyz", None),
    ("https://example.org/resolve?doi=10.1000/xyz&format=json", "10.1000/xyz", None),
    # the innermost URL decides the host
    (
        "https://web.archive.org/web/2020/https://www.frontiersin.org/articles/10.3389/x.1/full",
        "10.3389/x.1",
        None,
    ),
]


@pytest.mark.parametrize(("url", "canonical", "version"), PUBLISHER_URLS)
def test_doi_in_publisher_url(url: str, canonical: str, version: int | None) -> None:
    """What a publisher appends after the DOI is not part of it; a query's "&" ends it."""
    (c,) = [c for c in extract(url, extractors=BUILTIN) if c.scheme == "doi"]
    assert (c.id, c.identifier.version) == (canonical, version)
    assert url[c.start : c.end] == c.raw


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("https://doi.org/10.1000/xyz/full", "10.1000/xyz/full"),  # a resolver holds the DOI whole
        ("10.1000/xyz/full", "10.1000/xyz/full"),
        ("doi:10.1000/abc.pdf", "10.1000/abc.pdf"),
        ("https://example.com/papers/10.1000/abc.pdf", "10.1000/abc.pdf"),  # unknown host: kept
        ("10.1207/s15327906mbr3901_4&x", "10.1207/s15327906mbr3901_4&x"),  # "&" outside a URL
        (
            "see www.frontiersin.org/articles/10.3389/fnins.2019.00123/full.",
            "10.3389/fnins.2019.00123",
        ),
    ],
)
def test_publisher_cuts_only_on_publisher_hosts(text: str, canonical: str | None) -> None:
    """A DOI may really end in /full or .pdf: the cut is made only where a publisher added it."""
    found = [c.id for c in extract(text, extractors=BUILTIN) if c.scheme == "doi"]
    assert found == ([canonical] if canonical else [])


def test_publisher_span_keeps_the_appended_part() -> None:
    """The span covers the whole publisher URL written for this DOI, so no words are left over
    (with the url extractor registered, the URL is the DOI's citation, counted once)."""
    text = "see https://www.biorxiv.org/content/10.1101/2020.03.01.123456v2.full.pdf for details"
    (c,) = [c for c in extract(text, extractors=BUILTIN) if c.scheme == "doi"]
    assert c.raw == "https://www.biorxiv.org/content/10.1101/2020.03.01.123456v2.full.pdf"
    assert c.id == "10.1101/2020.03.01.123456"
    assert not [c for c in extract(text, extractors=BUILTIN) if c.scheme == "title"]


@pytest.mark.parametrize(
    ("text", "doi", "acl"),
    [
        ("doi:10.18653/v1/N19-1423", "10.18653/v1/n19-1423", "N19-1423"),
        (
            "https://doi.org/10.18653/v1/2020.acl-main.703",
            "10.18653/v1/2020.acl-main.703",
            "2020.acl-main.703",
        ),
        ("10.18653/V1/2020.ACL-MAIN.447", "10.18653/v1/2020.acl-main.447", "2020.acl-main.447"),
        ("10.18653/v1/W18-2504", "10.18653/v1/w18-2504", "W18-2504"),
    ],
)
def test_acl_doi_names_the_anthology_id(text: str, doi: str, acl: str) -> None:
    """ACL DOIs carry the Anthology id as an alias, re-cased as the Anthology prints it."""
    (c,) = [c for c in extract(text, extractors=BUILTIN) if c.scheme == "doi"]
    assert c.id == doi
    assert [a for a in c.aliases if a.scheme != "url"] == [Identifier("acl", acl)]


def test_acl_doi_without_an_anthology_id_has_no_alias() -> None:
    (c,) = extract("10.18653/v1/not-an-id", extractors=BUILTIN)
    assert c.aliases == ()
