"""Verbatim quotes: is each quoted passage in some tool output, and in the one cited beside it?

**Matching.** A quote and a tool output are compared as word sequences
(:func:`~groundcheck.document.quotes.quote_tokens`: the identifiers' text view, case-folded,
punctuation, quotation-mark and dash styles and line breaks ignored). A quote matches an
output when its words occur there contiguously, except where the report marks a change:

- an elision (``...``, ``…``, ``[...]``, ``[…]``, ``(...)``) splits the quote into parts that
  must occur in that order within **one** output (a "frankenquote" stitched from two outputs
  matches neither);
- a bracketed word or phrase standing alone (``[the company]``, ``[sic]``) stands for up to
  :data:`BRACKET_WORDS` words of the source, or none;
- a bracket inside a word (``[T]he``, ``analy[s]is``) stands for exactly one source word.

Every other word must be the source's: an altered word, a dropped or added *not*, a changed
number or a quote stitched from two places without an elision mark does not match.

**Searching** is linear in the evidence: :class:`QuoteIndex` normalises each output once into a
string of words, and a search first reads, in one pass over those strings, which outputs hold
the rarest words of each quote (postings, kept for later searches), then verifies only those
candidates with substring search.

**Attribution.** The sources a report cites beside a quote are the identifiers and URLs in the
same sentence, or failing that in the same paragraph or list item (:class:`NearbySources`). A
quote found only in outputs that did not return any of them is *misattributed*. Any other way of
naming the source (an in-text marker ``[3]`` resolved to its reference entry) plugs in as a
:data:`CitedSources` function.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence

from attrs import field, frozen

from groundcheck.document.quotes import (
    BLOCK,
    QuotedPassage,
    find_quotes,
    quote_tokens,
    quote_words,
)
from groundcheck.model import Citation, EvidenceSet, Grounding, Identifier

__all__ = [
    "BRACKET_WORDS",
    "FOUND",
    "MISATTRIBUTED",
    "QUOTE_SCHEME",
    "UNVERIFIED",
    "CitedSources",
    "NearbySources",
    "QuoteCheck",
    "QuoteIndex",
    "QuotePattern",
    "check_quotes",
    "not_title_candidates",
    "quote_pattern",
    "report_quotes",
]

QUOTE_SCHEME = "quote"
"""The scheme under which a finding about a quoted passage is located."""

FOUND = "found"
UNVERIFIED = "unverified"
MISATTRIBUTED = "misattributed"

BRACKET_WORDS = 6
"""How many source words a standalone ``[bracketed]`` insertion may stand for."""

_MAX_TRIES = 5000
"""Occurrences of a quote's first words examined per output before giving up on it: bounds
the cost of a quote whose first words are everywhere (``the``) and whose rest is nowhere."""

_ID_CHARS = 120
_CLOSEST_WORDS = 400
"""Quotes longer than this get no "closest output" hint (it costs a few searches each)."""


# -- the pattern a quote makes ---------------------------------------------------------------

Segment = tuple[tuple[str, ...], int, int]
"""Words that must be contiguous, and how many source words (min, max) may come before them
(after the previous segment of the same part)."""


@frozen
class QuotePattern:
    """A quote as words to find: parts (split at elisions) of segments (split at brackets)."""

    parts: tuple[tuple[Segment, ...], ...]
    open_end: bool = False
    """The last word may be cut short (a machine excerpt ending mid-word: ``…easier to acq``)."""

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(w for part in self.parts for seg, _, _ in part for w in seg)

    @property
    def key(self) -> str:
        return " | ".join(" ".join(" ".join(s) for s, _, _ in part) for part in self.parts)


_ELISION = re.compile(
    r"\[\s*(?:\.\s*){2,}\.?\s*\]|\[\s*\u2026\s*\]|\(\s*(?:\.\s*){2,}\.?\s*\)|\(\s*\u2026\s*\)"
    r"|\.(?:[ \t]?\.){2,}|\u2026"
)
_BRACKET = re.compile(r"\[[^\[\]\n]{1,80}\]")


def quote_pattern(text: str, *, open_end: bool = False) -> QuotePattern:
    """The pattern of a quoted passage.

    >>> p = quote_pattern("[T]he model ... outperformed [prior systems] by 4.5 points")
    >>> [[(" ".join(w), lo, hi) for w, lo, hi in part] for part in p.parts]
    [[('model', 0, 0)], [('outperformed', 0, 0), ('by 4 5 points', 0, 6)]]
    """
    parts: list[tuple[Segment, ...]] = []
    for piece in _ELISION.split(text):
        part = _part(piece)
        if part:
            parts.append(part)
    last = parts[-1][-1][0][-1] if parts else ""
    cut = open_end and len(last) >= 3 and last.isalpha() and text.rstrip()[-1:].isalpha()
    return QuotePattern(tuple(parts), cut)


def _part(piece: str) -> tuple[Segment, ...]:
    """The segments of one elision-free piece, split at its brackets."""
    segments: list[Segment] = []
    gap = (0, 0)
    at = 0
    inside_word = False  # the previous bracket was glued to the word after it: "[T]he"
    for m in _BRACKET.finditer(piece):
        before = piece[at : m.start()]
        if inside_word:
            before = _drop_leading_word(before)
        glued_left = m.start() > 0 and piece[m.start() - 1].isalnum()
        glued_right = m.end() < len(piece) and piece[m.end()].isalnum()
        if glued_left:
            before = _drop_trailing_word(before)
        gap = _add(segments, before, gap)
        if glued_left or glued_right:
            gap = (gap[0] + 1, gap[1] + 1)  # the word holding the bracket: any one word
        else:
            gap = (gap[0], gap[1] + BRACKET_WORDS)  # "[the company]", "[sic]": a few, or none
        inside_word = glued_right
        at = m.end()
    rest = piece[at:]
    if inside_word:
        rest = _drop_leading_word(rest)
    _add(segments, rest, gap)
    return tuple(segments)


def _add(segments: list[Segment], text: str, gap: tuple[int, int]) -> tuple[int, int]:
    words = tuple(quote_tokens(text))
    if not words:
        return gap
    lo, hi = gap if segments else (0, 0)  # nothing before the first segment constrains it
    segments.append((words, lo, hi))
    return (0, 0)


def _drop_trailing_word(text: str) -> str:
    i = len(text)
    while i > 0 and text[i - 1].isalnum():
        i -= 1
    return text[:i]


def _drop_leading_word(text: str) -> str:
    i = 0
    while i < len(text) and text[i].isalnum():
        i += 1
    return text[i:]


# -- the index ---------------------------------------------------------------------------------


class QuoteIndex:
    """The tool outputs of one run, normalised once, searchable for quotes.

    Takes plain strings per call id (several strings may share an id), so any loader, or a
    test, can feed it. Word postings are computed on demand, for the words searched, in one
    pass over the outputs per batch of new words, and kept.

    >>> index = QuoteIndex({"c1": "The model “outperformed\\nevery baseline” — by 4.5 points."})
    >>> index.find(quote_pattern("the model outperformed every baseline by 4.5 points"))
    ('c1',)
    >>> index.find(quote_pattern("the model outperformed every baseline by 5.4 points"))
    ()
    """

    def __init__(self, texts: Mapping[str, str] | Iterable[tuple[str, str]]) -> None:
        pairs = texts.items() if isinstance(texts, Mapping) else texts
        self._ids: list[str] = []
        self._docs: list[str] = []
        for call_id, text in pairs:
            self._ids.append(call_id)
            self._docs.append(quote_words(text) if text else " ")
        self._postings: dict[str, tuple[int, ...]] = {}

    @classmethod
    def of_evidence(cls, evidence: EvidenceSet) -> QuoteIndex:
        """The outputs whose text the loader kept: not failed calls, not the agent's own
        actions (an editor's confirmation shows the agent's words), not excluded outputs."""
        return cls(
            (c.call_id, c.text)
            for c in evidence.calls
            if c.text is not None and c.excluded is None and not c.errored and not c.action
        )

    def __len__(self) -> int:
        return len(self._docs)

    @property
    def call_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self._ids))

    def prepare(self, words: Iterable[str]) -> None:
        """Compute the postings of ``words`` not yet known, in one pass over the outputs."""
        missing = {w for w in words if w not in self._postings}
        if not missing:
            return
        found: dict[str, list[int]] = {w: [] for w in missing}
        for i, doc in enumerate(self._docs):
            for w in missing.intersection(doc.split()):
                found[w].append(i)
        for w, docs in found.items():
            self._postings[w] = tuple(docs)

    def _candidates(self, words: Sequence[str]) -> list[int]:
        self.prepare(words)
        rarest = sorted(set(words), key=lambda w: len(self._postings[w]))[:3]
        if not rarest:
            return []
        chosen = set(self._postings[rarest[0]])
        for w in rarest[1:]:
            chosen.intersection_update(self._postings[w])
            if not chosen:
                break
        return sorted(chosen)

    def find(self, pattern: QuotePattern) -> tuple[str, ...]:
        """Ids of the calls whose output holds the quote, in call order, without repeats."""
        words = pattern.words
        if not words:
            return ()
        # A last word that may be cut short is no word of the postings: select without it.
        select = words[:-1] if pattern.open_end and len(words) > 1 else words
        out: dict[str, None] = {}
        for i in self._candidates(select):
            if _matches(self._docs[i], pattern):
                out[self._ids[i]] = None
        return tuple(out)

    def closest(self, pattern: QuotePattern) -> Closest | None:
        """The output holding the longest run of the quote's first (or last) words."""
        words = pattern.words
        if not words or len(words) > _CLOSEST_WORDS:
            return None
        best: Closest | None = None
        for from_end in (False, True):
            lo, hi, hit = 0, len(words), None
            while lo < hi:  # the longest prefix (suffix) some output holds
                mid = (lo + hi + 1) // 2
                run = words[-mid:] if from_end else words[:mid]
                found = self._first_holding(run)
                if found is None:
                    hi = mid - 1
                else:
                    lo, hit = mid, found
            if hit is not None and (best is None or lo > best.words):
                doc, at = hit
                best = Closest(
                    self._ids[doc],
                    lo,
                    len(words),
                    from_end,
                    *_beside(self._docs[doc], at, words, lo, from_end),
                )
        return best

    def _first_holding(self, run: Sequence[str]) -> tuple[int, int] | None:
        needle = " " + " ".join(run) + " "
        for i in self._candidates(run):
            at = self._docs[i].find(needle)
            if at != -1:
                return i, at
        return None


