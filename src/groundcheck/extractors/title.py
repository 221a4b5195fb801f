"""Paper titles written in a report: quoted, emphasised, linked, in headings, in reference
lists and BibTeX fields, and beside a cited identifier.

A title is not an identifier: it is written loosely, and many phrases look like one. So the
extractor is strict about what a title looks like (at least ``min_words`` words with letters,
no "et al.", no URL or identifier inside, not a stop phrase such as "Related Work"), records
*how* each candidate was written (``Mention.kind``), and leaves to the checks how much to
trust it. Each candidate's identifier is ``title:<normalised title>``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from groundcheck.errors import ConfigError
from groundcheck.extractors.arxiv import find_arxiv, find_arxiv_legacy
from groundcheck.extractors.doi import find_doi
from groundcheck.extractors.hints import is_long, needle_positions, word_matches
from groundcheck.model import TITLE_SCHEME, Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

if TYPE_CHECKING:
    from groundcheck.document.report import Document

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
_SUBTITLE = re.compile(r"\s*(?::|\s[-–—]\s)\s*")
_ALNUM = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_SPACE_NOT_ALNUM = bytes(c if c in _ALNUM else 32 for c in range(256))


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
    if "&" not in title and "\\" not in title and "{" not in title and "}" not in title:
        # Nothing to unescape, compose or strip, and casefold is lower: the same, sooner.
        return _plain_words(lowered)
    return _normalize_any(title)


def _normalize_any(title: str) -> str:
    if "&" in title:  # (html.entities is ~0.7 ms of a start-up: imported when an entity may be)
        from html import unescape

        title = unescape(title)
    text = title
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
_ET_AL = re.compile(r"(?i)\bet\s+al\b")
_ET_AL_LOWER = re.compile(r"et(?<=\bet)\s+al\b")
"""``_ET_AL`` for an ASCII text lowered: opening with a literal, the search skips to each "et"
(the word boundary before it is asked after, looking back)."""
_DOI_HEAD = re.compile(r"10\.\d{4,9}/")


def _id_like_ascii(text: str, data: bytes, folded: bytes) -> bool:
    """Whether ``_ID_LIKE`` would find something in the ASCII ``text`` (``data`` is its bytes,
    ``folded`` those lower-cased with every other character than a letter or digit a space):
    each branch is asked alone, only where the literals it needs occur, and the digit runs by
    a substring search on the text with every digit made ``0``."""
    if folded.find(b"arxiv") != -1:
        return True
    dot = "." in text
    slash = "/" in text
    if not (dot or slash):
        return False
    if dot and "www." in text:
        return True
    if slash and "://" in text and ("http://" in text or "https://" in text):
        return True
    digits = data.translate(_ZERO_DIGITS)
    if (dot and digits.find(b"0000.0000") != -1) or (slash and digits.find(b"/0000000") != -1):
        return True
    return dot and slash and "10." in text and _DOI_HEAD.search(text) is not None


_ZERO_DIGITS = bytes(48 if 48 <= c <= 57 else c for c in range(256))
"""A byte table that makes every ASCII digit ``0``: ``\\d{4}\\.\\d{4}`` occurs in an ASCII
text where ``0000.0000`` occurs in its translation."""
_LOWER_ALNUM = bytes(
    c + 32 if 65 <= c <= 90 else c if 48 <= c <= 57 or 97 <= c <= 122 else 32 for c in range(256)
)
"""A byte table: ASCII letters lower-cased, digits kept, every other byte a space. Its
``split`` is :func:`_plain_words`' (``_TOKEN``'s words of the lower-cased text)."""


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
_MENTION = Mention._trusted
_IDENTIFIER = Identifier._trusted


def _links(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the link texts ``_LINK.finditer`` finds (``[text](``), in order.

    In a long text each is found from its ``](``, by the shared SIMD literal search (see
    :func:`needle_positions`: ~0.3 ms per 10 MiB, on the lower-cased copy the other
    extractors made already), where the regex engine's search for ``](`` took ~2.7 ms (one
    tenth of the whole title stage on the benchmark's prose, which holds no link). The link
    text is what lies between the last ``[`` before it and it, when that holds no bracket or
    line break and is 6 to 400 characters long: the pattern's text can hold no bracket, so
    that ``[`` is the only one it can open with. Two matches cannot overlap (each holds its
    own ``[`` and ``](``), so these are the spans ``finditer`` gives.
    """
    if "]" not in text:
        return
    if not is_long(text):
        for m in _LINK.finditer(text):
            yield m.start(1), m.end(1)
        return
    for end in needle_positions(text, "]("):
        opened = text.rfind("[", end - 401 if end > 401 else 0, end)
        if (
            opened != -1
            and end - opened > 6
            and text.find("]", opened, end) == -1
            and text.find("\n", opened, end) == -1
        ):
            yield opened + 1, end


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
            # The same tests on the text's bytes: in ASCII text, case-insensitive letters are
            # ASCII letters only, and a byte translation or a substring search costs a
            # fraction of a regex call. Each regex left runs only where its literals occur.
            # (A substring is asked for by ``find``: ``in`` on bytes first tries its operand
            # as an int, raising and clearing a TypeError, ~4% of the stage's instructions.)
            data = text.encode("ascii")
            marks = data.translate(_WORD_MARKS)
            if marks.count(b"a") < size // 2:
                return None  # fewer letters than half the text
            folded = data.translate(_LOWER_ALNUM)
            if _id_like_ascii(text, data, folded):
                return None
            if not _marked_words_at_least(marks, self.min_words):
                return None
            # The words, lowered, one space apart: the normal form, unless there is something
            # to unescape or strip; "et al" occurs in it wherever _ET_AL_LOWER can match.
            joined = b" ".join(folded.split())
            if joined.find(b"et al") != -1 and _ET_AL_LOWER.search(text.lower()):
                return None
            if (
                "A" <= text[:1] <= "Z"
                and (
                    ("." in text and _AUTHORS.match(text))
                    or (("19" in text or "20" in text) and _NAMES_YEAR.match(text))
                )
            ) or ("(" in text and _AUTHOR_YEAR.search(text)):
                return None  # (an author list has initials; the names-year form, a year)
            if "&" in text or "\\" in text or "{" in text or "}" in text:
                normalized = _normalize_any(text)
            else:  # nothing to unescape, compose or strip: the letters and digits, lowered
                normalized = joined.decode("ascii")
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
        if candidate.endswith("(") and candidate.count("(") != candidate.count(")"):
            return None
        if raw.startswith(")", right) and candidate.count("(") > candidate.count(")"):
            right += 1  # "… Language Models (HELM)": the parenthesis closes inside the title
            candidate = raw[left:right]
        normalized = self._normalized_if_title(candidate)
        if normalized is None:
            return None
        # Made without validators: the id is non-empty, and 0 <= start + left < start + right.
        identifier = _IDENTIFIER(SCHEME, normalized)
        return _MENTION(identifier, start + left, start + right, None, (), kind)

    def _beside(
        self,
        text: str,
        idents: list[Mention],
        document: Document,
        found: dict[tuple[int, int], Mention],
    ) -> None:
        """Add the titles beside ``idents`` to ``found`` (``add`` of :meth:`find_beside` for
        the kind ``adjacent``, written out: a text holds thousands of ids)."""
        beside: set[tuple[int, int]] = set()  # ids side by side name one span: judged once
        # An id inside another that ends where it ends (the arXiv id of a DOI URL, a DOI and
        # its URL: a quarter of the ids of a report) has the span the other has, found
        # without reading it again (see _same_beside): id end -> (id start, its reach).
        shared: dict[int, tuple[int, int]] = {}
        n = len(text)
        in_code = document.in_code if document.code else None
        mention_of = self._mention
        # text[free_start:free_end] holds no letter: an id whose 300 characters either side lie
        # inside it has no word beside it (a run of ids, such as a DOI flood), and is passed
        # over in a few steps. The stretch grows by one search per _LOOK_AHEAD characters at
        # least, and starts anew where an id's window overlaps the last one looked at (ids
        # packed close) and opens with no letter: an id in prose costs no search.
        free_start = free_end = last_end = 0
        for ident in idents:
            if ident.malformed is None:
                start, end = ident.start, ident.end
                known = shared.get(end)
                if known is not None and _same_beside(text, known, start, end):
                    continue  # the span of an id it shares its end with: judged already
                low = start - 300 if start > 300 else 0
                high = end + 300 if end + 300 < n else n
                if free_start <= low and high <= free_end:
                    continue
                inside = free_start <= low <= free_end
                if inside or (low < last_end and not text[low : low + 1].isalpha()):
                    if not inside:
                        free_start = free_end = low
                    stop = free_end + _LOOK_AHEAD
                    stop = min(n, high if high > stop else stop)
                    m = _LETTER.search(text, free_end, stop)
                    free_end = stop if m is None else m.start()
                    if high <= free_end:
                        continue
                last_end = high
                span, reach = _adjacent(text, start, end)
                if reach is not None:
                    shared[end] = (start, reach)
                if span is None or span in beside:
                    continue
                beside.add(span)
                if in_code is not None and in_code(span[0]):
                    continue
                mention = mention_of(text, span[0], span[1], "adjacent")
                if mention is not None:
                    found.setdefault((mention.start, mention.end), mention)

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
        # The blocks are read as columns (document.blocks.Blocks), by kind: a flood of
        # 250,000 headings makes no Block object.
        headings: dict[str, tuple[int, Mention | None]] = {}
        bodies, ends, levels = blocks.bodies, blocks.ends, blocks.levels
        for i in blocks.indices(HEADING):
            if levels[i] < LABEL_LEVEL:
                shift = bodies[i]
                body = text[shift : ends[i]]
                known = headings.get(body)
                if known is None:
                    at, stop = heading_title(body, 0, len(body))
                    known = headings[body] = (at, self._mention(body, at, stop, "heading"))
                at, mention = known
                if mention is None or (code and document.in_code(shift + at)):
                    continue
                mention = Mention(
                    mention.identifier, mention.start + shift, mention.end + shift, kind="heading"
                )
                found.setdefault((mention.start, mention.end), mention)
        for opener, closer, pattern in _QUOTES:
            for start, end in _quoted(text, opener, closer, pattern):
                add(start, end, "quoted")
        for start, end in _links(text):
            add(start, end, "link")
        for mark, pattern in _EMPHASIS:
            if mark[0] in text and mark in text:
                for m in pattern.finditer(text):
                    before = text[m.start() - 1] if m.start() else ""
                    if before == mark[0] or before.isalnum():
                        continue
                    if text.startswith(":", m.end()) or m.group(1).rstrip().endswith(":"):
                        continue  # "**Contribution**: …" is a label
                    add(m.start(1), m.end(1), "emphasis")
        for i in blocks.indices(CELL):
            if levels[i] == 0:
                add(bodies[i], ends[i], "cell")
        self._beside(text, idents, document, found)
        # By (start, end): the keys, each one mention's span (no key function to call).
        return iter([found[span] for span in sorted(found)])


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
_MARKUP_CHAR = re.compile("[" + re.escape("".join(_MARKUP_CHARS)) + "]")
_CONNECTOR_CHARS = "".join(sorted(_CONNECTORS))
_BEFORE = re.compile(
    "([^" + re.escape("".join(_PREFIX_STOPS)) + "\\n]*)"
    "[^" + re.escape("".join(_MARKUP_CHARS)) + "\\n]*"
)
"""What stands before an id, read backwards (on the reversed run) in one match: group 1 is
the prefix glued to the id ("arXiv:", a URL), back to the last stop character; the match runs
on to the last markup character (quotes, brackets, emphasis: other candidates' territory) or
the line's start. Both parts are one tight loop of the regex engine each."""
_STOP_OR_BREAK = re.compile("[" + re.escape("".join(_PREFIX_STOPS)) + "\\n]")
"""A character that ends the run glued to an id (what group 1 of :data:`_BEFORE` stops at)."""


