"""An id inside another that ends where it ends takes the other's span beside it unread.

``https://doi.org/10.48550/arXiv.2102.44339`` is a DOI (twice: the URL and the DOI in it)
and an arXiv id, all ending at one place; the title finder reads the words before such a
group once (``_same_beside``). Checked two ways on texts made of such groups, cuts (". ",
"; "), citation parentheses, line breaks and long words that push cuts out of the 300
characters looked at: every pair the shortcut accepts has the same span when each is read,
and the titles found are those of the frozen finder (``oracle/title_v4.py``), which read
every id.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.builtin import default_registry
from groundcheck.extractors.pipeline import _run
from groundcheck.extractors.title import TitleExtractor, _adjacent, _same_beside
from groundcheck.model import Mention
from oracles import load_oracle

OLD = load_oracle(__file__, "title_v4")
_ID_FINDERS = [e for e in default_registry().select(None) if e.name != "title"]

_IDS = (
    "https://doi.org/10.48550/arXiv.2102.44339", "https://arxiv.org/abs/2101.03961",
    "doi:10.1000/j.x.42", "arXiv:2101.03961v2", "10.48550/arXiv.2102.44339",
    "https://doi.org/10.48550/arXiv.2102.44339v2.", "https://arxiv.org/pdf/2101.03961.pdf",
    "http://dx.doi.org/10.1000/abc(12)x", "arxiv.org/abs/hep-th/9901001",
)  # fmt: skip
_PIECES = st.one_of(
    st.sampled_from(_IDS),
    st.sampled_from(
        [
            "Switch", "Transformers", "scaling", " ", " ", " ", "(", ")", ") ", "(n=12) ",
            "(a: b) ", "(see) ", " (12 ", ". ", "; ", ",", "\n", "\t", "<", "`", "|", "{", "}",
            "and ", "see ", "e.g. ", "Title", "2020", "p. ", "[", "]", "*", '"', "'", ":", "-",
            "1. ", "# ", "é", ". (", "; (", "x" * 40, "y" * 120, "z" * 250, "w" * 290,
        ]
    ),
)  # fmt: skip


def _mentions(text: str) -> list[Mention]:
    return [m for e in _ID_FINDERS for m, _ in _run(e, text)]


def _shared_spans_are_read_spans(text: str) -> None:
    read = {(m.start, m.end): _adjacent(text, m.start, m.end) for m in _mentions(text)}
    for (start, end), (span, reach) in read.items():
        if reach is None:
            continue
        for (other, other_end), (other_span, _) in read.items():
            if other_end == end and _same_beside(text, (start, reach), other, other_end):
                assert other_span == span


@settings(max_examples=1500, deadline=None)
@given(st.lists(_PIECES, max_size=120))
def test_a_shared_span_is_the_span_read(pieces: list[str]) -> None:
    _shared_spans_are_read_spans("".join(pieces))


@settings(max_examples=800, deadline=None)
@given(st.lists(_PIECES, max_size=120))
def test_same_titles_as_reading_every_id(pieces: list[str]) -> None:
    text = "".join(pieces)
    mentions = _mentions(text)
    for new, old in (
        (TitleExtractor(), OLD.TitleExtractor()),
        (TitleExtractor(min_words=1, max_chars=10), OLD.TitleExtractor(min_words=1, max_chars=10)),
    ):
        assert list(new.find_beside(text, mentions)) == list(old.find_beside(text, mentions))
        # in the other order too: the outer id may come before or after the inner one
        assert list(new.find_beside(text, mentions[::-1])) == list(
            old.find_beside(text, mentions[::-1])
        )


def test_the_benchmark_citation_forms_share() -> None:
    """The forms that nest (a DOI URL of an arXiv id, an arXiv URL) are read once each."""
    text = (
        "Words of a title here https://doi.org/10.48550/arXiv.2102.44339 and more words, "
        "Another title of words https://arxiv.org/abs/2101.03961 end"
    )
    groups: dict[int, list[tuple[int, int]]] = {}
    for m in _mentions(text):
        groups.setdefault(m.end, []).append((m.start, m.end))
    assert sorted(len(v) for v in groups.values()) == [2, 3]
    for members in groups.values():
        (start, end), *others = sorted(set(members))
        span, reach = _adjacent(text, start, end)
        assert reach is not None and span is not None
        for other, other_end in others:
            assert _same_beside(text, (start, reach), other, other_end)


_EDGE = st.sampled_from(
    ["a", "b", " ", " ", ". ", "; ", "[", "]", "(", ")", ") ", "(1", "x", "\n", "*"]
)


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(_EDGE, min_size=120, max_size=240),
    st.integers(230, 360),
    st.sampled_from((*_IDS[:2], "(https://doi.org/10.48550/arXiv.2102.44339)")),
    st.sampled_from(["", " tail words here", ". x", "\n"]),
)
def test_a_shared_span_at_the_window_edge(
    pieces: list[str], size: int, written: str, tail: str
) -> None:
    """Cuts, markup and parentheses about 300 characters before the ids, where the outer and
    the inner id's windows start apart: a span is shared only where reading gives it."""
    _shared_spans_are_read_spans("".join(pieces)[:size] + written + tail)
