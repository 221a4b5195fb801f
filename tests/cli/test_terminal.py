"""Terminal manners, on a real pseudo-terminal: colour only on a TTY and never with NO_COLOR,
a progress bar with rate and ETA that fits the terminal's width, --quiet."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from groundcheck.cli.progress import PlainProgress, progress_factory

ROOT = Path(__file__).resolve().parents[2]
APR23 = ("audit", "examples/apr23/report.md", "--evidence", "examples/apr23/tool_calls.json")
_SGR = re.compile("\x1b\\[[0-9;]*[A-Za-z]")
NO_TQDM = "import sys; sys.modules['tqdm'] = None\n"


def on_terminal(
    argv: tuple[str, ...],
    *,
    stream: str,
    columns: int = 80,
    env: dict[str, str] | None = None,
    prelude: str = "",
) -> tuple[int, str, str]:
    """Run the command with ``stream`` (stdout or stderr) on a pty ``columns`` wide.

    Returns the exit status, what the terminal received, and the other stream's text."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    full = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "TERM")}
    full |= {"TERM": "xterm"} | (env or {})
    code = prelude + "from groundcheck.cli import main\nraise SystemExit(main(sys.argv[1:]))\n"
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys\n" + code, *argv],
        stdin=subprocess.DEVNULL,
        stdout=slave if stream == "stdout" else subprocess.PIPE,
        stderr=slave if stream == "stderr" else subprocess.PIPE,
        cwd=ROOT,
        env=full,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    other = (proc.stderr if stream == "stdout" else proc.stdout).read()  # type: ignore[union-attr]
    proc.wait(timeout=300)
    return proc.returncode, b"".join(chunks).decode("utf-8"), other.decode("utf-8")


def test_colour_on_a_terminal_only() -> None:
    code, screen, _ = on_terminal(APR23, stream="stdout")
    assert code == 1
    assert "\x1b[1;31merror\x1b[0m" in screen and "\x1b[1;31mFAIL\x1b[0m" in screen
    piped = subprocess.run(
        [sys.executable, "-m", "groundcheck", *APR23],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert "\x1b" not in piped.stdout
    forced = subprocess.run(
        [sys.executable, "-m", "groundcheck", *APR23, "--color", "always"],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert "\x1b[1;31merror" in forced.stdout
    assert _SGR.sub("", forced.stdout) == piped.stdout


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_no_colour_with_no_color_or_a_dumb_terminal(env: dict[str, str]) -> None:
    code, screen, _ = on_terminal(APR23, stream="stdout", env=env)
    assert code == 1
    assert "\x1b" not in screen
    _, never, _ = on_terminal((*APR23, "--color", "never"), stream="stdout")
    assert "\x1b" not in never


def _drawn(screen: str) -> list[str]:
    """Every state the progress line was drawn in: split at CR/LF, own escapes removed."""
    return [_SGR.sub("", part) for part in re.split("[\r\n]", screen) if part.strip()]


@pytest.mark.parametrize("prelude", ["", NO_TQDM], ids=["tqdm", "plain"])
@pytest.mark.parametrize("columns", [40, 100])
def test_progress_bar_fits_the_terminal_and_shows_rate(prelude: str, columns: int) -> None:
    """Every drawn state fits the width (no wrapped, stale lines); given room, the rate (and
    with tqdm the remaining time) is shown."""
    code, screen, out = on_terminal(
        ("rate", "examples/batch/runs", "--workers", "1"),
        stream="stderr",
        columns=columns,
        prelude=prelude,
    )
    assert code == 0, screen
    assert out.startswith("runs: 60")
    states = _drawn(screen)
    assert states, screen
    assert all(len(s) <= columns for s in states), states
    assert "60/60" in states[-1]
    if columns >= 100:
        assert re.search(r"runs?/s", states[-1]), states[-1]
        if not prelude:
            assert re.search(r"\d\d:\d\d<\d\d:\d\d", states[-1])  # elapsed<remaining


def test_quiet_shows_no_progress_bar() -> None:
    code, screen, out = on_terminal(
        ("rate", "examples/batch/runs", "--workers", "1", "--quiet"), stream="stderr"
    )
    assert code == 0
    assert screen == ""
    assert out.startswith("runs: 60")


def test_plain_progress_line_has_rate_and_eta_and_fits() -> None:
    bar = PlainProgress("auditing")
    line = bar.line(30, 120, 2.0, 80)
    assert line == "auditing 30/120  25% 15 runs/s ETA 00:06"
    assert len(bar.line(30, 120, 2.0, 20)) == 19
    assert bar.line(120, 120, 8.0, 80) == "auditing 120/120 in 00:08 (15 runs/s)"


def test_no_bar_when_stderr_is_not_a_terminal() -> None:
    """Under pytest stderr is captured, not a terminal: no callback at all."""
    assert progress_factory(True)("auditing") is None
    assert progress_factory(False)("auditing") is None
