"""The matching view of a text: what extractors read, with offsets mapped back to the original.

Agents (and prompt injections in tool output) write identifiers in forms a plain regex does not
see: fullwidth digits, zero-width spaces, soft hyphens, dashes of every width, an id broken
across lines, Markdown escapes and emphasis inside it. Extraction therefore runs on a
normalised *view*; every span it reports is mapped back so the user sees, and can fix, the
exact characters they wrote. Plain ASCII text with nothing to fold (the common case) takes a
fast path: the view *is* the text.

>>> view = TextView.of("see arXiv:2005.\\u2028114\\u200b01 and hep\\u2013th/9711200")
>>> view.text
'see arXiv:2005.11401 and hep-th/9711200'
>>> start, end = view.to_original(10, 20)
>>> view.original[start:end] == "2005.\\u2028114\\u200b01"
True
>>> TextView.of("pages 10\\u201320, 2019\\u20132020").text  # an en dash in prose stays
'pages 10\\u201320, 2019\\u20132020'
"""

from __future__ import annotations

import heapq
import itertools
import re
import sys
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any

from attrs import field, frozen

__all__ = [
    "ARCHIVES",
    "BREAKS",
    "CONFUSABLES",
    "DASHES",
    "HYPHENS",
    "INVISIBLE",
    "TextView",
    "fold",
    "locate",
]


def _ranges(*spans: tuple[int, int]) -> str:
    return "".join(chr(c) for lo, hi in spans for c in range(lo, hi + 1))


INVISIBLE = frozenset(
    "\u00ad"  # soft hyphen
    "\u034f"  # combining grapheme joiner
    "\u061c"  # arabic letter mark
    "\u115f\u1160\u17b4\u17b5"  # fillers, khmer inherent vowels
    "\u180b\u180c\u180d\u180e\u180f"  # mongolian free variation selectors, vowel separator
    "\u200b\u200c\u200d\u200e\u200f"  # zero-width space/non-joiner/joiner, LRM, RLM
    "\u202a\u202b\u202c\u202d\u202e"  # bidi embeddings and overrides
    "\u2060\u2061\u2062\u2063\u2064\u2065"  # word joiner, invisible operators
    "\u2066\u2067\u2068\u2069"  # bidi isolates
    "\u206a\u206b\u206c\u206d\u206e\u206f"  # deprecated format controls
    "\u3164\ufeff\uffa0"  # hangul filler, BOM / zero-width no-break space, halfwidth filler
    "\ufff9\ufffa\ufffb"  # interlinear annotation controls
    + _ranges(
        (0xFE00, 0xFE0F),  # variation selectors
        (0x13430, 0x13438),  # egyptian hieroglyph format controls
        (0x1BCA0, 0x1BCA3),  # shorthand format controls
        (0x1D173, 0x1D17A),  # musical symbol format controls
        (0xE0000, 0xE007F),  # tag characters
        (0xE0100, 0xE01EF),  # variation selectors supplement
    )
)
"""Characters removed from the view: they render as nothing, so an id containing them reads
as the id to a person and must read so to the extractor too."""

HYPHENS = {"\u2010": "-", "\u2011": "-", "\u2212": "-"}
"""Typographic hyphens folded to ASCII '-' everywhere (NFKC keeps them): ``hep‐th/9711200``."""

DASHES = frozenset(
    "\u058a\u05be\u1400\u1806\u2012\u2013\u2014\u2015\u2043\u2e17\u2e1a\u2e3a\u2e3b\u2e40"
    "\u2e5d\u301c\u3030\u30a0\ufe31\ufe32\ufe58\U00010ead"
)
"""Dashes folded to '-' only inside an old-style archive name (``hep–th/9711200``): an en or em
dash in prose ("pages 10–20", "the model—trained") must not glue words into an identifier,
and a DOI ends at one. (U+FE63 and U+FF0D already fold to '-' by NFKC.)"""

CONFUSABLES = {
    "\u2215": "/",  # division slash
    "\u29f8": "/",  # big solidus
    "\u2044": "/",  # fraction slash
    "\u2571": "/",  # box drawings light diagonal
    "\u27cb": "/",  # mathematical rising diagonal
    "\u2236": ":",  # ratio
    "\u0589": ":",  # armenian full stop
}
"""Look-alikes of the separators identifiers use (NFKC leaves these alone)."""

_ARCHIVE_NAMES = """acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph
    cmp-lg comp-gas cond-mat cs dg-ga funct-an gr-qc hep-ex hep-lat hep-ph hep-th math math-ph
    mtrl-th nlin nucl-ex nucl-th patt-sol physics plasm-ph q-alg q-bio quant-ph solv-int supr-con"""
ARCHIVES = frozenset(_ARCHIVE_NAMES.split())
"""The 34 archives of old-style arXiv ids (``groundcheck.extractors.arxiv.LEGACY_ARCHIVES``;
a test keeps the two equal). The view needs the names, not the dates, to join a dash or a
line break inside one: "see" + "hep-th/9711200" on the next line must stay two words.
This module sits below the extractors, so it keeps its own copy instead of importing them."""

BREAKS = frozenset("\n\r\v\f\x85\u2028\u2029")
"""Line separators: a break inside an identifier is joined where the grammar says it must be
one id (see :func:`_break_joins`); anywhere else it stays."""

_DASH_CLASS = "".join(sorted(DASHES))
_SLASH_CHARS = "/\uff0f" + "".join(k for k, v in CONFUSABLES.items() if v == "/")
_SLASHY = r"(?:[" + _SLASH_CHARS + r"]|\\/|%2[Ff]|&#0{0,3}47;|&#[xX]0{0,2}2[Ff];|&sol;)"
_NAME_CHARS = r"A-Za-z.\-\uff0e\u2010\u2011\u2212\ufe63\uff0d" + _DASH_CLASS
"""What an archive name with its subject class may be written with: letters, dots, dashes."""
_EMPHASIS_RUN = r"(?:\*{1,3}|_{1,3})"
_LETTERS = r"[A-Za-z.\-\uff0e]{1,12}"
_GAP = (
    r"(?:(?:\r\n|[\n\r\v\f\x85\u2028\u2029])[ \t]*|[ \t]+"
    r"|&#?[A-Za-z0-9]{1,16};|%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2}){0,3})"
)
"""What may sit inside an archive name besides its letters: a line break and indentation, an
entity or a percent-escape (of an invisible character; the view decides)."""

