"""The matching view of a text: what extractors read, with offsets mapped back to the original.

Agents (and prompt injections in tool output) write identifiers in forms a plain regex does not
see: fullwidth digits, zero-width spaces, soft hyphens, an id broken across lines by a hyphen.
Extraction therefore runs on a normalised *view*; every span it reports is mapped back so the
user sees, and can fix, the exact characters they wrote. Plain ASCII text with no broken lines
(the common case) takes a fast path: the view *is* the text.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from functools import partial

from attrs import field, frozen

__all__ = ["TextView", "fold", "locate"]

INVISIBLE = frozenset(
    "\u00ad"  # soft hyphen
    "\u034f"  # combining grapheme joiner
    "\u061c"  # arabic letter mark
    "\u115f\u1160\u17b4\u17b5\u180e"  # fillers, mongolian vowel separator
    "\u200b\u200c\u200d\u200e\u200f"  # zero-width space/non-joiner/joiner, LRM, RLM
    "\u202a\u202b\u202c\u202d\u202e"  # bidi embeddings and overrides
    "\u2060\u2061\u2062\u2063\u2064"  # word joiner, invisible operators
    "\u2066\u2067\u2068\u2069"  # bidi isolates
    "\u3164\ufeff\uffa0"  # hangul filler, BOM / zero-width no-break space, halfwidth filler
)
"""Characters removed from the view: they render as nothing, so an id containing them reads
as the id to a person and must read so to the extractor too."""

HYPHENS = {"\u2010": "-", "\u2011": "-", "\u2212": "-"}
CONFUSABLES = {"\u2215": "/", "\u29f8": "/", "\u2044": "/", "\u2236": ":", "\u0589": ":"}
"""Look-alikes of the separators identifiers use (NFKC leaves these alone)."""
"""Typographic hyphens folded to ASCII '-' (NFKC keeps them): ``hep‐th/9711200`` is ``hep-th``."""

# What the view rewrites besides single characters, each as one alternative of one pattern:
# - a hyphen at a line end between two digits splits a number, not a word ("2005.114-\n01");
#   between letters it is kept, since "hep-\nth" is really hep-th;
# - a bare line break inside an identifier's digits ("2005.\n11401", "hep-th/97\n11200"),
#   joined only when the digits on both sides make exactly one id-shaped run;
# - HTML entities and numeric character references ("&#50;&#48;&#48;&#53;");
# - JSON escapes ("\u0032", "\/") in text that quotes JSON;
# - percent-escapes of unreserved URL characters, "/" and ":" ("2005%2E11401"), which mean
#   the same character (RFC 3986); "%23", "%3F" and the like are left for the DOI rules.
_SPECIAL = re.compile(
    r"(?P<hyphen>[-\u2010\u2011\u2212][ \t]*\r?\n[ \t]*(?=\d))"
    r"|(?P<newline>\r?\n[ \t]*(?=\d))"
    r"|(?P<entity>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    r"|(?P<escape>\\u[0-9a-fA-F]{4}|\\/)"
    r"|(?P<percent>%(?:2[DdEeFf]|3[0-9Aa]|4[1-9A-Fa-f]|5[0-9AaFf]|6[1-9A-Fa-f]|7[0-9AaEe]))"
    r"|(?P<unicode>[^\x00-\x7f\u2010\u2011\u2212]+|[\u2010\u2011\u2212])"
)
_ENTITY_LIKE = re.compile(r"&#?[A-Za-z0-9]{1,32};")
_ESCAPE_LIKE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|/)")
_PERCENT_LIKE = re.compile(r"%[2-7][0-9A-Fa-f]")
_BREAK_BEFORE_DIGIT = re.compile(r"\n[ \t]*[0-9]")


def _needs_view(text: str) -> bool:
    """Could this ASCII text need the slow path? Each test starts with a literal character
    (found by a fast search) and runs only when that character occurs at all."""
    if "&" in text and _ENTITY_LIKE.search(text):
        return True
    if "\\" in text and _ESCAPE_LIKE.search(text):
        return True
    if "%" in text and _PERCENT_LIKE.search(text):
        return True
    if "\n" in text:
        for m in _BREAK_BEFORE_DIGIT.finditer(text):
            before = text[max(0, m.start() - 3) : m.start()].rstrip(" \t\r-")
            if before[-1:] in _NUMBER_END and before:
                return True
    return False


_NUMBER_END = frozenset("0123456789.")
_INVISIBLE_RE = re.compile("[" + "".join(sorted(INVISIBLE)) + "]")
_MODERN_HEAD = re.compile(r"(?:^|[^0-9])[0-9]{4}\.([0-9]{0,4})$")
_LEGACY_HEAD = re.compile(r"[A-Za-z]/([0-9]{1,6})$")
_DIGITS = re.compile(r"[0-9]+")


def _joins_an_id(view_tail: str, original: str, after: int) -> bool:
    """Does a line break between ``view_tail`` and ``original[after:]`` split one identifier?"""
    following = _DIGITS.match(original, after)
    if following is None:
        return False
    more = len(following.group())
    modern = _MODERN_HEAD.search(view_tail)
    if modern is not None:
        return len(modern.group(1)) + more in (4, 5)
    legacy = _LEGACY_HEAD.search(view_tail)
    return legacy is not None and len(legacy.group(1)) + more == 7


def _decode(kind: str, text: str) -> str:
    """The character(s) an entity, escape or percent-escape stands for ("" if none)."""
    if kind == "entity":
        out = html.unescape(text)
        return "" if out == text else out
    if kind == "escape":
        if text == "\\/":
            return "/"
        code = int(text[2:], 16)
        return "" if 0xD800 <= code <= 0xDFFF else chr(code)
    return chr(int(text[1:], 16))


def _fold(ch: str, _cache: dict[str, str] = {}) -> str:  # noqa: B006 - deliberate memo
    """The view of one non-ASCII character; memoised because reports repeat few characters."""
    out = _cache.get(ch)
    if out is None:
        digit = unicodedata.decimal(ch, None)
        if ch in INVISIBLE:
            out = ""
        elif ch in HYPHENS:
            out = HYPHENS[ch]
        elif digit is not None:
            out = str(digit)  # any script's digits: ٢٠٠٥ and 𝟐𝟎𝟎𝟓 are 2005
        elif ch in CONFUSABLES:
            out = CONFUSABLES[ch]
        else:
            out = unicodedata.normalize("NFKC", ch)
            # NFKC may produce characters that are themselves invisible or typographic hyphens.
            if any(c in INVISIBLE or c in HYPHENS for c in out):
                out = "".join(HYPHENS.get(c, c) for c in out if c not in INVISIBLE)
        if len(_cache) < 100_000:
            _cache[ch] = out
    return out


_DECODABLE = (
    (
        "&",
        "entity",
        re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"),
    ),
    ("\\", "escape", re.compile(r"\\u[0-9a-fA-F]{4}|\\/")),
    (
        "%",
        "percent",
        re.compile(r"%(?:2[DdEeFf]|3[0-9Aa]|4[1-9A-Fa-f]|5[0-9AaFf]|6[1-9A-Fa-f]|7[0-9AaEe])"),
    ),
)
"""What the view decodes, each pattern starting with a literal (found by a fast search)."""


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _decoded(kind: str, m: re.Match[str]) -> str:
    return _decode(kind, m.group()) or m.group()


def fold(text: str) -> str:
    """The view's characters of ``text`` without the offset map, for matching words.

    The same folding as :class:`TextView` (entities, JSON and percent escapes decoded; every
    non-ASCII character folded alone: NFKC, digits of any script, invisible characters
    dropped, typographic hyphens and look-alikes folded), except that line breaks inside
    numbers are not rejoined: words need no identifier rebuilt. Each run of non-ASCII
    characters is translated in one call, so the cost is a scan of the text.

    >>> fold("Ｔｈｅ “ﬁrst” w\u200bord &amp; ٢٠٢٤")
    'The “first” word & 2024'
    """
    for literal, kind, pattern in _DECODABLE:
        if literal in text and pattern.search(text):
            text = pattern.sub(partial(_decoded, kind), text)
    if text.isascii():
        return text
    table = {ord(ch): _fold(ch) for ch in set(text) if not ch.isascii()}
    return _NON_ASCII.sub(lambda m: m.group().translate(table), text)


@frozen
class TextView:
    """A normalised copy of ``original`` plus the map from view offsets to original offsets.

    The map is a list of segments ``(view_start, original_start, view_len, original_len)``;
    a segment is either a verbatim copy (equal lengths) or one replaced unit (a character that
    NFKC expanded, or a rejoined line break). Positions inside a copy map exactly; a position
    inside a replacement maps to the whole replaced unit, so spans never cut a character.
    """

    original: str
    text: str
    _view_starts: list[int] = field(factory=list, repr=False)
    _segments: list[tuple[int, int, int, int]] = field(factory=list, repr=False)
    _shifted: list[int] = field(factory=list, repr=False)
    """For each invisible character removed up front: how many characters were kept before it."""

    @classmethod
    def of(cls, original: str) -> TextView:
        if original.isascii():
            return cls._build(original) if _needs_view(original) else cls(original, original)
        if _INVISIBLE_RE.search(original) is None:
            return cls._build(original)
        # Invisible characters go first, in one pass, with a compact map of where they were:
        # a flood of zero-width spaces would otherwise cost a Python step each.
        deleted = [m.start() for m in _INVISIBLE_RE.finditer(original)]
        stripped = _INVISIBLE_RE.sub("", original)
        inner = cls.of(stripped)
        return cls(
            original,
            inner.text,
            inner._view_starts,
            inner._segments,
            [pos - i for i, pos in enumerate(deleted)],
        )

    @classmethod
    def _build(cls, original: str) -> TextView:
        pieces: list[str] = []
        segments: list[tuple[int, int, int, int]] = []
        vpos = 0
        opos = 0

        def copy(upto: int) -> None:
            nonlocal vpos, opos
            if upto > opos:
                n = upto - opos
                pieces.append(original[opos:upto])
                _add(segments, vpos, opos, n, n)
                vpos += n
                opos = upto

        for m in _SPECIAL.finditer(original):
            start, end = m.span()
            copy(start)
            kind = m.lastgroup or ""
            run = m.group()
            if kind == "hyphen":
                if pieces and pieces[-1][-1:] in _NUMBER_END:
                    opos = end  # a number broken across lines: drop the hyphen and the break
                continue
            if kind == "newline":
                tail = "".join(pieces[-3:])[-16:]
                if _joins_an_id(tail, original, end):
                    opos = end  # an identifier broken across lines: drop the break
                continue
            if kind != "unicode":
                decoded = _decode(kind, run)
                folded = "".join(_fold(c) if not c.isascii() else c for c in decoded)
                if folded:
                    pieces.append(folded)
                    segments.append((vpos, opos, len(folded), end - start))
                    vpos += len(folded)
                    opos = end
                continue
            folds = {ch: _fold(ch) for ch in set(run)}
            if all(len(out) == 1 for out in folds.values()):
                # One character for one (the usual case: fullwidth forms, digits, hyphens): one
                # translate call and one exactly-mapped segment for the whole run.
                translated = run.translate({ord(k): v for k, v in folds.items()})
                pieces.append(translated)
                _add(segments, vpos, opos, len(run), len(run))
                vpos += len(run)
                opos = end
                continue
            for ch in run:
                out = _fold(ch)
                if out == ch:
                    copy(opos + 1)
                    continue
                if out:
                    pieces.append(out)
                    segments.append((vpos, opos, len(out), 1))
                    vpos += len(out)
                opos += 1
        copy(len(original))
        view = "".join(pieces)
        return cls(original, view, [s[0] for s in segments], segments)

    @property
    def is_identity(self) -> bool:
        return self.text is self.original

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a view span to the original span that shows the same characters."""
        if self.is_identity:
            return start, end
        if self._segments:
            start, end = self._map_start(start), self._map_end(end, start)
        if self._shifted:
            first = start + bisect_right(self._shifted, start)
            if end <= start:
                return first, first
            return first, end - 1 + bisect_right(self._shifted, end - 1) + 1
        return start, end

    def _map_start(self, pos: int) -> int:
        k = bisect_right(self._view_starts, pos) - 1
        if k < 0:
            return 0
        vstart, ostart, vlen, olen = self._segments[k]
        if pos >= vstart + vlen:  # past the last segment: the end of the original
            return ostart + olen
        return ostart + (pos - vstart) if vlen == olen else ostart

    def _map_end(self, pos: int, start: int) -> int:
        if pos <= start:
            return self._map_start(pos)
        k = bisect_right(self._view_starts, pos - 1) - 1
        vstart, ostart, vlen, olen = self._segments[k]
        return ostart + (pos - vstart) if vlen == olen else ostart + olen


def _add(
    segments: list[tuple[int, int, int, int]], vpos: int, opos: int, vlen: int, olen: int
) -> None:
    """Append a verbatim segment, merging it into the previous one when they are contiguous."""
    if segments:
        pv, po, pvl, pol = segments[-1]
        if pvl == pol and pv + pvl == vpos and po + pol == opos:
            segments[-1] = (pv, po, pvl + vlen, pol + olen)
            return
    segments.append((vpos, opos, vlen, olen))


def locate(text: str, offsets: list[int]) -> Iterator[tuple[int, int]]:
    """1-based (line, column) of each sorted offset, in one forward pass over ``text``."""
    line = 1
    line_start = 0
    scanned = 0
    for off in offsets:
        if off < scanned:
            raise ValueError("offsets must be sorted")
        newlines = text.count("\n", scanned, off)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", scanned, off) + 1
        scanned = off
        yield line, off - line_start + 1
