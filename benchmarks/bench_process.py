"""Whole-process extraction, the way a user runs it, against the seed's one-regex process.

Run: ``python benchmarks/bench_process.py [--mb 10] [--rounds 5]``. In one run, on one corpus
(bench_core's prose with planted ids, written to a file):

- the seed: a Python process that reads the file, runs ``\\b(\\d{4}\\.\\d{4,5})\\b`` over it
  and prints the matches as JSON;
- groundcheck: ``python -m groundcheck extract FILE --format json``, every built-in scheme
  on (titles included), as a user runs it;
- the same with every identifier extractor but no title finder (``--extractor`` for each), so
  the share of the title finder in the run is measured, not guessed.

Each is a fresh process; CPU time (user + system, from ``wait4``) and peak RSS are read from
the kernel, and the median of ``--rounds`` rounds is printed, with the ratio (target <= 1.0x).
Both run with bytecode caching on (a user's install has compiled ``.pyc`` files; this
environment may set PYTHONDONTWRITEBYTECODE) in a private cache, warmed up by one
untimed round.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_core import make_corpus  # noqa: E402

SEED = (
    "import json, re, sys\n"
    "text = open(sys.argv[1], encoding='utf-8').read()\n"
    "print(json.dumps(re.findall(r'\\b(\\d{4}\\.\\d{4,5})\\b', text)))\n"
)


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, peak RSS in MiB) of one process run to completion."""
    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        err = errors.read().decode("utf-8", "replace")
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv[:3]} failed ({proc.returncode}): {err.strip()[-300:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _identifier_extractors(src: Path) -> list[str]:
    """Every built-in extractor but the title finder, named as ``--extractor`` takes them."""
    code = (
        "from groundcheck.extractors.builtin import BUILTIN\n"
        "print(' '.join(e.name for e in BUILTIN if e.name != 'title'))"
    )
    env = {**os.environ, "PYTHONPATH": str(src)}
    argv = [sys.executable, "-c", code]
    out = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if out.returncode != 0:
        raise SystemExit(f"cannot list the extractors: {out.stderr.strip()[-300:]}")
    return out.stdout.split()


def measure(megabytes: float, rounds: int, src: Path = HERE.parent / "src") -> dict[str, float]:
    text, _ = make_corpus(megabytes)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp, "corpus.md")
        corpus.write_text(text, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp, "pycache"))
        env["PYTHONPATH"] = str(src)
        seed = [sys.executable, "-c", SEED, str(corpus)]
        cli = [sys.executable, "-m", "groundcheck", "extract", str(corpus), "--format", "json"]
        ids_only = [*cli, *(f"--extractor={name}" for name in _identifier_extractors(src))]
        tiny = Path(tmp, "tiny.md")
        tiny.write_text("see arXiv:2005.11401\n", encoding="utf-8")
        tiny_seed = [sys.executable, "-c", SEED, str(tiny)]
        tiny_cli = [sys.executable, "-m", "groundcheck", "extract", str(tiny), "--format", "json"]
        for argv in (seed, cli, ids_only, tiny_cli):
            run(argv, env)  # warm-up: bytecode written, file cache warm
        samples: dict[str, list[tuple[float, float]]] = {
            "seed": [],
            "cli": [],
            "ids": [],
            "tiny_seed": [],
            "tiny_cli": [],
        }
        for _ in range(rounds):  # interleaved, so load on the machine hits all alike
            samples["seed"].append(run(seed, env))
            samples["cli"].append(run(cli, env))
            samples["ids"].append(run(ids_only, env))
            samples["tiny_seed"].append(run(tiny_seed, env))
            samples["tiny_cli"].append(run(tiny_cli, env))
    out = {"mb": len(text.encode("utf-8")) / 1e6}
    for name, runs in samples.items():
        out[name] = statistics.median(cpu for cpu, _ in runs)
        out[name + "_rss"] = max(rss for _, rss in runs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--src", type=Path, default=HERE.parent / "src", help="the groundcheck source tree to run"
    )
    args = parser.parse_args()
    m = measure(args.mb, args.rounds, args.src)
    print(f"whole process, {m['mb']:.1f} MB corpus, median CPU of {args.rounds} rounds")
    print(f"  seed one-regex process     {m['seed'] * 1e3:8.0f} ms  {m['seed_rss']:6.0f} MiB peak")
    print(f"  groundcheck extract --json {m['cli'] * 1e3:8.0f} ms  {m['cli_rss']:6.0f} MiB peak")
    print(f"  ratio                      {m['cli'] / m['seed']:8.2f}x the seed (target <= 1.0x)")
    print(f"  MB/s (whole process)       {m['mb'] / m['cli']:8.1f}")
    title = m["cli"] - m["ids"]
    print(
        f"  without the title finder   {m['ids'] * 1e3:8.0f} ms  "
        f"({m['ids'] / m['seed']:.2f}x the seed; titles cost {title * 1e3:.0f} ms, "
        f"{title / m['cli']:.0%} of the run)"
    )
    print(
        f"  start-up (a one-line file)  seed {m['tiny_seed'] * 1e3:.0f} ms, "
        f"groundcheck {m['tiny_cli'] * 1e3:.0f} ms"
    )


if __name__ == "__main__":
    main()
