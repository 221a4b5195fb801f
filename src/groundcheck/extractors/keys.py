"""Identifier-valued JSON keys in tool outputs, by exact name (spec-2 section 6).

A tool output often names a work by a bare value under a key: Semantic Scholar's
``"externalIds": {"PubMed": "31452104", "PubMedCentral": "2323736", "CorpusId": 215416146}``,
a PubMed tool's ``{"pmid": 31452104}``. The value alone is just a number, which the extractors
rightly never take for an identifier, so the evidence side should hand them ``key: value`` in
the written form of the key's scheme (``PMID: 31452104``). The key decides the scheme, so names
are matched **exactly** (case-insensitively, ``-`` and ``_`` ignored), never by prefix or
substring: ``PubMedCentral`` is a PMCID key and ``PubMed`` a PMID key; ``Medline`` (another
number, printed beside ``PubMed`` by Semantic Scholar) and ``MAG`` (a retired service) are none.

>>> labelled("PubMedCentral", "2323736")
'PMCID: 2323736'
>>> labelled("Medline", "87654321") is None
True
"""

from __future__ import annotations

from groundcheck.text import LazyPattern

__all__ = ["EVIDENCE_KEYS", "labelled", "scheme_of_key"]

EVIDENCE_KEYS: dict[str, tuple[str, str]] = {
    # normalised key name: (scheme, written form with {} for the value)
    "pmid": ("pmid", "PMID: {}"),
    "pubmed": ("pmid", "PMID: {}"),
    "pubmedid": ("pmid", "PMID: {}"),
    "med": ("pmid", "PMID: {}"),
    "pmcid": ("pmcid", "PMCID: {}"),
    "pmc": ("pmcid", "PMCID: {}"),
    "pmcidver": ("pmcid", "PMCID: {}"),
    "pubmedcentral": ("pmcid", "PMCID: {}"),
    "isbn": ("isbn", "ISBN {}"),
    "isbn10": ("isbn", "ISBN {}"),
    "isbn13": ("isbn", "ISBN {}"),
    "isbns": ("isbn", "ISBN {}"),
    "openalex": ("openalex", "openalex:{}"),
    "openalexid": ("openalex", "openalex:{}"),
    "corpusid": ("s2-corpus", "CorpusId:{}"),
    "paperid": ("s2", "https://www.semanticscholar.org/paper/{}"),
    "dblp": ("dblp", "DBLP:{}"),
    "acl": ("acl", "ACL:{}"),
    "aclid": ("acl", "ACL:{}"),
    "openreview": ("openreview", "https://openreview.net/forum?id={}"),
    "openreviewid": ("openreview", "https://openreview.net/forum?id={}"),
    "arxiv": ("arxiv", "arXiv:{}"),
    "arxivid": ("arxiv", "arXiv:{}"),
    "eprint": ("arxiv", "arXiv:{}"),
    "doi": ("doi", "doi:{}"),
}
"""Key names (lower-case, without ``-``/``_``) whose value is an identifier, with the scheme
and the form the extractors read. ``paperid`` only renders a 40-hex value (Semantic Scholar's
paper SHA); a ``forum``/``id`` inside an OpenReview note needs the record around it and is left
to the OpenReview loader."""

_SEPARATORS = LazyPattern(r"[-_ ]")
_S2_SHA = LazyPattern(r"[0-9A-Fa-f]{40}")
_MAX_VALUE = 300


_NORMAL: dict[str, str] = {}
"""Key -> its normal form. A tool's records repeat a handful of keys thousands of times (10,000
``labelled`` calls in one audit of 100 searches), so each key is normalised once; a hostile
output with ever-new keys stops filling it at :data:`_MOST_KEYS`."""
_MOST_KEYS = 4096


def _normal(key: str) -> str:
    normal = _NORMAL.get(key)
    if normal is None:
        normal = _SEPARATORS.sub("", key.lower())
        if len(_NORMAL) < _MOST_KEYS:
            _NORMAL[key] = normal
    return normal


def scheme_of_key(key: str) -> str | None:
    """The scheme a JSON key's values belong to, by exact name; None for any other key."""
    entry = EVIDENCE_KEYS.get(_normal(key))
    return entry[0] if entry is not None else None


def labelled(key: str, value: object) -> str | None:
    """``value`` written so its scheme's extractor reads it (``PMID: 31452104``), or None.

    Only strings and integers of at most 300 characters are rendered, and only under the
    keys of :data:`EVIDENCE_KEYS`; a value that is not an identifier stays one that no
    extractor takes (``ISBN 12`` is malformed and grounds nothing).
    """
    entry = EVIDENCE_KEYS.get(_normal(key))
    if entry is None or isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    text = str(value).strip()
    if not text or len(text) > _MAX_VALUE or "\n" in text:
        return None
    if entry[0] == "s2" and not _S2_SHA.fullmatch(text):
        return None
    return entry[1].format(text)
