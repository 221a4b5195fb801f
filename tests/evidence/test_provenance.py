"""Provenance: echoes of a call's own arguments, the agent's files across a run, fetched URLs.

Scenario fixtures are in ``fixtures/provenance/`` (see its README for how each was made); each
rule also has small tests of its own. The rules are written down in docs/evidence.md.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from groundcheck import audit
from groundcheck.evidence import FetchRule, load_evidence, load_run
from groundcheck.evidence.provenance import is_composite, summary_verdict
from groundcheck.model import Identifier

FIXTURES = Path(__file__).parent / "fixtures" / "provenance"


def arxiv(i: str) -> Identifier:
    return Identifier("arxiv", i)


def url(key: str) -> Identifier:
    return Identifier("url", key)


def codes(trace_report: str, evidence: object) -> list[tuple[str, str | None]]:
    verdict = audit(trace_report, evidence)  # type: ignore[arg-type]
    return [(f.code, f.citation.id if f.citation else None) for f in verdict.findings]


# -- echoes ----------------------------------------------------------------------------------


def test_a_real_search_by_id_grounds_it_and_an_echoed_composite_query_does_not() -> None:
    """The id queried alone comes back with its title: grounded. An id inside a longer query,
    repeated by the result ('Results for "GShard 2006.16669 …"') or by a 'No results' line: not."""
    trace = load_evidence(FIXTURES / "openai-search-echo.json")
    ids = trace.evidence.identifiers
    assert arxiv("2101.03961") in ids and arxiv("1701.06538") in ids
    assert arxiv("2106.05974") in ids  # the real results of the echoing search still count
    assert arxiv("2006.16669") not in ids
    assert arxiv("2103.16717") not in ids
    nothing = trace.evidence.calls[2]
    assert nothing.empty and nothing.recorded  # "No results found for <query>": an empty call
    assert codes(trace.report or "", trace.evidence) == [
        ("fabricated-id", "2006.16669"),
        ("fabricated-id", "2103.16717"),
    ]


def test_a_result_that_only_summarises_its_arguments_is_not_recorded() -> None:
    """Gemini CLI logs 'Read pdf file: <path>' and 'Search results for "<q>" returned.':
    not outputs. The ids in the path and the title in the query ground nothing; the verdict
    says outputs were not recorded and every fabricated-id carries the caveat."""
    trace = load_evidence(FIXTURES / "gemini-cli-summaries.jsonl")
    assert trace.evidence.identifiers == frozenset()
    assert trace.evidence.calls[1].tool == "read_file"
    assert [c.recorded for c in trace.evidence.calls] == [False] * 4
    verdict = audit(trace.report or "", trace.evidence)
    assert verdict.findings[0].code == "outputs-not-recorded"
    fabricated = [f for f in verdict.findings if f.code == "fabricated-id"]
    assert {f.citation.id for f in fabricated if f.citation} == {
        "1701.06538",
        "2006.16668",
        "2101.03961",
    }
    assert all("did not record their output, which may hold it" in f.message for f in fabricated)


@pytest.mark.parametrize(
    ("output", "recorded", "empty", "grounded"),
    [
        ("Read pdf file: papers/2101.03961v1_x.pdf", False, False, False),
        ({"query": "papers/2101.03961v1_x.pdf", "results": []}, True, True, False),
        ("Read 2 pages of papers/2101.03961v1_x.pdf: Switch Transformers use one expert", True,
         False, False),
        ("papers/2101.03961v1_x.pdf\n\narXiv:2101.03961v1 [cs.LG] 11 Jan 2021", True, False, True),
    ],
)  # fmt: skip
def test_echoes_of_a_path_argument(
    output: object, recorded: bool, empty: bool, grounded: bool
) -> None:
    """The id inside the echoed path never grounds; the same id in the content does."""
    record = {"tool": "read_file", "input": {"path": "/w/papers/2101.03961v1_x.pdf"}}
    (call,) = load_evidence([{**record, "output": output}]).evidence.calls
    assert (call.recorded, call.empty) == (recorded, empty)
    assert (arxiv("2101.03961") in call.identifiers) is grounded


def test_a_title_search_that_returns_the_title_is_an_answer() -> None:
    """A result that is exactly its query (a title lookup confirming the title) counts."""
    calls = [{"tool": "title_lookup", "input": {"q": "Attention Is All You Need"},
              "output": [{"title": "Attention Is All You Need", "arxiv": "1706.03762"}]}]  # fmt: skip
    (call,) = load_evidence(calls).evidence.calls
    assert call.recorded and not call.empty
    assert arxiv("1706.03762") in call.identifiers
    assert call.titles == ("Attention Is All You Need",)


def test_composite_and_bare_arguments() -> None:
    assert not is_composite("arXiv:2101.03961", 6, 16)
    assert not is_composite("doi:10.1000/x", 4, 13)
    assert is_composite("https://arxiv.org/abs/2101.03961", 22, 32)
    assert is_composite("Switch 2101.03961", 7, 17)


def test_summary_words_only() -> None:
    """Anything but summary words outside the echo makes it an output."""
    assert summary_verdict([(None, 'Search results for "moe x" returned.')], ["moe x"]) == "summary"
    assert summary_verdict([(None, 'Search results for "moe x": Switch')], ["moe x"]) is None
    assert summary_verdict([(None, "Found 0 results for moe x")], ["moe x"]) == "empty"
    assert summary_verdict([(None, "Read pdf file")], ["moe x"]) is None  # nothing echoed


@pytest.mark.parametrize(
    "leaves",
    [
        [(None, "Error: paper 2401.99999 not found")],
        [("status", "error"), ("message", "DOI 10.1000/xyz123 could not be resolved")],
        [(None, "No such paper: 2401.99999")],
        [(None, "HTTP 404: 2401.99999 does not exist")],
        [(None, "Failed to fetch arXiv 2401.99999 (invalid id)")],
    ],
)
def test_a_lookup_that_failed_on_its_argument_returned_nothing(
    leaves: list[tuple[str | None, str]],
) -> None:
    """The id the agent asked for, repeated in an error: the tool returned nothing. It
    grounded the id (an agent that invents an id and looks it up cited it "returned")."""
    assert summary_verdict(leaves, ["2401.99999", "10.1000/xyz123"]) == "empty"


@pytest.mark.parametrize(
    "text",
    ["Found paper 2401.99999", "Paper 2401.99999: Mixture of Experts Fail to Scale"],
)
def test_a_confirmation_or_an_answer_is_not_a_failure(text: str) -> None:
    assert summary_verdict([(None, text)], ["2401.99999"]) is None


# -- the agent's files -----------------------------------------------------------------------


def test_names_the_agent_chose_in_a_download_do_not_ground() -> None:
    """curl -o papers/2004.04906_dpr.pdf, then ls and file: the listing is the agent's own
    text. The downloaded RAG paper's text (pdftotext) is what the download returned."""
    trace = load_evidence(FIXTURES / "claude-code-downloads.jsonl")
    assert trace.evidence.identifiers == {arxiv("2005.11401")}
    assert codes(trace.report or "", trace.evidence) == [("fabricated-id", "2004.04906")]


