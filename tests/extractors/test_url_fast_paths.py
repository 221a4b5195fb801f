"""The URL extractor's shortcuts give what the slow path gives.

- an arXiv URL whose path is ``/abs/<id>`` (``arxiv.url_path_id``) is read without running
  both arXiv finders on the URL;
- the DOI in a doi.org or publisher URL is the one ``find_doi`` already read in full there
  (``doi._read_in_full``), when the URL's bound leaves its candidate whole;
- ``url._trim`` returns at once when the last character is one it never removes, a run is
  split only when it holds a ``,`` or ``;``, ``urlkey._remove_dot_segments`` looks for
  ``/.``, and a URL is unwrapped once for its key and its family (``unwrapped_key``).

Each is compared with the path it skips, on generated URLs dense in the shapes around it
(versions, ``.pdf``, malformed ids, hosts with digits and dots) inside generated texts.
"""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from groundcheck.extractors import doi, hints, url, urlkey
from groundcheck.extractors.arxiv import find_arxiv, find_arxiv_legacy, url_path_id
from groundcheck.extractors.doi import find_doi
from groundcheck.model import Mention


def _shape(m: Mention | None) -> Any:
    if m is None:
        return None
    return (m.identifier, m.identifier.version, m.start, m.end, m.malformed, m.aliases, m.kind)


_HOSTS = ["arxiv.org", "www.arxiv.org", "export.arxiv.org", "1234.5678.arxiv.org", "ar5iv.org"]
_DIGITS = st.one_of(
    st.text("0123456789", min_size=0, max_size=7),
    st.sampled_from(["2005", "0704", "0703", "1412", "1501", "2313", "9912", "11401", "0001"]),
    st.sampled_from(["1234", "00000", "12345", "123", "123456", "0000", "99999"]),
)
_ID = st.one_of(
    st.tuples(_DIGITS, st.sampled_from([".", ".", "", "/"]), _DIGITS).map("".join),
    st.sampled_from(["2005.11401", "0704.0001", "1412.9999", "1501.00001", "2401.30485"]),
)
_PATHS = st.tuples(
    st.sampled_from(["/abs/", "/pdf/", "/abs/", "/abs", "/html/", "/abs/hep-th/", "/"]),
    _ID,
    st.sampled_from(["", "", "v", "v0", "v1", "v12", "V2"]),
    st.sampled_from(["", "", ".pdf", ".PDF", "/", ".", "#S2", "?x=1", "a", ".pdf.pdf"]),
).map("".join)
_URLS = st.tuples(
    st.sampled_from(["https://", "http://", "HTTPS://", "ftp://", "www."]),
    st.sampled_from(_HOSTS),
    _PATHS,
).map("".join)
_PLAIN = st.sampled_from(["2005.11401", "2313.01234v2", "0704.0001", "1412.1234", "1501.00001"])


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(_HOSTS), _PATHS, st.sampled_from(["https://", "x https://"]))
@example("arxiv.org", "/pdf/2005.11401v2.pdf", "https://")
@example("arxiv.org", "/abs/2005.11401", "x https://")
@example("arxiv.org", "/abs/0704.0001v1", "https://")
def test_arxiv_path_id_is_the_finders_first_mention(host: str, path: str, scheme: str) -> None:
    text = scheme + host + path
    pos = len(scheme) + len(host)
    start = text.find("://") - 5 if text.startswith("x ") else 0
    quick = url_path_id(text, pos, len(text))
    if quick is None:
        return
    piece = text[start:]
    found = [*find_arxiv(piece), *find_arxiv_legacy(piece)]
    assert _shape(url._first(found, start, pos)) == _shape(quick)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(_URLS, _PLAIN, st.sampled_from([" ", ". ", "(", ")", "\n"])), max_size=12)
)
def test_find_url_is_the_same_without_its_shortcuts(parts: list[str]) -> None:
    text = " ".join(parts)
    fast = [_shape(m) for m in url.find_url(text)]
    original = url.url_path_id
    url.url_path_id = lambda text, pos, end: None  # type: ignore[assignment]
    try:
        slow = [_shape(m) for m in url.find_url(text)]
    finally:
        url.url_path_id = original
    assert fast == slow


