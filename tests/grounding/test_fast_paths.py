"""The title index's fast paths give exactly what the code before them gave.

``oracle/`` holds ``title_rules.py`` and ``title_index.py`` as they were before the issue-17
fast paths (see oracle/README.md): forms of a plain title without the decoration and
main-title calls, the ASCII normalisation by a translation table, the exact-hit pass before
any fuzzy search, the fuzzy-only structures built on first use. Each test here compares the
current modules with those copies on real titles (the benchmark's, the corpus's) and on
generated ones, under every rule set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.title import normalize_title as extractor_normalize
from groundcheck.grounding import title_rules
from groundcheck.grounding.index_forms import cut_candidates, index_forms
from groundcheck.grounding.title_index import TitleIndex
from groundcheck.grounding.title_rules import RULES, RuleSet, cut_prefix, query_forms
from oracles import load_oracle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


OLD_RULES = load_oracle(__file__, "title_rules_v1")
OLD_INDEX = load_oracle(__file__, "title_index_v1")

RULE_SETS = [RuleSet(), RuleSet.none()] + [RuleSet().without(r) for r in RULES]
RULE_SETS += [RuleSet.none().only(r) for r in RULES]


def _old_rules(rules: RuleSet) -> Any:
    return OLD_RULES.RuleSet(**{f: getattr(rules, f) for f in OLD_RULES._FIELDS})


def _real_titles() -> list[str]:
    data = json.loads((ROOT / "benchmarks/data/titles_real.json").read_text("utf-8"))
    titles = [e["title"] for e in data["evidence"] if e.get("title")]
    titles += [q["text"] for q in data["queries"] if q.get("text")]
    variants = json.loads((ROOT / "benchmarks/data/title_variants.json").read_text("utf-8"))
    titles += [s for s in _strings(variants) if 0 < len(s) < 400]
    return list(dict.fromkeys(titles))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


REAL = _real_titles()

_pieces = st.sampled_from(
    [
        "Sparse", "autoencoders", "SAEs", "Auto", "-Encoders", "auto encoders", "GANs", "Nets",
        ":", "?", "!", ", with ", " - ", " – ", " — ", "—", "\t-\t", " ", "  ", "[2402.15335]",
        "(PDF)", "[PDF]", "| OpenReview", " | by Someone | Medium", "- arXiv", "(2020)",
        "(Lewis et al., 2020)", "paper_3 <- ", "→", "·", "...", "…", "A Survey", "Part II",
        "NeurIPS Poster", "Oral", "Spotlight", "1.", "2. ", "&amp;", "&", "\\emph{Deep}", "{BERT}",
        "é", "ﬁ", "Ⅳ", "x_y", "Café", "naïve", "\u00a0", "'s", "Attention Is All You Need",
        "toy models of superposition", "2005.11401", "v2", "#3", "(iv)", "b)",
    ]
)  # fmt: skip
_title_text = st.one_of(
    st.lists(_pieces, min_size=1, max_size=14).map("".join),
    st.lists(_pieces, min_size=1, max_size=10).map(" ".join),
    st.text(max_size=60),
    st.text(alphabet=st.characters(max_codepoint=127), max_size=80),
)


_split_pieces = st.sampled_from(
    [
        "Sparse", "Autoencoders", "find", "features", "in", "GPT", "2", "SAEs", "auto", "encoders",
        "a", "survey", "Part", "review", "of", "with", "Mamba", "x1", "the", "LLMs", "nets",
        ":", " : ", "\t:\t", "    :    ", "::", "?", "!", "?!", ", with ", ",  with\t", ",with ",
        " - ", "\t-\t", "  -  ", "-", ",", " ", "  ", "\t", "...", "_", "'", "/", ".",
        "2005.11401", "3", "3.", "NeurIPS Poster", "Oral", "(PDF)", "| OpenReview", "&amp;", "é",
    ]
)  # fmt: skip
_split_text = st.one_of(
    st.lists(_split_pieces, min_size=1, max_size=20).map("".join),
    st.lists(_split_pieces, min_size=1, max_size=14).map(" ".join),
)
"""ASCII titles around every main-title separator (colons, marks, ", with", dashes, with
spaces and tabs), the shapes the index's batch path handles without title_forms."""


def _forms(module: Any, title: str, rules: Any) -> list[tuple[str, tuple[str, ...], bool]]:
    return [(f.text, f.rules, f.prefixable) for f in module.title_forms(title, rules)]


@settings(max_examples=400, deadline=None)
@given(st.one_of(_title_text, st.sampled_from(REAL)))
def test_normalisation_and_word_counts_as_before(text: str) -> None:
    assert title_rules.normalize_title(text) == extractor_normalize(text)
    assert title_rules._word_count(text) == len(OLD_RULES._ALNUM_RUN.findall(text))
    stripped = text.strip()
    assert title_rules._may_be_decorated(stripped) == OLD_RULES._may_be_decorated(stripped)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_title_text, st.sampled_from(REAL)), st.sampled_from(RULE_SETS))
def test_forms_as_before(title: str, rules: RuleSet) -> None:
    old = _old_rules(rules)
    assert _forms(title_rules, title, rules) == _forms(OLD_RULES, title, old)
    assert [(f.text, f.rules) for f in query_forms(title, rules)] == [
        (f.text, f.rules) for f in OLD_RULES.query_forms(title, old)
    ]


