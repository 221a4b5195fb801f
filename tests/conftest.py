"""Shared fixtures: an isolated registry per test, and paths to the bundled examples."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from groundcheck.extractors.builtin import builtin_registry
from groundcheck.extractors.registry import Registry

# No test times anything: Hypothesis's per-example deadline (200 ms) fails property tests on a
# loaded two-core CI machine, so it is off for every test; speed lives in benchmarks/.
settings.register_profile("groundcheck", deadline=None)
settings.load_profile("groundcheck")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture
def registry() -> Registry:
    """A fresh registry with only the built-ins, so no test leaks extractors into another."""
    return builtin_registry()


@pytest.fixture
def examples() -> Path:
    return EXAMPLES
