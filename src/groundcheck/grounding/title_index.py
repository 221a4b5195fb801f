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

Before any of that, the rules of :mod:`groundcheck.grounding.title_rules` apply: a title is
searchable under each of its forms (as returned, its main titles, without decorations, with
acronyms folded), a cited title is looked up under each of its forms (as written, without an
enumeration or trailing parentheticals), a cited title may be a token prefix of a returned one,
and a returned title a tool cut short ("…") matches the cited titles it is a prefix of.

The index returns exactly what brute force returns (the best title scoring at least the
threshold; at equal scores a whole form before a prefix before a cut title, then the earliest
title), far faster:

1. an exact hit on the normalised title is a score of 100, the best possible;
2. otherwise a pigeonhole filter. A title within similarity ``T`` of the query ``q`` is within
   ``D = floor((1 - T) * |q| / T)`` edits. Cut ``q`` into ``P = D + 2`` disjoint pieces of at
   least five characters: ``D`` edits touch at most ``D`` pieces, so two stay intact and the
   title contains each one's rarest 5-gram. Only titles holding the rarest 5-grams of two
   pieces are scored (in C, by rapidfuzz). A query too short for ``D + 2`` pieces uses
   ``D + 1`` pieces and one hit; shorter still, every title is scored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import cached_property, lru_cache, partial
from itertools import repeat
from operator import getitem, itemgetter
from typing import Any

from attrs import frozen

from groundcheck.extractors.title import normalize_title
from groundcheck.grounding.index_forms import cut_candidates, index_forms, join_titles
from groundcheck.grounding.title_rules import (
    ALL_RULES,
    Form,
    RuleSet,
    cut_prefix,
    fold_acronyms,
    prefix_of,
    query_forms,
)

__all__ = ["TitleIndex", "TitleMatch"]

_WHOLE, _PREFIX, _CUT = 0, 1, 2
"""How a title matched, in the order ties are broken: a whole form, a prefix of it, a cut title."""

_Found = tuple[float, int, int, tuple[str, ...]]
"""(score, how, owner, rules) of a best match."""

_GRAM = 5
_NONE: frozenset[int] = frozenset()
_SLICES = tuple(slice(k, k + _GRAM) for k in range(4096))


@frozen
class TitleMatch:
    """The best evidence title for a query: its position in the index, text and score.

    ``rules`` names the rules of :mod:`~groundcheck.grounding.title_rules` the match needed
    (empty: the title as written matched the title as returned).
    """

    index: int
    title: str
    score: float
    rules: tuple[str, ...] = ()


