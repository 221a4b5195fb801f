"""groundcheck as a CI gate: standard input, SARIF locations and bases, machine-format errors,
the schema command, broken plug-ins, and what reaches stdout and stderr.

Each test runs the real command in a subprocess, as a CI job would, so what is checked is
what a pipeline sees: bytes on stdout, lines on stderr, the exit status.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator, Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "evidence" / "fixtures"
SARIF = Draft4Validator(
    json.loads((ROOT / "tests/render/sarif-schema-2.1.0.json").read_text("utf-8"))
)


def gc(
    *argv: str,
    stdin: bytes | None = None,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "groundcheck", *argv],
        input=stdin.decode("utf-8", "surrogateescape") if stdin is not None else None,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full,
        timeout=300,
        check=False,
    )


def one_error_line(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    """Exit 2 and exactly one line on stderr, an error naming the problem, no traceback."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("groundcheck: error: ")
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr


def sarif(text: str) -> dict[str, Any]:
    log = json.loads(text)
    assert not list(SARIF.iter_errors(log))
    return log


def first_location(log: dict[str, Any]) -> dict[str, Any]:
    return log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]


# -- standard input ------------------------------------------------------------------------


def test_evidence_from_stdin() -> None:
    report = ROOT / "examples/honest/report.md"
    evidence = (ROOT / "examples/honest/tool_calls.json").read_bytes()
    result = gc("audit", str(report), "--evidence", "-", stdin=evidence)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok: 0 errors")


def test_trace_from_stdin_is_located_at_the_stdin_name() -> None:
    """--trace -: the final answer in the trace on stdin, reported as stdin.md in SARIF."""
    trace = (FIXTURES / "claude-code.jsonl").read_bytes()
    text = gc("audit", "--trace", "-", stdin=trace)
    assert text.returncode == 1
    assert text.stdout.startswith("<stdin> (final answer):1:55: error: fabricated-id")
    machine = gc("audit", "--trace", "-", "--format", "sarif", stdin=trace)
    assert machine.returncode == 1
    place = first_location(sarif(machine.stdout))
    assert place["artifactLocation"] == {"uri": "stdin.md", "uriBaseId": "SRCROOT"}
    assert place["region"] == {"startLine": 1}


def test_stdin_name_names_the_report_everywhere() -> None:
    evidence = str(ROOT / "examples/honest/tool_calls.json")
    report = b"See arXiv:2004.04906."
    named = ("--stdin-name", "reports/today.md")
    text = gc("audit", "-", "--evidence", evidence, *named, stdin=report)
    assert text.stdout.startswith("reports/today.md:1:11: error: fabricated-id")
    log = sarif(gc("audit", "-", "--evidence", evidence, "--format", "sarif", stdin=report).stdout)
    assert first_location(log)["artifactLocation"]["uri"] == "stdin.md"
    log = sarif(
        gc("audit", "-", "--evidence", evidence, "--format", "sarif", *named, stdin=report).stdout
    )
    assert first_location(log)["artifactLocation"]["uri"] == "reports/today.md"
    github = gc("audit", "-", "--evidence", evidence, "--format", "github", stdin=report)
    assert github.stdout.startswith("::error file=stdin.md,line=1,col=11,")


def test_stdin_can_be_read_once() -> None:
    result = gc("audit", "-", "--evidence", "-", stdin=b"x")
    one_error_line(result, "standard input can be read only once", "REPORT and --evidence")


# -- SARIF locations, bases and errors -------------------------------------------------------


def test_sarif_uris_are_relative_to_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out/report.md").write_text("See arXiv:2004.04906.", "utf-8")
    (tmp_path / "out/calls.json").write_text('[{"tool": "s", "output": "none"}]', "utf-8")
    result = gc(
        "audit", "out/report.md", "--evidence", "out/calls.json", "--format", "sarif", cwd=tmp_path
    )
    log = sarif(result.stdout)
    assert log["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"] == tmp_path.as_uri() + "/"
    assert first_location(log)["artifactLocation"]["uri"] == "out/report.md"
    based = gc(
        "audit",
        str(tmp_path / "out/report.md"),
        "--evidence",
        "out/calls.json",
        "--format",
        "sarif",
        "--sarif-base",
        "out",
        cwd=tmp_path,
    )
    assert first_location(sarif(based.stdout))["artifactLocation"]["uri"] == "report.md"


