"""DBLP record keys, after ``DBLP:`` and in dblp.org URLs only (spec-2 section 5).

A key is ``<type>/<venue>/<name>`` (``conf/nips/VaswaniSPUJGKP17``,
``journals/corr/abs-1706-03762``); agent-written BibTeX often carries it as the entry key
(``@inproceedings{DBLP:conf/acl/DevlinCLT19,``). A bare ``conf/nips/...`` looks like a file
path, so only the prefix or a ``dblp.org/rec/`` URL makes one. Keys are case-sensitive and kept
as written. A CoRR key ``journals/corr/abs-YYMM-NNNNN`` is arXiv ``YYMM.NNNNN``, which becomes an
alias.
"""

from __future__ import annotations

from collections.abc import Iterator

from groundcheck.extractors.arxiv import parse_arxiv
from groundcheck.extractors.hints import needle_near
from groundcheck.extractors.registry import FunctionExtractor
from groundcheck.model import Identifier, Mention, Scheme
from groundcheck.text import LazyPattern

__all__ = ["DBLP", "DBLP_EXTRACTOR", "find_dblp"]

SCHEME = "dblp"
DBLP = Scheme(SCHEME, "DBLP", "DBLP:")

_TYPES = r"(?:conf|journals|books|series|reference|phd|tr|ms|persons|homepages)"
_KEY = LazyPattern(
    r"(?<![A-Za-z0-9-])(?:(?i:dblp)[ \t]{0,4}:[ \t]{0,4}"
    r"|(?i:dblp\.(?:org|uni-trier\.de|dagstuhl\.de)/rec/)(?:(?:bibtex|bib[12]?|html|xml|ris)/)?)"
    rf"({_TYPES}(?:/[A-Za-z0-9][A-Za-z0-9_'.-]{{0,99}}){{1,3}})"
)
"""A type, then one to three path segments; each segment is bounded and starts with a letter or
digit, so the pattern is linear. A trailing ``.html``/``.bib``/``.xml`` of a URL is cut off
after matching."""
_URL_SUFFIX = LazyPattern(r"\.(?:html|bib|xml|ris|nt|rdf|ttl)$")
_CORR = LazyPattern(r"journals/corr/abs-([0-9]{4})-([0-9]{4,5})(?:v[0-9]+)?")


_HOSTS = ("dblp.org", "dblp.uni-trier.de", "dblp.dagstuhl.de")
_COLON = range(len("dblp"), len("dblp") + 4 + 1)
"""Where the colon of ``DBLP:`` may stand after ``dblp`` (up to four spaces or tabs between)."""
_SLASH = range(min(map(len, _HOSTS)), max(map(len, _HOSTS)) + 1)
"""Where the ``/`` after a DBLP host may stand after ``dblp``."""


def _hints(text: str) -> list[int]:
    """The ``dblp`` positions where :data:`_KEY` may match: it needs a ``:`` or a host's ``/``
    at a fixed distance after ``dblp``, and both are rare in prose, so the full-text scan for
    ``dblp`` is skipped."""
    colon = needle_near(text, "dblp", ":", _COLON)
    slash = needle_near(text, "dblp", "/", _SLASH)
    if not colon or not slash:
        return colon or slash
    return sorted({*colon, *slash})


def find_dblp(text: str) -> Iterator[Mention]:
    """DBLP keys after ``DBLP:`` and in ``dblp.org/rec/<key>`` URLs; CoRR keys alias arXiv."""
    for at in _hints(text):
        m = _KEY.match(text, at)
        if m is None:
            continue
        key = m.group(1).rstrip(".'-")  # sentence punctuation first: "…/0.html." is "…/0"
        suffix = _URL_SUFFIX.search(key)
        if suffix is not None:
            key = key[: suffix.start()]
        key = key.rstrip(".'-")
        if key.count("/") < 1 or key.endswith("/"):
            continue
        aliases: tuple[Identifier, ...] = ()
        corr = _CORR.fullmatch(key)
        if corr is not None:
            arxiv = parse_arxiv(f"{corr.group(1)}.{corr.group(2)}")
            if arxiv is not None:
                aliases = (arxiv,)
        start = m.start(1)
        yield Mention(Identifier(SCHEME, key), start, start + len(key), aliases=aliases)


DBLP_EXTRACTOR = FunctionExtractor(
    "dblp",
    find_dblp,
    "DBLP keys after DBLP: or in dblp.org/rec/ URLs: DBLP:conf/nips/VaswaniSPUJGKP17",
    schemes=(DBLP,),
)
