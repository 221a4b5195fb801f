"""The evidence fast paths give exactly what the code before them gave.

``oracle/`` holds ``walk.py``, ``mentions.py`` and ``listings.py`` as they were before the
issue-17 part-2 fast paths (commit ea2905c): :func:`title_text` works out every block's kind in
C-level passes over byte strings instead of a Python step per block. The old and new code must
give the same results, value for value, on every trace and tool output in the repository, on the
benchmark's search results and on generated outputs built from the pieces every branch looks at.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence import mentions
from groundcheck.evidence.trace import STRUCTURAL_KEYS
from groundcheck.evidence.walk import flatten
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.title import TitleExtractor
from groundcheck.model import Mention
from groundcheck.text import TextView

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TITLE = next(e for e in BUILTIN if isinstance(e, TitleExtractor))


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        f"evidence_oracle_{name}", HERE / "oracle" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


OLD_MENTIONS = _load("mentions_v1")


def _ids(view: str) -> list[Mention]:
    return [m for e in BUILTIN if e.name != "title" for m in e.find(view)]


def _same_copy(text: str) -> bool:
    """Both title_text give the same copy and kept ids; True when a copy was made."""
    view = TextView.of(text).text
    ids = _ids(view)
    made = False
    for extractor in (TITLE, None):
        new = mentions.title_text(view, ids, extractor)
        assert new == OLD_MENTIONS.title_text(view, ids, extractor)
        made = made or new is not None
    return made


def _outputs() -> list[tuple[str, Any]]:
    """Every JSON value of the repository's traces and tool outputs, whole and record by
    record (a record of a trace is what a loader hands make_evidence as one output)."""
    found: list[tuple[str, Any]] = []
    for folder in (ROOT / "tests", ROOT / "examples", ROOT / "benchmarks" / "data"):
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.suffix not in (".json", ".jsonl"):
                continue
            text = path.read_text("utf-8", errors="replace")
            try:
                values = [json.loads(text)]
            except ValueError:
                try:
                    values = [json.loads(line) for line in text.splitlines() if line.strip()]
                except ValueError:
                    continue
            name = str(path.relative_to(ROOT))
            found.append((name, values))
            for value in values:
                items = value if isinstance(value, list) else [value]
                found.extend((name, item) for item in items[:300])
    return found


_OUTPUTS = _outputs()


def test_the_repository_outputs_are_compared() -> None:
    assert len(_OUTPUTS) > 500


def _benchmark_outputs() -> list[Any]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_audit_scale
    finally:
        sys.path.pop(0)
    calls, _ = bench_audit_scale.make_case()
    return [c["output"] for c in calls[:5]]


def test_title_copy_of_every_repository_output_is_unchanged() -> None:
    for _name, value in _OUTPUTS:
        _same_copy(flatten(value, STRUCTURAL_KEYS).text)


def test_title_copy_of_the_benchmark_search_results_is_unchanged() -> None:
    made = [_same_copy(flatten(o, STRUCTURAL_KEYS).text) for o in _benchmark_outputs()]
    assert all(made)  # the copy is really made on that shape


# Generated texts -------------------------------------------------------------------------------

_PIECES = [
    "Word", "word", "Deep Learning", " ", "  ", "\t", "2020", "1999", "2021-05-01", "2005.11401",
    "arXiv:", "arXiv:2101.03961", "10.1000/xyz", '"', "“", "‘", "«", "*", "**", "_", "__", "[",
    "](", ")", "(", "{", "}", "\r", "#", "# ", "-", "- ", "1. ", "12) ", "[1] ", "=", "===", "|",
    "---", "`", "```", "~~~", "title", "Title =", "title={", "@article{", "References",
    "Sources:", "notes", "## Bibliography", "\\section{", ",", ".", ":", "et al.", "Lewis, P.",
    ">", "Müller", "½", "²",
    "We study sparse attention for long context language models and find gains in recall.",
    "Lewis, P., Perez, E. (2020). Retrieval-augmented generation. NeurIPS.",
]  # fmt: skip
_SEPARATORS = ["\n\n", "\n\n", "\n\n", "\n", "\n\n\n", "\n \n", "\r\n\r\n", "\n\n\n\n"]
_BLOCK = st.lists(st.sampled_from(_PIECES), max_size=6).map("".join)


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.tuples(st.one_of(_BLOCK, st.sampled_from(_PIECES)), st.sampled_from(_SEPARATORS)),
        min_size=1,
        max_size=80,
    )
)
def test_title_copy_of_generated_texts_is_unchanged(parts: list[tuple[str, str]]) -> None:
    _same_copy("".join(p + s for p, s in parts))


@pytest.mark.parametrize("repeat", [16, 40])
def test_title_copy_of_many_plain_blocks_around_one_piece_is_unchanged(repeat: int) -> None:
    plain = "\n\n".join(["Wang, A.", "2022-09-01", "retrieval model language"] * repeat)
    for piece in _PIECES:
        _same_copy(f"{plain}\n\n{piece}\n\n{plain}")
