"""Cited works read the report's blocks from their columns, as the Block objects read them.

``_self_cited`` and ``_heading_names_a_paper`` (:mod:`groundcheck.document.works`) read a
block's kind and offsets from :class:`~groundcheck.document.blocks.Blocks`' columns instead of
making a :class:`~groundcheck.document.blocks.Block` each time. The copies below read the
objects, as the code did before; both must say the same of every title of every report.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from groundcheck.document import Document
from groundcheck.document import works as W
from groundcheck.document.blocks import CELL, HEADING
from groundcheck.extractors import extract

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))


def _heading_names_a_paper_objects(doc: Document, index: int, t: object) -> bool:
    block = doc.blocks[index]
    text = doc.text
    if W._HEADING_CITES.search(text, t.end, block.end) is not None:  # type: ignore[attr-defined]
        return True
    if W._PAPER_ENUMERATION.match(text, block.body, t.start + 1) is not None:  # type: ignore[attr-defined]
        return True
    for j in range(index + 1, min(len(doc.blocks), index + 4)):
        below = doc.blocks[j]
        if below.kind == HEADING:
            break
        if W._METADATA_FIELD.search(text, below.start, min(below.end, below.start + 200)):
            return True
        if j == index + 1 and W._BYLINE.match(text, below.body, min(below.end, below.body + 80)):
            return True
    return False


def _self_cited_objects(doc: Document, t: object) -> bool:
    i = doc.block_index(t.start)  # type: ignore[attr-defined]
    if i is None:
        return False
    block = doc.blocks[i]
    if t.kind == "heading" or (block.kind == HEADING and t.kind == "emphasis"):  # type: ignore[attr-defined]
        return block.kind == HEADING and _heading_names_a_paper_objects(doc, i, t)
    if block.kind == HEADING:
        return False
    if t.kind == "cell" and block.kind == CELL:  # type: ignore[attr-defined]
        return bool(re.search(r"(?i)title|paper", block.header))
    return W._self_cited(doc, t)  # type: ignore[arg-type]  # past the block reads: shared


def _reports() -> list[str]:
    from bench_audit_scale import make_case

    texts = [make_case(seed)[1] for seed in (11, 12)]
    texts += [
        p.read_text("utf-8")
        for d in ("tests", "examples", "docs")
        for p in sorted((ROOT / d).rglob("*.md"))
        if ".venv" not in p.parts
    ]
    texts.append(
        "## Toy Models of Superposition (2022)\n\n- **Authors**: Elhage\n\n"
        "### Paper 3: Sparse Autoencoders\n\narXiv, 2025, Mélanie Gaillochet; x\n\n"
        "## *Scaling Laws for Neural Language Models*\n## Next\n\n"
        "| Title | Year |\n|---|---|\n| Attention Is All You Need | 2017 |\n"
    )
    for gap in range(4):  # the metadata one to four blocks under the heading
        texts.append(
            "## Sparse Autoencoders Find Interpretable Features\n\n"
            + "A paragraph about it.\n\n" * gap
            + "- **Year**: 2025\n\n## Scaling Monosemanticity In Large Models\n\n"
            + "Prose.\n\n" * gap
            + "Authors: Templeton\n"
        )
    return texts


def test_titles_judged_from_columns_as_from_blocks() -> None:
    seen = 0
    for text in _reports():
        doc = Document(text)
        for t in extract(text):
            if t.is_title:
                seen += 1
                assert W._self_cited(doc, t) == _self_cited_objects(doc, t), (t.raw, t.kind)
    assert seen > 500
