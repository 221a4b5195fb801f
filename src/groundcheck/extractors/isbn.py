"""ISBNs, checked by their check digits and compared as ISBN-13 (spec-2 section 3).

A random digit string passes the ISBN-10 check one time in 11, and a random ``978...`` string
the ISBN-13 check one time in 10, so a check digit alone does not make a number an ISBN. An
ISBN is therefore taken only where it is written as one:

* after an ``ISBN``/``ISBN-10``/``ISBN-13``/``ISBN13``/``SBN`` label, validated -- a bad check
  digit there is *malformed* (never dropped, never "corrected": the correction might be another
  book);
* bare, only as a hyphenated ISBN-13 of five groups (``978-0-262-03561-3``) that passes the
  check, and not after ``/``: Springer chapter DOIs hold their book's ISBN
  (``10.1007/978-3-030-58452-8_13``) and must not yield a second citation.

Canonical id: 13 digits, no separators. An ISBN-10 becomes ``978`` + its first nine digits +
the recomputed check digit. ``979-0`` is the ISMN range (printed music), never an ISBN.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from groundcheck.extractors.hints import lowered_bytes, matches_at, needle_positions
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = [
    "ISBN",
    "ISBN_EXTRACTOR",
    "find_isbn",
    "isbn10_check",
    "isbn13",
    "isbn13_check",
    "isbn_problem",
]

SCHEME = "isbn"
ISBN = Scheme(SCHEME, "ISBN", "ISBN ")

_LABELLED = LazyPattern(
    r"(?<![A-Za-z0-9])[Ii]?[Ss][Bb][Nn][Ss]?(?:[-_]?1[03]|[ ]1[03](?=[ \t]{0,4}:))?"
    r"[ \t]{0,4}:?[ \t]{0,4}"
    r"([0-9]+(?:[- ][0-9]+){0,13}(?:[- ]?[Xx](?![A-Za-z0-9]))?)"
)
"""A label, then digits in groups separated by single hyphens or spaces, and a final ``X``.
At most 14 groups are read (an ISBN has 13 digits), so a flood of ``1-1-1-...`` after one
label costs a constant."""
_BARE = LazyPattern(r"97[89](?:-[0-9]+){3}-[0-9](?![0-9A-Za-z_-])")
"""A hyphenated ISBN-13 without a label: exactly five groups, 13 digits checked below. It starts
with the literal ``97`` so the engine searches for it; the left boundary (not after a letter,
digit or ``/ . _ -``) is checked by hand."""
_NOT_BEFORE_BARE = frozenset("/._-")
_GROUP = LazyPattern(r"[0-9]+|[Xx]")


def isbn10_check(first9: str) -> str:
    """The ISBN-10 check character of nine digits: ``sum((i+1)*d_i) mod 11``, 10 as ``X``."""
    total = sum((i + 1) * int(d) for i, d in enumerate(first9)) % 11
    return "X" if total == 10 else str(total)


def isbn13_check(first12: str) -> str:
    """The EAN-13 check digit of twelve digits (weights 1, 3, 1, 3, ...)."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def isbn_problem(compact: str) -> str | None:
    """Why ``compact`` (digits and ``X``, no separators) is not a valid ISBN, or None.

    >>> isbn_problem("9780262035618")
    'ISBN-13 check digit should be 3 (the ISBN-10 check digit was kept)'
    >>> isbn_problem("0262035618") is None
    True
    """
    n = len(compact)
    x_at = compact.upper().find("X")
    if n not in (10, 13):
        return f"ISBN has 10 or 13 digits, not {n}"
    if x_at != -1 and (n != 10 or x_at != 9):
        return "X only as the ISBN-10 check character"
    if n == 10:
        want = isbn10_check(compact[:9])
        return None if compact[9].upper() == want else f"ISBN-10 check digit should be {want}"
    if compact[:3] not in ("978", "979"):
        return "ISBN-13 starts with 978 or 979"
    if compact.startswith("9790"):
        return "979-0 is the ISMN (printed music) range, not an ISBN"
    want = isbn13_check(compact[:12])
    if compact[12] == want:
        return None
    kept = compact.startswith("978") and compact[12] == isbn10_check(compact[3:12])
    return f"ISBN-13 check digit should be {want}" + (
        " (the ISBN-10 check digit was kept)" if kept else ""
    )


