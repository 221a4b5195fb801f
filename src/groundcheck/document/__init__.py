"""The report's structure, parsed once: blocks, reference entries, markers and cited works.

:class:`Document` parses a report (headings, paragraphs, list items, table cells, quotes,
code; reference lists and their entries in every common style; in-text markers and
author–year citations). :func:`build_works` groups what the extractors found in it into the
works the report cites. See docs/references.md for the rules and why each exists.

The works module is imported when its names are first asked for (PEP 562): the title
extractor parses every text it reads, and ``groundcheck extract`` never groups works.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundcheck.document.report import Document

if TYPE_CHECKING:
    from groundcheck.document.works import WorkSet, build_works

__all__ = ["Document", "WorkSet", "build_works"]


def __getattr__(name: str) -> Any:
    if name in ("WorkSet", "build_works"):
        from groundcheck.document import works

        return getattr(works, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
