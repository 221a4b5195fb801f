"""Audit at realistic scale, against the seed's naive whole check, measured in the same run.

The case (issue 17): a 100 KB literature review audited against 10,000 returned records —
100 searches x 100 papers, each with an id, a title, authors and an abstract. The baseline is
what the seed did for the whole job: load the JSON, one regex over every output and the
report, a set difference. Run: ``python benchmarks/bench_audit_scale.py [--repeat 5]``.

Printed: median CPU time of each, the ratio (target <= 2x), and each stage of groundcheck's
audit (loading the evidence, extracting the report's citations, the title index, the checks),
with the steps of loading the evidence measured call by call (flattening each output, its
matching view, identifiers, the title extractor's collapsed copy, titles, records and
listings; the rest of loading is reading the JSON and provenance).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

SEED = re.compile(r"\b(\d{4}\.\d{4,5})\b")

_WORDS = (
    "sparse attention retrieval language model transformer scaling reasoning alignment "
    "agents tool use benchmark evaluation dataset robust efficient learning neural graph "
    "diffusion vision multimodal instruction tuning feedback reward policy optimization "
    "memory long context compression distillation quantization inference planning"
).split()
_NAMES = "Smith Chen Wang Garcia Kumar Müller Rossi Kim Nguyen Silva Cohen Ivanova".split()


def _title(rng: random.Random) -> str:
    words = rng.sample(_WORDS, rng.randint(4, 9))
    head = " ".join(w.capitalize() for w in words)
    if rng.random() < 0.4:
        head += ": " + " ".join(rng.sample(_WORDS, 4)).capitalize()
    return head


def make_case(seed: int = 11) -> tuple[list[dict[str, Any]], str]:
    """(tool calls, report): 100 searches of 100 papers, and a review citing 150 of them."""
    rng = random.Random(seed)
    papers = []
    for i in range(10_000):
        yymm = f"{rng.randint(15, 25):02d}{rng.randint(1, 12):02d}"
        papers.append(
            {
                "arxiv_id": f"{yymm}.{rng.randint(1, 99999):05d}",
                "title": _title(rng),
                "authors": [f"{rng.choice(_NAMES)}, {chr(65 + i % 26)}." for _ in range(3)],
                "published": f"20{yymm[:2]}-{yymm[2:]}-01",
                "abstract": " ".join(rng.choice(_WORDS) for _ in range(100)),
            }
        )
    calls = [
        {
            "tool": "arxiv_search",
            "id": f"call-{k}",
            "input": {"query": " ".join(rng.sample(_WORDS, 3))},
            "output": papers[k * 100 : (k + 1) * 100],
        }
        for k in range(100)
    ]
    cited = rng.sample(papers, 150)
    fabricated = [f"{rng.randint(15, 25):02d}{rng.randint(1, 12):02d}.9{k:04d}" for k in range(5)]
    lines = ["# A review of the field", ""]
    for p in cited:
        para = " ".join(rng.choice(_WORDS) for _ in range(55))
        lines.append(f"## {p['title']}\n\n{para.capitalize()} (arXiv:{p['arxiv_id']}).\n")
    for fake in fabricated:
        lines.append(f"Also see arXiv:{fake}.\n")
    lines.append("## References\n")
    for n, p in enumerate(cited, 1):
        lines.append(f"[{n}] {p['authors'][0]} et al. {p['title']}. arXiv:{p['arxiv_id']}.")
    return calls, "\n".join(lines) + "\n"


def seed_check(evidence_path: Path, report_path: Path) -> set[str]:
    """The seed's whole job: load, one regex over outputs and report, a set difference."""
    calls = json.loads(evidence_path.read_text("utf-8"))
    returned: set[str] = set()
    for call in calls:
        returned.update(SEED.findall(json.dumps(call.get("output"))))
    cited = set(SEED.findall(report_path.read_text("utf-8")))
    return cited - returned


def groundcheck_check(evidence_path: Path, report_path: Path) -> Any:
    import groundcheck

    return groundcheck.audit(report_path.read_text("utf-8"), str(evidence_path))


