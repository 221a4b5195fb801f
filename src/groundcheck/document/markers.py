"""In-text markers: ``[4]``, ``[2, 5–7]``, ``[^3]``, ``【1】``, ``\\cite{key}``, and author–year
citations in prose (``Lewis et al. (2020)``, ``(Lewis et al., 2020; Karpukhin et al., 2020)``).

A marker is only a marker in prose: never in code (``x[1]``), never as the label of the entry
it opens (``[1] Lewis …``), never as link text (``[1](https://…)``). A bracketed year
(``[2025]``) is a year unless the report really has an entry labelled so; that is decided
when markers are resolved (:mod:`groundcheck.document.works`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence

from groundcheck.document.blocks import LineMap
from groundcheck.model import Marker

__all__ = ["author_year_markers", "in_spans", "numbered_markers"]

MAX_RANGE = 200
"""A range longer than this (``[1–100000]``) names only its two ends: spelling it out would
let one marker cost as much as a reference list."""

_BRACKET = re.compile(r"\[(\^?)([^\[\]\n]{1,60})\]|【([^【】\n]{1,60})】")
_NUMBERS = re.compile(
    r"\s*\d{1,5}(?:\s*[-–—]\s*\d{1,5})?(?:\s*[,;]\s*\d{1,5}(?:\s*[-–—]\s*\d{1,5})?){0,50}\s*"
)
_ONE = re.compile(r"(\d{1,5})(?:\s*[-–—]\s*(\d{1,5}))?")
_FOOTNOTE = re.compile(r"[^\]\s]{1,40}")
_KEYED = re.compile(r"[A-Z][A-Za-z0-9]{0,15}(?:[-_][A-Za-z0-9]{1,15}){0,2}[-_]\d{1,4}")
"""Key-style labels some agents give their sources: ``[AF3-1]``, ``[CASP-1]``, ``[NAA-2]``."""
_CITE = re.compile(
    r"\\(?:cite|citep|citet|citealp|citeauthor|parencite|textcite|autocite|footcite|nocite)"
    r"\*?(?:\[[^\]\n]{0,80}\]){0,2}\{([^{}\n]{1,500})\}"
)


_BIG = 1 << 62


def _in(spans: Sequence[tuple[int, int]], offset: int) -> bool:
    k = bisect_right(spans, (offset, _BIG)) - 1
    return k >= 0 and spans[k][0] <= offset < spans[k][1]


def _labels(content: str) -> tuple[str, ...]:
    out: list[str] = []
    for m in _ONE.finditer(content):
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if lo <= hi <= lo + MAX_RANGE:
            out.extend(str(n) for n in range(lo, hi + 1))
        else:
            out.extend((str(lo), str(hi)))
    return tuple(dict.fromkeys(out))


def numbered_markers(
    text: str,
    code: Sequence[tuple[int, int]],
    labels_at: frozenset[int],
    lines: LineMap,
) -> list[Marker]:
    """``[n]``, ``[n, m]``, ``[n–m]``, ``[n]–[m]``, ``【n】``, ``[^x]`` and ``\\cite{…}``
    outside code. ``labels_at`` are the offsets where an entry's own label starts.
    """
    out: list[Marker] = []
    for m in _markers(text, code, labels_at, lines):
        prev = out[-1] if out else None
        if (
            prev is not None
            and m.kind == prev.kind == "number"
            and len(m.labels) == 1
            and len(prev.labels) == 1
            and text[prev.end : m.start].strip() in ("-", "–", "—")
            and m.start - prev.end <= 3
        ):
            # "[4]–[6]" is the range 4 to 6, written as two markers.
            lo, hi = int(prev.labels[0]), int(m.labels[0])
            if lo <= hi <= lo + MAX_RANGE:
                labels = tuple(str(n) for n in range(lo, hi + 1))
                raw = text[prev.start : m.end]
                out[-1] = Marker(raw, prev.start, m.end, prev.line, prev.column, "number", labels)
                continue
        out.append(m)
    return out


def _markers(
    text: str,
    code: Sequence[tuple[int, int]],
    labels_at: frozenset[int],
    lines: LineMap,
) -> Iterator[Marker]:
    if "[" in text or "【" in text:
        for m in _BRACKET.finditer(text):
            start = m.start()
            if start in labels_at or _in(code, start):
                continue
            after = text[m.end() : m.end() + 1]
            if after in ("(", ":"):
                continue  # link text, or a definition
            if m.group(3) is not None:
                content, kind = m.group(3), "number"
            elif m.group(1):
                if _FOOTNOTE.fullmatch(m.group(2)) is None:
                    continue
                line, column = lines.locate(start)
                yield Marker(
                    m.group(), start, m.end(), line, column, "footnote", ("^" + m.group(2),)
                )
                continue
            else:
                content, kind = m.group(2), "number"
            if _NUMBERS.fullmatch(content) is None:
                if _KEYED.fullmatch(content) is None or after == "[":
                    continue
                line, column = lines.locate(start)
                yield Marker(m.group(), start, m.end(), line, column, "key", (content,))
                continue
            if text[start - 1 : start] == "!" or (
                after == "[" and not text[m.end() + 1 : m.end() + 2].isdigit()
            ):
                continue  # an image, or a reference-style link [text][ref]
            line, column = lines.locate(start)
            yield Marker(m.group(), start, m.end(), line, column, kind, _labels(content))
    if "\\" in text:
        for m in _CITE.finditer(text):
            if _in(code, m.start()):
                continue
            keys = tuple(dict.fromkeys(k.strip() for k in m.group(1).split(",") if k.strip()))
            if keys:
                line, column = lines.locate(m.start())
                yield Marker(m.group(), m.start(), m.end(), line, column, "key", keys)


_UP = "A-ZÀ-ÖØ-ÞĀ-ſ"
_PARTICLES = r"(?:(?:van|von|de|der|den|del|della|di|da|du|le|la|dos|das|ter|ten)\s){0,3}"
_NAME = rf"{_PARTICLES}[{_UP}][\w'’\-]{{1,40}}"
_MORE = (
    rf"(?:\s+et\.?\s+al\.?|\s+(?:and|&)\s+{_NAME}|(?:,\s+{_NAME}){{1,6}},?\s+(?:and|&)\s+{_NAME})"
)
_YEAR = r"((?:1[6-9]|20)\d{2})[a-z]?"
_PAGES = r"(?:[,:]\s*(?:p|pp|ch|sec)\.?\s*[\d–-]{1,12})?"
_GROUP = re.compile(r"\(([^()]{4,400})\)")
_JUST_YEAR = re.compile(rf"\s*{_YEAR}{_PAGES}\s*")
_NARRATIVE = re.compile(rf"({_NAME})({_MORE})?(?:'s|’s)?\s*$")
_PARENTHETICAL = re.compile(
    rf"\s*(?:(?:e\.g\.|i\.e\.|see\s+also|see|cf\.|also|as\s+in|and|but\s+see)\s*,?\s*)?"
    rf"({_NAME})({_MORE})?,?\s+{_YEAR}(?:,\s*[a-z](?=[,;]|$))?{_PAGES}\s*"
)
_NOT_NAMES = frozenset(
    {
        "In",
        "The",
        "See",
        "Since",
        "From",
        "By",
        "And",
        "Or",
        "For",
        "Figure",
        "Fig",
        "Table",
        "Section",
        "Chapter",
        "Appendix",
        "Eq",
        "Equation",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Jan",
        "Feb",
        "Mar",
        "Apr",
        "Jun",
        "Jul",
        "Aug",
        "Sep",
        "Sept",
        "Oct",
        "Nov",
        "Dec",
        "Spring",
        "Summer",
        "Fall",
        "Autumn",
        "Winter",
        "Version",
        "Release",
        "Update",
        "Edition",
        "Vol",
        "Volume",
        "Issue",
        "No",
        "Page",
        "Pages",
        "Q1",
        "Q2",
        "Q3",
        "Q4",
        "Copyright",
        "This",
        "That",
        "These",
        "Those",
        "Our",
        "We",
        "It",
        "Its",
        "Also",
        "Both",
        "After",
        "Before",
        "During",
        "Until",
        "Between",
        "Published",
        "Accessed",
        "Retrieved",
        "Updated",
        "Revised",
        "Posted",
        "Online",
        "Preprint",
        "Released",
    }
)
"""Capitalised words that open "(…, 2020)" without being anyone's name."""


