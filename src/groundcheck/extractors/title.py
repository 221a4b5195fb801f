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

__all__ = [
    "DEFAULT_STOP_PHRASES",
    "TITLE",
    "TitleExtractor",
    "adjacent_title",
    "main_title",
    "normalize_title",
    "title_words",
]

SCHEME = TITLE_SCHEME
TITLE = Scheme(TITLE_SCHEME, "title", "")

_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?\s*")
_NOT_WORD = re.compile(r"[^\w]+")
_SUBTITLE = re.compile(r"\s*(?::|\s[-–—]\s)\s*")


def normalize_title(title: str) -> str:
    r"""The comparison form of a title: case, Unicode, LaTeX, HTML, punctuation and spacing.

    ``{BERT}: Pre-training of \emph{Deep} Bidirectional Transformers`` and
    ``bert pre training of deep bidirectional transformers`` normalise to the same string.

    >>> normalize_title(r"{BERT}: Pre-training of \emph{Deep} Bidirectional Transformers")
    'bert pre training of deep bidirectional transformers'
    """
    text = html.unescape(title)
    text = unicodedata.normalize("NFKC", text)
    text = _LATEX_COMMAND.sub(" ", text).replace("{", "").replace("}", "")
    text = text.casefold()
    return " ".join(_NOT_WORD.sub(" ", text).replace("_", " ").split())


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
_ID_LIKE = re.compile(r"(?i:arxiv)|\d{4}\.\d{4,5}|10\.\d{4,9}/|/\d{7}|https?://|www\.")
"""Anything that makes a phrase an identifier or a link rather than a title. Every branch is
anchored on a fixed-width head, so a long run of letters cannot make it backtrack."""
_ET_AL = re.compile(r"(?i)\bet\s+al\b")
_AUTHOR_YEAR = re.compile(r"\(\s*(?:19|20)\d{2}[a-z]?\b")
"""'Ho, Jain & Abbeel (2020': an author-year citation, not a title."""
_AUTHORS = re.compile(r"^(?:[A-Z][\w'’-]+,?\s+(?:[A-Z]\.\s*)+,?\s*(?:and\s+|&\s+)?)+$")

