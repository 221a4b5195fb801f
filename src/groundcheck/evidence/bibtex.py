"""BibTeX as evidence: a ``.bib`` a tool (or a reference manager) returned.

Each entry is one piece of evidence named by its key; its ``eprint`` (with ``archivePrefix``),
``doi``, ``url`` and ``title`` are what it offers. bibtexparser 2.x parses; a malformed entry
is reported with its line and does not stop the others.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from groundcheck.evidence.trace import Trace, make_evidence
from groundcheck.extractors import Extractor
from groundcheck.model import EvidenceSet

__all__ = ["load_bibtex", "looks_like_bibtex"]

_ENTRY = re.compile(r"^\s*@[A-Za-z]+\s*[{(]", re.MULTILINE)
_BRACES = re.compile(r"[{}]")


def looks_like_bibtex(text: str) -> bool:
    return _ENTRY.search(text[:65536]) is not None


def _clean(value: str) -> str:
    """A field value without the braces BibTeX uses to protect case: {All} -> All."""
    return " ".join(_BRACES.sub("", value).split())


def load_bibtex(text: str, extractors: Sequence[Extractor], source: str | None = None) -> Trace:
    from bibtexparser.entrypoint import parse_string  # only .bib input pays for the import

    library = parse_string(text)
    name = source or "<bibtex>"
    calls = []
    for entry in library.entries:
        fields = {f.key.lower(): f.value for f in entry.fields if isinstance(f.value, str)}
        output: dict[str, str] = {}
        if "title" in fields:
            output["title"] = _clean(fields["title"])
        eprint = fields.get("eprint")
        if eprint:
            prefix = fields.get("archiveprefix", fields.get("eprinttype", "")).lower()
            output["eprint"] = f"arXiv:{_clean(eprint)}" if prefix == "arxiv" else _clean(eprint)
        for key in ("doi", "url", "arxiv", "arxivid", "pmid", "isbn"):
            if key in fields:
                output[key] = _clean(fields[key])
        calls.append(make_evidence("bibtex", entry.key, output, extractors, source=source))
    return Trace(EvidenceSet(calls, _problems(library, name)), None, "bibtex")


def _problems(library: Any, name: str) -> list[str]:
    notes = []
    for block in library.failed_blocks:
        error = getattr(block, "error", None)
        # bibtexparser's exception has an empty str(); the reason is in abort_reason.
        reason = str(getattr(error, "abort_reason", "") or error or "syntax error").strip()
        line = "" if block.start_line is None else f":{block.start_line + 1}"
        notes.append(f"{name}{line}: BibTeX entry skipped: {reason}")
    return notes


def bibtex_problems(text: str, name: str) -> list[str]:
    """Notes on malformed entries of a report's own bibliography (its ids are still cited)."""
    if not looks_like_bibtex(text):
        return []
    from bibtexparser.entrypoint import parse_string

    return [
        note.replace("BibTeX entry skipped", "malformed BibTeX entry")
        for note in _problems(parse_string(text), name)
    ]
