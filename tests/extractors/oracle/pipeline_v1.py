"""``resolve_overlaps`` of ``extractors/pipeline.py`` as it was at 033619f (issue 17, before the
overlap pass skipped the container filter where no container reaches the next mention)."""

from __future__ import annotations

from groundcheck.model import Mention


def resolve_overlaps(found: list[tuple[Mention, str]]) -> list[tuple[Mention, str]]:
    if len(found) < 2:
        return found
    found.sort(key=lambda pair: (pair[0].start, -pair[0].end, pair[1]))
    kept: list[tuple[Mention, str]] = []
    containers: list[Mention] = []
    for mention, name in found:
        containers = [c for c in containers if c.end > mention.start]
        if any(
            c.start <= mention.start
            and mention.end <= c.end
            and (c is not mention)
            and mention.identifier in c.keys
            for c in containers
        ):
            continue
        kept.append((mention, name))
        containers.append(mention)
    return kept