_LEADING_WORDS = re.compile(r"(?i)\s*(?:(?:and|or|see|also|cf|in|by|from|e\.g|i\.e)\b[.,]?\s*)+")
_LEADING_NOISE = re.compile(
    r"[ \t]*(?:\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?|\d{1,4}[.)]|\[\d{1,4}\]"
    r"|#{1,6}|[-+•‣▪◦])[ \t]+"
)
"""A date or a number a listing puts before each title, a heading's ``###`` or a bullet:
never part of the title."""
_LEADING_WORDS_NOISE = re.compile(
    "(?:(?i:" + _LEADING_WORDS.pattern.removeprefix("(?i)") + "))?"
    "(?:" + _LEADING_NOISE.pattern + ")?"
)
"""``_LEADING_WORDS`` then ``_LEADING_NOISE`` where the words end, in one match: each part is
optional and what follows it always matches, so the first part's match is its own."""
_MAY_LEAD = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f aAoOsScCiIbBfFeE0123456789[#-+")
"""The ASCII characters either part can open with (white space; the first letters of the
leading words, either case; a digit, ``[``, ``#`` or a bullet): from any other, it matches
nothing."""
_MAY_LEAD_NOT_LETTER = frozenset(c for c in _MAY_LEAD if not c.isalpha())
_LEADING_PAIRS = frozenset({"an", "or", "se", "al", "cf", "in", "by", "fr", "e.", "i."})
"""The first two characters, lower-cased, of each leading word: from an ASCII letter, the
match is empty unless the text opens with one of them (the one character ``(?i)`` matches
to an ASCII letter of these from outside ASCII, ``ſ`` or ``ı``, would open the text, so
that text takes the match). Asked before the regex: a set lookup is a tenth of its cost."""


def _citation_paren_end(text: str, seg_start: int, after: int, at: int) -> tuple[int, int]:
    """Where the last ``(…) `` holding a citation (a digit or a colon) ends in
    ``text[seg_start:end]``, if that is at ``after`` or later, else -1, given ``at``, the last
    ``) `` there: "(arXiv:X) Next title" ends a segment, "Models (LLMs) from …" does not. (A cut
    found earlier bounds ``after``: a parenthesis before it could not be the last cut.)

    Second, the leftmost ``(`` it read, or -1 when a search for one found none: only then
    does the answer depend on how far back ``seg_start`` lies (see :func:`_same_beside`)."""
    reach = at
    while at != -1:
        opened = text.rfind("(", seg_start, at)
        if opened == -1:
            return at, -1
        reach = opened
        inside = text[opened:at]
        if ":" in inside or any(map(str.isdigit, inside)):
            return at, reach
        at = text.rfind(") ", after, opened)
    return -1, reach


def adjacent_title(text: str, id_start: int, id_end: int) -> tuple[int, int] | None:
    """The span of text beside an identifier on its line: before it, else after it.

    "Switch Transformers: Scaling ... (arXiv:2101.03961)" -> the words before; in a tool's
    "2101.03961 Switch Transformers: ..." line, the words after. Bounded by the line, by
    sentence ends and by 300 characters, so a paragraph is never taken for a title.
    """
    return _adjacent_title(text, id_start, id_end)


_LOOK_AHEAD = 4096
"""How far the search for a letter-free stretch looks past the window it was asked about."""


def _adjacent_title(text: str, id_start: int, id_end: int) -> tuple[int, int] | None:
    return _adjacent(text, id_start, id_end)[0]


def _same_beside(text: str, known: tuple[int, int], id_start: int, id_end: int) -> bool:
    """Whether the id at ``text[id_start:id_end]`` has the span beside it that an id ending at
    the same place had, ``known`` being that id's start and the ``reach`` :func:`_adjacent`
    returned for it.

    The span depends on the id's start only through the window's start (300 characters
    before it): the ". " and "; " cuts are searched from there, the citation parenthesis's
    ``(`` back to the line's start or the window's, and the glued run from the id. When no
    stop character or line break lies between the two starts (one id's text runs into the
    other's, as ``https://doi.org/10.48550/arXiv.2102.44339`` into its arXiv id), no cut and
    no end of the glued run lies there either, so the runs end alike; and when what bounded
    the known run (its cut, or the markup character it stopped at) and each ``(`` it read
    lie at or after the later window's start (``reach``), the other search finds the same:
    a cut there is the last of both windows, and a run stopped there stops there in both
    (a later cut of either window is one of both, and a cut of the outer window alone ends
    at most one character past that start, where the run ends anyway). What follows the id
    is the same for both.
    """
    other, reach = known
    if id_start == other:
        return True
    inner = id_start if id_start > other else other
    window = inner - 300 if inner > 300 else 0
    if window and reach < window:
        return False  # something the known search found (or missed) lies before this window
    if (
        id_start < other
        and (id_start == 0 or text[id_start - 1] == "\n")
        and (id_end == len(text) or text[id_end] == "\n")
    ):
        return False  # the outer id is its line: none beside it (the inner has a run)
    return _STOP_OR_BREAK.search(text, id_start if id_start < other else other, inner) is None


def _adjacent(text: str, id_start: int, id_end: int) -> tuple[tuple[int, int] | None, int | None]:
    """:func:`adjacent_title`, and how far back what its search before the id found lies,
    for the ids that share its end (``reach``, see :func:`_same_beside`; None: the id is its
    line, and none shares its span)."""
    # The pipeline asks this once per identifier of every text it reads, so the run before
    # the id is read by one regex over its reversed window (see :data:`_BEFORE`) and the rest
    # works on one copied slice of it, bounded by offsets.
    n = len(text)
    if (id_start == 0 or text[id_start - 1] == "\n") and (id_end == n or text[id_end] == "\n"):
        return None, None  # the id is its line (a JSON field's value): nothing beside it
    # Look no further than 300 characters either way: on a single-line JSON output with
    # thousands of ids, scanning to the line's ends would make this quadratic.
    window_start = id_start - 300 if id_start > 300 else 0
    # The last ". " and "; " before the id (a substring search each): what comes before them
    # is never the title. (Neither can be inside the prefix glued to the id: a space ends it.)
    cut = text.rfind(". ", window_start, id_start)
    low = window_start if cut == -1 else cut + 2
    cut = text.rfind("; ", low, id_start)
    if cut != -1:
        low = cut + 2
    # Then back from the id, one match over the reversed run: the prefix glued to the id,
    # then the run to the last markup character or the line's start (see :data:`_BEFORE`).
    back = text[id_start - 1 : low - 1 if low else None : -1] if id_start > low else ""
    m = _BEFORE.match(back)
    b_start = id_start - m.end()  # type: ignore[union-attr]
    b_end = id_start - m.end(1)  # type: ignore[union-attr]
    # How far back what bounds the run lies, for the ids sharing its end (see _same_beside):
    # the cut that set low (below the window's start if there was none), or the markup
    # character or line break the run stopped at, whichever is later.
    reach = low - 2
    if b_start > low and b_start - 1 > reach:
        reach = b_start - 1
    paren = text.rfind(") ", b_start, b_end)
    if paren != -1:  # "(arXiv:X) Next title": a citation parenthesis ends the run too
        line_start = text.rfind("\n", window_start, id_start) + 1 or window_start
        paren, opened = _citation_paren_end(text, line_start, b_start, paren)
        reach = min(reach, opened)
        if paren != -1:
            b_start = paren + 2
    body = text[b_start:b_end]
    opened = body.rfind("(")
    if opened != -1 and body.find(")", opened) == -1:
        body = body[:opened]  # "Title (PMID: 123": what follows an open parenthesis is a label
    body = body.rstrip(_CONNECTOR_CHARS)
    # "and", "see" …, then a date, a number or a bullet a listing puts before its titles
    # ("2025-11-13 Title http://…"): never part of the title. Both parts open after a run of
    # blanks (of " \t" at least), so the test of their first characters is asked there.
    head = body.lstrip(" \t")
    if head and (
        head[0] in _MAY_LEAD_NOT_LETTER
        or not head[0].isascii()
        or head[:2].lower() in _LEADING_PAIRS
    ):
        lead = _LEADING_WORDS_NOISE.match(body).end()  # type: ignore[union-attr]
        if lead:
            body = body[lead:]
            b_start += lead
    if _has_two_words(body):
        return (b_start, b_start + len(body)), reach
    window_end = id_end + 300 if id_end + 300 < n else n
    a_end = text.find("\n", id_end, window_end)
    if a_end == -1:
        a_end = window_end
    stop = text.find(". ", id_end, a_end)
    if stop != -1:
        a_end = stop
    a_start = id_end
    while a_start < a_end and (text[a_start] in _CONNECTORS or text[a_start] in ")]}"):
        a_start += 1
    lead_match = _LEADING_WORDS.match(text, a_start, a_end)
    if lead_match is not None:
        a_start = lead_match.end()
    mark = _MARKUP_CHAR.search(text, a_start, a_end)
    if mark is not None:
        a_end = mark.start()
    if _TWO_WORDS.match(text, a_start, a_end) is not None:
        return (a_start, a_end), reach
    return None, reach


_LETTER = re.compile(r"[^\W\d_]")
"""What every word of :data:`_WORD` starts with."""


def _words_at_least(text: str, count: int, start: int = 0, end: int | None = None) -> bool:
    """``title_words(text[start:end]) >= count``, in one anchored match (see
    :func:`_words_pattern`)."""
    return _words_pattern(count).match(text, start, len(text) if end is None else end) is not None


_WORDS_PATTERNS: dict[int, re.Pattern[str]] = {}


def _words_pattern(count: int) -> re.Pattern[str]:
    """A pattern that matches at a text's start when :data:`_WORD` finds ``count`` words in it.

    Each word is what ``_WORD.search`` finds next: non-letters skipped, a letter, the run of
    word characters after it. The lookahead makes that run the longest, as the word pattern's
    is (no shorter run can be taken for a word and a letter after it for the next), so failing
    costs one step back per character: one C match, not one search and a Python step per word.
    """
    pattern = _WORDS_PATTERNS.get(count)
    if pattern is None:
        pattern = _WORDS_PATTERNS[count] = re.compile(
            rf"(?:[\W\d_]*[^\W\d_][\w'’-]*(?![\w'’-])){{{count}}}"
        )
    return pattern


_TWO_WORDS = _words_pattern(2)

_WORD_MARKS = bytes(
    97 if c < 128 and chr(c).isalpha() else 48 if chr(c) in "0123456789_'-" else 32
    for c in range(256)
)
"""A byte table for an ASCII text's words (what :data:`_WORD` finds): a letter becomes ``a``,
a word character that is not a letter (digit, ``_``, ``'``, ``-``) ``0``, anything else a
space. A word is a letter and the run of word characters after it, so each run of word
characters holding a letter is one word: with the ``0`` deleted, ``split`` finds exactly
those runs' letters, apart. The letters are counted by one ``count`` of the same bytes.
(Translating and deleting in one call builds a 256-entry table each time: ~1,000 machine
instructions, several times the translation of a title.)"""


def _marked_words_at_least(marks: bytes, count: int) -> bool:
    """``title_words(text) >= count`` for the ASCII ``text`` whose bytes translated by
    :data:`_WORD_MARKS` are ``marks`` (a split that stops after ``count`` words, where the
    regex costs several times more)."""
    return len(marks.replace(b"0", b"").split(None, count - 1)) >= count


def _has_two_words(text: str) -> bool:
    """Whether :data:`_WORD` finds two words in ``text``."""
    if text.isascii():
        return _marked_words_at_least(text.encode("ascii").translate(_WORD_MARKS), 2)
    return _TWO_WORDS.match(text) is not None
