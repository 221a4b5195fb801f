"""arXiv identifiers: modern ``YYMM.NNNNN`` (since April 2007) and legacy ``archive/YYMMNNN``.

Grammar and traps: ``docs/extractors.md`` (after arXiv's own identifier docs). Both anchor on a
literal character (the dot, the slash) so the regex engine skips ahead with a fast search
instead of testing every position; the few candidates it finds are then checked by hand. That
keeps extraction linear and faster than the single ``\\b\\d{4}\\.\\d{4,5}\\b`` it replaces.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator

from groundcheck.extractors.hints import (
    char_positions,
    hints_in,
    text_memo,
    text_memo_keep,
    text_memo_known,
)
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = [
    "ARXIV",
    "LEGACY_ARCHIVES",
    "find_arxiv",
    "find_arxiv_legacy",
    "parse_arxiv",
    "reads_bare",
    "url_path_id",
]

SCHEME = "arxiv"
ARXIV = Scheme(SCHEME, "arXiv", "arXiv:")

_MENTION = Mention._trusted
_IDENTIFIER = Identifier._trusted
"""The mentions below are placed from regex matches (``0 <= start < end``) and name
``arxiv:<digits and a dot or a slash>``: made without the validators, one per id."""

LEGACY_ARCHIVES: dict[str, tuple[int, int]] = {
    # archive: (first YYYYMM, last YYYYMM it issued ids under the old scheme)
    "hep-th": (199108, 200703),
    "hep-lat": (199202, 200703),
    "hep-ph": (199203, 200703),
    "alg-geom": (199202, 199712),
    "math": (199202, 200703),
    "astro-ph": (199204, 200703),
    "cond-mat": (199204, 200703),
    "funct-an": (199204, 199712),
    "gr-qc": (199207, 200703),
    "nucl-th": (199210, 200703),
    "chao-dyn": (199301, 199912),
    "cs": (199301, 200703),
    "nlin": (199301, 200703),
    "comp-gas": (199302, 199912),
    "patt-sol": (199302, 199912),
    "adap-org": (199303, 199912),
    "solv-int": (199304, 199912),
    "chem-ph": (199403, 199609),
    "cmp-lg": (199404, 199809),
    "hep-ex": (199404, 200703),
    "dg-ga": (199406, 199712),
    "acc-phys": (199411, 199609),
    "mtrl-th": (199411, 199609),
    "supr-con": (199411, 199609),
    "nucl-ex": (199412, 200703),
    "q-alg": (199412, 199712),
    "quant-ph": (199412, 200703),
    "ao-sci": (199502, 199609),
    "bayes-an": (199506, 199611),
    "atom-ph": (199509, 199609),
    "plasm-ph": (199509, 199609),
    "math-ph": (199609, 200703),
    "physics": (199610, 200703),
    "q-bio": (200309, 200703),
}
"""The 34 archives that issued old-style ids, from arXiv's taxonomy (spec section 3)."""

# -- modern ----------------------------------------------------------------------------------

_MODERN_TAIL = re.compile(r"\.(?<=[0-9]{4}\.)([0-9]{3,6})(?:v([0-9]+))?(?![A-Za-z0-9])")
"""Anchor: a dot after four digits, and the sequence number. The literal dot comes first so
the engine can search for it; the lookbehind then drops sentence dots and short decimals at
once. 3 and 6 digits are caught only to report them as malformed when the token is clearly
written as an arXiv id."""

_SHORT_HEAD = LazyPattern(
    r"([0-9](?<![0-9.][0-9])[0-9]{0,2})\.([0-9]+)(?:v([0-9]+))?(?![A-Za-z0-9])"
)
"""Fewer than four digits before the dot: malformed, but only looked for right after an arXiv
prefix or URL (``arXiv:230.12345``), since elsewhere it is an ordinary number. The left
boundary (no digit or dot before the first digit) is tested after that digit, so the pattern
starts with a digit and the engine skips to the digits of the window; written first
(``(?<![0-9.])[0-9]{1,3}...``) it tried a match at every position of the 80 characters after
each hint, twice the cost of this scan in a tool output of 10,000 records."""

_ARXIV_CONTEXT = LazyPattern(
    r"(?:(?i:arxiv)(?:[ \t]*:[ \t]*|[ \t]+|\.)"
    r"|(?i:(?:arxiv|ar5iv|alphaxiv)(?:\.[a-z0-9-]+)*\.(?:org|com)/(?:[a-z0-9_.-]+/)*)"
    r"|(?i:huggingface\.co/papers/|xxx\.lanl\.gov/(?:[a-z0-9_.-]+/)*))$"
)
"""What makes a token *written as* an arXiv id: an ``arXiv`` prefix or an arXiv URL path."""

