"""The GitHub Action and the pre-commit hooks: their shell runs as written, on real examples.

GitHub itself is not here, so each step's ``run:`` script is executed with bash the way the
runner would (inputs as ``GC_*`` environment variables, ``GITHUB_OUTPUT`` a file), with the
installed ``groundcheck`` on PATH; the hooks' entries are run with file names appended, as
pre-commit does.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
BIN = str(Path(sys.executable).parent)


def step(step_id: str | None = None, name: str | None = None) -> dict[str, Any]:
    for s in ACTION["runs"]["steps"]:
        if (step_id and s.get("id") == step_id) or (name and s.get("name") == name):
            return s
    raise AssertionError(f"no step {step_id or name}")


def inputs(**given: str) -> dict[str, str]:
    """The step's environment: every GC_* variable from the action's inputs and defaults."""
    defaults = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    values = {**defaults, **{k.replace("_", "-"): v for k, v in given.items()}}
    env = {}
    for var, expr in step("run")["env"].items():
        name = expr.removeprefix("${{ inputs.").removesuffix(" }}")
        env[var] = values[name]
    return env


def run_step(
    tmp_path: Path, **given: str
) -> tuple[dict[str, str], subprocess.CompletedProcess[str]]:
    return run_step_in(ROOT, tmp_path, **given)


def run_step_in(
    cwd: Path, tmp_path: Path | None = None, **given: str
) -> tuple[dict[str, str], subprocess.CompletedProcess[str]]:
    """The action's "Run groundcheck" step, run by bash in ``cwd`` as the runner would."""
    tmp_path = tmp_path or cwd
    out = tmp_path / "github_output"
    out.touch()
    env = {
        **os.environ,
        **inputs(**given),
        "GITHUB_OUTPUT": str(out),
        "RUNNER_TEMP": str(tmp_path),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }
    result = subprocess.run(
        ["bash", "-c", step("run")["run"]],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )
    outputs = dict(line.split("=", 1) for line in out.read_text("utf-8").splitlines())
    return outputs, result


def test_action_is_a_composite_that_uploads_sarif() -> None:
    assert ACTION["runs"]["using"] == "composite"
    uses = [s.get("uses", "") for s in ACTION["runs"]["steps"]]
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    # No input is ever spliced into a script: scripts read them from the environment.
    for s in ACTION["runs"]["steps"]:
        assert "${{ inputs." not in s.get("run", ""), s.get("name")


def test_action_audit_of_a_fabricated_report(tmp_path: Path) -> None:
    sarif = tmp_path / "out.sarif"
    outputs, result = run_step(
        tmp_path,
        report="examples/apr23/report.md",
        evidence="examples/apr23/tool_calls.json",
        sarif_file=str(sarif),
    )
    assert result.returncode == 0, result.stderr  # the step records; the last step fails
    assert outputs["status"] == "1"
    assert outputs["sarif-file"] == str(sarif)
    log = json.loads(sarif.read_text("utf-8"))
    assert len(log["runs"][0]["results"]) == 6  # 5 fabricated works (each naming its title)
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert (
        sum(line.startswith("::error file=examples/apr23/report.md") for line in annotations) == 6
    )
    assert "FAIL: 6 errors" in (tmp_path / "summary.md").read_text("utf-8")
    final = subprocess.run(
        ["bash", "-c", step(name="Fail the check on findings")["run"]],
        env={**os.environ, "GC_STATUS": outputs["status"]},
        capture_output=True,
        text=True,
        check=False,
    )
    assert final.returncode == 1
    assert final.stdout.startswith("::error title=groundcheck::")


def test_action_audit_of_an_honest_report_passes(tmp_path: Path) -> None:
    outputs, _ = run_step(
        tmp_path,
        report="examples/honest/report.md",
        evidence="examples/honest/tool_calls.json",
        sarif_file=str(tmp_path / "out.sarif"),
        html_file=str(tmp_path / "report.html"),
    )
    assert outputs["status"] == "0"
    assert (tmp_path / "report.html").read_text("utf-8").startswith("<!DOCTYPE html>")


