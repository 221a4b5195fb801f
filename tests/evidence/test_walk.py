"""Flattening tool outputs: every string leaf, titles, emptiness, hostile nesting."""

from __future__ import annotations

from typing import Any

import pytest

from groundcheck.evidence.walk import flatten


@pytest.mark.parametrize(
    "output",
    [
        None,
        "",
        "   ",
        [],
        {},
        [[]],
        {"results": []},
        {"a": {"b": [None, ""]}},
        "[]",
        '{"hits": []}',
    ],
)
def test_empty_outputs(output: Any) -> None:
    """Structurally empty outputs, JSON-in-a-string included, are empty."""
    assert flatten(output).empty


@pytest.mark.parametrize("output", ["x", 0, False, [1], {"n": 0}, '{"hits": [1]}', "[oops"])
def test_non_empty_outputs(output: Any) -> None:
    """Any text, number or boolean makes an output non-empty."""
    assert not flatten(output).empty


def test_text_holds_strings_and_keys_in_document_order() -> None:
    """Every string leaf and dict key is kept, in the order a reader would meet them."""
    flat = flatten({"a": ["one", {"2005.11401": "two"}], "b": "three"})
    assert flat.text.split("\n\n") == ["a", "one", "2005.11401", "two", "b", "three"]


def test_titles_from_title_keys_at_any_depth_and_inside_json_strings() -> None:
    """Titles come from 'title' keys, also inside a JSON string a tool returned."""
    out = {"hits": [{"title": "A Paper"}, {"TITLE": " B Paper "}], "raw": '[{"title": "C"}]'}
    assert sorted(flatten(out).titles) == ["A Paper", "B Paper", "C"]


def test_numbers_under_identifier_keys_are_text() -> None:
    """An id returned as a JSON number under a known key is still searchable."""
    flat = flatten({"pmid": 12345678, "score": 0.5, "arxiv_id": 2005.11401})
    assert "PMID: 12345678" in flat.text
    assert "arxiv_id: 2005.11401" in flat.text
    assert "0.5" not in flat.text


def test_strings_under_identifier_keys_are_written_with_their_label() -> None:
    """PubMed and Semantic Scholar tools return ids as strings under exact key names; the
    bare value is a number no extractor takes, so the label is written beside it."""
    out = {
        "pmid": "31452104",
        "externalIds": {"PubMedCentral": "2323736", "Medline": "87654321"},
        "isbn_13": "9780262035613",
        "openreview_id": "abc123XYZ",
        "pmid_note": "31452104",
    }
    parts = flatten(out).text.split("\n\n")
    assert "PMID: 31452104" in parts and "PMCID: 2323736" in parts
    assert "ISBN 9780262035613" in parts
    assert "https://openreview.net/forum?id=abc123XYZ" in parts
    assert not any("87654321" in p and p != "87654321" for p in parts)  # Medline is no key
    assert parts.count("PMID: 31452104") == 1  # pmid_note is not an identifier key


def test_string_ids_ground_citations_end_to_end() -> None:
    import groundcheck

    calls = [{"tool": "pubmed", "output": [{"pmid": "31452104"}, {"isbn": "978-0-262-03561-3"}]}]
    verdict = groundcheck.audit("PMID: 31452104 and ISBN 9780262035613.", calls)
    assert verdict.ok and not verdict.findings


def test_deep_nesting_does_not_recurse() -> None:
    """100,000 levels of nesting are walked without hitting the recursion limit."""
    deep: Any = "2005.11401"
    for _ in range(100_000):
        deep = [deep]
    flat = flatten(deep)
    assert flat.text == "2005.11401"
    assert not flat.empty


def test_input_is_not_mutated() -> None:
    """Flattening leaves the caller's objects as they were."""
    out = {"a": [1, {"b": "c"}]}
    snapshot = repr(out)
    flatten(out)
    assert repr(out) == snapshot


def test_json_lines_strings_are_records() -> None:
    """A tool that prints one JSON record per line (paper-finder's JSONL): each is a record."""
    out = (
        '{"title": "A Paper", "year": 2021, "authors": "Ann Lee, Bo Chen"}\n{"title": "B Paper"}\n'
    )
    flat = flatten(out)
    assert [(r.title, r.year, r.authors) for r in flat.records] == [
        ("A Paper", 2021, ("Ann Lee", "Bo Chen")),
        ("B Paper", None, ()),
    ]
    assert not flatten('{"a": 1}\n{oops\n').records  # one bad line: text, not records


def test_records_carry_authors_and_year_from_real_field_shapes() -> None:
    """Semantic Scholar, Crossref, OpenAlex and arXiv shapes of authors and dates."""
    out = [
        {"title": "S2", "authors": [{"name": "Ann Lee"}], "year": 2020},
        {"title": ["Crossref"], "author": [{"given": "Bo", "family": "Chen"}],
         "issued": {"date-parts": [[2019, 5]]}},
        {"title": "OpenAlex", "authorships": [{"author": {"display_name": "Cy Diaz"}}],
         "publication_year": 2018},
        {"title": "arXiv", "authors": ["Di Ek"], "published": "2017-06-12T17:57:34Z"},
        {"title": "none", "year": "n/a", "authors": 7},
    ]  # fmt: skip
    got = [(r.title, r.authors, r.year) for r in flatten(out).records]
    assert got == [
        ("S2", ("Ann Lee",), 2020),
        ("Crossref", ("Bo Chen",), 2019),
        ("OpenAlex", ("Cy Diaz",), 2018),
        ("arXiv", ("Di Ek",), 2017),
        ("none", (), None),
    ]


def test_an_arxiv_id_field_gets_its_prefixed_copy_only_when_the_value_alone_does_not_read() -> None:
    """A whole modern id under an arXiv key is found as it is: writing ``arXiv:`` + it again
    doubled the arXiv extraction of search results and named nothing more. An old-style id
    or one with a problem keeps its copy (the bare value alone is silent)."""
    from groundcheck.extractors.arxiv import find_arxiv, find_arxiv_legacy

    def ids(text: str) -> set[tuple[str, int | None, str | None]]:
        found = [*find_arxiv(text), *find_arxiv_legacy(text)]
        return {(m.identifier.id, m.identifier.version, m.malformed) for m in found}

    for value, copied in [
        ("2005.11401", False),
        ("2005.11401v3", False),
        ("0704.0001", False),
        ("hep-th/9901001", True),
        ("1501.1234", True),
        ("2013.12345", True),
    ]:
        text = flatten([{"title": "A paper", "arxiv_id": value}]).text
        assert (f"arXiv:{value}" in text.split("\n\n")) is copied, value
        if not copied:  # the copy would have named nothing the value does not
            assert ids(text) == ids(f"{text}\n\narXiv:{value}") != set(), value
