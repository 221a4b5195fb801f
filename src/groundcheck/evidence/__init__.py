"""Evidence: what the tools really returned, loaded from the traces agents leave behind.

The format loaders are imported on first use of :func:`load_evidence`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from groundcheck.evidence.native import evidence_from_record, from_tool_calls, load_tool_calls
from groundcheck.evidence.trace import Trace
from groundcheck.evidence.walk import FlatOutput, flatten

if TYPE_CHECKING:
    from groundcheck.evidence.load import FORMATS, load_evidence

__all__ = [
    "FORMATS",
    "FlatOutput",
    "Trace",
    "evidence_from_record",
    "flatten",
    "from_tool_calls",
    "load_evidence",
    "load_tool_calls",
]


def __getattr__(name: str) -> Any:
    if name in ("FORMATS", "load_evidence"):
        return getattr(import_module("groundcheck.evidence.load"), name)
    raise AttributeError(f"module 'groundcheck.evidence' has no attribute {name!r}")
