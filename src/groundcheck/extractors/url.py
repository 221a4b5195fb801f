"""Web URLs as citations of web sources (``shared/identifier-spec-2.md`` section 1).

**Finding.** A URL starts at ``http://``, ``https://``, ``ftp://`` (not after a letter, digit,
``+ . -``) or at a scheme-less ``www.``; bare domains (``nature.com/x``, ``model.py``) are never
URLs. It runs to white space or ``< > " ` { } | \\ ^`` or CJK/full-width punctuation, is split
at ``,``/``;`` directly before another scheme, then trimmed from the right: an entity-like
``&name;``, sentence punctuation ``. , ; : ! ? * _ ~ ' "``, and closing ``) ] }`` that have no
opener inside. That one scan finds Markdown inline and reference links (balanced parentheses
such as ``..._(disambiguation)`` stay), autolinks, images, HTML ``href`` values and JSON
strings, because each delimits its URL with a character the run stops at or the trim removes.
The host must be a host name; ``https://`` alone, ``https://-`` and ``www.`` alone are nothing.
The scan is anchored on the literals ``://`` and ``www.``, and every step is one pass.

**Identity.** The mention's id is the comparison key of :mod:`groundcheck.extractors.urlkey`.
A URL that names an identifier -- doi.org and publisher ``/doi/`` URLs, arxiv.org, PubMed, PMC,
Europe PMC, the ACL Anthology, OpenReview, Semantic Scholar, OpenAlex, DBLP, book-catalogue
ISBN URLs -- *is* that identifier's work: its mention is the identifier (found by that family's
own finder on the same characters, so both extractors agree), spanning the whole URL, with the
URL key as an alias. Evidence holding either form grounds it, and the pipeline drops the
family extractor's mention inside the URL, so the URL counts once. A URL whose link to an
identifier is a convention rather than a grammar (``nature.com/articles/<x>`` for
``10.1038/<x>``, an Amazon ``/dp/`` ISBN, the page inside a ``web.archive.org`` snapshot) keeps
its URL key and carries the identifier as an alias only.

**Kinds.** ``image`` for ``![alt](url)``; ``code`` for a plain URL in a Markdown code span or a
fenced or indented code block (not a citation; BibTeX blocks excepted); ``query`` for an
``api.`` host or an ``/api/`` path (it names the tool, not a source); ``url`` for identifier
URLs, which are always citations, in code or not; ``""`` otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from groundcheck.extractors.acl import find_acl
from groundcheck.extractors.arxiv import find_arxiv, find_arxiv_legacy, url_path_id
from groundcheck.extractors.dblp import find_dblp
from groundcheck.extractors.doi import doi_at, in_publisher_url, registered_domain
from groundcheck.extractors.hints import needle_near, needle_positions
from groundcheck.extractors.isbn import isbn13
from groundcheck.extractors.mdcode import BIBTEX, CodeRegions, on_indented_line
from groundcheck.extractors.openalex import find_openalex
from groundcheck.extractors.openreview import find_openreview
from groundcheck.extractors.pubmed import find_pmcid, find_pmid
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.extractors.semanticscholar import find_semanticscholar
from groundcheck.extractors.urlkey import (
    UrlParts,
    canonical_url,
    split_url,
    unwrap,
    unwrapped_key,
    url_key,
)
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = ["URL", "URL_EXTRACTOR", "canonical_url", "find_url"]

SCHEME = "url"
URL = Scheme(SCHEME, "URL", "")
"""Cited as its key (``example.com/a``): the key is what two spellings of one page share."""

_MENTION = Mention._trusted
"""The URL mentions are placed from a candidate's span (``0 <= start < end``), or from a family
finder's checked mention shifted by the URL's offset: made without the validators."""
_KEY = Identifier._trusted
"""A URL key is never empty (a host, then at least ``/``): made without the validators."""

_RUN = LazyPattern(r"[^\s<>\"`{}|\\^\u3000-\u303f\uff00-\uffef]*")
_SPLIT = LazyPattern(r"[,;](?=(?:[Hh][Tt][Tt][Pp][Ss]?|[Ff][Tt][Pp])://)")
_CJK_AFTER_PUNCT = LazyPattern(
    r"[,.;:!?)\]](?=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])"
)
"""Full-width punctuation is folded to ASCII by the text view (``，`` -> ``,``), so in CJK prose
an ASCII punctuation mark directly before a CJK character ends the URL."""
_SCHEMES = frozenset({"http", "https", "ftp"})
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NOT_BEFORE_SCHEME = _LETTERS | frozenset("0123456789+.-")
_TRAILING = frozenset(".,;:!?*_~'\"")
_CLOSERS = {")": "(", "]": "["}
_TRIMMABLE = _TRAILING | frozenset(_CLOSERS)
"""The last characters :func:`_trim` may remove; a URL ending in any other is kept whole."""
_ENTITY_MAX = 32
_IMAGE_LOOKBACK = 1000
_ANGLE_MAX = 2048
"""How far a ``](<...>`` destination may run (it may hold spaces, so only ``>`` ends it)."""
_DOI_OVERRUN = 256
"""How far past a URL's end the DOI in it may run: a SICI DOI continues after ``<`` + digit,
where a URL stops; bounded so the check per URL costs a constant."""

# -- finding --------------------------------------------------------------------------------


def _scheme_start(text: str, colon: int) -> int | None:
    """Where the ``http``/``https``/``ftp`` before ``://`` at ``colon`` starts, if it does."""
    start = colon
    while start > 0 and colon - start < 5 and text[start - 1] in _LETTERS:
        start -= 1
    if text[start:colon].lower() not in _SCHEMES:
        return None
    if start and text[start - 1] in _NOT_BEFORE_SCHEME:
        return None  # "xhttps://", "git+https://"
    return start


def _www_start(text: str, at: int) -> bool:
    """May a scheme-less URL start at the ``www.`` at ``at``?"""
    if at == 0:
        return True
    before = text[at - 1]
    return not (before.isalnum() or before in "_.@/:-")


def _trim(text: str, start: int, end: int) -> int:
    """The end of the URL in ``text[start:end]`` after the spec's right-to-left trim.

    Parentheses and brackets are counted once, then decremented as closers are stripped, so a
    flood of ``)`` costs one pass (cmark-gfm recounts for each character it removes).
    """
    if end > start and text[end - 1] not in _TRIMMABLE:
        return end  # the common case, decided before counting brackets
    opens = {"(": text.count("(", start, end), "[": text.count("[", start, end)}
    closes = {")": text.count(")", start, end), "]": text.count("]", start, end)}
    while end > start:
        ch = text[end - 1]
        if ch == ";":
            amp = text.rfind("&", max(start, end - _ENTITY_MAX), end - 1)
            if amp != -1 and end - 1 > amp + 1 and text[amp + 1 : end - 1].isalnum():
                end = amp  # "...?q=1&hl;": an entity-like tail
                continue
        if ch in _TRAILING:
            end -= 1
        elif ch in _CLOSERS and closes[ch] > opens[_CLOSERS[ch]]:
            closes[ch] -= 1
            end -= 1
        else:
            break
    return end


def _pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The URLs of one run: split at ``,``/``;`` before a scheme, each piece trimmed."""
    if not text.isascii() and not text[start:end].isascii():
        # after the host: in an IDN host a dot before a CJK label separates labels
        cjk = _CJK_AFTER_PUNCT.search(text, _host_end(text, start, end), end)
        if cjk is not None:
            end = cjk.start() + 1
    piece = start
    if text.find(",", start, end) != -1 or text.find(";", start, end) != -1:  # else no cut
        for cut in _SPLIT.finditer(text, start, end):
            yield piece, _trim(text, piece, cut.start())
            piece = cut.end()
    yield piece, _trim(text, piece, end)


_COLON_FIRST = range(1)


def _hints(text: str) -> list[int]:
    """Where ``://`` or ``www.`` starts, in order; ``://`` found from the text's colons."""
    slashes = needle_near(text, "://", ":", _COLON_FIRST)
    www = needle_positions(text, "www.")
    if not slashes or not www:
        return slashes or www
    return sorted({*slashes, *www})


def _candidates(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, raw URL) of every URL-shaped piece, in order, before the host check."""
    resume = 0
    for at in _hints(text):
        if at < resume:
            continue
        if text.startswith("://", at):
            start = _scheme_start(text, at)
            body = at + 3
        else:
            start = at if _www_start(text, at) else None
            body = at
        if start is None:
            continue
        if start >= 3 and text.startswith("](<", start - 3):
            limit = min(len(text), body + _ANGLE_MAX)
            close = text.find(">", body, limit)
            newline = text.find("\n", body, limit)
            if close != -1 and (newline == -1 or close < newline):
                resume = close
                yield start, close, text[start:close].replace(" ", "%20")
                continue
        run = _RUN.match(text, body)
        run_end = run.end() if run is not None else body
        resume = run_end
        for piece_start, trimmed in _pieces(text, start, run_end):
            piece_end = trimmed
            if (
                piece_start == start
                and start
                and text[start - 1] == "="
                and text.find("?", piece_start, piece_end) == -1
            ):
                # A decoded redirect target after "uddg=", "url=": the outer query goes on
                # after "&" unless the target has a query of its own.
                amp = text.find("&", piece_start, piece_end)
                if amp != -1:
                    piece_end = _trim(text, piece_start, amp)
            if piece_end > piece_start:
                yield piece_start, piece_end, text[piece_start:piece_end]


# -- identifiers named by URLs ----------------------------------------------------------------

Finder = Callable[[str], Iterable[Mention]]

_ARXIV_FINDERS: tuple[Finder, ...] = (find_arxiv, find_arxiv_legacy)
_FAMILIES: dict[str, tuple[Finder, ...]] = {
    "arxiv.org": _ARXIV_FINDERS,
    "ar5iv.org": _ARXIV_FINDERS,
    "alphaxiv.org": _ARXIV_FINDERS,
    "xxx.lanl.gov": _ARXIV_FINDERS,
    "pubmed.ncbi.nlm.nih.gov": (find_pmid,),
    "ncbi.nlm.nih.gov": (find_pmid, find_pmcid),
    "europepmc.org": (find_pmid, find_pmcid),
    "aclanthology.org": (find_acl,),
    "aclweb.org": (find_acl,),
    "aclanthology.info": (find_acl,),
    "openreview.net": (find_openreview,),
    "semanticscholar.org": (find_semanticscholar,),
    "openalex.org": (find_openalex,),
    "dblp.org": (find_dblp,),
    "dblp.uni-trier.de": (find_dblp,),
    "dblp.dagstuhl.de": (find_dblp,),
}
"""Hosts (and their subdomains) whose URLs name an identifier, and the finders that read it.
The finders run on the URL's own characters, exactly as their extractors do on the text."""
_FAMILY_DOMAINS = frozenset(_FAMILIES)
_PATH_FAMILIES: dict[tuple[str, str], tuple[Finder, ...]] = {
    ("huggingface.co", "/papers/"): (find_arxiv,),
}

_ISBN_PATH = LazyPattern(r"/(?:isbn/|wiki/Special:BookSources/)([0-9Xx-]{10,17})(?:[/.]|$)")
_ISBN_HOSTS = frozenset({"openlibrary.org", "worldcat.org", "isbnsearch.org"})
_AMAZON_PATH = LazyPattern(r"/(?:[^/]{1,200}/)?(?:dp|gp/product)/([0-9]{9}[0-9Xx])(?:[/?]|$)")
_NATURE_PATH = LazyPattern(r"/articles/([A-Za-z0-9][A-Za-z0-9._-]{2,80}?)(?:\.pdf)?(?:/|$)")
_ARCHIVE_PATH = LazyPattern(r"/web/[0-9]{1,14}(?:[a-z]{2}_|\*)?/(.+)$", re.DOTALL)
_ARCHIVE_SCHEME = LazyPattern(r"(?i)(https?|ftp):/+")


def _first(found: Iterable[Mention], offset: int, not_before: int) -> Mention | None:
    best = None
    for m in found:
        if m.start + offset >= not_before and (best is None or m.start < best.start):
            best = m
    if best is None:
        return None
    return _MENTION(
        best.identifier,
        best.start + offset,
        best.end + offset,
        malformed=best.malformed,
        aliases=best.aliases,
    )


def _host_end(text: str, start: int, end: int) -> int:
    """Where the authority of the URL ``text[start:end]`` ends (at its path, query or end)."""
    slashes = text.find("://", start, min(end, start + 8))
    at = slashes + 3 if slashes != -1 else start
    for sep in "/?#":
        found = text.find(sep, at, end)
        if found != -1:
            end = found
    return end


def _family(text: str, start: int, end: int, parts: UrlParts) -> Mention | None:
    """The identifier mention a URL's host and path name, read from ``text[start:end]``."""
    host = parts.host[4:] if parts.host.startswith("www.") else parts.host
    path_at = _host_end(text, start, end)
    if in_publisher_url(host, parts.path):
        pos = text.find("10.", path_at, end)
        limit = min(len(text), end + _DOI_OVERRUN)
        while pos != -1:
            doi = doi_at(text, pos, limit)
            if doi is not None:
                return doi
            pos = text.find("10.", pos + 1, end)
        return None
    domain = registered_domain(host, _FAMILY_DOMAINS)
    finders = _FAMILIES.get(domain) if domain is not None else None
    if finders is None:
        for (path_host, prefix), path_finders in _PATH_FAMILIES.items():
            if host == path_host and parts.path.startswith(prefix):
                finders = path_finders
                break
    if finders is None:
        return _isbn_url(host, parts, start, end)
    if finders is _ARXIV_FINDERS:
        quick = url_path_id(text, path_at, end)  # /abs/<id>: what the finders would say
        if quick is not None:
            return quick
    piece = text[start:end]
    found: list[Mention] = []
    for finder in finders:
        found.extend(finder(piece))
    return _first(found, start, path_at)


def _isbn_url(host: str, parts: UrlParts, start: int, end: int) -> Mention | None:
    """Book-catalogue URLs: ``openlibrary.org/isbn/...``, ``books.google.com/books?isbn=...``."""
    value = None
    if registered_domain(host, _ISBN_HOSTS) is not None or "Special:BookSources" in parts.path:
        m = _ISBN_PATH.search(parts.path)
        value = m.group(1) if m is not None else None
    elif host == "books.google.com" and parts.query:
        for piece in parts.query.split("&"):
            name, _, v = piece.partition("=")
            if name.lower() == "isbn":
                value = v
                break
    if value is None:
        return None
    canonical = isbn13(value.replace("-", ""))
    if canonical is None:
        return None
    return Mention(Identifier("isbn", canonical), start, end)


def _alias_ids(parts: UrlParts) -> tuple[Identifier, ...]:
    """Identifiers a URL names by convention only: kept as aliases of its URL key."""
    host = parts.host[4:] if parts.host.startswith("www.") else parts.host
    if host == "nature.com":
        m = _NATURE_PATH.match(parts.path)
        if m is not None:
            return (Identifier("doi", "10.1038/" + m.group(1).lower()),)
    elif ".amazon." in f".{host}" or host.startswith("amazon."):
        m = _AMAZON_PATH.match(parts.path)
        if m is not None:
            canonical = isbn13(m.group(1))
            if canonical is not None:
                return (Identifier("isbn", canonical),)
    return ()


def _archived(parts: UrlParts) -> UrlParts | None:
    """The page a ``web.archive.org/web/<timestamp>/<url>`` snapshot holds."""
    if parts.host != "web.archive.org":
        return None
    m = _ARCHIVE_PATH.match(parts.path)
    if m is None:
        return None
    inner = _ARCHIVE_SCHEME.sub(lambda s: s.group(1) + "://", m.group(1), count=1)
    if parts.query is not None:
        inner += "?" + parts.query
    return split_url(inner)


# -- kinds ------------------------------------------------------------------------------------


def _is_image(text: str, start: int) -> bool:
    """Is the URL at ``start`` the destination of a Markdown image ``![alt](url)``?"""
    at = start - 1 if start and text[start - 1] == "<" else start
    if not text.startswith("](", at - 2):
        return False
    lo = max(0, at - _IMAGE_LOOKBACK)
    lo = max(lo, text.rfind("\n", lo, at) + 1)
    bracket = text.rfind("[", lo, at - 2)
    return bracket > 0 and text[bracket - 1] == "!"


def _is_query(parts: UrlParts) -> bool:
    return parts.host.startswith("api.") or "/api/" in parts.path


# -- the extractor ----------------------------------------------------------------------------


def _dedupe(ids: Iterable[Identifier]) -> tuple[Identifier, ...]:
    out: list[Identifier] = []
    for i in ids:
        if i not in out:
            out.append(i)
    return tuple(out)


def find_url(text: str) -> Iterator[Mention]:
    """Web URLs: bare, ``<autolinks>``, Markdown and HTML links; identifier URLs name their work."""
    regions: CodeRegions | None = None  # built when a URL may be in code, once per text
    fenced = "`" in text or "~" in text
    for start, found_end, raw in _candidates(text):
        end = found_end
        parts = split_url(raw)
        if parts is None:
            continue
        inner = _archived(parts)
        if inner is None:
            target = unwrap(parts)
            key = _KEY(SCHEME, unwrapped_key(target))  # url_key(parts), unwrapped once
            extra = []
        else:
            key = _KEY(SCHEME, url_key(parts))
            target = unwrap(inner)
            extra = [_KEY(SCHEME, unwrapped_key(target))]
        family = _family(text, start, end, target)
        if family is not None:
            if family.end > end:  # a DOI that runs past where a URL stops (SICI "<")
                end = family.end
                longer = split_url(text[start:end])
                key = Identifier(SCHEME, url_key(longer)) if longer is not None else key
            aliases = () if family.malformed else _dedupe((*family.aliases, key, *extra))
            yield _MENTION(
                family.identifier,
                start,
                end,
                malformed=family.malformed,
                aliases=aliases,
                kind="url",
            )
            continue
        extra.extend(_alias_ids(target))
        code = None
        if regions is None and (fenced or on_indented_line(text, start)):
            regions = CodeRegions.of(text)
        if regions is not None:
            code = regions.kind_at(start)
        if code is not None and code != BIBTEX:
            kind = "code"
        elif _is_image(text, start):
            kind = "image"
        elif _is_query(target):
            kind = "query"
        else:
            kind = ""
        yield _MENTION(key, start, end, aliases=_dedupe(extra), kind=kind)


URL_EXTRACTOR = FunctionExtractor(
    "url",
    find_url,
    "web URLs: https://..., www...., Markdown/HTML links; doi.org, arxiv.org, PubMed and other "
    "identifier URLs name their work",
    schemes=(URL,),
)
