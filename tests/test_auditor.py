"""audit() end to end on the seed scenarios from the issue, and the policy surface."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import groundcheck
from groundcheck import Auditor, Policy, audit
from groundcheck.errors import ConfigError, InputError, UngroundedReportError

SEARCH_HIT = {
    "tool": "arxiv_search",
    "id": "c1",
    "input": {"q": "retrieval augmented generation"},
    "output": [
        {"arxiv_id": "2005.11401", "title": "Retrieval-Augmented Generation for NLP"},
        {"url": "https://arxiv.org/abs/2404.16130v1", "title": "From Local to Global"},
    ],
}


def codes(verdict: groundcheck.Verdict) -> list[tuple[str, str]]:
    return [(f.code, f.severity) for f in verdict.findings]


def test_clean_run_is_ok() -> None:
    """Every cited id was returned: ok, no findings, each citation names its call."""
    v = audit("RAG (arXiv:2005.11401) and GraphRAG (2404.16130).", [SEARCH_HIT])
    assert v.ok
    assert v.findings == ()
    assert [g.calls for g in v.citations] == [("c1",), ("c1",)]


def test_fabricated_ids_mixed_with_real_ones() -> None:
    """Only the ids no tool returned are fabricated; the real ones stay grounded."""
    report = "Real: 2005.11401. Invented: arXiv:2004.04906 and 2002.08909v1."
    v = audit(report, [SEARCH_HIT])
    assert not v.ok
    assert codes(v) == [("fabricated-id", "error"), ("fabricated-id", "error")]
    assert [f.citation.raw for f in v.findings if f.citation] == ["2004.04906", "2002.08909v1"]
    assert "not in any tool output" in v.findings[0].message
    assert "does not exist" not in v.findings[0].message


def test_four_empty_lookups_then_a_long_report(examples: Path) -> None:
    """The recorded failure: every id fabricated, and the empty-evidence guard fires as error."""
    report = (examples / "apr23" / "report.md").read_text(encoding="utf-8")
    calls = json.loads((examples / "apr23" / "tool_calls.json").read_text(encoding="utf-8"))
    v = audit(report, calls)
    assert codes(v).count(("fabricated-id", "error")) == 5
    assert ("empty-evidence-report", "error") in codes(v)
    assert not v.ok


def test_empty_lookups_and_long_report_without_ids_is_a_warning() -> None:
    """Nothing cited but a long summary after empty calls: a warning, not an error."""
    calls = [{"tool": "search", "input": {"q": q}, "output": []} for q in "abcd"]
    v = audit("From memory, the literature says... " * 20, calls)
    assert codes(v) == [("empty-evidence-report", "warning")]
    assert v.ok


def test_honest_nothing_found_note_passes() -> None:
    """A short honest note after empty calls is not a fabrication."""
    calls = [{"tool": "search", "input": {"q": "x"}, "output": []}]
    v = audit("I searched and found nothing relevant.", calls)
    assert v.ok
    assert v.findings == ()


def test_long_report_threshold_is_tunable() -> None:
    calls = [{"tool": "search", "output": None}]
    report = "x" * 300
    assert audit(report, calls).findings == ()
    assert codes(audit(report, calls, long_report_chars=100)) == [
        ("empty-evidence-report", "warning")
    ]


def test_errored_calls_count_as_returning_nothing() -> None:
    calls = [{"tool": "search", "output": None, "error": "HTTP 500"}]
    v = audit("See 2005.11401.", calls)
    assert ("empty-evidence-report", "error") in codes(v)
    assert "1 failed" in next(f.message for f in v.findings if f.code == "empty-evidence-report")


def test_no_lookup_at_all() -> None:
    """A report with no tool call: no-tool-calls, and every cited id is fabricated."""
    v = audit("Per arXiv:2005.11401, RAG works.", [])
    assert codes(v) == [("no-tool-calls", "error"), ("fabricated-id", "error")]
    assert "no tool was called" in v.findings[1].message


def test_empty_report_is_valid_input() -> None:
    """Nothing cited, nothing written: the guards have nothing to say."""
    assert audit("", []).ok
    assert audit("   \n", [SEARCH_HIT]).findings == ()


@pytest.mark.parametrize(
    ("cited", "returned"),
    [
        ("arXiv:2005.11401v2", "2005.11401"),
        ("2005.11401", "https://arxiv.org/abs/2005.11401v3"),
        ("https://arxiv.org/pdf/2005.11401v1.pdf", "arXiv:2005.11401"),
        ("10.48550/arXiv.2005.11401", "2005.11401"),
        ("2005.11401", "https://doi.org/10.48550/arXiv.2005.11401"),
        ("math.AG/0601001v2", "math/0601001"),
        ("hep-th/9711200", "HEP-TH/9711200v1"),
        ("doi:10.1038/NATURE14539", "https://doi.org/10.1038/nature14539"),
        ("https://doi.org/10.1063%2F1.881498", "10.1063/1.881498"),
        ("10.1016/0031-\n9163(64)91136-9", "10.1016/0031-9163(64)91136-9"),
        ("２００５．１１４０１", "2005.11401"),
    ],
)
def test_versioned_and_url_forms_ground_both_ways(cited: str, returned: str) -> None:
    """Different spellings of one work ground each other, in either direction."""
    forward = audit(f"We cite {cited} here.", [{"tool": "t", "output": returned}])
    backward = audit(f"We cite {returned} here.", [{"tool": "t", "output": cited}])
    assert forward.ok, forward.findings
    assert backward.ok, backward.findings


def test_legacy_and_doi_fabrications() -> None:
    v = audit(
        "See hep-th/9711200 and doi:10.1000/made.up and 10.1038/nature14539.",
        [{"tool": "t", "output": "10.1038/nature14539"}],
    )
    fabricated = [f.citation.id for f in v.findings if f.citation]
    assert fabricated == ["hep-th/9711200", "10.1000/made.up"]


def test_decimals_that_are_not_ids_stay_silent() -> None:
    v = audit("Accuracy rose from 1024.5678 to 1234.5678; p=0.0001.", [SEARCH_HIT])
    assert v.ok
    assert v.citations == ()


def test_malformed_ids_are_errors_and_never_grounded() -> None:
    """arXiv:2313.01234, 2301.00000v2, 1501.1234v1 cannot name a real paper."""
    v = audit(
        "arXiv:2313.01234, 2301.00000v2 and 1501.1234v1.",
        [{"tool": "t", "output": "2313.01234 2301.00000v2 1501.1234v1"}],
    )
    assert codes(v) == [("malformed-id", "error")] * 3
    assert all(not g.grounded for g in v.citations)


def test_query_ids_are_not_evidence() -> None:
    """An id the agent put in its own query does not ground a citation of that id."""
    v = audit(
        "See 2004.04906.",
        [{"tool": "search", "input": {"q": "2004.04906"}, "output": "no results"}],
    )
    assert codes(v) == [("fabricated-id", "error")]


def test_unrecorded_outputs_warn_and_soften_on_request() -> None:
    calls: list[dict[str, Any]] = [
        {"tool": "search", "recorded": False},
        {"tool": "search", "output": "2005.11401"},
    ]
    v = audit("2005.11401 and 2004.04906", calls)
    assert codes(v) == [("outputs-not-recorded", "warning"), ("fabricated-id", "error")]
    assert "did not record" in v.findings[1].message
    soft = audit("2005.11401 and 2004.04906", calls, unrecorded_severity="warning")
    assert codes(soft) == [("outputs-not-recorded", "warning"), ("fabricated-id", "warning")]
    assert soft.ok


def test_raise_for_status_is_opt_in() -> None:
    v = audit("2004.04906", [SEARCH_HIT])
    with pytest.raises(UngroundedReportError, match="fabricated-id") as info:
        v.raise_for_status()
    assert isinstance(info.value, AssertionError)
    assert info.value.verdict is v
    ok = audit("2005.11401", [SEARCH_HIT])
    assert ok.raise_for_status() is ok


def test_fail_on_warning() -> None:
    calls = [{"tool": "search", "output": []}]
    v = audit("x" * 600, calls)
    assert v.ok
    assert not v.fails("error")
    assert v.fails("warning")
    with pytest.raises(UngroundedReportError):
        v.raise_for_status("warning")


@pytest.mark.parametrize(
    "options",
    [
        {"long_report_chars": -1},
        {"long_report_chars": "500"},
        {"long_report_chars": True},
        {"unrecorded_severity": "fatal"},
        {"extractors": []},
        {"no_such_option": 1},
    ],
)
def test_bad_options_are_config_errors(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        audit("x", [], **options)


def test_report_must_be_text() -> None:
    with pytest.raises(InputError, match="must be text"):
        audit(b"2005.11401", [])  # type: ignore[arg-type]


def test_auditor_is_reusable_and_restricts_extractors(registry: groundcheck.Registry) -> None:
    """An Auditor resolves its extractors once; naming some runs only those."""
    only_doi = Auditor(Policy(extractors=("doi",)), registry=registry)
    v = only_doi.audit("2004.04906 and 10.1000/x", [{"tool": "t", "output": "10.1000/x"}])
    assert v.ok
    assert [c.citation.scheme for c in v.citations] == ["doi"]
    again = only_doi.audit("10.1000/y", [{"tool": "t", "output": "10.1000/x"}])
    assert not again.ok


def test_unknown_extractor_name_is_an_error(registry: groundcheck.Registry) -> None:
    with pytest.raises(groundcheck.RegistryError, match="no extractor named 'cve'"):
        Auditor(Policy(extractors=("cve",)), registry=registry)


def test_audit_does_not_mutate_inputs() -> None:
    calls = [dict(SEARCH_HIT)]
    snapshot = json.dumps(calls)
    audit("2005.11401", calls)
    assert json.dumps(calls) == snapshot


def test_report_bibliography_is_a_citation_source() -> None:
    """Ids in the report's own .bib are citations, located in that file; bad entries noted."""
    bib = (
        "@article{ok, eprint={2005.11401}, archivePrefix={arXiv}}\n"
        "@article{bad, title={unclosed, doi={10.1000/x}\n"
        "@misc{made, doi={10.9999/invented}}\n"
    )
    v = audit("As shown [ok], RAG works.", [SEARCH_HIT], bibliography={"refs.bib": bib})
    cited = [(g.citation.source, g.citation.id, g.citation.line, g.grounded) for g in v.citations]
    assert cited == [
        ("refs.bib", "2005.11401", 1, True),
        ("refs.bib", "10.1000/x", 2, False),
        ("refs.bib", "10.9999/invented", 3, False),
    ]
    assert [f.code for f in v.findings] == ["fabricated-id", "fabricated-id"]
    assert v.notes == (
        "refs.bib:2: malformed BibTeX entry: Unexpected block start: `@misc`. "
        "Was still looking for field-value closing `}`",
    )