_CONTEXT_WINDOW = 80

_STRETCH = LazyPattern(r"(?:[A-Za-z0-9_./:-]*|[A-Za-z0-9]*[ \t]*(?::[ \t]*)?)\n?")
"""What lies between the last hint before a token and the token, when ``_ARXIV_CONTEXT`` ends
at the token: a URL path (no spaces), or ``xiv`` and a separator (``arXiv: ``); ``$`` also
matches before a final newline. A necessary condition, tested first because it fails at once
on prose ("arXiv, see Table 3.5"), where the context regex would be searched."""

_REACH = re.compile(r"(?=([A-Za-z0-9_./:-]*\n?))(?=([A-Za-z0-9]*[ \t]*(?::[ \t]*)?\n?))")
"""The longest match of each alternative of :data:`_STRETCH` from a hint: every ``s`` where
``_STRETCH`` fullmatches ``text[hint:s]`` is at most the later of the two ends (each
alternative's repeats are greedy over disjoint classes, so a shorter reading ends where the
greedy one could not go on). A token with no end of a stretch at or after its start is
never written as an arXiv id after that hint."""


def _after_arxiv_prefix(text: str, pos: int) -> bool:
    """True when ``text[:pos]`` ends with ``arXiv.`` (the DOI-suffix style, any case), or with
    the word ``arXiv`` glued to the id (``arXiv2503.03750``: some models drop the space
    before digits, and write "cover16 types" and "revised2026" in the same report)."""
    if pos >= 6 and text[pos - 1] == "." and text[pos - 6 : pos - 1].lower() == "arxiv":
        return True
    return (
        pos >= 5
        and text[pos - 5 : pos].lower() == "arxiv"
        and (pos == 5 or not text[pos - 6].isalnum())
    )


_CONTEXT_OPENS = {"xiv": " \t:.", "5iv": ".", "huggingface": ".", "lanl": "."}
"""The substrings every arXiv context contains (arxiv, alphaxiv, ar5iv, huggingface,
xxx.lanl), and the characters that may follow each where an :data:`_ARXIV_CONTEXT` holds it:
``arxiv`` is followed by the spaces or colon of ``arXiv: `` or by a dot (``arXiv.2301.00001``,
``arxiv.org/``), ``alphaxiv`` and ``ar5iv`` by the dot of their host name, ``huggingface`` by
``.co``, ``lanl`` by ``.gov``."""
_CONTEXT_HINTS = tuple(_CONTEXT_OPENS)

_OPENS_AFTER: dict[str, tuple[int, frozenset[str]]] = {
    first: (len(needle), frozenset(after))
    for needle, after in _CONTEXT_OPENS.items()
    for first in {needle[0], needle[0].upper()}
}
""":data:`_CONTEXT_OPENS` by a hint's first character, either case, with its needle's length.
Only the needles' own first characters open a hint (no character outside ASCII lower-cases
to one of them)."""


