"""The document model's fast paths give exactly what the line-by-line model gave.

``oracle/`` holds the scanner, reference finder and segmenter as they were before the fast paths
(commit dd6d9f4, issue 17): :func:`scan` reads runs of plain and blank lines in bulk, and
:func:`find_entries` skips paragraphs that cannot be entries without cutting them into
parts. Both must give the same blocks, code spans, line starts and entries, byte for byte,
on every report and trace in the repository and on generated text built from the characters
and line shapes every branch of the scanner looks at.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from itertools import pairwise
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document.blocks import scan
from groundcheck.document.references import find_entries
from groundcheck.evidence.walk import flatten
from oracles import load_oracle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


OLD_BLOCKS = load_oracle(__file__, "blocks_v1")
# the reference-finder oracle cuts entries with the old segment()
load_oracle(__file__, "segment_v1")
OLD_REFERENCES = load_oracle(__file__, "references_v1")


def _scanned(scanner: Any, text: str) -> tuple[list[tuple[Any, ...]], list[Any], list[int]]:
    blocks, code, starts = scanner(text)
    return [attrs.astuple(b) for b in blocks], code, list(starts)


def _entries(text: str, ids: list[tuple[int, int]]) -> tuple[list[Any], list[Any]]:
    """(new, old) entries, each scanner's blocks given to its own reference finder."""
    new = find_entries(text, scan(text)[0], ids)
    old = OLD_REFERENCES.find_entries(text, OLD_BLOCKS.scan(text)[0], ids)
    return [attrs.astuple(e) for e in new], [attrs.astuple(e) for e in old]


def _assert_same(text: str, ids: list[tuple[int, int]] | None = None) -> None:
    assert _scanned(scan, text) == _scanned(OLD_BLOCKS.scan, text)
    new, old = _entries(text, ids or [])
    assert new == old


def _texts() -> list[tuple[str, str]]:
    """Every report and trace in tests/ and examples/, and the flattened tool outputs of the
    JSON ones (what the scanner reads when the title extractor runs on evidence)."""
    out: list[tuple[str, str]] = []
    suffixes = {".md", ".txt", ".json", ".jsonl", ".tex", ".bib"}
    for folder in (ROOT / "tests", ROOT / "examples"):
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.suffix not in suffixes or "oracle" in path.parts:
                continue
            if path.stat().st_size > 3_000_000:
                continue
            try:
                text = path.read_text("utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            name = str(path.relative_to(ROOT))
            out.append((name, text))
            for k, value in enumerate(_json_values(path, text)):
                flat = flatten(value).text
                if flat:
                    out.append((f"{name} (output {k})", flat))
    return out


def _json_values(path: Path, text: str) -> list[Any]:
    if path.suffix == ".json":
        try:
            return [json.loads(text)]
        except ValueError:
            return []
    values = []
    for line in text.splitlines():
        try:
            values.append(json.loads(line))
        except ValueError:
            continue
    return values


TEXTS = _texts()


def test_the_repository_has_texts_to_compare() -> None:
    assert len(TEXTS) > 200


@pytest.mark.parametrize("name", [n for n, _ in TEXTS])
def test_same_as_the_line_by_line_model_on_every_fixture(name: str) -> None:
    text = dict(TEXTS)[name]
    _assert_same(text)


# Line shapes that each branch of the scanner (and the fast path's test for them) looks at.
_LINES = st.sampled_from(
    [
        "", " ", "\t", "  \r", "\r", "\r\r", "\x0c", "\xa0x",
        "Plain words of a paragraph", "  indented plain words", "a", "Lewis, P. (2020). RAG. *NeurIPS*.",
        "References", "references:", "Sources : :", "SOURCES", "Works Cited ", "Further reading:",
        "Notes", "  Bibliography", "Title", "authors", "**Sources:**", "__Notes__",
        "# Heading", "### Heading #", "   ## h", "=====", "---", "- - -", "***", "___",
        "```", "~~~python", "`code` then text", "> quoted", ">", "\\section{Intro}",
        "\\bibitem{k} Lewis", "\\begin{thebibliography}", "| a | b |", "|---|---|", "a | b",
        "x|y", "- item", "* item", "+ item", "• item", "1. Lewis 2020", "1.", "12) x",
        "2020. A year first", "2022-09-01", "2209.61034", "[1] Lewis (2020)", "[^a]: note",
        "[1]: https://x.org", "【2】 Title", "(3) Third", "             1. deep", "@article{k,",
        "  title={A Title},", "}", "“Quoted Title Here” by someone", "arXiv:2005.11401",
        "10.1000/xyz", "https://arxiv.org/abs/2005.11401",
        # numbered lines, read in runs (blocks._NUMBERED_LINE)
        "2005.", "12005.", "1.  ", "1.x", "0. zero", "\t\t1.\tx", "99999) a", "123456. x",
        "2. a | b", "3. a\r", "   4.", "1) [2] x", "5. ```",
        # heading lines, read in runs (blocks._ATX_BEFORE_ATX)
        "# a", "#", "## ##", "# x #", "#\tx ##", "####### seven", "#x", "# a\r", "#\r",
        "   # three", "# a | b", "# ```", "# References", "## 1. Sources",
    ]
)  # fmt: skip
_ENDINGS = st.sampled_from(["\n", "\n", "\n", "\r\n"])


@st.composite
def _documents(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.tuples(_LINES, _ENDINGS), max_size=40))
    text = "".join(line + end for line, end in lines)
    if draw(st.booleans()) and text:
        text = text[: -draw(st.integers(1, min(3, len(text))))]  # no final newline
    return text


