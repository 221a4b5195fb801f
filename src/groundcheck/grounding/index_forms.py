"""Every returned title's forms at once: what :class:`~.title_index.TitleIndex` is built from.

:func:`~.title_rules.title_forms` works one title at a time, and at 10,000 titles (an audit of
100 searches of 100 papers) its Python calls are most of the audit after loading. Most titles
need none of its rules' work, and those that do mostly need one: a plain ASCII title, with
nothing a web page glues on, whose only rule is the main title before a colon. So the titles
are sorted first, by literal searches over all of them joined (C speed, no per-title call):

- *single*: nothing any rule looks for is in the title (as :func:`~.title_rules._single_form`
  tests, only wider), and it is plain ASCII: its one form is its normalised text, and every
  such title is normalised by one translation of them all joined;
- *split*: plain ASCII, nothing a decoration rule looks for, but a main-title separator: its
  main titles are cut from the tokens of its normalised text (see :func:`_split_forms`), and
  the separators are found by the same pattern :func:`~.title_rules.main_titles` uses;
- anything else (non-ASCII, HTML entities, LaTeX, brackets, leading digits, …): the
  title's :func:`~.title_rules.title_forms`, as before.

A split title with one colon and no other mark (the common case: ``Name: what it does``)
gets its main title without the pattern: the part before the colon, every such title's
parts normalised by one translation that reads the colon as a break (:func:`_colon_parts`,
:func:`_colon_mains`).
What is asked of every title is asked of all at once where that is cheaper: which hold
acronyms to fold, which subtitles open with a genre.

Sorting only ever sends a title to a slower path than it needs, never a faster one: each
test looks for a superset of what the rules look for. The result is exactly
``[(f.text, i, f.rules, f.prefixable) for i, t in enumerate(titles) for f in title_forms(t)]``
(tests/grounding/test_fast_paths.py checks it against that and the frozen oracle;
tests/grounding/test_batch_forms.py checks each batch step against the code it stands for).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import cached_property
from itertools import accumulate, compress, repeat
from operator import and_

from groundcheck.grounding.title_rules import (
    _FOLD_TRIGGERS,
    _MAIN_SPLIT,
    GENERIC_SUBTITLE_HEADS,
    RuleSet,
    _may_split,
    fold_acronyms,
    is_generic_subtitle,
    title_forms,
)

__all__ = ["IndexForms", "index_forms"]

IndexForms = tuple[list[str], list[int], list[tuple[str, ...]], list[bool]]
"""(texts, owners, rules, prefixable) of every form of every title, in title order."""

_ALNUM = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_WORDS_KEEP_01 = bytes(c if c in _ALNUM or c == 1 else 32 for c in range(256))
""":func:`~groundcheck.extractors.title.normalize_title`'s ASCII table (letters and digits
kept, the rest to spaces), but ``\\x01`` kept too: it separates the titles joined."""
_WORDS = bytes(c if c in _ALNUM else 32 for c in range(256))
_WORDS_COLON_BREAK = bytes(1 if c == ord(":") else v for c, v in enumerate(_WORDS_KEEP_01))
"""As :data:`_WORDS_KEEP_01`, but a colon turns into ``\\x01`` too: each title with one colon
comes out as two, the part before it and the part after it."""

_NOT_PLAIN = ("&", "\\", "{", "}", "\x01")
"""What sends an ASCII title to normalize_title's slow path (and the batch's separator)."""
_DECORATION_CHARS = ("[", "(", "|", "<", ">")
_DECORATION_WORDS = (" - ", " Poster", " Oral", " Spotlight")
"""What :func:`~.title_rules._may_be_decorated` looks for in an ASCII title (it also asks for
a leading digit: any title not opening with a letter is sent the slow way)."""
_SPLIT_MARKS = (":", "?", "!", ", with", " - ")
"""What :func:`~.title_rules._may_split` looks for in an ASCII title."""
_LEGACY_SPLIT_MARKS = (":", "-")
"""What :func:`~.title_rules._single_form` looks for without the main-title rule (ASCII)."""
_FIRST_NOT_LETTER = re.compile(r"\x00(?=[^A-Za-z])")
"""A title starting with anything but a letter (the NUL before it; a look-ahead, so an empty
title's NUL never hides the next title's first character)."""
_CUT_MARKS = ("...", "…")

_SINGLE, _SPLIT, _SLOW, _COLON = 0, 1, 2, 3
_OTHER_SPLIT_MARKS = ("?", "!", ",", "-")
"""Marks that make a separator other than a colon (":" alone is the common case)."""
_SPLIT_WITHIN = 400
"""main_titles looks for separators in the first this many characters."""


def index_forms(titles: Sequence[str], rules: RuleSet, joined: Joined | None = None) -> IndexForms:
    """The forms of every title (see the module docstring), flattened in title order.
    ``joined``: the titles' :func:`join_titles` (built here when not given)."""
    n = len(titles)
    kinds = _sort(titles, rules, joined or join_titles(titles))
    colon_at, heads, tails = _colon_parts(titles, kinds)
    # The other plain titles (single and split) normalised in one batch; a one-colon
    # title's words are its head's, then its subtitle's (a colon is no letter or digit).
    rest_at = list(compress(range(n), map(_SLOW.__gt__, kinds)))
    rest = _normalize_plain(
        list(titles) if len(rest_at) == n else list(map(titles.__getitem__, rest_at))
    )
    colon_wholes = list(map(str.strip, map(" ".join, zip(heads, tails, strict=True))))
    fold = rules.acronym
    # Which titles hold an acronym to fold (and so may have a folded form), and their folded
    # whole text when folding changed it.
    can_fold: set[int] = set()
    folded_text: dict[int, str] = {}
    if fold:
        for at, wholes in ((rest_at, rest), (colon_at, colon_wholes)):
            for p in _with_triggers(wholes):
                i = at[p]
                can_fold.add(i)
                folded = fold_acronyms(wholes[p])
                if folded != wholes[p]:
                    folded_text[i] = folded
    mains = _colon_mains(colon_at, heads, tails, can_fold)
    texts: list[str] = []
    owners: list[int] = []
    applied: list[tuple[str, ...]] = []
    prefixable: list[bool] = []
    rest_of, colon_of = iter(rest), iter(colon_wholes)
    for i, kind in enumerate(kinds):
        if kind == _SLOW:
            found = [(f.text, f.rules, f.prefixable) for f in title_forms(titles[i], rules)]
        elif kind == _SPLIT:
            found = _split_forms(titles[i], next(rest_of), fold)
        else:
            text = next(rest_of) if kind == _SINGLE else next(colon_of)
            if not text:
                continue
            rule: tuple[str, ...] = ()
            if i in folded_text:
                text, rule = folded_text[i], _ACRONYM
            texts.append(text)
            owners.append(i)
            applied.append(rule)
            prefixable.append(True)
            main = mains.get(i)
            if main is not None and main[0] != text:
                texts.append(main[0])
                owners.append(i)
                applied.append(main[1])
                prefixable.append(True)
            continue
        for text, rule, ok in found:
            texts.append(text)
            owners.append(i)
            applied.append(rule)
            prefixable.append(ok)
    return texts, owners, applied, prefixable


