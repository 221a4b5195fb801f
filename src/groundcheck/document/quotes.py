"""Quoted passages in a report: what it presents as the exact words of a source.

A passage is quoted when it stands between double quotation marks (``"…"``, ``“…”``, ``„…“``,
``«…»``) within one paragraph, or in a Markdown block quote (``>`` lines, with their lazy
continuation lines). Not every quotation is a claim about a source's words, so these are left
to other checks or to nobody, each with a reason (:attr:`QuotedPassage.skip`):

- ``short``: fewer words than ``min_words`` (scare quotes, a term, a phrase);
- ``title``: a title, handled as one (Title Case, a quoted entry in a reference list, after
  *titled*/*called*, in a heading);
- ``query``: the agent's own search, written as such (*searched for "…"*, *the query "…"*);
- ``question``: a question (usually the research question of the task, not a source's words);
- ``callout``: a block quote used as a box (``> [!NOTE]``, ``> **Key finding:** …``);
- ``code``: inside a code span or block (never a quotation).

Pairing is one left-to-right pass over the quotation marks; block quotes are one pass over the
lines that start with ``>``. Both are linear in the text, whatever its quotation marks.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence

from attrs import frozen

from groundcheck.text import fold, locate

__all__ = [
    "BLOCK",
    "INLINE",
    "QuotedPassage",
    "find_quotes",
    "quote_tokens",
    "quote_words",
    "scan_quotes",
]

INLINE = "inline"
BLOCK = "block"

_MARKUP = (
    ("<", re.compile(r"<[A-Za-z/!][^<>\n]{0,500}>")),  # an HTML tag
    ("](", re.compile(r"\]\([^()\s]{0,2000}\)")),  # a link destination: the words are in [...]
    ("[", re.compile(r"\[\^?\d{1,4}(?:[-\u2013,]\s?\d{1,4}){0,20}\]")),  # a marker [12], [^3]
)
"""What is not words in a text: each pattern starts with a literal (found by a fast search)."""
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_ASCII_PUNCTUATION = bytes.maketrans(
    bytes(c for c in range(128) if not chr(c).isalnum()),
    b" " * sum(1 for c in range(128) if not chr(c).isalnum()),
)
_CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
               (0xAC00, 0xD7AF))  # fmt: skip


def _word_char(ch: str, _cache: dict[str, str] = {}) -> str:  # noqa: B006 - deliberate memo
    """What a (folded, case-folded) non-ASCII character is in a word sequence: itself when it
    is a letter, digit or combining mark; a word of its own when it is CJK; else a space."""
    out = _cache.get(ch)
    if out is None:
        code = ord(ch)
        if any(lo <= code <= hi for lo, hi in _CJK_RANGES):
            out = f" {ch} "
        elif ch.isalnum() or unicodedata.category(ch)[0] == "M":
            out = ch
        else:
            out = " "
        if len(_cache) < 100_000:
            _cache[ch] = out
    return out


def quote_words(text: str) -> str:
    """The words a quotation is compared on, as one string: ``" w1 w2 … wn "``.

    The identifiers' view (:func:`groundcheck.text.fold`: the characters of
    :class:`~groundcheck.text.TextView`, after composing accents), case-folded, with HTML
    tags, Markdown link destinations and citation markers dropped; a word is a run of letters,
    digits and combining marks, and each CJK character is a word of its own. Punctuation,
    quotation-mark and dash styles and line breaks therefore never matter, and ``4.5`` is
    the two words ``4 5`` (so it still differs from ``45`` and from ``5.4``).

    >>> quote_words("It’s “state-of-the-art” — 4.5%[12] of 3 runs.")
    ' it s state of the art 4 5 of 3 runs '
    """
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    view = fold(text).casefold()
    for literal, pattern in _MARKUP:
        if literal in view:
            view = pattern.sub(" ", view)
    if not view.isascii():
        table = {ord(ch): _word_char(ch) for ch in set(view) if not ch.isascii()}
        view = _NON_ASCII.sub(lambda m: m.group().translate(table), view)
    words = view.encode("utf-8").translate(_ASCII_PUNCTUATION).split()
    return " " + b" ".join(words).decode("utf-8") + " " if words else " "


def quote_tokens(text: str) -> list[str]:
    """The words of :func:`quote_words`, as a list.

    >>> quote_tokens("Ｔｈｅ ﬁrst “word”\\nand the\\u200b next")
    ['the', 'first', 'word', 'and', 'the', 'next']
    """
    return quote_words(text).split()


@frozen
class QuotedPassage:
    """One quoted passage of a report, placed: ``report[start:end] == raw``.

    ``start``/``end`` span the words inside the quotation marks (for a block quote, its lines
    with their ``>`` markers). ``text`` is what the source must hold: the passage without block
    markers or a closing attribution line. ``skip`` says why it is not checked (None: it is).
    """

    start: int
    end: int
    raw: str
    text: str
    line: int
    column: int
    kind: str
    words: int
    skip: str | None = None


def find_quotes(
    text: str, *, code: Sequence[tuple[int, int]] = (), min_words: int = 6
) -> tuple[QuotedPassage, ...]:
    """The passages of ``text`` presented as a source's exact words (``skip`` is None).

    ``code`` are the sorted ``(start, end)`` spans of code (spans and blocks): quotation marks
    there are not quotations.

    >>> [q.text for q in find_quotes(
    ...     'It is "a remarkably robust result across all of the benchmarks", they say; '
    ...     'a "scare quote" is not, nor is "Attention Is All You Need For Everything".')]
    ['a remarkably robust result across all of the benchmarks']
    """
    return tuple(q for q in scan_quotes(text, code=code, min_words=min_words) if q.skip is None)


def scan_quotes(
    text: str, *, code: Sequence[tuple[int, int]] = (), min_words: int = 6
) -> Iterator[QuotedPassage]:
    """Every quoted passage, the skipped ones too (with their reason), in text order."""
    if not any(mark in text for mark in _MARKS) and ">" not in text:
        return
    code_spans = sorted(code)
    found: list[tuple[int, int, str, str, int, str | None]] = []
    claims: list[int] = []  # starts of inline quotations that are themselves checked claims
    for start, end, _ in _inline_spans(text, code_spans):
        content = text[start:end]
        words = len(quote_tokens(content))
        reason = _skip_reason(
            text, start, end, kind=INLINE, content=content, words=words, min_words=min_words
        )
        found.append((start, end, INLINE, content, words, reason))
        if reason != "short":
            claims.append(start)
    for start, end, content, callout in _block_spans(text, code_spans):
        # A block quote holding a quotation of its own says which words are quoted: those.
        # (A scare quote inside is part of the quoted text.)
        k = bisect_left(claims, start)
        if k < len(claims) and claims[k] < end:
            continue
        words = len(quote_tokens(content))
        reason = "callout" if callout else None
        reason = reason or _skip_reason(
            text, start, end, kind=BLOCK, content=content, words=words, min_words=min_words
        )
        found.append((start, end, BLOCK, content, words, reason))
    if not found:
        return
    found.sort(key=lambda s: (s[0], s[1]))
    places = locate(text, [s[0] for s in found])
    for (start, end, kind, content, words, reason), (line, column) in zip(
        found, places, strict=True
    ):
        yield QuotedPassage(start, end, text[start:end], content, line, column, kind, words, reason)


# -- inline quotations ------------------------------------------------------------------------

_MARKS = ('"', "\u201c", "\u201d", "\u201e", "\u00ab", "\u00bb")
_MARK_RE = re.compile('["\u201c\u201d\u201e\u00ab\u00bb]')
_CLOSERS = {
    '"': ('"', "\u201d"),
    "\u201c": ("\u201d", '"'),
    "\u201e": ("\u201c", "\u201d"),
    "\u00ab": ("\u00bb",),
}
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _in_spans(spans: Sequence[tuple[int, int]], pos: int, starts: list[int]) -> bool:
    k = bisect_right(starts, pos) - 1
    return k >= 0 and spans[k][0] <= pos < spans[k][1]


def _can_open(text: str, i: int) -> bool:
    """A straight ``"`` opens when it starts a word: not after a letter or digit, and not
    before white space (``12" screen`` and ``" word`` open nothing)."""
    before = text[i - 1] if i else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return not before.isalnum() and not after.isspace()


def _can_close(text: str, i: int) -> bool:
    before = text[i - 1] if i else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return not before.isspace() and not after.isalnum()


def _inline_spans(text: str, code: Sequence[tuple[int, int]]) -> Iterator[tuple[int, int, str]]:
    """(start, end, opener) of each quotation's content, one pass over the marks."""
    blanks = [m.start() for m in _BLANK_LINE.finditer(text)]
    code_starts = [s for s, _ in code]
    open_at = -1
    opener = ""
    nested = False
    next_blank = 0
    for m in _MARK_RE.finditer(text):
        i = m.start()
        mark = text[i]
        if code and _in_spans(code, i, code_starts):
            continue
        if open_at >= 0:
            while next_blank < len(blanks) and blanks[next_blank] < open_at:
                next_blank += 1
            if next_blank < len(blanks) and blanks[next_blank] < i:
                open_at = -1  # a quotation never runs past its paragraph
        if open_at < 0:
            if mark in _CLOSERS and (mark != '"' or _can_open(text, i)):
                open_at, opener, nested = i, mark, False
            continue
        if opener == '"' and mark == "\u201c":
            nested = True  # "… “inner” …": the inner pair is part of the quotation
            continue
        if nested and mark == "\u201d":
            nested = False
            continue
        if mark in _CLOSERS[opener] and (mark != '"' or _can_close(text, i)):
            yield open_at + 1, i, opener
            open_at = -1
        elif mark == opener and (mark != '"' or _can_open(text, i)):
            open_at, nested = i, False  # an opener left unclosed: start again here


