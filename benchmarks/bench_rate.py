"""Batch benchmark: ``groundcheck rate`` over many small synthetic runs, on each engine.

Run: ``python benchmarks/bench_rate.py [--runs 5000 50000] [--engines process ray]``.
Writes that many run folders (a short report and its tool calls, about 5% of them citing an
arXiv id no tool returned) plus a manifest, then runs ``groundcheck rate MANIFEST --format
json --engine E`` as a fresh process, start-up included, and reports runs per second and the
peak memory of the whole process tree (the command, its worker processes and, for Ray, the
local cluster it starts: GCS, raylet, agents, workers), sampled every 0.1 s from ``/proc``:

- ``RSS``: the sum of every process's resident set (shared pages counted in each process);
- ``PSS``: the sum of proportional set sizes (shared pages split between the processes that
  map them: what the tree really costs the machine).

Memory must stay flat as runs grow (issue 16: within 1.3x from 5,000 to 50,000 runs), and every
engine must print the same JSON (checked here too). ``--million`` adds the bad-input case: a
manifest of 1,000,000 rows (pointing at a few hundred run folders) with one broken row in the
middle, on the process engine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
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


def write_run(folder: Path, rng: random.Random) -> None:
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
    report = "# Findings\n\n" + "\n\n".join(f"## {t}\nSee arXiv:{a}." for a, t in cited) + "\n"
    (folder / "report.md").write_text(report, encoding="utf-8")
    calls = [
        {
            "tool": "search",
            "input": {"q": "rag"},
            "output": [{"arxiv_id": a, "title": t} for a, t in returned],
        }
    ]
    (folder / "tool_calls.json").write_text(json.dumps(calls), encoding="utf-8")


def write_runs(root: Path, runs: int, seed: int = 3) -> Path:
    rng = random.Random(seed)
    manifest = root / "manifest.jsonl"
    with manifest.open("w", encoding="utf-8") as index:
        for i in range(runs):
            name = f"run{i:06d}"
            write_run(root / name, rng)
            entry = {
                "run": name,
                "report": f"{name}/report.md",
                "evidence": f"{name}/tool_calls.json",
                "group": "agent-a" if i % 2 else "agent-b",
                "task": f"task{i // 2:06d}",
            }
            index.write(json.dumps(entry) + "\n")
    return manifest


def write_million(root: Path, rows: int = 1_000_000, folders: int = 300) -> Path:
    """``rows`` manifest rows over ``folders`` run folders, one broken row in the middle."""
    rng = random.Random(5)
    for i in range(folders):
        write_run(root / f"f{i:04d}", rng)
    manifest = root / "million.jsonl"
    with manifest.open("w", encoding="utf-8") as index:
        for i in range(rows):
            if i == rows // 2:
                index.write('{"run": "broken", "report": \n')
                continue
            f = f"f{i % folders:04d}"
            index.write(
                f'{{"run": "r{i:07d}", "report": "{f}/report.md", '
                f'"evidence": "{f}/tool_calls.json", "group": "g{i % 3}"}}\n'
            )
    return manifest


# -- the process tree's memory, sampled -----------------------------------------------------


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:  # noqa: PTH123
                stat = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def _tree(root: int) -> list[int]:
    tree, out, todo = _children(), [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += tree.get(pid, [])
    return out


def _kib(path: str, keys: tuple[bytes, ...]) -> int:
    total = 0
    try:
        with open(path, "rb") as f:  # noqa: PTH123
            for line in f:
                if line.startswith(keys):
                    total += int(line.split()[1])
    except (OSError, ValueError):
        pass
    return total


class TreeMemory:
    """Peak RSS and PSS sums over a process and all its descendants, sampled in a thread."""

    def __init__(self, pid: int, every: float = 0.1) -> None:
        self.pid, self.every = pid, every
        self.peak_rss = self.peak_pss = self.peak_processes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            pids = _tree(self.pid)
            rss = sum(_kib(f"/proc/{p}/status", (b"VmRSS:",)) for p in pids)
            pss = sum(_kib(f"/proc/{p}/smaps_rollup", (b"Pss:",)) for p in pids)
            self.peak_rss = max(self.peak_rss, rss)
            self.peak_pss = max(self.peak_pss, pss)
            self.peak_processes = max(self.peak_processes, len(pids))
            self._stop.wait(self.every)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def timed(manifest: Path, engine: str) -> dict[str, object]:
    argv = [sys.executable, "-m", "groundcheck", "rate", str(manifest), "--format", "json"]
    argv += ["--engine", engine]
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    memory = TreeMemory(proc.pid)
    out, err = proc.communicate()
    elapsed = time.perf_counter() - t0
    memory.stop()
    if proc.returncode not in (0, 2):
        raise SystemExit(f"{engine}: exit {proc.returncode}: {err[-2000:]}")
    return {
        "seconds": elapsed,
        "rss_mib": memory.peak_rss / 1024,
        "pss_mib": memory.peak_pss / 1024,
        "processes": memory.peak_processes,
        "json": out,
        "data": json.loads(out),
        "stderr": err,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, nargs="+", default=[5_000, 50_000])
    parser.add_argument("--engines", nargs="+", default=["process", "ray"])
    parser.add_argument("--million", action="store_true", help="also the 10^6-row bad input")
    args = parser.parse_args()
    if "ray" in args.engines:
        try:
            import ray  # noqa: F401
        except ImportError:
            print("ray is not installed (pip install 'groundcheck-citations[ray]'): skipped")
            args.engines = [e for e in args.engines if e != "ray"]
    results: dict[tuple[str, int], dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.runs:
            root = Path(tmp, f"runs{n}")
            root.mkdir()
            t0 = time.perf_counter()
            manifest = write_runs(root, n)
            print(f"wrote {n} runs in {time.perf_counter() - t0:.0f} s", flush=True)
            for engine in args.engines:
                results[engine, n] = r = timed(manifest, engine)
                print(
                    f"{engine:<8} {n:>7} runs  {r['seconds']:7.1f} s  "
                    f"{n / float(r['seconds']):7.0f} runs/s  peak tree RSS {r['rss_mib']:7.0f} MiB"
                    f"  PSS {r['pss_mib']:6.0f} MiB  ({r['processes']} processes)",
                    flush=True,
                )
            first = results[args.engines[0], n]["json"]
            same = all(results[e, n]["json"] == first for e in args.engines)
            print(f"same JSON from every engine at {n} runs: {'yes' if same else 'NO'}")
        if args.million:
            root = Path(tmp, "million")
            root.mkdir()
            manifest = write_million(root)
            r = timed(manifest, "process")
            data = r["data"]
            assert isinstance(data, dict)
            print(
                f"1,000,000-row manifest, one broken row: {r['seconds']:.0f} s  "
                f"{1_000_000 / float(r['seconds']):.0f} runs/s  peak tree RSS "
                f"{r['rss_mib']:.0f} MiB; audited {data['overall']['runs_audited']}, "
                f"input errors {data['input_errors']}; stderr: {str(r['stderr']).strip()}"
            )
    if len(args.runs) >= 2:
        low, high = min(args.runs), max(args.runs)
        for engine in args.engines:
            a, b = results[engine, low], results[engine, high]
            ratio = float(b["rss_mib"]) / float(a["rss_mib"])
            print(
                f"{engine}: peak tree RSS {high} / {low} runs = {ratio:.2f}x "
                f"(target <= 1.3x: {'met' if ratio <= 1.3 else 'NOT met'}); PSS "
                f"{float(b['pss_mib']) / float(a['pss_mib']):.2f}x"
            )


if __name__ == "__main__":
    main()
