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

BREAKS = {
    "LF": "\n",
    "CR": "\r",
    "VT": "\v",
    "FF": "\f",
    "NEL": "\x85",
    "U+2028": "\u2028",
    "U+2029": "\u2029",
}
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
    # issue 18
    *((f"{name} in the digits", f"arXiv:2005.114{b}01") for name, b in BREAKS.items()),
    ("CR LF after the dot", "2005.\r\n11401"),
    ("line break in the YYMM after the prefix", "arXiv:20\n05.11401"),
    ("line break before the dot after the prefix", "arXiv:2005\n.11401"),
    ("variation selector", "2005.114\ufe0f01"),
    ("variation selector supplement", "2005.\U000e010011401"),
    ("tag characters", "2005\U000e0032.11401\U000e007f"),
    ("soft hyphen entity", "2005.114&shy;01"),
    ("zero-width space reference", "2005.114&#8203;01"),
    ("zero-width space hex reference", "20&#x200B;05.11401"),
    ("percent-encoded zero-width space", "https://arxiv.org/abs/2005.114%E2%80%8B01"),
    ("percent-encoded soft hyphen", "https://arxiv.org/abs/2005%C2%AD.11401"),
    ("Markdown escape", "2005\\.11401"),
    ("bold", "**2005.11401**"),
    ("emphasis inside", "2005.*11401*"),
    ("bold parts", "**2005**.**11401**"),
    ("space after the dot behind the prefix", "arXiv:2005. 11401"),
    ("two spaces after the dot behind the prefix", "arXiv: 2005.  11401"),
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
    # issue 18
    *(
        (f"dash U+{ord(d):04X}", f"hep{d}th/9711200")
        for d in "\u2012\u2013\u2014\u2015\ufe58\ufe63\uff0d\u2043"
    ),
    ("upper case with an en dash", "HEP\u2013TH/9711200"),
    ("line break after the slash", "hep-th/\n9711200"),
    ("line break after the hyphen", "hep-\nth/9711200"),
    ("line break inside the archive", "he\np-th/9711200"),
    ("line break before the slash", "hep-th\n/9711200"),
    ("U+2028 in the digits", "hep-th/97\u202811200"),
    ("CR in the digits", "hep-th/9711\r200"),
    ("Markdown escape", "hep\\-th/9711200"),
    ("emphasis after the slash", "hep-th/*9711200*"),
    ("emphasis on the archive", "*hep-th*/9711200"),
    ("variation selector", "hep-th/971\ufe0e1200"),
    ("soft hyphen entity", "hep-&shy;th/9711200"),
    ("fullwidth dash and slash", "hep\uff0dth\uff0f9711200"),
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
    # issue 18
    ("fraction slash", "10.1000\u2044made.up.42"),
    ("line break after 10.", "doi:10.\n1000/made.up.42"),
    ("line break in 10.", "doi:10\n.1000/made.up.42"),
    ("line break in the registrant", "doi:10.10\n00/made.up.42"),
    ("line break after the slash", "doi:10.1000/\nmade.up.42"),
    ("U+2028 after the slash", "10.1000/\u2028made.up.42"),
    ("a NUL right after it", "doi:10.1000/made.up.42\x00"),
    ("soft hyphen entity", "10.1000/made.&shy;up.42"),
    ("percent-encoded zero-width space", "https://doi.org/10.1000/made%E2%80%8B.up.42"),
    ("tag character", "10.1000/made.up\U000e0041.42"),
    ("Markdown escapes", "10\\.1000/made\\.up\\.42"),
    ("emphasis after the slash", "10.1000/*made.up.42*"),
    ("bold", "**doi:10.1000/made.up.42**"),
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


def test_at_least_thirty_disguises_each() -> None:
    assert min(len(MODERN_DISGUISES), len(LEGACY_DISGUISES), len(DOI_DISGUISES)) >= 30


def test_disguised_evidence_still_grounds() -> None:
    """The same view reads tool outputs: a disguised id in evidence grounds a plain citation."""
    for _, disguised in MODERN_DISGUISES[:-1]:
        v = audit("We cite arXiv:2005.11401.", [{"tool": "t", "output": disguised}])
        assert v.ok, (disguised, v.findings)


ALL = [
    *(("arXiv:2005.11401", n, d) for n, d in MODERN_DISGUISES if "doi.org" not in d),
    *(("arXiv:hep-th/9711200", n, d) for n, d in LEGACY_DISGUISES),
    *(("doi:10.1000/made.up.42", n, d) for n, d in DOI_DISGUISES),
]


@pytest.mark.parametrize(("plain", "name", "disguised"), ALL, ids=[f"{p} {n}" for p, n, _ in ALL])
def test_every_disguise_in_a_tool_output_grounds_the_plain_citation(
    plain: str, name: str, disguised: str
) -> None:
    """A returned id written in disguise by the tool is still the returned id: no error."""
    verdict = audit(f"We cite {plain} here.", [{"tool": "t", "output": f"found: {disguised}"}])
    assert verdict.ok, (disguised, verdict.findings)
    verdict = audit(f"We cite {disguised} here.", [{"tool": "t", "output": f"found: {disguised}"}])
    assert verdict.ok, (disguised, verdict.findings)


def test_a_doi_cut_inside_its_suffix_is_never_a_false_error() -> None:
    """A break inside a DOI suffix may end the DOI or wrap it: either reading grounds it."""
    returned = [{"tool": "t", "output": {"doi": "10.1000/made.up.42"}}]
    for cut in ("doi:10.1000/made.\nup.42", "doi:10.1000/ma\n  de.up.42", "10.1000/made.up\r\n.42"):
        assert audit(f"See {cut} for more.", returned).ok, cut
    # ... the cut form returned, the whole DOI cited
    cut_output = [{"tool": "t", "output": "see doi:10.1000/made.\nup.42"}]
    assert audit("See doi:10.1000/made.up.42.", cut_output).ok
    # ... and a cut DOI that no tool returned in either reading is still an error
    verdict = audit("See doi:10.1000/made.\nup.43 for more.", returned)
    assert [f.code for f in verdict.findings] == ["fabricated-id"]


def test_an_en_dash_in_prose_glues_nothing() -> None:
    """Dashes fold only inside archive names: prose around ids reads exactly as before."""
    report = "Pages 10\u201320 (2019\u20132020) of doi:10.1000/made.up.42\u2014a paper."
    verdict = audit(report, [{"tool": "t", "output": "doi:10.1000/made.up.42"}])
    assert verdict.ok, verdict.findings
    assert [c.citation.raw for c in verdict.citations] == ["doi:10.1000/made.up.42"[4:]]
