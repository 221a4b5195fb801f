"""Verbatim quotes: index build and search on 10,000 outputs, and hostile inputs.

Run: ``python benchmarks/bench_quotes.py [--outputs 10000] [--quotes 200]``. Every figure is
measured in this run, on this machine:

1. 10,000 tool outputs of real prose: sentences of the corpus's real outputs
   (benchmarks/real_outputs.py) dealt into outputs of 6-30 sentences with a URL each (about
   2 kB apiece). The time to normalise and index them (``QuoteIndex``), then to look up
   ``--quotes`` quotes (half taken from the outputs, half altered by one word), then one full
   ``audit()`` of a report holding 50 of those quotes against all 10,000 outputs.
2. Hostile inputs, audited whole (extraction, quotes, URLs) at the size issue 13 names and at
   four times that: a 1 MB quote, 100,000 quotation marks of each kind, a URL with 10,000 query
   parameters, ``https://a.b/`` + 200,000 ``(``, a 1 MB output of quotation marks. Linear is a
   ratio near 4; the verdict column says what the audit concluded.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from attrs import evolve

sys.path.insert(0, str(Path(__file__).resolve().parent))

from groundcheck import audit
from groundcheck.grounding.quotes import QuoteIndex, quote_pattern
from groundcheck.model import Evidence, EvidenceSet
from real_outputs import real_outputs

_SENTENCE = re.compile(r"[A-Z][^.!?\n]{40,300}[.!?]")


def sentences() -> list[str]:
    found = {m.group() for o in real_outputs() for m in _SENTENCE.finditer(o.text)}
    return sorted(s for s in found if '"' not in s and "\u201c" not in s)


def outputs(n: int, pool: list[str], seed: int = 3) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        body = " ".join(rng.choice(pool) for _ in range(rng.randint(6, 30)))
        out.append((f"call_{i}", f"https://site{i % 997}.example.org/page/{i}\n\n{body}"))
    return out


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def scale(n: int, n_quotes: int) -> None:
    pool = sentences()
    texts = outputs(n, pool)
    chars = sum(len(t) for _, t in texts)
    rng = random.Random(5)
    honest = [
        " ".join(rng.choice(texts)[1].split("\n\n", 1)[1].split()[5:17])
        for _ in range(n_quotes // 2)
    ]
    altered = []
    for q in honest:
        words = q.split()
        words[len(words) // 2] = "purportedly"
        altered.append(" ".join(words))
    print(
        f"1. {n:,} outputs, {chars / 1e6:.1f} MB of real prose ({len(pool):,} distinct sentences)"
    )
    seconds, index = timed(lambda: QuoteIndex(texts))
    print(
        f"   index build (normalise every output)    {seconds * 1e3:>8.0f} ms  {chars / 1e6 / seconds:.1f} MB/s"
    )
    assert isinstance(index, QuoteIndex)
    patterns = [quote_pattern(q) for q in honest + altered]
    seconds, _ = timed(lambda: index.prepare(w for p in patterns for w in p.words))
    print(f"   postings for {len(patterns)} quotes' words (one pass)    {seconds * 1e3:>8.0f} ms")
    seconds, found = timed(lambda: [index.find(p) for p in patterns])
    assert isinstance(found, list)
    hits = sum(1 for f in found[: len(honest)] if f)
    false = sum(1 for f in found[len(honest) :] if f)
    print(
        f"   {len(patterns)} lookups after that                     {seconds * 1e3:>8.1f} ms  "
        f"({seconds / len(patterns) * 1e6:.0f} µs each; honest found {hits}/{len(honest)}, "
        f"altered found {false}/{len(altered)})"
    )
    seconds, _ = timed(lambda: [index.closest(p) for p in patterns[len(honest) :][:20]])
    print(f"   'closest output' hint, per altered quote {seconds / 20 * 1e3:>8.1f} ms")
    evidence = EvidenceSet(Evidence("search", cid, text=t) for cid, t in texts)
    report = "\n\n".join(
        f"The source says “{q}” (https://site{i}.example.org/page/{i})."
        for i, q in enumerate(honest[:25] + altered[:25])
    )
    seconds, verdict = timed(lambda: audit(report, evidence))
    codes = [f.code for f in getattr(verdict, "findings", ())]
    print(
        f"   audit(): 50 quotes vs {n:,} outputs          {seconds * 1e3:>8.0f} ms  "
        f"({codes.count('unverified-quote')} unverified-quote, "
        f"{codes.count('misattributed-quote')} misattributed-quote)"
    )


def _evidence() -> EvidenceSet:
    return EvidenceSet(
        evolve(Evidence("search", o.call_id), text=o.text) for o in real_outputs()[:20]
    )


HOSTILE: list[tuple[str, int, Callable[[int], tuple[str, str | None]]]] = [
    ("a quote of n bytes", 1_000_000, lambda n: ("He said “" + "word " * (n // 5) + "”.", None)),
    ('n straight quotation marks "', 100_000, lambda n: ('"' * n, None)),
    ("n opening marks “", 100_000, lambda n: ("\u201c" * n, None)),
    ("n closing marks ”", 100_000, lambda n: ("\u201d" * n, None)),
    ("n/14 six-word quotes", 100_000, lambda n: ('"a b c d e f" ' * (n // 14), None)),
    ("n block-quote lines", 100_000, lambda n: ("> a b c\n" * n, None)),
    ("a URL with n query parameters", 10_000, lambda n: (
        "See https://x.org/a?" + "&".join(f"p{i}=1" for i in range(n)) + " now.", None)),
    ("https://a.b/ + n (", 200_000, lambda n: ("https://a.b/" + "(" * n, None)),
    ("an output of n quotation marks", 1_000_000, lambda n: ("He said “a b c d e f g”.", '"' * n)),
    ("an output of n/5 equal words", 1_000_000, lambda n: (
        "He said “word word word word word word x”.", "word " * (n // 5))),
]  # fmt: skip
"""(what, n as the issue names it, make(n) -> (report, extra output or None))."""


def hostile() -> None:
    base = _evidence()
    print("\n2. hostile inputs: audit() at the size the issue names (n) and at 4n (linear: ~4x)")
    print(f"   {'input':<34}{'n':>10}{'at n':>9}{'at 4n':>9}{'ratio':>7}  verdict at n")
    for name, n, make in HOSTILE:
        times = []
        codes: list[str] = []
        for size in (n, 4 * n):
            report, output = make(size)
            ev = base
            if output is not None:
                ev = EvidenceSet((*base.calls, Evidence("fetch", "big", text=output)))
            audit(report[:100], ev)  # warm up the caches of this evidence
            seconds, verdict = timed(lambda report=report, ev=ev: audit(report, ev))
            times.append(seconds)
            if size == n:
                codes = sorted({f.code for f in getattr(verdict, "findings", ())}) or ["clean"]
        print(
            f"   {name:<34}{n:>10,}{times[0] * 1e3:>7.0f}ms{times[1] * 1e3:>7.0f}ms"
            f"{times[1] / max(times[0], 1e-9):>7.1f}  {', '.join(codes)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--outputs", type=int, default=10_000)
    parser.add_argument("--quotes", type=int, default=200)
    parser.add_argument("--no-hostile", action="store_true", help="skip the hostile table")
    args = parser.parse_args()
    scale(args.outputs, args.quotes)
    if not args.no_hostile:
        hostile()


if __name__ == "__main__":
    main()
