"""README.md keeps its promise: two set-up commands first, the second one is what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    readme = (ROOT / "README.md").read_text("utf-8")
    block = re.search(r"```bash\n(.*?)```", readme, re.S)
    assert block is not None, "README.md must open with a bash block of two commands"
    assert readme.index("```bash") < readme.index("\n\n", readme.index("# groundcheck")) + 3
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_two_commands() -> None:
    commands = _commands()
    assert len(commands) == 2
    assert "groundcheck audit examples/" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert _commands()[1] in ci.splitlines()
