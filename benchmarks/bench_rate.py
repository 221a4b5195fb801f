"""Batch benchmark: ``groundcheck rate`` over many small synthetic runs.

Run: ``python benchmarks/bench_rate.py [--runs 10000]``. Writes that many run folders (a short
report and its tool calls, a few percent of them with a fabricated id) plus a manifest, then
times ``groundcheck rate MANIFEST --format json`` as a fresh process, start-up included, and
reports runs per second and the peak memory of the command and its worker processes.
Baseline measured in the same run: the same command on 1/10 of the runs, so fixed start-up
cost is visible. Target (issue 5): >= 1,000 runs/s on this 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAPERS = [
    ("2005.11401", "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"),
    ("2004.04906", "Dense Passage Retrieval for Open-Domain Question Answering"),
    ("2002.08909", "REALM: Retrieval-Augmented Language Model Pre-Training"),
    ("2112.04426", "Improving language models by retrieving from trillions of tokens"),
    (
        "2310.11511",
        "Self-RAG: Learning to Retrieve, Generate, and Critique through Self-Reflection",
    ),
    ("1706.03762", "Attention Is All You Need"),
]


def write_runs(root: Path, runs: int, seed: int = 3) -> Path:
    rng = random.Random(seed)
    manifest = root / "manifest.jsonl"
    with manifest.open("w", encoding="utf-8") as index:
        for i in range(runs):
            folder = root / f"run{i:05d}"
            folder.mkdir()
            returned = rng.sample(PAPERS, 3)
            cited = list(returned[:2])
            if rng.random() < 0.05:
                cited.append(
                    (
                        f"2{rng.randint(101, 412):03d}.{rng.randint(10000, 99999)}",
                        "An Invented Paper on Retrieval",
                    )
                )
            report = (
                "# Findings\n\n" + "\n\n".join(f"## {t}\nSee arXiv:{a}." for a, t in cited) + "\n"
            )
            (folder / "report.md").write_text(report, encoding="utf-8")
            calls = [
                {
                    "tool": "search",
                    "input": {"q": "rag"},
                    "output": [{"arxiv_id": a, "title": t} for a, t in returned],
                }
            ]
            (folder / "tool_calls.json").write_text(json.dumps(calls), encoding="utf-8")
            group = "agent-a" if i % 2 else "agent-b"
            entry = {
                "run": f"run{i:05d}",
                "report": f"run{i:05d}/report.md",
                "evidence": f"run{i:05d}/tool_calls.json",
                "group": group,
            }
            index.write(json.dumps(entry) + "\n")
    return manifest


def timed(manifest: Path) -> tuple[float, dict[str, object]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "groundcheck", "rate", str(manifest), "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - t0
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    data = json.loads(out.stdout)
    data["_peak_mib"] = peak / 1024
    return elapsed, data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        small_root, big_root = Path(tmp, "small"), Path(tmp, "big")
        small_root.mkdir()
        big_root.mkdir()
        small = write_runs(small_root, max(1, args.runs // 10))
        big = write_runs(big_root, args.runs)
        t_small, d_small = timed(small)
        t_big, d_big = timed(big)
    for label, n, t, d in (
        ("1/10 of the runs", args.runs // 10, t_small, d_small),
        ("all runs", args.runs, t_big, d_big),
    ):
        overall = d["overall"]
        assert isinstance(overall, dict)
        print(
            f"{label:<18} {n:>6} runs  {t:6.2f} s  {n / t:8.0f} runs/s  "
            f"flagged {overall['runs_flagged']:>4}  peak RSS {float(d['_peak_mib']):.0f} MiB (largest process)"
        )
    marginal = (
        (args.runs - args.runs // 10) / (t_big - t_small) if t_big > t_small else float("inf")
    )
    print(f"marginal throughput (start-up removed): {marginal:.0f} runs/s")
    print(f"target >= 1,000 runs/s end to end: {'met' if args.runs / t_big >= 1000 else 'NOT met'}")


if __name__ == "__main__":
    main()
