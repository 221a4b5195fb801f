"""``find_arxiv_legacy`` of ``extractors/arxiv.py`` as it was at 033619f (issue 17, before the
archive search began at the run of letters before the slash instead of 40 characters back)."""

from __future__ import annotations

from collections.abc import Iterator

from groundcheck.extractors.arxiv import (
    _ARCHIVE_BEFORE,
    _ARCHIVE_WINDOW,
    _LEGACY_TAIL,
    SCHEME,
    _after_arxiv_prefix,
    _legacy_problem,
)
from groundcheck.model import Identifier, Mention


def find_arxiv_legacy(text: str) -> Iterator[Mention]:
    for m in _LEGACY_TAIL.finditer(text):
        slash = m.start()
        a = _ARCHIVE_BEFORE.search(text, max(0, slash - _ARCHIVE_WINDOW), slash)
        if a is None:
            continue
        start = a.start()
        if start and text[start - 1] == "." and not _after_arxiv_prefix(text, start):
            continue
        archive = a.group(1).lower()
        digits, version = m.group(1), m.group(2)
        problem = _legacy_problem(digits, version, archive)
        yield Mention(
            Identifier(SCHEME, f"{archive}/{digits}", int(version) if version else None),
            start,
            m.end(),
            malformed=problem,
        )
