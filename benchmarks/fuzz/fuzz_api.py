"""Long fuzz runs of the public API, with the linear time budget: atheris, or a random driver.

    pip install atheris                                    # optional (coverage-guided)
    python benchmarks/fuzz/fuzz_api.py --seconds 600       # atheris when installed
    python benchmarks/fuzz/fuzz_api.py --engine random --seconds 600 --seed 7

Every input goes through ``tests/fuzz/oracle.py`` (no undocumented exception from ``extract``,
``audit``, ``load_evidence`` or the CLI's ``main``; output that encodes as UTF-8; no control
character on the terminal; exit status 0, 1 or 2 with one-line errors). Every
``--time-every``-th input is also *amplified*: its report is tiled to ``--amplify`` characters
and audited against a benign twin of the same size (cited prose); a CPU
time over ``--ratio`` (default 10) times the twin's is a violation, since cost must grow with
the input, never with its square. The random driver saves each violating input under
``benchmarks/fuzz/crashes/`` and goes on; atheris stops at the first and saves it itself.
Totals are printed at the end (recorded in docs/security.md).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CRASHES = Path(__file__).with_name("crashes")
FIXTURES = ROOT / "tests" / "evidence" / "fixtures"
_SPEC = importlib.util.spec_from_file_location(
    "groundcheck_fuzz_oracle", ROOT / "tests" / "fuzz" / "oracle.py"
)
assert _SPEC is not None and _SPEC.loader is not None
oracle = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(oracle)

TARGETS = ("extract", "audit", "load", "cli")
BENIGN = (
    "The retrieval results (arXiv:2005.11401) were discussed at length \u2014 \u201cas noted\u201d "
    "in the survey by Lewis et al., 10.18653/v1/2020.acl-main.1, and summarised. "
)
"""A benign report's prose: two citations per sentence, three sentences per paragraph,
typographic punctuation (so the text view does its ordinary work, not only the ASCII fast
path). The twin is this, tiled to the size of the hostile input."""


class Run:
    """One fuzzing session: which checks ran, what they found."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.inputs: Counter[str] = Counter()
        self.violations: list[tuple[str, str]] = []
        self.timed = 0
        self.worst_ratio = 0.0
        self.worst_growth = 0.0
        self.directory = Path(tempfile.mkdtemp(prefix="groundcheck-fuzz-"))

    def one(self, target: str, report: str, payload: bytes) -> None:
        """Run one input through ``target``; raises :class:`oracle.Violation`."""
        self.inputs[target] += 1
        if target == "extract":
            oracle.check_extract(report)
        elif target == "audit":
            try:
                output: Any = json.loads(payload.decode("utf-8", "surrogatepass"))
            except (ValueError, RecursionError):  # not JSON: the output is that text
                output = payload.decode("utf-8", "replace")
            oracle.check_audit(report, output)
        elif target == "load":
            oracle.check_load(payload, self.directory)
        else:
            fmt = ("text", "json", "sarif", "github", "html")[len(payload) % 5]
            oracle.check_cli(report.encode("utf-8", "surrogatepass"), payload, self.directory, fmt)
        total = sum(self.inputs.values())
        if self.args.time_every and total % self.args.time_every == 0 and report.strip():
            self.check_time(report)

    def check_time(self, report: str) -> None:
        """Two budgets for the amplified report: it costs at most ``--ratio`` times its benign
        twin of the same size, and quadrupling it costs at most ``--ratio`` times as much
        (linear is 4x, quadratic 16x)."""
        size = self.args.amplify
        hostile = (report * (size // max(1, len(report)) + 1))[:size]
        paragraph = BENIGN * 3 + "\n\n"
        twin = (paragraph * (size // len(paragraph) + 1))[:size]
        slow, fast = _cost(hostile), _cost(twin)
        quarter = _cost(hostile[: size // 4])
        self.timed += 1
        ratio = slow / max(fast, 1e-3)
        growth = slow / max(quarter, 1e-3)
        self.worst_ratio = max(self.worst_ratio, ratio)
        self.worst_growth = max(self.worst_growth, growth)
        if slow > self.args.ratio * fast + 0.05:
            raise oracle.Violation(
                f"time: {slow:.3f}s for {size:,} hostile characters, {fast:.3f}s for the benign "
                f"twin ({ratio:.1f}x > {self.args.ratio}x)"
            )
        if slow > self.args.ratio * quarter + 0.05:
            raise oracle.Violation(
                f"time: {slow:.3f}s for {size:,} characters, {quarter:.3f}s for a quarter of "
                f"them ({growth:.1f}x > {self.args.ratio}x): cost grows faster than the input"
            )

    def record(self, target: str, report: str, payload: bytes, problem: str) -> None:
        self.violations.append((target, problem))
        CRASHES.mkdir(exist_ok=True)
        blob = json.dumps(
            {"target": target, "report": report, "payload": payload.decode("latin-1")},
            ensure_ascii=True,
        ).encode()
        name = f"{target}-{hashlib.sha256(blob).hexdigest()[:12]}.json"
        (CRASHES / name).write_bytes(blob)
        print(f"VIOLATION [{target}] {problem[:300]} -> {CRASHES / name}", flush=True)

    def summary(self, seconds: float) -> str:
        total = sum(self.inputs.values())
        parts = ", ".join(f"{t} {self.inputs[t]:,}" for t in TARGETS)
        return (
            f"{total:,} inputs in {seconds:.0f}s ({parts}); {self.timed} amplified to "
            f"{self.args.amplify:,} chars and timed (worst {self.worst_ratio:.1f}x the benign twin, "
            f"{self.worst_growth:.1f}x for 4x the size); "
            f"{len(self.violations)} violation(s)"
        )


def _cost(text: str) -> float:
    """Best of two CPU times of one audit of ``text`` (exceptions are the oracle's business)."""
    from groundcheck import audit

    calls = [{"tool": "search", "output": "arXiv:2005.11401 Attention Is All You Need"}]
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        with contextlib.suppress(Exception):
            audit(text, calls)
        best = min(best, time.process_time() - start)
    return best


# -- the random driver ----------------------------------------------------------------------


def _seeds() -> list[bytes]:
    seeds = [p.read_bytes() for p in sorted(FIXTURES.glob("*.json*")) if p.stat().st_size < 200_000]
    return seeds or [b"[]"]


def _mutate(rng: random.Random, data: bytes) -> bytes:
    fragments = [f.encode("utf-8", "surrogatepass") for f in oracle.FRAGMENTS]
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(6)
        at = rng.randint(0, len(data))
        if op == 0:
            data[at:at] = rng.choice(fragments)
        elif op == 1 and data:
            end = min(len(data), at + rng.randint(1, 64))
            del data[at:end]
        elif op == 2:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 3 and data:
            end = min(len(data), at + rng.randint(1, 256))
            data[at:at] = data[at:end] * rng.randint(2, 20)
        elif op == 4:
            del data[at:]
        else:
            data[at:at] = oracle.BIG.encode()
    return bytes(data)


def _report(rng: random.Random) -> str:
    pieces = [rng.choice(oracle.FRAGMENTS) for _ in range(rng.randint(0, 40))]
    if rng.random() < 0.3:
        pieces.append("".join(chr(rng.randrange(0x110000)) for _ in range(rng.randint(1, 20))))
    return "".join(pieces)


def random_engine(run: Run) -> None:
    rng = random.Random(run.args.seed)
    seeds = _seeds()
    deadline = time.monotonic() + run.args.seconds
    while time.monotonic() < deadline:
        target = rng.choice(run.args.targets)
        report = _report(rng)
        payload = _mutate(rng, rng.choice(seeds))
        try:
            run.one(target, report, payload)
        except oracle.Violation as exc:
            run.record(target, report, payload, str(exc))


# -- atheris ----------------------------------------------------------------------------------


def atheris_engine(run: Run) -> None:
    import atheris  # type: ignore[import-not-found]

    def test_one(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        target = run.args.targets[fdp.ConsumeIntInRange(0, len(run.args.targets) - 1)]
        report = fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 4096))  # surrogates included
        payload = fdp.ConsumeBytes(fdp.remaining_bytes())
        run.one(target, report, payload)

    atheris.instrument_all()  # coverage feedback from groundcheck (imported by the oracle)
    argv = [sys.argv[0], f"-max_total_time={int(run.args.seconds)}", *run.args.atheris_args]
    atheris.Setup(argv, test_one)
    atheris.Fuzz()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", choices=("auto", "atheris", "random"), default="auto")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--targets", nargs="+", choices=TARGETS, default=list(TARGETS))
    parser.add_argument("--time-every", type=int, default=200, metavar="N")
    parser.add_argument("--amplify", type=int, default=100_000, metavar="CHARS")
    parser.add_argument("--ratio", type=float, default=10.0)
    parser.add_argument("atheris_args", nargs="*", help="passed on to libFuzzer")
    args = parser.parse_args(argv)
    engine: Callable[[Run], None] = random_engine
    if args.engine != "random":
        try:
            import atheris  # type: ignore[import-not-found]  # noqa: F401
        except ImportError:
            if args.engine == "atheris":
                raise SystemExit("atheris is not installed: pip install atheris") from None
        else:
            engine = atheris_engine
    run = Run(args)
    started = time.monotonic()
    import atexit

    atexit.register(lambda: print(run.summary(time.monotonic() - started), flush=True))
    engine(run)


if __name__ == "__main__":
    main()
