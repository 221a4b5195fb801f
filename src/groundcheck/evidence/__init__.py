"""Evidence: what the tools really returned, loaded from the traces agents leave behind."""

from groundcheck.evidence.native import evidence_from_record, from_tool_calls, load_tool_calls
from groundcheck.evidence.walk import FlatOutput, flatten

__all__ = [
    "FlatOutput",
    "evidence_from_record",
    "flatten",
    "from_tool_calls",
    "load_tool_calls",
]
