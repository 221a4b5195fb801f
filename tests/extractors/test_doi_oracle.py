"""``find_doi`` gives what it gave before it read repeated DOIs once.

``oracle/doi_v1.py`` is ``extractors/doi.py`` as it was at 1f0db85: every candidate was read
in full (the URL it may sit in looked for 512 characters back, its suffix trimmed, its
identifier built). Now a candidate with no ``://`` or ``www.`` in that window and no line
break after it is read once per distinct spelling, and its mention built without the
validators. Compared on generated texts mixing URLs, ``doi:`` prefixes, line breaks,
entities and brackets, on every text fixture, and on floods.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.doi import doi_at, find_doi
from groundcheck.model import Mention
from oracles import load_oracle

OLD = load_oracle(__file__, "doi_v1")
ROOT = Path(__file__).resolve().parents[2]

_PIECES = [
    "10.1234/", "10.1000/x", "10.5/", "10.12/", "10.1234%2F", "10.48550/arXiv.2005.11401",
    "10.18653/v1/P19-1001", "10.1002/(SICI)1097-4571", "<2.0.CO;2-", "&#", "&#50;", "&amp;",
    "&", "#", "doi:", "DOI ", "doi.org/", "https://", "http://", "www.", "WWW.", "?q=",
    "=", "/full", ".pdf", "biorxiv.org/content/", "v2.full.pdf", "onlinelibrary.wiley.com/doi/",
    "(", ")", "<", ">", "{", "}", ".", ",", "*", "_", " ", "\n", "\r\n", "\u2028", "\t",
    "up.42", "a", "1", "x" * 600,
]  # fmt: skip


def _same(text: str) -> None:
    new = list(find_doi(text))
    old = list(OLD.find_doi(text))
    assert new == old
    assert [repr(m) for m in new] == [repr(m) for m in old]  # versions too (not part of ==)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=3), max_size=40))
def test_generated_texts_read_as_before(pieces: list[str]) -> None:
    _same("".join(pieces))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30), st.integers(0, 400))
def test_doi_at_reads_as_before(pieces: list[str], pos: int) -> None:
    text = "".join(pieces)
    pos = min(pos, len(text))
    assert repr(doi_at(text, pos)) == repr(OLD.doi_at(text, pos))


def test_every_text_fixture_reads_as_before() -> None:
    files = [
        p
        for pattern in ("tests/**/*.md", "tests/**/*.txt", "tests/**/*.json", "tests/**/*.jsonl")
        for p in ROOT.glob(pattern)
    ]
    assert files
    for path in sorted(files):
        _same(path.read_text("utf-8", errors="replace"))


def test_floods_read_as_before() -> None:
    for unit in ("10.1234/&#", "10.1234/x\n", "doi:10.5/", "https://doi.org/10.1234/a ",
                 "www.x.org/10.1234/a ", "10.1234/a\nb ", "10.1234/(", "doi.org/10.1234/ "):  # fmt: skip
        _same(unit * (20_000 // len(unit)))


def test_placed_mentions_equal_validated_ones() -> None:
    for m in find_doi("doi:10.5/x 10.1234/a&#50; doi:10.1234/ 10.48550/arXiv.2005.11401v2"):
        again = Mention(m.identifier, m.start, m.end, m.malformed, m.aliases, m.kind)
        assert m == again and repr(m) == repr(again) and hash(m) == hash(again)


def test_the_url_window_edge_reads_as_before() -> None:
    # A DOI whose URL's "://" (or "www.") is just inside or just outside the 512 characters
    # looked back over: inside, the URL's rules apply (a publisher's "/full" cut, "&" ending
    # a DOI in a query); outside, they do not.
    for k in range(480, 530):
        for url in ("https://dl.acm.org/", "https://x.org/?q=", "see www.pnas.org/?"):
            for tail in ("x/full", "a&b", "made.\nup.42"):
                _same(url + "a" * k + "/10.1234/" + tail)
