"""A record's identifiers read off the output's mentions keep every alias a mention has (the
arXiv id of an arXiv DOI, of an arXiv URL), as extracting the record's fields gives them."""

from __future__ import annotations

import pytest

from groundcheck.evidence.listings import _record_identifiers
from groundcheck.evidence.walk import flatten
from groundcheck.extractors import find_mentions, identifiers_in
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.text import TextView

ID_FINDERS = [e for e in BUILTIN if e.name != "title"]


@pytest.mark.parametrize(
    "fields",
    [
        {"doi": "10.48550/arXiv.2005.11401"},
        {"url": "https://arxiv.org/abs/2101.03961", "pdf": "https://arxiv.org/pdf/2101.03961v2"},
        {"doi": "https://doi.org/10.48550/arxiv.2005.11401", "arxiv_id": "2005.11401"},
        {"text": "arXiv:2005.11401 and 10.48550/arXiv.2101.03961 and PMID: 31452104"},
        {"links": ["https://arxiv.org/abs/2005.11401", "https://doi.org/10.1000/xyz"]},
    ],
)
def test_aliases_are_kept(fields: dict[str, object]) -> None:
    output = [{"title": "A Paper", **fields}, {"title": "Another Paper", **fields, "n": 1}]
    flat = flatten(output)
    view = TextView.of(flat.text)
    found = _record_identifiers(flat, ID_FINDERS, find_mentions(view.text, BUILTIN), view)
    expected = [identifiers_in(r.siblings, ID_FINDERS) for r in flat.records]
    assert found == expected
    assert any(len(keys) > 1 for keys in found)
