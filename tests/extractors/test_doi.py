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
    assert c.aliases == (Identifier("arxiv", "2202.01037"),)


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
