"""JSON Schemas (draft 2020-12) of groundcheck's JSON outputs, shipped as package data.

Each ``NAME.schema.json`` here describes one output: ``verdict`` (``groundcheck audit --format
json``), ``rate``, ``compare``. ``groundcheck schema NAME`` prints one. Objects are open, so
keys added within a schema version stay valid; tests validate real outputs against each file.

>>> "verdict" in names()
True
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

__all__ = ["load", "names", "text"]

_SUFFIX = ".schema.json"


def names() -> tuple[str, ...]:
    """The schemas shipped, by name (``verdict``, ...), sorted."""
    found = (p.name for p in files(__name__).iterdir() if p.name.endswith(_SUFFIX))
    return tuple(sorted(name[: -len(_SUFFIX)] for name in found))


def text(name: str) -> str:
    """The schema file ``NAME.schema.json`` as shipped, byte for byte."""
    if name not in names():
        from groundcheck.errors import ConfigError

        raise ConfigError(f"no schema named {name!r}; known: {', '.join(names())}")
    return files(__name__).joinpath(name + _SUFFIX).read_text("utf-8")


def load(name: str) -> Any:
    """The schema ``name`` as a JSON object."""
    return json.loads(text(name))
