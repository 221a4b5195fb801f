"""PMID and PMCID: labels, URLs, lists, versions, and the namespace trap PMC128915 != PMID 128915."""

from __future__ import annotations

import pytest

from groundcheck import audit
from groundcheck.extractors import extract
from groundcheck.extractors.builtin import builtin_registry
from groundcheck.extractors.pubmed import (
    PMCID,
    PMCID_EXTRACTOR,
    PMID,
    PMID_EXTRACTOR,
    find_pmcid,
    find_pmid,
)

BOTH = (PMID_EXTRACTOR, PMCID_EXTRACTOR)


def found(text: str) -> list[tuple[str, str, int | None, str | None]]:
    return [
        (c.scheme, c.id, c.identifier.version, c.malformed) for c in extract(text, extractors=BOTH)
    ]


PMID_POSITIVE = [
    ("PMID: 31452104", ["31452104"]),
    ("PMID 31452104", ["31452104"]),
    ("pmid:31452104", ["31452104"]),
    ("(PMID = 22169532)", ["22169532"]),
    ("PubMed PMID: 22169532;", ["22169532"]),
    ("PubMed ID 22169532", ["22169532"]),
    ("PubMed: 22169532", ["22169532"]),
    ("PMID #22169532", ["22169532"]),
    ("PMIDs: 31452104, 29199020 and 42489084", ["31452104", "29199020", "42489084"]),
    ("PMIDs 31452104; 29199020 & 42489084.", ["31452104", "29199020", "42489084"]),
    ("PMID: 0012345", ["12345"]),
    ("PMID: 31452104.", ["31452104"]),
    ("https://pubmed.ncbi.nlm.nih.gov/42489084/", ["42489084"]),
    ("http://www.ncbi.nlm.nih.gov/pubmed/34739845", ["34739845"]),
    ("https://europepmc.org/article/MED/26566462", ["26566462"]),
    ("https://europepmc.org/abstract/MED/26566462", ["26566462"]),
    ("pmid: 123", ["123"]),  # evidence/walk.py flattens {"pmid": 123} to this
    ("见PMID: 31452104的论文", ["31452104"]),
]


@pytest.mark.parametrize(("text", "ids"), PMID_POSITIVE)
def test_pmid_positive(text: str, ids: list[str]) -> None:
    assert [i for s, i, _, bad in found(text) if s == "pmid" and bad is None] == ids


def test_pmid_version() -> None:
    """PMID.version names a version of the same citation (NLM 2012)."""
    assert found("PMID: 12345678.2") == [("pmid", "12345678", 2, None)]


def test_a_zero_version_is_no_version() -> None:
    """Versions count from 1, so ``.0`` is a full stop and a digit, not version 0, which
    would not survive a round trip through the canonical form (a bug hypothesis found)."""
    assert found("PMID: 1.0") == [("pmid", "1", None, None)]
    assert found("PMC1.0") == [("pmcid", "PMC1", None, None)]


@pytest.mark.parametrize(
    ("text", "reason"),
    [("PMID: 123456789", "at most 8 digits"), ("PMID: 0", "never issued")],
)
def test_pmid_malformed(text: str, reason: str) -> None:
    ((scheme, _, _, bad),) = found(text)
    assert scheme == "pmid"
    assert bad is not None
    assert reason in bad


PMID_NEGATIVE = [
    "PMC128915",
    "PMCID: PMC128915",
    "31452104",
    "In 2019, 31452104 cells",
    "PMID: PMC128915",
    "pmidx 123",
    "PMID:abc",
    "PMID-like 12345678",
    "https://pubmed.ncbi.nlm.nih.gov/?term=cancer",
    "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3531190/",
    "version 12345678.2",
    "PubMedCentral: 2323736",
    "We searched PubMed 2010 to 2020",
    "Medline: 87654321",
    "notpubmed.ncbi.nlm.nih.gov/123",
]


@pytest.mark.parametrize("text", PMID_NEGATIVE)
def test_pmid_negative(text: str) -> None:
    assert list(find_pmid(text)) == []


