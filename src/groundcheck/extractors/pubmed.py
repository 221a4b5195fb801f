"""PubMed ids (PMID) and PubMed Central ids (PMCID), in one module (spec-2 sections 2.1, 2.2).

They live together because the worst error here is a namespace one: a real checker turned
``PMC128915`` into PMID 128915, which PubMed resolved to an unrelated 1975 paper, and reported
it "verified". Three rules close that, and both finders share them:

* a PMID is a number *after its own label* (``PMID:``, ``PubMed ID``) or in a PubMed /
  Europe PMC ``MED`` URL -- a bare number is never a PMID, and ``PMC`` is not a PMID label;
* a PMCID is ``PMC`` + digits with an ASCII boundary before ``PMC``, so the digits inside
  ``PMC128915`` start no token of their own; digits after a ``PMCID:`` label get the prefix;
* labels are matched by exact name, never by prefix (``PubMedCentral`` is not ``PubMed``).

Canonical ids: the PMID without leading zeros (``31452104``); the PMCID upper-case ``PMC``
plus digits without leading zeros. ``PMID.N`` and ``PMC<n>.<v>`` carry a version.
"""

from __future__ import annotations

from collections.abc import Iterator

from groundcheck.extractors.hints import hints_in, lowered_bytes, needle_positions
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = [
    "PMCID",
    "PMCID_EXTRACTOR",
    "PMID",
    "PMID_EXTRACTOR",
    "find_pmcid",
    "find_pmid",
]

PMID = Scheme("pmid", "PMID", "PMID:", version_mark=".")
PMCID = Scheme("pmcid", "PMCID", "", version_mark=".")
"""A PMCID already starts with ``PMC``, so it is cited as it is: ``PMC3531190``."""

PMID_MAX_DIGITS = 8
"""PMIDs issued in 2026 are near 42,000,000; a 9-digit PMID is malformed until PubMed passes
99,999,999 (spec-2 section 7 asks to revisit this)."""
PMCID_MAX_DIGITS = 9

_SP = r"[ \t]{0,8}"
_NUMBER = r"[0-9]+(?:\.[1-9][0-9]?(?![0-9]))?"
"""A number and its version: versions count from 1 ("not versioned ... version 1"), so ``.0``
is no version and ``PMID: 1.0`` is PMID 1 before a full stop."""
_PMID_LABEL = LazyPattern(
    r"(?<![A-Za-z0-9])"
    r"(?:(?:[Pp][Mm][Ii][Dd][Ss]?|[Pp][Uu][Bb][Mm][Ee][Dd][ \t_-]?[Ii][Dd][Ss]?)"
    rf"(?:{_SP}[:=#]{_SP}|[ \t]{{1,8}})|[Pp][Uu][Bb][Mm][Ee][Dd]{_SP}[:=#]{_SP})"
    rf"({_NUMBER}(?:{_SP}(?:,|;|&|[Aa][Nn][Dd]){_SP}{_NUMBER})*)(?![0-9A-Za-z])"
)
"""``PMID: n``, ``PMID n``, ``pmid:n``, ``PMID = n``, ``PMID #n``, ``PubMed ID n``, ``PubMed: n``
and a list after one label (``PMIDs: 1, 2 and 3``). ``PubMed`` alone needs ``:``/``=``/``#``:
"searched PubMed 2010-2020" names no paper. Runs of blanks are bounded, so a flood of spaces
costs a constant per label."""
_LIST_ITEM = LazyPattern(r"([0-9]+)(?:\.([1-9][0-9]?)(?![0-9]))?")
_PMID_URL = LazyPattern(
    r"(?<![A-Za-z0-9-])(?:[Pp][Uu][Bb][Mm][Ee][Dd]\.[Nn][Cc][Bb][Ii]\.[Nn][Ll][Mm]\.[Nn][Ii][Hh]"
    r"\.[Gg][Oo][Vv]/|(?i:ncbi\.nlm\.nih\.gov/pubmed/)|(?i:europepmc\.org/(?:article|abstract)/med/))"
    r"([0-9]+)(?![0-9])"
)
"""PubMed and Europe PMC ``MED`` URLs; ``/?term=`` (a search) has no number here and is skipped."""

_PMC_ID = LazyPattern(
    r"(?<![A-Za-z0-9])[Pp][Mm][Cc]([0-9]+)(?:\.([1-9][0-9]{0,2}))?(?![0-9A-Za-z])"
)
"""``PMC3531190``, ``pmc3531190`` (URLs), ``PMC13187626.1``. ``PMC 123`` (a space) is not one."""
_PMCID_LABEL = LazyPattern(
    r"(?<![A-Za-z0-9])"
    r"(?:(?i:pmc[_-]?id(?:[_-]?ver)?)|[Pp][Mm][Cc]|(?i:pubmed[ _-]?central(?:[ _-]?id)?))"
    rf"{_SP}[:=]{_SP}([0-9]+)(?![0-9A-Za-z]|\.[0-9])"
)
"""A PMCID label followed by bare digits, which get the ``PMC`` prefix (Semantic Scholar writes
``PMCID:2323736``)."""
_PMCID_EUROPE = LazyPattern(r"(?i:europepmc\.org/(?:article|abstract)/pmc/)([0-9]+)(?![0-9])")