# What the view rewrites besides single characters. Each kind is found by its own scan that
# starts with a literal character (so the regex engine searches for it instead of trying every
# position), and runs only when that character occurs in the text at all; the scans are merged
# in text order. Candidates the grammar might join are narrowed by the characters around them
# inside the pattern, then decided by hand (see the functions below):
# - a hyphen at a line end between two digits splits a number, not a word ("2005.114-\n01");
#   between letters it is kept, since "hep-\nth" is really hep-th;
# - a line break where an identifier's grammar cannot stop (after "10." or a DOI's slash,
#   inside an arXiv id's incomplete sequence, a legacy id's seven digits or its archive name);
# - spaces after the dot of an arXiv id written with its prefix ("arXiv:2005. 11401");
# - HTML entities and numeric character references ("&#50;&#48;&#48;&#53;", "&shy;");
# - JSON escapes ("\u0032", "\/") and Markdown escapes ("2005\.11401", "hep\-th");
# - percent-escapes of unreserved URL characters, "/" and ":" ("2005%2E11401"), which mean
#   the same character (RFC 3986), and percent-encoded invisible characters ("%E2%80%8B");
#   "%23", "%3F" and the like are left for the DOI rules;
# - Markdown emphasis markers inside an id ("2005.*11401*", "**2005**.**11401**");
# - non-ASCII runs (NFKC, digits of every script, look-alike separators), typographic hyphens,
#   and a dash inside an old-style archive name ("hep–th/9711200").

_BREAK_CHARS = "".join(sorted(BREAKS))


def _break_scan(ch: str) -> re.Pattern[str]:
    """Line breaks (of one kind) where a join is possible: between digits and dots, after a
    slash, or inside letters that a slash and a digit follow (an archive name)."""
    pattern = (
        r"@B(?:(?<=[\d.\uff0e]@B)@CRLF[ \t]*(?=\d|[.\uff0e]\d|[@SLASHES])"
        r"|(?<=[@SLASHES]@B)@CRLF[ \t]*(?=\S)"
        r"|(?<=[@NAME]@B)@CRLF[ \t]*(?=[@NAME]{0,24}@SLASHY(?:@ANYBREAK)?[ \t]*\d))"
    )
    for token, value in (
        ("@ANYBREAK", r"\r\n|[" + _BREAK_CHARS + "]"),
        ("@SLASHY", _SLASHY),
        ("@SLASHES", _SLASH_CHARS),
        ("@NAME", _NAME_CHARS),
        ("@CRLF", r"\n?" if ch == "\r" else ""),
        ("@B", re.escape(ch)),
    ):
        pattern = pattern.replace(token, value)
    return re.compile(pattern)


def _emphasis_scan(ch: str) -> re.Pattern[str]:
    """Runs of one emphasis marker where they may sit inside an id: between a digit and a dot
    or slash (either way round), after a slash, or between letters and a slash."""
    pattern = (
        r"@M(?:(?<=\d@M)@M{0,2}(?=[.\uff0e@SLASHES])"
        r"|(?<=[.\uff0e@SLASHES]@M)@M{0,2}(?=\d)"
        r"|(?<=[A-Za-z]@M)@M{0,2}(?=[@SLASHES])"
        r"|(?<=[@SLASHES]@M)@M{0,2}(?=\w))"
    )
    return re.compile(pattern.replace("@SLASHES", _SLASH_CHARS).replace("@M", re.escape(ch)))


_HYPHEN_BREAK = r"[ \t]*(?:\r\n|[" + _BREAK_CHARS + r"])[ \t]*(?=\d)"
_SEQUENCE = r"(?=\d{4,5}(?!\d))"
_ENTITY = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
_ARCHIVE_DASH = f"[{_DASH_CLASS}](?=(?:{_GAP}?{_LETTERS}){{1,4}}{_GAP}?{_SLASHY})"


def extend_range(column: array[int], numbers: Iterable[int]) -> None:
    """``column.extend(numbers)``, twice as fast: ``array.extend`` stores the items of an
    iterable one by one, ``fromlist`` a list at C speed (made 4,096 at a time, so the ints
    it holds for a moment stay few)."""
    numbers = iter(numbers)
    while chunk := list(itertools.islice(numbers, 4096)):
        column.fromlist(chunk)


_PATTERN_METHODS = ("finditer", "findall", "match", "fullmatch", "search", "sub")