@frozen
class Closest:
    """Where most of an unverified quote is: ``words`` of ``total`` from its start (or end)."""

    call: str
    words: int
    total: int
    from_end: bool
    source_word: str | None = None
    """The source's word where the quote's differs (None at the output's edge)."""
    quote_word: str | None = None


def _beside(
    doc: str, at: int, words: Sequence[str], n: int, from_end: bool
) -> tuple[str | None, str | None]:
    """The source's and the quote's words just past a matched run of ``n`` words at ``at``."""
    if n >= len(words):
        return None, None
    if not from_end:
        end = at + len(" ".join(words[:n])) + 1
        nxt = doc.find(" ", end + 1)
        source = doc[end + 1 : nxt] if nxt != -1 else None
        return source or None, words[n]
    prev = doc.rfind(" ", 0, at)
    source = doc[prev + 1 : at] if prev != -1 else None
    return source or None, words[len(words) - n - 1]


def _matches(doc: str, pattern: QuotePattern) -> bool:
    pos = 0
    last = len(pattern.parts) - 1
    for n, part in enumerate(pattern.parts):
        end = _match_part(doc, part, pos, open_end=pattern.open_end and n == last)
        if end is None:
            return False
        pos = end
    return True


def _match_part(
    doc: str, part: Sequence[Segment], pos: int, *, open_end: bool = False
) -> int | None:
    """Where the earliest occurrence of ``part`` at or after ``pos`` ends (at a space).

    With ``open_end`` the part's last word may be the start of a longer source word."""
    single = len(part) == 1
    first = " " + " ".join(part[0][0]) + ("" if single and open_end else " ")
    i = doc.find(first, pos)
    tries = 0
    while i != -1 and tries < _MAX_TRIES:
        tries += 1
        if single:
            return doc.find(" ", i + len(first) - 1)
        end = _rest(doc, part, i + len(first) - 1, open_end=open_end)
        if end is not None:
            return end
        i = doc.find(first, i + 1)
    return None


