"""The text verdict: colour only when asked, quiet leaves out notes, the layout is unchanged."""

from __future__ import annotations

import re
from pathlib import Path

from groundcheck import audit
from groundcheck.render.text import verdict_text

ROOT = Path(__file__).resolve().parents[2]


def _apr23():  # type: ignore[no-untyped-def]
    report = (ROOT / "examples/apr23/report.md").read_text("utf-8")
    return audit(report, ROOT / "examples/apr23/tool_calls.json")


def test_colour_is_only_added_when_asked() -> None:
    verdict = _apr23()
    plain = verdict_text(verdict, "r.md")
    coloured = verdict_text(verdict, "r.md", color=True)
    assert "\x1b" not in plain
    assert "\x1b[1;31merror\x1b[0m" in coloured
    assert coloured.splitlines()[-1].startswith("\x1b[1;31mFAIL\x1b[0m:")
    # Removing our own escape sequences gives back the plain text exactly.
    assert re.sub("\x1b\\[[0-9;]*m", "", coloured) == plain
    # (apr23's works are all fabricated: its warnings are folded into their errors.)
    warned = audit(
        'As "A Neural Memory Network That Nobody Wrote" shows.', [{"tool": "s", "output": "x"}]
    )
    assert "\x1b[33mwarning\x1b[0m" in verdict_text(warned, "r.md", color=True)


def test_quiet_leaves_out_notes_only() -> None:
    from groundcheck.evidence import load_evidence

    trace = load_evidence(ROOT / "tests/evidence/fixtures/claude-code.jsonl")
    verdict = audit(trace.report or "", trace.evidence)
    full = verdict_text(verdict, "r.md")
    quiet = verdict_text(verdict, "r.md", quiet=True)
    assert any(line.startswith("note:") for line in full.splitlines())
    assert [
        line for line in full.splitlines() if not line.startswith("note:")
    ] == quiet.splitlines()
