"""The citations of ``groundcheck extract --format json``, written without a dict per citation.

The generic path turns every citation into a dict (:meth:`~groundcheck.model.Citation.to_dict`)
and hands the list to the JSON encoder; for the ~8,000 citations of a 10 MB report that was
~40 ms, a few times the cost of the text itself. Here each citation is one f-string whose
strings are escaped by the encoder's own C function, so the bytes are those of
``dumps([c.to_dict() for c in citations], indent=None, compact=True)``, key order included.
A citation that is not exactly a :class:`~groundcheck.model.Citation` with fields of the
declared types (a subclass, a plug-in's odd version) takes that generic path, so the output
never depends on which path wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable
from json.encoder import encode_basestring
from typing import Any

from groundcheck.model import Citation, dumps

__all__ = ["citations_json"]


def _generic(citation: Any) -> str:
    data = citation.to_dict() if hasattr(citation, "to_dict") else citation
    return dumps(data, indent=None, compact=True)


def _one(citation: Any) -> str:
    """One citation as compact JSON (the keys of :meth:`Citation.to_dict`, in its order)."""
    if type(citation) is not Citation:
        return _generic(citation)
    identifier = citation.identifier
    version, source, kind = identifier.version, citation.source, citation.kind
    start, end, line, column = citation.start, citation.end, citation.line, citation.column
    if not (
        type(start) is int
        and type(end) is int
        and type(line) is int
        and type(column) is int
        and (version is None or type(version) is int)
        and (source is None or type(source) is str)
        and type(kind) is str
        and type(citation.raw) is str
        and type(identifier.scheme) is str
        and type(identifier.id) is str
    ):
        return _generic(citation)
    e = encode_basestring
    return (
        f'{{"scheme":{e(identifier.scheme)},"id":{e(identifier.id)},'
        f'"version":{"null" if version is None else version},"raw":{e(citation.raw)},'
        f'"start":{start},"end":{end},"line":{line},"column":{column},'
        f'"malformed":{"false" if citation.malformed is None else "true"},'
        f'"source":{"null" if source is None else e(source)},'
        f'"kind":{e(kind) if kind else "null"}}}'
    )


def citations_json(citations: Iterable[Any]) -> str:
    """Citations as one line of compact JSON, a list of objects.

    >>> from groundcheck.model import Identifier
    >>> c = Citation(Identifier("arxiv", "2005.11401", 2), "2005.11401v2", 4, 16, 1, 5)
    >>> citations_json([c])
    '[{"scheme":"arxiv","id":"2005.11401","version":2,"raw":"2005.11401v2","start":4,\
"end":16,"line":1,"column":5,"malformed":false,"source":null,"kind":null}]'
    >>> citations_json([c]) == dumps([c.to_dict()], indent=None, compact=True)
    True
    """
    return "[" + ",".join([_one(c) for c in citations]) + "]"
