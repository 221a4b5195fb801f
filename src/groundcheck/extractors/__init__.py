"""Identifier extractors: the registry, the built-in families, and the extraction pipeline."""

from groundcheck.extractors.builtin import default_registry, register_extractor
from groundcheck.extractors.pipeline import extract, find_mentions, identifiers_in
from groundcheck.extractors.registry import (
    ENTRY_POINT_GROUP,
    Extractor,
    FunctionExtractor,
    Registry,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "Extractor",
    "FunctionExtractor",
    "Registry",
    "default_registry",
    "extract",
    "find_mentions",
    "identifiers_in",
    "register_extractor",
]