def _rest(doc: str, part: Sequence[Segment], end: int, *, open_end: bool = False) -> int | None:
    """Match the segments after the first, each after lo..hi skipped words; ``end`` is the
    space after the previous segment."""
    last = len(part) - 1
    for n, (words, lo, hi) in enumerate(part[1:], 1):
        needle = " ".join(words) + ("" if open_end and n == last else " ")
        at = end
        matched = False
        for skipped in range(hi + 1):
            if skipped >= lo and doc.startswith(needle, at + 1):
                end = doc.find(" ", at + len(needle))
                matched = True
                break
            nxt = doc.find(" ", at + 1)
            if nxt == -1 or nxt >= len(doc) - 1:
                break
            at = nxt
        if not matched:
            return None
    return end


# -- which sources a quote is cited beside ----------------------------------------------------

CitedSources = Callable[[QuotedPassage], frozenset[Identifier]]
"""The keys of the works a report cites for one quoted passage (empty: it names none)."""

_NOT_SOURCES = frozenset({"code", "query"})
_UNIT_BREAK = re.compile(
    r"\n[ \t]*\n|\n(?=[ \t]{0,3}(?:[-*+\u2022][ \t]|\d{1,4}[.)][ \t]|\[\d{1,4}\]|#|\||>))"
)
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]*_]*(?=\s)")


