"""The CLI turns the cyclic garbage collector off only for imports and ``extract``.

``main`` disables it on entry, enables it again before any command but ``extract``, and
restores the caller's setting on return, whatever happened (an error, ``--help``'s exit).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from groundcheck.cli import commands, main

REPORT = "see arXiv:2005.11401 and doi:10.1000/xyz\n"


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, bool]]:
    """Whether the collector was on when each command ran."""
    found: dict[str, bool] = {}
    for name in ("run_extract", "run_audit"):
        original = getattr(commands, name)

        def spy(args: object, original: object = original, name: str = name) -> int:
            found[name] = gc.isenabled()
            return original(args)  # type: ignore[operator]

        monkeypatch.setattr(commands, name, spy)
    # the command table holds the functions themselves: rebuild it from the spies
    monkeypatch.setattr(
        commands,
        "COMMANDS",
        tuple(
            commands.Command(
                c.name, c.help, c.description, c.declare, getattr(commands, f"run_{c.name}")
            )
            if c.name in ("extract", "audit")
            else c
            for c in commands.COMMANDS
        ),
    )
    yield found


def test_extract_runs_without_it_and_the_setting_is_restored(
    tmp_path: Path, seen: dict[str, bool], capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.md"
    report.write_text(REPORT, encoding="utf-8")
    assert gc.isenabled()
    assert main(["extract", str(report), "--format", "json", "--no-plugins"]) == 0
    assert seen == {"run_extract": False}
    assert gc.isenabled()
    assert "2005.11401" in capsys.readouterr().out


def test_other_commands_run_with_it(
    tmp_path: Path, seen: dict[str, bool], capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.md"
    report.write_text(REPORT, encoding="utf-8")
    evidence = tmp_path / "e.json"
    evidence.write_text('[{"tool": "search", "output": "arXiv:2005.11401"}]', encoding="utf-8")
    main(["audit", str(report), "--evidence", str(evidence), "--no-plugins"])
    assert seen == {"run_audit": True}
    assert gc.isenabled()


def test_a_caller_without_it_keeps_it_off_and_errors_restore_it(
    tmp_path: Path, seen: dict[str, bool], capsys: pytest.CaptureFixture[str]
) -> None:
    gc.disable()
    try:
        main(["extract", str(tmp_path / "missing.md")])
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(SystemExit):
        main(["extract", "--help"])
    assert gc.isenabled()
    assert main(["extract", str(tmp_path / "missing.md")]) == 2
    assert gc.isenabled()
