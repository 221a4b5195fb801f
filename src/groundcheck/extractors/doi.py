"""DOIs in prose, markdown, JSON and URLs (``shared/identifier-spec.md`` section 4).

The candidate is everything after ``10.<registrant>/`` up to a character no DOI written in
running text contains; then the spec's trimming rules remove what the surrounding prose added
(a closing bracket with no opener, sentence punctuation, markdown emphasis). Canonical form:
percent-decoded and lower-cased, since DOIs compare case-insensitively.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

from groundcheck.extractors.arxiv import parse_arxiv
from groundcheck.model import Identifier, Mention, Scheme

__all__ = ["ARXIV_DOI_PREFIX", "DOI", "find_doi", "normalize_doi"]

SCHEME = "doi"
DOI = Scheme(SCHEME, "DOI", "doi:")
ARXIV_DOI_PREFIX = "10.48550/arxiv."
"""DataCite prefix arXiv registers every paper under: ``10.48550/arXiv.2202.01037``."""

_SUFFIX_CHAR = (
    r"[^\s\x00-\x1f\x7f-\x9f\"'`{}|\\^<\[\]?#"
    r"\u2013\u2014\u2018\u2019\u201c\u201d\u3000-\u303f\uff00-\uffef]"
)
_CANDIDATE = re.compile(
    r"10\.([0-9]{1,9}(?:\.[0-9]{1,9}){0,4})(?:/|%2[Ff])((?:" + _SUFFIX_CHAR + r"|<(?=[0-9]))*)"
)
"""``10.`` + registrant + ``/`` (or ``%2F``) + the longest run of characters a DOI may hold.
The registrant's repetitions are bounded (at most 9 digits, 4 sub-levels) so a flood of
``10.10.10.`` costs a constant per position instead of backtracking over the whole flood.
Starts with a literal so the engine searches for ``10.`` instead of trying every position.
Stops at white space, control characters (a NUL is never part of a DOI), quotes, backticks,
``{}|\\^``, ``[`` ``]``, ``?`` ``#`` (URL query and fragment), en/em dashes, CJK and full-width
punctuation, and ``<`` unless a digit follows (SICI DOIs hold ``<2.0.CO;2-``)."""

_CONTINUATION = re.compile(
    r"(?:\r\n|[\n\r\v\f\x85\u2028\u2029])[ \t]*((?:" + _SUFFIX_CHAR + r"|<(?=[0-9]))+)"
)
"""A DOI suffix that runs into a line break, and the next line's first token: a DOI has no
fixed length, so ``10.1000/made.`` + ``up.42`` on the next line may be one DOI cut by the
wrap, or a DOI and a word. Both readings name the citation (see :func:`find_doi`)."""

_ENTITY = re.compile(r"&(?:[A-Za-z]+|#[0-9]+|#[xX][0-9A-Fa-f]+);")
_TRAILING = ".,;:!*_~"
_CLOSERS = {")": "(", ">": "<", "}": "{"}
_DOI_CONTEXT = re.compile(r"(?i:doi)(?:[ \t]*:[ \t]*|[ \t]+|\.org/)$")


def _cut_unbalanced(suffix: str) -> str:
    """Cut at the first closing bracket that has no opener inside the DOI (spec rule 3)."""
    depth = {"(": 0, "<": 0, "{": 0}
    for i, ch in enumerate(suffix):
        if ch in depth:
            depth[ch] += 1
        elif ch in _CLOSERS:
            opener = _CLOSERS[ch]
            if depth[opener] == 0:
                return suffix[:i]
            depth[opener] -= 1
    return suffix


def _trim(suffix: str) -> str:
    return _cut_unbalanced(_trim_entity(suffix)).rstrip(_TRAILING)


def normalize_doi(doi: str) -> str:
    """Canonical key of a DOI that is already isolated: percent-decoded, lower-cased."""
    return unquote(doi).lower()


def find_doi(text: str) -> Iterator[Mention]:
    """DOIs, bare or after ``doi:``/``https://doi.org/``; the arXiv DOI also names the arXiv id.

    A registrant code under 4 digits (``10.5/x``) is not a DOI; written after a ``doi:``
    prefix or a doi.org URL it is reported as malformed, as is a DOI with an empty suffix.
    """
    for m in _CANDIDATE.finditer(text):
        start = m.start()
        if start and text[start - 1].isascii() and text[start - 1].isalnum():
            continue  # "110.1000/x", "v10.1000/x": part of another token
        registrant = m.group(1)
        suffix = _trim(m.group(2))
        problem = None
        first = registrant.split(".", 1)[0]
        if not 4 <= len(first) <= 9:
            problem = f"DOI registrant codes have 4 to 9 digits, not {len(first)} ({first})"
        elif not suffix:
            problem = "DOI has no suffix after the slash"
        if problem is not None:
            if _DOI_CONTEXT.search(text, max(0, start - 12), start) is None:
                continue
            end = m.start(2) + len(suffix) if suffix else m.start(2)
            raw_key = normalize_doi(text[start:end]).rstrip("/") or "10."
            yield Mention(Identifier(SCHEME, raw_key), start, end, malformed=problem)
            continue
        end = m.start(2) + len(suffix)
        identifier, aliases = _identify(registrant, suffix)
        cut = _CONTINUATION.match(text, m.end())
        if cut is not None and _cut_unbalanced(_trim_entity(m.group(2))) == m.group(2):
            # Cut by a line break: the joined reading is another name of the same citation,
            # so evidence holding either reading grounds it (no false error on the cut form).
            joined, more = _identify(registrant, _trim(m.group(2) + cut.group(1)))
            if joined != identifier:
                aliases = (*aliases, joined, *more)
        yield Mention(identifier, start, end, aliases=aliases)


def _trim_entity(suffix: str) -> str:
    entity = _ENTITY.search(suffix)
    return suffix if entity is None else suffix[: entity.start()]


def _identify(registrant: str, suffix: str) -> tuple[Identifier, tuple[Identifier, ...]]:
    """The DOI ``10.registrant/suffix`` and its other names (the arXiv id of an arXiv DOI)."""
    doi = normalize_doi(f"10.{registrant}/{suffix}")
    if doi.startswith(ARXIV_DOI_PREFIX):
        arxiv = parse_arxiv(doi[len(ARXIV_DOI_PREFIX) :])
        if arxiv is not None:
            return Identifier(SCHEME, ARXIV_DOI_PREFIX + arxiv.id, arxiv.version), (arxiv,)
    return Identifier(SCHEME, doi), ()