class NearbySources:
    """The sources cited in a quote's sentence, or else in its paragraph or list item.

    ``citations`` are the report's citations (titles and malformed ids are ignored). The seam
    for other ways of citing: combine this with a resolver of in-text markers, e.g.
    ``lambda q: nearby(q) | markers(q)``.
    """

    def __init__(self, text: str, citations: Iterable[Citation]) -> None:
        ids = sorted(
            (
                c
                for c in citations
                if not c.is_title
                and c.malformed is None
                and c.source is None
                and c.kind not in _NOT_SOURCES
            ),
            key=lambda c: c.start,
        )
        self._ids = ids
        self._starts = [c.start for c in ids]
        self._breaks = [m.start() for m in _UNIT_BREAK.finditer(text)]
        self._ends = [m.end() for m in _SENTENCE_END.finditer(text)]
        self._length = len(text)

    def __call__(self, quote: QuotedPassage) -> frozenset[Identifier]:
        k = bisect_right(self._breaks, quote.start) - 1
        unit_start = self._breaks[k] if k >= 0 else 0
        k = bisect_left(self._breaks, quote.end)
        unit_end = self._breaks[k] if k < len(self._breaks) else self._length
        k = bisect_right(self._ends, quote.start) - 1
        sentence_start = max(unit_start, self._ends[k] if k >= 0 else 0)
        k = bisect_left(self._ends, quote.end + 1)
        sentence_end = min(unit_end, self._ends[k] if k < len(self._ends) else self._length)
        keys = self._keys(sentence_start, sentence_end)
        return keys or self._keys(unit_start, unit_end)

    def _keys(self, start: int, end: int) -> frozenset[Identifier]:
        lo, hi = bisect_left(self._starts, start), bisect_left(self._starts, end)
        return frozenset(k for c in self._ids[lo:hi] for k in c.keys)


# -- checking a report's quotes ------------------------------------------------------------


@frozen
class QuoteCheck:
    """What was found for one quoted passage of the report."""

    passage: QuotedPassage
    citation: Citation
    """The passage as a located citation (scheme ``quote``), for findings."""
    status: str
    """``found``, ``unverified`` (in no output searched) or ``misattributed``."""
    calls: tuple[str, ...] = ()
    """The calls whose output holds it."""
    cited: tuple[Identifier, ...] = ()
    """The sources the report cites beside it (their keys)."""
    cited_calls: tuple[str, ...] = ()
    """The calls that returned a cited source."""
    words: int = 0
    """How many words were compared (bracketed insertions not counted)."""
    searched: int = 0
    """How many outputs were searched."""
    unsearched: int = 0
    """Lookups whose text was not kept (or not recorded): the quote may be in them."""
    closest: Closest | None = field(default=None, eq=False)


def _passage_citation(q: QuotedPassage, pattern: QuotePattern) -> Citation:
    words = " ".join(pattern.words)
    short = words if len(words) <= _ID_CHARS else words[: _ID_CHARS - 1].rstrip() + "…"
    return Citation(
        Identifier(QUOTE_SCHEME, short),
        q.raw,
        q.start,
        q.end,
        q.line,
        q.column,
        extractor="quotes",
        kind=q.kind,
    )


def _code_spans(report: str) -> list[tuple[int, int]]:
    from groundcheck.extractors.mdcode import CodeRegions

    return [(s, e) for s, e, _ in CodeRegions.of(report).regions]


