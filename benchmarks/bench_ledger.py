"""Ledger benchmark: recording overhead per tool call, and ledger.audit over 1,000 calls.

Run: ``python benchmarks/bench_ledger.py``. The baseline is the same tool function called
without the decorator, in the same run. Targets (issue 6): < 1 ms median overhead per call.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from groundcheck.ledger import Ledger

RESULTS = [
    {
        "arxiv_id": f"2{i % 4 + 1:03d}.{10000 + i:05d}",
        "title": f"A Paper About Retrieval Number {i}",
    }
    for i in range(5)
]


def search(query: str, limit: int = 5) -> list[dict[str, str]]:
    return RESULTS[:limit]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Ledger(Path(tmp) / "bench.db")
        recorded = ledger.record(search)
        with ledger.run("bench"):
            recorded("warm-up")
            bare_times, recorded_times = [], []
            for i in range(1000):
                t0 = time.perf_counter()
                search(f"q{i}")
                bare_times.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                recorded(f"q{i}")
                recorded_times.append(time.perf_counter() - t0)
            report = "\n".join(
                f"- A Paper About Retrieval Number {i}, arXiv:{r['arxiv_id']}"
                for i, r in enumerate(RESULTS)
            )
            report += "\n- An invented one, arXiv:2310.99999\n"
            t0 = time.perf_counter()
            verdict = ledger.audit(report, run="bench")
            audit_s = time.perf_counter() - t0
        bare, rec = statistics.median(bare_times), statistics.median(recorded_times)
        p95 = sorted(recorded_times)[int(0.95 * len(recorded_times))]
        print(f"tool call, bare              median {bare * 1e3:8.3f} ms")
        print(f"tool call, recorded          median {rec * 1e3:8.3f} ms  (p95 {p95 * 1e3:.3f} ms)")
        print(
            f"recording overhead           median {(rec - bare) * 1e3:8.3f} ms  target < 1 ms: {'met' if rec - bare < 1e-3 else 'NOT met'}"
        )
        print(
            f"ledger.audit, 1,001 calls            {audit_s * 1e3:8.1f} ms  ({len(verdict.findings)} finding(s))"
        )


if __name__ == "__main__":
    main()
