"""ACL Anthology ids: new style ``2020.acl-main.703``, old style ``P19-1001`` (spec-2 section 4.2).

New-style ids have a shape ordinary prose does not (``YYYY.venue-volume.number``, the venue
starting with a letter), so they are found bare. Old-style ids look like part numbers, form
numbers and roads (``M16-1234``), so they are found only where the context says ACL: an
Anthology URL, an ACL DOI ``10.18653/v1/``, or an ``ACL:``/``ACL Anthology`` prefix.

Canonical id: as printed, new style lower-case, old style with an upper-case letter; a ``vN``
(revision) or ``eN`` (erratum) suffix is a version, not identity. ACL registers each paper's
DOI as ``10.18653/v1/<id>``, so every mention carries that DOI as an alias: evidence naming
the paper by either grounds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from groundcheck.extractors.arxiv import acl_dots
from groundcheck.extractors.hints import lowered_bytes, needle_near, needle_positions
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = ["ACL", "ACL_DOI_PREFIX", "ACL_EXTRACTOR", "acl_from_doi", "find_acl"]

SCHEME = "acl"
ACL = Scheme(SCHEME, "ACL Anthology", "ACL:")
ACL_DOI_PREFIX = "10.18653/v1/"
"""The DOI prefix ACL registers papers under (acl-anthology ``bin/anthology/data.py``)."""

_NEW_TAIL = re.compile(
    r"\.(?<=[0-9]{4}\.)([A-Za-z][A-Za-z0-9]*-[A-Za-z0-9]+)\.([0-9]+)(?:[vVeE]([0-9]+))?"
    r"(?![A-Za-z0-9-]|\.[0-9])"
)
"""Anchored on the dot after the year (a literal the engine searches for), as the arXiv
extractor is; the year and what precedes it are checked by hand."""

_OLD = LazyPattern(
    r"(?:(?i:aclanthology\.org/|aclweb\.org/anthology/(?:[A-Za-z]/[A-Za-z][0-9]{2}/)?"
    r"|aclanthology\.info/papers/|10\.18653/v1/)"
    r"|(?<![A-Za-z0-9])(?i:acl)(?:[ \t]{0,4}:[ \t]{0,4}|[ \t]{1,4}(?i:anthology)[ \t]{0,4}"
    r"(?::[ \t]{0,4})?))"
    r"([A-Za-z][0-9]{2}-[0-9]{4})(?:[vVeE]([0-9]+))?(?![A-Za-z0-9-])"
)
"""Old style only after an ACL context; matched at each ``acl``/``10.18653`` hint."""

_DOI_SLASH = range(len("10.18653"), len("10.18653") + 1)
"""At a ``10.18653`` hint only the ``10.18653/v1/`` branch of :data:`_OLD` can match, so only
hints with that ``/`` are read (found from the ``/`` of the text, without a full-text scan)."""
_WHOLE_NEW = LazyPattern(r"(?:19[5-9][0-9]|20[0-9][0-9])\.[a-z][a-z0-9]*-[a-z0-9]+\.[0-9]+")
_WHOLE_OLD = LazyPattern(r"[A-Za-z][0-9]{2}-[0-9]{4}")


def _canonical(raw: str) -> str:
    """New style lower-case; old style with its venue letter upper-case (``n19-1423``)."""
    return raw[0].upper() + raw[1:] if _WHOLE_OLD.fullmatch(raw) else raw.lower()


def _mention(raw: str, start: int, end: int, version: str | None) -> Mention:
    canonical = _canonical(raw)
    return Mention(
        Identifier(SCHEME, canonical, int(version) if version else None),
        start,
        end,
        aliases=(Identifier("doi", ACL_DOI_PREFIX + canonical.lower()),),
    )


def acl_from_doi(suffix: str) -> Identifier | None:
    """The ACL id a ``10.18653/v1/`` DOI names, given what follows that prefix.

    DOIs compare lower-cased and Semantic Scholar prints them upper-cased, so the id is
    re-cased by the rule above.

    >>> acl_from_doi("n19-1423")
    Identifier(scheme='acl', id='N19-1423', version=None)
    >>> acl_from_doi("2020.ACL-MAIN.447").id
    '2020.acl-main.447'
    """
    if _WHOLE_OLD.fullmatch(suffix) or _WHOLE_NEW.fullmatch(suffix.lower()):
        return Identifier(SCHEME, _canonical(suffix))
    return None


_ACL_COLON = range(len("acl"), len("acl") + 4 + 1)
_ACL_SLASH = range(len("aclweb.org"), len("aclanthology.info") + 1)
_ANTHOLOGY_AFTER = range(len("acl") + 1, len("acl") + 4 + 1)


def _hints(text: str) -> list[int]:
    """Where :data:`_OLD` may match, in order: at ``acl`` it needs a colon after up to four
    blanks, a host's ``/`` (``aclweb.org/``, ``aclanthology.org/``, ``aclanthology.info/``) or
    ``anthology`` after one to four blanks; at ``10.18653`` its ``/``. The colons and slashes
    of a text are rare and ``anthology`` is a long needle, so no full-text scan for the short,
    common ``acl`` is needed."""
    found = {
        *needle_near(text, "acl", ":", _ACL_COLON),
        *needle_near(text, "acl", "/", _ACL_SLASH),
        *needle_near(text, "10.18653", "/", _DOI_SLASH),
    }
    anthology = needle_positions(text, "anthology")
    if anthology:
        low = lowered_bytes(text)
        found.update(
            at - k
            for at in anthology
            for k in _ANTHOLOGY_AFTER
            if at >= k and low.startswith(b"acl", at - k)
        )
    return sorted(found)


def find_acl(text: str) -> Iterator[Mention]:
    """ACL Anthology ids: new style anywhere, old style after an ACL URL, DOI or prefix."""
    for dot in acl_dots(text):  # the dots after a year 1950-2099, shared with find_arxiv
        m = _NEW_TAIL.match(text, dot)
        if m is None:
            continue
        year_at = dot - 4
        before = text[year_at - 1] if year_at else ""
        if before.isascii() and (before.isalnum() or before == "."):
            continue  # "v2023.acl-long.1", "1.2023.acl-long.1": part of another token
        raw = text[year_at : m.end(2)]
        yield _mention(raw, year_at, m.end(), m.group(3))
    resume = 0
    for at in _hints(text):
        if at < resume:
            continue
        old = _OLD.match(text, at)
        if old is None:
            continue
        resume = old.end()
        yield _mention(old.group(1), old.start(1), old.end(), old.group(2))


ACL_EXTRACTOR = FunctionExtractor(
    "acl",
    find_acl,
    "ACL Anthology ids: 2020.acl-main.703; P19-1001 in aclanthology.org URLs, after ACL:, "
    "or in 10.18653/v1/ DOIs",
    schemes=(ACL,),
)
