"""Grounding: which tool calls returned each cited work, and which returned title it matches.

Identifiers ground by exact key (every name of a work, aliases included). Titles ground by
fuzzy similarity (see :mod:`groundcheck.grounding.titles`). A title-like phrase that matches
nothing and is not written as a citation (see :class:`~groundcheck.document.layout.Layout`) is
just a phrase: it is dropped here, so no later stage ever sees it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from groundcheck.document.layout import Layout
from groundcheck.grounding.titles import EvidenceTitles
from groundcheck.model import Citation, EvidenceSet, Grounding

__all__ = ["NOT_CITATIONS", "ground"]

NOT_CITATIONS = frozenset({"code", "query", "allowed"})
"""Mention kinds that are written but not cited: a URL in a code span or block, an API
endpoint (``https://api.example.org/v1/search?q=``), a URL the policy's ``allowed_urls``
lets a report cite without retrieval. Tool outputs still return them."""


def ground(
    citations: Sequence[Citation],
    evidence: EvidenceSet,
    titles: EvidenceTitles | None,
    threshold: float,
    layout: Layout | None = None,
) -> tuple[Grounding, ...]:
    """A grounding for every citation: identifiers by key, titles by fuzzy match.

    With a ``layout``, unmatched title phrases that are not written as citations are left out.
    """
    cited = [c for c in citations if c.kind not in NOT_CITATIONS]
    return tuple(
        g
        for g in _ground_each(cited, evidence, titles, threshold)
        if layout is None or not g.citation.is_title or g.grounded or layout.cited(g.citation)
    )


def _ground_each(
    citations: Sequence[Citation],
    evidence: EvidenceSet,
    titles: EvidenceTitles | None,
    threshold: float,
) -> Iterator[Grounding]:
    for c in citations:
        if c.malformed is not None:
            yield Grounding(c)
        elif c.is_title:
            match = titles.match(c.raw or c.id, threshold) if titles is not None else None
            if titles is None or match is None:
                yield Grounding(c)
            else:
                yield Grounding(c, titles.calls_for(match.title), match.title, match.score)
        else:
            yield Grounding(c, evidence.calls_returning(c.keys))