@settings(max_examples=1500, deadline=None)
@given(_documents())
def test_same_as_the_line_by_line_model_on_generated_text(text: str) -> None:
    _assert_same(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\r\n|#-=*_`~>\\[]()【】1.:aRsS\xa0", max_size=200))
def test_same_as_the_line_by_line_model_on_noise(text: str) -> None:
    _assert_same(text)


@settings(max_examples=300, deadline=None)
@given(_documents(), st.data())
def test_same_entries_given_identifiers(text: str, data: st.DataObject) -> None:
    """Entries read the identifiers' spans: any sorted spans give the same entries."""
    n = len(text)
    starts = sorted(data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=8, unique=True)))
    ids = [(s, min(n, s + data.draw(st.integers(1, 12)))) for s in starts] if n else []
    _assert_same(text, ids)


@st.composite
def _documents_with_copies(draw: st.DrawFn) -> str:
    """Lines each written one to forty times in a row: the scanner makes the blocks of a
    run of copies in one go (blocks._copies), and must make what it made line by line."""
    lines = draw(st.lists(st.tuples(_LINES, _ENDINGS, st.integers(1, 40)), min_size=1, max_size=12))
    text = "".join((line + end) * count for line, end, count in lines)
    if draw(st.booleans()):
        text = text[: -draw(st.integers(1, min(3, len(text))))]  # no final newline
    return text


@settings(max_examples=1000, deadline=None)
@given(_documents_with_copies())
def test_same_as_the_line_by_line_model_on_copied_lines(text: str) -> None:
    _assert_same(text)


@pytest.mark.parametrize(
    "unit", ["2005.\n1", "# a\n", "1.\n", "12) x\n", "# a\r\n", "## b ##\n", "# a\n# b\n"]
)
@pytest.mark.parametrize("cut", [0, 1, 2])
def test_same_as_the_line_by_line_model_on_a_flood(unit: str, cut: int) -> None:
    text = unit * 300
    _assert_same(text[: len(text) - cut])
    _assert_same("Intro\n" + text[: len(text) - cut] + "\nafter\n")


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="0126789 .:/-\n a", max_size=60), st.integers(0, 60), st.integers(0, 60))
def test_both_year_prefilters_keep_every_head_with_a_year(text: str, start: int, end: int) -> None:
    """find_entries skips a head with no year start, looked for in the head itself while few
    heads are asked about, then in a list made once for the whole text: both keep every head
    where _strong's prefilter finds a year, so switching from one to the other changes no
    entry."""
    from bisect import bisect_left

    from groundcheck.document.references import _PREFILTER, _YEAR_CORE

    head = min(end, start + 300)
    if _PREFILTER.search(text, start, head) is None:
        return
    assert _YEAR_CORE.search(text, start, head) is not None
    years = [m.start() for m in _YEAR_CORE.finditer(text)]
    k = bisect_left(years, start)
    assert k < len(years) and years[k] <= head - 4


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["item", "heading"]),
    st.lists(st.integers(0, 10**7), min_size=5, max_size=5),
    st.one_of(st.none(), st.text(max_size=5)),
    st.text(max_size=5),
)
def test_a_copied_block_is_the_block_attrs_makes(
    kind: str, numbers: list[int], label: str | None, marker: str
) -> None:
    """The blocks of copied lines are made slot by slot: equal, field for field, to what
    Block(...) makes, with the same type, hash and defaults."""
    from groundcheck.document.blocks import Block, _copy_block

    start, body, end, line, level = numbers
    made = _copy_block(kind, start, body, end, line, level, label, marker)
    expected = Block(kind, start, body, end, line, level, label, marker)
    assert type(made) is Block
    assert made == expected
    assert attrs.astuple(made) == attrs.astuple(expected)
    assert hash(made) == hash(expected)


# The blocks are kept as columns (blocks.Blocks), read as the list of Block objects they were.


