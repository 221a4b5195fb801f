"""The text view: normalisation for matching, with every span mapped back to the original."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.text import TextView, locate


def test_ascii_fast_path_is_identity() -> None:
    """Plain ASCII with no broken numbers is used as it is, without a copy or a map."""
    text = "arXiv:2005.11401 and hep-th/9711200\nnext line"
    view = TextView.of(text)
    assert view.is_identity
    assert view.to_original(3, 9) == (3, 9)


@pytest.mark.parametrize(
    ("original", "view_text"),
    [
        ("２３０１．００００１", "2301.00001"),
        ("2301.0\u200b0001", "2301.00001"),
        ("2301.\u00ad00001", "2301.00001"),
        ("2301.000\u200d01", "2301.00001"),
        ("\ufeff2301.00001", "2301.00001"),
        ("hep\u2010th/9711200", "hep-th/9711200"),
        ("2005.114-\n01", "2005.11401"),
        ("2005.114-\r\n  01", "2005.11401"),
        ("2005.-\n11401", "2005.11401"),
        ("２-\n２", "22"),  # regression: a fullwidth digit after the break was not seen
        ("0\u2010\n0", "00"),  # regression: a typographic hyphen at the line end was not seen
        ("２\u2010\n0", "20"),  # regression: ... nor one swallowed by a run of other symbols
        ("２００５.１１４-\n０１", "2005.11401"),
        ("hep-\nth/9711200", "hep-th/9711200"),  # an archive name before its slash: joined
        ("state-of-\nthe-art", "state-of-\nthe-art"),  # a hyphenated word: kept
        ("ﬁle 2301.00001", "file 2301.00001"),
        ("é 2301.00001", "é 2301.00001"),
    ],
)
def test_view_normalises(original: str, view_text: str) -> None:
    """NFKC, invisible characters, typographic hyphens and number line breaks."""
    assert TextView.of(original).text == view_text


@pytest.mark.parametrize(
    ("original", "view_text"),
    [
        # dashes inside an old-style archive name, and only there
        *((f"hep{d}th/9711200", "hep-th/9711200") for d in "\u2012\u2013\u2014\u2015\ufe58\u2043"),
        ("cond\u2014mat.str-el/0601001", "cond-mat.str-el/0601001"),
        ("pages 10\u201320 and 2019\u20132020", "pages 10\u201320 and 2019\u20132020"),
        ("the model\u2014trained on hep/th data", "the model\u2014trained on hep/th data"),
        ("10.1000/abc\u2014see", "10.1000/abc\u2014see"),  # a DOI ends at an em dash
        # every line separator, where the grammar cannot stop
        *((f"2005.114{b}01", "2005.11401") for b in ["\r", "\v", "\f", "\x85", "\u2028", "\u2029"]),
        ("2005.\r\n11401", "2005.11401"),
        ("hep-th/\n9711200", "hep-th/9711200"),
        ("he\np-th/9711200", "hep-th/9711200"),
        ("hep-th\n/9711200", "hep-th/9711200"),
        ("physi\ncs/9610001", "physics/9610001"),  # regression: "cs" alone is an archive too
        # combinations the long property runs found (GROUNDCHECK_DISGUISE_EXAMPLES)
        ("ao\u058a&shy;sci/9502001", "ao-sci/9502001"),
        ("acc\u058aph\nys/9411001", "acc-phys/9411001"),
        ("c\nhem\ufe63ph/9403001", "chem-ph/9403001"),
        ("m\nath\uff0eAG/9202001", "math.AG/9202001"),
        ("0704\uff0e*0001*", "0704.0001*"),
        ("arXiv:**0704. 0001**", "arXiv:**0704.0001**"),
        ("see\ncs/9610001", "see\ncs/9610001"),
        ("arXiv:20\n05.11401", "arXiv:2005.11401"),
        ("arXiv:2005\n.11401", "arXiv:2005.11401"),
        ("doi:10.\n1000/x", "doi:10.1000/x"),
        ("doi:10\n.1000/x", "doi:10.1000/x"),
        ("doi:10.10\n00/x", "doi:10.1000/x"),
        ("doi:10.1000/\nx", "doi:10.1000/x"),
        # ... and nowhere else
        ("1412.1234\n5 more", "1412.1234\n5 more"),  # a complete sequence of its era
        ("in 20\n05.11401", "in 20\n05.11401"),  # no prefix: "20" is a number
        ("doi:10.1000/made.\nup.42", "doi:10.1000/made.\nup.42"),  # inside a suffix: ambiguous
        ("2005.\n\n11401", "2005.\n\n11401"),  # a blank line ends everything
        ("see\nthe results", "see\nthe results"),
        # invisible characters, written or encoded
        ("2005.114\ufe0f01", "2005.11401"),
        ("2005.114\U000e010001", "2005.11401"),
        ("2005.114\U000e004101", "2005.11401"),
        ("2005.114&shy;01", "2005.11401"),
        ("2005.114&#8203;01", "2005.11401"),
        ("2005.114&#x200B;01", "2005.11401"),
        ("2005.114%E2%80%8B01", "2005.11401"),
        ("2005.114%C2%AD01", "2005.11401"),
        ("caf%C3%A9", "caf%C3%A9"),  # other percent-encoded UTF-8 stays as written
        # look-alike slashes, Markdown escapes and emphasis
        ("hep-th\u22159711200", "hep-th/9711200"),
        ("10.1000\u2044x", "10.1000/x"),
        ("2005\\.11401", "2005.11401"),
        ("hep\\-th/9711200", "hep-th/9711200"),
        ("10.1000/a\\_b", "10.1000/a_b"),
        ("2005.*11401*", "2005.11401*"),
        ("**2005**.**11401**", "**2005.11401**"),
        ("hep-th/*9711200*", "hep-th/9711200*"),
        ("10.1000/*x*", "10.1000/x*"),
        ("2*3 and snake_case_name", "2*3 and snake_case_name"),
        # a space after the dot, only with the arXiv prefix
        ("arXiv:2005. 11401", "arXiv:2005.11401"),
        ("in 2005. 11401 people", "in 2005. 11401 people"),
    ],
)
def test_view_reads_through_disguises(original: str, view_text: str) -> None:
    """Each disguise class of issue 18 folds where it can hide an id, and only there."""
    assert TextView.of(original).text == view_text


def test_ascii_fast_path_for_ordinary_disguise_free_text() -> None:
    """Line breaks, dashes, emphasis and dots in ordinary ASCII prose keep the fast path."""
    text = "Results.\n2020 was a year; see 2*3 and snake_case and **bold** and x. 12 items\r\n"
    assert TextView.of(text).is_identity


def test_a_view_that_rewrites_nothing_is_the_identity() -> None:
    """A text whose candidates all stay as they are (an accent NFKC keeps, an underscore that is
    no emphasis) is its own view: the same string, offsets mapped as they are."""
    text = "Müller, A.\n\narxiv_id\n\n2301.00001\n\nsnake_case"
    view = TextView.of(text)
    assert view.is_identity
    assert view.to_original(2, 12) == (2, 12)
    assert not TextView.of("Ｍüller").is_identity  # a fullwidth letter is folded


_PIECES = st.sampled_from(
    [
        "\n",
        "\n\n",
        "\r",
        " ",
        "\t",
        "2",
        ".",
        "/",
        "\\/",
        "%2F",
        "&#47;",
        "&sol;",
        "hep",
        "-",
        "th",
        "arXiv:",
        "2005",
        "11401",
        "10.",
        "1000",
        "\uff0e",
        "\u2010",
        "x",
        "_",
        "*",
    ]
)


@given(st.lists(_PIECES, max_size=30))
def test_no_line_break_scan_when_every_break_is_paired(pieces: list[str]) -> None:
    """A text whose line breaks all come in pairs (a flattened output) skips the scan for
    breaks inside identifiers: the scan finds nothing in such a text."""
    from groundcheck.text import _break_scan, _paired_newlines

    text = "".join(pieces)
    if _paired_newlines(text):
        assert list(_break_scan("\n").finditer(text)) == []


@given(st.lists(_PIECES, max_size=12))
def test_strings_joined_by_blank_lines_read_as_with_the_scan(pieces: list[str]) -> None:
    """Strings joined by blank lines (a flattened output) give the view they give when the
    break scan runs."""
    from unittest import mock

    text = "\n\n".join(p.replace("\n", " ") for p in pieces)
    view = TextView.of(text)
    with mock.patch("groundcheck.text._paired_newlines", return_value=False):
        scanned = TextView.of(text)
    assert (view.text, view.to_original(0, len(view.text))) == (
        scanned.text,
        scanned.to_original(0, len(scanned.text)),
    )


def test_spans_map_back_around_removed_characters() -> None:
    """A span in the view covers the same characters, invisible ones included, in the original."""
    original = "see 2301.0\u200b0001 now"
    view = TextView.of(original)
    start = view.text.index("2301")
    end = start + len("2301.00001")
    s, e = view.to_original(start, end)
    assert original[s:e] == "2301.0\u200b0001"


def test_expansion_maps_to_whole_character() -> None:
    """A character NFKC expands (ﬁ -> fi) is never cut in half by a mapped span."""
    original = "aﬁb"
    view = TextView.of(original)
    assert view.text == "afib"
    assert view.to_original(1, 2) == (1, 2)  # "f" -> the whole ligature
    assert view.to_original(2, 3) == (1, 2)  # "i" -> the whole ligature
    assert view.to_original(3, 4) == (2, 3)


def test_locate_lines_and_columns() -> None:
    """Lines and columns are 1-based and computed in one forward pass."""
    text = "ab\ncd\n\nef"
    assert list(locate(text, [0, 1, 3, 7, 8])) == [(1, 1), (1, 2), (2, 1), (4, 1), (4, 2)]


def test_locate_rejects_unsorted_offsets() -> None:
    with pytest.raises(ValueError, match="sorted"):
        list(locate("abc", [2, 1]))


_alphabet = st.sampled_from(
    [
        *"ab09.-/ \n:v",
        "\u200b",
        "\u00ad",
        "２",
        "．",
        "ﬁ",
        "é",
        "\u2010",
        "\ufeff",
        "\u0301",
        "中",
        "\r",
    ]
)

_hostile_alphabet = st.sampled_from(
    [
        *"ab09.-/ \n:v*_\\%&#;",
        "hep",
        "10.",
        "arXiv:",
        "\u200b",
        "\u2013",
        "\u2014",
        "\u2028",
        "\x85",
        "\ufe0f",
        "\U000e0041",
        "&shy;",
        "&#8203;",
        "%E2%80%8B",
        "%2F",
        "\\.",
        "\r\n",
        "\v",
        "２",
        "ﬁ",
        "\u2215",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_alphabet, max_size=60).map("".join))
def test_view_maps_every_span_inside_the_original(original: str) -> None:
    """Any view span maps to an ordered span within the original text."""
    view = TextView.of(original)
    n = len(view.text)
    for start in range(n + 1):
        for end in range(start, min(n, start + 4) + 1):
            s, e = view.to_original(start, end)
            assert 0 <= s <= e <= len(original)


@settings(max_examples=500, deadline=None)
@given(st.lists(_hostile_alphabet, max_size=40).map("".join))
def test_every_view_span_maps_to_whole_written_characters(original: str) -> None:
    """With every disguise class mixed in, view spans map inside the original, in order, and
    the view of a span's original text starts and ends where the span does."""
    view = TextView.of(original)
    n = len(view.text)
    previous = (0, 0)
    for start in range(n + 1):
        s, e = view.to_original(start, min(n, start + 3))
        assert 0 <= s <= e <= len(original)
        assert s >= previous[0]
        previous = (s, e)