@pytest.mark.parametrize(("make", "problem"), [("file", "not a directory"), (None, "no such")])
def test_sarif_base_must_be_a_directory(tmp_path: Path, make: str | None, problem: str) -> None:
    base = tmp_path / "base"
    if make == "file":
        base.write_text("x", "utf-8")
    args = ("audit", "examples/apr23/report.md", "--evidence", "examples/apr23/tool_calls.json")
    result = gc(*args, "--sarif-base", str(base))
    one_error_line(result, f"--sarif-base {base}: {problem}")
    assert result.stdout == ""
    result = gc(*args, "--sarif-base", str(base), "--format", "sarif")
    one_error_line(result, "--sarif-base")
    assert sarif(result.stdout)["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_input_error_still_writes_a_valid_sarif_log(tmp_path: Path) -> None:
    """The documented `> groundcheck.sarif` then upload gets a log that shows the failure."""
    (tmp_path / "r.md").write_text("See arXiv:2004.04906.", "utf-8")
    (tmp_path / "e.json").write_text('[{"tool": "s",\n "output": }]', "utf-8")
    result = gc("audit", "r.md", "--evidence", "e.json", "--format", "sarif", cwd=tmp_path)
    one_error_line(result, "e.json:2: invalid JSON")
    log = sarif(result.stdout)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "error" and "invalid JSON" in note["message"]["text"]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "e.json"
    assert log["runs"][0]["results"] == []
    github = gc("audit", "r.md", "--evidence", "e.json", "--format", "github", cwd=tmp_path)
    one_error_line(github)
    assert github.stdout.startswith("::error title=groundcheck could not audit::")


def test_json_and_text_errors_write_nothing_on_stdout(tmp_path: Path) -> None:
    for fmt in ("text", "json", "html"):
        result = gc("audit", "r.md", "--evidence", "missing.json", "--format", fmt, cwd=tmp_path)
        one_error_line(result)
        assert result.stdout == ""


# -- schema ----------------------------------------------------------------------------------


def _outputs(name: str) -> list[Any]:
    """Real outputs of the command each schema describes (a schema without one fails here)."""
    if name == "verdict":
        runs = [
            ("examples/apr23/report.md", "examples/apr23/tool_calls.json"),
            ("examples/honest/report.md", "examples/honest/tool_calls.json"),
            ("tests/scenarios/review_with_references.md", "tests/scenarios/rag_search.json"),
        ]
        out = [
            json.loads(gc("audit", r, "--evidence", e, "--format", "json").stdout) for r, e in runs
        ]
        trace = "examples/sovereign-agent-v0.2.0/apr23/sess_5b6bf0ea8f98"
        out.append(json.loads(gc("audit", "--trace", trace, "--format", "json").stdout))
        return out
    if name == "rate":
        return [
            json.loads(gc("rate", "examples/batch/manifest.jsonl", "--format", "json").stdout),
            json.loads(gc("rate", "examples/batch/runs", "--canary", "--format", "json").stdout),
        ]
    if name == "compare":
        return [
            json.loads(
                gc(
                    "compare",
                    "examples/batch/agent-a.jsonl",
                    "examples/batch/agent-b.jsonl",
                    "--format",
                    "json",
                ).stdout
            )
        ]
    raise AssertionError(f"schema {name!r} has no real output to validate in this test")


SCHEMAS = sorted(
    p.name[: -len(".schema.json")] for p in (ROOT / "src/groundcheck/schemas").glob("*.schema.json")
)


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_command_prints_a_schema_real_outputs_satisfy(name: str) -> None:
    result = gc("schema", name)
    assert result.returncode == 0
    shipped = (ROOT / "src/groundcheck/schemas" / f"{name}.schema.json").read_text("utf-8")
    assert result.stdout == shipped
    schema = json.loads(result.stdout)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    for output in _outputs(name):
        errors = list(validator.iter_errors(output))
        assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]