@pytest.mark.parametrize("order", ["trace first", "trace last"])
def test_a_readback_across_the_files_of_a_run_is_not_evidence(order: str) -> None:
    """Stage 1 writes review/literature.md; stage 2 reads it back. Whatever the order the
    files are given in, the readback grounds nothing."""
    files = [FIXTURES / "stage2-answer.jsonl", FIXTURES / "stage1-review.jsonl"]
    trace = load_run(files if order == "trace first" else files[::-1])
    read = next(c for c in trace.evidence.calls if c.tool == "Read")
    assert read.excluded is not None and "stage1-review.jsonl" in read.excluded
    assert trace.evidence.identifiers == {arxiv("2005.11401"), url("arxiv.org/abs/2005.11401")}
    if order == "trace first":
        assert trace.report == "RAG (arXiv:2005.11401) retrieves with DPR (arXiv:2004.04906)."
    report = "RAG (arXiv:2005.11401) retrieves with DPR (arXiv:2004.04906)."
    assert codes(report, trace.evidence) == [("fabricated-id", "2004.04906")]


def test_load_evidence_of_a_list_of_paths_is_one_run() -> None:
    files = [FIXTURES / "stage2-answer.jsonl", str(FIXTURES / "stage1-review.jsonl")]
    assert load_evidence(files).evidence.to_dict() == load_run(files).evidence.to_dict()
    assert arxiv("2004.04906") not in load_evidence(files).evidence.identifiers


def test_a_readback_whose_write_is_in_a_file_not_given_counts() -> None:
    """Documented: without the file that holds the write, the read is evidence."""
    trace = load_evidence(FIXTURES / "stage2-answer.jsonl")
    assert arxiv("2004.04906") in trace.evidence.identifiers


def test_a_file_given_twice_is_read_once(tmp_path: Path) -> None:
    path = FIXTURES / "stage1-review.jsonl"
    copy = tmp_path / "link.jsonl"
    copy.symlink_to(path)
    trace = load_run([path, copy, path])
    assert len(trace.evidence.calls) == 2
    assert sum("given twice" in n for n in trace.evidence.notes) == 2