@settings(max_examples=300, deadline=None)
@given(st.lists(_alphabet, max_size=60).map("".join))
def test_view_of_view_is_stable(original: str) -> None:
    """Normalising twice changes nothing more: the view is a fixed point."""
    once = TextView.of(original).text
    assert TextView.of(once).text == once


def test_the_views_archive_names_are_the_extractors() -> None:
    """text.ARCHIVES is a copy (the view sits below the extractors); it must not drift."""
    from groundcheck.extractors.arxiv import LEGACY_ARCHIVES
    from groundcheck.text import ARCHIVES

    assert frozenset(LEGACY_ARCHIVES) == ARCHIVES


_VIEW_PIECES = st.sampled_from(
    [
        *"0123456789. \t\n\r\v\f-/x%&\\*_:",
        "arXiv:",
        "ARXIV ",
        "arxiv.org/abs/",
        "aRxIv",
        "2005",
        "2005.",
        "11401",
        ". ",
        ".  ",
        "hep",
        "th",
        "10.",
        "1000",
        "%2E",
        "&#46;",
        "\\u0032",
        "**",
        " " * 40,
        "\n\n",
        "\r\n",
    ]
)


def _every_ascii_candidate(text: str) -> list[tuple[int, int, int, str]]:
    """The ASCII candidates as every scan finds them over the whole text, ungated (the
    oracle of the gates in ``_candidates`` and of ``_arxiv_dotspaces``)."""
    from groundcheck.text import _ASCII_SCANS

    found = []
    for _, kind, priority, pattern in _ASCII_SCANS:
        shift = 1 if kind == "dotspace" else 0
        found += [(m.start() + shift, priority, m.end(), kind) for m in pattern.finditer(text)]
    return sorted(found)


