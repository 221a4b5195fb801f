"""Acronyms an agent coins from the very title it cites: "PLMs" for "Protein Language Models".

The acronym rule of :mod:`.title_rules` folds a fixed table of common acronyms (SAEs, LLMs,
RAG) on both sides. Agents also shorten domain terms no table holds — "Interpreting and
Steering PLMs through Sparse Autoencoders" for "… Protein Language Models …", "CAVs" for
"Concept Activation Vectors" — and a near-miss score then warns about an honest citation.

When a cited title is compared with *one* returned title, that title itself says what such an
acronym stands for: its capitals must be the initials of consecutive words of the returned
title (small function words may sit between them, as in "Reinforcement Learning from Human
Feedback"). Only tokens written with at least two capitals count as acronyms, so ordinary
words are never expanded, and an acronym is expanded only into words the other title holds:
the comparison can gain a match for the same words, never invent one.
"""

from __future__ import annotations

import re

__all__ = ["coins_acronyms", "expand_acronyms"]

_TOKEN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2,10}(?![A-Za-z0-9])")
_WORD = re.compile(r"[A-Za-z0-9]+")
_CAPITAL = re.compile(r"[A-Z]")
_FUNCTION_WORDS = frozenset(
    {
        "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the",
        "to", "via", "with", "without",
    }
)  # fmt: skip
"""Words an acronym may skip ("from" in RLHF); they never supply a letter unless written in
capitals of their own."""


def _letters(token: str) -> str | None:
    """The capitals of an acronym-like token ("PLMs" -> "plm", "CoT" -> "ct"), or None."""
    capitals = [c for c in token if c.isupper()]
    if len(capitals) < 2:
        return None
    return "".join(capitals).lower()


def _spelled(letters: str, words: list[str]) -> tuple[int, int] | None:
    """The first run ``words[i:j]`` whose initials spell ``letters``, skipping function words
    between them; the run starts and ends on a word that supplies a letter."""
    n = len(words)
    for i in range(n):
        if not words[i] or words[i][0] != letters[0]:
            continue
        k, at = i + 1, 1
        while at < len(letters) and k < n:
            if words[k][0] == letters[at]:
                at += 1
                k += 1
            elif words[k] in _FUNCTION_WORDS:
                k += 1
            else:
                break
        if at == len(letters):
            return i, k
    return None


def coins_acronyms(cited: str) -> bool:
    """Could :func:`expand_acronyms` expand anything in ``cited``, whatever the returned
    title? Only when a token has two to eight capitals: otherwise it returns None for every
    title, and the search for the closest one can be skipped.

    >>> coins_acronyms("Steering PLMs"), coins_acronyms("A review of the field")
    (True, False)
    """
    first = _CAPITAL.search(cited)
    if first is None or _CAPITAL.search(cited, first.end()) is None:
        return False  # an acronym needs two capitals: most prose has fewer, found in C
    for m in _TOKEN.finditer(cited):
        letters = _letters(m.group())
        if letters is not None and len(letters) <= 8:
            return True
    return False


def expand_acronyms(cited: str, returned: str) -> str | None:
    """``cited`` with every acronym that ``returned`` spells out replaced by its words, or None
    when there is none.

    >>> expand_acronyms("Interpreting and Steering PLMs through Sparse Autoencoders",
    ...     "Interpreting and Steering Protein Language Models through Sparse Autoencoders")
    'Interpreting and Steering Protein Language Models through Sparse Autoencoders'
    >>> expand_acronyms("Training LMs with RLHF", "Training Language Models with Reinforcement "
    ...     "Learning from Human Feedback")
    'Training Language Models with Reinforcement Learning from Human Feedback'
    >>> expand_acronyms("Attention Is All You Need", "Attention Is All You Need") is None
    True
    """
    original = _WORD.findall(returned)
    words = [w.lower() for w in original]
    if not words:
        return None
    present = set(words)
    pieces: list[str] = []
    last = 0
    for m in _TOKEN.finditer(cited):
        token = m.group()
        if token.lower() in present:
            continue  # written the same way in the returned title: nothing to expand
        letters = _letters(token)
        if letters is None or len(letters) > 8:
            continue
        run = _spelled(letters, words)
        if run is None:
            continue
        pieces.append(cited[last : m.start()])
        pieces.append(" ".join(original[run[0] : run[1]]))
        last = m.end()
    if not pieces:
        return None
    pieces.append(cited[last:])
    return "".join(pieces)
