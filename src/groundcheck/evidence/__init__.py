"""Evidence: what the tools really returned, loaded from the traces agents leave behind."""

from groundcheck.evidence.load import FORMATS, load_evidence
from groundcheck.evidence.native import evidence_from_record, from_tool_calls, load_tool_calls
from groundcheck.evidence.trace import Trace
from groundcheck.evidence.walk import FlatOutput, flatten

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
