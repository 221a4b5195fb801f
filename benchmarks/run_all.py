"""The benchmark suite, one command: ``python benchmarks/run_all.py [--rounds 5]``.

Every figure is measured in this run, on this machine; ratios compare two things measured side
by side in the same run (the machine may be shared: absolute times are noisy, ratios much less
so). Times are CPU time (user + system), medians over ``--rounds`` rounds.

0. Whole process, as a user runs it: ``groundcheck extract FILE --format json`` (every
   built-in scheme, titles on) against the seed's one-regex process on a 10 MiB corpus; the
   ratio, MB/s, start-up and peak RSS (benchmarks/bench_process.py). Then the same corpus
   in-process: ``extract()`` with every scheme and without titles, and each stage (the text
   view, every extractor, what follows them), each as MB/s and a ratio to the seed's regex
   on the same text (benchmarks/bench_schemes.py).
1. Identifier extraction on one generated corpus with planted ids: groundcheck against the
   seed's one-regex check (``re`` and ``regex``), idutils applied per token and refextract's
   extractor. Speed, ratio to the seed, precision and recall against the corpus truth, and
   peak RSS, each tool in its own process. The peers run from their own environment
   (``benchmarks/setup_peers.sh``, which creates it); without it they are skipped.
2. Hostile inputs: 1 MB floods audited, CPU time as a ratio of a benign 1 MB report's, and
   the peak RSS of a process that audits each once (issue 17: memory <= 40x the input plus a
   fixed base; the base is that of the same process auditing the benign report).
3. Audit at scale: a 100 KB review against 10,000 returned records, against the seed's naive
   whole check (benchmarks/bench_audit_scale.py; target <= 2x).
4. The title index against brute force: on real agents' titles
   (benchmarks/bench_titles_real.py) and on 10,000 generated titles (bench_titles.py).
5. Every identifier family, one line each: in-process speed (MB/s), precision/recall on
   planted citations, floods (benchmarks/bench_web.py).
6. Verbatim quotes: precision/recall on cases built from real tool outputs
   (benchmarks/eval_quotes.py), index and search on 10,000 outputs and the hostile inputs of
   issue 13 (benchmarks/bench_quotes.py).
7. ``groundcheck rate`` over many runs on each engine (process, and Ray when the extra is
   installed): runs/s, peak RSS of the process tree, memory 5,000 -> 50,000 runs and the same
   JSON from every engine (benchmarks/bench_rate.py; about 10 minutes on 2 cores).

Last, what issue 17 sets is printed together, met or not: the two ratios (whole process
<= 1.0x, audit at scale <= 2x), in-process MB/s (>= 150), the worst hostile input (<= 10x CPU,
<= 40x memory). ``--sections 0,3`` runs only the two ratios.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_core import make_corpus  # noqa: E402

PEERS_PYTHON = HERE.parent / ".bench-peers" / "bin" / "python"
TOOLS = [
    ("seed re.findall", "seed-re", False),
    ("seed regex.findall", "seed-regex", False),
    ("groundcheck, all but titles", "groundcheck", False),
    ("idutils per token", "idutils", True),
    ("refextract", "refextract", True),
]


def run_tool(tool: str, corpus: Path, peers: bool) -> dict[str, object] | str:
    """The worker's result, or why the tool was not measured (one line)."""
    python = str(PEERS_PYTHON) if peers else sys.executable
    if peers and not PEERS_PYTHON.exists():
        return "skipped: run benchmarks/setup_peers.sh to install it"
    env_path = str(HERE.parent / "src")
    out = subprocess.run(
        [python, str(HERE / "peers_worker.py"), tool, str(corpus)],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    if out.returncode:
        last = (out.stderr.strip().splitlines() or ["no message"])[-1]
        where = " (rerun benchmarks/setup_peers.sh)" if peers else ""
        return f"failed{where}: {last}"
    return dict(json.loads(out.stdout))


def extraction_table(megabytes: float) -> None:
    text, planted = make_corpus(megabytes)
    truth = {f"{s}:{i}" for s, i in planted}
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp, "corpus.txt")
        corpus.write_text(text, encoding="utf-8")
        print(f"1. extraction: {len(text) / 1e6:.2f} MB corpus, {len(truth)} distinct planted ids")
        print(
            f"   {'tool':<34}{'time':>10}{'MB/s':>9}{'x seed':>10}{'precision':>11}{'recall':>8}{'peak RSS':>10}"
        )
        base = None
        for label, tool, peers in TOOLS:
            result = run_tool(tool, corpus, peers)
            if isinstance(result, str):
                print(f"   {label:<34}  {result}")
                continue
            seconds = float(result["seconds"])  # type: ignore[arg-type]
            found = set(result["found"])  # type: ignore[call-overload]
            base = base or seconds
            precision = len(found & truth) / len(found) if found else 1.0
            recall = len(found & truth) / len(truth)
            print(
                f"   {label:<34}{seconds * 1e3:>8.1f}ms{len(text) / 1e6 / seconds:>9.2f}"
                f"{seconds / base:>10.2f}{precision:>10.1%}{recall:>8.1%}"
                f"{float(result['peak_mib']):>8.0f}MiB"  # type: ignore[arg-type]
            )