def _is_name(word: str) -> bool:
    head = word.rsplit(maxsplit=1)[-1] if word.split() else word
    return head not in _NOT_NAMES and any(ch.islower() for ch in head)


def author_year_markers(
    text: str, code: Sequence[tuple[int, int]], lines: LineMap
) -> Iterator[tuple[Marker, bool]]:
    """Author–year citations in prose, each with whether its form is unmistakable.

    ``Lewis et al. (2020)``, ``Lewis and Perez (2020)`` and every parenthetical form
    ``(Lewis, 2020; Perez et al., 2021a)`` are unmistakable; ``Lewis (2020)`` alone could be
    anything followed by a year ("GPT-4 (2023)"), so it counts only when it resolves.
    """
    if "(" not in text:
        return
    for g in _GROUP.finditer(text):
        start = g.start()
        if _in(code, start):
            continue
        content = g.group(1)
        if not any(ch.isdigit() for ch in content) or "\n\n" in content:
            continue
        year = _JUST_YEAR.fullmatch(content)
        if year is not None:
            window_start = max(0, start - 160)
            tail = _NARRATIVE.search(text, window_start, start)
            if tail is None or not _is_name(tail.group(1)):
                continue
            begin = tail.start()
            line, column = lines.locate(begin)
            marker = Marker(
                text[begin : g.end()],
                begin,
                g.end(),
                line,
                column,
                "author-year",
                author=tail.group(1),
                year=int(year.group(1)),
            )
            yield marker, tail.group(2) is not None
            continue
        offset = g.start(1)
        for part in content.split(";"):
            m = _PARENTHETICAL.fullmatch(part)
            if m is not None and _is_name(m.group(1)):
                a = offset + m.start(1)
                b = offset + len(part.rstrip())
                line, column = lines.locate(a)
                yield (
                    Marker(
                        text[a:b],
                        a,
                        b,
                        line,
                        column,
                        "author-year",
                        author=m.group(1),
                        year=int(m.group(3)),
                    ),
                    True,
                )
            offset += len(part) + 1


def in_spans(spans: Sequence[tuple[int, int]], offset: int) -> bool:
    """Is ``offset`` inside one of the sorted, disjoint ``spans``?"""
    return _in(spans, offset)