def _needs_view_slowly(text: str) -> bool:
    from groundcheck.text import _TAIL_LEN, _Peek, _rewrite

    for start, _, end, kind in _every_ascii_candidate(text):
        run = text[start:end]
        out = _rewrite(kind, run, text[max(0, start - _TAIL_LEN) : start], _Peek(text, end))
        if out is not None and out != run:
            return True
    return False


@settings(max_examples=800, deadline=None)
@given(st.lists(_VIEW_PIECES, max_size=40).map("".join))
def test_needs_view_agrees_with_every_candidate_decided(text: str) -> None:
    """The ASCII check (scans gated on their literal before the trailing whitespace, spaces
    after dots looked for only after a written "arxiv") answers as deciding every candidate
    of every scan over the whole text does, and the view it leads to is the one the full
    build makes."""
    from groundcheck.text import _candidates, _needs_view

    assert _needs_view(text) == _needs_view_slowly(text)
    assert list(_candidates(text, True)) == _every_ascii_candidate(text)
    view, built = TextView.of(text), TextView._build(text)
    assert view.text == built.text
    assert view.to_original(0, len(view.text)) == built.to_original(0, len(built.text))


@pytest.mark.parametrize(
    "text",
    [
        "see arXiv:2005. 11401",
        "see ARXIV 2005.  11401 and more",
        "arxiv.org/abs/2005. 11401",
        "x" * 3 + "arXiv:" + " " * 30 + "2005. 11401",  # the dot near the tail's far end
        "arXiv:" + " " * 40 + "2005. 11401",  # "arxiv" beyond the tail: kept
        "see 2005. 11401 (no prefix)",
        # the tail the rule reads is 48 characters: "arxiv" at its far end, and just past it
        *(f"{lead}arXiv:{' ' * k}2005. 11401" for lead in ("", "x", "ax ") for k in range(33, 41)),
    ],
)
def test_space_after_an_arxiv_dot_is_found_near_its_prefix(text: str) -> None:
    """Spaces after a dot are looked for only near a written "arxiv": what the rule reads."""
    from groundcheck.text import _needs_view

    assert _needs_view(text) == _needs_view_slowly(text)


