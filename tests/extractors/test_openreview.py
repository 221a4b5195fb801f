"""OpenReview forum ids: URLs only, case-sensitive, noteId ignored, non-forum paths rejected."""

from __future__ import annotations

import pytest

from groundcheck.extractors.openreview import OPENREVIEW, find_openreview


def ids(text: str) -> list[str]:
    found = list(find_openreview(text))
    for m in found:
        assert text[m.start : m.end] == m.identifier.id
    return [m.identifier.id for m in found]


POSITIVE = [
    ("https://openreview.net/forum?id=HklBjCEKvH", "HklBjCEKvH"),
    ("https://openreview.net/pdf?id=HklBjCEKvH", "HklBjCEKvH"),
    ("https://OpenReview.net/forum?id=HklBjCEKvH", "HklBjCEKvH"),
    ("https://openreview.net/forum?id=Hk99zCeAb", "Hk99zCeAb"),
    ("https://openreview.net/forum?id=hSyW5go0v8&noteId=abcdefghij", "hSyW5go0v8"),
    ("https://openreview.net/forum?noteId=abcdefghij&id=hSyW5go0v8", "hSyW5go0v8"),
    ("(https://openreview.net/forum?id=rJ4km2R5t7).", "rJ4km2R5t7"),
    ("https://openreview.net/attachment?id=ZNAY3ivd62&name=supplementary_material", "ZNAY3ivd62"),
    ("openreview.net/forum?id=B1-_x-y_z9", "B1-_x-y_z9"),
    ("[paper](https://openreview.net/forum?id=HklBjCEKvH)", "HklBjCEKvH"),
]


@pytest.mark.parametrize(("text", "canonical"), POSITIVE)
def test_openreview_positive(text: str, canonical: str) -> None:
    assert ids(text) == [canonical]


NEGATIVE = [
    "HklBjCEKvH",
    "forum?id=HklBjCEKvH",
    "https://openreview.net/group?id=ICLR.cc/2024/Conference",
    "https://openreview.net/profile?id=~Some_Author1",
    "https://openreview.net/forum?id=abc",
    "https://openreview.net/forum?id=abcdefghijklmno",
    "https://openreview.net/pdf/3c7a4b5e9d.pdf",
    "https://openreview.net/forum?xid=HklBjCEKvH",
    "https://example.net/forum?id=HklBjCEKvH",
    "https://openreview.net/references/pdf?id=HklBjCEKvH",
    "https://openreview.net/revisions?id=HklBjCEKvH",
    "https://notopenreview.net/forum?id=HklBjCEKvH",
]


@pytest.mark.parametrize("text", NEGATIVE)
def test_openreview_negative(text: str) -> None:
    assert ids(text) == []


def test_ids_are_case_sensitive() -> None:
    """hklbjcekvh and HklBjCEKvH are different forums."""
    (a,) = find_openreview("https://openreview.net/forum?id=HklBjCEKvH")
    (b,) = find_openreview("https://openreview.net/forum?id=hklbjcekvh")
    assert a.identifier != b.identifier


def test_cited_form_is_found_again() -> None:
    (m,) = find_openreview("https://openreview.net/pdf?id=HklBjCEKvH")
    assert [x.identifier for x in find_openreview(OPENREVIEW.cite(m.identifier))] == [m.identifier]
