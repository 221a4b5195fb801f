"""The one way into a file: opened once, read as JSON or JSON Lines, errors naming file and line.

Every loader reads through here, so every entry point (``load_evidence``, ``load_tool_calls``,
the CLI, batches) treats a file the same way:

- a file is opened exactly once (``-`` is standard input), so FIFOs and pipes work; its first
  bytes are buffered for the format table to sniff (BibTeX, archives) before anything is parsed;
- a file whose first non-blank byte is ``[``, or whose first line is not a whole JSON value but
  whose whole text is (pretty-printed JSON), is one *document*; so is a file of a single JSON
  line. A document is handed to an ``unwrap`` hook that finds its records (``{"messages": [...]}``);
- anything else is JSON Lines, streamed one line at a time in bounded memory. Plain-text lines
  (CLI start-up notices) are skipped and counted. A line that starts like JSON but does not
  parse is skipped with a note when it is the last such line (a run killed mid-write truncates
  its last line); anywhere else it is an :class:`~groundcheck.errors.InputError` naming it,
  since skipping it would silently lose a record;
- no more than :func:`input_limit` bytes are read from any one file (:data:`MAX_INPUT_BYTES`,
  512 MiB, unless ``--max-input-bytes`` / ``max_input_bytes=`` says otherwise), so
  ``/dev/zero`` or an endless pipe is a clear error, never an exhausted machine; and a file
  whose first bytes hold a NUL is binary (or UTF-16), not JSON, and is refused at once.
"""

from __future__ import annotations

import io
import json
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, BinaryIO

from groundcheck.errors import ConfigError, InputError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "MAX_INPUT_BYTES",
    "Input",
    "JsonRecords",
    "check_input_limit",
    "decode",
    "input_limit",
    "limited_input",
    "loads",
    "open_input",
    "parse_json",
    "read_text",
]

_BLANK = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"
HEAD_BYTES = 65536
"""How much of a file's start is buffered for sniffing its format."""

MAX_INPUT_BYTES = 512 * 1024 * 1024
"""The default limit on the bytes read from one file (512 MiB): far above any report and all
but the largest traces, far below what exhausts a machine. Override it with
``--max-input-bytes`` or ``max_input_bytes=`` (``load_evidence``, ``load_run``,
``Policy``). Archive members have their own limit (``inspect_log.MAX_MEMBER_BYTES``)."""
_CHUNK = 1 << 20

_LIMIT: ContextVar[int] = ContextVar("groundcheck_max_input_bytes", default=MAX_INPUT_BYTES)

Unwrap = Callable[[Any, str], Iterable[Any]]
"""Given a whole JSON document and the source name, its records."""


def check_input_limit(value: Any) -> int:
    """``value`` as an input limit (a positive number of bytes), or a :class:`ConfigError`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"max_input_bytes must be a positive number of bytes, got {value!r}")
    return value


def input_limit() -> int:
    """The most bytes one file may hold here and now (:data:`MAX_INPUT_BYTES` by default).

    >>> input_limit() == MAX_INPUT_BYTES
    True
    >>> with limited_input(1024):
    ...     input_limit()
    1024
    """
    return _LIMIT.get()


@contextmanager
def limited_input(max_bytes: int | None) -> Iterator[None]:
    """Within the block, every file is read with at most ``max_bytes`` bytes (None: unchanged).

    A context variable, so the format table's hooks and every reader see it without each
    taking a parameter; threads and tasks started inside inherit it.
    """
    if max_bytes is None:
        yield
        return
    token = _LIMIT.set(check_input_limit(max_bytes))
    try:
        yield
    finally:
        _LIMIT.reset(token)


def read_text(path: str | Path, *, max_bytes: int | None = None) -> str:
    """A whole text file as str (``-`` is standard input); bad UTF-8 names the line."""
    with open_input(path, max_bytes=max_bytes) as source:
        return source.text()


def decode(data: bytes, source: str, first_line: int = 1) -> str:
    """UTF-8 text of ``data`` (a BOM at the start of the file is dropped); bad bytes name
    the line they are on."""
    try:
        return data.decode("utf-8-sig" if first_line == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        raise InputError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "groundcheck reads UTF-8 text",
            source=source,
            line=line,
        ) from None


def _long_int(digits: str) -> int | str:
    limit = sys.get_int_max_str_digits()
    if limit and len(digits) - digits.startswith("-") > limit:
        return digits
    return int(digits)


def parse_json(text: str | bytes) -> Any:
    """``json.loads``, except that an integer of any length is read: one longer than Python
    converts (``sys.get_int_max_str_digits()``, 4,300 digits by default) stays its text.

    Python refuses such an integer with a plain ``ValueError`` (not a ``JSONDecodeError``), so a
    single long number anywhere in a trace would otherwise abort the whole read. The first
    attempt is the plain parser (no cost for ordinary JSON); only a refusal reparses.

    >>> parse_json('{"n": ' + "9" * 5000 + '}')["n"] == "9" * 5000
    True
    >>> parse_json("[1, -2]")
    [1, -2]
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
        return json.loads(text, parse_int=_long_int)


