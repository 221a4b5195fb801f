"""Every ```python block in README.md and docs/*.md runs as written, from the repository root.

The blocks of one file run in order in one interpreter (later blocks may use earlier names);
the only exception a block may end in is ``UngroundedReportError``, which the README raises on
purpose. A fragment that cannot run is fenced as something else (``text``, ``pycon``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)

_RUNNER = """
import sys, traceback
from groundcheck.errors import UngroundedReportError
namespace = {"__name__": "__docs__"}
for number, code in enumerate(BLOCKS, 1):
    try:
        exec(compile(code, f"{NAME} (python block {number})", "exec"), namespace)
    except UngroundedReportError:
        pass
    except ImportError as exc:
        if any(f in str(exc) for f in OPTIONAL):
            print(f"SKIP: {exc}")
            sys.exit(0)
        raise
"""

OPTIONAL = ("inspect_ai", "mcp", "langchain", "agents", "opentelemetry", "ray", "matplotlib")
"""Frameworks of optional extras: a doc block needing one is skipped when it is absent
(CI installs every extra, so there they all run)."""


def _blocks(path: Path) -> list[str]:
    return [textwrap.dedent(b) for b in _BLOCK.findall(path.read_text("utf-8"))]


@pytest.mark.parametrize("path", [p for p in DOCS if _blocks(p)], ids=lambda p: p.name)
def test_python_blocks_run(path: Path) -> None:
    program = (
        f"BLOCKS = {_blocks(path)!r}\nNAME = {path.name!r}\nOPTIONAL = {OPTIONAL!r}\n" + _RUNNER
    )
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    if result.stdout.startswith("SKIP:"):
        pytest.skip(result.stdout.strip())


def test_every_doc_block_is_fenced_deliberately() -> None:
    """Blocks that look like Python but are fenced without a language are easy to forget."""
    for path in DOCS:
        text = path.read_text("utf-8")
        for match in re.finditer(r"^```\n(.*?)^```", text, re.S | re.M):
            body = match.group(1)
            assert not re.search(r"^(import |from \w+ import |>>> )", body, re.M), (
                f"{path.name}: a Python-looking block has no language; fence it as python "
                "(if it runs) or pycon/text (if not)"
            )
