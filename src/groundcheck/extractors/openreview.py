"""OpenReview forum ids, from openreview.net URLs only (spec-2 section 4.1).

An OpenReview id is a random 7-14 character token (``HklBjCEKvH``), indistinguishable in prose
from a hash, an API key or a file name, and nobody writes it with a prefix; so only an
``openreview.net/forum|pdf|attachment?...id=`` URL makes one. Ids are case-sensitive: the
canonical id is the id exactly as written. ``noteId=`` names a reply inside the forum and
does not change the work; ``/references/pdf?id=``, ``/revisions?id=``, ``/pdf/<hash>.pdf``,
``/group?id=`` and ``/profile?id=`` are not forum ids.
"""

from __future__ import annotations

from collections.abc import Iterator

from groundcheck.extractors.hints import needle_near
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = ["OPENREVIEW", "OPENREVIEW_EXTRACTOR", "find_openreview"]

SCHEME = "openreview"
OPENREVIEW = Scheme(SCHEME, "OpenReview", "https://openreview.net/forum?id=")
"""Cited as the forum URL, the form people write."""

_PAGE = LazyPattern(r"(?<![A-Za-z0-9-])(?i:openreview\.net)/(?:forum|pdf|attachment)\?")
"""The host (any case) and a forum page; the id is then read from the query by hand."""
_QUERY_END = LazyPattern(r"[\s#\"'<>]")
_ID = LazyPattern(r"[A-Za-z0-9_-]{7,14}")
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_MAX_QUERY = 2048
"""Real OpenReview queries are a few dozen characters; reading at most this much per URL keeps
a flood of parameters (or of URLs without white space) linear."""


_HOST = "openreview.net/"
_HOST_SLASH = range(len(_HOST) - 1, len(_HOST))


def find_openreview(text: str) -> Iterator[Mention]:
    """OpenReview forum ids in ``openreview.net/forum?id=``, ``/pdf?id=``, ``/attachment?id=``."""
    for at in needle_near(text, _HOST, "/", _HOST_SLASH):  # the host's own "/" locates it
        page = _PAGE.match(text, at)
        if page is None:
            continue
        limit = min(len(text), page.end() + _MAX_QUERY)
        stop = _QUERY_END.search(text, page.end(), limit)
        end = stop.start() if stop is not None else limit
        pos = page.end()
        while pos < end:
            amp = text.find("&", pos, end)
            piece_end = end if amp == -1 else amp
            if text.startswith("id=", pos):
                value = _ID.match(text, pos + 3, piece_end)
                if value is not None and text[value.end() : value.end() + 1] not in _ID_CHARS:
                    yield Mention(Identifier(SCHEME, value.group()), value.start(), value.end())
                break  # the first id= decides
            pos = piece_end + 1


OPENREVIEW_EXTRACTOR = FunctionExtractor(
    "openreview",
    find_openreview,
    "OpenReview forum ids in openreview.net URLs: forum?id=HklBjCEKvH (case-sensitive)",
    schemes=(OPENREVIEW,),
)
