"""A record read in the same pass as its fields, and the fast paths of ``year_of`` and
``authors_of``, give exactly what the code before them gave (``oracle/walk_v1.py``).

``flatten`` used to read each record twice: once alone (``_record``: title, siblings, authors,
year) and once for its text. It now gathers the record while it takes the fields; the
generated values below mix plain fields with the ones that take the stack (nested objects,
JSON strings, blank-led strings), in every position, so the hand-over between the two is
compared as well. ``test_fast_paths.py`` compares the whole FlatOutput on every repository
output.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence import walk
from groundcheck.evidence.trace import STRUCTURAL_KEYS
from oracles import load_oracle

OLD_WALK = load_oracle(__file__, "walk_v1")

_WORDS = st.sampled_from(
    ["Smith, A.", "Müller", "Chen", " Wang ", "Lewis  P.", "a\tb", "x\u00a0y", "\u200bz", "", " ",
     "2020", "1999-12-31", "20201", "٢٠٢٠", "2020\u0662", "19", "200", "2021-05", "Cohen et al.",
     "Kim and Lee", "Zhang; Liu", "Sparse Attention", "2005.11401", '{"title": "Inner"}', "[1]"]
)  # fmt: skip
_NAME = st.one_of(
    _WORDS,
    st.text(alphabet=" \t\n\u00a0\u2009\u3000abcXYZ.,;-\u200b\x1cé", max_size=12),
    st.fixed_dictionaries({"name": _WORDS}),
    st.fixed_dictionaries({"given": _WORDS, "family": _WORDS}),
    st.integers(0, 3000),
    st.none(),
)
_VALUE = st.one_of(
    _WORDS,
    st.lists(_NAME, max_size=4),
    st.integers(1500, 2500),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
    st.fixed_dictionaries({"date-parts": st.just([[2019, 6]])}),
    st.dictionaries(st.sampled_from(["pmid", "name", "x"]), _WORDS, max_size=2),
)
_KEYS = st.sampled_from(
    ["title", "Title", "authors", "author", "creators", "year", "published", "date", "issued",
     "arxiv_id", "doi", "pmid", "abstract", "url", "type", "data", "keywords", "x"]
)  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(st.dictionaries(_KEYS, _VALUE, max_size=7), min_size=1, max_size=4))
def test_records_read_in_one_pass_are_unchanged(records: list[dict[str, Any]]) -> None:
    for ignore in (STRUCTURAL_KEYS, frozenset(), frozenset({"abstract", "authors"})):
        for value in (records, {"results": records}, records[0]):
            new, old = walk.flatten(value, ignore), OLD_WALK.flatten(value, ignore)
            before = attrs.astuple(old)  # (the oracle has no ``strings``: the text joins them)
            fields = attrs.astuple(new)
            fields = (*fields[:5], new.leaves, *fields[6:])  # (the leaves: made when asked for)
            assert fields[: len(before)] == before
            assert "\n\n".join(new.strings) == new.text


@settings(max_examples=600, deadline=None)
@given(st.one_of(_NAME, st.lists(_NAME, max_size=6), st.text(max_size=10)))
def test_year_and_authors_are_unchanged(value: Any) -> None:
    assert walk.year_of(value) == OLD_WALK.year_of(value)
    assert walk.authors_of(value) == OLD_WALK.authors_of(value)
    assert walk.authors_of(value, 2) == OLD_WALK.authors_of(value, 2)


def test_a_record_alone_is_what_flatten_gathers() -> None:
    record = {"title": "A Paper", "authors": ["Lewis, P."], "year": 2020, "pmid": 123, "x": "y"}
    alone = walk._record(record, frozenset())
    assert alone is not None
    assert walk.flatten(record).records == (alone[0],)
    assert alone[1:] == (2, ("year: 2020", "pmid: 123"))


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.text(alphabet=" \t\n\u00a0\u2009\u3000abcXYZ.,;-\u200b\x1cé", max_size=12), max_size=6
    ),
    st.integers(1, 8),
)
def test_authors_of_a_list_of_strings_is_unchanged(names: list[str], limit: int) -> None:
    """The C-level path for a list of plain strings (the usual author list) against the oracle."""
    assert walk.authors_of(names) == OLD_WALK.authors_of(names)
    assert walk.authors_of(names, limit) == OLD_WALK.authors_of(names, limit)