def test_a_folder_of_stages_is_one_run(tmp_path: Path) -> None:
    for name in ("stage1-review.jsonl", "stage2-answer.jsonl"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    trace = load_evidence(tmp_path)
    assert arxiv("2004.04906") not in trace.evidence.identifiers


def _codex(items: list[dict[str, object]]) -> str:
    return "".join(json.dumps({"type": "item.completed", "item": i}) + "\n" for i in items)


def test_heredoc_and_apply_patch_writes_in_codex(tmp_path: Path) -> None:
    """Codex writes notes with a heredoc and an apply_patch; a later cat of either is the
    agent's own text, in the same file or another file of the run."""
    stage1 = tmp_path / "stage1.jsonl"
    stage1.write_text(
        _codex(
            [
                {"id": "item_0", "type": "command_execution",
                 "command": "bash -lc \"cat > notes.md <<'EOF'\nDPR: arXiv:2004.04906\nEOF\"",
                 "aggregated_output": "", "exit_code": 0, "status": "completed"},
                {"id": "item_1", "type": "command_execution",
                 "command": "bash -lc 'apply_patch <<'\"'\"'PATCH'\"'\"'\n*** Begin Patch\n"
                            "*** Add File: refs/extra.md\n+GShard arXiv:2006.16669\n"
                            "*** End Patch\nPATCH'",
                 "aggregated_output": "Success. Updated the following files:\nA refs/extra.md\n",
                 "exit_code": 0, "status": "completed"},
            ]
        ),
        "utf-8",
    )  # fmt: skip
    stage2 = tmp_path / "stage2.jsonl"
    stage2.write_text(
        _codex(
            [
                {"id": "item_0", "type": "command_execution", "command": "bash -lc 'cat notes.md'",
                 "aggregated_output": "DPR: arXiv:2004.04906\n", "exit_code": 0,
                 "status": "completed"},
                {"id": "item_1", "type": "command_execution",
                 "command": "bash -lc 'head -5 refs/extra.md'",
                 "aggregated_output": "GShard arXiv:2006.16669\n", "exit_code": 0,
                 "status": "completed"},
                {"id": "item_2", "type": "agent_message", "text": "DPR (2004.04906)."},
            ]
        ),
        "utf-8",
    )  # fmt: skip
    trace = load_run([stage2, stage1])
    assert trace.evidence.identifiers == frozenset()
    assert [c.excluded is not None for c in trace.evidence.calls[:2]] == [True, True]


def test_a_file_read_before_the_agent_overwrites_it_is_evidence() -> None:
    """Within one transcript only earlier writes count: reading a file, then editing it, is
    not a readback."""
    calls = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "r", "type": "function", "function": {"name": "read_file",
             "arguments": json.dumps({"path": "refs.md"})}}]},
        {"role": "tool", "tool_call_id": "r", "content": "DPR arXiv:2004.04906"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "w", "type": "function", "function": {"name": "write_file",
             "arguments": json.dumps({"path": "refs.md", "content": "x"})}}]},
        {"role": "tool", "tool_call_id": "w", "content": "ok"},
    ]  # fmt: skip
    trace = load_evidence(calls)
    assert arxiv("2004.04906") in trace.evidence.identifiers


def test_editor_view_is_a_read_and_create_a_write() -> None:
    """str_replace_based_edit_tool: 'create' writes the agent's text, 'view' reads it back."""
    calls = [
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "c", "name": "str_replace_based_edit_tool",
             "input": {"command": "create", "path": "/w/notes.md", "file_text": "2004.04906"}},
            {"type": "tool_use", "id": "v", "name": "str_replace_based_edit_tool",
             "input": {"command": "view", "path": "/w/notes.md"}},
            {"type": "tool_use", "id": "v2", "name": "str_replace_based_edit_tool",
             "input": {"command": "view", "path": "/w/data.txt"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c", "content": "File created"},
            {"type": "tool_result", "tool_use_id": "v", "content": "1\t2004.04906"},
            {"type": "tool_result", "tool_use_id": "v2", "content": "1\t2101.03961"}]},
    ]  # fmt: skip
    trace = load_evidence(calls)
    by_id = {c.call_id: c for c in trace.evidence.calls}
    assert by_id["v"].excluded is not None and not by_id["v"].action
    assert by_id["v2"].excluded is None and not by_id["v2"].action
    assert trace.evidence.identifiers == {arxiv("2101.03961")}


# -- fetched URLs ----------------------------------------------------------------------------


