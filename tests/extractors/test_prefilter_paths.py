"""The cheaper ways of finding where to look give the places the full-text scans gave.

Three scans became reads of offsets found at memchr speed, on long texts only (a memo is kept
from 4,096 characters on, so the tests below pad every text past that):

- ``xiv`` and ``openalex`` were read off the offsets of ``x`` while ``x`` was rare (now every
  needle is found by a vectorised search, see ``test_needle_search.py``); before, each was a
  ``str.find`` scan of the whole text;
- old-style arXiv ids are matched at each ``/`` of the text (``arxiv._legacy_tails``), while
  ``/`` is rare; before, ``_LEGACY_TAIL.finditer``;
- bare ISBN-13s are matched where ``97`` starts (``isbn._bare_matches``); before,
  ``"97" in text`` and ``_BARE.finditer``.

Each is compared with the scan it replaced, on generated texts dense in the literals, the
identifiers and the traps around them, and on floods where the letter or the slash is common
(which take the old scans again).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import arxiv, doi, hints, isbn
from groundcheck.extractors.arxiv import find_arxiv, find_arxiv_legacy
from groundcheck.extractors.hints import _find_all, _lower, needle_positions
from groundcheck.extractors.openalex import find_openalex
from groundcheck.model import Mention

_FRAGMENTS = [
    "x", "X", "xiv", "XIV", "arXiv:", "alphaxiv.org/abs/", "openalex", "OpenAlex: W2741809807",
    "openalex.org/W123456", "openaleX", "/", "//", "hep-th/9711200", "math.AG/0601001v2",
    "cs/0701001", "/9711200", "hep-th/97112000", "97", "978-0-262-03561-3", "979-10-90636-07-1",
    "978-0-262-03561-3-4", "/978-0-262-03561-3", "ISBN 978-0-262-03561-3", "9797", " ", "\n",
    "2005.11401", "\u0130", "\u212a", "-", ".",
]  # fmt: skip
_PIECES = st.lists(
    st.one_of(st.sampled_from(_FRAGMENTS), st.text("ax/97-. \n", max_size=6)), max_size=60
).map("".join)


def _long(text: str, filler: str) -> str:
    """``text`` past the memo threshold, the filler on both sides (so offsets shift too)."""
    pad = filler * (4200 // max(1, len(filler)) + 1)
    return pad[:2100] + text + pad[:2100]


def _fresh() -> None:
    hints._cache = ()  # each text computed afresh, as its first reader sees it


@settings(max_examples=300, deadline=None)
@given(_PIECES, st.sampled_from(["lorem ipsum ", "x", "xx y ", "a/b ", "7", " "]))
def test_needles_read_off_the_letter_are_the_scanned_ones(core: str, filler: str) -> None:
    text = _long(core, filler)
    _fresh()
    low = _lower(text)
    for needle in ("xiv", "openalex", "5iv", "pm", "pmid"):
        assert needle_positions(text, needle) == _find_all(low, needle)


@settings(max_examples=300, deadline=None)
@given(_PIECES, st.sampled_from(["lorem ipsum ", "/", "a/b ", "x ", " "]))
def test_legacy_ids_at_each_slash_are_the_regex_search_ones(core: str, filler: str) -> None:
    text = _long(core, filler)
    _fresh()
    found = [m.span() for m in arxiv._legacy_tails(text)]
    assert found == [m.span() for m in arxiv._LEGACY_TAIL.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(_PIECES, st.sampled_from(["lorem ipsum ", "97", "9", "978-", " "]))
def test_bare_isbns_where_97_starts_are_the_regex_search_ones(core: str, filler: str) -> None:
    text = _long(core, filler)
    _fresh()
    found = [m.span() for m in isbn._bare_matches(text)]
    assert found == [m.span() for m in isbn._BARE.finditer(text)]


def test_the_finders_agree_on_both_paths() -> None:
    """Long texts take the new paths, the same text in short pieces the old scans."""
    core = (
        "see arXiv:2005.11401 and hep-th/9711200, openalex.org/W2741809807, "
        "ISBN 978-0-262-03561-3 and 978-0-262-03561-3; math.AG/0601001v2 xiv/9711200\n"
    )
    text = core * 60
    assert len(text) > 4096
    for finder in (find_arxiv, find_arxiv_legacy, find_openalex, isbn.find_isbn):
        _fresh()
        whole = sorted((m.start, m.end, str(m.identifier), m.malformed) for m in finder(text))
        pieces = sorted(
            (m.start + i * len(core), m.end + i * len(core), str(m.identifier), m.malformed)
            for i in range(60)
            for m in finder(core)
        )
        assert whole == pieces, finder.__name__


def test_a_common_letter_or_slash_takes_the_scans() -> None:
    text = ("x/" * 3000) + "arXiv hep-th/9711200 openalex:W2741809807 978-0-262-03561-3"
    _fresh()
    assert hints.char_positions(text, "/") is None
    assert needle_positions(text, "xiv") == _find_all(_lower(text), "xiv")
    assert [m.span() for m in arxiv._legacy_tails(text)] == [
        m.span() for m in arxiv._LEGACY_TAIL.finditer(text)
    ]
    assert [str(m.identifier) for m in find_openalex(text)] == ["openalex:W2741809807"]


_ID_DOT_V1 = (
    r"\.(?<=[0-9]{4}\.)(?:"
    r"(?<=(?:0[1-9]|1[0-2])\.)[0-9]{4,5}(?:v[0-9]+)?(?![A-Za-z0-9])"
    r"|[0-9]{3,6}v[0-9]+(?![A-Za-z0-9])"
    r"|(?<=(?:19[5-9][0-9]|20[0-9]{2})\.)[A-Za-z])"
)
"""``arxiv._ID_DOT`` before its lookbehinds spelt their digits out (``[0-9]{4}``)."""


@settings(max_examples=500, deadline=None)
@given(st.text("0123456789.vVa-/ \u0661", max_size=80), st.integers(0, 5))
def test_the_id_dot_scan_finds_what_it_found(text: str, pos: int) -> None:
    old = re.compile(_ID_DOT_V1)
    assert [m.span() for m in arxiv._ID_DOT.finditer(text, pos)] == [
        m.span() for m in old.finditer(text, pos)
    ]


_SHORT_HEAD_V1 = r"(?<![0-9.])([0-9]{1,3})\.([0-9]+)(?:v([0-9]+))?(?![A-Za-z0-9])"
"""``arxiv._SHORT_HEAD`` before its left boundary moved after the first digit."""


@settings(max_examples=500, deadline=None)
@given(st.text("0123456789.vVa-/ :", max_size=60), st.integers(0, 8), st.integers(0, 60))
def test_the_short_head_scan_finds_what_it_found(text: str, pos: int, endpos: int) -> None:
    old = re.compile(_SHORT_HEAD_V1)
    new = arxiv._SHORT_HEAD.compiled
    for args in ((text,), (text, pos), (text, pos, endpos)):
        assert [(m.span(), m.groups()) for m in new.finditer(*args)] == [
            (m.span(), m.groups()) for m in old.finditer(*args)
        ]


_DOI_FRAGMENTS = [
    "10.", "10.1", "10.1234/", "10.1234/abc", "10.10.1000/x", "110.1000/x", "10.5", "10.1000",
    "%2F", "%2f", "/", "//", ".", "1", "0", "12345678901", "10.1234%2Fabc", "https://doi.org/",
    " ", "\n", "<2.0.CO;2-", "&#", "&amp;", "a", "10.123.4.5.6.7/x", "\u0661", "\u00e9",
    "10.123456789.123456789.123456789.123456789.123456789", "110.123456789.123456789.1",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(_DOI_FRAGMENTS), st.text("10./%2Fa ", max_size=6)), max_size=60
    ).map("".join),
    st.sampled_from(["lorem ipsum ", "/", "a/b ", "10.", " "]),
)
def test_doi_candidates_before_each_slash_are_the_regex_search_ones(core: str, filler: str) -> None:
    """Read back from the rare slashes of a long text (or by the regex search where slashes
    are common or the text is short): the matches, spans and groups, ``finditer`` found."""
    wide = filler * (40_000 // len(filler))  # room for 40 slashes of the core
    for text in (core, _long(core, filler), wide + core * 3 + wide):
        _fresh()
        want = [(m.span(), m.groups()) for m in doi._CANDIDATE.finditer(text)]
        assert [(m.span(), m.groups()) for m in doi._candidates(text)] == want


_CANDIDATE_V1 = (
    r"10\.([0-9]{1,9}(?:\.[0-9]{1,9}){0,4})(?:/|%2[Ff])((?:" + doi._SUFFIX_CHAR + r"|<(?=[0-9]))*)"
)
"""``doi._CANDIDATE`` before its repeats were made possessive."""


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(_DOI_FRAGMENTS), st.text("10./%2F<a#&; \n", max_size=6)),
        max_size=40,
    ).map("".join),
    st.integers(0, 5),
)
def test_the_possessive_doi_candidate_finds_what_it_found(text: str, pos: int) -> None:
    old = re.compile(_CANDIDATE_V1)
    assert [(m.span(), m.groups()) for m in doi._CANDIDATE.compiled.finditer(text, pos)] == [
        (m.span(), m.groups()) for m in old.finditer(text, pos)
    ]


def _dots_after_hints_v1(text: str, hints: list[int]) -> list[int]:
    """The dots ``arxiv._written_malformed`` looked at before the windows were merged: each
    hint's window searched on its own, the dots deduplicated and sorted."""
    seen: set[int] = set()
    for hint in hints:
        for m in arxiv._CANDIDATE_DOT.finditer(
            text, hint + 1, min(len(text), hint + arxiv._AFTER_HINT + 2)
        ):
            seen.add(m.start())
    return sorted(seen)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["arXiv:", "arxiv_id", "xiv", " ", "\n", "2209.61034", "1024.5678"]),
            st.sampled_from(["1412.1234", "0703.1234", "12301.00001", "1501.1234", "0704.0000"]),
            st.sampled_from(["2301.123456", "2301.00000", "a:", "/abs/", "\t", "v2", "arXiv: "]),
            st.text("0123456789.x ", max_size=8),
        ),
        max_size=40,
    ).map("".join),
    st.integers(0, 200),
    st.booleans(),
)
def test_merged_hint_windows_find_the_dots_each_window_found(
    core: str, gap: int, at_the_end: bool
) -> None:
    text = "lorem ipsum " * 400 + core + " " * gap + core
    text = text if at_the_end else text + " lorem" * 20
    _fresh()
    context = arxiv._ArxivContext(text)
    hints_at = context.hints
    everything = _dots_after_hints_v1(text, hints_at)
    if len(hints_at) * arxiv._AFTER_HINT < len(text):  # (else the whole-text branch)
        # the dots now read are some of those; the others give nothing (the assert below)
        assert set(arxiv._dots_after_hints(text, context)) <= set(everything)
    assert list(arxiv._written_malformed(text, context)) == _written_malformed_v1(
        text, context, everything
    )