class LazyPattern:
    """A regex compiled on first use, with the methods of a compiled pattern.

    Compiling is pure Python in ``re`` (up to a few ms for a long pattern), and ~100 patterns
    compiled at import were ~40 ms of every CLI start-up, though a text needs only those its
    literals call for (a PubMed label pattern where ``PMID`` occurs, the line-break scans where
    a break does). Give either the pattern (and flags) or a function that builds it.

    >>> p = LazyPattern(r"[0-9]+")
    >>> p.findall("a 12 b 3"), p.compiled is p.compiled, p.search("x 7").group()
    (['12', '3'], True, '7')
    """

    __slots__ = ("__dict__", "_build", "_compiled")

    def __init__(self, pattern: str | Callable[[], re.Pattern[str]], flags: int = 0) -> None:
        self._build: Callable[[], re.Pattern[str]] = (
            partial(re.compile, pattern, flags) if isinstance(pattern, str) else pattern
        )
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            compiled = self._compiled = self._build()
            # From now on each method below is the compiled pattern's own bound method, put in
            # the instance's dict (where it hides the class's): a call costs what a call of the
            # compiled pattern costs, with no Python frame of this class in between (tens of
            # thousands of calls on a large audit).
            vars(self).update({name: getattr(compiled, name) for name in _PATTERN_METHODS})
        return self._compiled

    # The methods, until the first use compiles the pattern:

    def finditer(
        self, text: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text, pos, endpos)

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled.findall(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(text, pos, endpos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(text, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.compiled.sub(repl, text, count)


_Scan = tuple[str, str, int, "re.Pattern[str] | LazyPattern"]
_DOTSPACE = LazyPattern(r"\.[ \t](?<=\d\.[ \t])[ \t]?" + _SEQUENCE)
_ASCII_SCANS: list[_Scan] = [
    # (literal that must occur, kind, priority among candidates at one position, pattern)
    *(
        (ch, "newline", 1, LazyPattern(partial(_break_scan, ch)))
        for ch in _BREAK_CHARS
        if ch.isascii()
    ),
    ("-", "hyphen", 0, LazyPattern("-" + _HYPHEN_BREAK)),
    # (gated on "." alone: a one-character test is a memchr, a two-character one is not)
    (".", "dotspace", 1, _DOTSPACE),
    ("&", "entity", 1, LazyPattern(_ENTITY)),
    ("\\", "escape", 1, LazyPattern(r"\\(?:u[0-9a-fA-F]{4}|[/.\-_*:])")),
    (
        "%",
        "percent",
        1,
        LazyPattern(
            r"%(?:[C-Fc-f][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f]){1,3}"
            r"|2[DdEeFf]|3[0-9Aa]|4[1-9A-Fa-f]|5[0-9AaFf]|6[1-9A-Fa-f]|7[0-9AaEe])"
        ),
    ),
    ("*", "emphasis", 1, LazyPattern(partial(_emphasis_scan, "*"))),
    ("_", "emphasis", 1, LazyPattern(partial(_emphasis_scan, "_"))),
]
_ASCII_LITERALS = frozenset(literal for literal, _, _, _ in _ASCII_SCANS)
_UNICODE_SCANS: list[_Scan] = [
    # (the non-ASCII characters a candidate starts with: the scan runs only when the text holds
    # one of them; "" for any)
    *(
        (ch, "newline", 1, LazyPattern(partial(_break_scan, ch)))
        for ch in _BREAK_CHARS
        if not ch.isascii()
    ),
    ("\u2010\u2011\u2212", "hyphen", 0, LazyPattern(r"[\u2010\u2011\u2212]" + _HYPHEN_BREAK)),
    ("\u2010\u2011\u2212", "typographic", 1, LazyPattern(r"[\u2010\u2011\u2212]")),
    ("\uff0e", "dotspace", 1, LazyPattern(r"\uff0e(?<=\d\uff0e)[ \t]{1,2}" + _SEQUENCE)),
    # a dash that letters (maybe a subject class; maybe a line break, an entity or a
    # percent-escape of an invisible character among them), then a slash follow
    (_DASH_CLASS, "dash", 0, LazyPattern(_ARCHIVE_DASH)),
    ("\ufe31\ufe32\ufe58", "dash", 1, LazyPattern("[\ufe31\ufe32\ufe58]")),  # NFKC: dashes
]
_NOT_IN_RUNS = frozenset("\u2010\u2011\u2212\x85\u2028\u2029" + _DASH_CLASS)
_RUN = LazyPattern(r"[^\x00-\x7f\u2010\u2011\u2212\x85\u2028\u2029" + _DASH_CLASS + "]+")
"""Runs of non-ASCII characters the view folds (NFKC, digits, look-alikes)."""
_ASCII_BYTES = bytes(range(128))
_FEW_RUNS = 32
"""Non-ASCII characters are located by ``str.find`` (a fast scan each) while the text holds at
most one in this many characters; denser texts take the regex scan."""


def _non_ascii(text: str) -> frozenset[str]:
    """The distinct non-ASCII characters of ``text``, found at the speed of an encode: every
    ASCII byte deleted from its encoded form (a regex class scan is ten times slower). A text
    of Latin-1 characters (accented names: the usual non-ASCII of a search result) is encoded
    as Latin-1, a copy of its one-byte characters, half the cost of UTF-8's two bytes each."""
    try:
        latin = text.encode("latin-1")
    except UnicodeEncodeError:
        rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
        return frozenset(rest.decode("utf-8", "surrogatepass"))
    return frozenset(latin.translate(None, _ASCII_BYTES).decode("latin-1"))


_ASCII_LETTER = re.compile(r"(?i)[a-z]")
_UNICODE_LITERALS = frozenset("".join(literal for literal, _, _, _ in _UNICODE_SCANS))
_INERT: dict[str, bool] = {}


def _inert(ch: str) -> bool:
    """Is the non-ASCII ``ch`` one the view leaves alone wherever it stands (``ü``, ``é``,
    ``“``)? So is one that folds to itself (:func:`_fold`), starts no candidate of its own (no
    line break, hyphen, dash or fullwidth dot: every ``unicode`` candidate of it is rewritten
    to itself) and that no rule of the grammar reads as an ASCII letter: ``ı`` and ``İ``
    (U+0131, U+0130) match ``i`` in ``(?i:arxiv)``, and ``K`` (Kelvin) lowers to ``k``.
    Memoised: a trace repeats a few such characters."""
    known = _INERT.get(ch)
    if known is None:
        known = (
            _fold(ch) == ch
            and ch not in _NOT_IN_RUNS
            and ch not in _UNICODE_LITERALS
            and _ASCII_LETTER.match(ch) is None
            and not any(map(str.isascii, ch.lower()))
        )
        if len(_INERT) < 100_000:
            _INERT[ch] = known
    return known


def _runs(text: str, chars: frozenset[str]) -> Iterator[_Candidate]:
    """The ``unicode`` candidates: maximal runs of the characters ``_RUN`` matches."""
    folded = [ch for ch in chars if ch not in _NOT_IN_RUNS]
    if not folded:
        return
    if sum(text.count(ch) for ch in folded) * _FEW_RUNS > len(text):
        for m in _RUN.finditer(text):
            yield m.start(), 1, m.end(), "unicode"
        return
    positions: list[int] = []
    for ch in folded:
        at = text.find(ch)
        while at != -1:
            positions.append(at)
            at = text.find(ch, at + 1)
    positions.sort()
    start = end = positions[0]
    for at in positions[1:]:
        if at != end + 1:
            yield start, 1, end + 1, "unicode"
            start = at
        end = at
    yield start, 1, end + 1, "unicode"


_Candidate = tuple[int, int, int, str]  # start, priority at that start, end, kind


def _paired_newlines(text: str) -> bool:
    """Does every ``\n`` of ``text`` sit next to another one (every run of them is of even
    length: blank lines only, as in a flattened tool output, whose strings are joined by
    ``\n\n``)? Then the ``\n`` scan of :func:`_break_scan` finds nothing: each of its
    alternatives needs a digit, dot, slash or name character just before the break and,
    after blanks, a character that is not a line break just after it. Two counts (fast
    scans) instead of a regex step at every line break; the first break is looked at first,
    since a text wrapped into lines fails there, and the count of a two-character string
    is ~8 ms of 10 MB."""
    first = text.find("\n")
    if first != -1 and text[first + 1 : first + 2] != "\n":
        return False  # the first run of breaks is a single one
    return text.count("\n") == 2 * text.count("\n\n")


def _stream(
    text: str, kind: str, priority: int, pattern: re.Pattern[str] | LazyPattern
) -> Iterator[_Candidate]:
    shift = 1 if kind == "dotspace" else 0
    for m in pattern.finditer(text):
        yield m.start() + shift, priority, m.end(), kind


_END_PROBE = 256


def _content_end(text: str) -> int:
    """Where the text's trailing whitespace starts. Every ASCII scan's match is (or is
    followed by) a character that is not whitespace, so a literal found only after this point
    (the newline that ends a one-line file) starts no candidate: its scan, and the compile
    of its pattern, are skipped. Only the last characters are stripped, unless they are all
    whitespace (no copy of a long text for its final newline)."""
    probe = text[-_END_PROBE:]
    kept = len(probe.rstrip())
    if kept or len(probe) == len(text):
        return len(text) - len(probe) + kept
    return len(text.rstrip())


def _candidates(
    text: str,
    ascii: bool,
    chars: frozenset[str] | None = None,
    *,
    dotspace: bool = True,
    paired: bool | None = None,
) -> Iterator[_Candidate]:
    """Every place the view may rewrite, in text order.

    Each scan runs only when the literal it starts with occurs in the text before its trailing
    whitespace: an ASCII literal is a fast substring search (``str.find`` of one character
    is a ``memchr``), and the non-ASCII scans are gated on the set of non-ASCII characters
    the text holds (found once), so a scan that can find nothing is never run. Without
    ``dotspace`` the scan for spaces after dots is left out (:func:`_needs_view` looks for
    those near an arXiv prefix only). ``paired`` is what :func:`_paired_newlines` would say,
    when the caller knows it (None: worked out here).
    """
    end = _content_end(text)
    find = text.find
    present = {literal for literal in _ASCII_LITERALS if find(literal, 0, end) != -1}
    paired = "\n" in present and (_paired_newlines(text) if paired is None else paired)
    # A hyphen-break needs a line break with blanks and a digit after it: none when the
    # only breaks are "\n" in blank lines (paired), since the first "\n" of a blank line
    # has another after it and the second one a "\n" before it, not the hyphen or a blank.
    ascii_breaks = present.intersection(_BREAK_CHARS)
    breaks = (bool(ascii_breaks) and not (paired and len(ascii_breaks) == 1)) or (
        not ascii and any(find(ch, 0, end) != -1 for ch in _BREAK_CHARS if not ch.isascii())
    )
    streams = [
        _stream(text, kind, priority, pattern)
        for literal, kind, priority, pattern in _ASCII_SCANS
        if literal in present
        and (breaks or kind != "hyphen")
        and (dotspace or kind != "dotspace")
        and not (paired and kind == "newline" and literal == "\n")
    ]
    if not ascii:
        chars = _non_ascii(text) if chars is None else chars
        streams.extend(
            _stream(text, kind, priority, pattern)
            for literal, kind, priority, pattern in _UNICODE_SCANS
            if not chars.isdisjoint(literal) and (breaks or kind != "hyphen")
        )
        streams.append(_runs(text, chars))
    started = []
    for stream in streams:  # a stream that finds nothing costs the merge nothing
        first = next(stream, None)
        if first is not None:
            started.append(itertools.chain((first,), stream))
    if len(started) == 1:
        return started[0]
    return heapq.merge(*started)


# -- the grammar of joins ---------------------------------------------------------------------
# Each decision reads the view written so far (``tail``: its last few dozen characters) and
# the folded characters that follow (``peek``), and says whether the characters between them
# are noise inside one identifier.

_ARXIV_PREFIX = r"(?:(?i:arxiv)(?:[ \t]*:[ \t]*|[ \t]+)|(?i:arxiv\.org/(?:abs|pdf|html)/))"
_T_MODERN = LazyPattern(r"(?:^|[^0-9])([0-9]{4})\.([0-9]{0,4})$")
_T_ARXIV_HEAD = LazyPattern(_ARXIV_PREFIX + _EMPHASIS_RUN + r"?([0-9]{1,4})$")
_T_ARXIV_DOT = LazyPattern(_ARXIV_PREFIX + _EMPHASIS_RUN + r"?[0-9]{4}\.$")
_T_MODERN_DOT = LazyPattern(r"(?:^|[^0-9])[0-9]{4}\.$")
_T_YYMM = LazyPattern(r"(?:^|[^0-9.])[0-9]{4}$")
_T_LEGACY = LazyPattern(
    r"(?:^|[^A-Za-z0-9])[A-Za-z][A-Za-z-]{0,15}(?:\.[A-Za-z-]{1,15})?/([0-9]{0,6})$"
)
_T_LETTERS = LazyPattern(r"(?:^|[^A-Za-z0-9])([A-Za-z][A-Za-z.-]{0,23})$")
_T_DOI_START = LazyPattern(r"(?:^|[^0-9A-Za-z.])(10?)$")
_T_DOI_TEN = LazyPattern(r"(?:^|[^0-9A-Za-z.])10\.$")
_T_DOI_REGISTRANT = LazyPattern(r"(?:^|[^0-9A-Za-z.])10\.([0-9]{1,9}(?:\.[0-9]{1,9}){0,4}\.?)$")
_T_DOI_PREFIX = LazyPattern(r"(?:^|[^0-9A-Za-z.])10\.[0-9]{4,9}(?:\.[0-9]{1,9}){0,4}$")
_T_DOI_SLASH = LazyPattern(r"(?:^|[^0-9A-Za-z.])10\.[0-9]{4,9}(?:\.[0-9]{1,9}){0,4}/$")

_P_DIGITS = LazyPattern(r"[0-9]+")
_P_YYMM_REST = LazyPattern(r"([0-9]{1,3})\.[0-9]")
_P_DOT_SEQUENCE = LazyPattern(r"\.[0-9]{4,5}(?![0-9])")
_P_EMPHASISED_SEQUENCE = LazyPattern(r"\." + _EMPHASIS_RUN + r"?[0-9]{4,5}(?![0-9])")
_P_SEQUENCE = LazyPattern(r"[0-9]{4,5}(?![0-9])")
_P_ARCHIVE_REST = LazyPattern(r"([A-Za-z.-]{0,24})\n?[ \t]*" + _SLASHY + r"\n?[ \t]*[0-9]")
_P_ONE_BREAK = LazyPattern(r"[ \t]*\n[ \t]*")
_P_ARCHIVE_NAME = LazyPattern(r"([A-Za-z.-]{0,24})\n?[ \t]*" + _SLASHY)
_P_SLASH_DIGIT = LazyPattern(_SLASHY + r"[0-9]")
_P_DOI_REST = LazyPattern(r"(0?)\.[0-9]{4,9}(?:\.[0-9]{1,9}){0,4}(?:/|%2[Ff])")
_P_REGISTRANT_REST = LazyPattern(r"([0-9.]{0,20})(?:/|%2[Ff])")
_P_DOI_CHAR = LazyPattern(r"[^\s\"'`{}|\\^<\[\]?#]")
_ARCHIVE_SHAPE = LazyPattern(
    r"[A-Za-z]{1,8}(?:-[A-Za-z]{1,8})?(?:\.[A-Za-z]{1,8}(?:-[A-Za-z]{1,8})?)?"
)
_REGISTRANT = LazyPattern(r"[0-9]{4,9}(?:\.[0-9]{1,9}){0,4}")


class _Peek:
    """What follows a candidate (see :func:`_peek`), computed once and only if asked for."""

    __slots__ = ("_pos", "_text", "_value")

    def __init__(self, text: str, pos: int) -> None:
        self._text = text
        self._pos = pos
        self._value: str | None = None

    def __call__(self) -> str:
        if self._value is None:
            self._value = _peek(self._text, self._pos)
        return self._value

    def first(self) -> str:
        """Just the next character as the grammar reads it: most rules fail on it alone."""
        if self._value is not None:
            return self._value[:1]
        ch = self._text[self._pos : self._pos + 1]
        if ch.isascii():
            return self()[:1] if ch in "&%\\\r\v\f" else ch
        return _PEEK_TABLE[ord(ch)][:1]


def _joins_sequence(tail: str, peek: _Peek) -> bool:
    """``2005.114`` + ``01``: a modern id's sequence shorter than its era's length (4 digits up
    to 1412, 5 after) is completed by the digits on the next line, if they complete it exactly."""
    if "." not in tail[-6:] or not peek.first().isdigit():
        return False
    modern = _T_MODERN.search(tail[-11:])
    if modern is None:
        return False
    digits = _P_DIGITS.match(peek())
    yymm, seq = modern.groups()
    length = 4 if yymm <= "1412" else 5
    return digits is not None and len(seq) < length and len(seq) + len(digits.group()) == length


def _joins_legacy_digits(tail: str, peek: _Peek) -> bool:
    """``hep-th/97`` + ``11200``: an old-style id always has seven digits after its slash."""
    if "/" not in tail[-8:] or not peek.first().isdigit():
        return False
    legacy = _T_LEGACY.search(tail)
    if legacy is None:
        return False
    digits = _P_DIGITS.match(peek())
    return digits is not None and len(legacy.group(1)) + len(digits.group()) == 7


def _joins_doi_start(tail: str, peek: _Peek) -> bool:
    """``10`` + ``.1000/x`` or ``1`` + ``0.1000/x``: the ``10.`` of a DOI, split."""
    if peek.first() not in ("0", "."):
        return False
    start = _T_DOI_START.search(tail[-3:])
    if start is None:
        return False
    rest = _P_DOI_REST.match(peek())
    return rest is not None and len(start.group(1) + rest.group(1)) == 2


def _joins_registrant(tail: str, peek: _Peek) -> bool:
    """``10.`` + ``1000/x``, ``10.10`` + ``00/x``: a DOI cannot end before its slash."""
    if "10." not in tail:
        return False
    if _T_DOI_TEN.search(tail) is not None:
        rest = _P_REGISTRANT_REST.match(peek())
        return rest is not None and _REGISTRANT.fullmatch(rest.group(1)) is not None
    registrant = _T_DOI_REGISTRANT.search(tail)
    if registrant is None:
        return False
    rest = _P_REGISTRANT_REST.match(peek())
    return (
        rest is not None and _REGISTRANT.fullmatch(registrant.group(1) + rest.group(1)) is not None
    )


def _joins_arxiv_head(tail: str, peek: _Peek) -> bool:
    """``arXiv:20`` + ``05.11401``, ``arXiv:2005`` + ``.11401``: with the prefix written, the
    four digits before the dot belong to the id (without it, ``20`` is just a number)."""
    if not _mentions_arxiv(tail):
        return False
    head = _T_ARXIV_HEAD.search(tail)
    if head is None:
        return False
    written = head.group(1)
    if len(written) == 4:
        return _P_DOT_SEQUENCE.match(peek()) is not None
    rest = _P_YYMM_REST.match(peek())
    return rest is not None and len(written) + len(rest.group(1)) == 4


def _joins_after_slash(tail: str, peek: _Peek) -> bool:
    """``10.1000/`` + ``abc`` (a DOI cannot end in its slash), ``hep-th/`` + ``9711200``."""
    if "10." in tail and _T_DOI_SLASH.search(tail) is not None:
        return _P_DOI_CHAR.match(peek()) is not None
    if tail[-2:-1].isalpha() and _T_LEGACY.search(tail) is not None:
        digits = _P_DIGITS.match(peek())
        return digits is not None and len(digits.group()) == 7
    return False


def _joins_archive(tail: str, peek: _Peek) -> bool:
    """``hep-`` + ``th/9711200``, ``cond`` + ``-mat/0601001``, ``hep-th`` + ``/9711200``: the
    letters on both sides of the break make an archive name that a slash follows. A word
    before the break makes none (``see`` + ``hep-th/9711200`` stays two words); the one split
    whose second half is an archive too, ``physi`` + ``cs``, is the longer name."""
    letters = _T_LETTERS.search(tail[-26:])
    if letters is None:
        return False
    rest = _P_ARCHIVE_REST.match(peek())
    return rest is not None and _is_archive(letters.group(1) + rest.group(1))


def _is_archive(token: str) -> bool:
    """Is ``token`` an old-style archive name, with or without a subject class (``math.AG``)?"""
    archive, _, subject = token.partition(".")
    return archive.lower() in ARCHIVES and (not subject or subject.replace("-", "").isalpha())


_AFTER_DIGIT = (
    _joins_sequence,
    _joins_legacy_digits,
    _joins_doi_start,
    _joins_registrant,
    _joins_arxiv_head,
)


def _break_joins(tail: str, peek: _Peek) -> bool:
    """Is a line break between ``tail`` and what follows inside one identifier?

    Only where the grammar cannot stop (the ``_joins_*`` rules): an arXiv sequence shorter
    than its era's length, a legacy id's seven digits, an archive name before its slash, the
    ``10.`` of a DOI, its registrant, its slash. A break inside a DOI suffix could end the DOI
    (a DOI has no fixed length), so it is never joined here; the DOI extractor names both
    readings instead. The rules tried depend on the last character before the break.
    """
    last = tail[-1:]
    if last == "/":
        return _joins_after_slash(tail, peek)
    if "0" <= last <= "9" or last == ".":
        if any(rule(tail, peek) for rule in _AFTER_DIGIT):
            return True
        if last != ".":
            return False
    return _joins_archive(tail, peek)  # "math.\nAG/0601001" too


def _mentions_arxiv(tail: str) -> bool:
    if "v" not in tail and "V" not in tail:
        return False
    return "xiv" in tail or "XIV" in tail or "xiv" in tail.lower()


def _dash_in_archive(tail: str, peek: _Peek) -> bool:
    """Is a dash the hyphen of an old-style archive name (``hep–th/``, ``cond—mat.str-el/``)?

    Its scan has already checked that letters and a slash follow; the letters on both sides
    must make an archive name.
    """
    if not tail[-1:].isalpha():
        return False
    head = _T_LETTERS.search(tail[-10:])
    rest = _P_ARCHIVE_NAME.match(_P_ONE_BREAK.sub("", peek(), count=1))
    return (
        head is not None
        and head.group(1).isalpha()
        and rest is not None
        and _is_archive(f"{head.group(1)}-{rest.group(1)}")
    )


def _emphasis_inside(tail: str, peek: _Peek) -> bool:
    """Are Markdown emphasis markers between two parts of one identifier?

    ``2005.*11401*`` and ``**2005**.**11401**`` render as the id in bold or italics; so do
    ``hep-th/*9711200*``, ``*hep-th*/9711200`` and ``10.1000/*abc*``. Markers around a whole id
    need no help (no extractor counts them as part of it).
    """
    last = tail[-1:]
    if last == ".":
        return _T_MODERN_DOT.search(tail[-7:]) is not None and peek()[:1].isdigit()
    if "0" <= last <= "9":
        if _T_YYMM.search(tail[-6:]) is not None:
            return _P_EMPHASISED_SEQUENCE.match(peek()) is not None
        return "10." in tail and _T_DOI_PREFIX.search(tail) is not None and peek()[:1] == "/"
    if last == "/":
        if "10." in tail and _T_DOI_SLASH.search(tail) is not None:
            return _P_DOI_CHAR.match(peek()) is not None
        return tail[-2:-1].isalpha() and _T_LEGACY.search(tail) is not None and peek()[:1].isdigit()
    letters = _T_LETTERS.search(tail[-26:])
    if letters is not None and _ARCHIVE_SHAPE.fullmatch(letters.group(1)):
        return _P_SLASH_DIGIT.match(peek()) is not None
    return False


def _space_after_arxiv_dot(tail: str, peek: _Peek) -> bool:
    """``arXiv:2005. 11401``: with the prefix written, a space after the dot is a typo."""
    return (
        tail[-5:-1].isdigit()
        and _mentions_arxiv(tail)
        and _T_ARXIV_DOT.search(tail) is not None
        and _P_SEQUENCE.match(peek()) is not None
    )


# -- folding ----------------------------------------------------------------------------------


def _decode(kind: str, text: str) -> str:
    """The character(s) an entity, escape or percent-escape stands for ("" if none)."""
    if kind == "entity":
        from html import unescape  # here: html.entities is ~6 M instructions of a start-up

        out = unescape(text)
        return "" if out == text else out
    if kind == "escape":
        if len(text) == 2:
            return text[1]
        code = int(text[2:], 16)
        return "" if 0xD800 <= code <= 0xDFFF else chr(code)
    if kind == "utf8":
        try:
            return bytes.fromhex(text.replace("%", "")).decode("utf-8")
        except UnicodeDecodeError:
            return ""
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


_PEEK_LEN = 32
"""Enough for every rule: an archive name and its class, a slash, the digits; a registrant."""
_PEEK_WINDOW = _PEEK_LEN * 3
"""How many characters of the original a peek reads (entities take several each)."""
_UNDECIDED = "\x00undecided"
_ASCII_BREAKS = str.maketrans({"\r": "\n", "\v": "\n", "\f": "\n"})
_TAIL_LEN = 48


class _PeekTable(dict[int, str]):
    """``str.translate`` table of how the grammar reads a character after a candidate: folded,
    every line break a ``\n``, every dash a ``-``; filled on first use of each character."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        if ch in BREAKS:
            out = "\n"
        elif ch in DASHES:
            out = "-"
        else:
            out = ch if ch.isascii() else _fold(ch)
        if len(self) < 100_000:
            self[code] = out
        return out


_PEEK_TABLE = _PeekTable()


def _peek(text: str, pos: int) -> str:
    """The next characters of ``text`` as the grammar reads them: folded, entities and
    percent-escapes decoded, every line break a ``\\n``, every dash a ``-``."""
    window = text[pos : pos + _PEEK_WINDOW]
    if "&" in window or "%" in window or "\\" in window:
        window = _ESCAPES.sub(lambda m: _decode(m.lastgroup or "", m.group()) or m.group(), window)
    window = window.replace("\r\n", "\n")[: _PEEK_LEN + 8]  # NFKC may expand a character
    if window.isascii():
        return window.translate(_ASCII_BREAKS)[:_PEEK_LEN]
    return window.translate(_PEEK_TABLE)[:_PEEK_LEN]


_ESCAPES = LazyPattern(
    r"(?P<entity>" + _ENTITY + ")"
    r"|(?P<escape>\\u[0-9a-fA-F]{4}|\\[/.\-_*:])"
    r"|(?P<utf8>%[C-Fc-f][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f]){1,3})"
    r"|(?P<percent>%(?:2[DdEeFf]|3[0-9Aa]|4[1-9A-Fa-f]|5[0-9AaFf]|6[1-9A-Fa-f]|7[0-9AaEe]))"
)


def _rewrite(kind: str, run: str, tail: str, peek: _Peek) -> str | None:
    """What the view shows instead of the candidate ``run`` ("" drops it), or None to keep it.

    ``tail`` is the view just before it, ``peek`` the folded text just after.
    """
    if kind == "hyphen":
        # A number broken across lines with a hyphen: drop the hyphen and the break. Anything
        # else keeps them (a typographic hyphen that stays is folded by its own candidate).
        return "" if tail[-1:] in _NUMBER_END and tail else None
    if kind == "newline":
        return "" if _break_joins(tail, peek) else None
    if kind == "dotspace":
        return "" if _space_after_arxiv_dot(tail, peek) else None
    if kind == "emphasis":
        return "" if _emphasis_inside(tail, peek) else None
    if kind == "typographic":
        return "-"
    if kind == "dash":
        if _dash_in_archive(tail, peek):
            return "-"
        folded = _fold(run)
        return folded if folded != run else None
    # An entity or an escape: the characters it stands for, "" for an invisible one.
    if kind == "percent" and run[1] in "CDEFcdef":
        kind = "utf8"
    decoded = _decode(kind, run)
    if not decoded:
        return None
    folded = decoded if decoded.isascii() else "".join(map(_fold, decoded))
    if kind == "utf8" and folded:
        return None  # only percent-encoded invisible characters are read through
    if folded in DASHES and _dash_in_archive(tail, peek):
        return "-"  # "hep&#8211;th/9711200"
    return folded


def _needs_view(text: str, paired: bool | None = None) -> bool:
    """Would the view of this ASCII text differ from it? (The view so far *is* the text, so
    each candidate is decided on the text itself, independently of the others, and the first
    rewrite answers.)

    A space after a dot is dropped only after an arXiv prefix (``arXiv:2005. 11401``), which
    the rule reads in the text just before it; here that text is the original, so only dots
    after a written "arxiv" (any case) can be rewritten, and only those are scanned (a scan
    of every dot in prose was most of the cost of this check on a 10 MB report). ``paired``:
    see :meth:`TextView.of`.
    """
    scans = (_candidates(text, ascii=True, dotspace=False, paired=paired), _arxiv_dotspaces(text))
    for candidates in scans:
        for start, _, end, kind in candidates:
            run = text[start:end]
            tail = text[max(0, start - _TAIL_LEN) : start]
            out = _rewrite(kind, run, tail, _Peek(text, end))
            if out is not None and out != run:
                return True
    return False


_ARXIV_LEN = len("arxiv")


def _arxiv_dotspaces(text: str) -> Iterator[_Candidate]:
    """The ``dotspace`` candidates of an ASCII text that may be rewritten: those within the
    tail the rule reads (:data:`_TAIL_LEN` characters) after a written "arxiv", any case.

    Its "x" is found by ``str.find`` (a ``memchr``; the letter is rare in prose), and a
    window is scanned only if a dot with a space or tab after it occurs in it at all. A
    candidate's start is the character after its dot, and the rule needs all of "arxiv"
    in the tail before it; so the dot of one found through an "x" at ``at`` lies within
    ``at + 2`` and ``at + _TAIL_LEN - 3``. The scan reads a few characters beyond (the
    digits its lookahead needs); a match that starts past the window is left to its own.
    """
    find = text.find
    n = len(text)
    for x in "xX":
        at = find(x, 2)
        while at != -1:
            # (the "i" after the x first: most x's of prose fail it, and a one-character
            # slice is a cached string, where the five to lower are a new one)
            if text[at + 1 : at + 2] in "iI" and text[at - 2 : at + 3].lower() == "arxiv":
                first, last = at + 2, at + _TAIL_LEN - _ARXIV_LEN + 2
                window = text[first : last + 2]
                if ". " in window or ".\t" in window:
                    for m in _DOTSPACE.finditer(text, first, min(n, last + 10)):
                        if m.start() > last:
                            break
                        yield m.start() + 1, 1, m.end(), "dotspace"
            at = find(x, at + 1)


_NUMBER_END = frozenset("0123456789.")


def _char_class(chars: frozenset[str]) -> str:
    """A regex character class of ``chars`` written as ranges: a class of hundreds of single
    characters (the tag block, the variation selectors) makes every search crawl."""
    codes = sorted(map(ord, chars))
    parts = []
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        lo, hi = chr(codes[i]), chr(codes[j])
        parts.append(re.escape(lo) if i == j else f"{re.escape(lo)}-{re.escape(hi)}")
        i = j + 1
    return "[" + "".join(parts) + "]"


_INVISIBLE_RE = LazyPattern(_char_class(INVISIBLE))


_NON_ASCII = LazyPattern(r"[^\x00-\x7f]+")


def _read_through(m: re.Match[str]) -> str:
    """What :func:`fold` shows for an escape: what it stands for, as the view reads it
    (percent-encoded UTF-8 only when it stands for invisible characters)."""
    kind = m.lastgroup or ""
    decoded = _decode(kind, m.group())
    if kind == "utf8" and decoded and any(c not in INVISIBLE for c in decoded):
        return m.group()
    return decoded if decoded or kind == "utf8" else m.group()


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
    if "&" in text or "%" in text or "\\" in text:
        text = _ESCAPES.sub(_read_through, text)
    if text.isascii():
        return text
    table = {ord(ch): _fold(ch) for ch in set(text) if not ch.isascii()}
    return _NON_ASCII.sub(lambda m: m.group().translate(table), text)


@frozen
class TextView:
    """A normalised copy of ``original`` plus the map from view offsets to original offsets.

    The map is a list of segments ``(view_start, original_start, view_len, original_len)``;
    a segment is either a verbatim copy (equal lengths) or one replaced unit (a character that
    NFKC expanded, an entity). Removed characters (a joined line break, an emphasis marker, an
    entity that stands for an invisible character) leave a gap between segments. Positions
    inside a copy map exactly; a position inside a replacement maps to the whole replaced unit,
    so spans never cut a character.
    """

    original: str
    text: str
    _view_starts: list[int] = field(factory=list, repr=False)
    _segments: list[tuple[int, int, int, int]] = field(factory=list, repr=False)
    _shifted: Sequence[int] = field(factory=list, repr=False)
    """For each invisible character removed up front: how many characters were kept before it."""

    @classmethod
    def of(cls, original: str, *, paired: bool | None = None) -> TextView:
        """The view of ``original``. ``paired`` may say whether every line break of it sits
        in a run of even length (blank lines only, as in the strings of a tool output joined
        by blank lines, none holding a break): the caller that joined them knows it from one
        count, where the view would take two scans to find out."""
        if original.isascii():
            if _needs_view(original, paired):
                return cls._build(original, paired=paired)
            return cls(original, original)
        chars = _non_ascii(original)
        if chars.isdisjoint(INVISIBLE):
            if all(map(_inert, chars)):
                # Every non-ASCII character is inert (see _inert): what the view rewrites
                # are the ASCII candidates, decided as in an ASCII text (_needs_view), and
                # a text without one is the identity (the build would copy it whole, a run
                # of "ü" at a time, to find that).
                if _needs_view(original, paired):
                    return cls._build(original, chars, paired=paired)
                return cls(original, original)
            return cls._build(original, chars, paired=paired)
        # Invisible characters go first, in one pass, with a compact map of where they were:
        # a flood of zero-width spaces would otherwise cost a Python step each.
        # Kept as an array of 8-byte offsets, made 4,096 at a time: as a list of ints, a
        # 1 MB flood of "2\u200b" held 36 MB of them (two lists of 500,000).
        shifted = array("q")
        removed = enumerate(_INVISIBLE_RE.finditer(original))
        extend_range(shifted, (m.start() - i for i, m in removed))
        stripped = _INVISIBLE_RE.sub("", original)
        inner = cls.of(stripped)
        return cls(original, inner.text, inner._view_starts, inner._segments, shifted)

    @classmethod
    def _build(
        cls, original: str, chars: frozenset[str] | None = None, *, paired: bool | None = None
    ) -> TextView:
        # The loop runs once per candidate, and a hostile text is nothing but candidates:
        # copying, mapping and the tail are written out inline rather than as helper calls.
        pieces: list[str] = []
        segments: list[tuple[int, int, int, int]] = []
        vpos = 0  # length of the view so far
        opos = 0  # how much of the original it covers
        tail = ""  # the view's last characters, for the grammar's decisions
        size = _TAIL_LEN
        decided: dict[tuple[str, str, str, str], str | None] = {}
        for start, _, end, kind in _candidates(
            original, original.isascii(), chars, paired=paired
        ):
            if start < opos:
                continue  # inside a candidate already rewritten
            if start > opos:  # copy the text before the candidate as it is
                n = start - opos
                pieces.append(original[opos:start])
                tail = (
                    original[start - size : start]
                    if n >= size
                    else (tail + original[opos:start])[-size:]
                )
                _add(segments, vpos, opos, n, n)
                vpos += n
                opos = start
            if kind == "hyphen":  # the commonest flood gets no call at all
                if tail and tail[-1] in _NUMBER_END:
                    opos = end  # a number broken across lines: drop hyphen and break
                continue
            run = original[start:end]
            if kind == "escape" and len(run) == 2:
                out: str | None = run[1]  # "\\.", "\\/": the character itself
            elif kind != "unicode":
                # A decision depends only on the tail and the characters after the candidate,
                # and a flood repeats the same few: remember them (per text, bounded).
                key = (kind, run, tail, original[end : end + _PEEK_WINDOW])
                out = decided.get(key, _UNDECIDED)
                if out is _UNDECIDED:
                    out = _rewrite(kind, run, tail, _Peek(original, end))
                    if len(decided) > 4096:
                        decided.clear()
                    decided[key] = out
            else:
                folds = {ch: _fold(ch) for ch in set(run)}
                if all(len(fold) == 1 for fold in folds.values()):
                    # One character for one (the usual case: fullwidth forms, digits of other
                    # scripts, look-alike separators): one exactly-mapped translation.
                    out = run.translate({ord(k): v for k, v in folds.items()})
                else:  # NFKC expands or removes some: one segment each, so no span cuts one
                    for i, ch in enumerate(run):
                        fold = folds[ch]
                        if fold:
                            pieces.append(fold)
                            tail = (tail + fold)[-size:]
                            segments.append((vpos, opos, len(fold), 1))
                            vpos += len(fold)
                        opos = start + i + 1
                    continue
            if out is None:
                continue
            if out:
                pieces.append(out)
                tail = (tail + out)[-size:]
                width = end - opos
                last = segments[-1] if segments else None
                if len(out) != width:
                    segments.append((vpos, opos, len(out), width))
                elif (
                    last
                    and last[2] == last[3]
                    and last[0] + last[2] == vpos
                    and last[1] + last[3] == opos
                ):
                    segments[-1] = (last[0], last[1], last[2] + width, last[3] + width)
                else:
                    segments.append((vpos, opos, width, width))
                vpos += len(out)
            opos = end
        if opos < len(original):
            n = len(original) - opos
            pieces.append(original[opos:])
            _add(segments, vpos, opos, n, n)
        view = "".join(pieces)
        if view == original and all(s[0] == s[1] and s[2] == s[3] for s in segments):
            # Nothing was rewritten (a name with an accent NFKC keeps, an underscore that is
            # no emphasis): the identity, whose offsets map without a bisection each.
            return cls(original, original)
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
    """1-based (line, column) of each sorted offset, in one forward pass over ``text``.

    Each gap between offsets is searched for its first line break (``str.find`` of one
    character is a ``memchr``), and only the rest of it is counted (``str.count`` tests every
    character): a gap without a break, as in a long line, is not counted at all."""
    line = 1
    line_start = 0
    scanned = 0
    find, count, rfind = text.find, text.count, text.rfind
    for off in offsets:
        if off < scanned:
            raise ValueError("offsets must be sorted")
        first = find("\n", scanned, off)
        if first != -1:
            line += count("\n", first, off)
            line_start = rfind("\n", first, off) + 1
        scanned = off
        yield line, off - line_start + 1
