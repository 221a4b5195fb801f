"""The extractors groundcheck ships, and the default registry that holds them.

The registry module knows nothing of its contents; this module fills it. ``audit()``, the CLI
and the ledger use :func:`default_registry` unless given another registry.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, overload

from groundcheck.extractors.acl import ACL_EXTRACTOR
from groundcheck.extractors.arxiv import ARXIV, find_arxiv, find_arxiv_legacy
from groundcheck.extractors.dblp import DBLP_EXTRACTOR
from groundcheck.extractors.doi import DOI, find_doi
from groundcheck.extractors.isbn import ISBN_EXTRACTOR
from groundcheck.extractors.openalex import OPENALEX_EXTRACTOR
from groundcheck.extractors.openreview import OPENREVIEW_EXTRACTOR
from groundcheck.extractors.pubmed import PMCID_EXTRACTOR, PMID_EXTRACTOR
from groundcheck.extractors.registry import Extractor, FunctionExtractor, Registry
from groundcheck.extractors.semanticscholar import S2_EXTRACTOR
from groundcheck.extractors.title import TitleExtractor
from groundcheck.extractors.url import URL_EXTRACTOR
from groundcheck.model import Mention

__all__ = ["BUILTIN", "builtin_registry", "default_registry", "register_extractor"]

BUILTIN: tuple[Extractor, ...] = (
    FunctionExtractor(
        "arxiv",
        find_arxiv,
        "modern arXiv ids: 2005.11401, arXiv:2005.11401v2, URLs",
        schemes=(ARXIV,),
    ),
    FunctionExtractor(
        "arxiv-legacy",
        find_arxiv_legacy,
        "old-style arXiv ids: hep-th/9711200, math.AG/0601001",
        schemes=(ARXIV,),
    ),
    FunctionExtractor(
        "doi", find_doi, "DOIs: 10.1000/xyz, doi:, doi.org URLs; arXiv DOIs too", schemes=(DOI,)
    ),
    URL_EXTRACTOR,
    PMID_EXTRACTOR,
    PMCID_EXTRACTOR,
    ISBN_EXTRACTOR,
    ACL_EXTRACTOR,
    OPENREVIEW_EXTRACTOR,
    S2_EXTRACTOR,
    OPENALEX_EXTRACTOR,
    DBLP_EXTRACTOR,
    TitleExtractor(),
)


def builtin_registry() -> Registry:
    """A fresh registry holding only the built-in extractors (tests start from this).

    >>> builtin_registry().names()  # doctest: +NORMALIZE_WHITESPACE
    ['arxiv', 'arxiv-legacy', 'doi', 'url', 'pmid', 'pmcid', 'isbn', 'acl', 'openreview',
     'semanticscholar', 'openalex', 'dblp', 'title']
    """
    registry = Registry()
    for extractor in BUILTIN:
        registry.register(extractor, source="builtin")
    return registry


_default: Registry | None = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The registry ``audit()`` and the CLI use unless given another: built-ins plus yours."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = builtin_registry()
    return _default


@overload
def register_extractor(func: Callable[[str], Iterable[Mention]], /) -> Extractor: ...


@overload
def register_extractor(
    name: str | None = None, /, *, replace: bool = False
) -> Callable[[Callable[[str], Iterable[Mention]]], Extractor]: ...


def register_extractor(func_or_name: Any = None, /, *, replace: bool = False) -> Any:
    """Register a function as an extractor in the default registry.

    ::

        @groundcheck.register_extractor("pmid")
        def pmid(text):
            for m in PMID.finditer(text):
                yield Mention(Identifier("pmid", m[1]), m.start(1), m.end(1))
    """
    return default_registry().extractor(func_or_name, replace=replace)
