"""Author lists as reference styles write them, and the surname a citation names them by.

APA and Harvard write ``Lewis, P., Perez, E., & Piktus, A.``; IEEE ``P. Lewis, E. Perez, and
A. Piktus``; Vancouver ``Lewis P, Perez E, Piktus A``; Chicago and ACM full names
``Patrick Lewis, Ethan Perez, and Aleksandra Piktus``; any of them may end in ``et al.``. An
author–year citation names the first author's surname (``Lewis et al. (2020)``), which is
compared on its last word, case and accents folded, so ``van der Berg`` is ``Van der Berg``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from groundcheck.text import LazyPattern

__all__ = [
    "looks_like_authors",
    "reads_as_authors",
    "split_authors",
    "surname",
    "surname_key",
]

_UP = "A-ZÀ-ÖØ-ÞĀ-ſ"
_NAME = rf"[{_UP}][\w'’\-]{{0,40}}"
_PARTICLE = r"(?:(?:van|von|de|der|den|del|della|di|da|du|le|la|dos|das|ter|ten|bin|al|el)\s){0,3}"
_INITIALS = rf"(?:[{_UP}]\.(?:[ \t]?-?[ \t]?[{_UP}]\.){{0,3}})"
_ET_AL = LazyPattern(r"(?i),?\s*\bet\.?\s+al\b\.?")
_APA = LazyPattern(rf"({_PARTICLE}{_NAME}(?:[ \-]{_NAME}){{0,2}}),\s*({_INITIALS})")
_ELLIPSIS = LazyPattern(r"\s*(?:\.\.\.|…)\s*")
"""APA 7 elides the middle of a long author list: "Küchemann, S., ... & Kasneci, G."."""
_INITIALLED = LazyPattern(rf"[\w'’\-]{{2,}},\s*{_INITIALS}")
_SPLIT = LazyPattern(r"\s*;\s*|\s*,\s*(?:and\s+|&\s*)?|\s+and\s+|\s*&\s*")
_PIECE = LazyPattern(
    rf"(?:{_INITIALS}\s?)?{_PARTICLE}{_NAME}(?:[ \-](?:{_INITIALS}|{_PARTICLE}{_NAME})){{0,3}}$"
    rf"|{_INITIALS}$"
)
"""One name of a list: ``Lewis``, ``P.``, ``P. Lewis``, ``Lewis P``, ``Patrick Lewis``."""
_TITLE_WORDS = frozenset(
    {
        "the", "for", "with", "from", "via", "is", "are", "learning", "models", "model", "networks",
        "network", "neural", "deep", "language", "large", "survey", "review", "analysis", "towards",
        "toward", "using", "based", "data", "system", "systems", "generation", "retrieval",
        "attention", "transformers", "transformer", "education", "journal", "proceedings",
        "conference", "international", "science", "research",
    }
)  # fmt: skip
"""Words that make a short capitalised phrase a title or a venue rather than a name."""


_NOT_A_NAME = frozenset(
    {
        "As", "In", "The", "See", "Also", "From", "And", "Our", "We", "This", "That", "These",
        "Their",
        "His", "Her", "Its", "A", "An", "On", "At", "By", "For", "With", "Both", "Such", "Like",
        "Unlike", "While", "Where", "When", "Recent", "Prior", "Related", "Earlier", "Later",
        "Here", "There", "Some", "Many", "Most", "Other", "Others", "Several", "According",
        "Following", "Notably", "Similarly", "Finally", "However", "Moreover", "Meanwhile", "Then",
        "Thus", "Hence", "Indeed", "Instead", "Overall", "Today", "Now", "Next",
    }
)  # fmt: skip
"""Capitalised words that open a sentence, never an author list of one."""


def looks_like_authors(text: str) -> bool:
    """Is the whole of ``text`` an author list (or one author, or an organisation)?

    Every piece between commas, ``and`` and ``&`` must be a name or initials, in any of the
    styles above; a piece with a title word ("Learning", "Journal") is not a name.

    >>> [looks_like_authors(s) for s in (
    ...     "Lewis, P., Perez, E., & Piktus, A.", "P. Lewis and E. Perez", "Lewis P, Perez E",
    ...     "Lewis et al.", "Patrick Lewis, Ethan Perez, and Aleksandra Piktus", "OpenAI",
    ...     "Attention Is All You Need", "Frontiers in Education", "P. Lewis. Retrieval models")]
    [True, True, True, True, True, True, False, False, False]
    """
    s = _ELLIPSIS.sub(", ", text.replace("~", " ")).strip(" \t\n,;:*_")
    if not s or len(s) > 1500:
        return False
    s = _ET_AL.sub("", s).strip(" \t,.")
    if not s:
        return False
    pieces = [p for p in _SPLIT.compiled.split(s) if p]
    if not pieces or len(pieces) > 300 or not all(_PIECE.match(p) for p in pieces):
        return False
    if len(pieces) == 1 and pieces[0] in _NOT_A_NAME:
        return False
    return not any(
        w.casefold() in _TITLE_WORDS for p in pieces for w in p.split() if not w.endswith(".")
    )


def reads_as_authors(text: str) -> bool:
    """Looser than :func:`looks_like_authors`: an author list some piece of which did not
    parse, but which still has the "Surname, I." pairs of one, or is a few names ending in
    "et al." ("Lewis, P. et al."; never "… was introduced by Lewis et al.").

    >>> reads_as_authors("Lewis, P., Perez, E., Küchemann, S., ... & Kasneci, G.")
    True
    >>> reads_as_authors("Retrieval augmented generation was introduced by Lewis et al.")
    False
    """
    if looks_like_authors(text):
        return True
    head = text[:1500].replace("~", " ")
    if len(_INITIALLED.findall(head)) >= 2:
        return True
    m = _ET_AL.search(head)
    if m is None or head[m.end() :].strip(" \t\n.,;:*_"):
        return False
    words = head[: m.start()].split()
    return 0 < len(words) <= 6 and not any(
        w[:1].islower() and w.casefold() not in _PARTICLES for w in words
    )


_PARTICLES = frozenset(
    {
        "van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "le", "la", "dos",
        "das", "ter", "ten", "bin", "al", "el",
    }
)  # fmt: skip


def split_authors(text: str, limit: int = 100) -> tuple[str, ...]:
    """The names of an author list, as written, first author first (``et al.`` dropped).

    >>> split_authors("Lewis, P., Perez, E., & Piktus, A.")
    ('Lewis, P.', 'Perez, E.', 'Piktus, A.')
    >>> split_authors("P. Lewis, E. Perez, and A. Piktus")
    ('P. Lewis', 'E. Perez', 'A. Piktus')
    >>> split_authors("Lewis et al.")
    ('Lewis',)
    """
    s = _ELLIPSIS.sub(", ", text.replace("~", " ")).strip(" \t\n,;:*_")
    s = _ET_AL.sub("", s).strip(" ,")
    if not s:
        return ()
    apa = list(_APA.finditer(s))
    if apa and apa[0].start() == 0:
        names = [f"{m.group(1)}, {m.group(2)}" for m in apa]
        return tuple(names[:limit])
    names = [p.strip() for p in _SPLIT.compiled.split(s) if p and p.strip()]
    return tuple(names[:limit])


def surname(name: str) -> str:
    """The surname of one name as written in any of the styles above.

    >>> names = ("Lewis, P.", "P. Lewis", "Lewis P", "Patrick Lewis", "van der Berg, J.")
    >>> [surname(n) for n in names]
    ['Lewis', 'Lewis', 'Lewis', 'Lewis', 'van der Berg']
    """
    name = name.strip(" \t.,;")
    if "," in name:
        return name.split(",", 1)[0].strip()
    words = name.split()
    if not words:
        return ""
    if len(words) >= 2 and words[-1].isupper() and len(words[-1]) <= 3 and "." not in words[-1]:
        return " ".join(words[:-1])  # Vancouver: "Lewis P", "Lewis PS"
    while len(words) > 1 and words[-1].rstrip(".").casefold() in ("jr", "sr", "ii", "iii", "iv"):
        words.pop()
    return words[-1]


@lru_cache(maxsize=4096)
def surname_key(name: str) -> str:
    """What two spellings of a surname share: its last word, case and accents folded.

    >>> surname_key("van der Berg") == surname_key("Van der Berg") == surname_key("Berg")
    True
    >>> surname_key("Müller") == surname_key("Muller")
    True
    """
    words = name.replace("-", " ").split()
    last = words[-1] if words else name
    decomposed = unicodedata.normalize("NFKD", last.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch) and ch.isalnum())