def _written_malformed_v1(
    text: str, context: arxiv._ArxivContext, dots: list[int]
) -> list[Mention]:
    """``arxiv._written_malformed`` before its windows stopped at the hints' reaches and its
    dots were tested inside the engine (``_WRITTEN_DOT``): every candidate dot in the windows
    matched and tested in Python."""
    found = []
    for dot in dots:
        tail = arxiv._MODERN_TAIL.match(text, dot)
        if tail is None:
            continue
        seq, version = tail.group(1, 2)
        if version is not None:
            continue
        left = dot - 4
        if (left == 0 or not "0" <= text[left - 1] <= "9") and arxiv._plausible(
            text[left:dot], seq, None
        ):
            continue
        mention, needs_context = arxiv._modern(text, tail, context, only_context=True)
        if mention is not None and needs_context:
            found.append(mention)
    return found


_WINDOW_PIECES = st.sampled_from(
    [
        "arXiv:", "arxiv ", "ARXIV : ", "arXiv.", "ar5iv.org/abs/", "https://arxiv.org/abs/",
        "huggingface.co/papers/", "xxx.lanl.gov/abs/", "2005.11401", "1024.5678", "2313.01234",
        "0703.1234", "1412.12345", "1501.1234", "2301.123", "2301.123456", "12301.00001",
        "230.12345", "1.2", "3.5", "12.345", "99", "v", "v2", "v0", ".", ":", "/", " ", "\t",
        "\n", ",", "x", "see ", "a" * 30, "b/" * 20, "1234567890" * 3,
        "arxiv_id", "arxiv_id: ", "arXiv,", "ARXIV)", "alphaxiv.org/abs/", "Huggingface ",
        "lanl ", "xxx.lanl.gov/", "ar5iv ", "arxiv\n", "123.4567",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_WINDOW_PIECES, max_size=30).map("".join), st.integers(0, 120))