def isbn13(compact: str) -> str | None:
    """The canonical ISBN-13 of a valid ISBN-10 or ISBN-13 (no separators), else None.

    >>> isbn13("080442957x")
    '9780804429573'
    """
    if isbn_problem(compact) is not None:
        return None
    if len(compact) == 13:
        return compact
    body = "978" + compact[:9]
    return body + isbn13_check(body)


def _take(groups: Iterator[re.Match[str]]) -> list[re.Match[str]]:
    """The groups the ISBN takes: up to the first total of 13 digits, else up to the last total
    of 10 before 13 is exceeded (``ISBN 0-262-03561-8 2016`` leaves the year), else every group
    up to 13 digits (so a short or broken ISBN is reported as it was written). Stops reading at
    the first group past 13, so a flood of groups costs nothing more."""
    taken: list[re.Match[str]] = []
    total = 0
    ten = 0
    for g in groups:
        total += len(g.group())
        if total > 13:
            break
        taken.append(g)
        if total == 13:
            return taken
        if total == 10:
            ten = len(taken)
    if ten:
        return taken[:ten]
    return taken or [g]


def _bare_matches(text: str) -> Iterator[re.Match[str]]:
    """``_BARE.finditer(text)``, tried only where ``97`` starts: its offsets are found by
    substring search (the shared needle positions), where a regex search for the literal
    visits every character. Matches do not overlap, as ``finditer``'s."""
    return matches_at(_BARE.match, text, needle_positions(text, "97"))


def find_isbn(text: str) -> Iterator[Mention]:
    """ISBNs after an ISBN label (validated; a bad one is malformed) and bare hyphenated ISBN-13s.

    ``SBN`` numbers (nine digits) are ISBN-10s with a leading ``0``.
    """
    labelled: list[tuple[int, int]] = []
    sbn = needle_positions(text, "sbn")
    if sbn:
        low = lowered_bytes(text)
        for at in sbn:
            start = at - 1 if at and low[at - 1] == 0x69 else at
            if labelled and start < labelled[-1][1]:
                continue
            m = _LABELLED.match(text, start)
            if m is None:
                continue
            groups = _take(_GROUP.finditer(text, m.start(1), m.end(1)))
            end = groups[-1].end()
            compact = "".join(g.group() for g in groups)
            if start == at:  # SBN: nine digits, an ISBN-10 without its leading 0
                if len(compact) != 9:
                    continue
                compact = "0" + compact
            labelled.append((m.start(1), end))
            problem = isbn_problem(compact)
            canonical = isbn13(compact) if problem is None else None
            yield Mention(
                Identifier(SCHEME, canonical or compact.upper()),
                m.start(1),
                end,
                malformed=problem,
            )
    k = 0
    for m in _bare_matches(text):
        before = text[m.start() - 1] if m.start() else ""
        if before and ((before.isascii() and before.isalnum()) or before in _NOT_BEFORE_BARE):
            continue
        while k < len(labelled) and labelled[k][1] <= m.start():
            k += 1
        if k < len(labelled) and labelled[k][0] < m.end():
            continue  # already read after its label
        compact = m.group().replace("-", "")
        if len(compact) == 13 and isbn_problem(compact) is None:
            yield Mention(Identifier(SCHEME, compact), m.start(), m.end())


ISBN_EXTRACTOR = FunctionExtractor(
    "isbn",
    find_isbn,
    "ISBNs after an ISBN label, and hyphenated ISBN-13s: ISBN 978-0-262-03561-3, ISBN-10: "
    "0-262-03561-8; compared as ISBN-13",
    schemes=(ISBN,),
)
