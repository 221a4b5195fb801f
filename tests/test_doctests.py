"""The examples in docstrings run (as pypa/packaging's do): every module of the package."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import groundcheck

SRC = Path(groundcheck.__file__).resolve().parent
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages([str(SRC)], "groundcheck.")
    if not m.name.endswith("__main__")
)
MUST_HAVE_EXAMPLES = {
    "groundcheck.auditor",
    "groundcheck.extractors.arxiv",
    "groundcheck.extractors.doi",
    "groundcheck.extractors.title",
    "groundcheck.extractors.pipeline",
    "groundcheck.model",
    "groundcheck.stats",
}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # an integration whose framework is not installed
        pytest.skip(str(exc))
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module, name) if t.examples]
    if name in MUST_HAVE_EXAMPLES:
        assert tests, f"{name} must show its public functions with a doctest"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in {name}"
