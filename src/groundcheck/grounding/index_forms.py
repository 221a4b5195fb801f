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

Sorting only ever sends a title to a slower path than it needs, never a faster one: each
test looks for a superset of what the rules look for. The result is exactly
``[(f.text, i, f.rules, f.prefixable) for i, t in enumerate(titles) for f in title_forms(t)]``
(tests/grounding/test_fast_paths.py checks it against that and the frozen oracle).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from groundcheck.grounding.title_rules import (
    _FOLD_TRIGGERS,
    _MAIN_SPLIT,
    GENERIC_SUBTITLE_HEADS,
    RuleSet,
    _may_split,
    fold_acronyms,
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


def index_forms(titles: Sequence[str], rules: RuleSet) -> IndexForms:
    """The forms of every title (see the module docstring), flattened in title order."""
    kinds = _sort(titles, rules)
    plain = [t for t, kind in zip(titles, kinds, strict=True) if kind != _SLOW]
    normalized = iter(_normalize_plain(plain))
    # A title with one colon and no other mark a separator needs: its main title is the
    # words before the colon (see _split_forms), all of them normalised at once.
    for i in [i for i, kind in enumerate(kinds) if kind == _COLON]:
        if titles[i].count(":") != 1 or len(titles[i]) > _SPLIT_WITHIN:
            kinds[i] = _SPLIT
    heads = iter(
        _normalize_plain(
            [t.partition(":")[0] for t, kind in zip(titles, kinds, strict=True) if kind == _COLON]
        )
    )
    fold = rules.acronym
    texts: list[str] = []
    owners: list[int] = []
    applied: list[tuple[str, ...]] = []
    prefixable: list[bool] = []
    for i, (title, kind) in enumerate(zip(titles, kinds, strict=True)):
        if kind in (_SINGLE, _COLON):
            text = next(normalized)
            head = next(heads) if kind == _COLON else ""
            if not text:
                continue
            words = text.split(" ")
            can_fold = fold and not _FOLD_TRIGGERS.isdisjoint(words)
            rule: tuple[str, ...] = ()
            if can_fold:
                folded = fold_acronyms(text)
                if folded != text:
                    text, rule = folded, ("acronym",)
            texts.append(text)
            owners.append(i)
            applied.append(rule)
            prefixable.append(True)
            if head:
                main = _colon_main(head, words, can_fold)
                if main is not None and main[0] != text:
                    texts.append(main[0])
                    owners.append(i)
                    applied.append(main[1])
                    prefixable.append(True)
            continue
        if kind == _SPLIT:
            found = _split_forms(title, next(normalized), fold)
        else:
            found = [(f.text, f.rules, f.prefixable) for f in title_forms(title, rules)]
        for text, rule, ok in found:
            texts.append(text)
            owners.append(i)
            applied.append(rule)
            prefixable.append(ok)
    return texts, owners, applied, prefixable


def _colon_main(head: str, words: list[str], can_fold: bool) -> tuple[str, tuple[str, ...]] | None:
    """The main title of a title with one colon and no other separator mark (``head``: the
    words before the colon, normalised; ``words``: the title's): what :func:`_split_forms`
    finds for it, without the pattern. A colon stands alone, so the head's words are the
    title's first words and the subtitle's the rest."""
    k = head.count(" ") + 1
    tail = words[k:]
    if len(tail) < 3 or not GENERIC_SUBTITLE_HEADS.isdisjoint(tail[:3]):
        return None
    if can_fold:
        folded = fold_acronyms(head)
        if folded != head:
            return folded, ("main-title", "acronym")
    return head, ("main-title",)


def cut_candidates(titles: Sequence[str]) -> list[int]:
    """The titles that may end cut short (hold ``...`` or ``…``), in order: the only ones
    :func:`~.title_rules.cut_prefix` can find anything in."""
    blob, starts = _joined(titles)
    found: set[int] = set()
    for mark in _CUT_MARKS:
        _hits(blob, starts, mark, found)
    return sorted(found)


def _joined(titles: Sequence[str]) -> tuple[str, list[int]]:
    """The titles joined, each after a NUL, and where each starts (one more: the end + 1).
    A title may hold a NUL itself: positions are mapped to titles by ``starts``, never by
    the NULs; only :data:`_FIRST_NOT_LETTER` may then send a title the slow way for nothing."""
    blob = "\x00" + "\x00".join(titles)
    starts = list(accumulate(map(len, titles), lambda at, n: at + n + 1, initial=1))
    return blob, starts


def _hits(blob: str, starts: list[int], needle: str, out: set[int]) -> None:
    """Add to ``out`` every title holding ``needle`` (no NUL in it: it stays within a title).
    After a hit the search jumps to the next title, so a title costs one find at most."""
    find = blob.find
    at = find(needle)
    while at != -1:
        k = bisect_right(starts, at) - 1
        out.add(k)
        at = find(needle, starts[k + 1])


def _sort(titles: Sequence[str], rules: RuleSet) -> list[int]:
    """_SINGLE, _SPLIT or _SLOW for each title (see the module docstring); _COLON for a
    split title with no separator mark but colons (index_forms checks there is one)."""
    n = len(titles)
    blob, starts = _joined(titles)
    slow: set[int] = set()
    if not blob.isascii():
        slow.update(i for i, t in enumerate(titles) if not t.isascii())
    for needle in _NOT_PLAIN:
        _hits(blob, starts, needle, slow)
    if rules.decoration:
        for needle in (*_DECORATION_CHARS, *_DECORATION_WORDS):
            _hits(blob, starts, needle, slow)
        for m in _FIRST_NOT_LETTER.finditer(blob):
            slow.add(bisect_right(starts, m.start() + 1) - 1)
    split: set[int] = set()
    other: set[int] = set()
    if rules.main_title:
        for needle in _SPLIT_MARKS:
            _hits(blob, starts, needle, split)
        for needle in _OTHER_SPLIT_MARKS:
            _hits(blob, starts, needle, other)
    else:
        for needle in _LEGACY_SPLIT_MARKS:
            _hits(blob, starts, needle, slow)
    kinds = [_SINGLE] * n
    for i in split:
        kinds[i] = _SPLIT if i in other else _COLON
    for i in slow:
        kinds[i] = _SLOW
    return kinds


def _normalize_plain(titles: list[str]) -> list[str]:
    """``normalize_title`` of plain ASCII titles (no ``&\\{}``, no ``\\x01``), all at once:
    lowered, letters and digits kept, the words of each joined by one space."""
    if not titles:
        return []
    parts = "\x01".join(titles).lower().encode("ascii").translate(_WORDS_KEEP_01).split(b"\x01")
    return list(map(bytes.decode, map(b" ".join, map(bytes.split, parts))))


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