class _ArxivContext:
    """Answers "is this position written after an arXiv prefix or URL?" for one text.

    Most candidates are plain decimals with no arXiv anywhere near, so the positions of the
    hint substrings are found once (a few ms per 10 MB, and only if a candidate needs it) and
    each question is a binary search; the exact regex runs only near a hint.
    """

    __slots__ = ("_hints", "_openers", "_reaches", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._hints: list[int] | None = None
        self._openers: list[int] | None = None
        self._reaches: list[int] | None = None

    def _find_hints(self) -> list[int]:
        # On the length-preserving lower-cased copy, so positions stay valid for non-ASCII
        # text too; shared with the other extractors reading the same text. (No non-ASCII
        # character lower-cases to a letter of a hint: only U+212A, to "k".)
        return hints_in(self._text, _CONTEXT_HINTS)

    @property
    def hints(self) -> list[int]:
        if self._hints is None:
            self._hints = self._find_hints()
        return self._hints

    def openers(self) -> list[int]:
        """The hints an arXiv context may open at: those followed by a character of
        :data:`_OPENS_AFTER`. Every context that makes a token *written as* an arXiv id holds
        one of them (it starts with its hint's word and goes on with that character), so a
        token :meth:`written_as_arxiv` accepts lies in the window after one of these; the
        others (``arxiv_id`` in every record of a search result, ``arXiv,``) open no
        window. A step per hint: asked for only when the hints are few (the windows after
        them are read, not the whole text)."""
        if self._openers is None:
            text = self._text
            opens = _OPENS_AFTER
            openers = []
            for hint in self.hints:
                size, after = opens[text[hint]]
                if text[hint + size : hint + size + 1] in after:
                    openers.append(hint)
            self._openers = openers
        return self._openers

    def reaches(self) -> list[int]:
        """For each of :meth:`openers`, a bound on where a token written after it starts (see
        :data:`_REACH`): :meth:`written_as_arxiv` is False at every ``start`` past the reach
        of the last hint before it. Each is looked for at most ``_AFTER_HINT + 2`` characters
        on (a bound that far covers every window read after the hint), so the cost stays
        linear however the hints crowd."""
        if self._reaches is None:
            text, n = self._text, len(self._text)
            match = _REACH.match
            reaches = []
            for hint in self.openers():
                m = match(text, hint, min(n, hint + _AFTER_HINT + 2))
                reaches.append(max(m.end(1), m.end(2)))  # type: ignore[union-attr]
            self._reaches = reaches
        return self._reaches

    def written_as_arxiv(self, start: int) -> bool:
        hints = self.hints
        window = max(0, start - _CONTEXT_WINDOW)
        i = bisect_left(hints, window)
        if i == len(hints) or hints[i] >= start:
            return False
        last = hints[bisect_left(hints, start, i) - 1]
        if _STRETCH.fullmatch(self._text, last, start) is None:
            return False  # prose between the last hint and the token: no context ends here
        return _ARXIV_CONTEXT.search(self._text, window, start) is not None

    def short_heads(self) -> Iterator[re.Match[str]]:
        """``NNN.NNNNN`` tokens (under four digits before the dot) written after an arXiv hint.

        Few hints (ordinary text): look only in the window after each. Many hints (an
        "arXiv:arXiv:..." flood): one pass over the whole text instead, which walking every
        window would make ~80 times slower. Either way the cost stays linear.
        """
        text, hints = self._text, self.hints
        if not hints:
            return
        if len(hints) * _CONTEXT_WINDOW < len(text):
            # The matches of each opener's window in order, as its ``finditer`` gives them,
            # up to the last that may start within a stretch: a token at ``s`` written as an
            # id follows the opener its context holds, in ``[s - 80, s)``, within that
            # opener's reach (a context is a stretch from it). No match before ``s`` can
            # overlap it: inside a match, a digit not after a digit or dot follows a ``v``,
            # and no context ends with one.
            openers = self.openers()
            reaches = self.reaches()
            search, match = _SHORT_HEAD.compiled.search, _SHORT_HEAD.compiled.match
            n, count = len(text), len(openers)
            seen: set[int] = set()
            for i, hint in enumerate(openers):
                end = min(n, hint + _CONTEXT_WINDOW)
                limit = reaches[i]
                j = i + 1
                while j < count and openers[j] < end:
                    limit = max(limit, reaches[j])
                    j += 1
                m = search(text, hint, end)
                while m is not None and m.start() <= limit:
                    at = m.start()
                    if at not in seen and self.written_as_arxiv(at):
                        # matched again without the window's end, which may cut it short
                        # ("230.1234" of a "230.12345" across it)
                        whole = match(text, at)
                        if whole is not None:
                            seen.add(at)
                            yield whole
                    m = search(text, m.end(), end)
            return
        for m in _SHORT_HEAD.finditer(text):
            if self.written_as_arxiv(m.start()):
                yield m


_GLUED = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.")
"""The characters before a token's digits that make :func:`_modern` look closer (a longer run
of digits, or a token glued to a word or a number: ``v1.2301.00001``, ``arXiv.2301.00001``)."""


def _plausible(yymm: str, seq: str, version: str | None) -> bool:
    """The fast test behind :func:`_modern_problem` (string compares, no messages built)."""
    return (
        "01" <= yymm[2:] <= "12"
        and yymm >= "0704"
        and len(seq) == (4 if yymm <= "1412" else 5)
        and seq.strip("0") != ""
        and (version is None or version.strip("0") != "")
    )


_WHOLE_MODERN = re.compile(r"([0-9]{4})\.([0-9]{4,5})(?:v([0-9]+))?")


def reads_bare(value: str) -> bool:
    """Is ``value`` a whole, valid modern arXiv id (``2005.11401``, ``0704.0001v2``), which
    :func:`find_arxiv` reports as it is, though nothing but its shape tells it from a
    decimal? Then ``arXiv:`` + ``value`` names the same id and version, and nothing more:
    the evidence walk writes the prefixed copy of an ``arxiv_id`` field only when this is
    false (an old-style id, an id with a problem to report).

    >>> reads_bare("2005.11401"), reads_bare("2005.11401v2"), reads_bare("1024.5678")
    (True, True, False)
    """
    m = _WHOLE_MODERN.fullmatch(value)
    return m is not None and _plausible(m[1], m[2], m[3])


def _modern_problem(yymm: str, seq: str, version: str | None) -> str | None:
    """Why ``yymm.seq[vN]`` cannot be a modern arXiv id, or None when it can."""
    month = int(yymm[2:])
    if not 1 <= month <= 12:
        return f"month {yymm[2:]} is not 01-12"
    if yymm < "0704":
        return "modern arXiv ids start in April 2007 (0704); older papers use archive/YYMMNNN"
    if int(seq) == 0:
        return f"sequence number {seq} is never issued"
    want = 4 if yymm <= "1412" else 5
    if len(seq) != want:
        era = "up to 1412" if want == 4 else "from 1501 on"
        return f"ids {era} have {want} digits after the dot, not {len(seq)}"
    if version is not None and int(version) == 0:
        return "versions start at v1"
    return None


_MAYBE_VALID = re.compile(
    r"\.(?<=[0-9]{4}\.)"
    r"(?:(?<=(?:0[1-9]|1[0-2])\.)([0-9]{4,5})(?:v([0-9]+))?|([0-9]{3,6})v([0-9]+))"
    r"(?![A-Za-z0-9])"
)
"""The :data:`_MODERN_TAIL` matches that can be reported without asking where they are written:
a month 01-12 before the dot and 4-5 digits after it (may be valid), or a version suffix
(reported even when malformed). At each dot it matches exactly when ``_MODERN_TAIL`` does and
one of those holds, with the same digits: so the decimals of ordinary prose (``1024.5678``:
month 24) are dropped inside the regex engine, not one by one in Python. Measured on 10 MB of
bench_core prose: 45 ms with ``re`` (64 ms for ``_MODERN_TAIL``, whose 40,000 decimals then
each cost a Python step); ``regex`` takes 128 ms on this dot-anchored pattern, so ``re`` it is."""

_ID_DOT = re.compile(
    r"\.(?<=[0-9][0-9][0-9][0-9]\.)(?:"
    r"(?<=(?:0[1-9]|1[0-2])\.)([0-9]{4,5})(?:v([0-9]+))?(?![A-Za-z0-9])"
    r"|([0-9]{3,6})v([0-9]+)(?![A-Za-z0-9])"
    r"|(?<=(?:19[5-9][0-9]|20[0-9][0-9])\.)([A-Za-z]))"
)
"""The one full-text scan for ids written ``NNNN.``: the dots where :data:`_MAYBE_VALID`
matches (modern arXiv) or where an ACL Anthology id of a year 1950-2099 may start
(``2020.acl-main.447``). Both extractors read the same list (:func:`id_dots`), so the text's
dots are visited once for the two. The lookbehinds spell their digits out (``[0-9][0-9]...``,
not ``[0-9]{4}``): the same language, without a repeat (a call into the engine's counting
loop) at each of the ~500,000 dots of 10 MB of prose, ~10% of this scan (217 M -> 196 M
instructions).

Its groups are :data:`_MAYBE_VALID`'s (1-4: the two arXiv branches, each with its own
lookahead, which is the same language as the shared one after the alternation), so an arXiv
dot's match serves :func:`find_arxiv` as the match ``_MAYBE_VALID`` gives there; group 5 is
the ACL branch's letter (``lastindex == _ACL_BRANCH``)."""

_ACL_BRANCH = 5
_ID_DOTS = "id-dots"
"""The memo key of the scan's (every dot, the ACL branch's dots)."""


def _scan(text: str, every: list[int], acl: list[int]) -> Iterator[re.Match[str]]:
    """The one pass of :data:`_ID_DOT` over ``text``: fills ``every`` with its dots and ``acl``
    with the ACL branch's, and yields the arXiv branches' matches as it goes."""
    for m in _ID_DOT.finditer(text):
        every.append(m.start())
        if m.lastindex == _ACL_BRANCH:
            acl.append(m.start())
        else:
            yield m


def _scan_id_dots(text: str) -> tuple[list[int], list[int]]:
    every: list[int] = []
    acl: list[int] = []
    for _ in _scan(text, every, acl):
        pass
    return every, acl


def id_dots(text: str) -> list[int]:
    """Offsets of the dots :data:`_ID_DOT` finds in ``text``, computed once per text."""
    return text_memo(text, _ID_DOTS, _scan_id_dots)[0]


def acl_dots(text: str) -> list[int]:
    """The :func:`id_dots` where an ACL Anthology id may start (a year 1950-2099 and a
    letter): the only ones where the ACL extractor's pattern, which needs that letter, can
    match."""
    return text_memo(text, _ID_DOTS, _scan_id_dots)[1]


def _modern_matches(text: str) -> Iterator[re.Match[str]]:
    """The :data:`_MAYBE_VALID` matches at :func:`id_dots`, in order (or :data:`_ID_DOT`'s
    own, with the same groups and span): read off the scan as it runs, which keeps the dots
    for the ACL extractor, instead of matched again at each dot; matched again when the
    dots are already kept."""
    known: tuple[list[int], list[int]] | None = text_memo_known(text, _ID_DOTS)
    if known is not None:
        match = _MAYBE_VALID.match
        for dot in known[0]:
            m = match(text, dot)
            if m is not None:
                yield m
        return
    every: list[int] = []
    acl: list[int] = []
    yield from _scan(text, every, acl)
    text_memo_keep(text, _ID_DOTS, (every, acl))


_CANDIDATE_DOT = LazyPattern(r"\.(?<=[0-9]{4}\.)[0-9]")
"""A dot where ``_MODERN_TAIL`` may match (it needs 4 digits before and a digit after)."""

_WRITTEN_DOT = LazyPattern(
    r"\.(?<=[0-9]{4}\.)(?=[0-9]{3,6}(?![A-Za-z0-9]))"
    r"(?!(?<![0-9][0-9]{4}\.)(?:"
    r"(?<=(?:07(?:0[4-9]|1[0-2])|(?:0[89]|1[0-4])(?:0[1-9]|1[0-2]))\.)(?!0000)[0-9]{4}(?![0-9])"
    r"|(?<=(?:1[5-9]|[2-9][0-9])(?:0[1-9]|1[0-2])\.)(?!00000)[0-9]{5}(?![0-9])))"
)
"""The :data:`_CANDIDATE_DOT` dots that :func:`_written_malformed` does not pass over at once:
where ``_MODERN_TAIL`` matches with no version (3 to 6 digits and no letter or digit after
them), unless the four digits before the dot follow no digit and the token is plausible
(:func:`_plausible`: a month 01-12, from 0704 on, 4 digits after the dot up to 1412 and 5
from 1501, not all zeros). The token is tested inside the engine, so a window after an
arXiv hint holding a valid id (almost every window) costs one search that finds nothing
instead of a match and a plausibility test in Python. It reads up to 8 characters after
the dot: searched up to 9 past the last dot a window may hold."""

_AFTER_HINT = _CONTEXT_WINDOW + 8
"""A token written after an arXiv hint at ``h`` starts at most ``_CONTEXT_WINDOW`` after it,
and its dot at most 8 digits later."""


def _modern(
    text: str, m: re.Match[str], context: _ArxivContext | None, *, only_context: bool = False
) -> tuple[Mention | None, bool]:
    """The mention a ``_MODERN_TAIL``-shaped match at a dot names, and whether it is one that
    only its context makes a citation (a malformed token with no version).

    With ``context`` None the question is not asked: such a token gives no mention here (the
    caller looks for it near the arXiv hints instead). With ``only_context`` every other token
    gives none (the caller's other scan reports those).
    """
    dot = m.start()
    left = dot - 4
    if left and "0" <= text[left - 1] <= "9":  # more than four digits: measure the run
        while left > 0 and dot - left < 8 and "0" <= text[left - 1] <= "9":
            left -= 1
    width = dot - left
    before = text[left - 1] if left else ""
    # "v1.2301.00001", "CVPR52688.2022.01042", "12301.00001": part of something else,
    # except the DOI-suffix style "arXiv.2301.00001".
    if (
        before.isascii()
        and (before.isalnum() or before == ".")
        and not _after_arxiv_prefix(text, left)
    ):
        return None, False
    seq, version = m.group(1, 2)
    if seq is None:  # _MAYBE_VALID's version-suffix branch
        seq, version = m.group(3, 4)
    yymm = text[left:dot]
    problem = None
    needs_context = False
    if width == 4 and _plausible(yymm, seq, version):
        if only_context:
            return None, False
    else:
        if version is None:
            needs_context = True
            if context is None or not context.written_as_arxiv(left):
                return None, True  # a bare token that breaks the grammar is a number, not an id
        elif only_context:
            return None, False
        if width != 4:
            problem = f"arXiv ids have 4 digits before the dot, not {width}"
        elif len(seq) in (3, 6):
            problem = f"arXiv ids have 4 or 5 digits after the dot, not {len(seq)}"
        else:
            problem = _modern_problem(yymm, seq, version)
    mention = _MENTION(
        _IDENTIFIER(SCHEME, f"{yymm}.{seq}", int(version) if version else None),
        left,
        m.end(),
        malformed=problem,
    )
    return mention, needs_context


def _dots_after_hints(text: str, context: _ArxivContext) -> Iterable[int]:
    """The :data:`_CANDIDATE_DOT` dots in the window after each hint a context may open at
    (:meth:`_ArxivContext.openers`: ``[hint + 1, hint + _AFTER_HINT + 2)``) where a token
    written as an arXiv id may have its dot, in order, each once. (A search result names
    ``arxiv_id`` in every record: those hints open no window.)

    A candidate is the dot and the digit after it, so a window holds its dots up to its end
    minus 2 (the pattern's lookbehind reads before the window): the windows that overlap or
    touch are searched as one (a tool output names an id after "arXiv:" and again in an
    "arxiv.org/abs/" link, two hints a few characters apart). A token written after an opener
    starts within the opener's reach (:meth:`_ArxivContext.reaches`) and its dot is at most 8
    digits on, so a window is read only up to the latest of those among its openers (its
    openers are the only ones a token in it can be written after: an earlier one lies over 80
    characters before any token starting in it). Many hints (an "arXiv:arXiv:..." flood)
    take one pass over the whole text instead, so the cost stays linear.
    """
    hints = context.hints
    if len(hints) * _AFTER_HINT >= len(text):
        return (m.start() for m in _WRITTEN_DOT.finditer(text))
    hints = context.openers()  # (the windows after the other hints hold no such token)
    reaches = context.reaches()
    search = _WRITTEN_DOT.compiled.search
    n = len(text)
    found: list[int] = []

    def window(lo: int, top: int) -> None:  # the dots in [lo, top], read to top + 9
        m = search(text, lo, min(n, top + 9))
        while m is not None and m.start() <= top:
            found.append(m.start())
            m = search(text, m.end(), min(n, top + 9))

    lo, hi, bound = 0, -1, -1  # no window yet
    for hint, reach in zip(hints, reaches, strict=True):
        first, last = hint + 1, min(n, hint + _AFTER_HINT + 2) - 2
        if first > hi + 1:
            if lo <= min(hi, bound):
                window(lo, min(hi, bound))
            lo, bound = first, -1
        hi = max(hi, last)
        bound = max(bound, reach + 8)
    if lo <= min(hi, bound):
        window(lo, min(hi, bound))
    return found


def _written_malformed(text: str, context: _ArxivContext) -> Iterator[Mention]:
    """Malformed modern tokens with no version that count only because they are written as
    arXiv ids (``arXiv:1024.5678``): looked for only in the window after each arXiv hint
    (:func:`_dots_after_hints`)."""
    hints = context.hints
    if not hints:
        return
    match = _MODERN_TAIL.match
    for dot in _dots_after_hints(text, context):
        tail = match(text, dot)
        if tail is None:
            continue
        # What ``_modern(..., only_context=True)`` rejects whatever the context, decided
        # without the call: a token with a version, and a plausible id of four digits before
        # the dot (a tool output of 10,000 records names each id next to an "arxiv" hint).
        seq, version = tail.group(1, 2)
        if version is not None:
            continue
        left = dot - 4
        if (left == 0 or not "0" <= text[left - 1] <= "9") and _plausible(
            text[left:dot], seq, None
        ):
            continue
        mention, needs_context = _modern(text, tail, context, only_context=True)
        if mention is not None and needs_context:
            yield mention


def find_arxiv(text: str) -> Iterator[Mention]:
    """Modern arXiv ids, bare or as ``arXiv:``/``arXiv ``/URL forms, with an optional ``vN``.

    A bare token that breaks the grammar (``1024.5678``: month 24) is a decimal, not an id, and
    is skipped. The same token written *as* an id (``arXiv:1024.5678``, ``.../abs/...``, or with
    a version suffix) is reported as malformed, since no paper can have it.

    >>> [(m.identifier.display, m.malformed) for m in find_arxiv(
    ...     "RAG (arXiv:2005.11401v2), a decimal 1024.5678, and arXiv:2313.01234.")]
    [('2005.11401v2', None), ('2313.01234', 'month 13 is not 01-12')]
    """
    context = _ArxivContext(text)
    found: list[Mention] = []
    for m in _modern_matches(text):
        # The common case, as _modern reads it, without the call: exactly four digits before
        # the dot (no digit, letter or dot before them) and a plausible id.
        dot = m.start()
        left = dot - 4
        seq, version = m.group(1, 2)
        if (
            seq is not None
            and (left == 0 or text[left - 1] not in _GLUED)
            and _plausible(yymm := text[left:dot], seq, version)
        ):
            identifier = _IDENTIFIER(SCHEME, f"{yymm}.{seq}", int(version) if version else None)
            found.append(_MENTION(identifier, left, m.end()))
            continue
        mention, _ = _modern(text, m, None)
        if mention is not None:
            found.append(mention)
    written = list(_written_malformed(text, context))
    if written:
        found.extend(written)
        found.sort(key=lambda mention: mention.start)
    yield from found
    for m in context.short_heads():
        head, seq, version = m.group(1, 2, 3)
        yield _MENTION(
            _IDENTIFIER(SCHEME, f"{head}.{seq}", int(version) if version else None),
            m.start(),
            m.end(),
            malformed=f"arXiv ids have 4 digits before the dot, not {len(head)}",
        )


def _find_arxiv_unfiltered(text: str) -> Iterator[Mention]:
    """The one-pass reference :func:`find_arxiv` must agree with (property tests use it)."""
    context = _ArxivContext(text)
    for m in _MODERN_TAIL.finditer(text):
        mention, _ = _modern(text, m, context)
        if mention is not None:
            yield mention
    for m in context.short_heads():
        head, seq, version = m.group(1, 2, 3)
        yield _MENTION(
            _IDENTIFIER(SCHEME, f"{head}.{seq}", int(version) if version else None),
            m.start(),
            m.end(),
            malformed=f"arXiv ids have 4 digits before the dot, not {len(head)}",
        )


_PATH_ID = re.compile(r"/(?:abs|pdf)/([0-9]{4})\.([0-9]{4,5})(?:v([0-9]+))?(?:\.pdf)?")
"""The path of most arXiv URLs: ``/abs/`` or ``/pdf/``, a modern id, perhaps a version and
``.pdf``, and nothing else."""


def url_path_id(text: str, pos: int, end: int) -> Mention | None:
    """The first mention :func:`find_arxiv` and :func:`find_arxiv_legacy` report at or after
    ``pos`` in ``text[start:end]`` (any ``start <= pos``), when ``text[pos:end]`` is a URL path
    of the common shape :data:`_PATH_ID` holding a plausible id; None when it is not (then
    run the finders).

    Such a path holds that one mention and no other: after its ``/`` the id is read as
    :func:`find_arxiv`'s fast path reads it (four digits after a ``/``, a plausible id), no
    short head can start in it (each digit run but the first follows a digit, a ``.`` or a
    ``v``, and ``v`` + digits is followed by nothing or ``.pdf``), and no run of 5 digits
    follows a ``/`` (an old-style id's tail). The URL extractor asks this for every arXiv URL,
    where running both finders on the URL costs ~6 us.

    >>> m = url_path_id("https://arxiv.org/abs/2005.11401v2", 17, 34)
    >>> m.identifier.display, m.start, m.end, url_path_id("https://arxiv.org/list/cs", 17, 25)
    ('2005.11401v2', 22, 34, None)
    """
    m = _PATH_ID.fullmatch(text, pos, end)
    if m is None:
        return None
    yymm, seq, version = m.group(1, 2, 3)
    if not _plausible(yymm, seq, version):
        return None
    identifier = _IDENTIFIER(SCHEME, f"{yymm}.{seq}", int(version) if version else None)
    return _MENTION(identifier, m.start(1), m.end(3) if version else m.end(2))


# -- legacy ----------------------------------------------------------------------------------

_LEGACY_TAIL = re.compile(r"/([0-9]{5,9})(?:v([0-9]+))?(?![A-Za-z0-9])")
_ARCHIVE_BEFORE = LazyPattern(
    r"(?<![A-Za-z0-9\-])"  # a preceding dot is allowed here and checked by hand ("arXiv.")
    r"(" + "|".join(sorted(map(re.escape, LEGACY_ARCHIVES), key=len, reverse=True)) + r")"
    r"(?:\.([A-Za-z][A-Za-z\-]*[A-Za-z]))?$",
    re.IGNORECASE,
)
_ARCHIVE_WINDOW = 40
_ARCHIVE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-\u0130\u0131\u017f\u212a"
"""Every character :data:`_ARCHIVE_BEFORE` can match: letters, ``.``, ``-``, and the four
non-ASCII letters a case-insensitive ``re`` matches to ASCII ones (İ ı ſ K)."""


_ARCHIVE_LEFT = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-\u0130\u0131\u017f\u212a"
)
"""What :data:`_ARCHIVE_BEFORE`'s lookbehind refuses before an archive: ASCII letters, digits,
``-``, and the four non-ASCII letters a case-insensitive ``re`` matches to ASCII ones (a run
cut by the 40-character window may have one before it)."""
_UNSEEN = (-1, "")
"""A run not searched yet (a search gives None or a real start)."""


