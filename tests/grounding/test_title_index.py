"""The title index: normalisation, subtitles, and results identical to brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from groundcheck.extractors.title import main_title, normalize_title
from groundcheck.grounding.title_index import TitleIndex, _continues, _head
from groundcheck.grounding.title_rules import cut_prefix, prefix_of, query_forms


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("Attention Is All You Need", "attention is all you need"),
        (
            "{BERT}: Pre-training of \\emph{Deep} Bidirectional Transformers",
            "bert pre training of deep bidirectional transformers",
        ),
        ("Retrieval&#8209;Augmented &amp; Grounded", "retrieval augmented grounded"),
        ("  Spaces\tand\nbreaks  ", "spaces and breaks"),
        ("ＦＵＬＬＷＩＤＴＨ Title", "fullwidth title"),
        ("Straße der Modelle", "strasse der modelle"),
        ("Большие языковые модели", "большие языковые модели"),
        ("大規模言語モデルの評価", "大規模言語モデルの評価"),
        ("", ""),
    ],
)
def test_normalize_title(raw: str, normalized: str) -> None:
    """Case, Unicode, LaTeX, HTML entities, punctuation and spacing fold away; scripts stay."""
    assert normalize_title(raw) == normalized


@pytest.mark.parametrize(
    ("title", "main"),
    [
        ("Switch Transformers: Scaling to Trillion Parameter Models", "Switch Transformers"),
        ("Attention Is All You Need: A Survey", None),
        ("Layer Normalization", None),
        ("Mamba - Linear-Time Sequence Modeling with Selective State Spaces", "Mamba"),
    ],
)
def test_main_title_only_for_long_subtitles(title: str, main: str | None) -> None:
    assert main_title(title) == main


def test_survey_trap_both_ways() -> None:
    """'X: A Survey' never grounds 'X', and 'X' never grounds 'X: A Survey'."""
    survey = TitleIndex(["Attention Is All You Need: A Survey"])
    assert survey.best("Attention Is All You Need", 90) is None
    original = TitleIndex(["Attention Is All You Need"])
    assert original.best("Attention Is All You Need: A Survey", 90) is None


def test_subtitle_dropped_and_typos_ground() -> None:
    index = TitleIndex(
        [
            "Switch Transformers: Scaling to Trillion Parameter Models with Simple and Efficient Sparsity",
            "Deep Residual Learning for Image Recognition",
        ]
    )
    switch = index.best("Switch Transformers", 90)
    assert switch is not None and switch.index == 0 and switch.score == 100.0
    typo = index.best("Deep Residual Learning for Image Recogniton", 90)
    assert typo is not None and typo.index == 1 and 95 < typo.score < 100


def _brute(index: TitleIndex, query: str, threshold: float) -> tuple[int, float] | None:
    q = normalize_title(query)
    if not q:
        return None
    hits = process.extract(
        q,
        index.choices,
        scorer=Levenshtein.normalized_similarity,
        processor=None,
        score_cutoff=threshold / 100,
        limit=None,
    )
    if not hits:
        return None
    top = max(h[1] for h in hits)
    return min(h[2] for h in hits if h[1] == top), top * 100


_words = st.sampled_from(
    [
        "attention",
        "retrieval",
        "augmented",
        "generation",
        "dense",
        "passage",
        "models",
        "language",
        "large",
        "neural",
        "learning",
        "deep",
        "transformers",
        "sparse",
        "scaling",
        "laws",
        "of",
        "for",
        "with",
        "in",
        "the",
        "a",
        "and",
        "graph",
    ]
)
_titles = st.lists(_words, min_size=1, max_size=12).map(" ".join)


@st.composite
def _variant(draw: st.DrawFn, titles: list[str]) -> str:
    base = draw(st.sampled_from(titles))
    edits = draw(st.lists(st.tuples(st.integers(0, 200), st.sampled_from("abxyz -")), max_size=6))
    chars = list(base)
    for pos, ch in edits:
        if chars:
            chars[pos % len(chars)] = ch
    return "".join(chars)


@settings(max_examples=200, deadline=None)
@given(st.data(), st.lists(_titles, min_size=1, max_size=40), st.sampled_from([60, 75, 85, 90, 95]))
def test_index_equals_brute_force(data: st.DataObject, titles: list[str], threshold: int) -> None:
    """Whatever the titles and threshold, the filtered search returns brute force's answer."""
    scanning, filtering = TitleIndex(titles), _filtering(titles)
    for _ in range(5):
        query = data.draw(st.one_of(_titles, _variant(titles)))
        expected = _brute(scanning, query, threshold)
        for index in (scanning, filtering):
            found = index.best_choice(normalize_title(query), threshold)
            if expected is None:
                assert found is None, (query, found)
            else:
                assert found is not None, (query, expected)
                assert found[0] == expected[0]
                assert found[1] == pytest.approx(expected[1])