def cpu(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times = []
    result = None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def stages(evidence_path: Path, report_path: Path) -> list[tuple[str, float]]:
    """Where groundcheck's time goes, stage by stage (one run, CPU seconds)."""
    from groundcheck.document import Document, build_works
    from groundcheck.evidence import load_evidence
    from groundcheck.extractors import extract
    from groundcheck.grounding import EvidenceTitles

    out = []
    t = time.process_time()
    evidence = load_evidence(evidence_path).evidence
    out.append(("load evidence (10,000 records)", time.process_time() - t))
    report = report_path.read_text("utf-8")
    t = time.process_time()
    citations = extract(report)
    out.append((f"extract the report ({len(citations)} citations)", time.process_time() - t))
    t = time.process_time()
    titles = EvidenceTitles(evidence)
    _ = titles.index
    out.append((f"build the title index ({len(titles.titles)} titles)", time.process_time() - t))
    t = time.process_time()
    spans = [(c.start, c.end) for c in citations if not c.is_title]
    build_works(Document(report, spans), citations)
    out.append(("parse the report and build its cited works", time.process_time() - t))
    t = time.process_time()
    import groundcheck

    groundcheck.audit(report, evidence)
    out.append(("audit with evidence loaded", time.process_time() - t))
    return out


def load_stages(calls: list[dict[str, Any]]) -> list[tuple[str, float]]:
    """Where loading the evidence goes, call by call (one run, CPU seconds): what
    ``make_evidence`` does for each output, step by step."""
    from groundcheck.evidence.listings import harvest
    from groundcheck.evidence.mentions import title_text
    from groundcheck.evidence.trace import STRUCTURAL_KEYS
    from groundcheck.evidence.walk import flatten
    from groundcheck.extractors.pipeline import _run, resolve_extractors
    from groundcheck.extractors.title import TitleExtractor
    from groundcheck.model import TITLE_SCHEME
    from groundcheck.text import TextView

    extractors = resolve_extractors()
    title = next(e for e in extractors if isinstance(e, TitleExtractor))
    finders = [e for e in extractors if e is not title]
    totals = dict.fromkeys(("flatten", "text view", "identifiers", "title copy", "titles",
                            "records and listings"), 0.0)  # fmt: skip
    for call in calls:
        t = time.process_time()
        flat = flatten(call["output"], STRUCTURAL_KEYS)
        t, totals["flatten"] = time.process_time(), totals["flatten"] + time.process_time() - t
        plain = bool(flat.strings) and "\n" not in "".join(flat.strings)  # as make_evidence
        view = TextView.of(flat.text, paired=True if plain else None)
        identity = plain and view.is_identity
        blocks, starts = (flat.strings, flat.starts) if identity else (None, None)
        t, totals["text view"] = time.process_time(), totals["text view"] + time.process_time() - t
        first = [(m, e.name) for e in finders for m, _ in _run(e, view.text)]
        ids = sorted((m for m, _ in first if m.identifier.scheme != TITLE_SCHEME),
                     key=lambda m: m.start)  # fmt: skip
        t, totals["identifiers"] = (
            time.process_time(),
            totals["identifiers"] + time.process_time() - t,
        )
        copy = title_text(view.text, [m for m, _ in first], title, blocks, starts)
        t, totals["title copy"] = (
            time.process_time(),
            totals["title copy"] + time.process_time() - t,
        )
        beside, kept = copy if copy is not None else (view.text, [m for m, _ in first])
        titles = list(title.find_beside(beside, kept))
        t, totals["titles"] = time.process_time(), totals["titles"] + time.process_time() - t
        every = first + [(m, title.name) for m in titles]
        harvest(flat, view.text, ids, extractors, list(flat.titles), mentions=every, view=view)
        totals["records and listings"] += time.process_time() - t
    return list(totals.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    calls, report = make_case()
    with tempfile.TemporaryDirectory() as tmp:
        evidence_path, report_path = Path(tmp, "calls.json"), Path(tmp, "report.md")
        evidence_path.write_text(json.dumps(calls), "utf-8")
        report_path.write_text(report, "utf-8")
        groundcheck_check(evidence_path, report_path)  # imports and warm-up, not timed
        seed_time, missing = cpu(lambda: seed_check(evidence_path, report_path), args.repeat)
        gc_time, verdict = cpu(lambda: groundcheck_check(evidence_path, report_path), args.repeat)
        fabricated = {
            f.citation.id for f in verdict.findings if f.code == "fabricated-id" and f.citation
        }
        size = evidence_path.stat().st_size / 1e6
        print(f"audit at scale: {len(report) / 1e3:.0f} KB report, {size:.1f} MB of evidence")
        print(f"  seed naive check     {seed_time * 1e3:8.1f} ms CPU  (flags {len(missing)})")
        print(f"  groundcheck.audit    {gc_time * 1e3:8.1f} ms CPU  (flags {len(fabricated)})")
        print(f"  ratio                {gc_time / seed_time:8.2f}x the seed (target <= 2x)")
        for name, seconds in stages(evidence_path, report_path):
            print(f"    {name:<44}{seconds * 1e3:8.1f} ms")
            if name.startswith("load evidence"):
                for part, part_seconds in load_stages(calls):
                    print(f"      {part:<42}{part_seconds * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
