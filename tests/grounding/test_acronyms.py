"""Acronyms coined from the returned title itself ("PLMs" for "Protein Language Models")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundcheck.grounding.acronyms import coins_acronyms, expand_acronyms

# From a real literature review (Hypogenic-AI/novel-bio-mechanisms-c075-claude,
# literature_review.md at a45205d): headings abbreviate the titles its paper-finder returned.
REAL = [
    (
        "Interpreting and Steering PLMs through Sparse Autoencoders",
        "Interpreting and Steering Protein Language Models through Sparse Autoencoders",
    ),
    (
        "BERTology Meets Biology — Interpreting Attention in PLMs",
        "BERTology Meets Biology: Interpreting Attention in Protein Language Models",
    ),
    (
        "Automated Protein Motif Localization using Concept Activation Vectors in PLM "
        "Embedding Space",
        "Automated Protein Motif Localization using Concept Activation Vectors in Protein "
        "Language Model Embedding Space",
    ),
]


def test_real_abbreviations_expand_to_the_returned_words() -> None:
    """Each heading, expanded against the title returned for it, is that title's words."""
    for cited, returned in REAL:
        expanded = expand_acronyms(cited, returned)
        assert expanded is not None
        assert expanded.replace("—", ":").replace(" :", ":") == returned


def test_function_words_may_sit_inside_an_acronym() -> None:
    """RLHF skips "from"; CoT's capitals are C and T."""
    assert expand_acronyms("RLHF at scale", "Reinforcement Learning from Human Feedback") == (
        "Reinforcement Learning from Human Feedback at scale"
    )
    assert expand_acronyms("CoT prompting", "Chain of Thought Prompting") == (
        "Chain of Thought prompting"
    )


def test_no_expansion_without_the_words() -> None:
    """An acronym the returned title does not spell out stays, and so does the result None."""
    assert expand_acronyms("Scaling PLMs", "Scaling Laws for Neural Language Models") is None
    assert expand_acronyms("GPT-4 Technical Report", "GPT-4 Technical Report") is None


def test_a_token_the_returned_title_also_writes_stays() -> None:
    """ "LoRA" is in both titles: only the LLMs of the cited one expand."""
    assert (
        expand_acronyms(
            "LoRA: Low-Rank Adaptation of LLMs",
            "LoRA: Low-Rank Adaptation of Large Language Models",
        )
        == "LoRA: Low-Rank Adaptation of Large Language Models"
    )


_words = st.lists(st.text("abcdefghij", min_size=1, max_size=8), min_size=1, max_size=12)


@given(_words, _words)
def test_lower_case_titles_never_expand(cited: list[str], returned: list[str]) -> None:
    """Only tokens with two capitals are acronyms: ordinary words are never rewritten."""
    assert expand_acronyms(" ".join(cited), " ".join(returned).title()) is None


@given(_words, st.integers(0, 11), st.integers(2, 4))
def test_an_acronym_of_a_run_expands_to_exactly_that_run(
    words: list[str], start: int, length: int
) -> None:
    """The capitals of any run of words expand back to words of the returned title."""
    words = [
        w
        for w in words
        if w not in {"a", "an", "and", "as", "at", "by", "in", "of", "on", "or", "to"}
    ]
    if len(words) < length:
        return
    start = min(start, len(words) - length)
    run = words[start : start + length]
    acronym = "".join(w[0].upper() for w in run) + "s"
    returned = " ".join(words)
    expanded = expand_acronyms(f"about {acronym}", returned)
    assert expanded is not None
    tail = expanded.removeprefix("about ").split()
    assert [w[0] for w in tail] == [w[0] for w in run]
    assert " ".join(tail) in returned


def test_an_abbreviated_heading_grounds_against_the_id_and_title_returned() -> None:
    """The real case, audited: ids returned with full titles, headings abbreviating them.

    Records as the paper-finder returned them (arxiv_targets.jsonl of the same repository);
    before acronyms were expanded, every heading here was an ``unverified-title`` warning.
    """
    import groundcheck

    records = [
        {"arxiv_id": "2502.09135", "title": REAL[0][1], "year": 2025},
        {"arxiv_id": "2006.15222", "title": REAL[1][1], "year": 2020},
        {"arxiv_id": "2511.21614", "title": REAL[2][1], "year": 2025},
    ]
    report = "\n\n".join(
        f"### Paper {n}: {cited}\n\n- **arXiv**: {r['arxiv_id']}"
        for n, ((cited, _), r) in enumerate(zip(REAL, records, strict=True), 1)
    )
    verdict = groundcheck.audit(report, [{"tool": "paper_finder", "output": records}])
    assert [f.code for f in verdict.findings] == []
    # an acronym the returned title does not spell out still warns
    wrong = report.replace("PLMs through", "GNNs through")
    codes = [f.code for f in groundcheck.audit(wrong, [{"tool": "s", "output": records}]).findings]
    assert codes == ["unverified-title"]


_mixed = st.text(alphabet="AaBbCcPLMs -:", max_size=40)


@given(_mixed, st.one_of(_mixed, st.sampled_from([t for _, t in REAL])))
def test_no_coined_acronym_means_nothing_to_expand(cited: str, returned: str) -> None:
    """Where coins_acronyms says no, expand_acronyms finds nothing against any title (so
    the matcher skips looking for the closest one)."""
    if not coins_acronyms(cited):
        assert expand_acronyms(cited, returned) is None
