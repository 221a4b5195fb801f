"""A one-line progress bar on stderr for batch commands, only when stderr is a terminal."""

from __future__ import annotations

import sys
import time

__all__ = ["TerminalProgress", "progress_for"]


class TerminalProgress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty()
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = int(width * done / total) if total else width
        bar = "█" * filled + "·" * (width - filled)
        end = "\n" if done >= total else ""
        sys.stderr.write(f"\r{self.label} {bar} {done}/{total}{end}")
        sys.stderr.flush()


def progress_for(label: str) -> TerminalProgress:
    return TerminalProgress(label)