def test_verdict_schema_accepts_added_keys_and_rejects_broken_ones() -> None:
    """Open objects: a key added within /1 stays valid; a wrong type or a missing key is not."""
    schema = json.loads(gc("schema", "verdict").stdout)
    validator = Draft202012Validator(schema)
    verdict = json.loads((ROOT / "tests/golden/apr23.verdict.json").read_text("utf-8"))
    verdict["later_works"] = [{"title": "t", "identifiers": []}]  # ("works" is 1.1's now)
    verdict["findings"][0]["later_work"] = {"title": "t"}
    verdict["summary"]["later_works"] = 3
    assert validator.is_valid(verdict)
    broken = json.loads(json.dumps(verdict))
    broken["findings"][0]["severity"] = "fatal"
    assert not validator.is_valid(broken)
    del verdict["citations"]
    assert not validator.is_valid(verdict)


def test_unknown_schema_is_a_usage_error() -> None:
    result = gc("schema", "nope")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


# -- plug-ins --------------------------------------------------------------------------------


def plugins(tmp_path: Path, modules: dict[str, str], entries: dict[str, str]) -> dict[str, str]:
    """An installed distribution holding extractor plug-ins, on PYTHONPATH for the command."""
    for name, source in modules.items():
        (tmp_path / f"{name}.py").write_text(source, "utf-8")
    info = tmp_path / "gc_plugins-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gc-plugins\nVersion: 0.1\n")
    lines = "".join(f"{k} = {v}\n" for k, v in entries.items())
    (info / "entry_points.txt").write_text(f"[groundcheck.extractors]\n{lines}", "utf-8")
    return {"PYTHONPATH": str(tmp_path)}


RFC = (
    "import re\nfrom groundcheck import Identifier, Mention\n"
    "def find(text):\n"
    '    """RFC numbers: RFC 123"""\n'
    "    for m in re.finditer(r'RFC\\s*(\\d{1,5})', text):\n"
    "        yield Mention(Identifier('rfc', m[1]), m.start(1), m.end(1))\n"
)


def test_plugin_exiting_on_import_is_reported_once_and_builtins_run(tmp_path: Path) -> None:
    """sys.exit(0) in a plug-in used to make audit exit 0 with no output."""
    env = plugins(
        tmp_path,
        {"gc_exit": "import sys\nsys.exit(0)\n", "gc_rfc": RFC},
        {"exiter": "gc_exit:find", "rfc": "gc_rfc:find"},
    )
    report = b"See arXiv:2004.04906 and RFC 77."
    result = gc(
        "audit", "-", "--evidence", "examples/honest/tool_calls.json", stdin=report, env=env
    )
    assert result.returncode == 1
    assert "fabricated-id: arXiv:2004.04906" in result.stdout  # a built-in
    assert "fabricated-id: rfc:77" in result.stdout  # the healthy plug-in
    (line,) = result.stderr.splitlines()
    assert line.startswith("groundcheck: warning: extractor plug-in 'exiter'")
    assert "SystemExit: 0" in line and "the other extractors still run" in line
    strict = gc(
        "audit",
        "-",
        "--evidence",
        "examples/honest/tool_calls.json",
        "--strict-plugins",
        stdin=report,
        env=env,
    )
    one_error_line(strict, "'exiter'", "--strict-plugins")
    assert strict.stdout == ""


