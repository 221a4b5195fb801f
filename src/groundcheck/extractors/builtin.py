"""The extractors groundcheck ships, registered under the names users and plug-ins see."""

from __future__ import annotations

from groundcheck.extractors.arxiv import ARXIV, find_arxiv, find_arxiv_legacy
from groundcheck.extractors.doi import DOI, find_doi
from groundcheck.extractors.registry import FunctionExtractor, Registry
from groundcheck.extractors.titles import TitleExtractor

__all__ = ["BUILTIN", "builtin_registry"]

BUILTIN = (
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
    TitleExtractor(),
)


def builtin_registry() -> Registry:
    """A fresh registry holding only the built-in extractors (tests start from this)."""
    registry = Registry()
    for extractor in BUILTIN:
        registry.register(extractor, source="builtin")
    return registry