class TitleIndex:
    """Titles returned by tools, normalised once, searchable by fuzzy similarity.

    ``titles`` are the original strings; a match's ``index`` refers to ``titles``. Scores and
    thresholds are percentages (0-100), as rapidfuzz users expect.
    """

    def __init__(self, titles: Iterable[str], rules: RuleSet | None = None) -> None:
        from rapidfuzz import process  # imported on first use: ~25 ms
        from rapidfuzz.distance import Levenshtein

        self._scorer = Levenshtein.normalized_similarity
        self._distance = Levenshtein.distance
        self._extract = process.extract
        self.rules = rules or ALL_RULES
        self.titles: tuple[str, ...] = tuple(titles)
        # Every title's forms (title_rules.title_forms), worked out for all titles at once.
        joined = join_titles(self.titles)
        choices, owners, applied, prefixable = index_forms(self.titles, self.rules, joined)
        cuts: dict[str, list[tuple[int, str]]] = {}
        if self.rules.cut:
            for i in cut_candidates(self.titles, joined):
                cut = cut_prefix(self.titles[i], self.rules)
                if cut is not None:
                    cuts.setdefault(_head(cut), []).append((i, cut))
        self.choices: tuple[str, ...] = tuple(choices)
        """Every searchable string (each form of each title), in index order."""
        self.owners: tuple[int, ...] = tuple(owners)
        """``owners[j]``: the title that ``choices[j]`` stands for."""
        self.applied: tuple[tuple[str, ...], ...] = tuple(applied)
        """``applied[j]``: the rules that made ``choices[j]`` from its title."""
        self.prefixable: tuple[bool, ...] = tuple(prefixable)
        """``prefixable[j]``: may a cited title be a prefix of ``choices[j]``?"""
        self._cuts = cuts
        # The earliest choice of each text (filled backwards: the earliest is written last).
        backwards = zip(reversed(choices), range(len(choices) - 1, -1, -1), strict=True)
        self._exact: dict[str, int] = dict(backwards)
        self._grams: dict[str, frozenset[int]] | None = None  # built when scans cost more
        self._scanned = 0
        self._answers: dict[tuple[str, float, bool], TitleMatch | None] = {}
        self._prefixes: dict[int, dict[int, str | None]] = {}
        self._heads: dict[tuple[str, ...], list[tuple[int, str]]] | None = None

    # What only fuzzy queries read, built on the first one: a report whose titles all hit a
    # returned title exactly never pays for it.

    @cached_property
    def _lengths(self) -> list[int]:
        return list(map(len, self.choices))

    @cached_property
    def _longest(self) -> int:
        return max(self._lengths, default=0)

    @cached_property
    def _all(self) -> list[int]:
        return list(range(len(self.choices)))

    MEMO_LIMIT = 100_000
    """At most this many answers of :meth:`best` are kept. A report cites the same title many
    times (its heading, its reference entry, the quote in the text) and the checks ask again
    at other thresholds; every answer depends only on the query and the titles, so the second
    asking is a dictionary lookup, not a fuzzy search."""

    SCAN_BUDGET = 40
    """Fuzzy queries first score every choice of a fitting length (in C, ~1 µs a choice);
    once they have scanned the index this many times over, the 5-gram postings (about as
    costly to build as this many scans) are built and filter what is scored. Both ways give
    the same answer: the postings only skip choices that cannot reach the threshold."""

    NEAR_START_MIN = 1000
    """A query whose word count has prefixes to consider in this many choices or more has
    them filtered first (:meth:`_near_start`, in C) instead of cutting each prefix: cutting
    them costs more, though it is remembered for the next query of that word count. Both
    ways give the same answer."""

    def _pool(self, q: str, cutoff: float) -> list[int] | None:
        """The choices to score for ``q``, in index order; None for every choice (a scan:
        rapidfuzz passes over a choice of a length that cannot score at once, in C)."""
        if self._grams is None and self._scanned < self.SCAN_BUDGET * len(self.choices):
            self._scanned += len(self.choices)
            return None
        return sorted(self._candidates(q, cutoff))

    @property
    def _postings(self) -> dict[str, frozenset[int]]:
        """Which choices hold each 5-gram: built once, and only when fuzzy queries have cost
        more than building it (see :attr:`SCAN_BUDGET`)."""
        if self._grams is None:
            postings: defaultdict[str, list[int]] = defaultdict(list)
            for j, choice in enumerate(self.choices):
                count = len(choice) - _GRAM + 1
                if count <= 0:
                    continue  # shorter than a gram: no piece of a query is in it
                # The slices are cut in C (map over prebuilt slice objects), once per gram.
                slices = _SLICES[:count] if count <= len(_SLICES) else _slices(count)
                for gram in set(map(choice.__getitem__, slices)):
                    postings[gram].append(j)
            self._grams = {gram: frozenset(ids) for gram, ids in postings.items()}
        return self._grams

    def by_head(self) -> dict[tuple[str, ...], list[tuple[int, str]]]:
        """``(index, title normalised as written)`` of every title, keyed by its first two
        words; built on first use (a title elided in the middle is looked up by its head)."""
        if self._heads is None:
            heads: dict[tuple[str, ...], list[tuple[int, str]]] = {}
            for i, title in enumerate(self.titles):
                normalized = normalize_title(title)
                heads.setdefault(tuple(normalized.split()[:2]), []).append((i, normalized))
            self._heads = heads
        return self._heads

    def __len__(self) -> int:
        return len(self.titles)

    def best(self, query: str, threshold: float, *, normalized: bool = False) -> TitleMatch | None:
        """The best title scoring at least ``threshold`` under every rule, or None.

        ``query`` is a cited title as written; with ``normalized``, an already normalised one
        (the query-side rules that need punctuation then have nothing to strip).
        """
        key = (query, threshold, normalized)
        answers = self._answers
        if key in answers:
            return answers[key]
        if normalized:
            folded = fold_acronyms(query) if self.rules.acronym else query
            forms: tuple[Form, ...] = (Form(folded, ("acronym",) if folded != query else ()),)
        else:
            forms = query_forms(query, self.rules)
        found = self.search(forms, threshold)
        if len(answers) < self.MEMO_LIMIT:
            answers[key] = found
        return found

    def search(self, forms: Sequence[Form], threshold: float) -> TitleMatch | None:
        """The best match of any of ``forms`` (normalised query forms), or None.

        Order: the highest score; at equal scores a whole form before a prefix before a cut
        title, then the earliest title, then the earliest query form.
        """
        # An exact hit of any form is a whole match scoring 100, which nothing else beats
        # (a fuzzy score of 100 is an exact hit; prefixes and cut titles rank after whole
        # forms): the earliest title hit wins, then the earliest form, and no fuzzy search runs.
        exact: tuple[int, int, int] | None = None
        for rank, form in enumerate(forms):
            j = self._exact.get(form.text)
            if j is not None and (exact is None or self.owners[j] < exact[0]):
                exact = (self.owners[j], rank, j)
        if exact is not None:
            owner, rank, j = exact
            rules = (*forms[rank].rules, *self.applied[j])
            return TitleMatch(owner, self.titles[owner], 100.0, rules)
        best: tuple[float, int, int, int, tuple[str, ...]] | None = None
        for rank, form in enumerate(forms):
            for found in (self._best_form(form.text, threshold), self._best_cut(form.text)):
                if found is None:
                    continue
                score, how, owner, extra = found
                key = (-score, how, owner, rank, (*form.rules, *extra))
                if best is None or key[:4] < best[:4]:
                    best = key
        if best is None:
            return None
        return TitleMatch(best[2], self.titles[best[2]], -best[0], best[4])

    def _best_form(self, q: str, threshold: float) -> _Found | None:
        """(score, how, owner, rules) of the best whole-form or prefix match of ``q``."""
        if not q or not self.choices:
            return None
        j = self._exact.get(q)
        if j is not None:
            return 100.0, _WHOLE, self.owners[j], self.applied[j]
        cutoff = threshold / 100.0
        shortest, longest = _length_window(len(q), cutoff)
        if self._longest < shortest:
            return None  # no choice (and so no prefix of one) is long enough to score
        # In index order, so that the earliest of equal scores is the earliest title.
        candidates = self._pool(q, cutoff)
        if candidates is not None and not candidates:
            return None
        lengths = self._lengths
        best: _Found | None = None
        if candidates is None:
            found = self._top(q, self.choices, cutoff)
            whole: Sequence[int] = self._all
        else:
            whole = [c for c in candidates if shortest <= lengths[c] <= longest]
            found = self._top(q, [self.choices[c] for c in whole], cutoff) if whole else None
        if found is not None:
            score, at = found
            j = whole[at]
            best = (score, _WHOLE, self.owners[j], self.applied[j])
        words = q.count(" ")
        if self.rules.prefix and words >= 2:
            # A prefix of a choice with as many words as q needs three more words in the
            # choice (see prefix_of), and is no longer than the choice. The distance filter
            # (in C) goes first: its few survivors are then counted one by one.
            pool = self._all if candidates is None else candidates
            if len(pool) >= self.NEAR_START_MIN:
                pool = self._near_start(q, pool, cutoff)
            ok, choices, need = self.prefixable, self.choices, words + 2
            eligible = [
                c
                for c in pool
                if ok[c] and lengths[c] >= shortest and choices[c].count(" ") >= need
            ]
            # prefix_of reads only how many words q has: each choice's prefix of that many
            # words is worked out once, whatever the query.
            memo = self._prefixes.setdefault(words, {})
            pairs: list[tuple[int, str]] = []
            for c in eligible:
                if c in memo:
                    p = memo[c]
                else:
                    p = memo[c] = prefix_of(q, choices[c])
                if p is not None:
                    pairs.append((c, p))
            if pairs:
                found = self._top(q, [p for _, p in pairs], cutoff)
                if found is not None:
                    score, at = found
                    j = pairs[at][0]
                    key = (score, _PREFIX, self.owners[j], (*self.applied[j], "prefix"))
                    if best is None or (-key[0], key[1], key[2]) < (-best[0], best[1], best[2]):
                        best = key
        return best

    def _near_start(self, q: str, eligible: list[int], cutoff: float) -> list[int]:
        """The choices among ``eligible`` whose prefixes may score ``cutoff`` against ``q``,
        found without cutting any prefix: by the distance of ``q`` to each choice's first
        ``len(q)`` characters, in C.

        A prefix ``p`` (length ``m``) scoring ``cutoff`` is within ``d <= (1 - cutoff) *
        max(n, m)`` edits of ``q`` (length ``n``), and ``m <= n / cutoff``, so ``d <= D =
        (1 - cutoff) * n / cutoff``. The choice's first ``n`` characters and ``p`` are both
        prefixes of the choice: they differ by ``|n - m| <= d`` edits. So they are within
        ``2 * D`` edits of ``q`` (one more is allowed for rounding); choices farther off are
        dropped, and the rest keep their order.
        """
        n = len(q)
        if cutoff <= 0.0 or not eligible:
            return eligible
        bound = int(2.0 * (1.0 - cutoff) * n / cutoff + 1e-6) + 1
        if bound >= n:
            return eligible
        cut = repeat(slice(0, n))
        if eligible is self._all:
            heads = list(map(getitem, self.choices, cut))
        else:
            heads = list(map(getitem, map(self.choices.__getitem__, eligible), cut))
        near: list[Any] = self._extract(
            q, heads, scorer=self._distance, processor=None, score_cutoff=bound, limit=None
        )
        return [eligible[at] for at in sorted(h[2] for h in near)]

    def _top(self, q: str, strings: Sequence[str], cutoff: float) -> tuple[float, int] | None:
        """(score, position) of the best of ``strings`` at or above ``cutoff``; ties: earliest."""
        hits: list[Any] = self._extract(
            q, strings, scorer=self._scorer, processor=None, score_cutoff=cutoff, limit=None
        )
        if not hits:
            return None
        top = max(h[1] for h in hits)
        return top * 100.0, min(h[2] for h in hits if h[1] == top)

    def _best_cut(self, q: str) -> _Found | None:
        """A title cut short ("…") that ``q`` continues: every whole word the same, the cut
        word a prefix of the cited one. Scored 100: nothing the tool showed differs."""
        if not self._cuts:
            return None
        found = [owner for owner, cut in self._cuts.get(_head(q), ()) if _continues(q, cut)]
        if not found:
            return None
        return 100.0, _CUT, min(found), ("cut",)

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
        shortest, longest = _length_window(len(q), cutoff)
        if self._longest < shortest:
            return None
        lengths = self._lengths
        pool = self._pool(q, cutoff)
        if pool is None:
            found = self._top(q, self.choices, cutoff)
            return None if found is None else (found[1], found[0])
        candidates = [c for c in pool if lengths[c] <= longest and lengths[c] >= shortest]
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
        # The rarest gram of each piece (a gram no title holds, empty, rules the piece out):
        # every gram of every piece looked up in one pass, then the least of each piece's.
        grams, ranges = _pieces(n, pieces)
        postings = list(map(self._postings.get, map(q.__getitem__, grams), repeat(_NONE)))
        rarest = list(filter(None, map(_rarest, map(postings.__getitem__, ranges))))
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