_DOI_PARTS = [
    "https://doi.org/", "http://dx.doi.org/", "https://www.pnas.org/doi/", "doi:", " ", "\n",
    "10.1000/xyz", "10.1002/(SICI)1097-4571<3.0.CO;2-#", "10.48550/arXiv.2005.11401v2", "<2",
    "10.5/x", "10.1000/", "(", ")", ".", "&amp;", "?q=", "/full", "https://x.org/?u=", "10.",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(_DOI_PARTS), st.text("10./<x)(", max_size=4)), max_size=40),
    st.integers(0, 40),
)
def test_doi_at_reuses_what_find_doi_read(parts: list[str], slack: int) -> None:
    core = "".join(parts)
    text = "p " * 2100 + core + " q" * 2100  # past the memo threshold: find_doi keeps readings
    hints._cache = ()
    list(find_doi(text))
    at = text.find("10.")
    while at != -1:
        for endpos in (None, at + slack, at + 3 * slack, len(text) - 2100):
            expected = None
            m = doi._CANDIDATE.match(text, at, len(text) if endpos is None else endpos)
            if m is not None:
                expected = doi._mention(text, m)
            assert _shape(doi.doi_at(text, at, endpos)) == _shape(expected)
        at = text.find("10.", at + 1)


def _trim_v1(text: str, start: int, end: int) -> int:
    """``url._trim`` before it returned early on a last character it never removes."""
    opens = {"(": text.count("(", start, end), "[": text.count("[", start, end)}
    closes = {")": text.count(")", start, end), "]": text.count("]", start, end)}
    while end > start:
        ch = text[end - 1]
        if ch == ";":
            amp = text.rfind("&", max(start, end - url._ENTITY_MAX), end - 1)
            if amp != -1 and end - 1 > amp + 1 and text[amp + 1 : end - 1].isalnum():
                end = amp
                continue
        if ch in url._TRAILING:
            end -= 1
        elif ch in url._CLOSERS and closes[ch] > opens[url._CLOSERS[ch]]:
            closes[ch] -= 1
            end -= 1
        else:
            break
    return end


def _remove_dot_segments_v1(path: str) -> str:
    """``urlkey._remove_dot_segments`` before it looked for ``/.`` instead of ``.``."""
    if "." not in path:
        return path
    segments = path.split("/")[1:]
    out: list[str] = []
    for seg in segments:
        if seg == ".":
            continue
        if seg == "..":
            if out:
                out.pop()
            continue
        out.append(seg)
    result = "/" + "/".join(out)
    if segments and segments[-1] in (".", "..") and not result.endswith("/"):
        result += "/"
    return result


_URL_CHARS = st.text("ab.;,:!?*_~'\"()[]&#/%2Fhttps", max_size=24)


@settings(max_examples=1000, deadline=None)
@given(_URL_CHARS, st.integers(0, 24), st.integers(0, 24))
def test_trim_returns_early_only_where_it_would_keep_the_end(
    text: str, start: int, end: int
) -> None:
    start, end = min(start, len(text)), min(end, len(text))
    assert url._trim(text, start, end) == _trim_v1(text, start, end)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["/", ".", "..", "a", "b.c", "%2E", "/./", "/../"]), max_size=10))
def test_dot_segments_are_found_after_slashes(parts: list[str]) -> None:
    path = "/" + "".join(parts)
    assert urlkey._remove_dot_segments(path) == _remove_dot_segments_v1(path)


@settings(max_examples=300, deadline=None)
@given(_URLS, st.sampled_from(["", "?url=https://x.org/a", "?utm_source=x&b=1", "/./a/../b"]))
def test_unwrapped_key_is_url_key(address: str, tail: str) -> None:
    parts = urlkey.split_url(address + tail)
    if parts is not None:
        assert urlkey.unwrapped_key(urlkey.unwrap(parts)) == urlkey.url_key(parts)
