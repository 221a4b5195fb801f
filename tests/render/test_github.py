"""GitHub workflow-command annotations: one line per finding, escaped as GitHub requires."""

from __future__ import annotations

from pathlib import Path

from groundcheck import audit
from groundcheck.render.github import escape_data, escape_property, verdict_github

ROOT = Path(__file__).resolve().parents[2]


def test_annotations_for_the_bundled_failure() -> None:
    report = (ROOT / "examples/apr23/report.md").read_text("utf-8")
    verdict = audit(report, ROOT / "examples/apr23/tool_calls.json")
    lines = verdict_github(verdict, "examples/apr23/report.md").splitlines()
    assert len(lines) == len(verdict.findings) + 1
    assert lines[0].startswith(
        "::error file=examples/apr23/report.md,line=1,title=groundcheck empty-evidence-report::"
    )
    assert any(
        line.startswith(
            "::error file=examples/apr23/report.md,line=7,col=28,endLine=7,endColumn=38,"
            "title=groundcheck fabricated-id::arXiv:2005.11401 is not in any tool output"
        )
        for line in lines
    )
    assert lines[-1].startswith("::notice title=groundcheck::FAIL: 6 errors")


def test_escaping_follows_github() -> None:
    """As @actions/core: % \\r \\n in data; also : and , in properties."""
    assert escape_data("50%\r\nnext") == "50%25%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert escape_data("\x1b[31mred") == "\\x1b[31mred"


def test_file_names_and_messages_cannot_end_a_command_early() -> None:
    report = '"Attention::error::forged, a: title" arXiv:2004.04906'
    verdict = audit(report, [{"tool": "s", "output": "nothing"}])
    out = verdict_github(verdict, "dir,with:odd/r%1.md")
    for line in out.splitlines():
        command, _, message = line.partition("::")[2].partition("::")
        assert "\n" not in message
        props = command.split(" ", 1)[1] if " " in command else ""
        for prop in props.split(","):
            key, _, value = prop.partition("=")
            assert key in {"file", "line", "col", "endLine", "endColumn", "title"}
            assert ":" not in value and "," not in value
    assert "file=dir%2Cwith%3Aodd/r%251.md" in out
