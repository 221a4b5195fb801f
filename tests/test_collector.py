"""The collector is paused while a trace is read or a text extracted, and runs afterwards
exactly as before."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from groundcheck import collector as pause_module
from groundcheck.collector import collection_paused
from groundcheck.evidence import load_evidence, load_run
from groundcheck.evidence.native import from_tool_calls

FIXTURES = Path(__file__).resolve().parent / "evidence" / "fixtures"


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:  # pragma: no cover - pytest runs with the collector on
        gc.disable()


def test_the_collector_is_paused_inside_and_resumed_after() -> None:
    gc.enable()
    with collection_paused():
        assert not gc.isenabled()
        with collection_paused():  # a read inside a read
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_resumes_after_an_error() -> None:
    gc.enable()
    with pytest.raises(ValueError), collection_paused():
        raise ValueError("boom")
    assert gc.isenabled()
    assert pause_module._depth == 0


def test_a_collector_switched_off_by_the_caller_stays_off() -> None:
    gc.disable()
    with collection_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def _seen_inside(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[bool]:
    """Record whether the collector ran each time ``module.name`` was called."""
    seen: list[bool] = []
    real = getattr(module, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return seen


def test_every_way_of_reading_evidence_pauses_the_collector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from groundcheck.evidence import native

    gc.enable()
    seen = _seen_inside(monkeypatch, native, "make_evidence")
    load_evidence(FIXTURES / "native.jsonl")
    load_run([FIXTURES / "native.jsonl"])
    load_evidence([{"tool": "search", "input": "q", "output": "arXiv:2005.11401"}])
    from_tool_calls([{"tool": "search", "input": "q", "output": "arXiv:2005.11401"}])
    assert seen and not any(seen)
    assert gc.isenabled()


def test_extracting_a_text_pauses_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    from groundcheck.extractors import extract, pipeline

    gc.enable()
    seen = _seen_inside(monkeypatch, pipeline, "find_mentions")
    assert [c.id for c in extract("See arXiv:2005.11401 and doi:10.1000/xyz.")] == [
        "2005.11401",
        "10.1000/xyz",
    ]
    assert seen == [False]
    assert gc.isenabled()