def test_bibliography_as_plain_text_and_bad_type() -> None:
    v = audit("x", [SEARCH_HIT], bibliography="[1] arXiv:2404.16130")
    assert v.citations[0].citation.source == "bibliography"
    assert v.ok
    with pytest.raises(InputError, match="bibliography must be"):
        audit("x", [], bibliography=42)  # type: ignore[arg-type]


class _Recording:
    """A check that records whether the cyclic collector ran while it was asked (and may fail)."""

    code = "recording"
    severity = "warning"
    description = "records the collector's state"
    help = ""

    def __init__(self, fail: bool = False) -> None:
        self.collecting: list[bool] = []
        self.fail = fail

    def run(self, ctx: Any) -> list[Any]:
        import gc

        self.collecting.append(gc.isenabled())
        if self.fail:
            raise RuntimeError("a check that fails")
        return []


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_for_the_audit_and_restored(enabled: bool) -> None:
    """The audit runs with the cyclic collector paused (its objects hold no cycle to free
    before it ends), and leaves it as it found it, after a failing check too."""
    import gc

    calls = [{"tool": "search", "input": "rag", "output": "2005.11401 RAG"}]
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        for fail in (False, True):
            check = _Recording(fail)
            if fail:
                with pytest.raises(RuntimeError):
                    Auditor(checks=[check]).audit("RAG (arXiv:2005.11401).", calls)
            else:
                Auditor(checks=[check]).audit("RAG (arXiv:2005.11401).", calls)
            assert check.collecting == [False]
            assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
