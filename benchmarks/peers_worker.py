"""One extractor, timed in its own process: ``python peers_worker.py TOOL CORPUS``.

Prints JSON: seconds, peak RSS (VmHWM) and the identifiers found, as canonical keys
(``arxiv:2005.11401``, ``doi:10.1000/x``) so every tool is scored the same way. Run with the
main environment for groundcheck and the seed regexes, and with the peers' environment
(benchmarks/setup_peers.sh) for idutils and refextract.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

SEED = r"\b(\d{4}\.\d{4,5})\b"
_VERSION = re.compile(r"v\d+$")
_PREFIX = re.compile(r"(?i)^(?:arxiv:|doi:|https?://(?:dx\.)?doi\.org/)")


def canonical(scheme: str, value: str) -> str:
    """A peer's output in groundcheck's canonical form, so keys compare fairly."""
    value = _PREFIX.sub("", value.strip())
    if scheme == "arxiv":
        value = _VERSION.sub("", value.split()[0])
        if "/" in value:
            archive, number = value.split("/", 1)
            value = f"{archive.split('.')[0].lower()}/{number}"
        return f"arxiv:{value}"
    return f"doi:{value.lower()}"


def seed_re(text: str) -> Iterable[str]:
    return (f"arxiv:{m}" for m in re.findall(SEED, text))


def seed_regex(text: str) -> Iterable[str]:
    import regex

    return (f"arxiv:{m}" for m in regex.findall(SEED, text))


def groundcheck_ids(text: str) -> Iterable[str]:
    from groundcheck.extractors import extract
    from groundcheck.extractors.builtin import BUILTIN

    ids_only = tuple(e for e in BUILTIN if e.name != "title")
    return (str(c.identifier) for c in extract(text, extractors=ids_only) if c.malformed is None)


def idutils_tokens(text: str) -> Iterable[str]:
    import idutils

    out = []
    for raw in text.split():
        token = raw.strip(".,;:()[]<>\"'")
        if not token:
            continue
        schemes = idutils.detect_identifier_schemes(token)
        if "arxiv" in schemes:
            out.append(canonical("arxiv", idutils.normalize_arxiv(token)))
        elif "doi" in schemes:
            out.append(canonical("doi", idutils.normalize_doi(token)))
    return out


def refextract_refs(text: str) -> Iterable[str]:
    from refextract import extract_references_from_string

    out = []
    for ref in extract_references_from_string(text):
        for number in ref.get("reportnumber", []):
            if "arxiv" in number.lower() or re.search(r"\d{4}\.\d{4,5}|/\d{7}", number):
                out.append(canonical("arxiv", number))
        for doi in ref.get("doi", []):
            out.append(canonical("doi", doi))
    return out


TOOLS: dict[str, Callable[[str], Iterable[str]]] = {
    "seed-re": seed_re,
    "seed-regex": seed_regex,
    "groundcheck": groundcheck_ids,
    "idutils": idutils_tokens,
    "refextract": refextract_refs,
}


def main() -> None:
    tool, corpus = sys.argv[1], sys.argv[2]
    text = Path(corpus).read_text(encoding="utf-8")
    func = TOOLS[tool]
    func(text[:2000])  # warm up imports and caches outside the timed run
    seconds = float("inf")
    spent = 0.0
    found: list[str] = []
    while spent < 0.3 or seconds == float("inf"):  # fast tools: best of repeated runs
        t0 = time.perf_counter()
        found = sorted(set(func(text)))
        elapsed = time.perf_counter() - t0
        seconds, spent = min(seconds, elapsed), spent + elapsed
    with Path("/proc/self/status").open() as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024
    print(json.dumps({"seconds": seconds, "peak_mib": peak, "found": found}))


if __name__ == "__main__":
    main()