# -- block quotes ------------------------------------------------------------------------------

_QUOTE_LINE = re.compile(r"^[ ]{0,3}>[^\n]*", re.MULTILINE)
_MARKER = re.compile(r"[ ]{0,3}>[ ]?")
_NEW_BLOCK = re.compile(r"[ \t]*(?:[-*+•]\s|\d{1,4}[.)]\s|#|\||```|~~~|>|<)")
_ALERT = re.compile(r"\s*\[!(?i:note|tip|important|warning|caution|info|abstract|summary)\]")
_LABEL = re.compile(r"\s*(?:\*\*|__)[^*_\n]{1,60}(?:\*\*|__)\s*:?")
_ATTRIBUTION = re.compile(r"\n[ \t]*(?:[\u2014\u2013\u2015~]|--)[^\n]*$")
_TRAILING_NOTE = re.compile(
    r"\s*\((?i:abstract|summary|source|excerpt|emphasis (?:added|mine)|translated"
    r"|[^()\n]{0,40}\b(?:19|20)\d{2}[a-z]?|pp?\.[ \t]?\d[^()\n]{0,20})\)\s*$"
    r"|\s[\u2014\u2015][ \t]*(?:[A-Z\[]|https?:)[^\u2014\u2015\n]{0,80}$"
)
"""A closing note on the last line: ``(abstract)``, ``(Lewis, 2020)``, ``(p. 12)``, or an
attribution after a dash, ``— Jane Doe, Nature``. Other parentheses are the source's words."""


