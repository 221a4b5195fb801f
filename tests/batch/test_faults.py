"""Faults during a batch: a worker killed mid-batch, a path that vanishes mid-run, an
executor that breaks. Runs are retried or counted unreadable, never lost without a word."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import make_run, write_manifest

from groundcheck.batch import RateTally, audit_runs, discover_runs, fold_runs, rate
from groundcheck.errors import GroundcheckError
from groundcheck.extractors import default_registry
from groundcheck.model import Mention


@pytest.fixture
def crashing(tmp_path: Path) -> Iterator[Path]:
    """An extractor that kills its process (``os._exit``, as the OOM killer or a segfault
    would) on a report holding CRASH-ALWAYS, or on CRASH-ONCE the first time only. Worker
    processes are forked, so they see it registered."""
    marks = tmp_path / "marks"
    marks.mkdir()

    def find_crash(text: str) -> Iterator[Mention]:
        if "CRASH-ALWAYS" in text:
            os._exit(3)
        if "CRASH-ONCE" in text:
            mark = marks / "once"
            if not mark.exists():
                mark.write_text("crashed", "utf-8")
                os._exit(3)
        return iter(())

    default_registry().register(find_crash, name="test-crash", replace=True)
    try:
        yield marks
    finally:
        default_registry().unregister("test-crash")


def test_a_worker_killed_mid_batch_loses_no_run(tmp_path: Path, crashing: Path) -> None:
    rows = [make_run(tmp_path, f"r{i:03d}", fabricated=i % 10 == 0) for i in range(300)]
    rows.append(make_run(tmp_path, "once", fabricated=False, extra=" CRASH-ONCE"))
    rows.append(make_run(tmp_path, "always", fabricated=True, extra=" CRASH-ALWAYS"))
    manifest = write_manifest(tmp_path / "runs.jsonl", rows)
    specs, _ = discover_runs([str(manifest)])
    results = {r.run: r for r in audit_runs(specs, workers=2)}
    assert len(results) == len(specs) == 302  # every run comes back
    assert (crashing / "once").exists()  # the worker did die once
    assert results["once"].readable and not results["once"].flagged  # retried, then audited
    always = results["always"]
    assert not always.readable and not always.input_error
    assert (always.problem or "").startswith("its worker failed three times (")
    assert all(r.readable for name, r in results.items() if name != "always")
    assert [r.run for r in results.values() if r.flagged] == [
        f"r{i:03d}" for i in range(0, 300, 10)
    ]


def test_rate_counts_the_run_that_kills_its_worker(tmp_path: Path, crashing: Path) -> None:
    rows = [make_run(tmp_path, f"r{i:03d}", fabricated=False) for i in range(100)]
    rows.append(make_run(tmp_path, "always", fabricated=False, extra=" CRASH-ALWAYS"))
    report = rate([str(write_manifest(tmp_path / "runs.jsonl", rows))], workers=2)
    assert (report.overall.runs, report.runs_unreadable, report.input_errors) == (100, 1, 0)
    assert report.unreadable[0].run == "always"


class _VanishingFile(Executor):
    """Worker processes, but the chunk holding ``gone`` finds it deleted: the file goes
    after discovery listed its run and before a worker reads it, at the same point on every
    machine (deleting it from a progress callback raced the pool's read-ahead)."""

    def __init__(self, gone: Path) -> None:
        self.pool = ProcessPoolExecutor(2)
        self.gone = gone

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        batch = args[0]
        if any(spec.report == str(self.gone) for spec in batch):
            self.gone.unlink()
        return self.pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.pool.shutdown(wait, cancel_futures=cancel_futures)


def test_a_path_that_vanishes_mid_run_is_unreadable(tmp_path: Path) -> None:
    rows = [make_run(tmp_path, f"r{i:03d}", fabricated=False) for i in range(200)]
    manifest = write_manifest(tmp_path / "runs.jsonl", rows)
    gone = tmp_path / "r199" / "report.md"
    vanishing = _VanishingFile(gone)
    try:
        report = rate([str(manifest)], workers=2, executor=vanishing)
    finally:
        vanishing.shutdown()
    assert not gone.exists()
    assert (report.overall.runs, report.runs_unreadable) == (199, 1)
    (lost,) = report.unreadable
    assert lost.run == "r199" and not lost.input_error
    assert lost.problem == f"{gone}: no such file"


class _Breaking(Executor):
    """An executor that takes ``works`` tasks, then refuses every further one."""

    def __init__(self, works: int) -> None:
        self.pool = ThreadPoolExecutor(2)
        self.works = works

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.works <= 0:
            from concurrent.futures import BrokenExecutor

            raise BrokenExecutor("the pool went away")
        self.works -= 1
        return self.pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.pool.shutdown(wait, cancel_futures=cancel_futures)


def test_an_executor_that_breaks_is_an_error_not_unreadable_runs(tmp_path: Path) -> None:
    rows = [make_run(tmp_path, f"r{i:03d}", fabricated=False) for i in range(300)]
    specs, _ = discover_runs([str(write_manifest(tmp_path / "runs.jsonl", rows))])
    broken = _Breaking(2)
    try:
        with pytest.raises(GroundcheckError, match="the executor cannot take work any more"):
            list(fold_runs(specs, RateTally.of, executor=broken, workers=1))
    finally:
        broken.shutdown()


class _Flaky(Executor):
    """Every task's first attempt fails (as a task lost with its worker would)."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(2)
        self.seen: set[int] = set()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        key = id(args[0][0]) if args and args[0] else 0
        if key not in self.seen:
            self.seen.add(key)
            failed: Future[Any] = Future()
            failed.set_exception(ConnectionError("worker lost"))
            return failed
        return self.pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.pool.shutdown(wait, cancel_futures=cancel_futures)


def test_a_lost_chunk_is_sent_again(tmp_path: Path) -> None:
    rows = [make_run(tmp_path, f"r{i:03d}", fabricated=i % 4 == 0) for i in range(150)]
    specs, _ = discover_runs([str(write_manifest(tmp_path / "runs.jsonl", rows))])
    flaky = _Flaky()
    try:
        again = list(audit_runs(specs, executor=flaky))
    finally:
        flaky.shutdown()
    assert again == list(audit_runs(specs, workers=1))


def test_a_wrong_option_is_one_error_before_any_run(tmp_path: Path) -> None:
    from groundcheck.errors import ConfigError

    make_run(tmp_path, "r1", fabricated=False)
    with pytest.raises(ConfigError, match="title_threshold"):
        rate([str(tmp_path)], options={"title_threshold": 0})


class _Vanishing(Executor):
    """An executor whose tasks never finish and whose cluster is gone (as a Ray cluster that
    went away): ``check_alive`` raises, as :class:`RayExecutor`'s does."""

    def __init__(self) -> None:
        self.checks = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()  # never resolved

    def check_alive(self) -> None:
        self.checks += 1
        raise GroundcheckError("the Ray cluster went away: nothing answers at 127.0.0.1:9")


def test_a_cluster_that_goes_away_is_an_error_not_a_hang(tmp_path: Path) -> None:
    rows = [make_run(tmp_path, f"r{i:03d}", fabricated=False) for i in range(3)]
    specs, _ = discover_runs([str(write_manifest(tmp_path / "runs.jsonl", rows))])
    gone = _Vanishing()
    with pytest.raises(GroundcheckError, match="the Ray cluster went away"):
        list(fold_runs(specs, RateTally.of, executor=gone, workers=1))
    assert gone.checks == 1  # the first poll while waiting found it gone