def _overlaps(spans: Sequence[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    """Does a (short) span of ``spans``, sorted by start, overlap ``start:end``?"""
    k = bisect_left(starts, end)
    return any(e > start for _, e in spans[max(0, k - 50) : k])


def check_quotes(
    report: str,
    citations: Sequence[Citation],
    groundings: Sequence[Grounding],
    evidence: EvidenceSet,
    *,
    min_words: int = 6,
    sources: CitedSources | None = None,
    index: QuoteIndex | None = None,
    passages: Sequence[QuotedPassage] | None = None,
) -> tuple[QuoteCheck, ...]:
    """Find the report's quoted passages and look each up in the tool outputs.

    ``citations`` are what the extractors found in the report (the sources a quote may be
    cited beside); ``groundings`` say which quoted phrases matched a returned title (those are
    titles, not quotes). Nothing is judged when no output's text was kept (a loader that keeps
    only identifiers): a quote cannot be looked up in text nobody has. ``sources`` says which
    works the report cites beside a quote (default :class:`NearbySources`); ``index`` reuses
    a built index, ``passages`` the passages :func:`report_quotes` found.
    """
    if passages is None:
        passages = report_quotes(report, min_words)
    if not passages:
        return ()
    index = index if index is not None else QuoteIndex.of_evidence(evidence)
    if not len(index):
        return ()
    titles = sorted(
        (g.citation.start, g.citation.end)
        for g in groundings
        if g.citation.is_title and g.grounded and g.citation.source is None
    )
    title_starts = [s for s, _ in titles]
    cited_of = sources or NearbySources(report, citations)
    searchable = set(index.call_ids)
    named: dict[str, bool] = {}  # does the call name any source? (one that names none: unknown)
    for c in evidence.calls:
        named[c.call_id] = named.get(c.call_id, False) or bool(c.identifiers)
    unsearched = sum(
        1
        for c in evidence.calls
        if c.call_id not in searchable
        and not c.action
        and c.excluded is None
        and not c.errored
        and (not c.recorded or not c.empty)
    )
    patterns = {q.start: quote_pattern(q.text, open_end=q.kind == BLOCK) for q in passages}
    index.prepare(w for p in patterns.values() for w in p.words)
    results: list[QuoteCheck] = []
    memo: dict[str, tuple[str, ...]] = {}
    near: dict[str, Closest | None] = {}  # a report repeating a quote pays for it once
    for q in passages:
        if titles and _overlaps(titles, title_starts, q.start, q.end):
            continue  # a returned title, quoted: the title check has it
        pattern = patterns[q.start]
        if not pattern.words:
            continue
        key = f"{pattern.key}|{pattern.open_end}"
        if key not in memo:
            memo[key] = index.find(pattern)
        found = memo[key]
        citation = _passage_citation(q, pattern)
        if not found:
            if key not in near:
                near[key] = index.closest(pattern)
            results.append(
                QuoteCheck(
                    q,
                    citation,
                    UNVERIFIED,
                    words=len(pattern.words),
                    searched=len(index),
                    unsearched=unsearched,
                    closest=near[key],
                )
            )
            continue
        cited = tuple(sorted(cited_of(q), key=str))
        cited_calls = evidence.calls_returning(cited) if cited else ()
        status = FOUND
        if (
            cited_calls
            and all(c in searchable for c in cited_calls)
            and not set(found) & set(cited_calls)
            and all(named.get(c) for c in found)
        ):
            status = MISATTRIBUTED  # found only in outputs known to be other sources
        results.append(
            QuoteCheck(
                q,
                citation,
                status,
                found,
                cited,
                cited_calls,
                words=len(pattern.words),
                searched=len(index),
                unsearched=unsearched,
            )
        )
    return tuple(results)


def report_quotes(report: str, min_words: int = 6) -> tuple[QuotedPassage, ...]:
    """The report's quoted passages to check (code regions found here)."""
    if not any(mark in report for mark in ('"', "\u201c", "\u201e", "\u00ab", ">")):
        return ()
    return find_quotes(report, code=_code_spans(report), min_words=min_words)


def not_title_candidates(
    citations: Sequence[Citation],
    passages: Sequence[QuotedPassage],
    is_returned_title: Callable[[str], bool],
) -> tuple[Citation, ...]:
    """``citations`` without the quoted "titles" that are quoted passages of the report.

    The title finder takes any quoted phrase of a few words for a title candidate, so a quoted
    sentence beside a link would be judged as that link's title (and fail). A quoted passage
    the quote check takes (not title-like: see :mod:`groundcheck.document.quotes`) is a
    quotation, unless its words are a title some tool returned (``is_returned_title`` on the
    candidate's normalised title): then it stays a title.
    """
    if not passages:
        return tuple(citations)
    spans = sorted((q.start, q.end) for q in passages)
    starts = [s for s, _ in spans]

    def quoted(c: Citation) -> bool:
        k = bisect_right(starts, c.start) - 1
        return k >= 0 and spans[k][0] <= c.start and c.end <= spans[k][1]

    return tuple(
        c
        for c in citations
        if not (c.is_title and c.kind == "quoted" and c.source is None and quoted(c))
        or is_returned_title(c.id)
    )