_ACRONYM: tuple[str, ...] = ("acronym",)
_MAIN: tuple[str, ...] = ("main-title",)
_MAIN_ACRONYM: tuple[str, ...] = ("main-title", "acronym")


def _with_triggers(normalized: Sequence[str]) -> list[int]:
    """The positions of the normalised titles holding a word :func:`fold_acronyms` folds.
    (Title by title: cutting all the titles' words at once and looking them up together
    was measured slower, the words cost the same to cut and the titles must be found again.)"""
    disjoint = map(_FOLD_TRIGGERS.isdisjoint, map(str.split, normalized))
    return [p for p, none in enumerate(disjoint) if not none]


def _colon_parts(titles: Sequence[str], kinds: list[int]) -> tuple[list[int], list[str], list[str]]:
    """The titles with one colon and no other mark a separator needs, and the normalised
    part before and after the colon of each, all normalised at once (the colon read as a
    title break). Titles with more colons, or too long for ``main_titles`` to look at every
    character, are sent to :func:`_split_forms` (their kind set to _SPLIT here)."""
    at = list(compress(range(len(kinds)), map(_COLON.__eq__, kinds)))
    colon = list(map(titles.__getitem__, at))
    parts = _normalize_plain(colon, _WORDS_COLON_BREAK)
    # One colon each (two parts each: each title holds one at least), within the characters
    # main_titles looks at; otherwise the titles that do not are sent to _split_forms.
    if len(parts) != 2 * len(colon) or max(map(len, colon), default=0) > _SPLIT_WITHIN:
        ones = map((1).__eq__, map(str.count, colon, repeat(":")))
        one = list(map(and_, ones, map(_SPLIT_WITHIN.__ge__, map(len, colon))))
        for k in [k for k, ok in enumerate(one) if not ok]:
            kinds[at[k]] = _SPLIT
        at = [i for i in at if kinds[i] == _COLON]
        colon = list(map(titles.__getitem__, at))
        parts = _normalize_plain(colon, _WORDS_COLON_BREAK)
    return at, parts[0::2], parts[1::2]


