"""Titles the tools returned, and the questions the checks ask of them.

Titles ground by fuzzy similarity against every title the tools returned, through one
:class:`~groundcheck.grounding.title_index.TitleIndex` built per evidence set, and only when
the report cites a title at all. Every question goes through the same rules
(:mod:`groundcheck.grounding.title_rules`), so a title that grounds also counts as the id's own:

- :meth:`EvidenceTitles.match` — which returned title does this cited title match?
- :meth:`EvidenceTitles.matches_own` — does it match a title returned *with* these ids?
- :meth:`EvidenceTitles.relation` — the title beside an id: its own, another returned work's,
  or none? (what ``id-title-mismatch`` needs: an error only for *another* work's title).
- :meth:`EvidenceTitles.works_of` — the returned works (ids, authors, year) with a title.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Literal

from attrs import frozen

from groundcheck.extractors.title import normalize_title
from groundcheck.grounding.acronyms import coins_acronyms, expand_acronyms
from groundcheck.grounding.title_index import TitleIndex, TitleMatch
from groundcheck.grounding.title_rules import ALL_RULES, RuleSet, query_forms
from groundcheck.model import EvidenceSet, Identifier, Work

__all__ = ["EvidenceTitles", "TitleRelation", "similarity"]

Relation = Literal["own", "other", "none", "unknown"]


@frozen
class TitleRelation:
    """How the title written beside an identifier relates to what the tools returned.

    ``kind``:

    - ``own``: it matches a title returned with the identifier (``own`` is that match);
    - ``other``: it matches no title returned with the identifier, but another returned work's
      title (``other``; ``works`` are the works with that title, their ids tell whose);
    - ``none``: it matches no returned title at all, while the id's own title is known
      (``own`` is then the closest own title, below the threshold: a near miss to show);
    - ``unknown``: no tool returned a title with the identifier, and the title matches no
      returned title either: nothing to compare.
    """

    kind: Relation
    own: TitleMatch | None = None
    other: TitleMatch | None = None
    works: tuple[Work, ...] = ()


class EvidenceTitles:
    """Every distinct title in an evidence set, which calls returned it, and which ids it has.

    Built for every audit that cites a title, against every returned record (10,000 at
    realistic scale), so it keeps no container per title or per work: each question is
    answered from flat maps to the first call or work and a map of the few that repeat, built
    when first asked. (Thousands of small lists that outlive the audit make the garbage
    collector walk the whole loaded evidence, and that costs more than building them.)
    """

    def __init__(self, evidence: EvidenceSet, rules: RuleSet | None = None) -> None:
        returned: list[tuple[str, tuple[str, ...]]] = []
        works: list[Work] = []
        for call in evidence.calls:
            if call.excluded is not None:
                continue
            titles = tuple(dict.fromkeys((*call.titles, *map(_TITLE, call.works))))
            returned.append((call.call_id, titles))
            works.extend(call.works)
        self.rules = rules or ALL_RULES
        self.titles = tuple(dict.fromkeys(chain.from_iterable(map(_SECOND, returned))))
        self._returned_by = returned
        self._all_works = works
        self._first_call: dict[str, str] | None = None
        self._more_calls: dict[str, tuple[str, ...]] = {}
        self._index: TitleIndex | None = None
        self._own_indexes: dict[tuple[str, ...], TitleIndex] = {}
        self._by_id: tuple[dict[str, int], dict[str, list[int]]] | None = None
        self._by_title: tuple[dict[str, int], dict[str, list[int]]] | None = None
        self._works: dict[str, tuple[Work, ...]] = {}
        self._papers: dict[str, set[Identifier]] = {}

    @property
    def index(self) -> TitleIndex:
        if self._index is None:
            self._index = TitleIndex(self.titles, self.rules)
        return self._index

    def match(self, citation_text: str, threshold: float) -> TitleMatch | None:
        """The returned title a cited title matches (score >= ``threshold``), or None.

        ``citation_text`` is the title as written (``Citation.raw``: the enumeration and
        parenthetical rules need its punctuation); a normalised title (``Citation.id``) works
        too, with those two rules finding less to strip.
        """
        if not self.titles:
            return None
        return _best(self.index, citation_text, threshold, self.rules)

    def matches_own(
        self, cited: str, keys: Sequence[Identifier], threshold: float
    ) -> TitleMatch | None:
        """The best of the titles returned *with* ``keys`` that ``cited`` matches, or None.

        ``TitleMatch.index`` counts within :meth:`own_titles`. A threshold of 1 gives the
        closest own title whatever its score (a near miss worth showing).
        """
        own = tuple(self.own_titles(keys))
        if not own:
            return None
        index = self._own_indexes.get(own)
        if index is None:  # one small index per work, asked at two thresholds by the checks
            index = self._own_indexes[own] = TitleIndex(own, self.rules)
        return _best(index, cited, threshold, self.rules)

    def relation(self, cited: str, keys: Sequence[Identifier], threshold: float) -> TitleRelation:
        """Is ``cited``, written beside an id with ``keys``, that id's title? See
        :class:`TitleRelation`."""
        own = self.matches_own(cited, keys, threshold)
        if own is not None:
            return TitleRelation("own", own)
        best = self.match(cited, threshold)
        has_own = bool(self.own_titles(keys))
        if best is not None:
            near = self.matches_own(cited, keys, 1.0) if has_own else None
            return TitleRelation("other", near, best, self.works_of(best.title))
        if not has_own:
            return TitleRelation("unknown")
        return TitleRelation("none", self.matches_own(cited, keys, 1.0))

    def which_work(self, cited: str, threshold: float) -> tuple[Work, ...]:
        """The returned works whose title ``cited`` matches (none: no match, or a title that
        came without ids, authors or year)."""
        best = self.match(cited, threshold)
        return () if best is None else self.works_of(best.title)

    def works_of(self, title: str) -> tuple[Work, ...]:
        """The returned works with exactly this title, in the order tools returned them."""
        found = self._works.get(title)
        if found is None:
            found = self._works[title] = tuple(dict.fromkeys(self._returned_works(title)))
        return found

    def calls_for(self, title: str) -> tuple[str, ...]:
        """The calls that returned ``title``, in order, without repeats."""
        if self._first_call is None:
            self._first_call, self._more_calls = self._calls_of_titles()
        more = self._more_calls.get(title)
        if more is not None:
            return more
        first = self._first_call.get(title)
        return () if first is None else (first,)

    def _calls_of_titles(self) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
        """The first call of each title (the calls read backwards: the first is written
        last), and every call of the titles more than one call returned."""
        first: dict[str, str] = {}
        for call_id, titles in reversed(self._returned_by):
            first.update(dict.fromkeys(titles, call_id))
        if sum(map(len, map(_SECOND, self._returned_by))) == len(first):
            return first, {}  # each title came from one call
        calls: dict[str, dict[str, None]] = {}
        for call_id, titles in self._returned_by:
            for title in titles:
                calls.setdefault(title, {})[call_id] = None
        return first, {t: tuple(ids) for t, ids in calls.items() if len(ids) > 1}

    def own_titles(self, keys: Sequence[Identifier]) -> list[str]:
        """Titles the tools returned *with* this work, in order, without repeats."""
        if self._by_id is None:
            ids = [ident.id for work in self._all_works for ident in work.identifiers]
            at = [i for i, work in enumerate(self._all_works) for _ in work.identifiers]
            self._by_id = _first_and_more(ids, at)
        first, more = self._by_id
        works = self._all_works
        found: dict[str, None] = {}
        for key in keys:
            where = more.get(key.id)
            if where is None:
                one = first.get(key.id)
                where = [] if one is None else [one]
            for i in where:
                if key in works[i].identifiers:
                    found[works[i].title] = None
        return list(found)

    def _returned_works(self, title: str) -> list[Work]:
        """The returned works with exactly this title, in order (repeats kept)."""
        if self._by_title is None:
            titles = list(map(_TITLE, self._all_works))
            self._by_title = _first_and_more(titles, range(len(titles)))
        first, more = self._by_title
        where = more.get(title)
        if where is None:
            one = first.get(title)
            return [] if one is None else [self._all_works[one]]
        return [self._all_works[i] for i in where]

    def ids_of(self, title: str) -> set[Identifier]:
        found = self._papers.get(title)
        if found is None:
            returned = self._returned_works(title)
            if not returned:
                return set()
            found = self._papers[title] = set().union(*(w.identifiers for w in returned))
        return found


_TITLE = attrgetter("title")
_SECOND = itemgetter(1)


def _first_and_more(
    keys: Sequence[str], positions: Sequence[int]
) -> tuple[dict[str, int], dict[str, list[int]]]:
    """The first position of each key, and every position of the keys that repeat (a flat
    map for the common case: no list per key)."""
    first = dict(zip(reversed(keys), reversed(positions), strict=True))  # the first written last
    if len(first) == len(keys):
        return first, {}
    more: dict[str, list[int]] = {}
    for key, at in zip(keys, positions, strict=True):
        if key in more:
            more[key].append(at)
        elif first[key] != at:
            more[key] = [first[key], at]
    return first, more


_ACRONYM_MARGIN = 25.0
"""How far below the threshold the closest title may be for coined acronyms to be tried."""


_ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.)\s*")


def _elided(index: TitleIndex, cited: str) -> TitleMatch | None:
    """A title elided in the middle ("Linear Probing … Detection of Machine-Generated Text"):
    the returned title that begins with its first part, ends with its last, and holds the
    parts between in order. Each part must be whole words of it; the parts must name at least
    four words, the first at least two (looked up by them, so a flood costs a dict lookup)."""
    parts = [normalize_title(p) for p in _ELLIPSIS.split(cited.strip())]
    parts = [p for p in parts if p]
    if len(parts) < 2 or _ELLIPSIS.search(cited.strip()[-3:]) is not None:
        return None
    head = tuple(parts[0].split()[:2])
    if len(head) < 2 or sum(len(p.split()) for p in parts) < 4:
        return None
    for i, normalized in index.by_head().get(head, ()):
        padded = f" {normalized} "
        if not (padded.startswith(f" {parts[0]} ") and padded.endswith(f" {parts[-1]} ")):
            continue
        at = len(parts[0]) + 1
        for middle in parts[1:-1]:
            at = padded.find(f" {middle} ", at)
            if at == -1:
                break
            at += len(middle) + 1
        if at != -1 and at <= len(padded) - len(parts[-1]) - 1:
            return TitleMatch(i, index.titles[i], 100.0, ("prefix",))
    return None


def _best(index: TitleIndex, cited: str, threshold: float, rules: RuleSet) -> TitleMatch | None:
    """``index.best``, then, for a title that matches nothing, the closest title again with the
    acronyms the cited title coins from it spelled out (:mod:`.acronyms`: "PLMs" for the
    "Protein Language Models" of that title), and a title elided in the middle."""
    found = index.best(cited, threshold)
    if found is None and rules.prefix and threshold > 1.0 and ("…" in cited or "..." in cited):
        found = _elided(index, cited)
    if found is not None or not rules.acronym or threshold <= 1.0:
        return found
    if not coins_acronyms(cited):
        return None  # no token to expand, whatever the closest title: no need to find it
    near = index.best(cited, max(threshold - _ACRONYM_MARGIN, 1.0))
    if near is None:
        return None
    expanded = expand_acronyms(cited, near.title)
    if expanded is None:
        return None
    again = TitleIndex([near.title], rules).best(expanded, threshold)
    if again is None:
        return None
    return TitleMatch(near.index, near.title, again.score, (*again.rules, "acronym"))


@lru_cache(maxsize=4096)
def similarity(cited: str, title: str, rules: RuleSet | None = None) -> float:
    """Score (0-100) of a cited title against one returned title, under every rule.

    ``cited`` may be raw or normalised. The same rules as :meth:`EvidenceTitles.match`: a
    title that grounds scores at least as high here.

    >>> similarity("Generative Adversarial Nets", "Generative Adversarial Networks")
    100.0

    Remembered (the checks ask it for every title of a work cited as another's, and a report
    repeats its titles): the score depends only on the two titles and the rules.
    """
    found = TitleIndex([title], rules).search(query_forms(cited, rules), 1.0)
    return 0.0 if found is None else found.score
