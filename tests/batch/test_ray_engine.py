"""The Ray engine (issue 16): ``rate``/``compare --engine ray`` and ``audit_dataset`` give the
same bytes as the process engine, ``RAY_ADDRESS`` is honoured, a worker killed on Ray loses no
run, and without the ``ray`` extra the engine is one clear error.

Tests marked ``ray`` need the extra and are skipped without it. They share one local cluster
per test session (``ray.init(num_cpus=2, include_dashboard=False)``, the CI machine's two
cores); ``xdist_group`` keeps them on one xdist worker under ``--dist loadgroup`` (CI), so
only one cluster is started.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import make_run, many_runs, write_manifest

from groundcheck.batch import audit_dataset, fold_runs, iter_runs
from groundcheck.cli import main
from groundcheck.errors import ConfigError
from groundcheck.render import render

ROOT = Path(__file__).resolve().parents[2]
HAVE_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(
    not HAVE_RAY, reason="needs the ray extra: pip install 'groundcheck-citations[ray]'"
)
pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[str]:
    """One local Ray cluster for the session; its control-store address. Always a new one
    (``address="local"``): never a cluster another program left running on the machine."""
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2,000 tiny runs (groups a/b/c, tasks, every 7th folder fabricating) and the bad input
    a real manifest carries: a broken line, a row whose files are gone, a duplicate run id."""
    root = tmp_path_factory.mktemp("ray-batch")
    manifest = many_runs(root, 2000)
    with manifest.open("a", encoding="utf-8") as out:
        out.write('{"run": "broken", "report": \n')
        out.write(json.dumps({"run": "gone", "report": "nope/report.md", "evidence": "x.json"}))
        out.write("\n")
        out.write(json.dumps({"run": "r000001", "report": "f001/report.md"}) + "\n")
    return manifest


