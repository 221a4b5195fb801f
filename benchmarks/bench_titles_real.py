"""The title index against brute force on titles real agents wrote (benchmarks/data/titles_real.json).

Run: ``python benchmarks/bench_titles_real.py [--rounds 5]``. The evidence titles and cited
titles of four literature reviews (provenance in the data file). Brute force scores every
query form against every searchable form of every title under every rule (whole forms,
prefixes, cut titles) with the same scorer and cutoff; the index builds and answers every
query. Printed: median CPU time of each over the rounds, the ratio, and whether the answers
are identical (they must be).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from rapidfuzz.distance import Levenshtein  # noqa: E402

from groundcheck.grounding.title_index import TitleIndex, _continues, _head  # noqa: E402
from groundcheck.grounding.title_rules import cut_prefix, prefix_of, query_forms  # noqa: E402

THRESHOLD = 90.0


def brute(index: TitleIndex, query: str, threshold: float) -> tuple[int, float] | None:
    cutoff = threshold / 100
    best: tuple[float, int, int, int] | None = None
    for rank, form in enumerate(query_forms(query, index.rules)):
        q = form.text
        if not q:
            continue
        for j, choice in enumerate(index.choices):
            scored = [(Levenshtein.normalized_similarity(q, choice, score_cutoff=cutoff), 0)]
            p = prefix_of(q, choice) if index.prefixable[j] else None
            if p is not None:
                scored.append((Levenshtein.normalized_similarity(q, p, score_cutoff=cutoff), 1))
            for score, how in scored:
                if score and score >= cutoff:
                    key = (-score * 100, how, index.owners[j], rank)
                    best = key if best is None or key < best else best
        for owner, title in enumerate(index.titles):
            cut = cut_prefix(title, index.rules)
            if cut is not None and _head(q) == _head(cut) and _continues(q, cut):
                key = (-100.0, 2, owner, rank)
                best = key if best is None or key < best else best
    return None if best is None else (best[2], -best[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    data = json.loads((HERE / "data" / "titles_real.json").read_text("utf-8"))
    titles = [e["title"] for e in data["evidence"]]
    queries = [q["text"] for q in data["queries"]]
    reference = TitleIndex(titles)
    index_times, brute_times = [], []
    for _ in range(args.rounds):
        t = time.process_time()
        index = TitleIndex(titles)
        found = [index.best(q, THRESHOLD) for q in queries]
        index_times.append(time.process_time() - t)
        t = time.process_time()
        expected = [brute(reference, q, THRESHOLD) for q in queries]
        brute_times.append(time.process_time() - t)
    same = all(
        (f is None and e is None)
        or (
            f is not None
            and e is not None
            and (f.index, round(f.score, 6)) == (e[0], round(e[1], 6))
        )
        for f, e in zip(found, expected, strict=True)
    )
    ix, bf = statistics.median(index_times), statistics.median(brute_times)
    print(f"title index on real titles: {len(titles)} evidence titles, {len(queries)} cited titles")
    print(f"  brute force (every form, every rule)  {bf * 1e3:8.1f} ms CPU")
    print(f"  TitleIndex build + queries            {ix * 1e3:8.1f} ms CPU")
    print(f"  speed-up                              {bf / ix:8.1f}x   answers identical: {same}")


if __name__ == "__main__":
    main()
