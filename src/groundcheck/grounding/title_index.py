"""A fuzzy index over the titles tools returned, exact against brute force.

Titles are normalised by :func:`groundcheck.extractors.title.normalize_title` (the canonical
form of the title scheme, next to the extractor that finds title candidates).

Titles are compared by normalised Levenshtein similarity (rapidfuzz
``Levenshtein.normalized_similarity``, shown as 0-100) on normalised titles. The scorer was
measured against the alternatives on a labelled set (docs/titles.md): ``WRatio``,
``token_set_ratio`` and ``partial_ratio`` score 95-100 for "Attention Is All You Need: A
Survey" against "Attention Is All You Need" and would ground the wrong paper; Levenshtein
gives 74 there, keeps typos and re-casing above 95, and, because a substitution costs one
edit rather than two, allows a much tighter exact filter than the Indel ``ratio``. A citation
that drops a long subtitle is still found: a title is also indexed under its main title (the
part before the colon) when its subtitle has three words or more; a short generic subtitle
("A Survey") is not dropped, since "X" and "X: A Survey" are different papers.

The index returns exactly what brute force returns (the best title scoring at least the
threshold, ties to the earliest), far faster:

1. an exact hit on the normalised title is a score of 100, the best possible;
2. otherwise a pigeonhole filter. A title within similarity ``T`` of the query ``q`` is within
   ``D = floor((1 - T) * |q| / T)`` edits. Cut ``q`` into ``P = D + 2`` disjoint pieces of at
   least five characters: ``D`` edits touch at most ``D`` pieces, so two stay intact and the
   title contains each one's rarest 5-gram. Only titles holding the rarest 5-grams of two
   pieces are scored (in C, by rapidfuzz). A query too short for ``D + 2`` pieces uses
   ``D + 1`` pieces and one hit; shorter still, every title is scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any

from attrs import frozen

from groundcheck.extractors.title import main_title, normalize_title

__all__ = ["TitleIndex", "TitleMatch"]

_GRAM = 5
_NONE: frozenset[int] = frozenset()
_SLICES = tuple(slice(k, k + _GRAM) for k in range(4096))


@frozen
class TitleMatch:
    """The best evidence title for a query: its position in the index, text and score."""

    index: int
    title: str
    score: float


class TitleIndex:
    """Titles returned by tools, normalised once, searchable by fuzzy similarity.

    ``titles`` are the original strings; a match's ``index`` refers to ``titles``. Scores and
    thresholds are percentages (0-100), as rapidfuzz users expect.
    """

    def __init__(self, titles: Iterable[str]) -> None:
        from rapidfuzz import process  # imported on first use: ~25 ms
        from rapidfuzz.distance import Levenshtein

        self._scorer = Levenshtein.normalized_similarity
        self._extract = process.extract
        self.titles: tuple[str, ...] = tuple(titles)
        choices: list[str] = []
        owners: list[int] = []
        for i, title in enumerate(self.titles):
            forms = [normalize_title(title)]
            main = main_title(title)
            if main is not None:
                forms.append(normalize_title(main))
            for form in dict.fromkeys(forms):
                if form:
                    choices.append(form)
                    owners.append(i)
        self.choices: tuple[str, ...] = tuple(choices)
        """Every searchable string (normalised titles and main titles), in index order."""
        self.owners: tuple[int, ...] = tuple(owners)
        """``owners[j]``: the title that ``choices[j]`` stands for."""
        self._exact: dict[str, int] = {}
        postings: dict[str, list[int]] = {}
        for j, choice in enumerate(choices):
            self._exact.setdefault(choice, j)
            for gram in {choice[k : k + _GRAM] for k in range(len(choice) - _GRAM + 1)}:
                postings.setdefault(gram, []).append(j)
        self._postings = {gram: frozenset(ids) for gram, ids in postings.items()}
        self._all = list(range(len(choices)))

    def __len__(self) -> int:
        return len(self.titles)

    def best(self, query: str, threshold: float, *, normalized: bool = False) -> TitleMatch | None:
        """The best title scoring at least ``threshold`` (ties: the earliest), or None."""
        found = self.best_choice(query if normalized else normalize_title(query), threshold)
        if found is None:
            return None
        j, score = found
        owner = self.owners[j]
        return TitleMatch(owner, self.titles[owner], score)

    def best_choice(self, q: str, threshold: float) -> tuple[int, float] | None:
        """``(choice index, score)`` of the best choice for a normalised query, or None.

        Exactly what scoring ``q`` against every choice would return.
        """
        if not q or not self.choices:
            return None
        j = self._exact.get(q)
        if j is not None:
            return j, 100.0
        cutoff = threshold / 100.0
        candidates = self._candidates(q, cutoff)
        if not candidates:
            return None
        strings = (
            itemgetter(*candidates)(self.choices)
            if len(candidates) > 1
            else (self.choices[candidates[0]],)
        )
        hits: list[Any] = self._extract(
            q, strings, scorer=self._scorer, processor=None, score_cutoff=cutoff, limit=None
        )
        if not hits:
            return None
        top = max(h[1] for h in hits)
        return min(candidates[h[2]] for h in hits if h[1] == top), top * 100.0

    def _candidates(self, q: str, cutoff: float) -> Sequence[int]:
        """Every choice that could reach ``cutoff`` against ``q`` (see the module docstring)."""
        n = len(q)
        max_edits = int((1.0 - cutoff) * n / cutoff + 1e-6)
        need = 2 if n >= (max_edits + 2) * _GRAM else 1
        pieces = max_edits + need
        if n < pieces * _GRAM or n > len(_SLICES):
            return self._all
        get = self._postings.get
        step = n / pieces
        rarest: list[frozenset[int]] = []
        for p in range(pieces):
            lo, hi = int(p * step), int((p + 1) * step) - _GRAM + 1
            # The rarest gram of the piece; a gram no title holds (empty) rules the piece out.
            best = min(map(get, map(q.__getitem__, _SLICES[lo:hi]), repeat(_NONE)), key=len)
            if best:
                rarest.append(best)
        if len(rarest) < need:
            return []
        if need == 1:
            return list(rarest[0].union(*rarest[1:]))
        # Titles in at least two postings. Smallest first; the largest posting is only
        # intersected (Python iterates the smaller side), never copied.
        rarest.sort(key=len)
        seen = set(rarest[0])
        twice: set[int] = set()
        for posting in rarest[1:-1]:
            twice |= seen.intersection(posting)
            seen |= posting
        twice |= seen.intersection(rarest[-1])
        return list(twice)
