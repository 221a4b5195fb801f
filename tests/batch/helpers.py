"""Synthetic runs for the batch tests: run folders, manifests, a shared pool of folders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RETURNED = [{"arxiv_id": "2005.11401", "title": "RAG"}, {"doi": "10.1000/xyz1"}]


def make_run(
    root: Path,
    name: str,
    *,
    fabricated: bool,
    group: str | None = None,
    task: str | None = None,
    extra: str = "",
) -> dict[str, Any]:
    """A run folder (report.md citing an arXiv id and a DOI, tool_calls.json) and its row."""
    folder = root / name
    folder.mkdir(parents=True)
    cited = "arXiv:2004.04906" if fabricated else "arXiv:2005.11401"
    (folder / "report.md").write_text(
        f"# Notes\n\nWe rely on {cited} and doi:10.1000/xyz1.{extra}\n", "utf-8"
    )
    calls = [{"tool": "search", "output": RETURNED}]
    (folder / "tool_calls.json").write_text(json.dumps(calls), "utf-8")
    entry: dict[str, Any] = {
        "run": name,
        "report": f"{name}/report.md",
        "evidence": f"{name}/tool_calls.json",
    }
    if group:
        entry["group"] = group
    if task:
        entry["task"] = task
    return entry


def write_manifest(path: Path, rows: list[dict[str, Any]] | list[str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("".join(line + "\n" for line in lines), "utf-8")
    return path


def many_runs(root: Path, runs: int, *, folders: int = 40, every: int = 7) -> Path:
    """A manifest of ``runs`` rows over ``folders`` run folders (rows share folders), every
    ``every``-th folder citing an id no tool returned; groups a/b/c, tasks paired by two."""
    for i in range(folders):
        make_run(root, f"f{i:03d}", fabricated=i % every == 0)
    rows = [
        {
            "run": f"r{i:06d}",
            "report": f"f{i % folders:03d}/report.md",
            "evidence": f"f{i % folders:03d}/tool_calls.json",
            "group": "abc"[i % 3],
            "task": f"t{i // 2:06d}",
        }
        for i in range(runs)
    ]
    return write_manifest(root / "manifest.jsonl", rows)
