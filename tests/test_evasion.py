"""The evasion suite: a fabricated id written in disguise is still caught, at its real span.

Each disguise hides an identifier no tool returned. The audit must report it as
``fabricated-id`` with the canonical id, and the finding's span must be exactly the characters
of the disguised id in the report (so a reviewer sees what was written).
"""

from __future__ import annotations

import json

import pytest

from groundcheck import audit

EVIDENCE = [
    {"tool": "search", "output": [{"arxiv_id": "2101.03961", "title": "Switch Transformers"}]}
]

ZW = "\u200b"
ZWJ = "\u200d"
SHY = "\u00ad"


def _entities(text: str) -> str:
    return "".join(f"&#{ord(c)};" for c in text)


def _hex_entities(text: str) -> str:
    return "".join(f"&#x{ord(c):x};" for c in text)


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if c.isdigit() or c == "." else c for c in text)


MODERN = "2005.11401"
MODERN_DISGUISES = [
    ("fullwidth digits and dot", "arXiv:" + _fullwidth(MODERN)),
    ("zero-width space inside", f"arXiv:2005.{ZW}11401"),
    ("zero-width joiners", f"2005{ZWJ}.114{ZWJ}01"),
    ("soft hyphen inside", f"arXiv:2005.11{SHY}401"),
    ("line break with hyphen", "arXiv:2005.114-\n01"),
    ("line break without hyphen", "arXiv:2005.\n11401"),
    ("line break in the digits", "see arXiv:2005.114\n01 for"),
    ("decimal character references", "arXiv:" + _entities(MODERN)),
    ("hex character references", _hex_entities(MODERN)),
    ("percent-encoded dot in a URL", "https://arxiv.org/abs/2005%2E11401"),
    ("markdown link target", "[the paper](https://arxiv.org/abs/2005.11401v2)"),
    ("autolink", "<https://arxiv.org/pdf/2005.11401.pdf>"),
    ("LaTeX url", "\\url{https://arxiv.org/abs/2005.11401}"),
    ("LaTeX href", "\\href{https://arxiv.org/abs/2005.11401}{RAG}"),
    ("mixed-case prefix", "ArXiV:2005.11401"),
    ("arXiv then a space", "arXiv 2005.11401"),
    ("Cyrillic look-alike letters in the prefix", "аrХiv:2005.11401"),
    (
        "JSON string with escapes",
        json.dumps({"url": "https://arxiv.org/abs/2005.11401"}).replace("/", "\\/"),
    ),
    ("JSON unicode escapes", "\\u0032\\u0030\\u0030\\u0035.11401"),
    ("Arabic-Indic digits", "٢٠٠٥.١١٤٠١"),
    ("mathematical digits", "𝟐𝟎𝟎𝟓.𝟏𝟏𝟒𝟎𝟏"),
    ("arXiv DOI", "https://doi.org/10.48550/arXiv.2005.11401"),
]

LEGACY = "hep-th/9711200"
LEGACY_DISGUISES = [
    ("typographic hyphen", "hep\u2010th/9711200"),
    ("non-breaking hyphen", "hep\u2011th/9711200"),
    ("division slash", "hep-th\u22159711200"),
    ("fraction slash", "hep-th\u20449711200"),
    ("fullwidth slash and digits", "hep-th／９７１１２００"),
    ("zero-width space in the digits", f"hep-th/97{ZW}11200"),
    ("soft hyphen in the archive", f"hep-{SHY}th/9711200"),
    ("line break in the digits", "hep-th/97\n11200"),
    ("upper case archive", "HEP-TH/9711200"),
    ("subject class and version", "hep-th.XX/9711200v3"),
    ("escaped slash in JSON", "hep-th\\/9711200"),
    ("percent-encoded slash", "https://arxiv.org/abs/hep-th%2F9711200"),
    ("decimal character references", _entities(LEGACY)),
    ("markdown link", "[Maldacena](https://arxiv.org/abs/hep-th/9711200)"),
    ("LaTeX url", "\\url{arxiv.org/abs/hep-th/9711200}"),
    ("arXiv prefix", "arXiv:hep-th/9711200v1"),
    ("Arabic-Indic digits", "hep-th/٩٧١١٢٠٠"),
]

DOI = "10.1000/made.up.42"
DOI_DISGUISES = [
    ("doi: prefix", "doi:10.1000/made.up.42"),
    ("upper case", "DOI: 10.1000/MADE.UP.42"),
    ("resolver URL", "https://doi.org/10.1000/made.up.42"),
    ("dx resolver", "http://dx.doi.org/10.1000/made.up.42"),
    ("percent-encoded slash", "https://doi.org/10.1000%2Fmade.up.42"),
    ("percent-encoded dots", "https://doi.org/10%2E1000/made%2Eup%2E42"),
    ("zero-width space", f"10.1000/made.{ZW}up.42"),
    ("soft hyphen", f"10.10{SHY}00/made.up.42"),
    ("fullwidth digits", "１０.１０００/made.up.４２"),
    ("decimal character references", _entities(DOI)),
    ("markdown link", "[paper](https://doi.org/10.1000/made.up.42)"),
    ("autolink", "<https://doi.org/10.1000/made.up.42>"),
    ("in parentheses with a period", "(doi:10.1000/made.up.42)."),
    ("LaTeX href", "\\href{https://doi.org/10.1000/made.up.42}{x}"),
    ("JSON escaped slashes", "https:\\/\\/doi.org\\/10.1000\\/made.up.42"),
    ("Cyrillic look-alike prefix", "dоі:10.1000/made.up.42"),
    ("division slash", "10.1000\u2215made.up.42"),
]


def _caught(report: str, canonical: str) -> None:
    verdict = audit(f"Intro text.\n{report}\nMore text.", EVIDENCE)
    fabricated = [f for f in verdict.findings if f.code == "fabricated-id"]
    assert [f.citation.id for f in fabricated if f.citation] == [canonical], verdict.findings
    c = fabricated[0].citation
    assert c is not None
    written = f"Intro text.\n{report}\nMore text."[c.start : c.end]
    assert written == c.raw
    assert written.strip() == written and written  # the span is the disguised id itself


@pytest.mark.parametrize(("name", "report"), MODERN_DISGUISES, ids=[n for n, _ in MODERN_DISGUISES])
def test_modern_arxiv_disguises(name: str, report: str) -> None:
    canonical = "10.48550/arxiv.2005.11401" if "doi.org" in report else MODERN
    _caught(report, canonical)


@pytest.mark.parametrize(("name", "report"), LEGACY_DISGUISES, ids=[n for n, _ in LEGACY_DISGUISES])
def test_legacy_arxiv_disguises(name: str, report: str) -> None:
    _caught(report, LEGACY)


@pytest.mark.parametrize(("name", "report"), DOI_DISGUISES, ids=[n for n, _ in DOI_DISGUISES])
def test_doi_disguises(name: str, report: str) -> None:
    _caught(report, DOI)


def test_at_least_fifteen_disguises_each() -> None:
    assert min(len(MODERN_DISGUISES), len(LEGACY_DISGUISES), len(DOI_DISGUISES)) >= 15


def test_disguised_evidence_still_grounds() -> None:
    """The same view reads tool outputs: a disguised id in evidence grounds a plain citation."""
    for _, disguised in MODERN_DISGUISES[:-1]:
        v = audit("We cite arXiv:2005.11401.", [{"tool": "t", "output": disguised}])
        assert v.ok, (disguised, v.findings)
