"""Flatten a tool output (any JSON-like value) into the text and titles it holds.

Tool outputs nest arbitrarily and are sometimes hostile, so the walk is iterative (no recursion
limit to hit at 100,000 levels) and touches every value once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from attrs import frozen

__all__ = ["FlatOutput", "flatten"]

_NUMBER_KEYS = ("arxiv", "eprint", "doi", "pmid", "pmc", "isbn", "issn")
"""Numbers under these keys are identifiers a tool returned as JSON numbers (``"pmid": 123``)."""

_MAX_EMBEDDED_JSON = 10_000_000
"""String leaves that look like JSON are parsed (chat tool results are often a JSON string);
larger ones are scanned as text only."""


@frozen
class FlatOutput:
    """The searchable text of an output, the titles under ``title`` keys, and emptiness."""

    text: str
    titles: tuple[str, ...]
    empty: bool
    pairs: tuple[tuple[str, str], ...] = ()
    """(title, the text of the same record's other fields): a paper described in one record."""


_NOT_JSON = object()


class _Key(str):
    """A dict key on the walk's stack: searched as text, but never a sign of content."""

    __slots__ = ()


def _embedded_json(s: str) -> Any:
    stripped = s.strip()
    if len(stripped) < 2 or len(stripped) > _MAX_EMBEDDED_JSON:
        return _NOT_JSON
    if (stripped[0], stripped[-1]) not in (("{", "}"), ("[", "]")):
        return _NOT_JSON
    try:
        return json.loads(stripped)
    except (ValueError, RecursionError):
        return _NOT_JSON


def flatten(output: Any, ignore: frozenset[str] = frozenset()) -> FlatOutput:
    """Every string leaf and dict key of ``output``, joined for one extraction pass.

    An output is *empty* when it holds no non-blank string and no number or boolean: ``None``,
    ``""``, ``[]``, ``{}``, and containers of those, such as ``{"results": []}`` or the string
    ``"[]"`` (chat tool results are often JSON inside a string, so such strings are parsed for
    titles and emptiness; their text is scanned as it is). Keys alone do not make an output
    non-empty. Values under the keys in ``ignore`` are skipped entirely: loaders pass the
    structural keys of their format (``type``) and binary payloads (``data``), which are
    neither text nor a sign of content.
    """
    texts: list[str] = []
    titles: list[str] = []
    pairs: list[tuple[str, str]] = []
    empty = True
    stack: list[tuple[Any, str | None]] = [(output, None)]
    while stack:
        value, key = stack.pop()
        if type(value) is _Key:
            texts.append(value)  # keys are returned data too, but never make it non-empty
        elif isinstance(value, str):
            texts.append(value)
            if not value.strip():
                continue
            if key is not None and key.lower() == "title":
                titles.append(value.strip())
            parsed = _embedded_json(value)
            if parsed is _NOT_JSON:
                empty = False
            else:
                inner = flatten(parsed, ignore)
                titles.extend(inner.titles)
                pairs.extend(inner.pairs)
                empty = empty and inner.empty
        elif isinstance(value, Mapping):
            record = _record_pair(value, ignore)
            if record is not None:
                pairs.append(record)
            for k, v in list(value.items())[::-1]:
                k_str = str(k)
                if k_str in ignore:
                    continue
                stack.append((v, k_str))
                stack.append((_Key(k_str), None))
        elif isinstance(value, (list, tuple)):
            stack.extend((item, key) for item in reversed(value))
        elif value is None:
            continue
        else:  # numbers, booleans, and whatever objects a Python caller passes
            empty = False
            if isinstance(value, bool):
                continue
            if not isinstance(value, (int, float)):
                texts.append(str(value))
            elif key is not None and any(k in key.lower() for k in _NUMBER_KEYS):
                # "pmid: 123" rather than "123": an extractor that needs the label finds it.
                texts.append(f"{key}: {value}")
    return FlatOutput("\n\n".join(texts), tuple(titles), empty, tuple(pairs))


def _record_pair(record: Mapping[Any, Any], ignore: frozenset[str]) -> tuple[str, str] | None:
    """(title, sibling text) for a record with a ``title``: its other fields, one level down."""
    title = next(
        (v for k, v in record.items() if str(k).lower() == "title" and isinstance(v, str)), None
    )
    if title is None or not title.strip():
        return None
    parts: list[str] = []
    for k, v in record.items():
        key = str(k)
        if key.lower() == "title" or key in ignore:
            continue
        values = v.values() if isinstance(v, Mapping) else v if isinstance(v, list) else (v,)
        for item in values:
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                parts.append(f"{key}: {item}")
    return title.strip(), "\n\n".join(parts)
