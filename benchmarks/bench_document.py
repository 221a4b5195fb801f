"""Document-model benchmark: whole audits of realistic reports, and bad input at growing sizes.

Run: ``python benchmarks/bench_document.py [--repeat 3]``; ``--growth 0.5,1,2`` audits only
the literature review at those sizes (MB) and prints the time per MB, flat when linear. Times
are CPU seconds of this process (``time.process_time``), the best of ``--repeat`` runs, so
other work on the machine does not inflate them. Two parts:

1. **Realistic reports**, audited end to end against their tool outputs: a 100 KB literature
   review (the scenario styles of ``tests/scenarios`` repeated with fresh identifiers: APA
   thesis, IEEE survey, numbered deep-research sources, headings and tables, footnotes,
   LaTeX), a 260k-character review, and a 10 MB report.
2. **Bad input** (issue 11): unbalanced brackets, a reference list of 10,000 entries, one
   1 MB paragraph, a heading line of spaces, ``[1`` floods and others, each at 1x, 2x and 4x
   its size. Linear cost means the 4x time is about 4 times the 1x time; the script prints
   the ratio and flags anything above 6x (quadratic would be 16x).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SCENARIOS = Path(__file__).resolve().parents[1] / "tests" / "scenarios"


def best_cpu(repeat: int, func: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        result = func()
        best = min(best, time.process_time() - t0)
    return best, result


def _renumber(text: str, rng: random.Random) -> str:
    """The same report with fresh arXiv ids, so repeated copies cite different works."""
    import re

    return re.sub(
        r"(?<![\d.])(\d{4})\.(\d{5})(?![\d])",
        lambda m: f"{rng.randint(15, 24):02d}{rng.randint(1, 12):02d}.{rng.randint(1, 99999):05d}",
        text,
    )


def literature_review(chars: int, seed: int = 11) -> tuple[str, list[dict[str, Any]]]:
    """A review of about ``chars`` characters in every scenario style, and its tool calls."""
    from groundcheck.evidence import load_evidence

    parts = []
    for name in (
        "apa_thesis.md",
        "honest_moe_review.md",
        "review_with_references.md",
        "two_papers_per_paragraph.md",
    ):
        parts.append((SCENARIOS / name).read_text("utf-8"))
    for trace in (
        "claude_code_ieee_survey.jsonl",
        "deep_research_sources.json",
        "gemini_cli_sae_review.jsonl",
        "codex_footnotes.jsonl",
        "langgraph_latex.json",
    ):
        report = load_evidence(SCENARIOS / trace).report
        if report:
            parts.append(report)
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < chars:
        piece = _renumber(rng.choice(parts), rng)
        out.append(piece)
        size += len(piece) + 2
    text = "\n\n".join(out)[:chars]
    import re

    ids = sorted(set(re.findall(r"\d{4}\.\d{5}", text)))
    keep = ids[: len(ids) * 3 // 4]  # a quarter of the cited works were never returned
    vocabulary = sorted(set(re.findall(r"[A-Za-z]{4,}", text)))

    def title() -> str:  # distinct, title-like: real evidence titles share few 5-grams
        return " ".join(rng.choice(vocabulary).capitalize() for _ in range(rng.randint(5, 10)))

    calls = [
        {
            "tool": "arxiv_search",
            "id": f"c{i}",
            "output": [{"arxiv_id": x, "title": title()} for x in keep[i : i + 20]],
        }
        for i in range(0, len(keep), 20)
    ]
    return text, calls


def bad_inputs(scale: int) -> dict[str, str]:
    """Hostile reports, ``scale`` times a base size (the base is about 100 KB)."""
    rng = random.Random(5)
    words = ["word", "[1", "(", "“x", "*a", "Lewis", "et", "al.", "(2020)", "`", "[2]"]
    words += ["2005.11401", "**b**", "|", "[^3]", "【4】", "\\cite{k", "> q", "# h"]
    n = 100_000 * scale
    entries = 2500 * scale
    return {
        "reference list (2,500 entries x scale)": "See [1] and [99999].\n\n## References\n"
        + "".join(
            f"[{i}] Lewis, P., Perez, E. ({2000 + i % 20}). Title number {i} on retrieval "
            f"models. NeurIPS. arXiv:20{i % 12 + 1:02d}.{i:05d}\n"
            for i in range(1, entries + 1)
        ),
        "one paragraph of mixed markup": " ".join(rng.choice(words) for _ in range(n // 5)),
        "unbalanced brackets": "[(" * (n // 2),
        "[1 flood": "[1" * (n // 2),
        "heading line of spaces": "#" + " " * n + "\n",
        "unclosed quotes": "“" * n,
        "backtick runs": "` `` ``` " * (n // 9),
        "table rows": "| a | b (2020) | [1] |\n" * (n // 22),
        "nested list items": "".join(
            "  " * (i % 6) + "- Lewis, P. (2020). Item title here. NeurIPS.\n"
            for i in range(n // 48)
        ),
        "author-year parentheses": "(Lewis et al., 2020; Perez, 2021) " * (n // 34),
    }


def _document_seconds(text: str, repeat: int) -> float | None:
    """CPU time of what the document model adds: parsing the report and grouping its works."""
    try:
        from groundcheck.document import Document, build_works
    except ImportError:  # a groundcheck from before the document model
        return None
    from groundcheck.extractors import extract

    citations = extract(text)
    ids = [(c.start, c.end) for c in citations if not c.is_title]

    def run() -> object:
        document = Document(text, ids)
        return build_works(document, citations)

    return best_cpu(repeat, run)[0]


def growth(sizes: list[float], repeat: int) -> None:
    """The literature review audited at each size: CPU time, and time per MB (flat if linear)."""
    import groundcheck

    print(f"{'literature review (CPU, best of ' + str(repeat) + ')':<44}{'time':>10}{'per MB':>10}")
    first = None
    for mb in sizes:
        text, calls = literature_review(int(mb * 1_000_000))
        seconds, _ = best_cpu(repeat, lambda t=text, c=calls: groundcheck.audit(t, c))
        per_mb = seconds / mb
        first = first or per_mb
        print(f"{f'{mb:g} MB':<44}{seconds:>9.2f}s{per_mb:>9.2f}s  ({per_mb / first:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-10mb", action="store_true")
    parser.add_argument(
        "--growth",
        metavar="MB,MB,...",
        help="only audit the literature review at these sizes (e.g. 0.5,1,2) and print how "
        "its time grows: linear cost keeps the time per MB flat",
    )
    args = parser.parse_args()
    if args.growth:
        growth([float(mb) for mb in args.growth.split(",")], args.repeat)
        return

    import groundcheck

    print(f"python {sys.version.split()[0]}, groundcheck from {Path(groundcheck.__file__).parent}")
    print()
    print(f"{'whole audit (CPU, best of ' + str(args.repeat) + ')':<52}{'time':>10}{'works':>8}"
          f"{'findings':>10}")  # fmt: skip
    sizes = [("100 KB literature review", 100_000), ("260k-character review", 260_000)]
    if not args.skip_10mb:
        sizes.append(("10 MB report", 10_000_000))
    for label, chars in sizes:
        text, calls = literature_review(chars)
        repeat = 1 if chars > 1_000_000 else args.repeat
        seconds, verdict = best_cpu(repeat, lambda t=text, c=calls: groundcheck.audit(t, c))
        works = len(getattr(verdict, "works", ()))
        print(f"{label:<52}{seconds * 1e3:>8.0f}ms{works:>8}{len(verdict.findings):>10}")
        parse = _document_seconds(text, repeat)
        if parse is not None:
            print(f"{'  of which the document model (parse + works)':<52}{parse * 1e3:>8.0f}ms")

    print()
    print(f"{'bad input (CPU)':<40}{'1x':>10}{'2x':>10}{'4x':>10}{'4x/1x':>8}")
    worst = 0.0
    for name in bad_inputs(1):
        times = []
        for scale in (1, 2, 4):
            text = bad_inputs(scale)[name]
            seconds, _ = best_cpu(
                1, lambda t=text: groundcheck.audit(t, [{"tool": "s", "output": ""}])
            )
            times.append(seconds)
        ratio = times[2] / max(times[0], 1e-4)
        worst = max(worst, ratio)
        flag = "  <- not linear" if ratio > 6 else ""
        print(
            f"{name:<40}" + "".join(f"{t * 1e3:>8.0f}ms" for t in times) + f"{ratio:>7.1f}x{flag}"
        )
    print(f"\nworst 4x/1x ratio: {worst:.1f} (linear is 4, quadratic 16)")


if __name__ == "__main__":
    main()