def test_hint_windows_read_to_their_reach_find_what_one_pass_finds(core: str, gap: int) -> None:
    """In a long text with few arXiv hints, the windows after them are read only as far as
    a token may be written after a hint (``_ArxivContext.reaches``) and the dots tested in
    the engine (``_WRITTEN_DOT``): find_arxiv must report what the one-pass scan reports."""
    text = "lorem ipsum " * 400 + core + " " * gap + core + " dolor" * 30
    _fresh()
    assert list(find_arxiv(text)) == list(arxiv._find_arxiv_unfiltered(text))


def _written_dot_v1(text: str, dot: int) -> bool:
    """Does ``_written_malformed`` (before ``_WRITTEN_DOT``) go past its quick rejections at
    the candidate dot ``dot``?"""
    if arxiv._CANDIDATE_DOT.match(text, dot) is None:
        return False
    tail = arxiv._MODERN_TAIL.match(text, dot)
    if tail is None or tail.group(2) is not None:
        return False
    left = dot - 4
    return not (
        (left == 0 or not "0" <= text[left - 1] <= "9")
        and arxiv._plausible(text[left:dot], tail.group(1), None)
    )


def test_written_dot_is_the_quick_rejections_for_every_year_and_month() -> None:
    for yymm in range(10000):
        for seq in ("000", "0000", "0001", "1234", "00000", "12345", "123456", "1234567"):
            text = f" {yymm:04d}.{seq} "
            assert (arxiv._WRITTEN_DOT.match(text, 5) is not None) == _written_dot_v1(text, 5)