def test_a_fetch_that_returned_the_page_grounds_the_url_it_was_asked_for() -> None:
    """WebFetch of arxiv.org/abs/2101.03961 returned a summary of the page: the requested
    URL and its id count. A 404 grounds nothing. A redirect notice does not ground the URL
    asked for, but the final URL it records is in the output, and that counts (with the work
    it names). A DOI URL fetched with content grounds the DOI."""
    trace = load_evidence(FIXTURES / "claude-code-webfetch.jsonl")
    calls = trace.evidence.calls
    assert calls[0].identifiers == {arxiv("2101.03961"), url("arxiv.org/abs/2101.03961")}
    assert calls[1].errored and not calls[1].identifiers
    assert url("doi.org/10.18653/v1/2020.emnlp-main.550") not in calls[2].identifiers
    assert url("aclanthology.org/2020.emnlp-main.550") in calls[2].identifiers
    assert Identifier("doi", "10.1162/tacl_a_00276") in calls[3].identifiers
    assert codes(trace.report or "", trace.evidence) == [("fabricated-id", "2004.99999")]


@pytest.mark.parametrize(
    ("tool", "output", "grounded"),
    [
        ("web_fetch", "A page about sparse routing of tokens to experts in transformers.", True),
        ("read_url", {"url": "https://arxiv.org/abs/2101.03961", "content": "Switch routing…"},
         False),  # fewer than five words of content
        ("open_url", "", False),
        ("browse", "Error: 403 Forbidden", False),
        ("fetch", "https://arxiv.org/abs/2101.03961", False),  # only the address came back
        ("get_page", {"url": "https://arxiv.org/abs/2101.03961",
                      "markdown": "# Switch Transformers\nWe simplify the MoE routing algorithm"},
         True),  # not a fetch by name, but by the shape of its result
        ("arxiv_search", "Five words of unrelated content here.", False),  # not a fetch
    ],
)  # fmt: skip
def test_fetch_type_and_real_content(tool: str, output: object, grounded: bool) -> None:
    calls = [{"tool": tool, "input": {"url": "https://arxiv.org/abs/2101.03961"}, "output": output}]
    (call,) = load_evidence(calls).evidence.calls
    assert (arxiv("2101.03961") in call.identifiers) is grounded


def test_the_fetch_rule_is_tunable() -> None:
    calls = [{"tool": "grab", "input": {"target_url": "https://doi.org/10.1000/x"},
              "output": "The article text, long enough to be a page."}]  # fmt: skip
    assert load_evidence(calls).evidence.identifiers == frozenset()
    rule = FetchRule(tools=r"(?i)grab", url_keys=("target_url",))
    assert load_evidence(calls, fetch=rule).evidence.identifiers == {
        Identifier("doi", "10.1000/x"),
        url("doi.org/10.1000/x"),
    }


@pytest.mark.parametrize(
    ("command", "output", "grounded"),
    [
        ('echo "DPR is arXiv:2004.04906"', "DPR is arXiv:2004.04906\n", False),
        ("wc -l papers/2004.04906_dpr.txt", "12 papers/2004.04906_dpr.txt", False),
        ("curl -s https://arxiv.org/abs/2004.04906",
         '<link rel="canonical" href="https://arxiv.org/abs/2004.04906"/>'
         "<title>[2004.04906] Dense Passage Retrieval</title>", True),
    ],
)  # fmt: skip
def test_a_shell_command_that_prints_its_own_words(
    command: str, output: str, grounded: bool
) -> None:
    """echo prints its argument; wc repeats the path it was given; a fetched page that also
    names its own URL still grounds through its own text."""
    calls = [{"tool": "Bash", "input": {"command": command}, "output": output}]
    (call,) = load_evidence(calls).evidence.calls
    assert (arxiv("2004.04906") in call.identifiers) is grounded


def test_hostile_outputs_stay_linear() -> None:
    """A 220 kB token holding 20,000 ids after the agent named files, and an argument
    repeated 20,000 times: bounded work per mention and per argument, a clear result."""
    ids = "_".join(f"2101.{i:05d}" for i in range(1, 20_001))
    calls = [
        {"tool": "Bash", "input": {"command": "curl -s https://x.org/p -o papers/2101.00001_a.pdf"},
         "output": ""},
        {"tool": "Bash", "input": {"command": "ls papers"}, "output": ids + ".pdf"},
        {"tool": "search", "input": {"q": "moe 2101.00002 x"}, "output": "moe 2101.00002 x " * 20_000},
    ]  # fmt: skip
    calls_out = load_evidence(calls).evidence.calls
    assert arxiv("2101.00002") not in calls_out[2].identifiers
    assert len(calls_out[1].identifiers) == 20_000  # the agent named only 2101.00001_a.pdf


