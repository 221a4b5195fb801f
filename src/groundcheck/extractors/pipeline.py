"""Running extractors over a text: the normalised view, overlap resolution, original offsets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from groundcheck.collector import collection_paused
from groundcheck.errors import PluginError
from groundcheck.extractors.builtin import default_registry
from groundcheck.extractors.registry import Extractor, Registry
from groundcheck.model import Citation, Identifier, Mention
from groundcheck.text import TextView, locate

__all__ = ["extract", "find_mentions", "identifiers_in", "resolve_extractors", "resolve_overlaps"]


def resolve_extractors(
    registry: Registry | None = None, names: Iterable[str] | None = None
) -> tuple[Extractor, ...]:
    """The extractors to run: the registry's (default: the default registry), or those named."""
    return (registry or default_registry()).select(names)


def _run(
    extractor: Extractor, text: str, beside: list[Mention] | None = None
) -> list[tuple[Mention, str]]:
    try:
        if beside is None:
            found = list(extractor.find(text))
        else:
            found = list(getattr(extractor, "find_beside")(text, beside))  # noqa: B009
    except (Exception, SystemExit) as exc:  # a plug-in's sys.exit() must not end the audit
        raise PluginError(
            f"extractor {extractor.name!r} failed: {type(exc).__name__}: {exc}"
        ) from exc
    n = len(text)
    for mention in found:
        if not isinstance(mention, Mention):
            raise PluginError(
                f"extractor {extractor.name!r} yielded {type(mention).__name__}, not a Mention"
            )
        if mention.end > n:
            raise PluginError(
                f"extractor {extractor.name!r} reported a span {mention.start}:{mention.end} "
                f"outside a text of {n} characters"
            )
    name = extractor.name  # a property: read once, not once per mention
    return [(m, name) for m in found]


def find_mentions(text: str, extractors: Sequence[Extractor]) -> list[tuple[Mention, str]]:
    """All mentions in ``text`` by position, each with the name of the extractor that found it.

    Two extractors may report overlapping spans: the arXiv extractor sees ``2005.11401`` inside
    the DOI ``10.48550/arXiv.2005.11401``. A mention inside another one that already names the
    same work is dropped, so one written citation counts once; any other overlap keeps both,
    and each is judged on its own.

    An extractor with a ``find_beside(text, mentions)`` method (the title extractor) runs after
    the others and is handed their mentions, so it need not search for identifiers again.
    """
    found: list[tuple[Mention, str]] = []
    second: list[Extractor] = []
    for extractor in extractors:
        if callable(getattr(extractor, "find_beside", None)):
            second.append(extractor)
        else:
            found.extend(_run(extractor, text))
    if second:
        first = [m for m, _ in found]
        for extractor in second:
            found.extend(_run(extractor, text, first))
    return resolve_overlaps(found)


def resolve_overlaps(found: list[tuple[Mention, str]]) -> list[tuple[Mention, str]]:
    """``found`` (mentions with their extractor's name, in extractor order) by position, a
    mention inside another that already names the same work dropped (see
    :func:`find_mentions`). Sorts ``found`` in place."""
    if len(found) < 2:
        return found
    found.sort(key=_order)
    kept: list[tuple[Mention, str]] = []
    containers: list[Mention] = []  # kept mentions whose span may still contain later ones
    reach = -1  # the furthest end among ``containers``
    for pair in found:
        mention = pair[0]
        start = mention.start
        if reach > start:  # some container still spans this start (and starts at or before it)
            containers = [c for c in containers if c.end > start]
            end, identifier = mention.end, mention.identifier
            if any(end <= c.end and c is not mention and identifier in c.keys for c in containers):
                continue
            containers.append(mention)
            reach = max(reach, mention.end)
        else:  # every container ends before this start: none can contain it, or a later one
            containers = [mention]
            reach = mention.end
        kept.append(pair)
    return kept


def _order(pair: tuple[Mention, str]) -> tuple[int, int, str]:
    mention = pair[0]
    return (mention.start, -mention.end, pair[1])


def extract(
    text: str,
    registry: Registry | None = None,
    *,
    extractors: Sequence[Extractor] | None = None,
    source: str | None = None,
) -> tuple[Citation, ...]:
    """Every identifier cited in ``text``, with raw text, offsets, line and column.

    Extraction runs on the normalised view (:class:`~groundcheck.text.TextView`) and reports
    spans in ``text`` itself, so ``text[c.start:c.end] == c.raw`` for every citation.
    Malformed tokens are included, marked by ``Citation.malformed``.

    >>> [(c.scheme, c.id, c.raw, c.line, c.column) for c in extract(
    ...     "RAG (arXiv:2005.11401v2), see doi:10.1000/xyz.")]
    [('arxiv', '2005.11401', '2005.11401v2', 1, 12), ('doi', '10.1000/xyz', '10.1000/xyz', 1, 35)]
    """
    if extractors is None:
        extractors = resolve_extractors(registry)
    with collection_paused():  # a mention, a citation and tuples per id: no cycle among them
        return _extract(text, extractors, source)


def _extract(
    text: str, extractors: Sequence[Extractor], source: str | None
) -> tuple[Citation, ...]:
    view = TextView.of(text)
    mentions = find_mentions(view.text, extractors)
    spans: list[tuple[int, int]] | None = None
    if view.is_identity:
        places = locate(text, [m.start for m, _ in mentions])
    else:
        spans = [view.to_original(m.start, m.end) for m, _ in mentions]
        places = locate(text, [s for s, _ in spans])
    cite = Citation._trusted  # offsets, lines and columns are non-negative ints by construction
    # Each mention is let go as its citation is made, and equal raw texts are one string (at
    # most 4,096 kept): a flood of 100,000 ids holds its mentions or its citations, not both,
    # and one copy of the token it repeats.
    pending = cast("list[tuple[Mention, str] | None]", mentions)
    raws: dict[str, str] = {}
    citations: list[Citation] = []
    for k, (line, column) in enumerate(places):
        mention, name = cast("tuple[Mention, str]", pending[k])
        pending[k] = None
        start, end = (mention.start, mention.end) if spans is None else spans[k]
        raw = text[start:end]
        raw = raws.setdefault(raw, raw)
        if len(raws) > 4096:
            raws.clear()
        citations.append(
            cite(
                mention.identifier,
                raw,
                start,
                end,
                line,
                column,
                name,
                mention.malformed,
                mention.aliases,
                source,
                mention.kind,
            )
        )
    return tuple(citations)


def identifiers_in(text: str, extractors: Sequence[Extractor]) -> set[Identifier]:
    """Every work a text names, under all its names; malformed tokens name nothing."""
    found: set[Identifier] = set()
    for mention, _ in find_mentions(TextView.of(text).text, extractors):
        if mention.malformed is None:
            found.update(mention.keys)
    return found
