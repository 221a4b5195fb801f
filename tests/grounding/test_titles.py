"""The questions the checks ask of the returned titles: match, own title, relation, works."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.grounding import EvidenceTitles, similarity
from groundcheck.model import Evidence, EvidenceSet, Identifier, Work
from oracles import load_oracle

RAG = Identifier("arxiv", "2005.11401")
DPR = Identifier("arxiv", "2004.04906")
ORPHAN = Identifier("arxiv", "2101.00001")


def titles() -> EvidenceTitles:
    works = (
        Work(frozenset({RAG}), "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
             ("Patrick Lewis", "Ethan Perez"), 2020),
        Work(frozenset({DPR}), "Dense Passage Retrieval for Open-Domain Question Answering",
             ("Vladimir Karpukhin",), 2020),
    )  # fmt: skip
    calls = (
        Evidence("search", "c1", frozenset({RAG, DPR, ORPHAN}), works=works),
        Evidence("web", "c2", titles=("[2002.08909] REALM: Retrieval-Augmented Language Model Pre-Training",)),
    )  # fmt: skip
    return EvidenceTitles(EvidenceSet(calls))


def test_match_takes_the_title_as_written() -> None:
    t = titles()
    found = t.match("3. Dense Passage Retrieval for Open-Domain QA (Karpukhin et al., 2020)", 90)
    assert found is not None and found.title.startswith("Dense Passage Retrieval")
    assert {"enumeration", "parenthetical", "acronym"} <= set(found.rules)
    assert t.calls_for(found.title) == ("c1",)


def test_the_ids_own_title() -> None:
    rel = titles().relation(
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", (RAG,), 90
    )
    assert rel.kind == "own" and rel.own is not None and rel.own.score == 100.0


def test_another_returned_works_title_names_that_work() -> None:
    """The id is real and returned, the title beside it belongs to a different returned work."""
    rel = titles().relation(
        "Dense Passage Retrieval for Open-Domain Question Answering", (RAG,), 90
    )
    assert rel.kind == "other"
    assert rel.other is not None and rel.other.title.startswith("Dense Passage")
    assert [w.identifiers for w in rel.works] == [frozenset({DPR})]
    assert rel.own is not None and rel.own.score < 90  # the id's own title, for the message


def test_a_title_matching_nothing_is_a_near_miss_of_its_own() -> None:
    rel = titles().relation("Retrieval-Augmented Generation for Open-Domain Chatbots", (RAG,), 90)
    assert rel.kind == "none"
    assert rel.own is not None and 50 < rel.own.score < 90


def test_nothing_to_compare_when_the_id_came_without_a_title() -> None:
    rel = titles().relation("Some Paper Nobody Returned At All", (ORPHAN,), 90)
    assert rel.kind == "unknown" and rel.own is None and rel.other is None


def test_a_short_form_of_the_own_title_is_own_not_a_mismatch() -> None:
    """The issue's case: "Generative Adversarial Nets" beside the id of "... Networks"."""
    gan = Identifier("arxiv", "1406.2661")
    t = EvidenceTitles(EvidenceSet((Evidence("s", "c", frozenset({gan}),
                       works=(Work(frozenset({gan}), "Generative Adversarial Networks"),)),)))  # fmt: skip
    assert t.relation("Generative Adversarial Nets", (gan,), 90).kind == "own"


def test_which_work_gives_ids_authors_and_year() -> None:
    (work,) = titles().which_work(
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", 90
    )
    assert work.identifiers == {RAG} and work.authors[0] == "Patrick Lewis" and work.year == 2020
    assert titles().which_work("REALM: Retrieval-Augmented Language Model Pre-Training", 90) == ()


def test_decorated_web_titles_ground_their_clean_form() -> None:
    found = titles().match("REALM: Retrieval-Augmented Language Model Pre-Training", 90)
    assert found is not None and found.rules == ("decoration",)


def test_similarity_uses_the_rules() -> None:
    assert (
        similarity("Scaling and Evaluating SAEs", "Scaling and Evaluating Sparse Autoencoders")
        == 100.0
    )
    assert similarity("Attention Is All You Need", "Attention Is All You Need: A Survey") < 90


# -- the lookups as before: EvidenceTitles' flat maps against the copy with a list per key ------

_OLD = load_oracle(__file__, "titles_v1")
_IDS = [Identifier(s, i) for s in ("arxiv", "doi") for i in ("2005.11401", "10.1/x", "x")]
_TITLE_TEXTS = ["A Study of Things", "Another Paper Here", "Third: a b c d", "", "a study of things"]
_works = st.builds(
    Work,
    st.frozensets(st.sampled_from(_IDS), max_size=3),
    st.sampled_from(_TITLE_TEXTS),
    st.tuples(st.sampled_from(["Ann", "Bo"])),
    st.sampled_from([None, 2020]),
)
_calls = st.builds(
    Evidence,
    st.just("search"),
    st.sampled_from(["c1", "c2", "c3"]),
    titles=st.lists(st.sampled_from(_TITLE_TEXTS), max_size=4).map(tuple),
    excluded=st.sampled_from([None, None, "self-written"]),
    works=st.lists(_works, max_size=5).map(tuple),
)


def _lookups(t: Any) -> list[Any]:
    keys = [(), *[(k,) for k in _IDS], tuple(_IDS[:3]), (_IDS[4], _IDS[0], _IDS[4])]
    probes = [*_TITLE_TEXTS, "never returned"]
    return [
        t.titles,
        [t.calls_for(x) for x in probes],
        [t.own_titles(k) for k in keys],
        [t.works_of(x) for x in probes],
        [t.ids_of(x) for x in probes],
    ]


@settings(max_examples=300, deadline=None)
@given(st.lists(_calls, max_size=6))
def test_lookups_as_before(calls: list[Evidence]) -> None:
    """Titles in several calls (and one call id twice), ids in several works, one work with
    two ids of one spelling, excluded calls: every answer is the copy's, in the same order."""
    evidence = EvidenceSet(calls)
    assert _lookups(EvidenceTitles(evidence)) == _lookups(_OLD.EvidenceTitles(evidence))