@pytest.mark.parametrize(
    ("output", "grounded"),
    [
        ("Mixture-of-experts models route each token to a few experts; this post explains how.",
         True),
        ({"url": "https://www.example.org/blog/moe?utm_source=x",
          "content": "Mixture-of-experts models route each token to a few experts."}, True),
        ("404 Not Found", False),
        ("", False),
        ("https://example.org/blog/moe", False),  # only the address came back
        ("Fetched https://example.org/blog/moe", False),
    ],
)  # fmt: skip
def test_a_fetched_web_page_grounds_its_url(output: object, grounded: bool) -> None:
    """The cited URL, with tracking parameters or www., is the fetched page's URL key."""
    calls = [{"tool": "web_fetch", "input": {"url": "https://example.org/blog/moe"},
              "output": output}]  # fmt: skip
    evidence = load_evidence(calls).evidence
    report = "See [the post](https://www.example.org/blog/moe/?utm_campaign=y)."
    verdict = audit(report, evidence)
    assert (url("example.org/blog/moe") in evidence.identifiers) is grounded
    assert verdict.ok is grounded


def test_a_redirect_recorded_in_a_fetch_result_grounds_both_urls() -> None:
    calls = [{"tool": "fetch", "input": {"url": "https://doi.org/10.1000/xyz"},
              "output": {"url": "https://publisher.example/articles/xyz", "status": 200,
                         "text": "Full text of the article about sparse experts and routing."}}]  # fmt: skip
    found = load_evidence(calls).evidence.identifiers
    assert {Identifier("doi", "10.1000/xyz"), url("publisher.example/articles/xyz")} <= found


def test_urls_in_search_results_count_and_the_query_url_does_not() -> None:
    """Every URL a search returned counts; a URL the agent put in its query, repeated in the
    result's header, does not."""
    calls = [{"tool": "web_search", "input": {"q": "site:example.org moe https://example.org/guess"},
              "output": 'Results for "site:example.org moe https://example.org/guess":\n'
                        "1. MoE explained https://example.org/blog/moe"}]  # fmt: skip
    found = load_evidence(calls).evidence.identifiers
    assert url("example.org/blog/moe") in found
    assert url("example.org/guess") not in found


def test_any_registered_url_extractor_derives_the_fetched_urls_key() -> None:
    """The seam: a fetched URL's works are whatever the extractors find in it, so a URL
    extractor (here a toy one, keyed by host and path) grounds the page's own address."""
    import re

    from groundcheck.extractors import FunctionExtractor, default_registry
    from groundcheck.model import Mention, Scheme

    def urls(text: str) -> list[Mention]:
        return [
            Mention(Identifier("url", m.group(1).lower()), m.start(), m.end())
            for m in re.finditer(r"https?://(?:www\.)?([^\s\"'<>]{1,2000})", text)
        ]

    toy = FunctionExtractor("toy-url", urls, schemes=(Scheme("url", "URL"),))
    extractors = (*default_registry().select(None), toy)
    calls = [
        {"tool": "web_fetch", "input": {"url": "https://www.example.org/blog/moe"},
         "output": "Mixture-of-experts models route each token to a few experts."},
        {"tool": "web_fetch", "input": {"url": "https://example.org/blog/invented"},
         "output": "404 Not Found"},
    ]  # fmt: skip
    found = load_evidence(calls, extractors=extractors).evidence.identifiers
    assert Identifier("url", "example.org/blog/moe") in found
    assert Identifier("url", "example.org/blog/invented") not in found


def test_ids_repeated_in_failed_lookups_are_fabricated_in_the_report() -> None:
    """A whole run: the agent looks up ids it made up, every lookup fails, the report cites
    them. Each is an error, and the run is one whose every lookup came back empty."""
    import groundcheck

    calls = [
        {"tool": "fetch_paper", "input": {"arxiv_id": "2401.99999"},
         "output": "Error: paper 2401.99999 not found"},
        {"tool": "resolve_doi", "input": {"doi": "10.1000/xyz123"},
         "output": {"status": "error", "message": "DOI 10.1000/xyz123 could not be resolved"}},
    ]  # fmt: skip
    report = "We build on arXiv:2401.99999 and doi:10.1000/xyz123. " * 20
    verdict = groundcheck.audit(report, calls)
    codes = [f.code for f in verdict.findings]
    assert codes.count("fabricated-id") == 2
    assert all(c.empty for c in verdict.evidence.calls)
