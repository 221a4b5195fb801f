"""DOIs in prose, markdown, JSON and URLs (grammar and traps: ``docs/extractors.md``).

The candidate is everything after ``10.<registrant>/`` up to a character no DOI written in
running text contains; then the spec's trimming rules remove what the surrounding prose added
(a closing bracket with no opener, sentence punctuation, markdown emphasis). Canonical form:
percent-decoded and lower-cased, since DOIs compare case-insensitively.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

from groundcheck.extractors.acl import ACL_DOI_PREFIX, acl_from_doi
from groundcheck.extractors.arxiv import parse_arxiv
from groundcheck.extractors.hints import (
    char_positions,
    is_long,
    matches_at,
    needle_positions,
    text_memo,
)
from groundcheck.extractors.urlkey import unquote
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = [
    "ARXIV_DOI_PREFIX",
    "DOI",
    "PUBLISHER_HOSTS",
    "doi_at",
    "find_doi",
    "in_publisher_url",
    "normalize_doi",
    "registered_domain",
]

SCHEME = "doi"
_ID = Identifier._trusted
_MENTION = Mention._trusted
"""Every DOI identifier below is ``10.`` and more after percent-decoding and lower-casing (or
the ``"10."`` fallback), never empty, and every span is a match's ``start <= end``: made
without the validators (~3 us of attrs ``__init__`` per DOI and per arXiv DOI's alias)."""
DOI = Scheme(SCHEME, "DOI", "doi:", versioned=False)
ARXIV_DOI_PREFIX = "10.48550/arxiv."
"""DataCite prefix arXiv registers every paper under: ``10.48550/arXiv.2202.01037``."""

_SUFFIX_CHAR = (
    r"[^\s\x00-\x1f\x7f-\x9f\"'`{}|\\^<\[\]?#"
    r"\u2013\u2014\u2018\u2019\u201c\u201d\u3000-\u303f\uff00-\uffef]"
)
_CANDIDATE = LazyPattern(
    r"10\.([0-9]{1,9}+(?:\.[0-9]{1,9}+){0,4}+)(?:/|%2[Ff])"
    r"((?:" + _SUFFIX_CHAR + r"++|<(?=[0-9]))*+)"
)
"""``10.`` + registrant + ``/`` (or ``%2F``) + the longest run of characters a DOI may hold.
The registrant's repetitions are bounded (at most 9 digits, 4 sub-levels) so a flood of
``10.10.10.`` costs a constant per position instead of backtracking over the whole flood.
Starts with a literal so the engine searches for ``10.`` instead of trying every position.
Every repeat is possessive (``++``, ``*+``): giving characters back could never let a match
succeed (a registrant's digits and dots are followed by a separator, which neither is; the
suffix ends the pattern), so the matches are those of the plain repeats, and the suffix's
characters are taken in runs instead of one trip through the alternation each (a DOI of 200
suffix characters: ~4.6 us -> ~0.7 us). Stops at white space, control characters (a NUL is
never part of a DOI), quotes, backticks,
``{}|\\^``, ``[`` ``]``, ``?`` ``#`` (URL query and fragment), en/em dashes, CJK and full-width
punctuation, and ``<`` unless a digit follows (SICI DOIs hold ``<2.0.CO;2-``)."""

_CONTINUATION = LazyPattern(
    r"(?:\r\n|[\n\r\v\f\x85\u2028\u2029])[ \t]*((?:" + _SUFFIX_CHAR + r"|<(?=[0-9]))+)"
)
"""A DOI suffix that runs into a line break, and the next line's first token: a DOI has no
fixed length, so ``10.1000/made.`` + ``up.42`` on the next line may be one DOI cut by the
wrap, or a DOI and a word. Both readings name the citation (see :func:`find_doi`)."""

_ENTITY = LazyPattern(r"&(?:[A-Za-z]+|#[0-9]+|#[xX][0-9A-Fa-f]+);")
_TRAILING = ".,;:!*_~"
_CLOSERS = {")": "(", ">": "<", "}": "{"}
_DOI_CONTEXT = LazyPattern(r"(?i:doi)(?:[ \t]*:[ \t]*|[ \t]+|\.org/)$")


_BRACKET = LazyPattern(r"[()<>{}]")


def _cut_unbalanced(suffix: str) -> str:
    """Cut at the first closing bracket that has no opener inside the DOI (spec rule 3).

    Only the brackets are visited (most DOIs have none), not every character."""
    first = _BRACKET.search(suffix)
    if first is None:
        return suffix  # most DOIs: no bracket to balance
    depth = {"(": 0, "<": 0, "{": 0}
    for m in _BRACKET.finditer(suffix, first.start()):
        ch = m.group()
        if ch in depth:
            depth[ch] += 1
        else:
            opener = _CLOSERS[ch]
            if depth[opener] == 0:
                return suffix[: m.start()]
            depth[opener] -= 1
    return suffix


def _trim_entity(suffix: str) -> str:
    if "&" not in suffix:
        return suffix  # an entity starts with "&"
    entity = _ENTITY.search(suffix)
    return suffix if entity is None else suffix[: entity.start()]


def _trim(suffix: str) -> str:
    return _cut_unbalanced(_trim_entity(suffix)).rstrip(_TRAILING)


def normalize_doi(doi: str) -> str:
    """Canonical key of a DOI that is already isolated: percent-decoded, lower-cased.

    >>> normalize_doi("10.1000/ABC%2Fdef")
    '10.1000/abc/def'
    """
    return unquote(doi).lower()


# -- DOIs inside publisher URLs (spec-2 section 1.3) -------------------------------------------

PUBLISHER_HOSTS = frozenset(
    {
        "doi.org", "hdl.handle.net", "doi.wiley.com", "dl.acm.org", "link.springer.com",
        "onlinelibrary.wiley.com", "tandfonline.com", "journals.sagepub.com", "pubs.acs.org",
        "science.org", "pnas.org", "frontiersin.org", "journals.plos.org", "biorxiv.org",
        "medrxiv.org", "iopscience.iop.org", "journals.aps.org",
    }
)  # fmt: skip
"""Hosts whose URLs hold a DOI that *is* the page's work (a subdomain counts: dx.doi.org,
agupubs.onlinelibrary.wiley.com). Any other host's ``/doi/<doi>`` path counts too."""

_TAILS = ("/full", "/abstract", "/pdf", "/epdf", "/fulltext", "/meta", ".pdf")
"""What publisher hosts append after the DOI (Frontiers ``/full``, Springer ``.pdf``, old Wiley
``/abstract``). Stripped only on :data:`PUBLISHER_HOSTS` other than the resolvers: a DOI
suffix elsewhere may really end in ``/full``."""
_RESOLVERS = frozenset({"doi.org", "hdl.handle.net", "doi.wiley.com"})
_PREPRINT_HOSTS = frozenset({"biorxiv.org", "medrxiv.org"})
_PREPRINT_TAILS = (
    ".full.pdf+html", ".full.pdf", ".full-text", ".full", ".abstract", ".supplementary-material",
    ".article-info", ".article-metrics", ".pdf",
)  # fmt: skip
_PREPRINT_VERSION = LazyPattern(r"v([0-9]{1,3})$")
_SUPPLEMENT = "/suppl_file/"

_ACL_SUFFIX_PREFIX = ACL_DOI_PREFIX.split("/", 1)[1]
"""``v1/``: what an ACL DOI's suffix starts with; the Anthology id follows."""

_URL_WINDOW = 512
"""How far back from a DOI to look for the start of the URL it sits in."""
_URL_STOP = LazyPattern(r"[\s<>\"`{}|\\^]")
_SCHEME_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def registered_domain(host: str, domains: frozenset[str]) -> str | None:
    """The entry of ``domains`` that ``host`` is or is a subdomain of (``www.`` ignored)."""
    host = host.lower()
    while True:
        if host in domains:
            return host
        dot = host.find(".")
        if dot == -1:
            return None
        host = host[dot + 1 :]


def _url_around(text: str, start: int) -> tuple[str, str, bool] | None:
    """(host, path before the DOI, inside a query) of the URL a DOI at ``start`` sits in.

    Looks back at most :data:`_URL_WINDOW` characters for ``://`` (or a ``www.`` host) with
    no white space or delimiter in between, so the cost per DOI is bounded. The innermost URL
    wins (``web.archive.org/web/2020/https://doi.org/...`` is a doi.org URL). A DOI is *in a
    query* when a ``?`` precedes it in its URL, or when that URL is itself a parameter value
    (``?q=https://doi.org/...``): either way a literal ``&`` ends it.
    """
    lo = max(0, start - _URL_WINDOW)
    at = text.rfind("://", lo, start)
    if at != -1:
        host_at = at + 3
        scheme_at = at
        while scheme_at > lo and at - scheme_at < 6 and text[scheme_at - 1] in _SCHEME_LETTERS:
            scheme_at -= 1
    else:
        host_at = max(text.rfind("www.", lo, start), text.rfind("WWW.", lo, start))
        if host_at == -1:
            return None
        scheme_at = host_at
    if _URL_STOP.search(text, host_at, start) is not None:
        return None
    slash = text.find("/", host_at, start)
    if slash == -1:
        return None
    authority = text[host_at:slash]
    host = authority[authority.rfind("@") + 1 :].partition(":")[0].lower()
    path = text[slash:start]
    in_query = "?" in path or (scheme_at > 0 and text[scheme_at - 1] == "=")
    return host, path, in_query


def _publisher_cut(host: str, suffix: str) -> tuple[str, int | None]:
    """The DOI suffix without what a publisher host appended, and a preprint's version."""
    domain = registered_domain(host, PUBLISHER_HOSTS)
    if domain is None or domain in _RESOLVERS:
        return suffix, None
    cut = suffix.find(_SUPPLEMENT)
    if cut != -1:
        suffix = suffix[:cut]
    if domain in _PREPRINT_HOSTS:
        for tail in _PREPRINT_TAILS:
            if suffix.endswith(tail):
                suffix = suffix[: -len(tail)]
                break
        m = _PREPRINT_VERSION.search(suffix)
        if m is not None:
            return suffix[: m.start()], int(m.group(1))
        return suffix, None
    for tail in _TAILS:
        if suffix.endswith(tail) and len(suffix) > len(tail):
            return suffix[: -len(tail)], None
    return suffix, None


def in_publisher_url(host: str, path: str) -> bool:
    """Does a URL on ``host`` whose path starts with ``path`` name the DOI inside it?"""
    return registered_domain(host, PUBLISHER_HOSTS) is not None or path.startswith("/doi/")


def _mention(text: str, m: re.Match[str]) -> Mention | None:
    start = m.start()
    if start and text[start - 1].isascii() and text[start - 1].isalnum():
        return None  # "110.1000/x", "v10.1000/x": part of another token
    registrant = m.group(1)
    raw_suffix = m.group(2)
    version = None
    context = _url_around(text, start) if start else None
    if context is not None and context[2]:
        raw_suffix = raw_suffix.split("&", 1)[0]
    suffix = written = _trim(raw_suffix)
    if context is not None and suffix:
        # The span keeps what the publisher appended ("/full", "v2.full.pdf"): it was written
        # as part of this DOI's URL; only the canonical id drops it.
        suffix, version = _publisher_cut(context[0], suffix)
        suffix = _trim(suffix)
    problem = None
    first = registrant.split(".", 1)[0]
    if not 4 <= len(first) <= 9:
        problem = f"DOI registrant codes have 4 to 9 digits, not {len(first)} ({first})"
    elif not suffix:
        problem = "DOI has no suffix after the slash"
    if problem is not None:
        if _DOI_CONTEXT.search(text, max(0, start - 12), start) is None:
            return None
        end = m.start(2) + len(suffix) if suffix else m.start(2)
        raw_key = normalize_doi(text[start:end]).rstrip("/") or "10."
        return _MENTION(_ID(SCHEME, raw_key), start, end, problem)
    end = m.start(2) + len(written)
    identifier, aliases = _identify(registrant, suffix, version)
    if context is None:
        cut = _CONTINUATION.match(text, m.end())
        if cut is not None and _cut_unbalanced(_trim_entity(m.group(2))) == m.group(2):
            # Cut by a line break: the joined reading is another name of the same citation,
            # so evidence holding either reading grounds it (no false error on the cut form).
            joined, more = _identify(registrant, _trim(m.group(2) + cut.group(1)), None)
            if joined != identifier:
                aliases = (*aliases, joined, *more)
    return _MENTION(identifier, start, end, None, aliases)


def _identify(
    registrant: str, suffix: str, version: int | None
) -> tuple[Identifier, tuple[Identifier, ...]]:
    """The DOI ``10.registrant/suffix`` and its other names (an arXiv or ACL Anthology id)."""
    doi = normalize_doi(f"10.{registrant}/{suffix}")
    if doi.startswith(ARXIV_DOI_PREFIX):
        arxiv = parse_arxiv(doi[len(ARXIV_DOI_PREFIX) :])
        if arxiv is not None:
            return _ID(SCHEME, ARXIV_DOI_PREFIX + arxiv.id, arxiv.version), (arxiv,)
    elif doi.startswith(ACL_DOI_PREFIX):
        acl = acl_from_doi(unquote(suffix)[len(_ACL_SUFFIX_PREFIX) :])
        if acl is not None:
            return _ID(SCHEME, doi, version), (acl,)
    return _ID(SCHEME, doi, version), ()


def doi_at(text: str, pos: int, endpos: int | None = None) -> Mention | None:
    """The DOI mention :func:`find_doi` reports for a ``10.`` at ``pos``, if any.

    The URL extractor asks this for the DOI inside a publisher URL, so both extractors derive
    the same DOI from the same characters and the pipeline counts the URL once. ``endpos``
    bounds how far the DOI may run: the URL extractor asks once per URL, and an unbounded DOI
    run through many URLs (``...<1(https://doi.org/...<1(...``) would make that quadratic.
    """
    if is_long(text):
        known = _read_in_full(text).get(pos)
        if known is not None and (endpos is None or known[0] <= endpos):
            return known[1]
    m = _CANDIDATE.match(text, pos, len(text) if endpos is None else endpos)
    return _mention(text, m) if m is not None else None


_Known = dict[int, tuple[int, "Mention | None"]]
"""The DOIs :func:`find_doi` read in full (:func:`_mention`) in a long text, by start: the end
of the candidate and what it read."""


def _no_known(text: str) -> _Known:
    return {}


def _read_in_full(text: str) -> _Known:
    """What :func:`find_doi` read in full in ``text`` so far (kept with its needle positions).

    The URL extractor asks :func:`doi_at` for the DOI in every doi.org and publisher URL, the
    very DOIs :func:`find_doi` reads in full (they sit near a URL mark), ~7 us each. A
    candidate bounded at ``endpos`` is the unbounded one when that one ends at or before
    ``endpos``: each repeat of :data:`_CANDIDATE` is possessive and stops at the first
    character it cannot take (or a ``<`` with no digit after it), which the bound then leaves
    in place or replaces by the end; so the reading kept is the answer."""
    return text_memo(text, "doi-read-in-full", _no_known)


def find_doi(text: str) -> Iterator[Mention]:
    """DOIs, bare or after ``doi:``/``https://doi.org/``; the arXiv DOI also names the arXiv id.

    A registrant code under 4 digits (``10.5/x``) is not a DOI; written after a ``doi:``
    prefix or a doi.org URL it is reported as malformed, as is a DOI with an empty suffix.
    Inside a publisher URL (``PUBLISHER_HOSTS``), what the host appends after the DOI is cut
    off (``/full``, ``.pdf``, bioRxiv's ``v2.full.pdf``), and inside a URL query a literal
    ``&`` ends the DOI (``?id=10.1371/journal.pone.0123456&type=printable``). A DOI cut by a
    line break (``10.1000/made.`` + ``up.42``) also names its joined reading, as an alias.

    >>> [(m.identifier.id, [str(a) for a in m.aliases]) for m in find_doi(
    ...     "doi:10.1000/XYZ.123. And https://doi.org/10.48550/arXiv.2005.11401v2")]
    [('10.1000/xyz.123', []), ('10.48550/arxiv.2005.11401', ['arxiv:2005.11401'])]

    A DOI outside any URL and not cut by a line break is read from its own characters alone:
    a text that repeats one DOI (a reference list, a flood of ``10.1234/&#``) reads it once
    (see :func:`_plain_reading`); the rest, :func:`_mention` reads in full.
    """
    marks = _UrlMarks.of(text)
    readings: dict[str, _Reading] = {}
    known = _read_in_full(text) if is_long(text) else None
    n = len(text)
    trusted = Mention._trusted
    for m in _candidates(text):
        start, end = m.span()
        if start:
            if text[start - 1] in _ASCII_ALNUM:
                continue  # "110.1000/x", "v10.1000/x": part of another token
            if marks is not None and marks.near(start):
                mention = _mention(text, m)
                if known is not None:
                    known[start] = (end, mention)
                if mention is not None:
                    yield mention
                continue
        if end < n and text[end] in _BREAKS:
            mention = _mention(text, m)  # perhaps a DOI cut by a line break: read in full
            if known is not None:
                known[start] = (end, mention)
            if mention is not None:
                yield mention
            continue
        raw = m.group()
        reading = readings.get(raw)
        if reading is None:
            reading = readings[raw] = _plain_reading(m)
        problem, identifier, length, aliases = reading
        if problem is None:
            yield trusted(identifier, start, start + length, None, aliases)
        elif _DOI_CONTEXT.search(text, max(0, start - 12), start) is not None:
            yield trusted(identifier, start, start + length, problem)


_REGISTRANT_REACH = 3 + 9 + 4 * 10
"""The most characters ``10.`` and a registrant (9 digits, 4 sub-levels of a dot and 9 digits)
take before the ``/`` or ``%2F`` that ends them."""
_NUMERAL = "0123456789."


def _candidates(text: str) -> Iterator[re.Match[str]]:
    """``_CANDIDATE.finditer(text)``, tried only at a ``10.`` that ends a run of digits and
    dots right before a ``/`` or ``%2F``, where the slashes of a long text are rare (their
    offsets are shared, see :func:`char_positions`).

    The regex search for ``10.`` visits every character (~8 ms per 10 MiB), and in prose most
    of its ``10.`` are decimals (``10.5``). A match runs from its ``10.`` over digits and dots
    only to its separator, at most :data:`_REGISTRANT_REACH` characters on, so looking back
    from each separator finds every place one can start; trying them in order, each from the
    end of the last match, gives the matches ``finditer`` gives.
    """
    slashes = char_positions(text, "/")
    if slashes is None:  # a short text, or one full of slashes: the regex search is cheaper
        yield from _CANDIDATE.finditer(text)
        return
    encoded = needle_positions(text, "%2f")
    starts: list[int] = []
    for sep in sorted(slashes + encoded) if encoded else slashes:
        if sep == 0 or text[sep - 1] not in _NUMERAL:
            continue  # most slashes: in a URL, after a letter or another slash
        lo = max(0, sep - _REGISTRANT_REACH)
        run = text[lo:sep]
        at = text.find("10.", lo + len(run.rstrip(_NUMERAL)), sep)  # in the run before it
        while at != -1:
            starts.append(at)
            at = text.find("10.", at + 1, sep)
    yield from matches_at(_CANDIDATE.compiled.match, text, sorted(set(starts)))


_ASCII_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
"""What ``ch.isascii() and ch.isalnum()`` holds for, as one set lookup."""

_BREAKS = frozenset("\r\n\v\f\x85\u2028\u2029")
"""What :data:`_CONTINUATION` starts with: after a DOI, the only way its reading may depend on
the next line."""

_Reading = tuple[str | None, Identifier, int, tuple[Identifier, ...]]
"""What a DOI outside any URL reads as: (problem, identifier, span length, aliases)."""


def _plain_reading(m: re.Match[str]) -> _Reading:
    """:func:`_mention` for a candidate outside any URL and not followed by a line break,
    from the candidate's own characters: the same problem, identifier, span and aliases.
    (A malformed reading is reported only after ``doi:`` or ``doi.org/``, which the caller
    looks for, the one thing that depends on the characters before the candidate.)"""
    registrant = m.group(1)
    suffix = _trim(m.group(2))
    base = m.start()
    first = registrant.split(".", 1)[0]
    problem = None
    if not 4 <= len(first) <= 9:
        problem = f"DOI registrant codes have 4 to 9 digits, not {len(first)} ({first})"
    elif not suffix:
        problem = "DOI has no suffix after the slash"
    if problem is not None:
        end = m.start(2) + len(suffix) if suffix else m.start(2)
        raw_key = normalize_doi(m.string[base:end]).rstrip("/") or "10."
        return problem, _ID(SCHEME, raw_key), end - base, ()
    identifier, aliases = _identify(registrant, suffix, None)
    return None, identifier, m.start(2) + len(suffix) - base, aliases


_URL_MARK = LazyPattern(r"://|www\.|WWW\.")
_WWW = ("www.", "WWW.")


class _UrlMarks:
    """Where ``://`` and ``www.`` occur in a text, so a DOI with none in the
    :data:`_URL_WINDOW` before it is known to sit in no URL without looking back
    (:func:`_url_around` would find neither and answer None)."""

    __slots__ = ("_at",)

    def __init__(self, at: list[int]) -> None:
        self._at = at

    @classmethod
    def of(cls, text: str) -> _UrlMarks | None:
        """The marks of ``text``, or None when it has none (no DOI in it sits in a URL).

        Read off the shared needle positions (the URL extractor asks for the same two), not
        found by a regex search of the text (~25 ms per 10 MiB); ``www.`` is a mark in lower
        or upper case only, as :func:`_url_around` looks for it."""
        if not is_long(text):  # a record field, a URL: its own search is cheaper
            if "://" not in text and "www." not in text and "WWW." not in text:
                return None
            return cls([m.start() for m in _URL_MARK.finditer(text)])
        slashes = needle_positions(text, "://")
        www = [at for at in needle_positions(text, "www.") if text.startswith(_WWW, at)]
        if not slashes and not www:
            return None
        return cls(sorted(slashes + www) if slashes and www else slashes or www)

    def near(self, start: int) -> bool:
        """Does a mark start in the window before ``start`` (so the DOI may be in a URL)?"""
        i = bisect_left(self._at, start) - 1
        return i >= 0 and self._at[i] >= start - _URL_WINDOW
