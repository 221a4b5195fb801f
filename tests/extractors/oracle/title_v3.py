"""Paper titles written in a report: quoted, emphasised, linked, in headings, in reference
lists and BibTeX fields, and beside a cited identifier.

A title is not an identifier: it is written loosely, and many phrases look like one. So the
extractor is strict about what a title looks like (at least ``min_words`` words with letters,
no "et al.", no URL or identifier inside, not a stop phrase such as "Related Work"), records
*how* each candidate was written (``Mention.kind``), and leaves to the checks how much to
trust it. Each candidate's identifier is ``title:<normalised title>``.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Iterator

from groundcheck.errors import ConfigError
from groundcheck.extractors.arxiv import find_arxiv, find_arxiv_legacy
from groundcheck.extractors.doi import find_doi
from groundcheck.extractors.hints import word_matches
from groundcheck.model import TITLE_SCHEME, Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = [
    "DEFAULT_STOP_PHRASES",
    "TITLE",
    "TitleExtractor",
    "adjacent_title",
    "heading_title",
    "main_title",
    "normalize_title",
    "title_words",
]

SCHEME = TITLE_SCHEME
TITLE = Scheme(TITLE_SCHEME, "title", "")

_LATEX_COMMAND = LazyPattern(r"\\[A-Za-z]+\*?\s*")
_TOKEN = re.compile(r"[^\W_]+")
"""A word of a normalised title: letters and digits (``_`` and everything else separate)."""
_NOT_PLAIN = frozenset("&\\{}")
_SUBTITLE = re.compile(r"\s*(?::|\s[-–—]\s)\s*")
_ALNUM = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_SPACE_NOT_ALNUM = bytes(c if c in _ALNUM else 32 for c in range(256))
_ASCII_LETTERS = _ALNUM[:52]


def _plain_words(lowered: str) -> str:
    """``" ".join(_TOKEN.findall(lowered))`` for an ASCII text, by a byte translation: every
    character but a letter or digit becomes a space, and the runs between spaces are the words.
    """
    return b" ".join(lowered.encode("ascii").translate(_SPACE_NOT_ALNUM).split()).decode("ascii")


def normalize_title(title: str) -> str:
    r"""The comparison form of a title: case, Unicode, LaTeX, HTML, punctuation and spacing.

    ``{BERT}: Pre-training of \emph{Deep} Bidirectional Transformers`` and
    ``bert pre training of deep bidirectional transformers`` normalise to the same string.

    >>> normalize_title(r"{BERT}: Pre-training of \emph{Deep} Bidirectional Transformers")
    'bert pre training of deep bidirectional transformers'
    """
    if title.isascii():
        return _normalize_ascii(title, title.lower())
    return _normalize_any(title)


def _normalize_ascii(title: str, lowered: str) -> str:
    """:func:`normalize_title` of an ASCII ``title`` whose lower case is ``lowered`` (the title
    finder has that copy already)."""
    if _NOT_PLAIN.isdisjoint(title):
        # Nothing to unescape, compose or strip, and casefold is lower: the same, sooner.
        return _plain_words(lowered)
    return _normalize_any(title)


def _normalize_any(title: str) -> str:
    text = html.unescape(title)
    text = unicodedata.normalize("NFKC", text)
    text = _LATEX_COMMAND.sub(" ", text).replace("{", "").replace("}", "")
    return " ".join(_TOKEN.findall(text.casefold()))


def main_title(title: str) -> str | None:
    """The title before a long subtitle ("Switch Transformers: Scaling to Trillion Parameter
    Models ..." -> "Switch Transformers"), or None. A subtitle of one or two words ("A Survey",
    "Extended Abstract") is kept: dropping it would name a different paper.

    >>> main_title("Switch Transformers: Scaling to Trillion Parameter Models"), main_title(
    ...     "Attention Is All You Need: A Survey")
    ('Switch Transformers', None)
    """
    parts = _SUBTITLE.split(title.strip(), maxsplit=1)
    if len(parts) == 2 and parts[0].strip() and len(parts[1].split()) >= 3:
        return parts[0]
    return None


DEFAULT_STOP_PHRASES = frozenset(
    {
        "related work", "references", "bibliography", "further reading", "table of contents",
        "results and discussion", "conclusions and future work", "summary of findings",
        "key takeaways", "open problems", "limitations and future work",
        "background and motivation",
        "experimental setup", "materials and methods", "executive summary", "next steps",
        "notes and references", "sources and references", "list of references",
    }
)  # fmt: skip
"""Headings and phrases that are sections of a report, never paper titles (normalised)."""

_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_ID_LIKE = LazyPattern(r"(?i:arxiv)|\d{4}\.\d{4,5}|10\.\d{4,9}/|/\d{7}|https?://|www\.")
"""Anything that makes a phrase an identifier or a link rather than a title. Every branch is
anchored on a fixed-width head, so a long run of letters cannot make it backtrack."""
_ID_LIKE_CASED = re.compile(r"\.(?<=\d{4}\.)\d{4}|10\.\d{4,9}/|/\d{7}|https?://|www\.")
"""``_ID_LIKE`` but its one case-insensitive branch (``arxiv``), for an ASCII text whose
lowered copy is asked for that word instead. Each branch opens with a literal (an arXiv-like
number is found from its dot, with four digits before and four after: the same texts match,
the answer is only whether one is there), so the search skips to the characters that can open
a branch instead of trying a digit test at every position."""
_ET_AL = re.compile(r"(?i)\bet\s+al\b")
_AUTHOR_YEAR = re.compile(r"\(\s*(?:19|20)\d{2}[a-z]?\b")
"""'Ho, Jain & Abbeel (2020': an author-year citation, not a title."""
_AUTHORS = re.compile(r"^(?:[A-Z][\w'’-]+,?\s+(?:[A-Z]\.\s*)+,?\s*(?:and\s+|&\s+)?)+$")
_NAMES_YEAR = re.compile(
    r"^[A-Z][\w'’-]+(?:,\s*[A-Z][\w'’-]+){0,8},?\s+(?:&|and)\s+[A-Z][\w'’-]+,?\s+(?:19|20)\d{2}[a-z]?$"
)
"""'Panickssery, Bowman & Feng 2024', 'Xu, Li and Jiang, 2025': surnames and a year, a bold
lead-in naming who wrote the paper cited next, not its title."""

# Every pattern below starts with a literal character, so the regex engine jumps between
# occurrences of it instead of trying each position; each runs only if its character occurs.
_QUOTES = tuple(
    (
        opener,
        closer,
        LazyPattern(
            re.escape(opener)
            + rf"((?:[^{re.escape(closer)}\n]|\n(?![ \t]*\n)){{6,400}}){re.escape(closer)}"
        ),
    )
    for opener, closer in (('"', '"'), ("“", "”"), ("‘", "’"), ("«", "»"))
)
"""A quoted title may wrap onto the next line of a paragraph, never across a blank line."""
_EMPHASIS = tuple(
    (mark, LazyPattern(re.escape(mark) + rf"(?=[^\s{mark[0]}])([^{mark[0]}\n]{{6,400}}?)(?<=\S)"
                 + re.escape(mark) + rf"(?![{mark[0]}\w])"))
    for mark in ("**", "__", "*", "_")
)  # fmt: skip
_LINK = LazyPattern(r"\[([^\[\]\n]{6,400})\]\(")
_BIB_TITLE = LazyPattern(r"(?i)\btitle\s*=\s*([{\"])")
_TRIM = " \t\r\n.,;:!*_\"'“”‘’«»()[]—–-"


_LINK_END = re.compile(r"\]\(")
"""``](``: the regex engine finds this two-character literal faster than ``in`` does."""


def _maybe_bib_title(text: str) -> bool:
    """Whether ``title = {`` or ``title = "`` may be written (``itle`` or ``ITLE`` occurs, as
    before), asking first for the one-character literals every such field holds: a search
    for one character is many times faster than one for four."""
    return "=" in text and ("{" in text or '"' in text) and ("itle" in text or "ITLE" in text)


def title_words(text: str) -> int:
    return len(_WORD.findall(text))


class TitleExtractor:
    """Finds title candidates. Register your own instance to change the rules::

    registry.register(TitleExtractor(min_words=4), replace=True)

    >>> [(m.kind, m.identifier.id) for m in TitleExtractor().find(
    ...     'As “Dense Passage Retrieval for Open-Domain QA” shows (arXiv:2004.04906).')]
    [('quoted', 'dense passage retrieval for open domain qa')]
    """

    name = "title"
    description = "paper titles: quoted, emphasised, linked, headings, reference lists, BibTeX"
    schemes = (TITLE,)

    def __init__(
        self,
        *,
        min_words: int = 3,
        max_chars: int = 300,
        stop_phrases: Iterable[str] = DEFAULT_STOP_PHRASES,
    ) -> None:
        if min_words < 1 or max_chars < 10:
            raise ConfigError(
                f"TitleExtractor needs min_words >= 1 and max_chars >= 10, got {min_words} and "
                f"{max_chars}"
            )
        self.min_words = min_words
        self.max_chars = max_chars
        self.stop_phrases = frozenset(normalize_title(p) for p in stop_phrases)

    # -- what a title looks like --------------------------------------------------------------

    def looks_like_title(self, text: str) -> bool:
        return self._normalized_if_title(text) is not None

    def _normalized_if_title(self, text: str) -> str | None:
        """The normalised title when ``text`` looks like one (cheapest tests first), else None."""
        size = len(text)
        if size > self.max_chars:
            return None
        if text.isascii():
            # The same tests, each skipped when a literal it needs is absent (in ASCII text,
            # case-insensitive letters are ASCII letters only), and the text lowered once.
            letters = size - len(text.encode("ascii").translate(None, _ASCII_LETTERS))
            if letters < size // 2:
                return None
            lowered = text.lower()
            if "arxiv" in lowered or (("." in text or "/" in text) and _ID_LIKE_CASED.search(text)):
                return None
            if "et" in lowered and "al" in lowered and _ET_AL.search(text):
                return None
            if not _words_at_least(text, self.min_words):
                return None
            if (
                _AUTHORS.match(text)
                or _NAMES_YEAR.match(text)
                or ("(" in text and _AUTHOR_YEAR.search(text))
            ):
                return None
            normalized = _normalize_ascii(text, lowered)
            return normalized if normalized and normalized not in self.stop_phrases else None
        if sum(map(str.isalpha, text)) < size // 2:
            return None
        if not _words_at_least(text, self.min_words):
            return None
        if (
            _ET_AL.search(text)
            or _ID_LIKE.search(text)
            or _AUTHORS.match(text)
            or _NAMES_YEAR.match(text)
            or _AUTHOR_YEAR.search(text)
        ):
            return None
        normalized = normalize_title(text)
        return normalized if normalized and normalized not in self.stop_phrases else None

    def _mention(self, text: str, start: int, end: int, kind: str) -> Mention | None:
        """A mention for ``text[start:end]`` trimmed of surrounding punctuation, if title-like."""
        raw = text[start:end]
        left = len(raw) - len(raw.lstrip(_TRIM))
        right = len(raw.rstrip(_TRIM))
        if right <= left:
            return None
        candidate = raw[left:right]
        if candidate.count("(") != candidate.count(")") and candidate.endswith("("):
            return None
        if raw.startswith(")", right) and candidate.count("(") > candidate.count(")"):
            right += 1  # "… Language Models (HELM)": the parenthesis closes inside the title
            candidate = raw[left:right]
        normalized = self._normalized_if_title(candidate)
        if normalized is None:
            return None
        return Mention(Identifier(SCHEME, normalized), start + left, start + right, kind=kind)

    # -- finding ------------------------------------------------------------------------------

    def find(self, text: str) -> Iterator[Mention]:
        """Title candidates in ``text``, finding the identifiers beside them itself."""
        ids = [
            m
            for finder in (find_arxiv, find_arxiv_legacy, find_doi)
            for m in finder(text)
            if m.malformed is None
        ]
        return self.find_beside(text, ids)

    def find_beside(self, text: str, identifiers: Iterable[Mention]) -> Iterator[Mention]:
        """Title candidates, given the identifiers other extractors already found in ``text``.

        The extraction pipeline calls this (see :func:`groundcheck.extractors.find_mentions`),
        so identifiers are searched once per text, not once more for the titles beside them.
        The text is parsed into blocks first (:mod:`groundcheck.document`): nothing in code is
        a title, reference entries give the title their structure says they hold (never the
        italic venue or the author list), and a bold lead-in (``**Contribution**:``) is a
        label, not a title.
        """
        # The document model is imported when a text is first read, not with the extractors:
        # a run that never reads a text for titles never compiles its patterns.
        from groundcheck.document.blocks import CELL, HEADING, LABEL_LEVEL
        from groundcheck.document.report import Document

        idents = [m for m in identifiers if m.identifier.scheme != SCHEME]
        document = Document.parse(text, [(m.start, m.end) for m in idents])
        blocks, code = document.blocks, document.code
        found: dict[tuple[int, int], Mention] = {}  # first kind wins: most specific first

        def add(start: int, end: int, kind: str) -> None:
            if kind != "bibtex" and code and document.in_code(start):
                return
            mention = self._mention(text, start, end, kind)
            if mention is not None:
                found.setdefault((mention.start, mention.end), mention)

        for entry in document.entries:
            if entry.parts.title is not None:
                add(*entry.parts.title, "bibtex" if entry.kind == "bibtex" else "reference")
        if _maybe_bib_title(text):
            closers = _Closers(text)
            for m in _bib_titles(text):
                end = closers.closing(m.end(), m.group(1))
                if end is not None:
                    add(m.end(), end, "bibtex")
        # A heading's title is read from the heading's text alone, so headings written alike
        # (a report's repeated "## Summary", a flood of "# a") are judged once.
        headings: dict[str, tuple[int, Mention | None]] = {}
        for block in blocks:
            if block.kind == HEADING and block.level < LABEL_LEVEL:
                body = text[block.body : block.end]
                known = headings.get(body)
                if known is None:
                    at, stop = heading_title(body, 0, len(body))
                    known = headings[body] = (at, self._mention(body, at, stop, "heading"))
                at, mention = known
                if mention is None or (code and document.in_code(block.body + at)):
                    continue
                shift = block.body
                mention = Mention(
                    mention.identifier, mention.start + shift, mention.end + shift, kind="heading"
                )
                found.setdefault((mention.start, mention.end), mention)
        for opener, closer, pattern in _QUOTES:
            for start, end in _quoted(text, opener, closer, pattern):
                add(start, end, "quoted")
        if "]" in text and _LINK_END.search(text) is not None:
            for m in _LINK.finditer(text):
                add(m.start(1), m.end(1), "link")
        for mark, pattern in _EMPHASIS:
            if mark[0] in text and mark in text:
                for m in pattern.finditer(text):
                    before = text[m.start() - 1] if m.start() else ""
                    if before == mark[0] or before.isalnum():
                        continue
                    if text.startswith(":", m.end()) or m.group(1).rstrip().endswith(":"):
                        continue  # "**Contribution**: …" is a label
                    add(m.start(1), m.end(1), "emphasis")
        for block in blocks:
            if block.kind == CELL and block.level == 0:
                add(block.body, block.end, "cell")
        beside: set[tuple[int, int]] = set()  # ids side by side name one span: judged once
        letters = _Letters(text)
        n = len(text)
        for ident in idents:
            if ident.malformed is None:
                if letters.free(max(0, ident.start - 300), min(n, ident.end + 300)):
                    continue  # no letter within reach: no title beside it (a run of ids)
                span = _adjacent_title(text, ident.start, ident.end, letters)
                if span is not None and span not in beside:
                    beside.add(span)
                    add(span[0], span[1], "adjacent")
        return iter(sorted(found.values(), key=lambda x: (x.start, x.end)))


_ENUMERATION = LazyPattern(
    r"(?i)(?:(?:paper|study|article|work|source|reference|ref|item|part|chapter|section|entry)"
    r"[ \t]*#?[ \t]*\d{1,3}[ \t]*[:.)—–-][ \t]*"
    r"|(?:\d{1,3}(?:\.\d{1,3}){0,3}|[ivxlcdm]{1,6}|[a-z])[.)][ \t]+"
    r"|\([ \t]*(?:\d{1,3}|[a-z])[ \t]*\)[ \t]*|\[\d{1,4}\][ \t]*)"
)
_LEADING_ID = LazyPattern(
    r"(?i)[\[(]?(?:arXiv[: \t]{0,2})?(?:\d{4}\.\d{4,5}(?:v\d{1,3})?"
    r"|[a-z][a-z.-]{1,20}/\d{7}(?:v\d{1,3})?|(?:doi:[ \t]?)?10\.\d{4,9}/[^\s\])]{1,200})[\])]?"
    r"[ \t]*(?:[—–:|-]|--)[ \t]+"
)
"""An identifier opening a heading before its title: ``2608.24780 — Linear Probing …``,
``[arXiv:2005.11401] RAG …`` is not cut (no separator), ``10.1000/xyz: Title`` is."""
_TRAILING_PAREN = LazyPattern(r"[ \t]*\(([^()\n]{0,120})\)[ \t]*$")
_TRAILING_MARKER = LazyPattern(r"[ \t]*(?:\[\^?[\w,–-]{1,20}\]|【\d{1,5}】)[ \t]*$")
_TRAILING_BYLINE = LazyPattern(r"[ \t]+[-–—|][ \t]+([^\n]{0,100})$")
_CITES = LazyPattern(r"\d|\bet\.? al\b|,")
_TRAILING_TAG = LazyPattern(
    r"[ \t]+[-–—|·][ \t]*"
    r"(?:\*\*[^*\n]{1,40}\*\*|__[^_\n]{1,40}__|\*[^*\n]{1,40}\*|\[[^\[\]\n]{1,30}\]"
    r"|\([A-Z][A-Z0-9 \t/&-]{1,30}\)|[A-Z]{3,12}(?:[ \t]+[A-Z]{3,12}){0,2})[ \t]*$"
    r"|[ \t]+(?:\*\*[A-Z][A-Z0-9 \t/&-]{1,30}\*\*|\[[A-Z][A-Z0-9 \t/&-]{1,30}\])[ \t]*$"
)
"""A label after the title: ``— **CORE**``, ``- ESSENTIAL``, ``— *Elhage et al., 2022*``
after a dash (emphasis, a bracket, or capitals only: a subtitle after a dash has lower-case
words and stays), or ``**CORE**`` / ``[HIGH PRIORITY]`` in capitals after a space."""
_TRAILING_SYMBOLS = LazyPattern(r"[ \t]*[\u2190-\u2bff\U0001f000-\U0001faff\ufe0f\u200d]+[ \t]*$")
"""Emoji and symbols after a title (``✅``, ``⭐``, ``★``, ``🔥``)."""


def heading_title(text: str, start: int, end: int) -> tuple[int, int]:
    """The title a heading names, without its enumeration and the citation after it.

    ``### 1. Toy Models of Superposition (Elhage et al., 2022)`` names "Toy Models of
    Superposition"; so do ``Paper 3: Toy Models of Superposition [4]`` and ``Toy Models of
    Superposition — Elhage et al., 2022``. A parenthesis without a year, author or comma
    (``(GELUs)``) is part of the title.

    >>> t = "1. Toy Models of Superposition (Elhage et al., 2022)"
    >>> t[slice(*heading_title(t, 0, len(t)))]
    'Toy Models of Superposition'

    An identifier leading the heading, before a dash or a colon, is cut too: the title of
    ``2601.10387 — The Assistant Axis (Lu et al., 2026)`` is "The Assistant Axis".
    """
    m = _ENUMERATION.match(text, start, end)
    if m is not None and m.end() < end:
        start = m.end()
    m = _LEADING_ID.match(text, start, end)
    if m is not None and m.end() < end:
        start = m.end()
    for _ in range(4):
        chunk = text[start:end]
        m = _TRAILING_SYMBOLS.search(chunk) or _TRAILING_TAG.search(chunk)
        if m is not None and m.start() > 0 and _has_words(chunk[: m.start()]):
            end = start + m.start()
            continue
        m = _TRAILING_PAREN.search(chunk)
        marker = m is None and (m := _TRAILING_MARKER.search(chunk)) is not None
        if m is not None and (marker or _CITES.search(m.group(1))):
            end = start + m.start()
            continue
        m = _TRAILING_BYLINE.search(chunk)
        if m is not None and _CITES.search(m.group(1)) and m.start() > 0:
            end = start + m.start()
            continue
        break
    return start, end


def _has_words(text: str) -> bool:
    """Whether ``text`` holds a word of two letters (what is left is still a title)."""
    return _TWO_LETTERS.search(text) is not None


_TWO_LETTERS = LazyPattern(r"[^\W\d_]{2}")
_BLANK_LINE = LazyPattern(r"\n[ \t]*\n")


def _quoted(text: str, opener: str, closer: str, pattern: LazyPattern) -> Iterator[tuple[int, int]]:
    """Spans inside ``opener … closer`` (at most 400 characters), in one pass.

    Each opener looks for the next closer with one ``str.find``; openers too far before it
    are skipped at once, so a flood of unclosed quotes costs one scan, not 400 per quote.
    """
    pos = text.find(opener)
    while pos != -1:
        close = text.find(closer, pos + 1)
        if close == -1:
            return
        if close - pos > 402:
            pos = text.find(opener, close - 402)
            continue
        m = pattern.match(text, pos)
        if m is not None:
            yield m.start(1), m.end(1)
            pos = text.find(opener, m.end())
            continue
        blank = _BLANK_LINE.search(text, pos, close)
        pos = text.find(opener, blank.end() if blank is not None else pos + 1)


def _bib_titles(text: str) -> Iterator[re.Match[str]]:
    """``title = {`` / ``title = "`` openers in text order (found where ``title`` occurs)."""
    return word_matches(text, _BIB_TITLE.compiled, ("title",))


_BRACE = LazyPattern(r"[{}]")
_FEW_OPENERS = 16


class _Closers:
    """Where each BibTeX field value ends, for one text.

    The first few values are scanned brace by brace (at most 2,000 characters each); from
    then on every brace of the text is matched once with a stack, so a flood of ``title={``
    (each scan would run its full 2,000 characters) costs one pass. Both give the same end.
    """

    __slots__ = ("_match", "_scans", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._scans = 0
        self._match: dict[int, int] | None = None

    def closing(self, start: int, opener: str) -> int | None:
        if opener == '"' or self._scans < _FEW_OPENERS:
            self._scans += 1
            return _closing(self._text, start, opener)
        if self._match is None:
            self._match = {}
            stack: list[int] = []
            for m in _BRACE.finditer(self._text):
                if m.group() == "{":
                    stack.append(m.start())
                elif stack:
                    self._match[stack.pop()] = m.start()
        end = self._match.get(start - 1)  # the brace that opened the value, matched
        return end if end is not None and end < start + _MAX_FIELD else None


_MAX_FIELD = 2000


def _closing(text: str, start: int, opener: str) -> int | None:
    """End of a BibTeX field value that starts at ``start`` (braces may nest)."""
    if opener == '"':
        end = text.find('"', start)
        return None if end == -1 else end
    depth = 1
    limit = min(len(text), start + 2000)
    for i in range(start, limit):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


_CONNECTORS = frozenset(" \t([{—–:,;-")
_PREFIX_STOP = frozenset(" \t([{<\"'“”‘’,;|`")
_PREFIX_STOPS = tuple(sorted(_PREFIX_STOP))
"""Where a prefix glued to an id ends: quotes and commas too, so that in packed JSON
('..."title":"X","url":"https://arxiv.org/abs/ID"') the glued run is the URL alone."""
_MARKUP_CHARS = ('"', "“", "”", "[", "]", "{", "}", "=", "*", "_", "`", "|")
_GLUED = re.compile("[^" + re.escape("".join(_PREFIX_STOPS)) + "]*")
_NOT_MARKUP = re.compile("[^" + re.escape("".join(_MARKUP_CHARS)) + "]*")
_MARKUP_CHAR = re.compile("[" + re.escape("".join(_MARKUP_CHARS)) + "]")


def _trailing(run: re.Pattern[str], text: str, start: int, end: int) -> int:
    """How many characters before ``end`` (back to ``start`` at most) ``run`` matches: one
    regex over the reversed window, not one ``rfind`` per character that ends the run."""
    if end <= start:
        return 0
    m = run.match(text[end - 1 : start - 1 if start else None : -1])  # one reversed slice
    return 0 if m is None else m.end()


_LEADING_WORDS = re.compile(r"(?i)\s*(?:(?:and|or|see|also|cf|in|by|from|e\.g|i\.e)\b[.,]?\s*)+")
_LEADING_NOISE = re.compile(
    r"[ \t]*(?:\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?|\d{1,4}[.)]|\[\d{1,4}\]"
    r"|#{1,6}|[-+•‣▪◦])[ \t]+"
)
"""A date or a number a listing puts before each title, a heading's ``###`` or a bullet:
never part of the title."""


def _citation_paren_end(before: str) -> int:
    """Where the last ``(…) `` holding a citation (a digit or a colon) ends in ``before``, or
    -1: "(arXiv:X) Next title" ends a segment, "Models (LLMs) from …" does not."""
    at = before.rfind(") ")
    while at != -1:
        opened = before.rfind("(", 0, at)
        if opened == -1:
            return at
        inside = before[opened:at]
        if ":" in inside or any(map(str.isdigit, inside)):
            return at
        at = before.rfind(") ", 0, opened)
    return -1


def adjacent_title(text: str, id_start: int, id_end: int) -> tuple[int, int] | None:
    """The span of text beside an identifier on its line: before it, else after it.

    "Switch Transformers: Scaling ... (arXiv:2101.03961)" -> the words before; in a tool's
    "2101.03961 Switch Transformers: ..." line, the words after. Bounded by the line, by
    sentence ends and by 300 characters, so a paragraph is never taken for a title.
    """
    return _adjacent_title(text, id_start, id_end, _Letters(text))


_LOOK_AHEAD = 4096
"""How far :meth:`_Letters.free` looks past what it was asked about."""


class _Letters:
    """Where the first letter of a span of one text is, remembering one letter-free stretch.

    The ids of a text are asked about in order, each for the line around it (300 characters
    either side at most): in a run of ids with no letter (a DOI flood) the windows overlap,
    and searching each in full costs 600 character steps an id. The stretch last found free
    of letters is not searched again, so the run costs one pass. The answer is the search's.
    """

    __slots__ = ("_free_end", "_free_start", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._free_start = self._free_end = 0  # text[_free_start:_free_end] has no letter

    def free(self, start: int, end: int) -> bool:
        """Is ``text[start:end]`` free of letters, inside the stretch known to be? (Then
        :meth:`first` of any span inside it answers None.) A span starting in the stretch
        and running past it grows the stretch by at least :data:`_LOOK_AHEAD` characters:
        a run of ids asks one search per that many characters, not one per id."""
        if not self._free_start <= start <= self._free_end:
            return False
        if end > self._free_end:
            at = self._free_end
            stop = min(len(self._text), max(end, at + _LOOK_AHEAD))
            m = _LETTER.search(self._text, at, stop)
            self._free_end = stop if m is None else m.start()
        return end <= self._free_end

    def first(self, start: int, end: int) -> int | None:
        """Offset of the first letter in ``text[start:end]``, or None."""
        grows = self._free_start <= start <= self._free_end
        at = self._free_end if grows else start
        if at >= end:
            return None
        m = _LETTER.search(self._text, at, end)
        stop = end if m is None else m.start()
        if grows:
            self._free_end = stop
        else:
            self._free_start, self._free_end = start, stop
        return None if m is None else stop


def _adjacent_title(
    text: str, id_start: int, id_end: int, letters: _Letters
) -> tuple[int, int] | None:
    if (id_start == 0 or text[id_start - 1] == "\n") and (
        id_end == len(text) or text[id_end] == "\n"
    ):
        return None  # the id is its line (a JSON field's value): nothing beside it
    # Look no further than 300 characters either way: on a single-line JSON output with
    # thousands of ids, scanning to the line's ends would make this quadratic.
    window_start = max(0, id_start - 300)
    line_start = text.rfind("\n", window_start, id_start) + 1 or window_start
    window_end = min(len(text), id_end + 300)
    line_end = text.find("\n", id_end, window_end)
    line_end = window_end if line_end == -1 else line_end
    letter = letters.first(line_start, line_end)
    if letter is None or (id_start <= letter < id_end and letters.first(id_end, line_end) is None):
        return None  # no letter either side, so no word: a run of ids (a DOI flood: 1 µs each)
    # Step back over a prefix glued to the id ("arXiv:", a URL): to just after the last stop
    # character of the line before it (one C search per stop character, not a Python step
    # per character: a 1 MB line of glued ids made that 300 steps an id).
    prefix_start = id_start - _trailing(_GLUED, text, line_start, id_start)
    seg_start = max(line_start, prefix_start - 300)
    before = text[seg_start:prefix_start]
    cut = max(before.rfind(". "), before.rfind("; "), _citation_paren_end(before))
    b_start = seg_start + (cut + 2 if cut != -1 else 0)
    # Stop at quotes, brackets, emphasis: other candidates' territory.
    b_start = prefix_start - _trailing(_NOT_MARKUP, text, b_start, prefix_start)
    b_end = prefix_start
    opened = text.rfind("(", b_start, b_end)
    if opened != -1 and ")" not in text[opened:b_end]:
        b_end = opened  # "Title (PMID: 123": what follows an open parenthesis is a label
    while b_end > b_start and text[b_end - 1] in _CONNECTORS:
        b_end -= 1
    lead = _LEADING_WORDS.match(text, b_start, b_end)
    if lead is not None:
        b_start = lead.end()
    noise = _LEADING_NOISE.match(text, b_start, b_end)
    if noise is not None:
        b_start = noise.end()  # "2025-11-13 Title http://…": the date is the listing's
    if _words_at_least(text, 2, b_start, b_end):
        return b_start, b_end
    a_end = min(line_end, id_end + 300)
    stop = text.find(". ", id_end, a_end)
    a_end = a_end if stop == -1 else stop
    a_start = id_end
    while a_start < a_end and (text[a_start] in _CONNECTORS or text[a_start] in ")]}"):
        a_start += 1
    lead = _LEADING_WORDS.match(text, a_start, a_end)
    if lead is not None:
        a_start = lead.end()
    mark = _MARKUP_CHAR.search(text, a_start, a_end)
    if mark is not None:
        a_end = mark.start()
    if _words_at_least(text, 2, a_start, a_end):
        return a_start, a_end
    return None


_LETTER = re.compile(r"[^\W\d_]")
"""What every word of :data:`_WORD` starts with."""


def _words_at_least(text: str, count: int, start: int = 0, end: int | None = None) -> bool:
    """``title_words(text[start:end]) >= count``, stopping at the ``count``-th word (the word
    pattern looks neither behind nor ahead, so searching inside the bounds is searching the
    slice)."""
    end = len(text) if end is None else end
    for _ in range(count):
        word = _WORD.search(text, start, end)
        if word is None:
            return False
        start = word.end()
    return True