def _legacy_problem(digits: str, version: str | None, archive: str) -> str | None:
    if len(digits) != 7:
        return f"old-style arXiv ids have 7 digits after the slash, not {len(digits)}"
    yy, mm, num = int(digits[:2]), int(digits[2:4]), digits[4:]
    if not 1 <= mm <= 12:
        return f"month {digits[2:4]} is not 01-12"
    yyyymm = (1900 + yy if yy >= 91 else 2000 + yy) * 100 + mm
    if not 199107 <= yyyymm <= 200703:
        return "old-style arXiv ids run from 9107 to 0703; later papers use YYMM.NNNNN"
    if num == "000":
        return "number 000 is never issued"
    if version is not None and int(version) == 0:
        return "versions start at v1"
    return None


def _legacy_tails(text: str) -> Iterator[re.Match[str]]:
    """``_LEGACY_TAIL.finditer(text)``: read at each ``/`` of the text when slashes are rare
    (their offsets are found at memchr speed and shared, see :func:`char_positions`), since a
    regex search for the ``/`` visits every character. A match holds one ``/``, its first
    character, so matching at every slash gives exactly the matches ``finditer`` finds."""
    slashes = char_positions(text, "/")
    if slashes is None:
        yield from _LEGACY_TAIL.finditer(text)
        return
    match = _LEGACY_TAIL.match
    for slash in slashes:
        m = match(text, slash)
        if m is not None:
            yield m