FLOODS = {
    "digit run": "9",
    "'10.' flood": "10.",
    "slash flood": "/",
    "dot-digit flood": ".1234",
    "arXiv: prefixes": "arXiv:",
    "DOI suffix run": "10.1000/" + "a" * 200 + " ",
    "unclosed brackets": "10.1000/(",
    "legacy tails": "hep-th/",
    "zero-width flood": "2\u200b",
    "entity flood": "&#50;",
    "numbered lines": "2005.\n1",
    "spaces": " ",
    "quotes": '"word ',
    "emphasis markers": "*a ",
    "headings": "# a\n",
    "fullwidth digits": "２０．",
    "BibTeX title= flood": "title={",
    "DOI + entity flood": "10.1234/&#",
}


EVIDENCE_FLOODS = {
    "evidence: XML entries": "<entry><title>T 2005.11401</title><author><name>N</name></author></entry>",
    "evidence: unclosed XML": "<entry><title>a",
}
"""Tool outputs read as XML feeds (evidence/feeds.py): many records, and none ever closed."""


NESTED = "evidence nested 100k deep"
HOSTILE = ["benign", *FLOODS, *EVIDENCE_FLOODS, NESTED]
"""Every case of the hostile table, the benign one (the base) first."""


def _hostile_case(name: str, size: int) -> tuple[str, list[dict[str, object]]]:
    """The report and the tool calls of one case (built alone, so a process measuring its
    memory holds nothing else)."""
    benign, _ = make_corpus(size / 1e6, seed=5)
    calls: list[dict[str, object]] = [{"tool": "search", "output": benign[:20_000]}]
    if name in FLOODS:
        unit = FLOODS[name]
        return (unit * (size // len(unit) + 1))[:size], calls
    if name in EVIDENCE_FLOODS:  # a 1 MB tool output, the benign report
        unit = EVIDENCE_FLOODS[name]
        flood = "<feed>" + (unit * (size // len(unit) + 1))[:size]
        return benign, [{"tool": "search", "output": flood}]
    if name == NESTED:
        nested: object = "2005.11401"
        for _ in range(100_000):
            nested = [nested]
        return benign, [{"tool": "search", "output": nested}]
    return benign, calls


_PEAK = (
    "import sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "from run_all import _hostile_case\n"
    "from groundcheck import audit\n"
    "def peak():\n"
    "    with open('/proc/self/status') as status:\n"
    "        return next(line.split()[1] for line in status if line.startswith('VmHWM'))\n"
    "report, calls = _hostile_case(sys.argv[2], int(sys.argv[3]))\n"
    "before = peak()\n"
    "audit(report, calls)\n"
    "print(before, peak())\n"
)
"""One audit of one hostile case in a fresh process: the peak RSS (KiB) before it (imports,
the case built) and after it. Read as the kernel's ``VmHWM`` of the process: ``ru_maxrss``
of a forked child starts from its parent's peak (this process's, which audited every flood)."""


def _peak_mib(name: str, size: int) -> tuple[float, float] | None:
    """(peak RSS before the audit, after it) in MiB of a process auditing case ``name``."""
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, str(HERE), name, str(size)],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(HERE.parent / "src"), "PATH": "/usr/bin:/bin"},
    )
    if out.returncode:
        return None
    before, after = (int(v) / 1024 for v in out.stdout.split())
    return before, after


def hostile_table(size: int = 1_000_000, rounds: int = 3) -> tuple[float, float]:
    """Print the table; return the worst CPU ratio and the worst memory factor.

    The CPU times are measured on this checkout's ``src``, as the memory processes are (their
    ``PYTHONPATH``), not on whichever groundcheck is installed: an editable install of
    another worktree would time one tree and measure the memory of another."""
    src = str(HERE.parent / "src")
    if sys.path[:1] != [src]:
        sys.path.insert(0, src)
    from groundcheck import audit

    benign, calls = _hostile_case("benign", size)

    def timed(report: str, evidence: list[dict[str, object]]) -> float:
        samples = []
        for _ in range(rounds):
            t0 = time.process_time()
            audit(report, evidence)
            samples.append(time.process_time() - t0)
        return statistics.median(samples)

    audit(
        benign, calls
    )  # untimed: imports and patterns compiled on first use are not the report's cost
    base = timed(benign, calls)
    benign_peak = _peak_mib("benign", size)
    base_mib = benign_peak[1] - benign_peak[0] if benign_peak else float("nan")
    print(
        f"\n2. hostile inputs: audit CPU time of a {size / 1e6:g} MB flood / a benign "
        f"{size / 1e6:g} MB report ({base * 1e3:.0f} ms), median of {rounds}; limit 10x.\n"
        f"   Memory: peak RSS of a process auditing it once; growth = what the audit added "
        f"to the process's peak, less the {base_mib:.0f} MiB the benign report's audit adds "
        f"(imports included), / the input's size; limit 40x"
    )
    print(f"   {'input':<26}{'CPU':>10}{'x benign':>9}{'peak RSS':>10}{'growth':>8}")
    worst = ("", 0.0)
    worst_memory = ("", 0.0)
    for name in HOSTILE[1:]:
        report, evidence = _hostile_case(name, size)
        seconds = timed(report, evidence)
        ratio = seconds / base
        worst = max(worst, (name, ratio), key=lambda x: x[1])
        peak = _peak_mib(name, size)
        if peak is None:
            memory = "   failed"
        else:
            growth = max(0.0, peak[1] - peak[0] - base_mib) * 2**20 / size
            worst_memory = max(worst_memory, (name, growth), key=lambda x: x[1])
            memory = f"{peak[1]:>7.0f}MiB{growth:>7.1f}x"
        print(f"   {name:<26}{seconds * 1e3:>8.1f}ms{ratio:>8.2f}x{memory}")
    verdict = "within" if worst[1] <= 10 else "OVER"
    print(f"   worst CPU: {worst[0]} at {worst[1]:.2f}x ({verdict} the 10x limit)")
    verdict = "within" if worst_memory[1] <= 40 else "OVER"
    print(
        f"   worst memory: {worst_memory[0]} at {worst_memory[1]:.1f}x its input "
        f"({verdict} the 40x limit)"
    )
    return worst[1], worst_memory[1]


def titles_section() -> None:
    print("\n4b. title matcher on 10,000 generated titles (benchmarks/bench_titles.py)")
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("   skipped: needs numpy for the brute-force baseline (pip install -e '.[bench]')")
        return
    out = subprocess.run(
        [sys.executable, str(HERE / "bench_titles.py"), "--repeat", "5"],
        capture_output=True,
        text=True,
        check=False,
    )
    for line in out.stdout.splitlines():
        print(f"   {line}")


def _section(title: str, script: str, *args: str) -> str:
    """Run one benchmark script, print its output indented, and return that output."""
    print(f"\n{title} (benchmarks/{script})")
    out = subprocess.run(
        [sys.executable, str(HERE / script), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    for line in out.stdout.splitlines():
        print(f"   {line}")
    if out.returncode:
        print(f"   failed ({out.returncode}): {out.stderr.strip().splitlines()[-1:]}")
    return out.stdout


_RATIO = re.compile(r"^\s*ratio\s+([0-9.]+)x", re.MULTILINE)
_IN_PROCESS = re.compile(r"^\s*every scheme: ([0-9.]+) MB/s", re.MULTILINE)


def _targets(process: str, schemes: str, scale: str, hostile: tuple[float, float] | None) -> None:
    """What issue 17 sets, read back from the sections of this run, against its targets."""
    print("\nissue 17 targets, measured in this run (medians):")
    rows: list[tuple[str, float | None, str, bool]] = []
    for name, output, target in (
        ("whole-process extraction (CLI, titles on, JSON out) / seed", process, 1.0),
        ("audit at scale / the seed's naive whole check", scale, 2.0),
    ):
        m = _RATIO.search(output)
        value = float(m.group(1)) if m else None
        rows.append(
            (name, value, f"x (target <= {target:g}x", value is not None and value <= target)
        )
    m = _IN_PROCESS.search(schemes)
    value = float(m.group(1)) if m else None
    rows.append(
        (
            "in-process extraction, every scheme",
            value,
            " MB/s (target >= 150",
            value is not None and value >= 150,
        )
    )
    worst_cpu, worst_memory = hostile if hostile is not None else (None, None)
    rows.append(
        (
            "worst hostile input, CPU / a benign report's",
            worst_cpu,
            "x (limit 10x",
            worst_cpu is not None and worst_cpu <= 10,
        )
    )
    rows.append(
        (
            "worst hostile input, memory growth / its size",
            worst_memory,
            "x (limit 40x",
            worst_memory is not None and worst_memory <= 40,
        )
    )
    for name, value, unit, met in rows:
        if value is None:
            print(f"   {name:<62} not measured")
        else:
            print(f"   {name:<62}{value:6.2f}{unit}: {'met' if met else 'NOT met'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--mb",
        type=float,
        default=0.05,
        help="corpus size for the extraction table (refextract reads ~0.002 MB/s: keep it small)",
    )
    parser.add_argument(
        "--web-mb", type=float, default=2.0, help="corpus size for the per-family table"
    )
    parser.add_argument(
        "--outputs", type=int, default=10_000, help="tool outputs for the quote index timing"
    )
    parser.add_argument(
        "--rate-runs",
        type=int,
        nargs="+",
        default=[5_000, 50_000],
        help="batch sizes for the rate benchmark (issue 16: memory flat from 5,000 to 50,000)",
    )
    parser.add_argument("--process-mb", type=float, default=10.0, help="whole-process corpus")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per median")
    parser.add_argument(
        "--sections",
        default="0,1,2,3,4,5,6,7",
        help="which sections to run, comma-separated (e.g. 0,3: the two issue-17 ratios)",
    )
    args = parser.parse_args()
    rounds = str(args.rounds)
    chosen = {s.strip() for s in args.sections.split(",")}
    process = schemes = scale = ""
    hostile = None
    if "0" in chosen:
        process = _section(
            "0. whole process", "bench_process.py", "--mb", str(args.process_mb), "--rounds", rounds
        )
        schemes = _section(
            "0b. in-process, per scheme and stage",
            "bench_schemes.py",
            "--mb",
            str(args.process_mb),
            "--rounds",
            rounds,
        )
    if "1" in chosen:
        extraction_table(args.mb)
    if "2" in chosen:
        hostile = hostile_table(rounds=max(3, args.rounds // 2))
    if "3" in chosen:
        scale = _section("3. audit at scale", "bench_audit_scale.py", "--repeat", rounds)
    if "4" in chosen:
        _section("4a. title index on real titles", "bench_titles_real.py", "--rounds", rounds)
        titles_section()
    if "5" in chosen:
        _section(
            "5. every identifier family", "bench_web.py", "--mb", str(args.web_mb), "--repeat", "1"
        )
    if "6" in chosen:
        _section("6a. verbatim quotes on real tool outputs", "eval_quotes.py", "--show", "0")
        _section(
            "6b. quote index and hostile inputs", "bench_quotes.py", "--outputs", str(args.outputs)
        )
    if "7" in chosen:
        _section(
            "7. rate over many runs, per engine",
            "bench_rate.py",
            "--runs",
            *(str(n) for n in args.rate_runs),
        )
    _targets(process, schemes, scale, hostile)


if __name__ == "__main__":
    main()
