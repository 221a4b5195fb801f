"""Whole, realistic runs end to end: the findings a user would read, and nothing else.

Each scenario is a report (or a transcript holding it) written the way agents write: prose
with emphasis, links, numbered references, several papers per paragraph. The expected
findings are exact, so a false alarm is as much a failure as a miss.
"""

from __future__ import annotations

from pathlib import Path

from groundcheck import audit
from groundcheck.evidence import load_evidence

HERE = Path(__file__).parent / "scenarios"


def findings(report: str, evidence: object) -> list[tuple[str, str]]:
    verdict = audit(report, evidence)  # type: ignore[arg-type]
    return [(f.code, f.citation.raw if f.citation else "") for f in verdict.findings]


def test_review_with_a_reference_list() -> None:
    """Two grounded papers cited three ways each; one paper no tool returned, cited twice."""
    report = (HERE / "review_with_references.md").read_text("utf-8")
    evidence = load_evidence(HERE / "rag_search.json").evidence
    assert findings(report, evidence) == [
        ("fabricated-id", "2310.11511"),
        (
            "unverified-title",
            "Self-RAG: Learning to retrieve, generate, and critique through self-reflection",
        ),
        ("fabricated-id", "2310.11511"),
    ]


def test_two_papers_per_paragraph_pair_correctly() -> None:
    """Emphasised titles and markdown links, two papers per paragraph: all correct, no finding."""
    report = (HERE / "two_papers_per_paragraph.md").read_text("utf-8")
    evidence = load_evidence(HERE / "rag_search.json").evidence
    verdict = audit(report, evidence)
    assert verdict.findings == ()
    assert sum(g.grounded for g in verdict.citations) == 8


def test_claude_code_transcript_audited_alone() -> None:
    """Search results packed as JSON text; a note the agent wrote itself; an abbreviated title
    (SAEs: grounded by the acronym rule), an invented title and the id beside it (an error)."""
    trace = load_evidence(HERE / "claude_code_sae.jsonl")
    assert trace.format == "claude-code"
    assert findings(trace.report or "", trace.evidence) == [
        ("unverified-title", "Scaling and Evaluating Sparse Autoencoders"),
        ("fabricated-id", "2406.04093"),
    ]


def test_openai_chat_with_crossref_dois() -> None:
    """Crossref results (titles as lists, DOIs); a numbered reference list in author-year
    style; one paper, cited by its arXiv DOI, that no tool returned."""
    trace = load_evidence(HERE / "openai_crossref_dois.json")
    assert trace.format == "openai-chat"
    assert findings(trace.report or "", trace.evidence) == [
        ("unverified-title", "Denoising Diffusion Implicit Models"),
        ("fabricated-id", "10.48550/arXiv.2010.02502"),
    ]
