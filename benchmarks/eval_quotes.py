"""How well the quote check tells real quotations from altered ones, on real tool outputs.

Run: ``python benchmarks/eval_quotes.py [--per-output 6] [--seed 7] [--show 5]``.

Every case quotes a stretch of words taken from a real tool output of the corpus
(benchmarks/real_outputs.py: 64 outputs of 8 committed runs: Claude Code WebSearch results,
Codex arXiv listings and PDF text, a Tavily research result, pydantic-ai sub-agent notes,
LangGraph sub-agent reports, STORM search snippets, Gemini CLI summaries), writes it into a
one-paragraph report in one of several styles (typographic or straight quotes, a Markdown link
or bare URL beside it, a block quote with an attribution line), and audits the quote against
all 64 outputs at once. Expected outcomes:

- **honest** variants must pass: the words exactly; typographic quotes, apostrophes and dashes;
  line breaks inside the quote; the first letter's case; invisible and compatibility characters;
  elisions (``...``, ``…``, ``[...]``); a bracketed word (``[the firm]``) or capital (``[T]he``);
  the same words cited beside the URL of the output they came from;
- **altered** quotes must be flagged ``unverified-quote``: one word replaced, a negation added or
  removed, a number changed, a word dropped or added without an elision mark, two words swapped,
  and "frankenquotes": two halves from two places of one output, from two outputs, or two
  outputs joined by an elision (parts must come from one output);
- **misattributed** quotes (exact words from one output, cited beside a URL only another output
  returned) must be flagged ``misattributed-quote``;
- **not quotes** (the agent's own real search queries quoted as such, real returned titles,
  scare quotes) must draw no quote finding;
- **source unknown**: a real quote from an output that names no source at all (a PDF read by a
  shell command, sub-agent notes), cited beside another output's URL, is not judged
  misattributed: the output holding it may be that very page.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from attrs import evolve, frozen

sys.path.insert(0, str(Path(__file__).resolve().parent))

from groundcheck.document.quotes import quote_tokens
from groundcheck.evidence.native import from_tool_calls
from groundcheck.extractors import extract
from groundcheck.grounding.quotes import (
    MISATTRIBUTED,
    UNVERIFIED,
    QuoteIndex,
    check_quotes,
)
from groundcheck.model import EvidenceSet
from real_outputs import Output, real_outputs, real_queries

HONEST, ALTERED, MISATTR, NOT_QUOTE = "honest", "altered", "misattributed", "not a quote"
UNNAMED = "source unknown"


@frozen
class Case:
    group: str
    variant: str
    quote: str
    report: str
    source: str


_SENTENCE = re.compile(r"(?:[^.!?\n]|[.,](?=\d))*[.!?](?!\d)")
_WORD = re.compile(r"\S+")
_STOP = frozenset(
    "the a an of to in and or for on with by at from as is are was were be been that this "
    "it its their his her they we our can will would could should has have had not no".split()
)
_AUX = re.compile(r"\b(is|are|was|were|can|will|would|could|should|has|have|does|did|may)\b")
_NEG = re.compile(r"\b(not|never|no)\s|n't\b")
_NUMBER = re.compile(r"\d")
_NOISE = re.compile(r"https?://|[|{}<>\\\[\]\"“”`#=_*]|\.\w{2,4}\b|\$ |%\s*Total")


def _spans(output: Output) -> list[str]:
    """Stretches of 7-24 words inside sentences of prose (no links, tables, code or quotes)."""
    out = []
    for m in _SENTENCE.finditer(output.text):
        sentence = m.group().strip()
        if _NOISE.search(sentence):
            continue
        words = _WORD.findall(sentence)
        alpha = sum(1 for w in words if w.strip(".,;:()'’").isalpha())
        if len(words) < 8 or alpha < 0.7 * len(words):
            continue
        out.append(" ".join(words[:24]))
    return list(dict.fromkeys(out))


def _cut(rng: random.Random, span: str) -> str:
    words = span.split(" ")
    n = rng.randint(7, min(20, len(words)))
    start = rng.randint(0, len(words) - n)
    return " ".join(words[start : start + n]).rstrip(",;:")


# -- honest variants -----------------------------------------------------------------------


def _typography(rng: random.Random, q: str) -> str:
    q = q.replace("'", "\u2019").replace(" - ", " \u2014 ").replace(" -- ", "\u2014")
    q = re.sub(r"(?<=\w)-(?=\w)", "\u2011", q)
    words = q.split(" ")
    if len(words) > 3:
        i = rng.randrange(1, len(words) - 1)
        words[i] = words[i] + ("\u00a0" if rng.random() < 0.5 else "  ")
    return " ".join(words).replace("  ", " \u2009") if rng.random() < 0.3 else " ".join(words)


def _line_breaks(rng: random.Random, q: str) -> str:
    words = q.split(" ")
    for i in rng.sample(range(1, len(words)), min(3, len(words) - 1, rng.randint(1, 3))):
        words[i] = "\n" + words[i]
    return " ".join(words).replace(" \n", "\n")


def _first_case(rng: random.Random, q: str) -> str:
    return q[0].swapcase() + q[1:]


def _unicode(rng: random.Random, q: str) -> str:
    words = q.split(" ")
    i = rng.randrange(len(words))
    w = words[i]
    if len(w) > 3:
        words[i] = w[:2] + "\u200b" + w[2:]
    q = " ".join(words)
    return q.replace("fi", "\ufb01", 1) if "fi" in q else q.replace("e", "\u0065\u0301", 0)


def _elision(rng: random.Random, q: str) -> str | None:
    words = q.split(" ")
    if len(words) < 9:
        return None
    a = rng.randint(3, len(words) - 5)
    b = rng.randint(a + 2, len(words) - 2)
    mark = rng.choice([" ... ", " \u2026 ", " [...] ", " [\u2026] ", "... "])
    return " ".join(words[:a]) + mark + " ".join(words[b:])


def _bracket(rng: random.Random, q: str) -> str:
    words = q.split(" ")
    if rng.random() < 0.4 and words[0][:1].isalpha():
        first = words[0]
        words[0] = f"[{first[0].swapcase()}]{first[1:]}"
        return " ".join(words)
    i = rng.randrange(1, len(words) - 1)
    words[i] = rng.choice(["[the company]", "[it]", "[sic]", "[they]", "[the study]"])
    return " ".join(words)


HONEST_VARIANTS = {
    "exact": lambda rng, q: q,
    "typography": _typography,
    "line breaks": _line_breaks,
    "first letter case": _first_case,
    "unicode": _unicode,
    "elision": _elision,
    "bracketed change": _bracket,
}


# -- altered variants ----------------------------------------------------------------------


def _content_positions(words: list[str]) -> list[int]:
    return [
        i
        for i, w in enumerate(words)
        if len(w.strip(".,;:()'’")) >= 4 and w.lower().strip(".,;:") not in _STOP
    ]


def _replace_word(rng: random.Random, q: str, vocabulary: list[str]) -> str | None:
    words = q.split(" ")
    spots = _content_positions(words)
    if not spots:
        return None
    i = rng.choice(spots)
    current = quote_tokens(words[i])
    for _ in range(20):
        other = rng.choice(vocabulary)
        if quote_tokens(other) != current:
            trail = words[i][len(words[i].rstrip(".,;:")) :]
            words[i] = other + trail
            return " ".join(words)
    return None


def _negation(rng: random.Random, q: str) -> str | None:
    if _NEG.search(q):
        return _NEG.sub("", q, count=1).replace("  ", " ")
    m = _AUX.search(q)
    if m is None:
        return None
    return q[: m.end()] + " not" + q[m.end() :]


def _number(rng: random.Random, q: str) -> str | None:
    digits = [m.start() for m in _NUMBER.finditer(q)]
    if not digits:
        return None
    i = rng.choice(digits)
    new = str((int(q[i]) + rng.randint(1, 8)) % 10)
    return q[:i] + new + q[i + 1 :]


def _omission(rng: random.Random, q: str) -> str | None:
    words = q.split(" ")
    spots = [i for i in _content_positions(words) if 0 < i < len(words) - 1]
    if not spots:
        return None
    del words[rng.choice(spots)]
    return " ".join(words)


def _insertion(rng: random.Random, q: str) -> str:
    words = q.split(" ")
    i = rng.randrange(1, len(words))
    words.insert(i, rng.choice(["significantly", "new", "widely", "major", "only", "already"]))
    return " ".join(words)


def _swap(rng: random.Random, q: str) -> str | None:
    words = q.split(" ")
    for _ in range(10):
        i = rng.randrange(1, len(words) - 1)
        if quote_tokens(words[i]) != quote_tokens(words[i + 1]):
            words[i], words[i + 1] = words[i + 1], words[i]
            return " ".join(words)
    return None


def _halves(a: str, b: str) -> str:
    wa, wb = a.split(" "), b.split(" ")
    return " ".join(wa[: len(wa) // 2] + wb[len(wb) // 2 :])


# -- reports -------------------------------------------------------------------------------


def _report(rng: random.Random, quote: str, url: str | None) -> str:
    link = f"[source]({url})" if url else "the source"
    style = rng.randrange(5)
    if style == 0:
        return f"As {link} puts it, \u201c{quote}\u201d, which matters here.\n"
    if style == 1:
        return f'The review states that "{quote}"' + (f" ({url}).\n" if url else ".\n")
    if style == 2:
        lines = "\n".join("> " + line for line in quote.split("\n"))
        return f"Key passage:\n\n{lines}\n> \u2014 {url or 'the source'}\n"
    if style == 3:
        return f"One finding: \u201c{quote}.\u201d {link}\n"
    return f"According to {link}, the authors write \u00ab{quote}\u00bb in their summary.\n"


def _urls_of(ev: EvidenceSet) -> dict[str, list[str]]:
    """For each call, the URLs of its output that a report could cite (no API queries)."""
    out: dict[str, list[str]] = defaultdict(list)
    for call in ev.calls:
        for c in extract(call.text or ""):
            if c.scheme == "url" and c.kind not in ("query", "code") and "://" in c.raw:
                out[call.call_id].append(c.raw)
    return out


def build_cases(outputs: list[Output], per_output: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    by_output = {o.call_id: _spans(o) for o in outputs}
    texts = {o.call_id: o.text for o in outputs}
    vocabulary = sorted({w for o in outputs for w in re.findall(r"[A-Za-z]{5,12}", o.text)})
    evidence = make_evidence(outputs)
    urls = _urls_of(evidence)
    named = {c.call_id: bool(c.identifiers) for c in evidence.calls}
    has = [o for o in outputs if by_output[o.call_id]]
    cases: list[Case] = []
    for o in has:
        spans = by_output[o.call_id]
        own_url = urls[o.call_id][0] if urls[o.call_id] else None
        for span in rng.sample(spans, min(per_output, len(spans))):
            q = _cut(rng, span)
            for name, make in HONEST_VARIANTS.items():
                quoted = make(rng, q)
                if quoted is not None:
                    cases.append(
                        Case(HONEST, name, quoted, _report(rng, quoted, own_url), o.call_id)
                    )
            altered = {
                "word replaced": _replace_word(rng, q, vocabulary),
                "negation": _negation(rng, q),
                "number changed": _number(rng, q),
                "word dropped": _omission(rng, q),
                "word added": _insertion(rng, q),
                "words swapped": _swap(rng, q),
            }
            other_span = rng.choice(spans)
            if other_span != span:
                altered["frankenquote, one output"] = _halves(q, _cut(rng, other_span))
            other = rng.choice([x for x in has if x.call_id != o.call_id])
            other_q = _cut(rng, rng.choice(by_output[other.call_id]))
            altered["frankenquote, two outputs"] = _halves(q, other_q)
            altered["elision across two outputs"] = (
                " ".join(q.split(" ")[:5]) + " ... " + " ".join(other_q.split(" ")[-5:])
            )
            for name, quoted in altered.items():
                if quoted is None or _holds_anywhere(quoted, texts):
                    continue  # the alteration happens to be real text somewhere: not altered
                cases.append(Case(ALTERED, name, quoted, _report(rng, quoted, own_url), o.call_id))
            foreign = [
                u
                for c, us in urls.items()
                if c != o.call_id
                for u in us
                if u not in texts[o.call_id]
            ]
            if foreign:
                url = rng.choice(sorted(set(foreign)))
                holders = [c for c, us in urls.items() if url in us]
                if not any(_holds(q, texts[c]) for c in holders):
                    report = _report(rng, q, url)
                    # An output that names no source (a PDF read by a shell command, a
                    # sub-agent's notes) may be that very page: nothing to accuse.
                    group = MISATTR if named[o.call_id] else UNNAMED
                    cases.append(Case(group, "other output's URL", q, report, o.call_id))
    for query in real_queries():
        report = f'I searched for "{query.text}" and read the results.\n'
        cases.append(Case(NOT_QUOTE, "own search query", query.text, report, ""))
    for title in sorted(_returned_titles(outputs))[:40]:
        cases.append(Case(NOT_QUOTE, "returned title", title, f'See "{title}" for details.\n', ""))
    for o in has[:20]:
        w = by_output[o.call_id][0].split(" ")[:3]
        cases.append(
            Case(NOT_QUOTE, "scare quote", " ".join(w), f'It is "{" ".join(w)}" only.\n', "")
        )
    return cases


_TITLE_LINE = re.compile(r'"title":\s*"([^"]{20,150})"|^Title: ([^\n]{20,150})$', re.M)


def _returned_titles(outputs: list[Output]) -> set[str]:
    found = set()
    for o in outputs:
        for m in _TITLE_LINE.finditer(o.text):
            found.add((m.group(1) or m.group(2)).strip())
    return found


_NORMAL: dict[str, str] = {}


def _normal(text: str) -> str:
    if text not in _NORMAL:
        _NORMAL[text] = " " + " ".join(quote_tokens(text)) + " "
    return _NORMAL[text]


def _holds(quote: str, text: str) -> bool:
    """Exact words, contiguous (parts of an elided quote each anywhere: a loose test)."""
    parts = re.split(r"\.\.\.|\u2026", quote)
    return all(" " + " ".join(quote_tokens(p)) + " " in _normal(text) for p in parts)


def _holds_anywhere(quote: str, texts: dict[str, str]) -> bool:
    return any(_holds(quote, t) for t in texts.values())


def make_evidence(outputs: list[Output]) -> EvidenceSet:
    records = [{"tool": o.tool, "id": o.call_id, "output": o.text} for o in outputs]
    ev = from_tool_calls(records)
    return EvidenceSet([evolve(c, text=o.text) for c, o in zip(ev.calls, outputs, strict=True)])


def outcome(case: Case, evidence: EvidenceSet, index: QuoteIndex) -> str:
    report = case.report
    checks = check_quotes(report, extract(report), (), evidence, index=index)
    statuses = {c.status for c in checks}
    if MISATTRIBUTED in statuses:
        return "misattributed-quote"
    if UNVERIFIED in statuses:
        return "unverified-quote"
    return "found" if checks else "not checked"


def labelled_quotes() -> None:
    """The corpus's own hand-labelled quotes (2-4 words: checked with quote_min_words=2)."""
    from groundcheck import audit

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "corpus"))
    from cases import load_cases

    outputs = real_outputs()
    print("\ncorpus quote labels (tests/corpus), audited with quote_min_words=2:")
    for case in load_cases():
        labels = [x for x in case.labels if x.kind == "quote" and x.expected != "uncertain"]
        if not labels:
            continue
        evidence = make_evidence([o for o in outputs if o.case == case.name])
        verdict = audit(case.report_path.read_text("utf-8"), evidence, quote_min_words=2)
        flagged = {
            f.citation.line for f in verdict.findings if f.code.endswith("-quote") and f.citation
        }
        for label in labels:
            got = "flagged" if label.line in flagged else "passed"
            want = "flagged" if label.expected == "mismatch" else "passed"
            mark = "ok" if got == want else "MISS"
            words = len(label.text.split())
            print(
                f"   {mark:<5}{case.name[:38]:<40}{label.text!r:<28}{words} words  {label.expected:<10}-> {got}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-output", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=3, help="failures shown per variant")
    args = parser.parse_args()
    outputs = real_outputs()
    evidence = make_evidence(outputs)
    t0 = time.perf_counter()
    index = QuoteIndex.of_evidence(evidence)
    build = time.perf_counter() - t0
    cases = build_cases(outputs, args.per_output, args.seed)
    t0 = time.perf_counter()
    results = [(c, outcome(c, evidence, index)) for c in cases]
    seconds = time.perf_counter() - t0
    chars = sum(len(o.text) for o in outputs)
    print(
        f"{len(outputs)} real outputs ({chars / 1e3:.0f} kB, {len({o.case for o in outputs})} runs), "
        f"{len(cases)} cases; index {build * 1e3:.0f} ms, "
        f"{seconds / len(cases) * 1e3:.2f} ms per case (extraction included)\n"
    )
    want = {HONEST: {"found"}, ALTERED: {"unverified-quote"}, MISATTR: {"misattributed-quote"},
            NOT_QUOTE: {"found", "not checked"}, UNNAMED: {"found", "not checked"}}  # fmt: skip
    table: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    misses: dict[tuple[str, str], list[tuple[Case, str]]] = defaultdict(list)
    for case, got in results:
        key = (case.group, case.variant)
        table[key][got] += 1
        if got not in want[case.group]:
            misses[key].append((case, got))
    print(f"{'group':<15}{'variant':<30}{'cases':>6}{'as expected':>13}  outcomes")
    for (group, variant), counts in table.items():
        n = sum(counts.values())
        ok = sum(v for k, v in counts.items() if k in want[group])
        detail = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"{group:<15}{variant:<30}{n:>6}{ok:>8} ({ok / n:.0%})  {detail}")
    honest = [g for c, g in results if c.group == HONEST]
    others = [g for c, g in results if c.group == NOT_QUOTE]
    flagged_honest = sum(1 for g in honest + others if g not in ("found", "not checked"))
    altered = [g for c, g in results if c.group == ALTERED]
    caught = sum(1 for g in altered if g == "unverified-quote")
    unchecked = sum(1 for g in altered if g == "not checked")
    mis = [g for c, g in results if c.group == MISATTR]
    mis_caught = sum(1 for g in mis if g == "misattributed-quote")
    findings = caught + mis_caught + flagged_honest
    print(
        f"\nhonest quotes flagged: {flagged_honest} of {len(honest)} (+{len(others)} not-quotes); "
        f"{sum(1 for g in honest if g == 'not checked')} honest quotes not checked (taken for "
        f"titles or questions)\naltered quotes caught: {caught} of {len(altered)} "
        f"(recall {caught / len(altered):.1%}; {unchecked} not checked, taken for titles or "
        f"questions; of those checked {caught / max(1, len(altered) - unchecked):.1%})\n"
        f"misattributed caught: {mis_caught} of {len(mis)} "
        f"(recall {mis_caught / max(1, len(mis)):.1%})\n"
        f"precision of all quote findings: {(caught + mis_caught) / max(1, findings):.1%} "
        f"({findings} findings)"
    )
    labelled_quotes()
    for key, items in misses.items():
        for case, got in items[: args.show]:
            print(f"\n  {key[0]} / {key[1]} -> {got}  ({case.source})\n    {case.report.strip()!r}")


if __name__ == "__main__":
    main()
