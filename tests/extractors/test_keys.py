"""Identifier-valued JSON keys: exact names, and the written form each scheme's extractor reads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundcheck.extractors import identifiers_in
from groundcheck.extractors.acl import ACL_EXTRACTOR
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.dblp import DBLP_EXTRACTOR
from groundcheck.extractors.isbn import ISBN_EXTRACTOR
from groundcheck.extractors.keys import EVIDENCE_KEYS, labelled, scheme_of_key
from groundcheck.extractors.openalex import OPENALEX_EXTRACTOR
from groundcheck.extractors.pubmed import PMCID_EXTRACTOR, PMID_EXTRACTOR
from groundcheck.extractors.semanticscholar import S2_EXTRACTOR
from groundcheck.model import Identifier

IDS = (
    *(e for e in BUILTIN if e.name != "title"),
    PMID_EXTRACTOR,
    PMCID_EXTRACTOR,
    ISBN_EXTRACTOR,
    ACL_EXTRACTOR,
    S2_EXTRACTOR,
    OPENALEX_EXTRACTOR,
    DBLP_EXTRACTOR,
)

S2_RECORD = {
    # Semantic Scholar externalIds, as its Graph API returns them
    "PubMed": "31452104",
    "PubMedCentral": "2323736",
    "Medline": "87654321",
    "CorpusId": 215416146,
    "DBLP": "conf/nips/VaswaniSPUJGKP17",
    "ACL": "2020.acl-main.447",
    "ArXiv": "1706.03762",
    "DOI": "10.18653/V1/2020.ACL-MAIN.447",
    "MAG": "2963403868",
    "paperId": "204e3073870fae3d05bcbc2f6a8e263d9b72e776",
    "ISBN_13": 9780262035613,
}


def test_semantic_scholar_external_ids() -> None:
    """Every id of the record is read under its own scheme; Medline and MAG are nothing."""
    text = "\n".join(t for k, v in S2_RECORD.items() if (t := labelled(k, v)) is not None)
    found = identifiers_in(text, IDS)
    assert {
        Identifier("pmid", "31452104"),
        Identifier("pmcid", "PMC2323736"),
        Identifier("s2-corpus", "215416146"),
        Identifier("dblp", "conf/nips/VaswaniSPUJGKP17"),
        Identifier("acl", "2020.acl-main.447"),
        Identifier("arxiv", "1706.03762"),
        Identifier("doi", "10.18653/v1/2020.acl-main.447"),
        Identifier("s2", "204e3073870fae3d05bcbc2f6a8e263d9b72e776"),
        Identifier("isbn", "9780262035613"),
    } <= found
    assert Identifier("pmid", "87654321") not in found
    assert labelled("Medline", "87654321") is None
    assert labelled("MAG", "2963403868") is None


@pytest.mark.parametrize(
    ("key", "scheme"),
    [
        ("pmid", "pmid"),
        ("PMID", "pmid"),
        ("pubmed_id", "pmid"),
        ("PubMed", "pmid"),
        ("MED", "pmid"),
        ("pmcid", "pmcid"),
        ("PMC", "pmcid"),
        ("pmc-id", "pmcid"),
        ("pmcid_ver", "pmcid"),
        ("PubMedCentral", "pmcid"),
        ("isbn_10", "isbn"),
        ("ISBN13", "isbn"),
        ("isbns", "isbn"),
        ("openalex_id", "openalex"),
        ("corpus_id", "s2-corpus"),
        ("acl", "acl"),
        ("medline", None),
        ("pmid_list_url", None),
        ("pubmed_central_url", None),
        ("title", None),
        ("mag", None),
        ("isbn_of_series", None),
    ],
)
def test_keys_match_by_exact_name(key: str, scheme: str | None) -> None:
    """Never by prefix or substring: pmid_list_url and pubmed_central_url name no scheme."""
    assert scheme_of_key(key) == scheme


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("pmid", True),
        ("pmid", 1.5),
        ("pmid", ["1"]),
        ("pmid", ""),
        ("pmid", "1\n2"),
        ("pmid", "1" * 301),
        ("paperId", "not-a-sha"),
    ],
)
def test_values_that_are_not_rendered(key: str, value: object) -> None:
    assert labelled(key, value) is None


def test_every_key_renders_something_its_extractor_can_read() -> None:
    """The written form of each key's scheme is one its extractor reads."""
    samples = {
        "pmid": "31452104",
        "pmcid": "2323736",
        "isbn": "0262035618",
        "openalex": "W2741809807",
        "s2-corpus": "215416146",
        "s2": "204e3073870fae3d05bcbc2f6a8e263d9b72e776",
        "dblp": "conf/acl/DevlinCLT19",
        "acl": "N19-1423",
        "arxiv": "2005.11401",
        "doi": "10.1000/xyz",
        "openreview": "abc123XYZ",
    }
    for key, (scheme, _) in EVIDENCE_KEYS.items():
        text = labelled(key, samples[scheme])
        assert text is not None
        assert any(i.scheme == scheme for i in identifiers_in(text, IDS)), (key, text)


@given(st.text(max_size=30))
def test_a_key_normalised_from_the_memo_is_normalised_as_afresh(key: str) -> None:
    import re

    from groundcheck.extractors import keys

    afresh = re.sub(r"[-_ ]", "", key.lower())
    assert keys._normal(key) == afresh  # first time: computed (and kept)
    assert keys._normal(key) == afresh  # second time: from the memo
    assert scheme_of_key(key) == (EVIDENCE_KEYS[afresh][0] if afresh in EVIDENCE_KEYS else None)


def test_the_key_memo_stops_growing_at_its_bound() -> None:
    from groundcheck.extractors import keys

    for i in range(keys._MOST_KEYS + 100):
        keys._normal(f"hostile-key-{i}")
    assert len(keys._NORMAL) <= keys._MOST_KEYS
    assert keys._normal("Arxiv_ID") == "arxivid"
