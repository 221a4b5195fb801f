"""Terminal manners: colour only where it belongs, one-line messages, third-party logs tamed.

- Colour: ``--color auto`` (the default) colours text output only when standard output is a
  terminal, ``NO_COLOR`` is not set (https://no-color.org) and ``TERM`` is not ``dumb``;
  ``--color always`` / ``never`` decide explicitly.
- Messages on stderr are one line each, with control characters from data made visible.
- Log records of libraries we call (bibtexparser reports a malformed ``.bib`` on its logger,
  several lines per entry) are collected while a command runs and summed up in one line.
  ``logging`` itself is imported only by what logs: most commands never load it (its import
  was ~17 M instructions, 3% of a one-line ``extract``), so the collector is installed the
  moment something imports it, before anything can log.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from groundcheck.render.escape import replace_surrogates, visible_controls

if TYPE_CHECKING:
    import logging
    from importlib.machinery import ModuleSpec

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


class CapturedLogs:
    """Collects log records from other libraries while a command runs."""

    def __init__(self) -> None:
        self.records: list[logging.LogRecord] = []

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


def _handler(module: ModuleType, logs: CapturedLogs) -> logging.Handler:
    """A handler of ``module`` (the ``logging`` module) that keeps WARNING and up in ``logs``."""

    class Collect(module.Handler):  # type: ignore[name-defined,misc]
        def emit(self, record: logging.LogRecord) -> None:
            logs.records.append(record)

    handler: logging.Handler = Collect(module.WARNING)
    return handler


class _ThenLoader:
    """Loads a module with its own loader, then calls ``then`` with it; the module keeps its
    own loader in ``__loader__`` and ``__spec__``, as if imported the ordinary way."""

    def __init__(self, loader: Any, then: Callable[[ModuleType], None]) -> None:
        self.loader, self.then = loader, then

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self.loader.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self.loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        self.then(module)


class _OnFirstImport:
    """A meta-path finder that finds nothing itself: when ``name`` is first imported, it lets
    the other finders find it and has ``then`` run once the module has run."""

    def __init__(self, name: str, then: Callable[[ModuleType], None]) -> None:
        self.name, self.then = name, then

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if name != self.name or self not in sys.meta_path:
            return None
        finders = sys.meta_path[sys.meta_path.index(self) + 1 :]
        sys.meta_path.remove(self)
        for finder in finders:
            find = getattr(finder, "find_spec", None)
            spec: ModuleSpec | None = find(name, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _ThenLoader(spec.loader, self.then)  # type: ignore[assignment]
                return spec
        return None


@contextmanager
def capture_logs() -> Iterator[CapturedLogs]:
    """Route every log record (WARNING and up) to a collector instead of stderr.

    With ``logging`` not imported yet, the collector is installed when it is: a command
    that never loads ``logging`` never logs, and never pays for importing it.
    """
    logs = CapturedLogs()
    restore: list[Callable[[], None]] = []

    def install(module: ModuleType) -> None:
        root = module.getLogger()
        saved = root.handlers[:]
        root.handlers = [_handler(module, logs)]

        def put_back() -> None:
            root.handlers = saved

        restore.append(put_back)

    hook = None
    if "logging" not in sys.modules:
        hook = _OnFirstImport("logging", install)
        sys.meta_path.insert(0, hook)
    elif sys.modules["logging"] is not None:  # None: importing it is blocked
        install(sys.modules["logging"])
    try:
        yield logs
    finally:
        if hook is not None and hook in sys.meta_path:
            sys.meta_path.remove(hook)
        for put_back in restore:
            put_back()
