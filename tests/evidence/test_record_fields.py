"""A record's identifiers read off the output's mentions equal extracting its fields again."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence.listings import _record_identifiers
from groundcheck.evidence.trace import STRUCTURAL_KEYS
from groundcheck.evidence.walk import flatten
from groundcheck.extractors import find_mentions, identifiers_in
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.text import TextView

ID_FINDERS = [e for e in BUILTIN if e.name != "title"]

_PIECES = st.sampled_from(
    [
        "PMID:", "PMID ", "31452104", "PMC2323736", "2005.11401", "2005.", "11401", "arXiv:",
        "10.1000/xyz", "10.", "hep-th/9711200", "ISBN 978-0-262-03561-3", "CorpusId:",
        "https://doi.org/10.1000/abc", "https://arxiv.org/abs/2101.03961", "\\u200b", "ü",
        "&#47;", "%2F", " ", "\n", ":", "-", "word", "Title", "2020", "{", "}", "[", "]", '"',
    ]
)  # fmt: skip
_STRINGS = st.lists(_PIECES, max_size=6).map("".join)
_KEYS = st.sampled_from(
    ["title", "Title", "abstract", "pmid", "corpusId", "year", "authors", "type", "data",
     "externalIds", "arxiv_id", "doi", "url", "status"]
)  # fmt: skip
_LEAF = st.one_of(_STRINGS, st.integers(0, 40_000_000), st.booleans(), st.none())
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=12,
)
_RECORD = st.fixed_dictionaries({"title": _STRINGS}, optional={"x": _VALUE}).flatmap(
    lambda base: st.dictionaries(_KEYS, _VALUE, max_size=5).map(lambda d: {**d, **base})
)
_OUTPUT = st.one_of(
    st.lists(_RECORD, max_size=6),
    st.dictionaries(st.sampled_from(["results", "data", "papers"]), st.lists(_RECORD, max_size=4)),
    st.lists(_RECORD, max_size=3).map(lambda rs: {"text": __import__("json").dumps(rs)}),
)


@settings(max_examples=300, deadline=None)
@given(_OUTPUT)
def test_record_identifiers_equal_extracting_each_record(output: Any) -> None:
    flat = flatten(output, STRUCTURAL_KEYS)
    view = TextView.of(flat.text)
    mentions = find_mentions(view.text, BUILTIN)
    expected = [
        identifiers_in(r.siblings, ID_FINDERS) if r.siblings else set() for r in flat.records
    ]
    assert _record_identifiers(flat, ID_FINDERS, mentions, view) == expected


def test_a_field_under_a_structural_key_is_extracted_from_the_record() -> None:
    """Nested structural keys are not in the output's text, yet are the record's fields."""
    output = [{"title": "A b c", "externalIds": {"type": "arXiv:2005.11401"}}]
    flat = flatten(output, STRUCTURAL_KEYS)
    assert flat.record_leaves == (None,)
    view = TextView.of(flat.text)
    found = _record_identifiers(flat, ID_FINDERS, find_mentions(view.text, BUILTIN), view)
    assert [sorted(map(str, s)) for s in found] == [["arxiv:2005.11401"]]


def test_number_fields_are_read_as_the_record_writes_them() -> None:
    """'corpusId: 123' names a Semantic Scholar paper in the record's fields; the output's text
    (which writes only identifier-like number keys) does not hold it."""
    output = [{"title": "A b c", "corpusId": 215737187}]
    flat = flatten(output, STRUCTURAL_KEYS)
    view = TextView.of(flat.text)
    found = _record_identifiers(flat, ID_FINDERS, find_mentions(view.text, BUILTIN), view)
    assert found == [identifiers_in(flat.records[0].siblings, ID_FINDERS)]
    assert found[0]


def test_a_search_record_is_read_off_the_output_text() -> None:
    """Fields one level down (an id map, an author list) are leaves of the text: tracked, so
    nothing is extracted twice."""
    output = [
        {
            "title": "A b c",
            "externalIds": {"ArXiv": "2005.11401", "DOI": "10.1000/x"},
            "authors": ["A. Smith", "B. Jones"],
            "abstract": "words",
            "year": 2020,
        }
    ]
    flat = flatten(output, STRUCTURAL_KEYS)
    (tracked,) = flat.record_leaves
    assert tracked is not None
    leaves, numbers = tracked
    assert sorted(flat.text[slice(*flat.leaves[i])] for i in leaves) == sorted(
        ["2005.11401", "10.1000/x", "A. Smith", "B. Jones", "words"]
    )
    assert numbers == ("year: 2020",)