def find_arxiv_legacy(text: str) -> Iterator[Mention]:
    """Old-style arXiv ids (``hep-th/9711200``, ``math.AG/0601001v2``) from the 34 archives.

    The canonical form drops the subject class and the version: ``math/0601001``. Every token
    of this shape names a known archive, so one that breaks the grammar is always malformed.

    >>> [str(m.identifier) for m in find_arxiv_legacy("hep-th/9711200 and math.AG/0601001v2")]
    ['arxiv:hep-th/9711200', 'arxiv:math/0601001']
    """
    archives: dict[tuple[str, bool], tuple[int, str] | None] = {}
    for m in _legacy_tails(text):
        slash = m.start()
        lo = max(0, slash - _ARCHIVE_WINDOW)
        before = text[lo:slash]
        if before.endswith("\n"):  # ``$`` also matches before a final newline
            before = before[:-1]
        # An archive and its subclass are letters, "-" and ".": no match can start before the
        # run of those that ends here, so the search (which tries every start) begins there.
        run_at = lo + len(before.rstrip(_ARCHIVE_CHARS))
        if run_at == lo + len(before):
            continue
        # The search reads the run (to the slash) and, for a match at the run's start, the
        # character before it (the lookbehind): the same two give the same answer, so each
        # is searched for once per text ("hep-th" before every hep-th id).
        run = text[run_at:slash]
        key = (run, run_at > 0 and text[run_at - 1] in _ARCHIVE_LEFT)
        found = archives.get(key, _UNSEEN)
        if found is _UNSEEN:
            a = _ARCHIVE_BEFORE.search(text, run_at, slash)
            found = archives[key] = None if a is None else (a.start() - run_at, a.group(1))
        if found is None:
            continue
        start = run_at + found[0]
        if start and text[start - 1] == "." and not _after_arxiv_prefix(text, start):
            continue
        archive = found[1].lower()
        digits, version = m.group(1), m.group(2)
        problem = _legacy_problem(digits, version, archive)
        yield _MENTION(
            _IDENTIFIER(SCHEME, f"{archive}/{digits}", int(version) if version else None),
            start,
            m.end(),
            malformed=problem,
        )


_BARE_MODERN = LazyPattern(r"([0-9]{4})\.([0-9]{4,5})(?:v([0-9]+))?")


def parse_arxiv(token: str) -> Identifier | None:
    """The identifier a whole string names, if it is exactly one valid bare arXiv id.

    >>> parse_arxiv("2005.11401v3"), parse_arxiv("hep-th/9711200"), parse_arxiv("2005.11401 x")
    (Identifier(scheme='arxiv', id='2005.11401', version=3), Identifier(scheme='arxiv', \
id='hep-th/9711200', version=None), None)
    """
    token = token.strip()
    bare = _BARE_MODERN.fullmatch(token)
    if bare is not None and _plausible(*bare.group(1, 2, 3)):
        # The common case (a DOI suffix, a DBLP CoRR key) without the full scan; find_arxiv
        # would report exactly this mention, the only one that can span the token.
        yymm, seq, version = bare.group(1, 2, 3)
        return _IDENTIFIER(SCHEME, f"{yymm}.{seq}", int(version) if version else None)
    for finder in (find_arxiv, find_arxiv_legacy):
        for mention in finder(token):
            if mention.malformed is None and mention.start == 0 and mention.end == len(token):
                return mention.identifier
    return None
