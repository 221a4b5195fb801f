"""docs/integrations.md keeps its word: every ``python`` block runs from the repository root.

Each block runs alone in a fresh interpreter (the examples set process-wide state: tracing
processors, logger providers). A block whose framework is not installed is skipped; a block
followed directly by a ``text`` block must print exactly that text.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "integrations.md"
BLOCK = re.compile(r"```python\n(.*?)```\n(?:\n```text\n(.*?)```)?", re.S)
FRAMEWORKS = ("inspect_ai", "mcp", "langchain_core", "agents", "opentelemetry")


def _blocks() -> list[tuple[str, str | None]]:
    return [(m.group(1), m.group(2)) for m in BLOCK.finditer(DOC.read_text("utf-8"))]


def _needs(code: str) -> list[str]:
    imported = set(re.findall(r"^(?:from|import) (\w+)", code, re.M))
    return [f for f in FRAMEWORKS if f in imported]


def _missing(code: str) -> list[str]:
    """The framework modules the block imports that are not installed, submodules included:
    ``opentelemetry`` (the API) often comes with another package, ``opentelemetry.sdk`` not."""
    modules = set(re.findall(r"^(?:from|import) ([\w.]+)", code, re.M))
    wanted = sorted(m for m in modules if m.split(".")[0] in FRAMEWORKS)
    missing = []
    for module in wanted:
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            missing.append(module)
    return missing


def test_the_doc_has_an_example_per_framework() -> None:
    """One runnable block at least for pytest and for each framework."""
    needed = {f for code, _ in _blocks() for f in _needs(code)}
    assert needed == set(FRAMEWORKS)
    assert any("assert_grounded" in code for code, _ in _blocks())


@pytest.mark.parametrize(("code", "expected"), _blocks(), ids=lambda v: str(v)[:40] if v else "")
def test_python_block_runs(code: str, expected: str | None) -> None:
    """The block runs without error (and prints what the doc says it prints)."""
    missing = _missing(code)
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    command = [sys.executable, "-c", code]
    done = subprocess.run(
        command, check=False, cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    if expected is not None:
        assert done.stdout == expected