def loads(text: str, source: str, first_line: int = 1) -> Any:
    """Parse one JSON value that starts at line ``first_line`` of ``source``."""
    try:
        return parse_json(text)
    except RecursionError:
        raise InputError("JSON nested too deeply to read", source=source, line=first_line) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON: {exc.msg} (column {exc.colno})",
            source=source,
            line=first_line + exc.lineno - 1,
        ) from None


class Input:
    """A file (or standard input) opened once, with its first bytes buffered for sniffing.

    Reads go through the buffer first, so sniffing consumes nothing. Use as a context manager;
    standard input is never closed.
    """

    def __init__(
        self, stream: BinaryIO, name: str, *, owned: bool, max_bytes: int | None = None
    ) -> None:
        self.name = name
        self.max_bytes = input_limit() if max_bytes is None else check_input_limit(max_bytes)
        self._stream = stream
        self._owned = owned
        self._buffer = b""
        self._eof = False
        self._taken = 0

    def _take(self, chunk: bytes) -> bytes:
        """Count bytes read from the stream; past the limit, a clear error naming the file."""
        self._taken += len(chunk)
        if self._taken > self.max_bytes:
            raise InputError(
                f"more than the input limit of {self.max_bytes:,} bytes (raise it with "
                "--max-input-bytes N, or max_input_bytes=)",
                source=self.name,
            )
        return chunk

    def _read(self, size: int) -> bytes:
        return self._take(self._stream.read(min(size, self.max_bytes - self._taken + 1)))

    def __enter__(self) -> Input:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._owned:
            self._stream.close()

    def head(self, size: int = HEAD_BYTES) -> bytes:
        """Up to ``size`` bytes from the start, without consuming them (pipes included)."""
        while len(self._buffer) < size and not self._eof:
            chunk = self._read(size - len(self._buffer))
            if not chunk:
                self._eof = True
                break
            self._buffer += chunk
        return self._buffer[:size]

    def first_byte(self) -> bytes:
        """The first byte that is not blank or a byte-order mark (b"" for an empty file)."""
        size = 4096
        while True:
            head = self.head(size)
            stripped = head.lstrip(_BLANK)
            if stripped.startswith(_BOM):
                stripped = stripped[len(_BOM) :].lstrip(_BLANK)
            if stripped or len(head) < size:
                return stripped[:1]
            size *= 4

    def read(self) -> bytes:
        """Everything not yet read: in chunks, so the limit stops an endless stream early; the
        rest of a regular file in one read of its size first, so its bytes are copied once
        (joining 1 MiB chunks copied them twice: ~2,400 page faults, ~4 ms, of every 10 MB
        read in a fresh process), and in chunks after that if it grew meanwhile."""
        parts = [self._buffer] if self._buffer else []
        size = self._size_left()
        while not self._eof:
            chunk = self._read(_CHUNK if size is None else size + 1)
            size = None
            if not chunk:
                break
            parts.append(chunk)
        self._buffer = b""
        self._eof = True
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def _size_left(self) -> int | None:
        """The bytes a regular file holds past the stream's position (None: not a regular
        file, or not one that says so)."""
        try:
            status = os.fstat(self._stream.fileno())
            if not stat.S_ISREG(status.st_mode):
                return None
            return max(0, status.st_size - self._stream.tell())
        except (AttributeError, OSError, ValueError):  # (io.UnsupportedOperation: OSError)
            return None

    def chunk(self) -> bytes:
        """The next bytes not yet read (b"" at the end): a whole file streamed in chunks."""
        if self._buffer:
            data, self._buffer = self._buffer, b""
            return data
        if self._eof:
            return b""
        data = self._read(_CHUNK)
        self._eof = not data
        return data

    def seekable(self) -> BinaryIO:
        """The whole input as a seekable stream (archives need one): the file itself when it
        can seek, else everything read into memory (a pipe)."""
        try:
            if self._stream.seekable():
                self._stream.seek(0)
                self._buffer, self._eof = b"", False
                return self._stream
        except (OSError, ValueError):
            pass
        return io.BytesIO(self.read())

    def _rest_lines(self) -> Iterator[bytes]:
        while True:
            line = self._take(self._stream.readline(self.max_bytes - self._taken + 1))
            if not line:
                self._eof = True
                return
            yield line

    def lines(self) -> Iterator[bytes]:
        """The remaining lines, each with its newline, streamed."""
        pending, self._buffer = self._buffer, b""
        rest = iter(()) if self._eof else self._rest_lines()
        if pending:
            *complete, partial = pending.split(b"\n")
            for line in complete:
                yield line + b"\n"
            if partial:
                yield partial + next(rest, b"")  # the buffer may end inside a line
        yield from rest

    def text(self) -> str:
        return decode(self.read(), self.name)