@lru_cache(maxsize=4096)
def _pieces(n: int, pieces: int) -> tuple[tuple[slice, ...], tuple[slice, ...]]:
    """The slices of the grams inside each of ``pieces`` equal pieces of a string of length
    ``n``, all in one tuple, and where each piece's are in it (the same for every query of
    that length: worked out once)."""
    step = n / pieces
    grams: list[slice] = []
    ranges: list[slice] = []
    for p in range(pieces):
        inside = _SLICES[int(p * step) : int((p + 1) * step) - _GRAM + 1]
        ranges.append(slice(len(grams), len(grams) + len(inside)))
        grams.extend(inside)
    return tuple(grams), tuple(ranges)


_rarest = partial(min, key=len)
"""The smallest of a piece's gram postings."""


def _slices(count: int) -> list[slice]:
    return [slice(k, k + _GRAM) for k in range(count)]


def _length_window(n: int, cutoff: float) -> tuple[float, float]:
    """The lengths a string needs to score ``cutoff`` against one of length ``n``.

    Normalised Levenshtein similarity is ``1 - d / max(n, m)`` and ``d >= |n - m|``, so a
    string of length ``m`` reaches ``cutoff`` only when ``|n - m| <= (1 - cutoff) * max(n,
    m)``: ``m`` between ``cutoff * n`` and ``n / cutoff``. The window is widened by a hair so
    that rounding never drops a string exactly at the edge.
    """
    if cutoff <= 0.0:
        return 0.0, float("inf")
    return cutoff * n - 1e-6, n / cutoff + 1e-6


def _head(normalized: str) -> str:
    """The first three words: where a cut title and the titles continuing it must agree."""
    return " ".join(normalized.split(" ", 3)[:3])


def _continues(q: str, cut: str) -> bool:
    """Does ``q`` continue ``cut`` (whole words equal, the cut last word a prefix of q's)?"""
    whole, _, partial = cut.rpartition(" ")
    if not q.startswith(whole + " "):
        return False
    rest = q[len(whole) + 1 :]
    return rest.startswith(partial) and len(rest) > len(partial)