def _colon_mains(
    at: list[int], heads: list[str], tails: list[str], can_fold: set[int]
) -> dict[int, tuple[str, tuple[str, ...]]]:
    """The main title (and its rules) of each one-colon title (``at``, with the parts of
    :func:`_colon_parts`), when it has one: what :func:`_split_forms` finds for it, without
    the pattern. A colon stands alone: the words of the title are the words before it, then
    the words after it. So the main title is the part before the colon, when the part after
    it has three words or more and none of its first three is a genre's."""
    # A head, and three words after the colon (two spaces at least).
    long_tail = map((2).__le__, map(str.count, tails, repeat(" ")))
    kept = set(compress(range(len(at)), map(and_, map(bool, heads), long_tail)))
    kept.difference_update(_generic(tails))
    mains = {at[k]: (heads[k], _MAIN) for k in kept}
    for i in can_fold.intersection(mains):
        folded = fold_acronyms(mains[i][0])
        if folded != mains[i][0]:
            mains[i] = (folded, _MAIN_ACRONYM)
    return mains


def _generic(tails: list[str]) -> set[int]:
    """The positions of the (normalised) subtitles with a genre among their first three
    words (:func:`~.title_rules.is_generic_subtitle`). Most title sets hold no genre word
    at all: all their words are looked up at once. Otherwise only the subtitles holding a
    genre word somewhere are tested one by one."""
    present = GENERIC_SUBTITLE_HEADS.intersection(" ".join(tails).split(" "))
    if not present:
        return set()
    joined = join_titles(tails)
    holding: set[int] = set()
    for word in present:
        _hits(joined, word, holding, tails)
    return {k for k in holding if is_generic_subtitle(tails[k])}


def cut_candidates(titles: Sequence[str], joined: Joined | None = None) -> list[int]:
    """The titles that may end cut short (hold ``...`` or ``…``), in order: the only ones
    :func:`~.title_rules.cut_prefix` can find anything in."""
    joined = joined or join_titles(titles)
    found: set[int] = set()
    for mark in _CUT_MARKS:
        _hits(joined, mark, found, titles)
    return sorted(found)


class Joined:
    """The titles joined, each after a NUL (``blob``), and where each starts (``starts``, one
    more: the end + 1). A title may hold a NUL itself: positions are mapped to titles by
    ``starts``, never by the NULs; only :data:`_FIRST_NOT_LETTER` may then send a title the
    slow way for nothing. Built once for :func:`index_forms` and :func:`cut_candidates` both;
    ``starts`` only when a needle is found find by find (most sets need none)."""

    def __init__(self, titles: Sequence[str]) -> None:
        self.blob = "\x00" + "\x00".join(titles)
        self._titles = titles

    @cached_property
    def starts(self) -> list[int]:
        # starts[k + 1] = starts[k] + len(titles[k]) + 1, summed in C (no per-title lambda).
        return list(accumulate(map((1).__add__, map(len, self._titles)), initial=1))


join_titles = Joined


_MANY_HITS = 8
"""A needle found in more than one title in this many is looked for title by title (one
``in`` each, in C) instead of find by find (a Python step per hit)."""

_GATES = {" - ": "-", ", with": ",", "...": "."}
"""A character each of these needles holds that titles seldom do: a one-character search
(``memchr``, ~100 times faster than a search for a needle that starts with a space over
titles full of spaces) tells whether the needle can be anywhere at all."""


def _hits(joined: Joined, needle: str, out: set[int], titles: Sequence[str]) -> None:
    """Add to ``out`` every title holding ``needle`` (no NUL in it: it stays within a title).
    After a hit the search jumps to the next title, so a title costs one find at most."""
    blob = joined.blob
    gate = _GATES.get(needle)
    if gate is not None and gate not in blob:
        return
    find = blob.find
    at = find(needle)
    if at == -1:
        return
    if blob.count(needle, at) * _MANY_HITS > len(titles):
        out.update(compress(range(len(titles)), map(str.__contains__, titles, repeat(needle))))
        return
    starts = joined.starts
    while at != -1:
        k = bisect_right(starts, at) - 1
        out.add(k)
        at = find(needle, starts[k + 1])


