"""Evidence: what the tools really returned, loaded from the traces agents leave behind.

Every name is imported on first use (``groundcheck extract`` reads a file through
:mod:`~groundcheck.evidence.jsonio` and needs none of the loaders).
Provenance (what counts as a tool's answer rather than the agent's own words) is described in
``docs/evidence.md`` and implemented in :mod:`groundcheck.evidence.provenance`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundcheck.evidence.formats import Format, register_format
    from groundcheck.evidence.load import (
        FORMATS,
        load_evidence,
        load_run,
        load_tool_calls,
        samples_of,
    )
    from groundcheck.evidence.native import evidence_from_record, from_tool_calls
    from groundcheck.evidence.provenance import FETCH, FetchRule, Provenance
    from groundcheck.evidence.trace import Reading, Trace
    from groundcheck.evidence.walk import FlatOutput, flatten

__all__ = [
    "FETCH",
    "FORMATS",
    "FetchRule",
    "FlatOutput",
    "Format",
    "Provenance",
    "Reading",
    "Trace",
    "evidence_from_record",
    "flatten",
    "from_tool_calls",
    "load_evidence",
    "load_run",
    "load_tool_calls",
    "register_format",
    "samples_of",
]

_LAZY = {
    "evidence_from_record": "groundcheck.evidence.native",
    "from_tool_calls": "groundcheck.evidence.native",
    "FETCH": "groundcheck.evidence.provenance",
    "FetchRule": "groundcheck.evidence.provenance",
    "Provenance": "groundcheck.evidence.provenance",
    "Reading": "groundcheck.evidence.trace",
    "Trace": "groundcheck.evidence.trace",
    "FlatOutput": "groundcheck.evidence.walk",
    "flatten": "groundcheck.evidence.walk",
    "FORMATS": "groundcheck.evidence.formats",
    "Format": "groundcheck.evidence.formats",
    "register_format": "groundcheck.evidence.formats",
    "load_evidence": "groundcheck.evidence.load",
    "load_run": "groundcheck.evidence.load",
    "load_tool_calls": "groundcheck.evidence.load",
    "samples_of": "groundcheck.evidence.load",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'groundcheck.evidence' has no attribute {name!r}")
    return getattr(import_module(module), name)
