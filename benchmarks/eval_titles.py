"""Precision and recall of title matching, per rule and threshold, on two labelled sets.

Run: ``python benchmarks/eval_titles.py [--markdown] [--scorers]``.

- ``benchmarks/data/titles_real.json``: titles as real agents wrote them in four literature
  reviews (Claude Code, Codex, Gemini CLI) and titles as real tools returned them (paper-finder
  JSON, Claude Code web search), labelled by hand; provenance (repository, path, commit) inside.
- ``benchmarks/data/title_variants.json``: 64 real arXiv titles and 101 labelled ways to cite
  them, or to cite a paper that was not returned (the set the threshold was first chosen on).

Every query is looked up among all the set's evidence titles. A match is *right* when the
matched title names the labelled paper, a *false match* when it names another paper (or the
query names no returned paper: a section heading, an invented title). Precision is right /
(right + false); recall is right / queries that name a returned paper. "warned" is the share
of queries naming a returned paper that match nothing (they would get ``unverified-title``).

Rules are measured three ways: none (the matcher before the rules), each rule alone on top of
none, and all rules minus each one; a rule is kept only if removing it from the full set
loses right matches and adds no false match (``docs/titles.md``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from groundcheck.grounding.title_index import TitleIndex
from groundcheck.grounding.title_rules import ALL_RULES, RULES, RuleSet

DATA = Path(__file__).parent / "data"
THRESHOLDS = (80, 85, 88, 90, 92, 95)
DEFAULT = 90


class LabelledSet:
    """Evidence titles, each with the paper it names, and queries with the paper they name."""

    def __init__(
        self, name: str, titles: list[str], papers: list[str], queries: list[dict[str, Any]]
    ):
        self.name = name
        self.titles = titles
        self.papers = papers
        self.queries = queries

    @property
    def positives(self) -> int:
        return sum(q["expect"] is not None for q in self.queries)


def load_real() -> LabelledSet:
    data = json.loads((DATA / "titles_real.json").read_text("utf-8"))
    titles = [e["title"] for e in data["evidence"]]
    # A distractor (no paper label) names a paper of its own: matching it is always wrong.
    papers = [e["paper"] or f"distractor-{i}" for i, e in enumerate(data["evidence"])]
    return LabelledSet("real agent outputs", titles, papers, data["queries"])


def load_variants() -> LabelledSet:
    data = json.loads((DATA / "title_variants.json").read_text("utf-8"))
    titles = [e["title"] for e in data["evidence"]]
    papers = [e["id"] for e in data["evidence"]]
    return LabelledSet("variants of real titles", titles, papers, data["queries"])


def predict(labelled: LabelledSet, rules: RuleSet, threshold: float) -> list[str | None]:
    index = TitleIndex(labelled.titles, rules)
    out: list[str | None] = []
    for q in labelled.queries:
        match = index.best(q["text"], threshold)
        out.append(None if match is None else labelled.papers[match.index])
    return out


def score(labelled: LabelledSet, predicted: list[str | None]) -> dict[str, Any]:
    right = wrong = 0
    false: list[str] = []
    missed: list[str] = []
    for q, p in zip(labelled.queries, predicted, strict=True):
        if p is None:
            if q["expect"] is not None:
                missed.append(q["text"])
        elif p == q["expect"]:
            right += 1
        else:
            wrong += 1
            false.append(q["text"])
    positives = labelled.positives
    negatives = len(labelled.queries) - positives
    return {
        "precision": right / (right + wrong) if right + wrong else 1.0,
        "recall": right / positives if positives else 1.0,
        "false": wrong,
        "warned": len(missed) / positives if positives else 0.0,
        "negatives_quiet": (
            negatives
            - sum(
                1
                for q, p in zip(labelled.queries, predicted, strict=True)
                if q["expect"] is None and p is not None
            )
        )
        / negatives
        if negatives
        else 1.0,
        "false_queries": false,
        "missed_queries": missed,
        "right": right,
    }


def configurations() -> list[tuple[str, RuleSet]]:
    rows = [("none (before the rules)", RuleSet.none())]
    rows += [(f"+ {name}", RuleSet.none().only(name)) for name in RULES]
    rows += [("all rules", ALL_RULES)]
    rows += [(f"all - {name}", ALL_RULES.without(name)) for name in RULES]
    return rows


def table(labelled: LabelledSet, markdown: bool, emit: Callable[[str], None]) -> None:
    emit(
        f"{labelled.name}: {len(labelled.titles)} evidence titles, {len(labelled.queries)} "
        f"queries ({labelled.positives} name a returned paper)\n"
    )
    head = (
        ["rules"] + [f"P/R @{t}" for t in THRESHOLDS] + [f"false @{DEFAULT}", f"warned @{DEFAULT}"]
    )
    if markdown:
        emit("| " + " | ".join(head) + " |")
        emit("|" + "---|" * len(head))
    else:
        emit("  ".join(f"{h:>14}" for h in head))
    for name, rules in configurations():
        cells = [name]
        at_default: dict[str, Any] = {}
        for t in THRESHOLDS:
            s = score(labelled, predict(labelled, rules, t))
            cells.append(f"{s['precision']:.3f}/{s['recall']:.3f}")
            if t == DEFAULT:
                at_default = s
        cells += [str(at_default["false"]), f"{at_default['warned']:.1%}"]
        emit("| " + " | ".join(cells) + " |" if markdown else "  ".join(f"{c:>14}" for c in cells))
    emit("")


def contributions(labelled: LabelledSet, emit: Callable[[str], None]) -> None:
    """What each rule adds to the full set at the default threshold: right matches, false ones."""
    full = score(labelled, predict(labelled, ALL_RULES, DEFAULT))
    emit(f"{labelled.name}, at {DEFAULT}: what removing each rule from the full set changes")
    for name in RULES:
        without = score(labelled, predict(labelled, ALL_RULES.without(name), DEFAULT))
        gained = full["right"] - without["right"]
        added_false = sorted(set(full["false_queries"]) - set(without["false_queries"]))
        emit(
            f"  {name:<14} right matches it adds: {gained:>3}   false matches it adds: {len(added_false)}"
        )
        for text in added_false:
            emit(f"      false: {text!r}")
    emit(
        f"  all rules: precision {full['precision']:.3f}, recall {full['recall']:.3f}, "
        f"{full['false']} false, {full['warned']:.1%} of returned titles warned"
    )
    for text in full["false_queries"]:
        emit(f"      false match: {text!r}")
    for text in full["missed_queries"]:
        emit(f"      warned:      {text!r}")
    emit("")


def harvest(emit: Callable[[str], None]) -> None:
    """Evidence side: which labelled titles each real tool output yields, and what else."""
    from groundcheck.evidence.trace import make_evidence
    from groundcheck.extractors.builtin import BUILTIN

    data = json.loads((DATA / "real_tool_outputs.json").read_text("utf-8"))
    emit(
        "evidence titles harvested from real tool outputs (benchmarks/data/real_tool_outputs.json)"
    )
    emit(
        f"  {'output':<20}{'titles':>8}{'found':>7}{'other strings':>15}{'works':>7}{'with year':>11}"
    )
    total = found_total = 0
    for out in data["outputs"]:
        ev = make_evidence(out["tool"], out["id"], out["output"], BUILTIN)
        wanted = out["titles"]
        found = sum(t in ev.titles for t in wanted)
        extra = [t for t in ev.titles if t not in wanted]
        total += len(wanted)
        found_total += found
        dated = sum(w.year is not None for w in ev.works)
        emit(
            f"  {out['id']:<20}{len(wanted):>8}{found:>7}{len(extra):>15}{len(ev.works):>7}{dated:>11}"
        )
        for t in extra:
            emit(f"      also harvested: {t!r}")
    emit(f"  recall {found_total}/{total}\n")


CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"


def _corpus_evidence(paths: list[Path]) -> Any:
    """Each case's evidence as groundcheck reads it; an export no trace format reads (a CSV or
    JSON of search results) is one tool output, and a pydantic-ai history its tool returns."""
    from groundcheck.errors import UnknownFormat
    from groundcheck.evidence import load_evidence
    from groundcheck.evidence.trace import make_evidence
    from groundcheck.extractors.builtin import BUILTIN
    from groundcheck.model import EvidenceSet

    calls: list[Any] = []
    for path in paths:
        try:
            calls.extend(load_evidence(path).evidence.calls)
            continue
        except UnknownFormat:
            pass
        text = path.read_text("utf-8")
        if path.suffix not in (".json", ".csv"):
            continue  # not a trace and not an export: the agent's own text, not evidence
        if path.suffix == ".csv":
            calls.append(make_evidence("records", path.name, text, BUILTIN))
            continue
        data = json.loads(text)
        returns = _tool_returns(data)
        outputs = returns if returns else [data]
        calls.extend(
            make_evidence("records", f"{path.name}#{i}", out, BUILTIN)
            for i, out in enumerate(outputs)
        )
    return EvidenceSet(calls)


def _tool_returns(data: Any) -> list[Any]:
    """The contents of pydantic-ai ``tool-return`` parts, in order (none: not such a history)."""
    found: list[Any] = []
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if value.get("part_kind") == "tool-return":
                found.append(value.get("content"))
                continue
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, list):
            stack.extend(reversed(value))
    return found


def corpus(emit: Callable[[str], None]) -> None:
    """End to end on tests/corpus (real runs, hand labels): evidence harvest and matching."""
    if not (CORPUS / "cases.py").is_file():
        emit("tests/corpus not found: skipped\n")
        return
    import sys

    from groundcheck.grounding import EvidenceTitles

    sys.path.insert(0, str(CORPUS))
    from cases import load_cases  # type: ignore[import-not-found]

    cases = [(c, _corpus_evidence(list(c.evidence_paths))) for c in load_cases()]
    labels = sum(
        1 for c, _ in cases for lb in c.labels if lb.kind == "title" and lb.expected != "uncertain"
    )
    emit(f"tests/corpus: {len(cases)} real runs, {labels} title labels (uncertain ones skipped)")
    emit(
        f"  {'rules':<24}{'grounded found':>16}{'unreturned quiet':>18}{'non-titles unmatched':>22}"
    )
    for name, rules in (("none (before the rules)", RuleSet.none()), ("all rules", ALL_RULES),
                        *((f"all - {r}", ALL_RULES.without(r)) for r in RULES)):  # fmt: skip
        tally = {"grounded": [0, 0], "not-in-evidence": [0, 0], "not-a-title": [0, 0]}
        misses: list[str] = []
        for case, evidence in cases:
            titles = EvidenceTitles(evidence, rules)
            for lb in case.labels:
                if lb.kind != "title" or lb.expected not in tally:
                    continue
                matched = titles.match(lb.text, DEFAULT) is not None
                # A non-title that matches is no false alarm (nothing is warned); count it apart.
                good = matched if lb.expected == "grounded" else not matched
                tally[lb.expected][0] += good
                tally[lb.expected][1] += 1
                if not good:
                    misses.append(f"{case.name}: {lb.expected}: {lb.text!r}")
        cells = [f"{a}/{b}" for a, b in tally.values()]
        emit(f"  {name:<24}{cells[0]:>16}{cells[1]:>18}{cells[2]:>22}")
        if name == "all rules":
            full_misses = misses
    for m in full_misses:
        emit(f"      with all rules, wrong: {m}")
    emit("")


def scorers(emit: Callable[[str], None]) -> None:
    """The scorer comparison that chose Levenshtein (same normalisation and forms for all)."""
    from rapidfuzz import fuzz, process

    labelled = load_variants()
    index = TitleIndex(labelled.titles, RuleSet.none())
    for name, scorer in (("ratio", fuzz.ratio), ("token_set_ratio", fuzz.token_set_ratio),
                         ("WRatio", fuzz.WRatio)):  # fmt: skip
        emit(f"{name}")
        for t in THRESHOLDS:
            predicted: list[str | None] = []
            from groundcheck.extractors.title import normalize_title

            for q in labelled.queries:
                hit = process.extractOne(normalize_title(q["text"]), index.choices, scorer=scorer,
                                         processor=None, score_cutoff=t)  # fmt: skip
                predicted.append(None if hit is None else labelled.papers[index.owners[hit[2]]])
            s = score(labelled, predicted)
            emit(
                f"  {t}: precision {s['precision']:.3f} recall {s['recall']:.3f} false {s['false']}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--markdown", action="store_true", help="print markdown tables")
    parser.add_argument("--scorers", action="store_true", help="also compare rapidfuzz scorers")
    args = parser.parse_args()
    for labelled in (load_real(), load_variants()):
        table(labelled, args.markdown, print)
        contributions(labelled, print)
    harvest(print)
    corpus(print)
    if args.scorers:
        scorers(print)


if __name__ == "__main__":
    main()