def _sort(titles: Sequence[str], rules: RuleSet, joined: Joined) -> list[int]:
    """_SINGLE, _SPLIT or _SLOW for each title (see the module docstring); _COLON for a
    split title with no separator mark but colons (:func:`_colon_parts` checks there is one)."""
    n = len(titles)
    blob = joined.blob
    slow: set[int] = set()
    if not blob.isascii():
        slow.update(i for i, t in enumerate(titles) if not t.isascii())
    for needle in _NOT_PLAIN:
        _hits(joined, needle, slow, titles)
    if rules.decoration:
        for needle in (*_DECORATION_CHARS, *_DECORATION_WORDS):
            _hits(joined, needle, slow, titles)
        for m in _FIRST_NOT_LETTER.finditer(blob):
            slow.add(bisect_right(joined.starts, m.start() + 1) - 1)
    split: set[int] = set()
    other: set[int] = set()
    if rules.main_title:
        for needle in _SPLIT_MARKS:
            if needle in _DECORATION_WORDS and rules.decoration:
                continue  # its titles are slow already: a split kind would be overwritten
            _hits(joined, needle, split, titles)
        for needle in _OTHER_SPLIT_MARKS:
            _hits(joined, needle, other, titles)
    else:
        for needle in _LEGACY_SPLIT_MARKS:
            _hits(joined, needle, slow, titles)
    kinds = [_SINGLE] * n
    for i in split:
        kinds[i] = _SPLIT if i in other else _COLON
    for i in slow:
        kinds[i] = _SLOW
    return kinds


def _normalize_plain(titles: list[str], table: bytes = _WORDS_KEEP_01) -> list[str]:
    """``normalize_title`` of plain ASCII titles (no ``&\\{}``, no ``\\x01``), all at once:
    lowered, letters and digits kept, the words of each joined by one space.

    The titles are joined by ``\\x01`` and translated by ``table`` (a table that also turns
    a colon into ``\\x01`` cuts each title at its colon), runs of spaces are made one by one
    substitution over the whole, and each title is stripped: no title is split into words.
    """
    if not titles:
        return []
    blob = "\x01".join(titles).lower().encode("ascii").translate(table)
    blob = _SPACES.sub(b" ", blob)
    return list(map(str.strip, blob.decode("ascii").split("\x01")))


_SPACES = re.compile(b"  +")


def _word_count(ascii_text: str) -> int:
    return len(ascii_text.encode("ascii").translate(_WORDS).split())


def _split_forms(
    title: str, normalized: str, fold: bool
) -> list[tuple[str, tuple[str, ...], bool]]:
    """``title_forms`` of a plain ASCII title with no decoration: its normalised text, then
    each main title :func:`~.title_rules.main_titles` finds.

    Each separator the pattern matches starts and ends on a character that is no letter or
    digit, so the words of the title are the head's, then the separator's (``with`` for ",
    with"), then the tail's: the head's normalised text is the first words of the title's,
    and the tail's the words after the separator's. Only the head's words are counted.
    """
    seen: dict[str, tuple[str, ...]] = {}
    whole: tuple[str, ...] = ()
    words = normalized.split()
    can_fold = fold and not _FOLD_TRIGGERS.isdisjoint(words)
    if normalized:
        text = fold_acronyms(normalized) if can_fold else normalized
        if text != normalized:
            whole = ("acronym",)
        seen[text] = whole
    text = title.strip()
    if not _may_split(text):
        return [(t, r, True) for t, r in seen.items()]
    end = min(len(text), 400)
    if "?" in text or "!" in text or "," in text or "-" in text:
        heads = [(m.start(), m.group()) for m in _MAIN_SPLIT.finditer(text, 0, end)]
    else:
        # Only colons: each is one match of the pattern (spaces around it are no words).
        heads = []
        at = text.find(":", 0, end)
        while at != -1:
            heads.append((at, ":"))
            at = text.find(":", at + 1, end)
    for at, separator in heads:
        k = _word_count(text[:at])
        if k == 0:
            continue
        tail = words[k + 1 :] if "with" in separator else words[k:]
        if len(tail) < 3 or not GENERIC_SUBTITLE_HEADS.isdisjoint(tail[:3]):
            continue
        if k < 2 and separator.strip() not in (":", "-"):
            continue
        main = " ".join(words[:k])
        rule: tuple[str, ...] = ("main-title",)
        if can_fold:
            folded = fold_acronyms(main)
            if folded != main:
                main, rule = folded, ("main-title", "acronym")
        if main not in seen:
            seen[main] = rule
    return [(t, r, True) for t, r in seen.items()]
