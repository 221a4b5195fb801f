"""OpenReview forum ids, from openreview.net URLs only (spec-2 section 4.1).

An OpenReview id is a random 7-14 character token (``HklBjCEKvH``), indistinguishable in prose
from a hash, an API key or a file name, and nobody writes it with a prefix; so only an
``openreview.net/forum|pdf|attachment?...id=`` URL makes one. Ids are case-sensitive: the
canonical id is the id exactly as written. ``noteId=`` names a reply inside the forum and
does not change the work; ``/references/pdf?id=``, ``/revisions?id=``, ``/pdf/<hash>.pdf``,
``/group?id=`` and ``/profile?id=`` are not forum ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from groundcheck.extractors.hints import hint_positions, lowered
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier, Mention, Scheme

__all__ = ["OPENREVIEW", "OPENREVIEW_EXTRACTOR", "find_openreview"]

SCHEME = "openreview"
OPENREVIEW = Scheme(SCHEME, "OpenReview", "https://openreview.net/forum?id=")
"""Cited as the forum URL, the form people write."""

_FORUM = re.compile(
    r"(?<![A-Za-z0-9-])(?i:openreview\.net)/(?:forum|pdf|attachment)\?"
    r"(?:[^\s#&\"'<>]*&)*?id=([A-Za-z0-9_-]{7,14})(?![A-Za-z0-9_-])"
)
"""Each repetition of the lazy group must consume an ``&``, so the pattern is linear; the host
is matched case-insensitively, the id is not."""


def find_openreview(text: str) -> Iterator[Mention]:
    """OpenReview forum ids in ``openreview.net/forum?id=``, ``/pdf?id=``, ``/attachment?id=``."""
    low = lowered(text)
    if "openreview.net/" not in low:
        return
    for at in hint_positions(low, ("openreview.net/",)):
        m = _FORUM.match(text, at)
        if m is not None:
            yield Mention(Identifier(SCHEME, m.group(1)), m.start(1), m.end(1))


OPENREVIEW_EXTRACTOR = FunctionExtractor(
    "openreview",
    find_openreview,
    "OpenReview forum ids in openreview.net URLs: forum?id=HklBjCEKvH (case-sensitive)",
    schemes=(OPENREVIEW,),
)
