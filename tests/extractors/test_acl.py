"""ACL Anthology ids: new style bare, old style only in context, the ACL DOI as an alias."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import extract
from groundcheck.extractors.acl import _NEW_TAIL, ACL, ACL_EXTRACTOR, acl_from_doi, find_acl
from groundcheck.extractors.doi import DOI, find_doi
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier

DOI_EXTRACTOR = FunctionExtractor("doi", find_doi, schemes=(DOI,))


def acl(text: str) -> list[tuple[str, int | None]]:
    return [(m.identifier.id, m.identifier.version) for m in find_acl(text)]


POSITIVE = [
    ("2023.acl-long.123", "2023.acl-long.123", None),
    ("https://aclanthology.org/2023.acl-long.123.pdf", "2023.acl-long.123", None),
    ("2020.emnlp-main.550v2.pdf", "2020.emnlp-main.550", 2),
    ("2020.acl-srw.0", "2020.acl-srw.0", None),
    ("2022.findings-emnlp.12", "2022.findings-emnlp.12", None),
    ("https://aclanthology.org/N19-1423/", "N19-1423", None),
    ("https://www.aclweb.org/anthology/P18-1023.pdf", "P18-1023", None),
    ("https://aclweb.org/anthology/P/P19/P19-1001.pdf", "P19-1001", None),
    ("ACL:W12-3903", "W12-3903", None),
    ("ACL Anthology P19-1001", "P19-1001", None),
    ("acl anthology: p19-1001", "P19-1001", None),
    ("doi:10.18653/v1/N19-1423", "N19-1423", None),
    ("doi:10.18653/v1/2020.acl-main.703", "2020.acl-main.703", None),
    ("10.18653/V1/2020.ACL-MAIN.447", "2020.acl-main.447", None),
    ("https://aclanthology.org/P19-1001v2.pdf", "P19-1001", 2),
    ("https://aclanthology.org/P19-1001e1.pdf", "P19-1001", 1),
    ("(2023.acl-long.123).", "2023.acl-long.123", None),
    ("論文2023.acl-long.123を参照", "2023.acl-long.123", None),
]


@pytest.mark.parametrize(("text", "canonical", "version"), POSITIVE)
def test_acl_positive(text: str, canonical: str, version: int | None) -> None:
    assert acl(text) == [(canonical, version)]


NEGATIVE = [
    "P19-1001",
    "N19-1423 was cited",
    "Model M16-1234",
    "2023.10.15",
    "v2023.acl-long.1",
    "2023.acl-long",
    "2023.acl.123",
    "version 2023.1-2.3",
    "release-2023.01-rc.1",
    "1.2023.acl-long.1",
    "2023.acl-long.1.2",
    "1899.acl-long.1",
    "In ACL 2019, P19-1001 showed",
    "https://aclanthology.org/volumes/2020.acl-main/",
]


@pytest.mark.parametrize("text", NEGATIVE)
def test_acl_negative(text: str) -> None:
    assert acl(text) == []


def test_every_mention_carries_its_doi() -> None:
    """The DOI alias is lower-cased like every DOI key."""
    (m,) = find_acl("ACL:W12-3903")
    assert m.aliases == (Identifier("doi", "10.18653/v1/w12-3903"),)


def test_acl_doi_is_one_citation() -> None:
    """The ACL id inside an ACL DOI is the DOI's alias, so the pipeline keeps one citation."""
    (c,) = extract("doi:10.18653/v1/N19-1423", extractors=(DOI_EXTRACTOR, ACL_EXTRACTOR))
    assert (c.scheme, c.id) == ("doi", "10.18653/v1/n19-1423")
    assert Identifier("acl", "N19-1423") in c.aliases


@pytest.mark.parametrize(
    ("suffix", "expected"),
    [("n19-1423", "N19-1423"), ("2020.ACL-MAIN.447", "2020.acl-main.447"), ("x", None)],
)
def test_acl_from_doi(suffix: str, expected: str | None) -> None:
    found = acl_from_doi(suffix)
    assert (found.id if found else None) == expected


def test_cited_form_is_found_again() -> None:
    """The way a person writes the id (ACL:<id>) yields the same identifier."""
    for text in ("2023.acl-long.123", "ACL:N19-1423"):
        (m,) = find_acl(text)
        assert [x.identifier for x in find_acl(ACL.cite(m.identifier))] == [m.identifier]


_acl_pieces = st.sampled_from(
    [
        "2020.acl-main.447", "1949.acl-main.1", "2099.x-y.2", "2100.a-b.3", "2301.12345",
        "1024.5678", "2020.", "acl", "-main", "-", ".", "447", "v2", "e1", "1999", "2023",
        "x", " ", "\n", "ACL: ", "P19-1001", "10.18653/v1/", "aclanthology.org/",
    ]
)  # fmt: skip


def _new_style_unfiltered(text: str) -> list[tuple[str, int, int]]:
    """New-style ids the way find_acl found them before the shared dot scan: every
    ``_NEW_TAIL`` match, the year and the character before it checked by hand."""
    found = []
    for m in _NEW_TAIL.finditer(text):
        year_at = m.start() - 4
        before = text[year_at - 1] if year_at else ""
        if not "1950" <= text[year_at : m.start()] <= "2099":
            continue
        if before.isascii() and (before.isalnum() or before == "."):
            continue
        found.append((text[year_at : m.end(2)], year_at, m.end()))
    return found


@settings(max_examples=800, deadline=None)
@given(st.lists(_acl_pieces, max_size=40).map("".join))
def test_new_style_ids_from_the_shared_dot_scan_are_those_of_a_full_scan(text: str) -> None:
    new = [(m.identifier.id, m.start, m.end) for m in find_acl(text) if "." in m.identifier.id]
    expected = [(raw.lower(), start, end) for raw, start, end in _new_style_unfiltered(text)]
    assert new == expected