def _filtering(titles: list[str]) -> TitleIndex:
    """An index that filters by its 5-gram postings from the first fuzzy query on (a small
    index otherwise scores every choice of a fitting length), and its prefix candidates by
    their start (a small index otherwise cuts every prefix)."""
    index = TitleIndex(titles)
    index.SCAN_BUDGET = 0
    index.NEAR_START_MIN = 0  # and prefixes filtered by the distance to each title's start
    return index


def _brute_search(index: TitleIndex, query: str, threshold: float) -> tuple[int, float] | None:
    """Every rule scored against every choice, in the documented order (highest score; a
    whole form before a prefix before a cut title; the earliest title; the earliest form)."""
    best: tuple[float, int, int, int] | None = None
    for rank, form in enumerate(query_forms(query, index.rules)):
        q = form.text
        if not q:
            continue
        for j, choice in enumerate(index.choices):
            owner = index.owners[j]
            cutoff = threshold / 100  # rapidfuzz's own cutoff test, as the index uses it
            scored = [(Levenshtein.normalized_similarity(q, choice, score_cutoff=cutoff), 0)]
            p = prefix_of(q, choice) if index.prefixable[j] else None
            if p is not None:
                scored.append((Levenshtein.normalized_similarity(q, p, score_cutoff=cutoff), 1))
            for score, how in scored:
                if score and score >= cutoff:
                    key = (-score * 100, how, owner, rank)
                    best = key if best is None or key < best else best
        for owner, title in enumerate(index.titles):
            cut = cut_prefix(title, index.rules)
            if cut is not None and _continues(q, cut) and _head(q) == _head(cut):
                key = (-100.0, 2, owner, rank)
                best = key if best is None or key < best else best
    return None if best is None else (best[2], -best[0])


_prefixed = st.tuples(_titles, _titles).map(lambda p: f"{p[0]} {p[1]}")
_cut = st.tuples(_titles, st.integers(1, 4)).map(lambda p: p[0][: -p[1]] + "...")


@settings(max_examples=150, deadline=None)
@given(
    st.data(),
    st.lists(st.one_of(_titles, _prefixed, _cut), min_size=1, max_size=30),
    st.sampled_from([60, 75, 85, 90, 95]),
)
def test_search_equals_brute_force(data: st.DataObject, titles: list[str], threshold: int) -> None:
    """Under every rule (whole forms, prefixes, cut titles), with the length filter, the lazy
    n-gram postings and the exact lookup, search returns what scoring everything returns."""
    scanning, filtering = TitleIndex(titles), _filtering(titles)
    for _ in range(5):
        query = data.draw(st.one_of(_titles, _variant(titles), _prefixed))
        _assert_like_brute_force(query, threshold, scanning, filtering)


@st.composite
def _edited_head(draw: st.DrawFn, titles: list[str]) -> str:
    """The first few words of a title, with characters inserted, deleted and replaced: a
    cited prefix whose length is not the returned prefix's."""
    words = draw(st.sampled_from(titles)).split(" ")
    chars = list(" ".join(words[: draw(st.integers(3, max(3, len(words))))]))
    for kind, pos, ch in draw(
        st.lists(st.tuples(st.sampled_from("idr"), st.integers(0, 200), st.sampled_from("ab e")),
                 max_size=5)
    ):  # fmt: skip
        at = pos % (len(chars) + 1)
        if kind == "i":
            chars.insert(at, ch)
        elif chars and at < len(chars):
            if kind == "d":
                del chars[at]
            else:
                chars[at] = ch
    return "".join(chars)


