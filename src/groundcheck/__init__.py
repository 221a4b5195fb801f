"""groundcheck: catch an AI agent citing sources its tools never returned.

The public API is what ``__all__`` lists; everything else may change between versions.
Names are imported on first use (PEP 562), so ``import groundcheck`` and ``groundcheck --help``
stay fast; type checkers see ordinary imports.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundcheck.auditor import Auditor, Policy, audit
    from groundcheck.checks import AuditContext, Check
    from groundcheck.errors import (
        CitationRefused,
        ConfigError,
        GroundcheckError,
        InputError,
        LedgerError,
        LedgerWarning,
        PluginError,
        RegistryError,
        UngroundedReportError,
    )
    from groundcheck.evidence.load import load_evidence, load_tool_calls
    from groundcheck.evidence.native import from_tool_calls
    from groundcheck.evidence.trace import Trace
    from groundcheck.extractors.builtin import default_registry, register_extractor
    from groundcheck.extractors.pipeline import extract
    from groundcheck.extractors.registry import Extractor, Registry
    from groundcheck.extractors.title import TitleExtractor
    from groundcheck.grounding.title_index import TitleIndex, TitleMatch
    from groundcheck.ledger import Ledger, LedgerRun
    from groundcheck.model import (
        SCHEMA,
        Citation,
        Evidence,
        EvidenceSet,
        Finding,
        Grounding,
        Identifier,
        Mention,
        Scheme,
        Verdict,
        Work,
    )
    from groundcheck.text import TextView

__version__ = "0.1.0"

_LAZY = {
    "Auditor": "groundcheck.auditor",
    "Policy": "groundcheck.auditor",
    "audit": "groundcheck.auditor",
    "AuditContext": "groundcheck.checks",
    "Check": "groundcheck.checks",
    "ConfigError": "groundcheck.errors",
    "GroundcheckError": "groundcheck.errors",
    "InputError": "groundcheck.errors",
    "PluginError": "groundcheck.errors",
    "RegistryError": "groundcheck.errors",
    "UngroundedReportError": "groundcheck.errors",
    "load_evidence": "groundcheck.evidence.load",
    "from_tool_calls": "groundcheck.evidence.native",
    "load_tool_calls": "groundcheck.evidence.load",
    "Trace": "groundcheck.evidence.trace",
    "Extractor": "groundcheck.extractors.registry",
    "Registry": "groundcheck.extractors.registry",
    "default_registry": "groundcheck.extractors.builtin",
    "register_extractor": "groundcheck.extractors.builtin",
    "extract": "groundcheck.extractors.pipeline",
    "TitleExtractor": "groundcheck.extractors.title",
    "CitationRefused": "groundcheck.errors",
    "LedgerError": "groundcheck.errors",
    "LedgerWarning": "groundcheck.errors",
    "Ledger": "groundcheck.ledger",
    "LedgerRun": "groundcheck.ledger",
    "SCHEMA": "groundcheck.model",
    "Citation": "groundcheck.model",
    "Evidence": "groundcheck.model",
    "EvidenceSet": "groundcheck.model",
    "Finding": "groundcheck.model",
    "Grounding": "groundcheck.model",
    "Identifier": "groundcheck.model",
    "Mention": "groundcheck.model",
    "Scheme": "groundcheck.model",
    "Verdict": "groundcheck.model",
    "Work": "groundcheck.model",
    "TextView": "groundcheck.text",
    "TitleIndex": "groundcheck.grounding.title_index",
    "TitleMatch": "groundcheck.grounding.title_index",
}

__all__ = [
    "SCHEMA",
    "AuditContext",
    "Auditor",
    "Check",
    "Citation",
    "CitationRefused",
    "ConfigError",
    "Evidence",
    "EvidenceSet",
    "Extractor",
    "Finding",
    "GroundcheckError",
    "Grounding",
    "Identifier",
    "InputError",
    "Ledger",
    "LedgerError",
    "LedgerRun",
    "LedgerWarning",
    "Mention",
    "PluginError",
    "Policy",
    "Registry",
    "RegistryError",
    "Scheme",
    "TextView",
    "TitleExtractor",
    "TitleIndex",
    "TitleMatch",
    "Trace",
    "UngroundedReportError",
    "Verdict",
    "Work",
    "__version__",
    "audit",
    "default_registry",
    "extract",
    "from_tool_calls",
    "load_evidence",
    "load_tool_calls",
    "register_extractor",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'groundcheck' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