@settings(max_examples=1000, deadline=None)
@given(
    st.sampled_from(["", " ", "1", "a", ".", "/", ":"]),
    st.sampled_from(["0704", "0703", "1412", "1413", "1501", "2312", "2313", "9912", "0000"]),
    st.text("0123456789", min_size=0, max_size=8),
    st.sampled_from(["", " ", "v2", "v", "v0", "a", ".", "5", "v2a", "-", "\n"]),
)
def test_written_dot_is_the_quick_rejections(before: str, yymm: str, seq: str, after: str) -> None:
    text = f"{before}{yymm}.{seq}{after}"
    dot = len(before) + 4
    assert (arxiv._WRITTEN_DOT.match(text, dot) is not None) == _written_dot_v1(text, dot)


_ID_DOT_PIECES = st.sampled_from(
    [
        "2005.11401", "2005.11401v2", "1024.5678", "1024.5678v1", "2301.123456v3", "0703.1234",
        "2020.acl-main.447", "1999.x-y.1", "1949.acl-main.1", "2020.", "v", ".", " ", "\n",
        "arXiv:", "aclanthology.org/", "12301.00001", "a", "1", "2020.acl-long.1v2",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_ID_DOT_PIECES, max_size=30).map("".join))
def test_the_shared_id_dot_scan_gives_each_reader_what_it_read(core: str) -> None:
    """find_arxiv reads the id-dot scan's own matches (its groups are _MAYBE_VALID's) and
    keeps the dots for find_acl, which reads only the ACL branch's; the other order, and
    each extractor's previous reading of every dot, give the same mentions."""
    from groundcheck.extractors.acl import _NEW_TAIL, find_acl

    text = "lorem ipsum " * 400 + core + " dolor" * 30
    _fresh()
    arxiv_first = (list(find_arxiv(text)), list(find_acl(text)))
    _fresh()
    acl_first = list(find_acl(text))
    assert (list(find_arxiv(text)), acl_first) == arxiv_first
    every = arxiv.id_dots(text)
    assert [d for d in every if _NEW_TAIL.match(text, d)] == [
        d for d in arxiv.acl_dots(text) if _NEW_TAIL.match(text, d)
    ]
    assert [m.span() for m in arxiv._modern_matches(text)] == [
        m.span() for d in every if (m := arxiv._MAYBE_VALID.match(text, d)) is not None
    ]
    _fresh()
    assert [(m.span(), m.groups()[:4]) for m in arxiv._modern_matches(text)] == [
        (m.span(), m.groups())
        for d in arxiv._scan_id_dots(text)[0]
        if (m := arxiv._MAYBE_VALID.match(text, d)) is not None
    ]


def test_the_archive_lookbehind_class_is_the_one_kept_for_runs() -> None:
    """The archive search of a run is kept by (run, the character before it refused by the
    lookbehind): that set must be exactly what the case-insensitive lookbehind refuses."""
    lookbehind = re.compile(r"(?<![A-Za-z0-9\-])y", re.IGNORECASE)
    refused = {
        chr(c)
        for c in range(0x110000)
        if not 0xD800 <= c <= 0xDFFF and lookbehind.match(chr(c) + "y", 1) is None
    }
    assert refused == arxiv._ARCHIVE_LEFT