@settings(max_examples=400, deadline=None)
@given(_documents_with_copies())
def test_the_columns_read_as_the_list_of_blocks(text: str) -> None:
    """Indexing, slicing, iteration, equality, kind search and re-packing of :class:`Blocks`
    give what a list of the same :class:`Block` objects gives."""
    from groundcheck.document.blocks import KINDS, Block, Blocks

    blocks = scan(text)[0]
    as_list = list(blocks)
    assert all(type(b) is Block for b in as_list)
    assert len(blocks) == len(as_list)
    assert [blocks[i] for i in range(len(blocks))] == as_list
    assert [blocks[-i] for i in range(1, len(blocks) + 1)] == [
        as_list[-i] for i in range(1, len(as_list) + 1)
    ]
    assert list(blocks[1:5]) == as_list[1:5]
    assert blocks == as_list
    assert blocks == Blocks.of(as_list)
    assert Blocks.of(blocks) is blocks
    for kind in KINDS:
        assert list(blocks.indices(kind)) == [i for i, b in enumerate(as_list) if b.kind == kind]
        for lo, hi in ((1, 3), (2, len(as_list)), (0, 0)):
            expected = [i for i, b in enumerate(as_list) if b.kind == kind and lo <= i < hi]
            assert list(blocks.indices(kind, lo, hi)) == expected
    assert [blocks.kind(i) for i in range(len(blocks))] == [b.kind for b in as_list]


@settings(max_examples=300, deadline=None)
@given(_documents(), st.randoms(use_true_random=False))
def test_sorting_the_columns_is_sorting_the_list(text: str, random: Any) -> None:
    """:meth:`Blocks.sort` orders as ``list.sort(key=(start, body))`` does, stably."""
    from groundcheck.document.blocks import Blocks

    as_list = list(scan(text)[0])
    random.shuffle(as_list)
    columns = Blocks.of(as_list)
    columns.sort()
    as_list.sort(key=lambda b: (b.start, b.body))
    assert list(columns) == as_list
    assert columns.in_order() == all(a.start < b.start for a, b in pairwise(as_list))


@settings(max_examples=300, deadline=None)
@given(_documents())
def test_document_lookups_read_the_columns_as_the_blocks(text: str) -> None:
    """block_index, heading_above and unit, read from the columns, give what the loops over
    Block objects gave; find_entries gives the same entries from a list and from columns."""
    from groundcheck.document.blocks import CELL, HEADING
    from groundcheck.document.report import Document

    doc = Document(text)
    as_list = list(doc.blocks)
    starts = [b.start for b in as_list]
    for offset in range(len(text) + 1):
        i = bisect_right(starts, offset) - 1
        expected = None if i < 0 or offset > max(as_list[i].end, as_list[i].body) else i
        assert doc.block_index(offset) == expected
        if expected is None:
            assert doc.unit(offset) is None
        else:
            b = as_list[expected]
            assert doc.unit(offset) == (("row", b.row) if b.kind == CELL else ("block", i))
    for index in range(len(as_list) + 1):
        above = [j for j in range(index) if as_list[j].kind == HEADING]
        assert doc.heading_above(index) == (above[-1] if above else None)
    from_list = find_entries(text, as_list)
    assert [attrs.astuple(e) for e in from_list] == [attrs.astuple(e) for e in doc.entries]


@settings(max_examples=200, deadline=None)
@given(_documents())
def test_section_ids_are_those_of_the_loop_over_blocks(text: str) -> None:
    """The inline identifiers of each heading's section, found by bisection over the
    headings, are what the loop over every block found."""
    from groundcheck import extract
    from groundcheck.document.blocks import HEADING
    from groundcheck.document.report import Document
    from groundcheck.document.works import _Pairing

    cits = [c for c in extract(text) if not c.is_title]
    doc = Document(text, [(c.start, c.end) for c in cits])
    pairing = _Pairing(doc, cits, [])
    by_block: dict[int, list[Any]] = {}
    for c in cits:
        i = doc.block_index(c.start)
        if i is not None:
            by_block.setdefault(i, []).append(c)
    expected: dict[int, list[Any]] = {}
    heading = None
    for i, b in enumerate(doc.blocks):
        if b.kind == HEADING:
            heading = i
            expected[i] = []
        elif heading is not None:
            expected[heading].extend(by_block.get(i, ()))
    assert pairing.section_ids == expected
    assert list(pairing.section_ids) == list(expected)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(0, 200_000),
    st.integers(1, 9),
    st.sampled_from(["i", "q"]),
)
def test_extending_a_column_by_chunks_is_extending_it(
    start: int, count: int, step: int, typecode: str
) -> None:
    """text.extend_range (by lists of 4,096) stores what array.extend stores."""
    from array import array

    from groundcheck.text import extend_range

    numbers = range(start, start + count * step, step)
    fast, slow = array(typecode, [7]), array(typecode, [7])
    extend_range(fast, numbers)
    slow.extend(numbers)
    assert fast == slow
    extend_range(fast, iter(numbers[:100]))
    slow.extend(numbers[:100])
    assert fast == slow
