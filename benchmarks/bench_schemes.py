"""In-process extraction per scheme, against the seed's one regex on the same text.

Run: ``python benchmarks/bench_schemes.py [--mb 10] [--rounds 5]``. On bench_core's corpus
(the one ``bench_process.py`` runs the CLI on), in one process, CPU time, the median of
``--rounds`` rounds, each on a fresh copy of the text (the extractors keep what they found in
the last texts they read, keyed on the object; a real run reads its text once):

- the seed: ``re.findall(r"\\b(\\d{4}\\.\\d{4,5})\\b", text)``, modern arXiv ids only;
- ``groundcheck.extract(text)`` with every built-in scheme (titles on, as the CLI runs it),
  and with every scheme but titles; MB/s and the ratio to the seed (issue 17: >= 150 MB/s);
- each stage of that extraction, in the pipeline's order on one fresh text: the text view,
  every extractor (work shared by several extractors, such as the literal prefilter, is
  counted where it is first done), and what follows them (overlaps, line and column,
  citation objects), each with its MB/s and its ratio to the seed.

The cyclic garbage collector is off while extracting, as in ``groundcheck extract`` (which
turns it off: its objects hold no cycles).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import SEED_PATTERN, fresh, make_corpus


def _cpu(func: Callable[[], Any]) -> tuple[float, Any]:
    gc.disable()
    try:
        t0 = time.process_time()
        result = func()
        return time.process_time() - t0, result
    finally:
        gc.enable()


def _stages(text: str) -> dict[str, float]:
    """CPU seconds of each stage of one extraction of ``text`` (a fresh copy), in order."""
    from groundcheck.extractors.builtin import BUILTIN
    from groundcheck.extractors.pipeline import _run, resolve_overlaps
    from groundcheck.model import Citation
    from groundcheck.text import TextView, locate

    out: dict[str, float] = {}
    out["text view"], view = _cpu(lambda: TextView.of(text))
    found: list[Any] = []
    later = [e for e in BUILTIN if callable(getattr(e, "find_beside", None))]
    for extractor in (e for e in BUILTIN if e not in later):
        out[extractor.name], got = _cpu(lambda e=extractor: _run(e, view.text))
        found.extend(got)
    first = [m for m, _ in found]
    for extractor in later:
        out[extractor.name], got = _cpu(lambda e=extractor: _run(e, view.text, first))
        found.extend(got)

    def place() -> int:
        mentions = resolve_overlaps(found)
        spans = [view.to_original(m.start, m.end) for m, _ in mentions]
        places = locate(text, [s for s, _ in spans])
        cite = Citation._trusted
        return len(
            [
                cite(
                    m.identifier, text[s:e], s, e, ln, col, n, m.malformed, m.aliases, None, m.kind
                )
                for (m, n), (s, e), (ln, col) in zip(mentions, spans, places, strict=True)
            ]
        )

    out["overlaps, lines, citations"], _ = _cpu(place)
    return out


def measure(megabytes: float, rounds: int) -> dict[str, Any]:
    from groundcheck.extractors import extract
    from groundcheck.extractors.builtin import BUILTIN

    text, _ = make_corpus(megabytes)
    ids_only = tuple(e for e in BUILTIN if e.name != "title")
    extract(text[:20_000])  # untimed: imports and patterns compiled on first use
    samples: dict[str, list[float]] = {"seed": [], "all": [], "ids": []}
    stages: dict[str, list[float]] = {}
    found = {"seed": 0, "all": 0, "ids": 0}
    for _ in range(rounds):  # interleaved, so load on the machine hits all alike
        copy = fresh(text)
        seconds, result = _cpu(lambda c=copy: SEED_PATTERN.findall(c))
        samples["seed"].append(seconds)
        found["seed"] = len(result)
        for key, extractors in (("all", BUILTIN), ("ids", ids_only)):
            copy = fresh(text)
            seconds, result = _cpu(lambda c=copy, x=extractors: extract(c, extractors=x))
            samples[key].append(seconds)
            found[key] = len(result)
        for name, seconds in _stages(fresh(text)).items():
            stages.setdefault(name, []).append(seconds)
    return {
        "mb": len(text.encode("utf-8")) / 1e6,
        "medians": {k: statistics.median(v) for k, v in samples.items()},
        "stages": {k: statistics.median(v) for k, v in stages.items()},
        "found": found,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    m = measure(args.mb, args.rounds)
    mb, med = m["mb"], m["medians"]
    seed = med["seed"]
    print(
        f"in-process extraction, {mb:.1f} MB corpus, median CPU of {args.rounds} rounds "
        "(gc off, as in the CLI)"
    )
    print(f"  {'':<46}{'time':>10}{'MB/s':>8}{'x seed':>8}{'found':>8}")
    for label, key in (
        ("seed re.findall (modern arXiv only)", "seed"),
        ("groundcheck extract, every scheme", "all"),
        ("groundcheck extract, every scheme but titles", "ids"),
    ):
        s = med[key]
        print(f"  {label:<46}{s * 1e3:>8.1f}ms{mb / s:>8.0f}{s / seed:>8.2f}{m['found'][key]:>8}")
    rate = mb / med["all"]
    verdict = "met" if rate >= 150 else "NOT met"
    print(f"  every scheme: {rate:.0f} MB/s (issue 17 target >= 150 MB/s: {verdict})")
    print("  per stage, in the pipeline's order (shared work counted where first done):")
    for name, s in m["stages"].items():
        speed = f"{mb / s:>8.0f}" if s * 1e5 > mb else "  >99999"
        print(f"    {name:<44}{s * 1e3:>8.1f}ms{speed}{s / seed:>8.2f}")


if __name__ == "__main__":
    main()