def _as_pathlib_opens(path: str | Path) -> str | Path:
    """What ``Path(path).open()`` opens, importing pathlib (~15 M instructions of a start-up)
    only where its spelling differs from the string's for the system: ``""`` is ``.``, and a
    trailing ``/`` or ``/.`` is dropped (``report.md/`` opens the file)."""
    if isinstance(path, str) and path and not path.endswith(("/", "/.")) and os.sep == "/":
        return path
    from pathlib import Path

    return Path(path)


def open_input(path: str | Path, *, max_bytes: int | None = None) -> Input:
    """Open a file once for reading (``-`` is standard input), or raise a clear InputError.

    At most ``max_bytes`` bytes are read from it (default :func:`input_limit`).
    """
    name = str(path)
    if name == "-":
        return Input(sys.stdin.buffer, "-", owned=False, max_bytes=max_bytes)
    try:
        stream = open(_as_pathlib_opens(path), "rb")  # noqa: SIM115, PTH123 - closed by Input.close
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=name) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=name) from None
    return Input(stream, name, owned=True, max_bytes=max_bytes)


def _whole(value: Any, name: str) -> list[Any]:
    return [value]


class JsonRecords:
    """The records of a JSON or JSON Lines input, as ``(line, value)`` pairs.

    ``line`` is the 1-based line of a JSON Lines record and None for the items of a document.
    Iterate once; :meth:`notes` then says what was skipped.
    """

    def __init__(self, source: Input, unwrap: Unwrap = _whole) -> None:
        self.source = source
        self.unwrap = unwrap
        self.plain = 0
        self.truncated: int | None = None
        self.document = False

    def notes(self) -> list[str]:
        name = self.source.name
        notes = []
        if self.plain:
            notes.append(f"{name}: skipped {self.plain} plain-text line(s) between JSON lines")
        if self.truncated is not None:
            notes.append(
                f"{name}: skipped 1 line(s) that are not valid JSON (truncated?): "
                f"line {self.truncated}"
            )
        return notes

    def __iter__(self) -> Iterator[tuple[int | None, Any]]:
        head = self.source.head()
        nul = head.find(b"\x00")
        if nul != -1:  # JSON escapes every control character: a raw NUL is not JSON text
            raise InputError(
                f"binary data (a NUL byte at offset {nul}), not JSON or JSON Lines; "
                "groundcheck reads UTF-8 text (a UTF-16 file must be converted first)",
                source=self.source.name,
                line=1 + head.count(b"\n", 0, nul),
            )
        first = self.source.first_byte()
        if first == b"[":
            yield from self._document(self.source.text(), 1)
            return
        yield from self._lines()

    def _document(self, text: str, first_line: int) -> Iterator[tuple[int | None, Any]]:
        self.document = True
        value = loads(text, self.source.name, first_line)
        for record in self.unwrap(value, self.source.name):
            yield None, record

    def _lines(self) -> Iterator[tuple[int | None, Any]]:
        name = self.source.name
        lines = self.source.lines()
        held: tuple[int, Any] | None = None  # the first record, until a second one shows up
        broken: tuple[int, str] | None = None
        records = 0
        for number, raw in enumerate(lines, 1):
            text = decode(raw, name, number).strip()
            if not text:
                continue
            if text[0] not in "[{":
                self.plain += 1
                continue
            try:
                value = parse_json(text)
            except RecursionError:
                raise InputError(
                    "JSON nested too deeply to read", source=name, line=number
                ) from None
            except json.JSONDecodeError as exc:
                if records == 0 and broken is None and text[0] == "{":
                    # Not a line of JSON Lines: the first line of a pretty-printed document.
                    rest = b"".join(lines)
                    whole = text + "\n" + decode(rest, name, number + 1)
                    yield from self._document(whole, number)
                    return
                if broken is not None:
                    raise InputError(broken[1], source=name, line=broken[0]) from None
                broken = (number, f"invalid JSON: {exc.msg} (column {exc.colno})")
                continue
            if broken is not None:  # a broken line with records after it: not a truncation
                raise InputError(broken[1], source=name, line=broken[0])
            records += 1
            if records == 1:
                held = (number, value)
                continue
            if held is not None:
                yield held
                held = None
            yield number, value
        if broken is not None:
            self.truncated = broken[0]
        if held is not None:
            # A single line is a whole document, one-line JSON with a wrapper key included.
            self.document = True
            for record in self.unwrap(held[1], name):
                yield held[0], record
