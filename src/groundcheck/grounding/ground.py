"""Grounding: which tool calls returned each cited work, and which returned title it matches.

Identifiers ground by exact key (every name of a work, aliases included). Titles ground by
fuzzy similarity (see :mod:`groundcheck.grounding.titles`). A *work* is grounded when any of
its identifiers is in a tool output; a work cited without identifiers, when its title
matches a returned title. A title-like phrase that matches nothing and is no work's title
is just a phrase: it is dropped here, so no later stage ever sees it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from attrs import evolve

from groundcheck.document.works import WorkSet
from groundcheck.grounding.titles import EvidenceTitles
from groundcheck.model import Citation, CitedWork, EvidenceSet, Grounding, WorkGrounding

__all__ = ["NOT_CITATIONS", "ground", "ground_works"]

NOT_CITATIONS = frozenset({"code", "query", "allowed"})
"""Mention kinds that are written but not cited: a URL in a code span or block, an API
endpoint (``https://api.example.org/v1/search?q=``), a URL the policy's ``allowed_urls``
lets a report cite without retrieval. Tool outputs still return them."""


def ground(
    citations: Sequence[Citation],
    evidence: EvidenceSet,
    titles: EvidenceTitles | None,
    threshold: float,
    cited: frozenset[int] | None = None,
) -> tuple[Grounding, ...]:
    """A grounding for every citation: identifiers by key, titles by fuzzy match.

    With ``cited`` (the ``id()`` of every title that is some work's title), unmatched title
    phrases that are no work's title are left out. Mentions of the kinds in
    :data:`NOT_CITATIONS` are not citations at all.
    """
    kept = [c for c in citations if c.kind not in NOT_CITATIONS]
    if cited is None:
        return tuple(_ground_each(kept, evidence, titles, threshold))
    return tuple(
        g
        for g in _ground_each(kept, evidence, titles, threshold)
        if g.calls or id(g.citation) in cited or not g.citation.is_title
    )


def _ground_each(
    citations: Sequence[Citation],
    evidence: EvidenceSet,
    titles: EvidenceTitles | None,
    threshold: float,
) -> Iterator[Grounding]:
    returning: dict[tuple[int, int], tuple[str, ...]] = {}  # a work cited again
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
            # Keyed by the objects naming the work: a flood's citations share them (the
            # extractor reads a repeated spelling once), and ints hash in C, Identifiers not.
            named = (id(c.identifier), id(c.aliases))
            calls = returning.get(named)
            if calls is None:
                calls = returning[named] = evidence.calls_returning(c.keys)
            yield Grounding(c, calls)


def ground_works(works: WorkSet, groundings: Sequence[Grounding]) -> tuple[WorkGrounding, ...]:
    """How each cited work is grounded, keyed ``w1``, ``w2``, … in the order written.

    A loose work (a title only looked up, see :class:`~groundcheck.document.works.WorkSet`)
    is kept only when its title matched.
    """
    # Only grounded citations: an ungrounded one adds no call to its work and grounds no
    # title (a flood of 100,000 ungrounded ids maps none of them).
    by_citation = {id(g.citation): g for g in groundings if g.calls}
    out: list[tuple[CitedWork, WorkGrounding]] = []
    for work in works.works:
        out.append((work, _ground_one(work, by_citation)))
    for work in works.loose:
        grounded = _ground_one(work, by_citation)
        if grounded.grounded:
            out.append((work, grounded))
    out.sort(key=lambda pair: (pair[0].source or "", pair[0].start, pair[0].end))
    keyed = []
    for n, (work, g) in enumerate(out, 1):
        # evolve() on the work (its many fields); the grounding's five made directly.
        keyed_work = evolve(work, key=f"w{n}")
        keyed.append(WorkGrounding(keyed_work, g.calls, g.by, g.matched_title, g.score))
    return tuple(keyed)


def _ground_one(work: CitedWork, by_citation: dict[int, Grounding]) -> WorkGrounding:
    ids = [by_citation[id(c)] for c in work.identifiers if id(c) in by_citation]
    if work.identifiers:
        # Each distinct tuple of calls once (a flood's groundings share one): a tuple seen
        # before adds no call, so the order of first appearance is the same.
        distinct = {id(g.calls): g.calls for g in ids}
        calls = tuple(dict.fromkeys(call for found in distinct.values() for call in found))
        return WorkGrounding(work, calls, "identifier" if calls else None)
    for t in work.titles:
        g = by_citation.get(id(t))
        if g is not None and g.grounded:
            return WorkGrounding(work, g.calls, "title", g.matched_title, g.score)
    return WorkGrounding(work)
