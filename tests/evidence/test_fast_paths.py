"""The evidence fast paths give exactly what the code before them gave.

``oracle/`` holds ``walk.py``, ``mentions.py`` and ``listings.py`` as they were before the
issue-17 part-2 fast paths (commit ea2905c): :func:`title_text` works out every block's kind in
C-level passes over byte strings instead of a Python step per block. The old and new code must
give the same results, value for value, on every trace and tool output in the repository, on the
benchmark's search results and on generated outputs built from the pieces every branch looks at.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence import listings, mentions
from groundcheck.evidence.trace import STRUCTURAL_KEYS
from groundcheck.evidence.walk import flatten
from groundcheck.extractors.arxiv import reads_bare
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.title import TitleExtractor
from groundcheck.model import TITLE_SCHEME, Mention
from groundcheck.text import TextView
from oracles import load_oracle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TITLE = next(e for e in BUILTIN if isinstance(e, TitleExtractor))


OLD_WALK = load_oracle(__file__, "walk_v1")
_ORACLE_LABELLED = OLD_WALK.labelled


def _labelled_as_now(key: str, value: object) -> str | None:
    """The oracle's ``labelled`` with the one change made to what flatten writes since it was
    frozen: no ``arXiv:`` copy of a value that reads as that id alone (walk._labelled_copy;
    that the copy named nothing more is tested in test_walk.py)."""
    written = _ORACLE_LABELLED(key, value)
    redundant = written is not None and written.startswith("arXiv:")
    if redundant and isinstance(value, str) and reads_bare(value):
        return None
    return written


OLD_WALK.labelled = _labelled_as_now
OLD_MENTIONS = load_oracle(__file__, "mentions_v1")
OLD_LISTINGS = load_oracle(__file__, "listings_v1")


def _ids(view: str) -> list[Mention]:
    return [m for e in BUILTIN if e.name != "title" for m in e.find(view)]


def _same_copy(text: str) -> bool:
    """Both title_text give the same copy and kept ids; True when a copy was made."""
    view = TextView.of(text).text
    ids = _ids(view)
    made = False
    for extractor in (TITLE, None):
        new = mentions.title_text(view, ids, extractor)
        assert new == OLD_MENTIONS.title_text(view, ids, extractor)
        made = made or new is not None
    return made


def _outputs() -> list[tuple[str, Any]]:
    """Every JSON value of the repository's traces and tool outputs, whole and record by
    record (a record of a trace is what a loader hands make_evidence as one output)."""
    found: list[tuple[str, Any]] = []
    for folder in (ROOT / "tests", ROOT / "examples", ROOT / "benchmarks" / "data"):
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.suffix not in (".json", ".jsonl"):
                continue
            text = path.read_text("utf-8", errors="replace")
            try:
                values = [json.loads(text)]
            except ValueError:
                try:
                    values = [json.loads(line) for line in text.splitlines() if line.strip()]
                except ValueError:
                    continue
            name = str(path.relative_to(ROOT))
            found.append((name, values))
            for value in values:
                items = value if isinstance(value, list) else [value]
                found.extend((name, item) for item in items[:300])
    return found


_OUTPUTS = _outputs()


def test_the_repository_outputs_are_compared() -> None:
    assert len(_OUTPUTS) > 500


def _benchmark_outputs() -> list[Any]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_audit_scale
    finally:
        sys.path.pop(0)
    calls, _ = bench_audit_scale.make_case()
    return [c["output"] for c in calls[:5]]


def _same_flat(value: Any, ignore: frozenset[str] = STRUCTURAL_KEYS) -> None:
    """Both flatten give the same FlatOutput (records compared field by field: the oracle's
    Record is a class of its own); ``strings``, which the oracle has not, are what the text
    joins."""
    new = flatten(value, ignore)
    old = attrs.astuple(OLD_WALK.flatten(value, ignore))
    fields = attrs.astuple(new)
    fields = (*fields[:5], new.leaves, *fields[6:])  # (the leaves: made when asked for)
    assert fields[: len(old)] == old
    assert "\n\n".join(new.strings) == new.text


def test_flatten_of_every_repository_output_is_unchanged() -> None:
    for _name, value in _OUTPUTS:
        _same_flat(value)
        _same_flat(value, frozenset())


def test_flatten_of_the_benchmark_search_results_is_unchanged() -> None:
    for output in _benchmark_outputs():
        _same_flat(output)


def _same_harvest(value: Any) -> None:
    """Both harvest give the same titles and works, from what make_evidence hands them."""
    flat = flatten(value, STRUCTURAL_KEYS)
    if not flat.text:
        return
    view = TextView.of(flat.text)
    every = mentions.output_mentions(view.text, BUILTIN)
    ids = [m for m, _ in every if m.malformed is None and m.identifier.scheme != TITLE_SCHEME]
    titles = [*flat.titles, *(view.text[m.start : m.end] for m, n in every if n == "title")]
    listed = listings.listed_works(view.text, ids, BUILTIN)
    assert listed == OLD_LISTINGS.listed_works(view.text, ids, BUILTIN)
    new = listings.harvest(flat, view.text, ids, BUILTIN, titles, mentions=every, view=view)
    old = OLD_LISTINGS.harvest(flat, view.text, ids, BUILTIN, titles, mentions=every, view=view)
    assert attrs.astuple(new) == attrs.astuple(old)


def test_harvest_of_every_repository_output_is_unchanged() -> None:
    for _name, value in _OUTPUTS:
        _same_harvest(value)


def test_harvest_of_the_benchmark_search_results_is_unchanged() -> None:
    for output in _benchmark_outputs()[:2]:
        _same_harvest(output)


def test_title_copy_of_every_repository_output_is_unchanged() -> None:
    for _name, value in _OUTPUTS:
        _same_copy(flatten(value, STRUCTURAL_KEYS).text)


def test_title_copy_of_the_benchmark_search_results_is_unchanged() -> None:
    made = [_same_copy(flatten(o, STRUCTURAL_KEYS).text) for o in _benchmark_outputs()]
    assert all(made)  # the copy is really made on that shape


# Generated outputs -----------------------------------------------------------------------------


class _Text(str):
    """A str subclass (a Python caller's own string type)."""


class _Fields(Mapping[str, Any]):
    """A Mapping that is not a dict."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


_STRING = st.one_of(
    st.sampled_from(
        ["", " ", "Toy Models of Superposition", "2005.11401", "arXiv:2101.03961", "31452104",
         "10.1000/xyz", "Lewis, P.; Perez, E. et al.", "2020-05-22", "  [1, 2]", '{"title": "In',
         '{"title": "Inner Paper Title", "doi": "10.1000/inner"}', '[{"arxiv": "2005.11401"}]',
         '{"a": 1}\n{"title": "Line Record", "pmid": 123}', "[]", "{}", "\n", "Müller"]
    ),
    st.text(max_size=12),
)  # fmt: skip
_KEY = st.sampled_from(
    ["title", "Title", "TITLE", "abstract", "arxiv_id", "arxiv", "eprint", "doi", "pmid", "PubMed",
     "CorpusId", "pmc_number", "isbn", "authors", "author", "year", "published", "date", "issued",
     "type", "data", "status", "results", "text", "url", "externalIds", "x"]
)  # fmt: skip
_SCALAR = st.one_of(
    _STRING,
    st.integers(-5, 40_000_000),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
    _STRING.map(_Text),
)
_ANY = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_KEY, inner, max_size=6),
        st.dictionaries(_KEY, inner, max_size=3).map(_Fields),
        st.dictionaries(st.integers(0, 3), inner, max_size=2),
    ),
    max_leaves=40,
)


@settings(max_examples=250, deadline=None)
@given(_ANY)
def test_flatten_of_generated_values_is_unchanged(value: Any) -> None:
    _same_flat(value)
    _same_flat(value, frozenset({"x", "abstract"}))


@settings(max_examples=150, deadline=None)
@given(_ANY)
def test_harvest_of_generated_values_is_unchanged(value: Any) -> None:
    _same_harvest(value)


@pytest.mark.parametrize(
    "fields",
    [
        # plain fields (taken where the object is read), then the first that takes the stack
        {"title": "A Paper", "doi": "10.1000/a", "meta": {"pmid": 31452104}, "year": 2020},
        {"arxiv_id": "2005.11401", "abstract": '{"title": "Inner Paper", "doi": "10.1/i"}'},
        {"title": "A Paper", "authors": ["Lewis, P.", " Perez, E."], "url": "x"},
        {"title": "A Paper", "authors": ["Lewis, P.", ["nested"]], "pmid": 123},
        {"title": "A Paper", "summary": "  padded", "type": "structural", 7: "int key"},
        {"title": "A Paper", "feed": "<feed><entry><title>Feed Paper</title></entry></feed>"},
        {"title": "", "arxiv": 2005.11401, "ok": True, "none": None, "isbn": "978-0-306-40615-7"},
    ],
)
def test_flatten_of_plain_fields_before_other_fields_is_unchanged(fields: dict[Any, Any]) -> None:
    """A record's plain fields, and the fields from the first one that is not plain, give
    the text, owners and records they gave through the stack (also as a nested record)."""
    for value in (fields, [fields, fields], {"results": [fields], "paper": fields}):
        _same_flat(value)
        _same_flat(value, frozenset())


def test_flatten_of_a_deep_value_is_unchanged() -> None:
    deep: Any = "2005.11401"
    for n in range(20_000):
        deep = (
            [deep, {"title": f"Paper {n % 7} Words", "doi": "10.1000/x"}]
            if n % 500 == 0
            else [deep]
        )
    _same_flat(deep)


# Generated texts -------------------------------------------------------------------------------

_PIECES = [
    "Word", "word", "Deep Learning", " ", "  ", "\t", "2020", "1999", "2021-05-01", "2005.11401",
    "arXiv:", "arXiv:2101.03961", "10.1000/xyz", '"', "“", "‘", "«", "*", "**", "_", "__", "[",
    "](", ")", "(", "{", "}", "\r", "#", "# ", "-", "- ", "1. ", "12) ", "[1] ", "=", "===", "|",
    "---", "`", "```", "~~~", "title", "Title =", "title={", "@article{", "References",
    "Sources:", "notes", "## Bibliography", "\\section{", ",", ".", ":", "et al.", "Lewis, P.",
    ">", "Müller", "½", "²",
    "We study sparse attention for long context language models and find gains in recall.",
    "Lewis, P., Perez, E. (2020). Retrieval-augmented generation. NeurIPS.",
]  # fmt: skip
_LISTING = [
    "Title: Toy Models of Superposition", "TITLE: Scaling Laws", "**Title**: Deep Residual Nets",
    "title: lower case label", "References", "REFERENCES", "ReFeReNcEs", "Bibliography",
    "## BIBLIOGRAPHY", "[1] A. Author, B. Author. A paper title here. In Proc., 2020.",
    "1. Toy Models of Superposition\n   Relevance: 3/3 | Year: 2022",
    "| Title | Year |\n|---|---|\n| Language Models are Few-Shot Learners | 2020 |",
    "Title\tYear\nAttention Is All You Need\t2017", "Authors: Lewis, P.", "Published: 2020-05-22",
    "Links: [{\"title\": \"Pasted Json Title\", \"url\": \"https://arxiv.org/abs/2005.11401\"}]",
    "Switch Transformers: Scaling | 2101.03961",
]  # fmt: skip
_SEPARATORS = ["\n\n", "\n\n", "\n\n", "\n", "\n\n\n", "\n \n", "\r\n\r\n", "\n\n\n\n"]
_BLOCK = st.lists(st.sampled_from(_PIECES), max_size=6).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.one_of(_BLOCK, st.sampled_from(_PIECES)), st.sampled_from(_SEPARATORS)),
        min_size=1,
        max_size=80,
    )
)
def test_title_copy_of_generated_texts_is_unchanged(parts: list[tuple[str, str]]) -> None:
    _same_copy("".join(p + s for p, s in parts))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.one_of(_BLOCK, st.sampled_from(_LISTING)), st.sampled_from(_SEPARATORS)),
        min_size=1,
        max_size=40,
    )
)
def test_harvest_of_generated_texts_is_unchanged(parts: list[tuple[str, str]]) -> None:
    _same_harvest("".join(p + s for p, s in parts))


@pytest.mark.parametrize("repeat", [16, 40])
def test_title_copy_of_many_plain_blocks_around_one_piece_is_unchanged(repeat: int) -> None:
    plain = "\n\n".join(["Wang, A.", "2022-09-01", "retrieval model language"] * repeat)
    for piece in _PIECES:
        _same_copy(f"{plain}\n\n{piece}\n\n{plain}")


_HEADER_PIECES = [
    "title", "Title", "TITLE", "paper", "Paper Title", "tıtle", "TİTLE", "Title,Authors,Year",
    "title\tyear", "| Paper | Year |", "Title, Year", "Toy Models of Superposition,2022",
    "Attention Is All You Need\t2017", "a, b", "\t", "|", ",", " ", "x", "Müller", "subtitle",
    "newspaper", "2005.11401",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(_HEADER_PIECES), min_size=1, max_size=4).map("".join),
            st.sampled_from(["\n", "\n\n", "\r\n", " "]),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_delimited_listings_of_generated_texts_are_unchanged(parts: list[tuple[str, str]]) -> None:
    """The header prefilter (a line with a title word and a separator) skips only texts in
    which the header search finds nothing."""
    text = "".join(p + s for p, s in parts)
    assert list(listings._delimited(text)) == list(OLD_LISTINGS._delimited(text))


_LONG_HEADS = ["", "1. ", "12) ", "2020 ", "# ", "## References ", "References\n", " ", "\t", "- ",
               "**", "“", "Müller ", "٢٠٢٠ ", "[1] ", "title = "]  # fmt: skip
_LONG_BODY = "sparse attention for long context language models and gains in recall " * 2


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(_LONG_HEADS),
            st.sampled_from([_LONG_BODY, _LONG_BODY[:79], _LONG_BODY[:81], "2020 " + _LONG_BODY]),
            st.sampled_from(["Wang, A.", "2022-09-01", "arXiv:2005.11401", "x" * 81]),
        ),
        min_size=8,
        max_size=30,
    )
)
def test_title_copy_with_long_blocks_is_unchanged(parts: list[tuple[str, str, str]]) -> None:
    """Texts of long blocks (more than 80 characters, which skip the shape memo) of every
    head: the copy is the one the oracle makes."""
    _same_copy("\n\n".join(f"{head}{body}\n\n{short}" for head, body, short in parts))
