"""Grounding: which tool calls returned each cited work, and which returned title it matches.

Identifiers ground by exact key (all names of a work). Titles ground by fuzzy similarity
against every title the tools returned, through one :class:`~groundcheck.titles.TitleIndex`
built per evidence set.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundcheck.layout import TITLE_SCHEME
from groundcheck.model import Citation, EvidenceSet, Grounding, Identifier
from groundcheck.titles import TitleIndex, TitleMatch, main_title, normalize_title

__all__ = ["EvidenceTitles", "ground"]


class EvidenceTitles:
    """Every distinct title in an evidence set, which calls returned it, and which ids it has."""

    def __init__(self, evidence: EvidenceSet) -> None:
        calls: dict[str, list[str]] = {}
        own: dict[Identifier, list[str]] = {}
        papers: dict[str, set[Identifier]] = {}
        for call in evidence.calls:
            if call.excluded is not None:
                continue
            for title in (*call.titles, *(w.title for w in call.works)):
                ids = calls.setdefault(title, [])
                if call.call_id not in ids:
                    ids.append(call.call_id)
            for work in call.works:
                papers.setdefault(work.title, set()).update(work.identifiers)
                for ident in work.identifiers:
                    titles = own.setdefault(ident, [])
                    if work.title not in titles:
                        titles.append(work.title)
        self.titles = tuple(calls)
        self._calls = calls
        self._index: TitleIndex | None = None
        self._own = own
        self._papers = papers

    @property
    def index(self) -> TitleIndex:
        if self._index is None:
            self._index = TitleIndex(self.titles)
        return self._index

    def match(self, normalized: str, threshold: float) -> TitleMatch | None:
        if not self.titles:
            return None
        return self.index.best(normalized, threshold, normalized=True)

    def calls_for(self, title: str) -> tuple[str, ...]:
        return tuple(self._calls.get(title, ()))

    def own_titles(self, keys: Sequence[Identifier]) -> list[str]:
        """Titles the tools returned *with* this work, in order, without repeats."""
        found: dict[str, None] = {}
        for key in keys:
            for title in self._own.get(key, ()):
                found[title] = None
        return list(found)

    def ids_of(self, title: str) -> set[Identifier]:
        return self._papers.get(title, set())


def similarity(normalized: str, title: str) -> float:
    """Score (0-100) of a normalised query against one title, its main title included."""
    from rapidfuzz.distance import Levenshtein

    forms = [normalize_title(title)]
    main = main_title(title)
    if main is not None:
        forms.append(normalize_title(main))
    return 100.0 * max(Levenshtein.normalized_similarity(normalized, f) for f in forms)


def ground(
    citations: Sequence[Citation],
    evidence: EvidenceSet,
    titles: EvidenceTitles | None,
    threshold: float,
) -> tuple[Grounding, ...]:
    """A grounding for every citation: identifiers by key, titles by fuzzy match."""
    out = []
    for c in citations:
        if c.malformed is not None:
            out.append(Grounding(c))
        elif c.scheme == TITLE_SCHEME:
            match = titles.match(c.id, threshold) if titles is not None else None
            if titles is None or match is None:
                out.append(Grounding(c))
            else:
                out.append(Grounding(c, titles.calls_for(match.title), match.title, match.score))
        else:
            out.append(Grounding(c, evidence.calls_returning(c.keys)))
    return tuple(out)
