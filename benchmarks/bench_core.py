"""Core benchmark: extraction speed against the seed check, import time, CLI cold start.

Run: ``python benchmarks/bench_core.py [--mb 10] [--repeat 5]``. Every figure is measured in
this run, on this machine, against a baseline measured in the same run, and printed with the
ratio. Targets (issue 2): extraction of all built-in schemes <= 1.0x one pass of the seed's
``re.findall(r"\\b(\\d{4}\\.\\d{4,5})\\b", text)``.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

SEED_PATTERN = re.compile(r"\b(\d{4}\.\d{4,5})\b")

WORDS = (
    "the of and a to in is was for on that with as by at from we model results table method "
    "show data train test accuracy baseline improves over prior work section figure see also "
    "3.5 1.2% 0.05 12.345 2019 2020 p. 45 (n=120) e.g., i.e., et al. [12] v1.2.3 10.5 1024.5678"
).split()


Key = tuple[str, str]


def make_corpus(megabytes: float, seed: int = 7) -> tuple[str, list[Key]]:
    """Prose-like text with a few thousand identifiers in every written form, and their keys.

    Returns the text and the canonical (scheme, id) of every planted identifier, in order:
    the corpus truth that recall and precision are measured against.
    """
    rng = random.Random(seed)

    def modern(digits: int = 5, lo: int = 15, hi: int = 25) -> str:
        seq = rng.randint(1, 10**digits - 1)
        return f"{rng.randint(lo, hi):02d}{rng.randint(1, 12):02d}.{seq:0{digits}d}"

    def bare() -> tuple[str, list[Key]]:
        i = modern()
        return i, [("arxiv", i)]

    def prefixed() -> tuple[str, list[Key]]:
        i = modern()
        return f"arXiv:{i}v{rng.randint(1, 5)}", [("arxiv", i)]

    def url() -> tuple[str, list[Key]]:
        i = modern(4, 8, 14)
        return f"https://arxiv.org/abs/{i}", [("arxiv", i)]

    def legacy() -> tuple[str, list[Key]]:
        i = f"hep-th/{rng.randint(92, 99):02d}{rng.randint(1, 12):02d}{rng.randint(1, 999):03d}"
        return i, [("arxiv", i)]

    def legacy_class() -> tuple[str, list[Key]]:
        n = f"0{rng.randint(0, 6)}{rng.randint(1, 12):02d}{rng.randint(1, 999):03d}"
        return f"math.AG/{n}v2", [("arxiv", f"math/{n}")]

    def doi() -> tuple[str, list[Key]]:
        d = f"10.{rng.randint(1000, 99999)}/j.x.{rng.randint(1, 10**6)}"
        return f"doi:{d}", [("doi", d)]

    def arxiv_doi() -> tuple[str, list[Key]]:
        i = modern()
        return f"https://doi.org/10.48550/arXiv.{i}", [("doi", f"10.48550/arxiv.{i}")]

    forms = [bare, prefixed, url, legacy, legacy_class, doi, arxiv_doi]
    target = int(megabytes * 1_000_000)
    parts: list[str] = []
    truth: list[Key] = []
    size = 0
    while size < target:
        if rng.random() < 0.0025:
            token, keys = rng.choice(forms)()
            truth.extend(keys)
        else:
            token = rng.choice(WORDS)
        parts.append(token)
        size += len(token) + 1
    return " ".join(parts), truth


def best_of(repeat: int, func: Callable[[], Any]) -> tuple[float, Any]:
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - t0)
    return min(times), result


def fresh(text: str) -> str:
    """An equal copy of ``text`` that is a new object: the extractors keep what they found in
    the last texts they read (the shared literal prefilter), keyed on the object, so each
    timed round gets a text they have not seen, as a real run does."""
    return (text + " ")[:-1]


def best_of_fresh(repeat: int, func: Callable[[str], Any], text: str) -> tuple[float, Any]:
    """:func:`best_of` of ``func(copy)``, a fresh copy of ``text`` each round (made untimed)."""
    times = []
    result = None
    for _ in range(repeat):
        copy = fresh(text)
        t0 = time.perf_counter()
        result = func(copy)
        times.append(time.perf_counter() - t0)
    return min(times), result


def subprocess_seconds(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    import groundcheck
    from groundcheck.extractors import extract
    from groundcheck.extractors.builtin import BUILTIN

    text, planted = make_corpus(args.mb)
    truth = set(planted)
    print(
        f"corpus: {len(text) / 1e6:.1f} MB, {len(planted)} planted identifiers "
        f"({len(truth)} distinct), plus decimals such as 1024.5678 and 12.345"
    )

    seed_s, seed_found = best_of(args.repeat, lambda: SEED_PATTERN.findall(text))
    ids_only = tuple(e for e in BUILTIN if e.name != "title")
    ours_s, ours_found = best_of_fresh(args.repeat, lambda t: extract(t, extractors=ids_only), text)
    all_s, all_found = best_of_fresh(args.repeat, lambda t: extract(t, extractors=BUILTIN), text)
    valid = [c for c in ours_found if c.malformed is None]
    print()
    print(f"{'extraction':<44}{'time':>10}{'found':>8}{'ratio':>9}")
    print(
        f"{'seed re.findall (modern arXiv only)':<44}{seed_s * 1e3:>8.1f}ms{len(seed_found):>8}{1.0:>8.2f}x"
    )
    print(
        f"{'groundcheck extract (every scheme but titles)':<44}{ours_s * 1e3:>8.1f}ms{len(valid):>8}{ours_s / seed_s:>8.2f}x"
    )
    titles = sum(1 for c in all_found if c.scheme == "title")
    print(
        f"{'  + title candidates (every scheme)':<44}{all_s * 1e3:>8.1f}ms"
        f"{titles:>8}{all_s / seed_s:>8.2f}x"
    )
    print(f"  target <= 1.00x (identifier schemes): {'met' if ours_s <= seed_s else 'NOT met'}")
    for name, keys in (
        ("seed check", [("arxiv", s) for s in seed_found]),
        ("groundcheck", [(c.scheme, c.id) for c in valid]),
    ):
        found = set(keys)
        precision = len(found & truth) / len(found) if found else 1.0
        recall = len(found & truth) / len(truth)
        print(f"  {name:<12} precision {precision:6.1%}  recall {recall:6.1%}  (distinct ids)")

    # Linear cost: the same corpus five times over costs about five times as much.
    big = text * 5
    big_s, _ = best_of_fresh(
        max(1, args.repeat // 2), lambda t: extract(t, extractors=ids_only), big
    )
    print(
        f"{'5x corpus (' + format(len(big) / 1e6, '.0f') + ' MB) extraction':<44}{big_s * 1e3:>8.1f}ms"
        f"{'':>8}{big_s / ours_s:>8.2f}x of 1x (linear = 5.00x)"
    )

    report = text[:2_000_000]
    calls = [
        {"tool": "search", "output": text[i : i + 20_000]} for i in range(0, 2_000_000, 20_000)
    ]
    audit_s, verdict = best_of(args.repeat, lambda: groundcheck.audit(report, calls))
    print(
        f"{'audit: 2 MB report vs 100 calls of 20 kB':<44}{audit_s * 1e3:>8.1f}ms"
        f"{len(verdict.citations):>8} citations"
    )

    py = sys.executable
    repeat = max(5, args.repeat)
    bare = subprocess_seconds([py, "-c", "pass"], repeat)
    imp = subprocess_seconds([py, "-c", "import groundcheck"], repeat)
    helps = subprocess_seconds([py, "-m", "groundcheck", "--help"], repeat)
    print()
    print(f"{'start-up (median of ' + str(repeat) + ')':<44}{'time':>10}{'over bare python':>20}")
    print(f"{'python -c pass':<44}{bare * 1e3:>8.1f}ms{'':>20}")
    print(f"{'import groundcheck':<44}{imp * 1e3:>8.1f}ms{(imp - bare) * 1e3:>18.1f}ms")
    print(
        f"{'groundcheck --help (cold start)':<44}{helps * 1e3:>8.1f}ms{(helps - bare) * 1e3:>18.1f}ms"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of this benchmark process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