def test_a_final_line_break_compiles_no_scan() -> None:
    """A one-line file's final newline starts no candidate, so its scan is never built."""
    from groundcheck.text import _candidates

    assert list(_candidates("see arXiv:2005.11401\n", True)) == []
    assert list(_candidates("see arXiv:2005.11401 \n\n \t\n", True)) == []


@given(st.lists(st.sampled_from(["\n", "\n\n", "a", " ", "\r\n", "\n\n\n"]), max_size=20))
def test_paired_newlines_is_the_count_of_every_run(pieces: list[str]) -> None:
    """The early answer from the first break agrees with counting every run of breaks."""
    from groundcheck.text import _paired_newlines

    text = "".join(pieces)
    assert _paired_newlines(text) == (text.count("\n") == 2 * text.count("\n\n"))


@given(
    st.text(alphabet="ab\n\r ", max_size=40),
    st.lists(st.integers(0, 40), max_size=12),
)
def test_locate_is_counting_from_the_start(text: str, raw: list[int]) -> None:
    """Each offset's line and column are those of counting the breaks before it afresh."""
    offsets = sorted(min(o, len(text)) for o in raw)
    expected = [
        (text.count("\n", 0, off) + 1, off - (text.rfind("\n", 0, off) + 1) + 1) for off in offsets
    ]
    assert list(locate(text, offsets)) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1.-_\n\n\n \tü\u2028&%\\*2005.11401 arXiv")), max_size=80))
def test_the_paired_hint_gives_the_same_view(text: str) -> None:
    """``TextView.of(text, paired=...)`` (a caller that knows whether every line break sits
    in a blank line) builds the view the text alone gives."""
    from groundcheck.text import _paired_newlines

    assert TextView.of(text, paired=_paired_newlines(text)) == TextView.of(text)


@pytest.mark.parametrize("method", ["finditer", "findall", "match", "fullmatch", "search", "sub"])
def test_a_lazy_pattern_answers_as_the_compiled_one_before_and_after_compiling(
    method: str,
) -> None:
    """Its first call compiles the pattern (and from then on each method is the compiled
    pattern's own): both calls answer what ``re`` answers, positions and keywords included."""
    import re

    from groundcheck.text import LazyPattern

    lazy, compiled = LazyPattern(r"(\d+)"), re.compile(r"(\d+)")
    args: tuple[object, ...] = ("-", "a 12 b 3") if method == "sub" else ("a 12 b 3", 1, 7)

    def norm(value: object) -> object:
        if isinstance(value, re.Match):
            return value.span(), value.groups()
        if method == "finditer":
            return [m.span() for m in value]  # type: ignore[attr-defined]
        return value

    want = norm(getattr(compiled, method)(*args))
    assert norm(getattr(lazy, method)(*args)) == want  # compiles
    assert norm(getattr(lazy, method)(*args)) == want  # the compiled pattern's own method
    assert getattr(lazy, method) == getattr(lazy.compiled, method)
    if method != "sub":
        assert norm(getattr(lazy, method)("a 12 b 3", pos=1, endpos=7)) == want
