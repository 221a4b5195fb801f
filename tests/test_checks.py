"""The title checks: unverified-title, id-title-mismatch, and grounded titles in the verdict."""

from __future__ import annotations

import json
from typing import Any

import pytest

from groundcheck import audit
from groundcheck.errors import ConfigError

RAG = "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"
DPR = "Dense Passage Retrieval for Open-Domain Question Answering"
CALLS: list[dict[str, Any]] = [
    {
        "tool": "search",
        "id": "c1",
        "output": [
            {"arxiv_id": "2005.11401", "title": RAG},
            {"arxiv_id": "2004.04906", "title": DPR},
        ],
    }
]


def codes(report: str, calls: list[dict[str, Any]] = CALLS, **options: Any) -> list[str]:
    return [f.code for f in audit(report, calls, **options).findings]


def test_grounded_title_carries_match_and_score() -> None:
    v = audit(f"## {RAG.lower()}\nLewis et al., arXiv:2005.11401", CALLS)
    assert v.findings == ()
    data = json.loads(v.to_json())
    (title,) = [c for c in data["citations"] if c["scheme"] == "title"]
    assert title["matched_title"] == RAG
    assert title["score"] == 100.0
    assert title["evidence"] == ["c1"]
    assert title["kind"] == "heading"


def test_unverified_title_only_when_written_as_a_citation() -> None:
    """An invented heading over a cited id warns; a bold sentence with no id nearby does not."""
    assert codes("## Neural Retrieval Augmented Memory Networks\nSee arXiv:2005.11401.") == [
        "unverified-title"
    ]
    assert codes("**This result was never verified by anyone.**\n\nNothing cited here.") == []
    refs = "References\n\n1. Smith, J. (2021). Neural Retrieval Augmented Memory Networks. ICML."
    assert codes(refs) == ["unverified-title"]


def test_unverified_title_names_the_closest_title() -> None:
    v = audit(
        'As "Dense Passage Retrieval for Open-Domain Dialogue Systems" (arXiv:2004.04906) shows',
        CALLS,
    )
    messages = [f.message for f in v.findings if f.code == "unverified-title"]
    assert messages and "closest returned title is “Dense Passage Retrieval" in messages[0]


def test_id_beside_another_returned_papers_title() -> None:
    """The real id, the real title of a different returned paper: an error naming both."""
    v = audit(f"## {DPR}\nKarpukhin et al. (2020), arXiv:2005.11401.", CALLS)
    (finding,) = v.findings
    assert finding.code == "id-title-mismatch"
    assert finding.severity == "error"
    assert "arXiv:2005.11401 was returned as “Retrieval-Augmented" in finding.message
    assert "the title of another returned paper (arXiv:2004.04906)" in finding.message


def test_id_beside_its_own_title_with_typos_is_fine() -> None:
    assert codes(f'"{RAG.replace("Knowledge", "Knowlege")}" (arXiv:2005.11401)') == []


def test_no_mismatch_when_the_ids_own_title_is_unknown() -> None:
    calls = [{"tool": "search", "output": "2005.11401"}]
    assert codes(f"## {DPR}\nSee arXiv:2005.11401.", calls) == ["unverified-title"]


def test_title_threshold_is_tunable_and_validated() -> None:
    report = '"Dense Passage Retrieval for Open Domain Questions" (arXiv:2004.04906)'
    assert "unverified-title" in codes(report)
    assert codes(report, title_threshold=70) == []
    for bad in (0, -5, 101, "90", True):
        with pytest.raises(ConfigError, match="title_threshold"):
            audit(report, CALLS, title_threshold=bad)


def test_titles_in_text_outputs_ground() -> None:
    """A search tool that returns plain lines: titles beside ids are evidence too."""
    calls = [
        {
            "tool": "web",
            "output": "1. Switch Transformers: Scaling to Trillion Parameter Models arxiv.org/abs/2101.03961",
        }
    ]
    v = audit(
        '"Switch Transformers: Scaling to Trillion Parameter Models" (arXiv:2101.03961)', calls
    )
    assert v.findings == ()
    assert [g.grounded for g in v.citations] == [True, True]


@pytest.mark.parametrize(
    "report",
    [
        f"We compare *{RAG}* (arXiv:2005.11401) with *{DPR}* (arXiv:2004.04906) in detail.",
        f"Also [{DPR}](https://arxiv.org/abs/2004.04906) and [{RAG}](https://arxiv.org/abs/2005.11401).",
        f"Results:\n2005.11401 {RAG}\n2004.04906 {DPR}\n",
        f"## {RAG}\nLewis et al., arXiv:2005.11401; see also arXiv:2004.04906 ({DPR}).",
    ],
)
def test_each_id_pairs_with_its_own_title(report: str) -> None:
    """Regression: with two cited papers in one paragraph, each id is paired with the title
    written for it (before it on its line, else after it), not with the neighbour's."""
    assert audit(report, CALLS).findings == ()


def test_paraphrased_heading_is_not_a_mismatch() -> None:
    """A heading that paraphrases the paper over its id is not an accusation; a quoted
    title that matches nothing is."""
    assert codes("## RAG: when retrieval meets generation\nSee arXiv:2005.11401.") == [
        "unverified-title"
    ]
    assert codes('"When Retrieval Meets Generation Anew" (arXiv:2005.11401)') == [
        "unverified-title",
        "id-title-mismatch",
    ]
