"""Terminal manners: colour only where it belongs, one-line messages, third-party logs tamed.

- Colour: ``--color auto`` (the default) colours text output only when standard output is a
  terminal, ``NO_COLOR`` is not set (https://no-color.org) and ``TERM`` is not ``dumb``;
  ``--color always`` / ``never`` decide explicitly.
- Messages on stderr are one line each, with control characters from data made visible.
- Log records of libraries we call (bibtexparser reports a malformed ``.bib`` on its logger,
  several lines per entry) are collected while a command runs and summed up in one line.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from groundcheck.render.escape import replace_surrogates, visible_controls

__all__ = [
    "CapturedLogs",
    "capture_logs",
    "error",
    "info",
    "prepare_streams",
    "use_color",
    "warning",
    "write",
]


def use_color(choice: str = "auto", stream: TextIO | None = None) -> bool:
    """Whether to colour output written to ``stream`` (default stdout)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    out = stream if stream is not None else sys.stdout
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def prepare_streams() -> None:
    """Never die on an unencodable character: a terminal in a legacy encoding gets escapes."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            with contextlib.suppress(ValueError, io.UnsupportedOperation):  # a detached stream
                stream.reconfigure(errors="backslashreplace")


def write(text: str) -> None:
    """Print a rendered result on stdout (renderers already made it safe to print)."""
    sys.stdout.write(replace_surrogates(text))
    sys.stdout.flush()


def _line(text: str) -> str:
    return visible_controls(replace_surrogates(text))


def error(message: str) -> None:
    sys.stderr.write(f"groundcheck: error: {_line(message)}\n")


def warning(message: str) -> None:
    sys.stderr.write(f"groundcheck: warning: {_line(message)}\n")


def info(message: str, quiet: bool = False) -> None:
    """An informational line on stderr; ``--quiet`` silences it."""
    if not quiet:
        sys.stderr.write(f"{_line(message)}\n")


class CapturedLogs(logging.Handler):
    """Collects log records from other libraries while a command runs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def summary(self) -> str | None:
        """One line: how many records, from which loggers, and the first message."""
        if not self.records:
            return None
        names = sorted({r.name.split(".")[0] for r in self.records})
        try:
            first = self.records[0].getMessage()
        except Exception:  # a library's bad format string is not our crash
            first = str(self.records[0].msg)
        first = " ".join(first.split())
        if len(first) > 200:
            first = first[:199] + "…"
        n = len(self.records)
        return f"note: {n} log message{'s' * (n != 1)} from {', '.join(names)} (first: {first})"


@contextmanager
def capture_logs() -> Iterator[CapturedLogs]:
    """Route every log record (WARNING and up) to a collector instead of stderr."""
    root = logging.getLogger()
    handler = CapturedLogs()
    handler.setLevel(logging.WARNING)
    saved = root.handlers[:]
    root.handlers = [handler]
    try:
        yield handler
    finally:
        root.handlers = saved
