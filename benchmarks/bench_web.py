"""Web and biomedical extractors: speed per extractor, precision/recall, linearity on floods.

Run: ``python benchmarks/bench_web.py [--mb 10] [--repeat 3]``. Every figure is measured in
this run, on this machine:

1. ~10 MB of prose (bench_core's word list) with planted URLs, DOI/arXiv URLs, PMIDs, PMCIDs,
   ISBNs, ACL, OpenReview, Semantic Scholar, OpenAlex and DBLP ids in their written forms:
   time and MB/s of each extractor on the text view, and precision/recall of all identifier
   extractors together against the planted truth (distinct keys).
2. The same amount of prose with none of the literals the extractors anchor on: what each
   costs on a text that cites nothing of its family (one substring search, ideally).
3. Hostile floods at 250 kB and 1 MB: the time ratio (linear = 4x, quadratic = 16x).
4. The URL key alone: microseconds per distinct URL.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import WORDS, best_of, best_of_fresh

Key = tuple[str, str]


def _isbn13(body12: str) -> str:
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body12))
    return body12 + str((10 - total % 10) % 10)


def make_corpus(megabytes: float, seed: int = 11) -> tuple[str, list[Key]]:
    """Prose with planted citations of every new family, and their canonical keys."""
    rng = random.Random(seed)

    def n(digits: int) -> int:
        return rng.randint(10 ** (digits - 1), 10**digits - 1)

    def web() -> tuple[str, list[Key]]:
        host, page = f"site{n(3)}.example.org", f"news/{n(4)}/story-{n(3)}"
        return (
            rng.choice(
                [
                    f"https://www.{host}/{page}?utm_source=chatgpt.com",
                    f"[source](https://{host}/{page})",
                    f"<https://{host}/{page}>",
                    f"www.{host}/{page}",
                ]
            ),
            [("url", f"{host}/{page}")],
        )

    def doi_url() -> tuple[str, list[Key]]:
        d = f"10.{n(4)}/j.x.{n(5)}"
        return f"https://doi.org/{d}", [("doi", d)]

    def frontiers() -> tuple[str, list[Key]]:
        d = f"10.3389/fnins.2019.{n(5)}"
        return f"https://www.frontiersin.org/articles/{d}/full", [("doi", d)]

    def arxiv_url() -> tuple[str, list[Key]]:
        i = f"2{rng.randint(1, 4)}{rng.randint(1, 12):02d}.{n(5)}"
        return f"https://arxiv.org/abs/{i}v{rng.randint(1, 3)}", [("arxiv", i)]

    def pmid() -> tuple[str, list[Key]]:
        i = str(n(8))
        return rng.choice([f"PMID: {i}", f"https://pubmed.ncbi.nlm.nih.gov/{i}/"]), [("pmid", i)]

    def pmcid() -> tuple[str, list[Key]]:
        i = f"PMC{n(7)}"
        return rng.choice([i, f"https://www.ncbi.nlm.nih.gov/pmc/articles/{i}/"]), [("pmcid", i)]

    def isbn() -> tuple[str, list[Key]]:
        full = _isbn13(f"978{n(9)}")
        written = f"{full[:3]}-{full[3]}-{full[4:7]}-{full[7:12]}-{full[12]}"
        return f"ISBN {written}", [("isbn", full)]

    def acl() -> tuple[str, list[Key]]:
        i = f"2023.acl-long.{n(3)}"
        return rng.choice([i, f"https://aclanthology.org/{i}.pdf"]), [("acl", i)]

    def openreview() -> tuple[str, list[Key]]:
        i = "".join(rng.choice("abcdefghijkLMNOPQ0123456789") for _ in range(10))
        return f"https://openreview.net/forum?id={i}", [("openreview", i)]

    def s2() -> tuple[str, list[Key]]:
        if rng.random() < 0.5:
            sha = "".join(rng.choice("0123456789abcdef") for _ in range(40))
            return f"https://www.semanticscholar.org/paper/Some-Title/{sha}", [("s2", sha)]
        i = str(n(9))
        return f"CorpusId:{i}", [("s2-corpus", i)]

    def openalex() -> tuple[str, list[Key]]:
        i = f"W{n(10)}"
        return f"https://openalex.org/{i}", [("openalex", i)]

    def dblp() -> tuple[str, list[Key]]:
        i = f"conf/nips/Smith{n(2)}"
        return f"DBLP:{i}", [("dblp", i)]

    forms = [web, web, web, doi_url, frontiers, arxiv_url, pmid, pmcid, isbn, acl]
    forms += [openreview, s2, openalex, dblp]
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


def extractors() -> tuple[Any, ...]:
    """Every built-in identifier extractor (the title finder is not an identifier family)."""
    from groundcheck.extractors.builtin import BUILTIN

    return tuple(e for e in BUILTIN if e.name != "title")


FLOODS: dict[str, Callable[[int], str]] = {
    "https://a.b/ + ( x n": lambda n: "https://a.b/" + "(" * n,
    "https://a.b/ + ) x n": lambda n: "https://a.b/" + ")" * n,
    ",https://x.com x n": lambda n: ",https://x.com" * (n // 14),
    "www. x n": lambda n: "www." * (n // 4),
    ":// x n": lambda n: "://" * (n // 3),
    "1 URL of n chars": lambda n: "https://example.com/" + "ab/" * (n // 3),
    "n/8 query parameters": lambda n: "https://x.org/a?" + "&".join(["p=1"] * (n // 8)),
    "backtick + URL x n": lambda n: "`https://x.org/a` " * (n // 18),
    "](<URL without > x n": lambda n: "](<https://x.org/a " * (n // 19),
    "DOI run through URLs x n": lambda n: "https://doi.org/10.1000/a<1(" * (n // 28),
    "PMID: + '1, ' x n": lambda n: "PMID: " + "1, " * (n // 3),
    "ISBN + '1-' x n": lambda n: "ISBN " + "1-" * (n // 2),
    "openreview query + 'a&' x n": lambda n: "openreview.net/forum?" + "a&" * (n // 2),
    "2020.a-b. x n": lambda n: "2020.a-b." * (n // 9),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from groundcheck.extractors import extract
    from groundcheck.text import TextView

    ids = extractors()
    text, planted = make_corpus(args.mb)
    truth = set(planted)
    view = TextView.of(text).text
    print(
        f"1. corpus: {len(text) / 1e6:.1f} MB of prose, {len(planted)} planted citations "
        f"({len(truth)} distinct)"
    )
    print(f"   {'extractor':<18}{'time':>10}{'MB/s':>9}{'mentions':>10}")
    for ex in ids:  # each alone, on a text no extractor has read: it pays its own prefilter
        seconds, found = best_of_fresh(args.repeat, lambda t, ex=ex: list(ex.find(t)), view)
        mb_s = len(text) / 1e6 / seconds
        print(f"   {ex.name:<18}{seconds * 1e3:>8.1f}ms{mb_s:>9.0f}{len(found):>10}")
    seconds, cited = best_of_fresh(args.repeat, lambda t: extract(t, extractors=ids), text)
    print(
        f"   {'extract(), all':<18}{seconds * 1e3:>8.1f}ms{len(text) / 1e6 / seconds:>9.0f}"
        f"{len(cited):>10}   (view, overlap rule, offsets included)"
    )
    keys = {(c.scheme, c.id) for c in cited if c.malformed is None}
    keys |= {(a.scheme, a.id) for c in cited if c.malformed is None for a in c.aliases}
    new_schemes = {s for s, _ in truth}
    found_keys = {(s, i) for s, i in keys if s in new_schemes}
    primary = {(c.scheme, c.id) for c in cited if c.malformed is None}
    precision = len(primary & truth) / len(primary) if primary else 1.0
    recall = len(found_keys & truth) / len(truth)
    print(
        f"   precision {precision:.1%} (citations that are planted works), recall {recall:.1%}"
        " (planted works found under some name)"
    )
    print(f"   {'family':<18}{'planted':>8}{'found':>8}{'recall':>9}{'false':>7}")
    for scheme in sorted(new_schemes):
        planted_here = {k for k in truth if k[0] == scheme}
        found_here = {k for k in found_keys if k[0] == scheme} & planted_here
        false_here = {k for k in primary if k[0] == scheme} - truth
        print(
            f"   {scheme:<18}{len(planted_here):>8}{len(found_here):>8}"
            f"{len(found_here) / max(1, len(planted_here)):>9.1%}{len(false_here):>7}"
        )

    plain = " ".join(w for w in view.split(" ") if w.isalpha())[: len(text)]
    print(f"\n2. prose without any anchor literal ({len(plain) / 1e6:.1f} MB)")
    for ex in ids:
        seconds, _ = best_of_fresh(args.repeat, lambda t, ex=ex: list(ex.find(t)), plain)
        print(f"   {ex.name:<18}{seconds * 1e3:>8.1f}ms{len(plain) / 1e6 / seconds:>9.0f} MB/s")

    print("\n3. floods: extract() with every identifier extractor, 250 kB and 1 MB")
    print(f"   {'flood':<30}{'250 kB':>10}{'1 MB':>10}{'ratio':>8}")
    for name, make in FLOODS.items():
        small_s, _ = best_of(2, lambda make=make: extract(make(250_000), extractors=ids))
        large_s, _ = best_of(2, lambda make=make: extract(make(1_000_000), extractors=ids))
        print(
            f"   {name:<30}{small_s * 1e3:>8.0f}ms{large_s * 1e3:>8.0f}ms{large_s / small_s:>7.1f}x"
        )

    from groundcheck.extractors.urlkey import canonical_url

    urls = [
        f"https://www.host{i}.example.org/a/./b/{i}?utm_source=x&b=2&a={i}#frag"
        for i in range(4000)
    ]
    seconds, _ = best_of(args.repeat, lambda: [canonical_url(u) for u in urls])
    print(f"\n4. canonical_url: {seconds / len(urls) * 1e6:.1f} µs per distinct URL")


if __name__ == "__main__":
    main()
