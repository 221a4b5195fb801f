"""Looking quotes up in tool outputs: variants that match, alterations that do not, sources."""

from __future__ import annotations

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence.native import from_tool_calls
from groundcheck.extractors import extract
from groundcheck.grounding.quotes import (
    FOUND,
    MISATTRIBUTED,
    UNVERIFIED,
    NearbySources,
    QuoteIndex,
    check_quotes,
    quote_pattern,
)
from groundcheck.model import Evidence, EvidenceSet, Identifier

# A real search snippet (STORM's url_to_info.json, jiange91/lm_compiler@8500be32, people.com).
PEOPLE = (
    "Oliver Taylor Hawkins was born in Fort Worth, Texas, on Feb. 17, 1972. He was raised in "
    "Laguna Beach, California, and got his first big break as the drummer for Grammy-winning "
    "artist Alanis Morissette. He officially joined Foo Fighters in 1997, replacing William "
    "Goldsmith, and spent the last 25 years with the group until his death on March 25, 2022."
)
WIKI = (
    "Hawkins invited other stars to sing in the Taylor Hawkins and the Coattail Riders album Get "
    "the Money, such as LeAnn Rimes. Loudwire named the album one of the 50 best rock efforts "
    "of 2019. In 2000, Hawkins was contacted by Guns N' Roses to replace Josh Freese on drums."
)


@pytest.fixture
def index() -> QuoteIndex:
    return QuoteIndex([("people", PEOPLE), ("wiki", WIKI)])


@pytest.mark.parametrize(
    "quote",
    [
        "He officially joined Foo Fighters in 1997, replacing William Goldsmith",
        "he officially joined Foo\nFighters in 1997 \u2014 replacing William Goldsmith",
        "HE OFFICIALLY JOINED FOO FIGHTERS IN 1997",
        "got his first big break as the drummer for Grammy\u2011winning artist",
        "He officially joined Foo Fighters ... spent the last 25 years with the group",
        "He was raised in Laguna Beach \u2026 until his death on March 25, 2022",
        "[H]e officially joined Foo Fighters in 1997",
        "[Hawkins] officially joined Foo Fighters in 1997, replacing William Goldsmith",
        "He officially joined [the band] in 1997, replacing William Goldsmith",
        "He officially joined Foo Fighters in 1997, replacing William Goldsmith [sic]",
        "Loudwire named the album one of the 50 best rock efforts of 2019",
    ],
)
def test_honest_variants_match(index: QuoteIndex, quote: str) -> None:
    assert index.find(quote_pattern(quote))


@pytest.mark.parametrize(
    "quote",
    [
        "He officially joined Foo Fighters in 1998, replacing William Goldsmith",  # number
        "Loudwire named the album one of the 10 best rock efforts of 2019",  # number
        "He never officially joined Foo Fighters in 1997, replacing William Goldsmith",  # negation
        "He officially left Foo Fighters in 1997, replacing William Goldsmith",  # word
        "He joined Foo Fighters in 1997, replacing William Goldsmith",  # dropped, no ellipsis
        "He officially joined Foo Fighters in 1997, replacing drummer William Goldsmith",  # added
        "He officially joined Fighters Foo in 1997, replacing William Goldsmith",  # swapped
        "He officially joined Foo Fighters in 1997, such as LeAnn Rimes",  # two outputs
        "He officially joined Foo Fighters ... to replace Josh Freese on drums",  # elided across
        "spent the last 25 years with the group ... He officially joined Foo Fighters",  # order
        "Hawkins was contacted by Guns N' Roses to replace Dave Grohl on drums",
    ],
)
def test_altered_quotes_do_not_match(index: QuoteIndex, quote: str) -> None:
    assert index.find(quote_pattern(quote)) == ()


def test_a_glued_bracket_stands_for_one_word_only(index: QuoteIndex) -> None:
    assert index.find(quote_pattern("[T]he officially joined Foo Fighters in 1997"))
    assert not index.find(quote_pattern("[T]he drummer officially joined Foo Fighters in 1997"))


def test_a_standalone_bracket_stands_for_a_few_words(index: QuoteIndex) -> None:
    assert index.find(quote_pattern("He was raised in [the town of] California"))  # 2 words
    far = "He was raised in [somewhere] Alanis Morissette"  # 17 words later
    assert not index.find(quote_pattern(far))


def test_an_open_end_lets_a_cut_last_word_match() -> None:
    index = QuoteIndex({"a": "weakly supervised approaches based on bounding box annotations"})
    cut = "weakly supervised approaches based on bounding box annot"
    assert not index.find(quote_pattern(cut))
    assert index.find(quote_pattern(cut, open_end=True))
    assert not index.find(quote_pattern("weakly supervised approaches 4", open_end=True))


def test_closest_names_the_output_and_the_word_that_differs(index: QuoteIndex) -> None:
    near = index.closest(quote_pattern("Loudwire named the album one of the 10 best rock efforts"))
    assert near is not None
    assert (near.call, near.words, near.total) == ("wiki", 7, 11)
    assert (near.source_word, near.quote_word) == ("50", "10")


def test_several_texts_may_share_a_call_id() -> None:
    index = QuoteIndex([("c1", "alpha beta gamma"), ("c1", "delta epsilon zeta"), ("c2", "x")])
    assert index.find(quote_pattern("delta epsilon zeta")) == ("c1",)
    assert index.call_ids == ("c1", "c2")


# -- property tests --------------------------------------------------------------------------

