"""Titles the tools returned, and the rules for matching a cited title against them.

Titles ground by fuzzy similarity against every title the tools returned, through one
:class:`~groundcheck.grounding.title_index.TitleIndex` built per evidence set, and only when
the report cites a title at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundcheck.extractors.title import main_title, normalize_title
from groundcheck.grounding.title_index import TitleIndex, TitleMatch
from groundcheck.model import EvidenceSet, Identifier

__all__ = ["EvidenceTitles", "similarity"]


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
