"""The batch steps of the title index give what the title-by-title code gives.

:mod:`groundcheck.grounding.index_forms` works on all the titles at once: one translation
and one substitution normalise them all (a colon read as a title break cuts each title with
one colon in two), needles found in many titles are looked for title by title, genre words
and acronyms are looked for over all the subtitles and titles first. The index's fuzzy scan
hands every choice to rapidfuzz and filters prefixes by the distance to each choice's start
before counting words. Each test compares one of them with the plain code it stands for, or
with the frozen oracle of the index before the issue-17 fast paths
(``oracle/title_index_v1.py``) on an index large enough for the scan's filters to engage.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.title import normalize_title
from groundcheck.grounding import index_forms as batch
from groundcheck.grounding.title_index import TitleIndex
from groundcheck.grounding.title_rules import (
    _FOLD_TRIGGERS,
    RuleSet,
    is_generic_subtitle,
)
from oracles import load_oracle

OLD_RULES = load_oracle(__file__, "title_rules_v1")  # first: the index oracle imports it
OLD_INDEX = load_oracle(__file__, "title_index_v1")

_PLAIN = st.lists(
    st.sampled_from([*"abcXYZ019 \t\n:.,-_'/!?()", "  ", "llms", "survey"]), max_size=30
).map("".join)
"""ASCII titles with none of what sends a title the slow way (``&\\{}`` and ``\\x01``), full
of the spaces and marks that turn into runs of spaces."""

_WORDS = st.sampled_from(
    ["sparse", "LLMs", "survey", "a", "of", "Part", "review", "auto", "encoders", "GANs",
     "nets", "x1", "models", "with", "the", "comprehensive", "rl", "RLHF", "in"]
)  # fmt: skip
_NORMALIZED = st.lists(_WORDS, max_size=9).map(lambda ws: normalize_title(" ".join(ws)))


@settings(max_examples=300, deadline=None)
@given(st.lists(_PLAIN, max_size=20))
def test_titles_normalised_at_once_as_one_by_one(titles: list[str]) -> None:
    assert batch._normalize_plain(titles) == [normalize_title(t) for t in titles]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_PLAIN, _PLAIN), max_size=20))
def test_a_colon_read_as_a_break_cuts_each_title_at_it(pairs: list[tuple[str, str]]) -> None:
    pairs = [(h.replace(":", " "), t.replace(":", " ")) for h, t in pairs]
    parts = batch._normalize_plain([f"{h}:{t}" for h, t in pairs], batch._WORDS_COLON_BREAK)
    assert parts[0::2] == [normalize_title(h) for h, _ in pairs]
    assert parts[1::2] == [normalize_title(t) for _, t in pairs]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="ab: -.,", max_size=12), max_size=40),
    st.sampled_from([":", "a", "ab", " - ", "...", ",", "-", "b:"]),
)
def test_titles_holding_a_needle_found_either_way(titles: list[str], needle: str) -> None:
    """Few hits are found find by find, many title by title: the same titles."""
    found: set[int] = set()
    batch._hits(batch.join_titles(titles), needle, found, titles)
    assert found == {i for i, t in enumerate(titles) if needle in t}


@settings(max_examples=300, deadline=None)
@given(st.lists(_NORMALIZED, max_size=25))
def test_genres_and_acronyms_found_at_once_as_one_by_one(texts: list[str]) -> None:
    assert batch._generic(texts) == {k for k, t in enumerate(texts) if is_generic_subtitle(t)}
    expected = [k for k, t in enumerate(texts) if not _FOLD_TRIGGERS.isdisjoint(t.split())]
    assert batch._with_triggers(texts) == expected


def _generated_titles(n: int, seed: int) -> list[str]:
    """Titles like the audit-at-scale benchmark's, with acronyms, genres, marks and repeats."""
    rng = random.Random(seed)
    words = [
        "sparse", "attention", "retrieval", "language", "model", "transformer", "scaling",
        "reasoning", "LLMs", "survey", "agents", "tool", "use", "benchmark", "evaluation",
        "dataset", "robust", "efficient", "RL", "learning", "neural", "graph", "of", "the", "a",
        "for", "with", "review", "auto", "encoders", "GANs", "nets", "part",
    ]  # fmt: skip
    titles = []
    for _ in range(n):
        title = " ".join(rng.choice(words).capitalize() for _ in range(rng.randint(2, 9)))
        mark = rng.random()
        if mark < 0.4:
            title += ": " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 5)))
        elif mark < 0.45:
            title += rng.choice(["? ", " - ", ", with ", "... ", " (2020) "]) + "the x y z"
        titles.append(title)
    return titles + titles[: n // 50]


def _answers(index: object, queries: list[str], thresholds: list[float]) -> list[object]:
    out: list[object] = []
    for threshold in thresholds:
        for q in queries:
            found = index.best(q, threshold)  # type: ignore[attr-defined]
            out.append(None if found is None else (found.index, found.score, found.rules))
            out.append(index.best_choice(normalize_title(q), threshold))  # type: ignore[attr-defined]
    return out


def test_a_large_index_answers_as_before() -> None:
    """1,500 titles (more choices than NEAR_START_MIN): scans of every choice, prefixes
    filtered by their start, then the 5-gram postings once the scans cost more; every answer
    the frozen index's."""
    titles = _generated_titles(1500, seed=3)
    rng = random.Random(4)
    queries = ["a review of the field", "Sparse attention retrieval", "x"]
    for title in rng.sample(titles, 60):
        words = title.split()
        queries.append(" ".join(words[: max(3, len(words) - 3)]))  # a prefix
        chars = list(title)
        chars[rng.randrange(len(chars))] = "q"
        queries.append("".join(chars))  # a typo
        queries.append(title.upper())
    rule_sets = [RuleSet(), RuleSet.none(), RuleSet().without("prefix")]
    for rules in rule_sets:
        old_rules = OLD_RULES.RuleSet(**{f: getattr(rules, f) for f in OLD_RULES._FIELDS})
        new, old = TitleIndex(titles, rules), OLD_INDEX.TitleIndex(titles, old_rules)
        assert len(new.choices) >= TitleIndex.NEAR_START_MIN
        assert _answers(new, queries, [90.0, 70.0]) == _answers(old, queries, [90.0, 70.0])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "d", ""]), max_size=30), st.randoms())
