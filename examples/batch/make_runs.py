"""Writes the small batch used in docs/rates.md: 60 runs of two agents on 30 tasks.

Agent A cites an id no tool returned in 3 of its 30 runs; agent B in none. Run it from the
repository root: ``python examples/batch/make_runs.py``; it rewrites examples/batch/runs/.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

HERE = Path(__file__).parent
PAPERS = [
    ("2005.11401", "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"),
    ("2004.04906", "Dense Passage Retrieval for Open-Domain Question Answering"),
    ("2002.08909", "REALM: Retrieval-Augmented Language Model Pre-Training"),
    ("2112.04426", "Improving language models by retrieving from trillions of tokens"),
]


def main() -> None:
    runs = HERE / "runs"
    shutil.rmtree(runs, ignore_errors=True)
    lines = []
    for agent in ("a", "b"):
        for task in range(30):
            name = f"{agent}-task{task:02d}"
            folder = runs / name
            folder.mkdir(parents=True)
            returned = [PAPERS[task % 4], PAPERS[(task + 1) % 4]]
            cited = list(returned)
            if agent == "a" and task in (4, 17, 25):
                cited.append(("2311.09999", "A Survey of Retrieval That Was Never Returned"))
            body = "\n\n".join(f"## {title}\nSee arXiv:{arxiv}." for arxiv, title in cited)
            (folder / "report.md").write_text(f"# Task {task}\n\n{body}\n", encoding="utf-8")
            calls = [
                {
                    "tool": "arxiv_search",
                    "input": {"q": f"task {task}"},
                    "output": [{"arxiv_id": a, "title": t} for a, t in returned],
                }
            ]
            (folder / "tool_calls.json").write_text(json.dumps(calls, indent=1) + "\n", "utf-8")
            lines.append(
                {
                    "run": name,
                    "task": f"task{task:02d}",
                    "group": f"agent-{agent}",
                    "report": f"runs/{name}/report.md",
                    "evidence": f"runs/{name}/tool_calls.json",
                }
            )
    for agent in ("a", "b"):
        with (HERE / f"agent-{agent}.jsonl").open("w", encoding="utf-8") as out:
            for line in lines:
                if line["group"] == f"agent-{agent}":
                    out.write(json.dumps(line) + "\n")
    with (HERE / "manifest.jsonl").open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
