"""A title beside an identifier on one line of a tool output is paired with the nearest one on
its line, found by bisection (so a megabyte-long line costs a few steps per title, not a scan
of every id before it), and it is the one a full scan of the line finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence import trace
from groundcheck.evidence.trace import make_evidence
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.model import Identifier, Mention


def test_a_one_line_listing_pairs_every_title_as_a_full_scan_does() -> None:
    line = "".join(
        f"arXiv:2101.{k:05d} Sparse Attention Models For Long Context Number {k}. "
        for k in range(1, 3000)
    )
    evidence = make_evidence("search", "c1", line, BUILTIN)
    by_title = {w.title: w.identifiers for w in evidence.works if w.origin == "line"}
    assert len(by_title) == 2999
    for k in (1, 1500, 2999):
        title = f"Sparse Attention Models For Long Context Number {k}"
        assert Identifier("arxiv", f"2101.{k:05d}") in by_title[title]


def _brute_force(
    text: str, title: Mention, ids: list[Mention], starts: list[int], lines: list[int]
) -> set[Identifier]:
    """The nearest identifier on the title's line, comparing every identifier of the line."""
    line_start = text.rfind("\n", 0, title.start) + 1
    line_end = text.find("\n", title.end)
    line_end = len(text) if line_end == -1 else line_end
    near = [m for m in ids if m.start >= line_start and m.end <= line_end]
    if not near:
        return set()
    closest = min(near, key=lambda m: min(abs(m.start - title.end), abs(title.start - m.end)))
    return set(closest.keys)


_TOKENS = st.sampled_from(
    ["Sparse Attention For Long Context", "Switch Transformers: Scaling Models", "arXiv:2101.03961",
     "https://doi.org/10.1000/xyz.123", "https://arxiv.org/abs/2005.11401", "10.1145/3290605",
     "PMID: 31452104", " ", " ", "(", ")", ". ", "; ", "\n", "and", "see"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKENS, max_size=80))
def test_the_nearest_identifier_is_the_one_a_full_scan_of_the_line_finds(
    tokens: list[str],
) -> None:
    text = " ".join(tokens)
    fast = make_evidence("s", "c", text, BUILTIN)
    saved = trace._on_same_line
    trace._on_same_line = _brute_force
    try:
        slow = make_evidence("s", "c", text, BUILTIN)
    finally:
        trace._on_same_line = saved
    assert fast == slow
