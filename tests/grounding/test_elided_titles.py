"""Titles elided in the middle: "Linear Probing … Detection of Machine-Generated Text"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundcheck.grounding.title_index import TitleIndex
from groundcheck.grounding.titles import _elided

# The cited form is from a real literature review (Hypogenic-AI/do-llms-behave-differently-when-
# 6bce-claude-opus-5-5, literature_review.md at 89e7f0a: '**Quaremba et al. 2026, "Linear
# Probing … Detection of Machine-Generated Text"** (arXiv 2608.24780)').
FULL = "Linear Probing of Large Language Model Hidden States for the Detection of Machine-Generated Text"


def test_a_real_elided_title_matches_the_full_one() -> None:
    """First part a prefix, last part a suffix, in whole words."""
    found = _elided(TitleIndex([FULL]), "Linear Probing … Detection of Machine-Generated Text")
    assert found is not None and found.title == FULL and found.rules == ("prefix",)


def test_an_elided_title_with_a_changed_end_matches_nothing() -> None:
    """The parts must be the returned title's words: a changed last part is no match."""
    assert _elided(TitleIndex([FULL]), "Linear Probing … Detection of Human-Written Text") is None
    assert _elided(TitleIndex([FULL]), "Linear … Text") is None  # too few words to tell


def test_the_audit_grounds_the_elided_title() -> None:
    """Through the audit: no unverified-title for the elided citation of a returned title."""
    import groundcheck

    calls = [{"tool": "arxiv_search", "output": [{"arxiv_id": "2608.24780", "title": FULL}]}]
    report = '**Quaremba et al. 2026, "Linear Probing … Detection of Machine-Generated Text"** (arXiv 2608.24780)\n'
    assert [f.code for f in groundcheck.audit(report, calls).findings] == []


_word = st.text("abcdefgh", min_size=2, max_size=7)


@given(st.lists(_word, min_size=7, max_size=14), st.integers(2, 3), st.integers(2, 3))
def test_any_middle_can_be_elided(words: list[str], head: int, tail: int) -> None:
    """Cut any middle out of a title: its head and tail, with an ellipsis, find it."""
    title = " ".join(words)
    cited = " ".join(words[:head]) + " … " + " ".join(words[-tail:])
    found = _elided(TitleIndex([title]), cited)
    assert found is not None and found.title == title