def test_forms_of_every_real_title_as_before() -> None:
    for rules in RULE_SETS:
        old = _old_rules(rules)
        for title in REAL:
            assert _forms(title_rules, title, rules) == _forms(OLD_RULES, title, old), title


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(_title_text, _split_text, st.sampled_from(REAL)), max_size=25),
    st.sampled_from(RULE_SETS),
)
def test_forms_of_many_titles_as_one_by_one(titles: list[str], rules: RuleSet) -> None:
    """The index's batch of every title's forms is title_forms of each, in order."""
    expected = [
        (f.text, i, f.rules, f.prefixable)
        for i, title in enumerate(titles)
        for f in title_rules.title_forms(title, rules)
    ]
    assert list(zip(*index_forms(titles, rules), strict=True)) == expected
    cuts = set(cut_candidates(titles))
    assert all(i in cuts for i, t in enumerate(titles) if cut_prefix(t, rules) is not None)


def test_an_empty_title_does_not_hide_the_next_titles_decoration() -> None:
    """Bug (found by the hypothesis test above, seed 5): the scan for titles starting with a
    non-letter consumed the NUL after an empty title, so the next title, led by an arXiv id,
    lost its decoration form in the index (title_forms had it)."""
    titles = ["", "2101.03961 Switch Transformers", "", "", "3 Sparse Autoencoders"]
    for rules in RULE_SETS:
        expected = [
            (f.text, i, f.rules, f.prefixable)
            for i, title in enumerate(titles)
            for f in title_rules.title_forms(title, rules)
        ]
        assert list(zip(*index_forms(titles, rules), strict=True)) == expected


TRICKY = [
    "2101.03961 Switch Transformers Scaling to Trillion Parameter Models",
    "2101.03961: Switch Transformers: Scaling to Trillion Parameter Models",
    "3 Sparse Autoencoders Find Highly Interpretable Features",
    "Sparse features, with the data of models",
    "Sparse, with the data of models",
    "Sparse features, with the data",
    "Sparse features, with a survey of them",
    "Scaling laws\t-\tfor neural language models",
    "Scaling laws - for neural language models",
    " - Leading dash title words here",
    "Trailing dash words here - ",
    "NeurIPS Poster Sparse Autoencoders Find Features",
    "Sparse Autoencoders (2020)",
    "Café: about the x y z",
    "A &amp; B: c d e f",
    "x\x00y: a b c d",
    "x\x01y: a b c d",
    "",
    " ",
    ":",
    "Sparse auto: encoders for x y z",
    "SAEs: sparse autoencoders find x",
    "What do humor classifiers learn? An attempt to explain humor recognition",
    "Is it? a b c",
    "Mamba: A Survey of state spaces",
    "Mamba: a b: c d e: f g h",
    "word " * 100 + ": past the first four hundred characters",
    "word " * 78 + "abc: just inside the first four hundred",
    "Toy Models of Superposition ...",
    "Toy Models of Superposition in Neural Netw…",
]
"""Titles at each edge of the batch path's sorting (a leading id or digit, ", with", tabbed
and leading or trailing dashes, a poster label, non-ASCII, entities, the joining characters,
acronyms across a separator, generic subtitles, cut titles)."""


def test_forms_of_every_real_title_at_once_as_one_by_one() -> None:
    titles = REAL + [t.upper() for t in REAL] + [f" {t}: of the x y z" for t in REAL[:50]]
    titles += TRICKY + [f"{t} {u}" for t in TRICKY for u in TRICKY[:8]]
    for rules in RULE_SETS:
        expected = [
            (f.text, i, f.rules, f.prefixable)
            for i, title in enumerate(titles)
            for f in title_rules.title_forms(title, rules)
        ]
        assert list(zip(*index_forms(titles, rules), strict=True)) == expected


def _answers(index: Any, queries: list[str], thresholds: list[float]) -> list[Any]:
    out: list[Any] = []
    for threshold in thresholds:
        for q in queries:
            found = index.best(q, threshold)
            out.append(None if found is None else (found.index, found.score, found.rules))
            out.append(index.best_choice(extractor_normalize(q), threshold))
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(_title_text, st.sampled_from(REAL)), min_size=1, max_size=30),
    st.lists(st.one_of(_title_text, st.sampled_from(REAL)), min_size=1, max_size=10),
    st.sampled_from(RULE_SETS),
)
def test_index_answers_as_before(titles: list[str], queries: list[str], rules: RuleSet) -> None:
    queries += titles[:5]  # exact hits too
    new = TitleIndex(titles, rules)
    old = OLD_INDEX.TitleIndex(titles, _old_rules(rules))
    assert new.choices == old.choices and new.owners == old.owners
    assert new.applied == old.applied and new.prefixable == old.prefixable
    assert _answers(new, queries, [90.0, 65.0, 1.0]) == _answers(old, queries, [90.0, 65.0, 1.0])


def test_real_titles_answer_as_before() -> None:
    """The real agents' titles against the real returned ones (and each other), every rule set."""
    data = json.loads((ROOT / "benchmarks/data/titles_real.json").read_text("utf-8"))
    evidence = [e["title"] for e in data["evidence"] if e.get("title")]
    queries = [q["text"] for q in data["queries"] if q.get("text")] + evidence[::7]
    for rules in (RuleSet(), RuleSet.none(), RuleSet().without("acronym")):
        new, old = TitleIndex(evidence, rules), OLD_INDEX.TitleIndex(evidence, _old_rules(rules))
        assert _answers(new, queries, [90.0, 75.0]) == _answers(old, queries, [90.0, 75.0])