def _block_spans(text: str, code: Sequence[tuple[int, int]]) -> list[tuple[int, int, str, bool]]:
    """(start, end, content, is_callout) of each block quote."""
    out: list[tuple[int, int, str, bool]] = []
    if ">" not in text:
        return out
    code_starts = [s for s, _ in code]
    covered = -1
    for m in _QUOTE_LINE.finditer(text):
        if m.start() <= covered or (code and _in_spans(code, m.start(), code_starts)):
            continue
        lines = [m.group()]
        end = m.end()
        # Consecutive '>' lines, then lazy continuation lines (CommonMark): a non-blank line
        # that starts no other block continues the quoted paragraph.
        while end < len(text):
            nxt = text.find("\n", end + 1)
            line = text[end + 1 : nxt if nxt != -1 else len(text)]
            stripped = line.strip()
            if not stripped:
                break
            if _QUOTE_LINE.match(line) is None:
                last = _MARKER.sub("", lines[-1], count=1).strip()
                if not last or _NEW_BLOCK.match(line):
                    break
            lines.append(line)
            end = nxt if nxt != -1 else len(text)
        covered = end
        body = [_strip_markers(line) for line in lines]
        content = "\n".join(body)
        callout = bool(_ALERT.match(content) or _LABEL.match(content))
        content = _ATTRIBUTION.sub("", content).strip()
        content = _TRAILING_NOTE.sub("", content).strip()
        first = lines[0]
        start = m.start() + (len(first) - len(first.lstrip(" >")))
        start = min(start, end)
        while end > start and text[end - 1].isspace():
            end -= 1
        if content:
            out.append((start, end, content, callout))
    return out


def _strip_markers(line: str) -> str:
    """A block-quote line without its ``>`` markers (nested ``> >`` too)."""
    while True:
        m = _MARKER.match(line)
        if m is None:
            return line
        line = line[m.end() :]