def test_action_input_error_still_gives_a_sarif_log(tmp_path: Path) -> None:
    sarif = tmp_path / "out.sarif"
    outputs, _ = run_step(
        tmp_path, report="examples/apr23/report.md", evidence="missing.json", sarif_file=str(sarif)
    )
    assert outputs["status"] == "2"
    log = json.loads(sarif.read_text("utf-8"))
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_action_rate(tmp_path: Path) -> None:
    outputs, result = run_step(tmp_path, command="rate", runs="examples/batch/manifest.jsonl\n")
    assert outputs["status"] == "0", result.stderr
    assert result.stdout.startswith("runs: 60")


def test_action_inputs_cannot_inject_shell(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    outputs, _ = run_step(
        tmp_path,
        report=f"examples/apr23/report.md; touch {marker}",
        evidence=f"$(touch {marker})",
        sarif_file=str(tmp_path / "out.sarif"),
    )
    assert not marker.exists()
    assert outputs["status"] == "2"


def hook(hook_id: str) -> dict[str, Any]:
    return next(h for h in HOOKS if h["id"] == hook_id)


@pytest.mark.parametrize(
    ("hook_id", "args", "files", "status"),
    [
        (
            "groundcheck",
            ["examples/apr23/report.md", "--evidence", "examples/apr23/tool_calls.json"],
            [],
            1,
        ),
        (
            "groundcheck",
            ["examples/honest/report.md", "--evidence", "examples/honest/tool_calls.json"],
            [],
            0,
        ),
        ("groundcheck-trace", [], ["tests/evidence/fixtures/claude-code.jsonl"], 1),
        ("groundcheck-trace", [], ["HONEST"], 0),
        ("groundcheck-trace", [], ["HONEST", "tests/evidence/fixtures/claude-code.jsonl"], 1),
        ("groundcheck-trace", [], ["HONEST", "tests/evidence/fixtures/mcp.jsonl"], 2),
    ],
)
def test_pre_commit_hooks_run_as_pre_commit_runs_them(
    hook_id: str, args: list[str], files: list[str], status: int, tmp_path: Path
) -> None:
    """Exit status of the worst file: 0 all grounded, 1 findings, 2 a trace with no answer."""
    honest = tmp_path / "honest.jsonl"  # the Codex fixture without its fabricated citation
    codex = (ROOT / "tests/evidence/fixtures/codex.jsonl").read_text("utf-8")
    honest.write_text(codex.replace(" and DPR (arXiv:2004.04906)", ""), "utf-8")
    files = [str(honest) if f == "HONEST" else f for f in files]
    h = hook(hook_id)
    assert h["language"] == "python"
    command = [*shlex.split(h["entry"]), *args, *(files if h.get("pass_filenames", True) else [])]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"},
        timeout=300,
        check=False,
    )
    assert result.returncode == status, result.stdout + result.stderr


# -- the README's walk-through, followed to the letter -----------------------------------------


def readme_files() -> dict[str, str]:
    """Every ``<!-- file: PATH -->`` block of README.md, by path, dedented."""
    import re
    import textwrap

    readme = (ROOT / "README.md").read_text("utf-8")
    found = re.findall(r"<!-- file: (\S+) -->\n( *)```\w*\n(.*?)\n\2```", readme, re.S)
    return {path: textwrap.dedent(body) + "\n" for path, _, body in found}


def test_readme_walkthrough_ends_in_a_failing_check(tmp_path: Path) -> None:
    """pip install, two files, one command, one workflow: the check fails on the fabrication."""
    import re
    import textwrap

    files = readme_files()
    assert set(files) == {
        "out/report.md",
        "out/tool_calls.json",
        ".github/workflows/groundcheck.yml",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, "utf-8")
    readme = (ROOT / "README.md").read_text("utf-8")
    console = re.search(
        r"( *)```console\n *\$ (groundcheck audit out/[^\n]+)\n(.*?)\n\1```", readme, re.S
    )
    assert console is not None
    shown = textwrap.dedent(console.group(3)) + "\n"
    result = subprocess.run(
        [sys.executable, "-m", "groundcheck", *shlex.split(console.group(2))[1:]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout == shown
    # The workflow uses this action on those files; its audit step records status 1.
    workflow = yaml.safe_load(files[".github/workflows/groundcheck.yml"])
    (job,) = workflow["jobs"].values()
    used = next(s for s in job["steps"] if "groundcheck" in s.get("uses", ""))
    assert workflow["permissions"]["security-events"] == "write"
    outputs, _ = run_step_in(tmp_path, **{k.replace("-", "_"): v for k, v in used["with"].items()})
    assert outputs["status"] == "1"
