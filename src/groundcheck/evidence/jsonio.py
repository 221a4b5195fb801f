"""Reading JSON and JSON Lines files with errors that name the file and the line.

JSONL is read one line at a time, so a trace of any size streams in bounded memory; a JSON
document is parsed whole. Either way a problem is reported as ``file:line: problem``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from groundcheck.errors import InputError

__all__ = ["iter_records", "read_text"]


def read_text(path: str | Path) -> str:
    """A whole text file as str (``-`` is standard input); bad UTF-8 names the line."""
    name = str(path)
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=name) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=name) from None
    return decode(data, name)


def decode(data: bytes, source: str, first_line: int = 1) -> str:
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


def _loads(text: str, source: str, first_line: int = 1) -> Any:
    """Parse one JSON value that starts at line ``first_line`` of ``source``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError("JSON nested too deeply to read", source=source, line=first_line) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON: {exc.msg} (column {exc.colno})",
            source=source,
            line=first_line + exc.lineno - 1,
        ) from None


def _open(path: str | Path) -> BinaryIO:
    name = str(path)
    if name == "-":
        return sys.stdin.buffer
    try:
        return Path(path).open("rb")
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=name) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=name) from None


def iter_records(path: str | Path) -> Iterator[tuple[int | None, Any]]:
    """Yield ``(line, value)`` for each record of a JSON or JSONL file.

    A file whose first non-blank byte is ``[`` is one JSON array: its items are the records,
    with ``line`` None since the parser does not track item lines. Otherwise the file is read
    as JSON Lines, one value per non-blank line, streamed in bounded memory; a file whose first
    line is not a whole value but whose whole text is one JSON object (pretty-printed) is
    yielded as that one object.
    """
    name = str(path)
    stream = _open(path)
    try:
        if _peek_first_byte(stream) == b"[":
            whole = decode(stream.read(), name)
            value = _loads(whole, name)
            for item in value:
                yield None, item
            return
        first = True
        for number, raw in enumerate(stream, 1):
            text = decode(raw, name, number).rstrip("\r\n")
            if not text.strip():
                continue
            if first and text.lstrip().startswith("{"):
                first = False
                try:
                    value = json.loads(text)
                except RecursionError:
                    raise InputError(
                        "JSON nested too deeply to read", source=name, line=number
                    ) from None
                except json.JSONDecodeError:
                    rest = decode(stream.read(), name, number + 1)
                    yield number, _loads(text + "\n" + rest, name, number)
                    return
                yield number, value
                continue
            first = False
            yield number, _loads(text, name, number)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _peek_first_byte(stream: BinaryIO) -> bytes:
    """The first non-blank byte, without consuming anything (falls back to buffering)."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        head: bytes = peek(4096)
        stripped = head.lstrip(b" \t\r\n\xef\xbb\xbf")
        if stripped or len(head) < 4096:
            return stripped[:1]
    return b""