def test_first_and_more_positions_as_counted_one_by_one(
    keys: list[str], rng: random.Random
) -> None:
    """EvidenceTitles' flat maps: the first position of each key, every position of those
    that repeat (positions that only grow, one key per position, as the callers give)."""
    from groundcheck.grounding.titles import _first_and_more

    positions = sorted(rng.sample(range(100), len(keys)))
    every: dict[str, list[int]] = {}
    for key, at in zip(keys, positions, strict=True):
        every.setdefault(key, []).append(at)
    first, more = _first_and_more(keys, positions)
    assert first == {k: ats[0] for k, ats in every.items()}
    assert more == {k: ats for k, ats in every.items() if len(ats) > 1}


_TAILS = st.lists(
    st.sampled_from(
        ["Title", " ", "\t", ".", "(2020)", "(Lewis et al., 2020)", "[arXiv 2023]", " / ", "/",
         "AwN", "x" * 30, "(", ")", "[", "]", "\n", "a b", " (ROME)", "...", "—"]
    ),
    max_size=12,
).map("".join)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.one_of(_TAILS, st.text(max_size=60)))
def test_parentheticals_stripped_as_by_the_pattern_alone(text: str) -> None:
    from groundcheck.grounding.title_rules import strip_parentheticals

    # (the frozen copy searches the pattern at every step)
    assert strip_parentheticals(text) == OLD_RULES.strip_parentheticals(text)
