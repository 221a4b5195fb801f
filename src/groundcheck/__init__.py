"""groundcheck: catch an AI agent citing sources its tools never returned.

The public API is what ``__all__`` lists; everything else may change between versions.
"""

from groundcheck.audit import Auditor, Policy, audit
from groundcheck.checks import AuditContext, Check
from groundcheck.errors import (
    ConfigError,
    GroundcheckError,
    InputError,
    PluginError,
    RegistryError,
    UngroundedReportError,
)
from groundcheck.evidence import Trace, from_tool_calls, load_evidence, load_tool_calls
from groundcheck.extractors import (
    Extractor,
    Registry,
    default_registry,
    extract,
    register_extractor,
)
from groundcheck.model import (
    SCHEMA,
    Citation,
    Evidence,
    EvidenceSet,
    Finding,
    Grounding,
    Identifier,
    Mention,
    Verdict,
)
from groundcheck.text import TextView

__version__ = "0.1.0"

__all__ = [
    "SCHEMA",
    "AuditContext",
    "Auditor",
    "Check",
    "Citation",
    "ConfigError",
    "Evidence",
    "EvidenceSet",
    "Extractor",
    "Finding",
    "GroundcheckError",
    "Grounding",
    "Identifier",
    "InputError",
    "Mention",
    "PluginError",
    "Policy",
    "Registry",
    "RegistryError",
    "TextView",
    "Trace",
    "UngroundedReportError",
    "Verdict",
    "__version__",
    "audit",
    "default_registry",
    "extract",
    "from_tool_calls",
    "load_evidence",
    "load_tool_calls",
    "register_extractor",
]