def test_extractors_lists_a_broken_plugin_with_its_error(tmp_path: Path) -> None:
    env = plugins(
        tmp_path,
        {"gc_bad": "raise ImportError('needs foo')\n", "gc_rfc": RFC},
        {"bad": "gc_bad:find", "rfc": "gc_rfc:find", "doi": "gc_rfc:find"},
    )
    result = gc("extractors", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert (
        "BROKEN: extractor plug-in 'bad' (gc_bad:find) failed to import: ImportError: needs foo"
        in lines["bad"]
    )
    assert "RFC numbers" in lines["rfc"]
    assert "already registered" in lines["doi"] and "BROKEN" in lines["doi"]  # the clash
    rows = json.loads(gc("extractors", "--format", "json", env=env).stdout)
    assert {r["name"]: bool(r["error"]) for r in rows}["bad"] is True
    strict = gc("extractors", "--strict-plugins", env=env)
    assert strict.returncode == 2 and "BROKEN" in strict.stdout


def test_plugin_exiting_while_running_is_one_clear_error(tmp_path: Path) -> None:
    env = plugins(
        tmp_path,
        {"gc_runexit": "import sys\ndef find(text):\n    sys.exit(0)\n    yield\n"},
        {"runexit": "gc_runexit:find"},
    )
    result = gc(
        "audit", "examples/apr23/report.md", "--evidence", "examples/apr23/tool_calls.json", env=env
    )
    one_error_line(result, "extractor 'runexit' failed: SystemExit: 0")


def test_broken_plugin_in_a_large_batch_is_one_warning(tmp_path: Path) -> None:
    """64+ runs go to worker processes: the plug-in's sys.exit used to end the batch silently
    (exit 0, no output) or as a BrokenProcessPool traceback."""
    runs = tmp_path / "runs"
    for source in sorted((ROOT / "examples/batch/runs").iterdir()):
        for copy in ("a", "b"):
            target = runs / f"{copy}-{source.name}"
            target.mkdir(parents=True)
            for f in source.iterdir():
                (target / f.name).write_bytes(f.read_bytes())
    env = plugins(tmp_path, {"gc_exit": "import sys\nsys.exit(0)\n"}, {"exiter": "gc_exit:find"})
    result = gc("rate", str(runs), "--workers", "2", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("runs: 120 (120 audited, 0 unreadable)")
    (line,) = result.stderr.splitlines()
    assert line.startswith("groundcheck: warning: extractor plug-in 'exiter'")


# -- what reaches the terminal ---------------------------------------------------------------


def test_bibtexparser_log_lines_become_one_note(tmp_path: Path) -> None:
    (tmp_path / "r.md").write_text("See arXiv:2005.11401.", "utf-8")
    (tmp_path / "refs.bib").write_text(
        "@article{a,\n title={X},\n eprint={2005.11401\n}\n@misc{b, title={Y}}\n", "utf-8"
    )
    result = gc(
        "audit", "r.md", "--evidence", "refs.bib", "--bibliography", "refs.bib", cwd=tmp_path
    )
    assert result.returncode == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("note: ") and "from bibtexparser" in line
    quiet = gc("audit", "r.md", "--evidence", "refs.bib", "--quiet", cwd=tmp_path)
    assert quiet.stderr == ""
    assert "note:" not in quiet.stdout


def test_lone_surrogate_in_a_tool_output_is_printed_replaced(tmp_path: Path) -> None:
    """A `\\ud800` escape in a trace used to crash the output writer with a traceback."""
    (tmp_path / "e.json").write_text(
        '[{"tool": "s\\ud800", "output": [{"arxiv": "2005.11401", "title": "Bad \\ud800 one"}],'
        ' "recorded": false}]',
        "utf-8",
    )
    (tmp_path / "r.md").write_text('"Dense Passage Retrieval Now" (arXiv:2005.11401)', "utf-8")
    for fmt in ("text", "json", "sarif", "github", "html"):
        # The title beside a returned id only fails to match that id's own title: a warning.
        result = gc(
            "audit",
            "r.md",
            "--evidence",
            "e.json",
            "--format",
            fmt,
            "--fail-on",
            "warning",
            cwd=tmp_path,
        )
        assert result.returncode == 1, (fmt, result.stderr)
        assert "Traceback" not in result.stderr
        assert "\ufffd" in result.stdout, fmt
