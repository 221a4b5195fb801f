"""Shared fixtures: an isolated registry per test, and paths to the bundled examples."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

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


def count_operations(fn: Callable[[], object]) -> int:
    """How many function calls (Python and C) ``fn()`` makes: a cost that does not depend on
    the machine or its load, so a test can say "four times the input, at most about four
    times the work" without timing anything. (A regex's backtracking inside one C call is not
    counted: benchmarks/run_all.py times the hostile inputs for that.)"""
    calls = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(previous)
    return calls


def assert_linear(work: Callable[[str], object], text: str, *, slack: float = 1.5) -> None:
    """``work`` on ``text`` costs at most ``slack`` times four times what it costs on the
    first quarter of ``text`` (plus a fixed allowance): linear, where a quadratic step makes
    it sixteen times."""
    small = count_operations(lambda: work(text[: len(text) // 4]))
    large = count_operations(lambda: work(text))
    assert large <= 4 * slack * small + 5_000, (small, large)


Linear = Callable[..., None]


@pytest.fixture
def linear() -> Linear:
    """:func:`assert_linear`, for tests (conftest is not importable by name)."""
    return assert_linear


@pytest.fixture
def operations() -> Callable[[Callable[[], object]], int]:
    """:func:`count_operations`, for tests."""
    return count_operations