_LEGACY_PIECES = st.sampled_from(
    [
        "hep-th/9711200", "math.AG/0601001v2", "HEP-TH/9711200", "hep-th/0703001", "/9711200",
        "math/0601001", "cs.LG/0701001", "arXiv.hep-th/9711200", "x.hep-th/9711200", "-", ".",
        "1", "a" * 45, "\u017f", "\u212a", "\u0130", " ", "\n", "math-ph/9901001", "Math.ag/",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_LEGACY_PIECES, max_size=20).map("".join))
def test_archive_searches_kept_per_run_find_what_each_search_found(core: str) -> None:
    text = "lorem ipsum " * 400 + core + " dolor " + core
    _fresh()
    assert list(find_arxiv_legacy(text)) == list(_legacy_v2(text))


def _legacy_v2(text: str) -> Iterator[Mention]:
    """``find_arxiv_legacy`` before it kept one archive search per run."""
    for m in arxiv._legacy_tails(text):
        slash = m.start()
        lo = max(0, slash - arxiv._ARCHIVE_WINDOW)
        before = text[lo:slash]
        if before.endswith("\n"):
            before = before[:-1]
        run_at = lo + len(before.rstrip(arxiv._ARCHIVE_CHARS))
        if run_at == lo + len(before):
            continue
        a = arxiv._ARCHIVE_BEFORE.search(text, run_at, slash)
        if a is None:
            continue
        start = a.start()
        if start and text[start - 1] == "." and not arxiv._after_arxiv_prefix(text, start):
            continue
        archive = a.group(1).lower()
        digits, version = m.group(1), m.group(2)
        yield Mention._trusted(
            arxiv._IDENTIFIER(
                arxiv.SCHEME, f"{archive}/{digits}", int(version) if version else None
            ),
            start,
            m.end(),
            malformed=arxiv._legacy_problem(digits, version, archive),
        )


def test_a_short_head_across_a_windows_end_is_read_whole() -> None:
    """Regression: the window after a hint ends 80 characters on, and a short head found
    across that end was reported cut short ("230.1234" for "230.12345") when another hint
    nearer the token let it be read in the earlier window."""
    core = "arXiv:arXiv:arXiv:arXiv:ARXIV : 230.12345"
    text = "lorem ipsum " * 400 + core + " " + core + " dolor" * 30
    _fresh()
    heads = [m.group() for m in arxiv._ArxivContext(text).short_heads()]
    assert heads == ["230.12345", "230.12345"]
    assert [m.identifier.display for m in find_arxiv(text) if m.malformed] == [
        "230.12345",
        "230.12345",
    ]


@settings(max_examples=400, deadline=None)
@given(st.lists(_WINDOW_PIECES, max_size=30).map("".join), st.integers(0, 120))
def test_short_heads_read_after_the_openers_are_those_written_anywhere(
    core: str, gap: int
) -> None:
    """Short heads (``230.12345``) are looked for only after the hints a context may open at
    (``_ArxivContext.openers``: not ``arxiv_id``, ``arXiv,``): they must be every short head
    of the text that is written as an arXiv id, each once."""
    text = "lorem ipsum " * 400 + core + " " * gap + core + " dolor" * 30
    _fresh()
    context = arxiv._ArxivContext(text)
    assert len(context.hints) * arxiv._CONTEXT_WINDOW < len(text)  # the windows' branch
    found = [m.span() for m in context.short_heads()]
    written = [
        m.span() for m in arxiv._SHORT_HEAD.finditer(text) if context.written_as_arxiv(m.start())
    ]
    assert sorted(found) == written


def test_hints_no_context_opens_at_open_no_window() -> None:
    record = "arxiv_id\n\n2005.11401\n\ntitle\n\nRetrieval-Augmented Generation\n\n"
    text = record * 50 + "See arXiv: 230.12345 and arXiv:1024.5678."
    context = arxiv._ArxivContext(text)
    assert len(context.hints) == 52
    assert [text[h - 2 : h + 4] for h in context.openers()] == ["arXiv:", "arXiv:"]
    assert [m.group() for m in context.short_heads()] == ["230.12345"]
    malformed = [(m.identifier.display, m.malformed) for m in find_arxiv(text) if m.malformed]
    assert malformed == [
        ("1024.5678", "month 24 is not 01-12"),
        ("230.12345", "arXiv ids have 4 digits before the dot, not 3"),
    ]
