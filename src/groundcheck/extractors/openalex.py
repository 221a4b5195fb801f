"""OpenAlex work ids, from openalex.org URLs and ``openalex:``/``OpenAlex ID`` prefixes (spec-2 §5).

A work id is ``W`` + digits (``W2741809807``); OpenAlex says ids are case-insensitive, and the
canonical form here is upper-case. A bare ``W12345678`` also names watt values, part numbers
and week numbers, so it is taken only from a URL (``https://openalex.org/W...``,
``api.openalex.org/works/W...``) or after a prefix. Only works (``W``) are cited; authors,
sources and institutions (``A``, ``S``, ``I``) are not papers.
"""

from __future__ import annotations

from collections.abc import Iterator

from groundcheck.extractors.hints import needle_positions
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = ["OPENALEX", "OPENALEX_EXTRACTOR", "find_openalex"]

SCHEME = "openalex"
OPENALEX = Scheme(SCHEME, "OpenAlex", "https://openalex.org/")

_WORK = LazyPattern(
    r"(?<![A-Za-z0-9-])(?:(?i:openalex\.org/(?:works/)?)"
    r"|(?i:openalex)(?:[ \t]{0,4}:[ \t]{0,4}|[ \t]{1,4}(?i:id)[ \t]{0,4}:?[ \t]{0,4}))"
    r"([Ww][0-9]{4,12})(?![0-9A-Za-z])"
)


def find_openalex(text: str) -> Iterator[Mention]:
    """OpenAlex work ids: ``openalex.org/W2741809807``, ``openalex:W2741809807``."""
    for at in needle_positions(text, "openalex"):
        m = _WORK.match(text, at)
        if m is not None:
            yield Mention(Identifier(SCHEME, m.group(1).upper()), m.start(1), m.end(1))


OPENALEX_EXTRACTOR = FunctionExtractor(
    "openalex",
    find_openalex,
    "OpenAlex work ids in openalex.org URLs or after openalex: / OpenAlex ID: W2741809807",
    schemes=(OPENALEX,),
)
