"""The walk's fast paths against the slow path each stands for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence.walk import _labelled_copy
from groundcheck.extractors.arxiv import reads_bare
from groundcheck.extractors.keys import labelled

_KEYS = st.sampled_from(
    ["arxiv_id", "arxiv", "ArXiv-Id", "eprint", "arxivId", "doi", "pmid", "paperId", "title", "x"]
)
_VALUES = st.one_of(
    st.text(alphabet="0123456789.v /-ahept\n ", max_size=16),
    st.sampled_from(
        [
            "2005.11401",
            "2005.11401v2",
            " 2005.11401",
            "2005.11401 ",
            "1024.5678",
            "0704.0001",
            "hep-th/9711200",
            "2005.114011",
            "2005.11401v0",
            "１２３４.５６７８",
        ]
    ),
)


def _slow_labelled_copy(key: str, value: str) -> str | None:
    """``_labelled_copy`` as it was: the copy written first, then compared."""
    written = labelled(key, value)
    if written is None or written == value:
        return None
    if written.startswith("arXiv:") and reads_bare(value):
        return None
    return written


@settings(max_examples=1000, deadline=None)
@given(_KEYS, _VALUES)
def test_labelled_copy_answers_as_writing_it_first(key: str, value: str) -> None:
    """An arXiv key's whole modern id is answered before the copy is written: the same
    answer as writing it and comparing."""
    from groundcheck.evidence.walk import _key_kind

    _key_kind(key)  # (memoised: the fast path reads the memo)
    assert _labelled_copy(key, value) == _slow_labelled_copy(key, value)


_LEAF = st.one_of(
    st.text(alphabet="ab \n", max_size=6),
    st.lists(st.text(alphabet="ab \n", max_size=4), max_size=3),
    st.dictionaries(st.sampled_from(["title", "doi", "x"]), st.text(alphabet="ab\n", max_size=4)),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_LEAF, max_size=6))
def test_leaves_and_starts_are_where_the_strings_are(value: list[object]) -> None:
    """The leaves made when asked for are each string's place in the text, and the starts
    the sums of their lengths with the blank lines between; the one memchr over the strings
    joined answers as counting the text's line breaks did."""
    from groundcheck.evidence.walk import flatten

    flat = flatten(value)
    at, leaves = 0, []
    for s in flat.strings:
        assert flat.text[at : at + len(s)] == s
        leaves.append((at, at + len(s)))
        at += len(s) + 2
    assert flat.leaves == tuple(leaves)
    assert list(flat.starts) == [s for s, _ in leaves] + [at]
    plain = bool(flat.strings) and "\n" not in "".join(flat.strings)
    if flat.text:
        assert plain == (flat.text.count("\n") == 2 * (len(flat.strings) - 1))


@settings(max_examples=800, deadline=None)
@given(
    st.lists(
        st.text(alphabet=" \t\u00a0\u200babé,.\x1c", max_size=8)
        | st.sampled_from(["Smith, A.", "Lewis  P.", "Müller", ""]),
        max_size=60,
    )
)
def test_string_names_are_the_authors_of_a_list_of_strings(names: list[str]) -> None:
    """The walk reads an author list of plain strings without authors_of's type tests: the
    same names."""
    from groundcheck.evidence.walk import _MAX_AUTHORS, _string_names, authors_of

    fast = _string_names(names[:_MAX_AUTHORS]) if names else ()
    assert fast == authors_of(names)
