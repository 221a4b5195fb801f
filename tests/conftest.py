"""Shared fixtures: an isolated registry per test, and paths to the bundled examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundcheck.extractors.builtin import builtin_registry
from groundcheck.extractors.registry import Registry

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture
def registry() -> Registry:
    """A fresh registry with only the built-ins, so no test leaks extractors into another."""
    return builtin_registry()


@pytest.fixture
def examples() -> Path:
    return EXAMPLES