# -- what is not a quotation of a source -----------------------------------------------------

_QUERY_BEFORE = re.compile(
    r"(?i)(?:\bsearch(?:ed|ing|es)?|\bquer(?:y|ies|ied|ying)|\bkeywords?|\bsearch terms?"
    r"|\blooked up|\blooking up|\bgoogl(?:e|ed|ing))\b[^.!?\n]{0,40}$"
)
_TITLE_BEFORE = re.compile(
    r"(?i)\b(?:titled|entitled|called|named|headlined|subtitled)[ \t]*:?[ \t]*$"
)
_AFTER_AUTHORS = re.compile(r"[,.)\]][ \t]*$")
"""What precedes a quoted title in a reference entry: ``Author, A.,`` ``(2020).`` ``[3]``."""
_AUTHOR_LEAD = re.compile(r"[ \t]*[A-Z][\w'\u2019-]+,[ \t]+(?:[A-Z]\.[ \t]?){1,3}")
"""An APA/MLA entry written without a list marker: ``Lewis, P., Perez, E. (2020). "…"``."""
_LIST_LINE = re.compile(r"[ \t]*(?:[-*+•]|\d{1,4}[.)]|\[\d{1,4}\]|\(\d{1,4}\))[ \t]")
_ENTRY_HINT = re.compile(r"(?:19|20)\d{2}|https?://|\bdoi\b|\barxiv\b|\bvol\.|\bpp\.", re.I)
_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")
_SENTENCE_INSIDE = re.compile(r"[.!?;]\s+\S")
_SMALL_WORDS = frozenset(
    {"and", "the", "but", "for", "nor", "yet", "via", "per", "off", "out", "from", "into",
     "with", "over", "upon", "onto", "than", "versus", "without", "within", "through",
     "across", "about", "under", "after", "before", "between", "toward", "towards"}
)  # fmt: skip
"""Words of three letters or more that Title Case may leave in lower case."""


_WINDOW = 2000
"""How far around a quotation its line is read (a line of a megabyte is read this far)."""
_CUE = 120
"""How far before a quotation a cue (*searched for*, *titled*) is looked for."""


def _line_of(text: str, start: int) -> tuple[str, str | None]:
    """The text before ``start`` on its line, and the whole line when it starts within
    :data:`_WINDOW` (None for a line longer than that: no list item, no entry)."""
    lo = max(0, start - _WINDOW)
    nl = text.rfind("\n", lo, start)
    line_start = nl + 1 if nl != -1 or lo == 0 else lo
    line_end = text.find("\n", start, start + _WINDOW)
    line_end = min(len(text), start + _WINDOW) if line_end == -1 else line_end
    whole = text[line_start:line_end] if nl != -1 or lo == 0 else None
    return text[line_start:start], whole


def _title_case(content: str) -> bool:
    """Title Case: every word of three letters or more capitalised, bar the few that Title
    Case leaves small (``There Is Nothing Left to Lose``). One lower-case word (``appointed``,
    ``one``) makes it a sentence."""
    if _SENTENCE_INSIDE.search(content.strip()):
        return False
    words = [w for w in _WORD.findall(content) if len(w) >= 3]
    if len(words) < 3:
        return False
    return all(unicodedata.category(w[0]) == "Lu" or w.lower() in _SMALL_WORDS for w in words)


def _skip_reason(
    text: str, start: int, end: int, *, kind: str, content: str, words: int, min_words: int
) -> str | None:
    if words < min_words:
        return "short"
    stripped = content.strip().rstrip("\"'\u201d\u2019)]*_ ")
    if stripped.endswith("?"):
        return "question"
    before, line = _line_of(text, start)
    if kind == INLINE:
        lead = before[:-1]  # without the opening mark
        cue = lead[-_CUE:]
        if line is not None and lead.lstrip().startswith("#"):
            return "title"
        if _TITLE_BEFORE.search(cue):
            return "title"
        if _QUERY_BEFORE.search(cue):
            return "query"
        if (
            line is not None
            and _AFTER_AUTHORS.search(cue)
            and ((_LIST_LINE.match(line) and _ENTRY_HINT.search(line)) or _AUTHOR_LEAD.match(line))
        ):
            return "title"  # [3] A. Author, "Title of the paper," in Proc. …, 2021.
    if _title_case(content):
        return "title"
    return None