PMCID_POSITIVE = [
    ("PMC128915", "PMC128915", None),
    ("PMCID: PMC3261254", "PMC3261254", None),
    ("PMCID:PMC3261254", "PMC3261254", None),
    ("pmc3531190", "PMC3531190", None),
    ("PMC13187626.1", "PMC13187626", 1),
    ("PMCID: 2323736", "PMC2323736", None),
    ("pmcid: 2323736", "PMC2323736", None),  # walk.py's form of {"pmcid": 2323736}
    ("pmc_id: 2323736", "PMC2323736", None),
    ("PubMedCentral: 2323736", "PMC2323736", None),
    ("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3531190/", "PMC3531190", None),
    ("https://pmc.ncbi.nlm.nih.gov/articles/PMC13187626/", "PMC13187626", None),
    ("https://europepmc.org/article/PMC/PMC4747116", "PMC4747116", None),
    ("https://europepmc.org/article/PMC/4747116", "PMC4747116", None),
    ("https://europepmc.org/articles/PMC4747116", "PMC4747116", None),
    ("PMC0012", "PMC12", None),
    ("see PMC3531190.", "PMC3531190", None),
]


@pytest.mark.parametrize(("text", "canonical", "version"), PMCID_POSITIVE)
def test_pmcid_positive(text: str, canonical: str, version: int | None) -> None:
    assert found(text) == [("pmcid", canonical, version, None)]


PMCID_NEGATIVE = [
    "PMID: 128915",
    "NIHMS236863",
    "EMS48932",
    "PMC-Sierra",
    "PMCS123",
    "XPMC123",
    "PMC 1234567",
    "the PMC archive",
    "PMCID: PMC",
    "10.1093/nar/gks1195",
    "PMCID: 2323736.5",
]


@pytest.mark.parametrize("text", PMCID_NEGATIVE)
def test_pmcid_negative(text: str) -> None:
    assert list(find_pmcid(text)) == []


@pytest.mark.parametrize(
    ("text", "reason"), [("PMC0", "never issued"), ("PMC1234567890", "at most 9 digits")]
)
def test_pmcid_malformed(text: str, reason: str) -> None:
    ((scheme, _, _, bad),) = found(text)
    assert scheme == "pmcid"
    assert bad is not None
    assert reason in bad


def test_the_dismech_case() -> None:
    """'PMCID: PMC128915, PMID: 128915': the PMID made from the PMCID's digits is its own
    citation, so evidence holding only the PMCID grounds the PMCID and flags the PMID."""
    assert found("(PMCID: PMC128915, PMID: 128915)") == [
        ("pmcid", "PMC128915", None, None),
        ("pmid", "128915", None, None),
    ]
    registry = builtin_registry()
    registry.register(PMID_EXTRACTOR, replace=True)
    registry.register(PMCID_EXTRACTOR, replace=True)
    verdict = audit(
        "Shown in (PMCID: PMC128915, PMID: 128915).",
        [{"tool": "europepmc", "output": {"pmcid": "PMC128915", "title": "A paper"}}],
        registry=registry,
    )
    flagged = [(f.code, f.citation.scheme, f.citation.id) for f in verdict.findings if f.citation]
    assert flagged == [("fabricated-id", "pmid", "128915")]


def test_json_numbers_under_their_keys_ground() -> None:
    """{"pmid": 31452104} in a tool output grounds "PMID: 31452104" in the report."""
    registry = builtin_registry()
    registry.register(PMID_EXTRACTOR, replace=True)
    verdict = audit(
        "Shown in PMID: 31452104 and PMID: 99999999.",
        [{"tool": "pubmed", "output": {"pmid": 31452104}}],
        registry=registry,
    )
    assert [f.citation.id for f in verdict.findings if f.citation] == ["99999999"]


def test_cited_forms_are_found_again() -> None:
    for text, scheme in (("PMID: 31452104", PMID), ("PMCID: 2323736", PMCID)):
        (c,) = extract(text, extractors=BOTH)
        again = extract(scheme.cite(c.identifier), extractors=BOTH)
        assert [x.identifier for x in again] == [c.identifier]