_long = st.lists(_words, min_size=6, max_size=14).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(
    st.data(),
    st.lists(st.one_of(_long, _prefixed), min_size=1, max_size=40),
    st.sampled_from([60, 70, 75, 80, 85, 90, 95]),
)
def test_edited_prefixes_equal_brute_force(
    data: st.DataObject, titles: list[str], threshold: int
) -> None:
    """Cited prefixes with edits that change their length (what the prefix filter by the
    distance to each title's start must never drop): search returns brute force's answer."""
    scanning, filtering = TitleIndex(titles), _filtering(titles)
    for _ in range(6):
        _assert_like_brute_force(data.draw(_edited_head(titles)), threshold, scanning, filtering)


def _assert_like_brute_force(
    query: str, threshold: int, scanning: TitleIndex, filtering: TitleIndex
) -> None:
    """Both indexes answer ``query`` as scoring every searchable form does."""
    expected = _brute_search(scanning, query, threshold)
    for index in (scanning, filtering):
        found = index.best(query, threshold)
        if expected is None:
            assert found is None, (query, found)
        else:
            assert found is not None, (query, expected)
            assert (found.index, found.score) == (expected[0], pytest.approx(expected[1]))


def test_a_long_query_scores_nothing_against_short_titles() -> None:
    """A query far longer than every title cannot reach the threshold (the length filter):
    no 5-gram postings are built and nothing is scored. (Speed: benchmarks/bench_titles.py.)"""
    titles = [f"paper number {i} about topic {i % 97} and method {i % 13}" for i in range(5000)]
    index = TitleIndex(titles)
    assert index.best("word " * 2000, 90) is None
    assert index.best("paper number 4321 about topic 53 and method 5", 90) is not None
    assert index._scanned == 0  # an exact hit, and a query too long: nothing scored

    def fuzzy(i: int) -> str:
        return f"paper numbr {i} about topic {i % 97} and method {i % 13}"

    for i in range(TitleIndex.SCAN_BUDGET):
        found = index.best(fuzzy(4000 + i), 90)
        assert found is not None and found.index == 4000 + i
    assert index._grams is None  # scanning still cost less than building the postings
    found = index.best(fuzzy(4321), 90)
    assert index._grams is not None and found is not None and found.index == 4321


def test_a_repeated_query_is_answered_from_memory() -> None:
    """Asking again (the checks do, for every title a report repeats) scores nothing and
    gives the same answer; another threshold is another question."""
    titles = [f"paper number {i} about topic {i % 97} and method {i % 13}" for i in range(500)]
    index = TitleIndex(titles)
    fuzzy = "paper numbr 321 about topic 30 and method 9"
    first = index.best(fuzzy, 90)
    scanned = index._scanned
    assert scanned > 0 and first is not None and first.index == 321
    assert index.best(fuzzy, 90) is first and index._scanned == scanned
    assert index.best(fuzzy, 99) is None and index._scanned > scanned


def test_huge_and_many_titles_are_correct() -> None:
    """A 10,000-character 'title' among 5,000 evidence titles: found, and nothing else is."""
    titles = [f"paper number {i} about topic {i % 97} and method {i % 13}" for i in range(5000)]
    huge = "word " * 2000
    index = TitleIndex([*titles, huge])
    assert index.best(huge, 90) is not None
    assert index.best("paper number 4321 about topic 53 and method 5", 90) is not None
    assert index.best("x" * 10_000, 90) is None
    for i in range(0, 200, 20):
        found = index.best(f"paper numbr {i} about topic {i % 97} and method {i % 13}", 90)
        assert found is not None and found.index == i


def test_empty_index_and_query() -> None:
    assert TitleIndex([]).best("anything at all here", 90) is None
    assert TitleIndex(["A Real Title Here"]).best("", 90) is None


def test_default_threshold_on_the_labelled_set() -> None:
    """At the default 90 the matcher keeps the precision and recall docs/titles.md reports."""
    import json
    from pathlib import Path

    data = json.loads(
        (Path(__file__).parents[2] / "benchmarks" / "data" / "title_variants.json").read_text(
            "utf-8"
        )
    )
    index = TitleIndex(e["title"] for e in data["evidence"])
    ids = [e["id"] for e in data["evidence"]]
    tp = fp = 0
    for q in data["queries"]:
        match = index.best(q["text"], 90)
        got = ids[match.index] if match else None
        if got is not None:
            tp += got == q["expect"]
            fp += got != q["expect"]
    positives = sum(q["expect"] is not None for q in data["queries"])
    assert tp / (tp + fp) >= 0.98
    assert tp / positives >= 0.94
