"""The report's structure, parsed once: blocks, reference entries, markers and cited works.

:class:`Document` parses a report (headings, paragraphs, list items, table cells, quotes,
code; reference lists and their entries in every common style; in-text markers and
author–year citations). :func:`build_works` groups what the extractors found in it into the
works the report cites. See docs/references.md for the rules and why each exists.
"""

from groundcheck.document.report import Document
from groundcheck.document.works import WorkSet, build_works

__all__ = ["Document", "WorkSet", "build_works"]
