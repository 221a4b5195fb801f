"""Precision and recall of title matching on a labelled set, per scorer and threshold.

Run: ``python benchmarks/eval_titles.py``. The set (``benchmarks/data/title_variants.json``)
holds real paper titles as evidence and labelled ways a report might cite them, or cite a
paper that was not returned. For each query the matcher's best title at or above the
threshold counts as a true positive when it is the labelled paper, a false positive when it
is another one (or when the query names a paper that was not returned). Recall is over the
queries that name a returned paper.

Every scorer sees the same normalised titles and main-title aliases (``TitleIndex.choices``);
groundcheck's own scorer runs through ``TitleIndex`` itself.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from groundcheck.extractors.title import normalize_title
from groundcheck.grounding.title_index import TitleIndex

DATA = Path(__file__).parent / "data" / "title_variants.json"
THRESHOLDS = (70, 75, 80, 85, 88, 90, 92, 95, 98)


def load() -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    data = json.loads(DATA.read_text("utf-8"))
    return data["evidence"], data["queries"]


def levenshtein(a: str, b: str, **kw: Any) -> float:
    cutoff = kw.get("score_cutoff")
    score = Levenshtein.normalized_similarity(a, b)
    return 100.0 * score if cutoff is None or score * 100 >= cutoff else 0.0


SCORERS: dict[str, Callable[..., float]] = {
    "Levenshtein (groundcheck)": levenshtein,
    "ratio": fuzz.ratio,
    "QRatio": fuzz.QRatio,
    "token_sort_ratio": fuzz.token_sort_ratio,
    "token_set_ratio": fuzz.token_set_ratio,
    "partial_ratio": fuzz.partial_ratio,
    "WRatio": fuzz.WRatio,
}


def predictions(
    name: str, threshold: float, index: TitleIndex, ids: list[str], queries: list[str]
) -> list[str | None]:
    out: list[str | None] = []
    for q in queries:
        if name.startswith("Levenshtein"):
            match = index.best(q, threshold)
            out.append(ids[match.index] if match else None)
            continue
        hit = process.extractOne(
            normalize_title(q),
            index.choices,
            scorer=SCORERS[name],
            processor=None,
            score_cutoff=threshold,
        )
        out.append(ids[index.owners[hit[2]]] if hit else None)
    return out


def evaluate(
    expected: list[str | None], predicted: list[str | None]
) -> tuple[float, float, float, int]:
    tp = sum(1 for e, p in zip(expected, predicted, strict=True) if p is not None and p == e)
    fp = sum(1 for e, p in zip(expected, predicted, strict=True) if p is not None and p != e)
    positives = sum(1 for e in expected if e is not None)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / positives if positives else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1, fp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--markdown", action="store_true", help="print markdown tables")
    args = parser.parse_args()
    evidence, queries = load()
    index = TitleIndex(e["title"] for e in evidence)
    ids = [e["id"] for e in evidence]
    texts = [q["text"] for q in queries]
    expected = [q["expect"] for q in queries]
    positives = sum(e is not None for e in expected)
    print(
        f"{len(evidence)} evidence titles; {len(queries)} queries: {positives} name a returned "
        f"paper, {len(queries) - positives} do not\n"
    )
    for name in SCORERS:
        if args.markdown:
            print(
                f"**{name}**\n\n| threshold | precision | recall | F1 | false matches |\n|---|---|---|---|---|"
            )
        else:
            print(
                f"{name}\n  {'threshold':>9} {'precision':>9} {'recall':>7} {'F1':>6} {'false':>6}"
            )
        for t in THRESHOLDS:
            p, r, f1, fp = evaluate(expected, predictions(name, t, index, ids, texts))
            if args.markdown:
                print(f"| {t} | {p:.3f} | {r:.3f} | {f1:.3f} | {fp} |")
            else:
                print(f"  {t:>9} {p:>9.3f} {r:>7.3f} {f1:>6.3f} {fp:>6}")
        print()
    kinds: dict[str, list[int]] = {}
    default = predictions("Levenshtein (groundcheck)", 90, index, ids, texts)
    for q, p in zip(queries, default, strict=True):
        ok = (p == q["expect"]) if q["expect"] else p is None
        kinds.setdefault(q["kind"], [0, 0])[0 if ok else 1] += 1
    print("groundcheck at 90, by kind (right / wrong):")
    for kind, (good, bad) in sorted(kinds.items()):
        print(f"  {kind:<18} {good:>3} / {bad}")
    print("\nwrong at 90:")
    for q, p in zip(queries, default, strict=True):
        if p != q["expect"]:
            got = "nothing" if p is None else p
            print(f"  [{q['kind']}] {q['text']!r}: expected {q['expect'] or 'nothing'}, got {got}")


if __name__ == "__main__":
    main()