_WORD = st.sampled_from(["alpha", "beta", "gamma", "delta", "eta", "theta", "4", "5", "Kappa"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=60), st.data())
def test_every_stretch_of_an_output_is_found(words: list[str], data: st.DataObject) -> None:
    text = " ".join(words)
    index = QuoteIndex({"c": text, "d": "unrelated words only"})
    i = data.draw(st.integers(0, len(words) - 1))
    j = data.draw(st.integers(i + 1, len(words)))
    sep = data.draw(st.sampled_from([" ", "\n", " \u2014 ", ", "]))
    assert index.find(quote_pattern(sep.join(words[i:j]))) == ("c",)


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORD, min_size=2, max_size=40), st.data())
def test_a_word_no_output_has_is_never_found(words: list[str], data: st.DataObject) -> None:
    index = QuoteIndex({"c": " ".join(words)})
    k = data.draw(st.integers(0, len(words) - 1))
    altered = [*words[:k], "zzyzx", *words[k + 1 :]]
    assert index.find(quote_pattern(" ".join(altered))) == ()


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300), st.text(max_size=300))
def test_any_text_any_quote_no_crash(output: str, quote: str) -> None:
    index = QuoteIndex({"c": output})
    pattern = quote_pattern(quote)
    assert index.find(pattern) in ((), ("c",))
    index.closest(pattern)


# -- checking a report ----------------------------------------------------------------------

PEOPLE_URL = "https://people.com/music/taylor-hawkins-life-in-photos/"
WIKI_URL = "https://en.wikipedia.org/wiki/Taylor_Hawkins"


def evidence(*, text: bool = True) -> EvidenceSet:
    records = [
        {"tool": "fetch", "id": "people", "output": f"URL Source: {PEOPLE_URL}\n\n{PEOPLE}"},
        {"tool": "fetch", "id": "wiki", "output": f"URL Source: {WIKI_URL}\n\n{WIKI}"},
    ]
    ev = from_tool_calls(records)
    if not text:  # as a loader that keeps identifiers only would give it
        return EvidenceSet(evolve(c, text=None) for c in ev.calls)
    return EvidenceSet(evolve(c, text=r["output"]) for c, r in zip(ev.calls, records, strict=True))


def statuses(report: str, ev: EvidenceSet | None = None) -> list[str]:
    ev = evidence() if ev is None else ev
    return [c.status for c in check_quotes(report, extract(report), (), ev)]


def test_found_beside_its_own_source() -> None:
    report = f'People said "he officially joined Foo Fighters in 1997" ({PEOPLE_URL}).'
    assert statuses(report) == [FOUND]


def test_found_only_in_another_source_is_misattributed() -> None:
    report = f'Wikipedia said "he officially joined Foo Fighters in 1997" ({WIKI_URL}).'
    (check,) = check_quotes(report, extract(report), (), evidence())
    assert check.status == MISATTRIBUTED
    assert check.calls == ("people",)
    assert check.cited_calls == ("wiki",)
    assert Identifier("url", "en.wikipedia.org/wiki/Taylor_Hawkins") in check.cited


def test_a_source_in_another_sentence_is_not_the_one_cited() -> None:
    report = (
        f'See {WIKI_URL} for the albums. People said "he officially joined Foo Fighters in '
        f'1997" ({PEOPLE_URL}).'
    )
    assert statuses(report) == [FOUND]


def test_failing_a_source_in_the_sentence_the_paragraph_counts() -> None:
    report = f'Albums: {WIKI_URL}.\nHe "officially joined Foo Fighters in 1997, replacing" them.'
    assert statuses(report) == [MISATTRIBUTED]
    apart = f'Albums: {WIKI_URL}.\n\nHe "officially joined Foo Fighters in 1997, replacing" them.'
    assert statuses(apart) == [FOUND]  # no source cited near it: nothing to misattribute


def test_no_kept_text_no_judgement() -> None:
    report = 'They wrote "a passage that no output could possibly hold, made up" here.'
    assert statuses(report, evidence(text=False)) == []


def test_unverified_counts_the_lookups_it_could_not_search() -> None:
    ev = evidence()
    ev = EvidenceSet((*ev.calls, Evidence("search", "lost", recorded=False)))
    (check,) = check_quotes('It said "six words nobody ever wrote down" ok', (), (), ev)
    assert (check.status, check.searched, check.unsearched) == (UNVERIFIED, 2, 1)


def test_a_cited_source_whose_text_was_not_kept_is_not_accused() -> None:
    ev = evidence()
    blind = Evidence("search", "blind", frozenset({Identifier("url", "x.org/a")}))
    ev = EvidenceSet((*ev.calls, blind))
    report = 'X said "he officially joined Foo Fighters in 1997" (https://x.org/a).'
    assert statuses(report, ev) == [FOUND]


def test_an_output_naming_no_source_may_be_the_cited_page() -> None:
    records = [
        {"tool": "bash", "id": "pdf", "output": PEOPLE},  # e.g. pdftotext of the page
        {"tool": "search", "id": "s", "output": f"{PEOPLE_URL} Hawkins drummer page"},
    ]
    base = from_tool_calls(records)
    ev = EvidenceSet(evolve(c, text=r["output"]) for c, r in zip(base.calls, records, strict=True))
    report = f'People said "he officially joined Foo Fighters in 1997" ({PEOPLE_URL}).'
    assert statuses(report, ev) == [FOUND]


def test_nearby_sources_is_a_seam_for_markers() -> None:
    report = 'They said "he officially joined Foo Fighters in 1997" [2].'
    wiki = Identifier("url", "en.wikipedia.org/wiki/Taylor_Hawkins")
    checks = check_quotes(report, (), (), evidence(), sources=lambda q: frozenset({wiki}))
    assert [c.status for c in checks] == [MISATTRIBUTED]
    nearby = NearbySources(report, extract(report))
    assert nearby(checks[0].passage) == frozenset()