def _process(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI as a fresh process (the process engine forks workers: not from a Ray driver)."""
    return subprocess.run(
        [sys.executable, "-m", "groundcheck", *argv, "--no-plugins", "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
        env=env,
    )


def _in_process(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "--no-plugins", "--quiet"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.ray
@needs_ray
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_rate_on_ray_prints_the_bytes_of_the_process_engine(
    ray_cluster: str, batch: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    argv = ("rate", str(batch), "--format", fmt, "--max-rate", "0.2")
    expected = _process(*argv, "--engine", "process", "--workers", "2")
    code, out, err = _in_process(capsys, *argv, "--engine", "ray")
    assert out == expected.stdout
    assert (code, err) == (expected.returncode, expected.stderr)
    assert code == 2  # the broken line is an input error, reported after the rest
    if fmt == "json":
        data = json.loads(out)
        assert data["overall"]["runs_audited"] == 2000
        assert (data["input_errors"], data["runs_unreadable"]) == (1, 2)
        assert data["gate"]["verdict"] == "pass"
        assert "duplicate run id 'r000001': kept the first, skipped this one" in data["notes"]


@pytest.mark.ray
@needs_ray
def test_compare_on_ray_prints_the_bytes_of_the_process_engine(
    ray_cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = many_runs(tmp_path / "A", 600, every=5)
    b = many_runs(tmp_path / "B", 600, every=9)
    argv = ("compare", str(a), str(b), "--format", "json", "--max-difference", "0.1")
    expected = _process(*argv, "--engine", "process", "--workers", "2")
    code, out, err = _in_process(capsys, *argv, "--engine", "ray")
    assert (code, out, err) == (expected.returncode, expected.stdout, expected.stderr)
    data = json.loads(out)
    assert data["gate"]["verdict"] in ("pass", "fail", "inconclusive")
    assert data["discordant"]["only_a"] or data["discordant"]["only_b"]


@pytest.mark.ray
@needs_ray
def test_ray_address_is_honoured(ray_cluster: str, tmp_path: Path) -> None:
    """With ``RAY_ADDRESS`` the CLI joins that cluster (here the session's) instead of
    starting one, and still prints the process engine's bytes."""
    manifest = many_runs(tmp_path, 150)
    argv = ("rate", str(manifest), "--format", "json")
    expected = _process(*argv, "--workers", "2")
    joined = _process(*argv, "--engine", "ray", env={**os.environ, "RAY_ADDRESS": ray_cluster})
    assert joined.returncode == 0, joined.stderr
    assert joined.stdout == expected.stdout
    gone = _process(*argv, "--engine", "ray", env={**os.environ, "RAY_ADDRESS": "127.0.0.1:9"})
    assert gone.returncode == 2
    assert gone.stderr.startswith("groundcheck: error: cannot start or reach the Ray cluster")
    assert gone.stdout == ""


def _dataset_rows(manifest: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in manifest.read_text("utf-8").splitlines()]


@pytest.mark.ray
@needs_ray
def test_audit_dataset_of_paths_is_rate_of_the_manifest(
    ray_cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import ray.data

    manifest = many_runs(tmp_path, 1000)
    expected = _process("rate", str(manifest), "--format", "json", "--max-rate", "0.3")
    ds = ray.data.from_items(_dataset_rows(manifest))
    report = audit_dataset(ds, base=tmp_path, max_rate=0.3, no_plugins=True, concurrency=2)
    assert render("rate", "json", report) == expected.stdout
    assert report.gate is not None and report.gate.verdict == "pass"


@pytest.mark.ray
@needs_ray
def test_audit_dataset_of_inline_text_and_records(ray_cluster: str, tmp_path: Path) -> None:
    """Reports and tool outputs held in the dataset's cells, not in files: the same report as
    the same runs written out and rated from a manifest."""
    import ray.data

    manifest = many_runs(tmp_path, 300, folders=12, every=4)
    rows = []
    for row in _dataset_rows(manifest):
        rows.append(
            {
                "run_id": row["run"],
                "text": (tmp_path / row["report"]).read_text("utf-8"),
                "calls": (tmp_path / row["evidence"]).read_text("utf-8"),
                "agent": row["group"],
                "task": row["task"],
            }
        )
    rows.append({"run_id": None, "text": "x", "calls": "[]", "agent": "a", "task": "t"})
    ds = ray.data.from_items(rows)
    report = audit_dataset(
        ds, run_col="run_id", report_col="text", evidence_col="calls", group_col="agent"
    )
    from groundcheck.batch import rate

    expected = rate([str(manifest)], workers=1)
    assert report.overall == expected.overall
    assert report.groups == expected.groups
    assert report.flagged == expected.flagged
    assert report.input_errors == 1  # the row without a run id, named
    assert report.unreadable[0].problem == "a row has no 'run_id' (the run id)"
    with pytest.raises(ConfigError, match="the dataset has no 'id' column"):
        audit_dataset(ds, run_col="id")


@pytest.mark.ray
@needs_ray
def test_a_worker_killed_on_ray_loses_no_run(ray_cluster: str, tmp_path: Path) -> None:
    """A Ray worker that dies (``os._exit``, as the OOM killer would) with one chunk, every
    time it is sent (Ray's own retries off): the chunk is sent again, then its runs alone, and
    every run comes back audited."""
    from groundcheck.batch.ray_engine import RayExecutor

    rows = [make_run(tmp_path, f"r{i:03d}", fabricated=i % 10 == 0) for i in range(120)]
    rows.insert(70, make_run(tmp_path, "always", fabricated=False))
    specs = list(iter_runs([str(write_manifest(tmp_path / "runs.jsonl", rows))]))

    driver = os.getpid()

    def deadly(results: list[Any]) -> list[Any]:  # pickled by value into the Ray workers
        if os.getpid() != driver and any(r.run == "always" for r in results):
            os._exit(3)  # the worker dies with the chunk, each time it is sent
        return results

    executor = RayExecutor(max_retries=0)
    try:
        chunks = list(fold_runs(specs, deadly, executor=executor, workers=2, chunk_size=16))
    finally:
        executor.shutdown()
    results = {r.run: r for chunk in chunks for r in chunk}
    assert len(results) == 121
    assert all(r.readable for r in results.values())  # the lone runs are folded as lists
    assert sorted(r.run for r in results.values() if r.flagged) == [
        f"r{i:03d}" for i in range(0, 120, 10)
    ]


def test_without_ray_the_engine_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the extra (here: ``import ray`` made to fail), ``--engine ray`` and
    ``audit_dataset`` name the extra to install, exit 2, and audit nothing."""
    make_run(tmp_path, "r1", fabricated=False)
    monkeypatch.setitem(sys.modules, "ray", None)
    code, out, err = _in_process(capsys, "rate", str(tmp_path), "--engine", "ray")
    assert (code, out) == (2, "")
    assert err == (
        "groundcheck: error: the Ray engine needs Ray, which is optional: "
        "pip install 'groundcheck-citations[ray]'\n"
    )
    with pytest.raises(ConfigError, match=r"groundcheck-citations\[ray\]"):
        audit_dataset(object())


def test_importing_the_batch_package_does_not_import_ray() -> None:
    code = (
        "import sys, groundcheck.batch, groundcheck.batch.ray_engine\n"
        "assert 'ray' not in sys.modules and 'pyarrow' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