# Every pattern below starts with a literal character, so the regex engine jumps between
# occurrences of it instead of trying each position; each runs only if its character occurs.
_QUOTES = tuple(
    (
        opener,
        re.compile(re.escape(opener) + rf"([^{re.escape(closer)}\n]{{6,400}}){re.escape(closer)}"),
    )
    for opener, closer in (('"', '"'), ("“", "”"), ("‘", "’"), ("«", "»"))
)
_EMPHASIS = tuple(
    (mark, re.compile(re.escape(mark) + rf"(?=[^\s{mark[0]}])([^{mark[0]}\n]{{6,400}}?)(?<=\S)"
                      + re.escape(mark) + rf"(?![{mark[0]}\w])"))
    for mark in ("**", "__", "*", "_")
)  # fmt: skip
_LINK = re.compile(r"\[([^\[\]\n]{6,400})\]\(")
_HEADING = re.compile(r"#{1,6}[ \t]+([^\n]*[^\s#])")
_BIB_TITLE = re.compile(r"(?i)\btitle\s*=\s*([{\"])")
_LINE_START = re.compile(r"\n[ \t]*(?=[\[0-9*+•-])")
_LIST_ITEM = re.compile(r"[ \t]*(?:\[\d{1,4}\]|\d{1,4}[.)]|[-*+•])[ \t]+([^\n]+)")
_SEGMENT_END = re.compile(r"(?<=[.?!])\s+(?=[\"“(A-Z0-9]|(?i:arxiv|doi|https?:))")
_YEAR = re.compile(r"\(\d{4}[a-z]?\)|\b(?:19|20)\d{2}\b")
_TRIM = " \t\r\n.,;:!*_\"'“”‘’«»()[]—–-"


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
        if len(text) > self.max_chars or sum(map(str.isalpha, text)) < len(text) // 2:
            return None
        if title_words(text) < self.min_words:
            return None
        if (
            _ET_AL.search(text)
            or _ID_LIKE.search(text)
            or _AUTHORS.match(text)
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
        """
        found: dict[tuple[int, int], Mention] = {}  # first kind wins: most specific first

        def add(start: int, end: int, kind: str) -> None:
            mention = self._mention(text, start, end, kind)
            if mention is not None:
                found.setdefault((mention.start, mention.end), mention)

        if "itle" in text or "ITLE" in text:
            closers = _Closers(text)
            for m in _bib_titles(text):
                end = closers.closing(m.end(), m.group(1))
                if end is not None:
                    add(m.end(), end, "bibtex")
        for start in self._line_starts(text):
            item = _LIST_ITEM.match(text, start)
            if item is None:
                continue
            body = item.group(1)
            if _ID_LIKE.search(body) or _YEAR.search(body):
                for seg_start, seg_end in _segments(body, item.start(1)):
                    if any(q in text[seg_start:seg_end] for q in _QUOTE_CHARS):
                        continue  # a quoted title inside: the quoted rule takes it exactly
                    before_count = len(found)
                    add(seg_start, seg_end, "reference")
                    if len(found) > before_count:
                        break
        for opener, pattern in _QUOTES:
            if opener in text:
                for m in pattern.finditer(text):
                    add(m.start(1), m.end(1), "quoted")
        for mark, pattern in _EMPHASIS:
            if mark in text:
                for m in pattern.finditer(text):
                    before = text[m.start() - 1] if m.start() else ""
                    if before != mark[0] and not before.isalnum():
                        add(m.start(1), m.end(1), "emphasis")
        if "](" in text:
            for m in _LINK.finditer(text):
                add(m.start(1), m.end(1), "link")
        if "#" in text:
            for m in _HEADING.finditer(text):
                line_start = text.rfind("\n", max(0, m.start() - 4), m.start()) + 1
                at_line_start = line_start > 0 or m.start() <= 3
                if (
                    at_line_start
                    and not text[line_start : m.start()].strip(" \t")
                    and (m.start() == 0 or text[m.start() - 1] != "#")
                ):
                    add(m.start(1), m.end(1), "heading")
        for ident in identifiers:
            if ident.malformed is None and ident.identifier.scheme != SCHEME:
                span = adjacent_title(text, ident.start, ident.end)
                if span is not None:
                    add(span[0], span[1], "adjacent")
        return iter(sorted(found.values(), key=lambda x: (x.start, x.end)))

    @staticmethod
    def _line_starts(text: str) -> Iterator[int]:
        """Starts of lines that might be list items (a marker after optional blanks)."""
        if text[:1] in ("[", "*", "+", "-", "•", " ", "\t") or text[:1].isdigit():
            yield 0
        for m in _LINE_START.finditer(text):
            yield m.start() + 1


def _bib_titles(text: str) -> Iterator[re.Match[str]]:
    """``title = {`` / ``title = "`` openers in text order (found where ``title`` occurs)."""
    return word_matches(text, _BIB_TITLE, ("title",))


_BRACE = re.compile(r"[{}]")
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


def _segments(item: str, offset: int) -> Iterator[tuple[int, int]]:
    """Sentence-like pieces of a reference entry ("Authors. Title. Venue."), with offsets."""
    start = 0
    for m in _SEGMENT_END.finditer(item):
        yield offset + start, offset + m.start()
        start = m.end()
    yield offset + start, offset + len(item)


_CONNECTORS = frozenset(" \t([{—–:,;-")
_PREFIX_STOP = frozenset(" \t([{<\"'“”‘’,;|`")
_PREFIX_STOPS = tuple(sorted(_PREFIX_STOP))
"""Where a prefix glued to an id ends: quotes and commas too, so that in packed JSON
('..."title":"X","url":"https://arxiv.org/abs/ID"') the glued run is the URL alone."""
_QUOTE_CHARS = ('"', "“", "”", "«", "»")
_LEADING_WORDS = re.compile(r"(?i)\s*(?:(?:and|or|see|also|cf|in|by|from|e\.g|i\.e)\b[.,]?\s*)+")
_MARKUP = ('"', "“", "”", "[", "]", "{", "}", "=", "*", "_", "`", "|")


def adjacent_title(text: str, id_start: int, id_end: int) -> tuple[int, int] | None:
    """The span of text beside an identifier on its line: before it, else after it.

    "Switch Transformers: Scaling ... (arXiv:2101.03961)" -> the words before; in a tool's
    "2101.03961 Switch Transformers: ..." line, the words after. Bounded by the line, by
    sentence ends and by 300 characters, so a paragraph is never taken for a title.
    """
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
    # Step back over a prefix glued to the id ("arXiv:", a URL): to just after the last stop
    # character of the line before it (one C search per stop character, not a Python step
    # per character: a 1 MB line of glued ids made that 300 steps an id).
    stop = max(text.rfind(ch, line_start, id_start) for ch in _PREFIX_STOPS)
    prefix_start = stop + 1 if stop != -1 else line_start
    seg_start = max(line_start, prefix_start - 300)
    before = text[seg_start:prefix_start]
    cut = max(before.rfind(". "), before.rfind(") "), before.rfind("; "))
    b_start = seg_start + (cut + 2 if cut != -1 else 0)
    for mark in _MARKUP:  # stop at quotes, brackets, emphasis: other candidates' territory
        at = text.rfind(mark, b_start, prefix_start)
        if at != -1:
            b_start = at + 1
    b_end = prefix_start
    opened = text.rfind("(", b_start, b_end)
    if opened != -1 and ")" not in text[opened:b_end]:
        b_end = opened  # "Title (PMID: 123": what follows an open parenthesis is a label
    while b_end > b_start and text[b_end - 1] in _CONNECTORS:
        b_end -= 1
    lead = _LEADING_WORDS.match(text, b_start, b_end)
    if lead is not None:
        b_start = lead.end()
    if title_words(text[b_start:b_end]) >= 2:
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
    for mark in _MARKUP:
        at = text.find(mark, a_start, a_end)
        if at != -1:
            a_end = at
    if title_words(text[a_start:a_end]) >= 2:
        return a_start, a_end
    return None