_PMID_HINTS = ("pmid", "pubmed")
_PMCID_HINTS = ("pmc", "pubmed")
_EUROPE_PMC = b"europepmc.org/"


def _pmid_mention(digits: str, start: int, end: int, version: str | None) -> Mention:
    number = digits.lstrip("0")
    problem = None
    if not number:
        problem = "PMID 0 is never issued"
        number = "0"
    elif len(number) > PMID_MAX_DIGITS:
        problem = f"PMIDs have at most {PMID_MAX_DIGITS} digits, not {len(number)}"
    return Mention(
        Identifier(PMID.name, number, int(version) if version else None),
        start,
        end,
        malformed=problem,
    )


def _pmcid_mention(digits: str, start: int, end: int, version: str | None) -> Mention:
    number = digits.lstrip("0")
    problem = None
    if not number:
        problem = "PMC0 is never issued"
        number = "0"
    elif len(number) > PMCID_MAX_DIGITS:
        problem = f"PMCIDs have at most {PMCID_MAX_DIGITS} digits, not {len(number)}"
    return Mention(
        Identifier(PMCID.name, "PMC" + number, int(version) if version else None),
        start,
        end,
        malformed=problem,
    )


def find_pmid(text: str) -> Iterator[Mention]:
    """PMIDs after a PMID/PubMed label (each number of a list) and in PubMed URLs.

    ``PMID: 123456789`` (9 digits) and ``PMID: 0`` are malformed; ``PMID: PMC128915`` is a
    PMCID under the wrong label and yields no PMID.
    """
    hints = hints_in(text, _PMID_HINTS)
    europe = _europe_pmc(text)
    if not hints and not europe:
        return
    low = lowered_bytes(text)
    resume = 0
    for at in hints:
        if at < resume:
            continue
        m = _PMID_LABEL.match(text, at) or _PMID_URL.match(text, at)
        if m is None and low.startswith(b"ncbi.nlm.nih.gov/pubmed", at - 17):
            m = _PMID_URL.match(text, at - 17)  # the label hint sits inside the legacy URL
        if m is None:
            continue
        resume = m.end()
        if m.re is _PMID_URL.compiled:
            yield _pmid_mention(m.group(1), m.start(1), m.end(1), None)
            continue
        for item in _LIST_ITEM.finditer(text, m.start(1), m.end(1)):
            yield _pmid_mention(item.group(1), item.start(), item.end(), item.group(2))
    for at in europe:
        m = _PMID_URL.match(text, at)
        if m is not None:
            yield _pmid_mention(m.group(1), m.start(1), m.end(1), None)


def _europe_pmc(text: str) -> list[int]:
    """Where ``europepmc.org/`` starts, from the ``pmc`` positions PMCIDs need anyway (one
    scan fewer of the whole text)."""
    pmc = needle_positions(text, "pmc")
    if not pmc:
        return []
    low = lowered_bytes(text)
    return [at - 6 for at in pmc if at >= 6 and low.startswith(_EUROPE_PMC, at - 6)]


def find_pmcid(text: str) -> Iterator[Mention]:
    """PMCIDs: ``PMC`` + digits anywhere, digits after a PMCID label, Europe PMC PMC URLs.

    10 digits or more, and ``PMC0``, are malformed.
    """
    hints = hints_in(text, _PMCID_HINTS)
    if not hints:
        return
    low = lowered_bytes(text)
    seen_end = 0
    for at in hints:
        if at < seen_end:
            continue
        label = _PMCID_LABEL.match(text, at)
        if label is not None:
            seen_end = label.end()
            yield _pmcid_mention(label.group(1), label.start(1), label.end(1), None)
            continue
        if at >= 6 and low.startswith(_EUROPE_PMC, at - 6):
            europe = _PMCID_EUROPE.match(text, at - 6)
            if europe is not None:
                seen_end = europe.end()
                yield _pmcid_mention(europe.group(1), europe.start(1), europe.end(1), None)
                continue
        m = _PMC_ID.match(text, at)
        if m is not None:
            seen_end = m.end()
            yield _pmcid_mention(m.group(1), m.start(), m.end(), m.group(2))


PMID_EXTRACTOR = FunctionExtractor(
    "pmid",
    find_pmid,
    "PubMed ids after a label: PMID: 31452104, PubMed ID 22169532, pubmed.ncbi.nlm.nih.gov URLs",
    schemes=(PMID,),
)
PMCID_EXTRACTOR = FunctionExtractor(
    "pmcid",
    find_pmcid,
    "PubMed Central ids: PMC3531190, PMCID: 2323736, PMC and Europe PMC URLs",
    schemes=(PMCID,),
)
