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
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from groundcheck.render.escape import replace_surrogates, visible_controls

if TYPE_CHECKING:
    import logging
    from importlib.machinery import ModuleSpec
    from types import ModuleType

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
    """Collects log records from other libraries while a command runs.

    Not itself a ``logging.Handler``: logging is imported only when something the command
    runs imports it (see :func:`capture_logs`), and a handler class needs the module.
    """

    def __init__(self) -> None:
        self.records: list[logging.LogRecord] = []
        self._handler: logging.Handler | None = None
        self._saved: list[logging.Handler] | None = None

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

    def install(self) -> None:
        """Make this the root logger's only handler (WARNING and up), keeping the old ones."""
        import logging

        records = self.records

        class _Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                records.append(record)

        root = logging.getLogger()
        self._handler = _Handler(logging.DEBUG)
        self._handler.setLevel(logging.WARNING)
        self._saved = root.handlers[:]
        root.handlers = [self._handler]

    def uninstall(self) -> None:
        if self._saved is not None:
            sys.modules["logging"].getLogger().handlers = self._saved
            self._saved = None


class _LoggingWatch:
    """A meta-path finder that finds nothing itself: when ``logging`` is first imported, it
    hands back the spec the other finders give, whose loader installs the waiting collectors
    (:data:`_waiting`) right after the module has run, before the import statement returns
    it. One watch serves every collector waiting (nested :func:`capture_logs`), outermost
    first, as they would have been installed had logging been loaded already."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> ModuleSpec | None:
        if fullname != "logging":
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec: ModuleSpec | None = find(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is not None and callable(getattr(loader, "exec_module", None)):
            spec.loader = _ThenLoader(loader, _install_waiting)  # type: ignore[assignment]
        return spec


_WATCH = _LoggingWatch()
_waiting: list[CapturedLogs] = []
"""Collectors of running :func:`capture_logs` while logging is not loaded, outermost first."""


def _unwatch() -> None:
    with contextlib.suppress(ValueError):
        sys.meta_path.remove(_WATCH)


def _install_waiting() -> None:
    waiting = _waiting[:]
    _waiting.clear()
    _unwatch()
    for logs in waiting:
        logs.install()


class _ThenLoader:
    """A loader that runs ``loader``, then ``then``; the module keeps ``loader`` as its own."""

    def __init__(self, loader: Any, then: Callable[[], None]) -> None:
        self._loader = loader
        self._then = then

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self._loader.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        self._then()


@contextmanager
def capture_logs() -> Iterator[CapturedLogs]:
    """Route every log record (WARNING and up) to a collector instead of stderr.

    ``logging`` (with traceback, string and weakref: ~18 M instructions, 4% of a one-line
    ``extract``) is imported here only if it already is. Otherwise no record can exist yet,
    and a finder on ``sys.meta_path`` installs the collector the moment something the
    command runs (bibtexparser, a plug-in) imports logging: right after the module has run,
    before the importer gets it, so no record is missed.
    """
    logs = CapturedLogs()
    if "logging" in sys.modules:
        logs.install()
    else:
        if not _waiting:
            sys.meta_path.insert(0, _WATCH)
        _waiting.append(logs)
    try:
        yield logs
    finally:
        if any(waiting is logs for waiting in _waiting):  # logging never came
            _waiting.remove(logs)
            if not _waiting:
                _unwatch()
        logs.uninstall()
