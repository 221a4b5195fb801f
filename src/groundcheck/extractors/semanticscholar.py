"""Semantic Scholar paper ids, from URLs and the ``CorpusId:`` prefix only (spec-2 section 5).

Two id forms that do not map to each other offline: the 40-hex paper SHA
(``semanticscholar.org/paper/<slug>/<sha>``, scheme ``s2``) and the integer CorpusId
(``CorpusId:215416146``, ``api.semanticscholar.org/CorpusID:215416146``, scheme ``s2-corpus``).
A bare 40-hex string is a git commit or a SHA-1 of anything, so it is never taken without the
URL. Semantic Scholar's other prefixes (``ARXIV:``, ``PMID:``, ``ACL:``, ``DOI:``) are read by
those families' extractors.
"""

from __future__ import annotations

from collections.abc import Iterator

from groundcheck.extractors.hints import needle_near
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = ["S2", "S2_CORPUS", "S2_EXTRACTOR", "find_semanticscholar"]

S2 = Scheme("s2", "Semantic Scholar", "https://www.semanticscholar.org/paper/")
S2_CORPUS = Scheme("s2-corpus", "Semantic Scholar corpus", "CorpusId:")

_PAPER = LazyPattern(
    r"(?<![A-Za-z0-9-])(?i:semanticscholar\.org/(?:graph/v1/|api/1/|v1/)?paper/)"
    r"(?:[^\s/?#\"'<>]{1,300}/)?([0-9A-Fa-f]{40})(?![0-9A-Za-z])"
)
"""The SHA after ``/paper/`` or after ``/paper/<slug>/``; the slug is bounded and holds no
``/``, so each URL costs a bounded amount."""
_CORPUS = LazyPattern(
    r"(?<![A-Za-z0-9])(?i:corpus[ \t]?id)[ \t]{0,4}:[ \t]{0,4}([0-9]{1,12})(?![0-9A-Za-z])"
)
"""``CorpusId:215416146``, ``CorpusID: 215416146``, ``Corpus ID: 215416146`` (also inside
``api.semanticscholar.org/CorpusID:...`` and ``/graph/v1/paper/CorpusId:...``)."""


_HOST = "semanticscholar.org/"
_HOST_SLASH = range(len(_HOST) - 1, len(_HOST))
_CORPUS_COLON = range(len("corpusid"), len("corpus id") + 4 + 1)


def find_semanticscholar(text: str) -> Iterator[Mention]:
    """Semantic Scholar paper SHAs in paper URLs and CorpusIds after a ``CorpusId:`` prefix."""
    # The needle's own "/" locates it; a CorpusId has its colon 8 to 13 characters after
    # "corpus" ("corpus" [ \t]? "id" [ \t]{0,4} ":").
    for at in needle_near(text, _HOST, "/", _HOST_SLASH):
        m = _PAPER.match(text, at)
        if m is not None:
            yield Mention(Identifier(S2.name, m.group(1).lower()), m.start(1), m.end(1))
    for at in needle_near(text, "corpus", ":", _CORPUS_COLON):
        m = _CORPUS.match(text, at)
        if m is not None:
            number = m.group(1).lstrip("0") or "0"
            yield Mention(Identifier(S2_CORPUS.name, number), m.start(1), m.end(1))


S2_EXTRACTOR = FunctionExtractor(
    "semanticscholar",
    find_semanticscholar,
    "Semantic Scholar ids: semanticscholar.org/paper/... URLs (40-hex SHA), CorpusId:215416146",
    schemes=(S2, S2_CORPUS),
)
