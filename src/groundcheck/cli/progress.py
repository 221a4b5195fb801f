"""A progress bar on stderr for batch commands: only on a terminal, never with ``--quiet``.

With the ``progress`` extra installed the bar is tqdm's (rate, ETA, redrawn to the terminal's
width as it changes, so a narrow terminal never fills with stale wrapped lines). Without it, a
plain counter with the same facts, cut to the terminal's width and cleared on each redraw.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["PlainProgress", "TerminalProgress", "progress_factory"]

Callback = Callable[[int, int], None]


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class PlainProgress:
    """``auditing  420/1000  42%  180 runs/s  ETA 00:03`` on one line that fits the terminal."""

    def __init__(self, label: str, stream: TextIO | None = None, unit: str = "runs") -> None:
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self._start = time.monotonic()
        self._last = 0.0

    def line(self, done: int, total: int, elapsed: float, width: int) -> str:
        """The text shown after ``done`` of ``total`` in ``elapsed`` seconds, at most
        ``width - 1`` characters (the last column would wrap on some terminals)."""
        percent = f"{100 * done // total:3d}%" if total else "100%"
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = _clock((total - done) / rate) if rate > 0 and done < total else "--:--"
        text = f"{self.label} {done}/{total} {percent} {rate:.0f} {self.unit}/s ETA {eta}"
        if done >= total:
            text = f"{self.label} {done}/{total} in {_clock(elapsed)} ({rate:.0f} {self.unit}/s)"
        return text[: max(width - 1, 1)]

    def width(self) -> int:
        """The width of the terminal the bar is drawn on (stderr's, not stdout's)."""
        try:
            return os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            return shutil.get_terminal_size((80, 24)).columns

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        end = "\n" if done >= total else ""
        line = self.line(done, total, now - self._start, self.width())
        self.stream.write(f"\r{line}\x1b[K{end}")
        self.stream.flush()


class TerminalProgress:
    """tqdm's bar when the ``progress`` extra is installed, else :class:`PlainProgress`."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self._bar: Any = None
        self._plain: PlainProgress | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None and self._plain is None:
            try:
                from tqdm import tqdm
            except ImportError:
                self._plain = PlainProgress(self.label, self.stream)
            else:
                self._bar = tqdm(
                    total=total,
                    desc=self.label,
                    unit="run",
                    file=self.stream,
                    dynamic_ncols=True,
                    mininterval=0.1,
                    leave=True,
                )
        if self._plain is not None:
            self._plain(done, total)
            return
        self._bar.update(done - self._bar.n)
        if done >= total:
            self._bar.close()


def progress_factory(enabled: bool = True) -> Callable[[str], Callback | None]:
    """What batch commands pass as ``progress=``: a bar per label, or none when stderr is not a
    terminal or ``--quiet`` was given."""

    def make(label: str) -> Callback | None:
        if not enabled or not sys.stderr.isatty():
            return None
        return TerminalProgress(label)

    return make
