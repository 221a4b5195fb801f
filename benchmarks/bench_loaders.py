"""Loader benchmark: streaming a large JSONL trace, and one huge tool output.

Run: ``python benchmarks/bench_loaders.py [--mb 200] [--huge-mb 100]``. Each measurement runs
in a fresh subprocess so its peak RSS is its own. The baseline is the bare minimum any reader
must do, measured in the same run: ``json.loads`` of every line. Targets (issue 4): a JSONL
trace is read in one pass with bounded memory (peak RSS does not grow with the file), and a
100 MB single tool output is handled. The last row reads two transcripts as one run
(``load_run``): every file's calls are scanned first for the files the agent wrote (issue 12),
so a run of several files costs one extra parse of each, and no more memory.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, sys, time
mode, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
if mode == "run":
    from groundcheck.evidence import load_run
    trace = load_run(sys.argv[2:])
    detail = f"{len(trace.evidence.calls)} calls, {len(trace.evidence.identifiers)} ids"
elif mode == "json-lines":
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b"{"):
                json.loads(line)
                n += 1
    detail = f"{n} lines"
else:
    import groundcheck
    trace = groundcheck.load_evidence(path)
    detail = f"{len(trace.evidence.calls)} calls, {len(trace.evidence.identifiers)} ids"
elapsed = time.perf_counter() - t0
# VmHWM, not ru_maxrss: ru_maxrss survives exec and would report the parent's peak.
with open("/proc/self/status") as status:
    peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM")) / 1024
print(json.dumps({"seconds": elapsed, "peak_mib": peak, "detail": detail}))
"""


def write_stream(path: Path, megabytes: float) -> int:
    """A Claude Code stream-json transcript: searches whose results hold arXiv ids."""
    filler = "lorem ipsum dolor sit amet " * 40
    target = int(megabytes * 1_000_000)
    size = 0
    i = 0
    with path.open("w", encoding="utf-8") as f:
        f.write("Warning: a plain-text line the CLI printed\n")
        while size < target:
            call = {
                "type": "assistant",
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": f"t{i}",
                            "name": "WebSearch",
                            "input": {"query": f"q {i}"},
                        }
                    ],
                },
            }
            result = {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": f"t{i}",
                            "content": f"{filler} arxiv.org/abs/{2101 + i % 12:04d}.{i % 99999 + 1:05d} {filler}",
                        }
                    ],
                },
            }
            for event in (call, result):
                line = json.dumps(event) + "\n"
                f.write(line)
                size += len(line)
            i += 1
    return size


def write_huge(path: Path, megabytes: float) -> int:
    body = ("x" * 990 + " 2005.11401 ") * int(megabytes * 1000)
    records = [
        {"tool": "fetch", "id": "big", "input": {"url": "u"}, "output": body},
    ]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path.stat().st_size


def measure(mode: str, path: Path, *more: Path) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(path), *map(str, more)],
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=200.0, help="size of the JSONL trace")
    parser.add_argument("--huge-mb", type=float, default=100.0, help="size of one tool output")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        small, big, huge = Path(tmp, "small.jsonl"), Path(tmp, "big.jsonl"), Path(tmp, "huge.jsonl")
        small_size = write_stream(small, args.mb / 10)
        second = Path(tmp, "second.jsonl")
        write_stream(second, args.mb / 10)
        big_size = write_stream(big, args.mb)
        huge_size = write_huge(huge, args.huge_mb)
        rows = [
            ("json.loads per line (baseline)", big_size, measure("json-lines", big)),
            (f"load_evidence, {small_size / 1e6:.0f} MB trace", small_size, measure("load", small)),
            (f"load_evidence, {big_size / 1e6:.0f} MB trace", big_size, measure("load", big)),
            (
                f"load_evidence, one {huge_size / 1e6:.0f} MB output",
                huge_size,
                measure("load", huge),
            ),
            (
                f"load_run, two {small_size / 1e6:.0f} MB files",
                2 * small_size,
                measure("run", small, second),
            ),
        ]
    base = float(rows[0][2]["seconds"])  # type: ignore[arg-type]
    print(f"{'reading':<38}{'MB/s':>8}{'time':>9}{'x base':>8}{'peak RSS':>11}  detail")
    for name, size, r in rows:
        seconds = float(r["seconds"])  # type: ignore[arg-type]
        ratio = (
            f"{seconds / base:.2f}" if "trace" in name and str(int(big_size / 1e6)) in name else ""
        )
        print(
            f"{name:<38}{size / 1e6 / seconds:>8.1f}{seconds:>8.2f}s{ratio:>8}"
            f"{float(r['peak_mib']):>9.0f}MiB  {r['detail']}"  # type: ignore[arg-type]
        )
    small_peak = float(rows[1][2]["peak_mib"])  # type: ignore[arg-type]
    big_peak = float(rows[2][2]["peak_mib"])  # type: ignore[arg-type]
    print(
        f"\nbounded memory: a {big_size / small_size:.0f}x larger trace used "
        f"{big_peak / small_peak:.2f}x the peak RSS"
    )


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"(benchmark took {time.perf_counter() - started:.0f} s)")
