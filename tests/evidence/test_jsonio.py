"""The one reader: a file opened once, JSON documents and JSON Lines, one truncation policy."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from groundcheck.errors import InputError, UnknownFormat
from groundcheck.evidence import load_evidence
from groundcheck.evidence.jsonio import Input, JsonRecords, open_input
from groundcheck.model import Identifier

MESSAGES = [
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "Switch Transformers 2101.03961"},
    {"role": "assistant", "content": "See arXiv:2101.03961."},
]


def _records(path: Path) -> list[tuple[int | None, Any]]:
    with open_input(path) as source:
        return list(JsonRecords(source))


def test_one_line_wrapped_document_reads_like_its_pretty_twin(tmp_path: Path) -> None:
    """What json.dump({"messages": [...]}, f) writes is a document, not one JSON Lines record."""
    doc = {"messages": MESSAGES, "model": "gpt-x", "usage": {"total_tokens": 3}}
    one_line, pretty = tmp_path / "one.json", tmp_path / "pretty.json"
    one_line.write_text(json.dumps(doc), "utf-8")
    pretty.write_text(json.dumps(doc, indent=2), "utf-8")
    a, b = load_evidence(one_line), load_evidence(pretty)
    assert a.format == b.format == "openai-chat"
    assert a.evidence.identifiers == b.evidence.identifiers == {Identifier("arxiv", "2101.03961")}
    assert a.report == b.report == "See arXiv:2101.03961."


def test_a_fifo_is_read_once(tmp_path: Path) -> None:
    """A named pipe can be read only once: detection, parsing and notes all come from one pass."""
    fifo = tmp_path / "trace.jsonl"
    os.mkfifo(fifo)
    lines = "".join(json.dumps(m) + "\n" for m in MESSAGES)

    def write() -> None:
        with fifo.open("w", encoding="utf-8") as stream:
            stream.write("starting up...\n" + lines)

    writer = threading.Thread(target=write)
    writer.start()
    trace = load_evidence(fifo)
    writer.join(timeout=10)
    assert Identifier("arxiv", "2101.03961") in trace.evidence.identifiers
    assert any("skipped 1 plain-text line" in n for n in trace.evidence.notes)


def test_head_is_buffered_not_consumed(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    body = "".join(json.dumps({"tool": "s", "output": str(i)}) + "\n" for i in range(5000))
    path.write_text(body, "utf-8")
    with open_input(path) as source:
        assert source.head(100) == body.encode()[:100]
        records = list(JsonRecords(source))
    assert [line for line, _ in records] == list(range(1, 5001))
    assert records[-1][1] == {"tool": "s", "output": "4999"}


def test_lines_after_a_partial_head_are_whole(tmp_path: Path) -> None:
    """The buffered head may end inside a line: that line is still read whole."""
    path = tmp_path / "t.jsonl"
    long = {"tool": "s", "output": "x" * 70_000}
    path.write_text(
        json.dumps({"tool": "a", "output": 1}) + "\n" + json.dumps(long) + "\n", "utf-8"
    )
    assert [v for _, v in _records(path)] == [{"tool": "a", "output": 1}, long]


def test_broken_last_line_is_skipped_with_a_note_even_after_plain_text(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"tool": "s", "output": 1}\n{"tool": "s", "outp\nBye.\n', "utf-8")
    with open_input(path) as source:
        reader = JsonRecords(source)
        assert [v for _, v in reader] == [{"tool": "s", "output": 1}]
    assert reader.notes() == [
        f"{path}: skipped 1 plain-text line(s) between JSON lines",
        f"{path}: skipped 1 line(s) that are not valid JSON (truncated?): line 2",
    ]


def test_two_broken_lines_are_an_error_naming_the_first(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"tool": "s", "output": 1}\n{"a": \n{"b": \n', "utf-8")
    with pytest.raises(InputError, match=r"t\.jsonl:2: invalid JSON"):
        _records(path)


def test_unknown_shape_is_its_own_error_class(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text('[{"hello": "world"}]', "utf-8")
    with pytest.raises(UnknownFormat, match="no known trace format"):
        load_evidence(path)


def test_bibtex_is_recognised_by_its_first_bytes_whatever_the_name(tmp_path: Path) -> None:
    path = tmp_path / "refs.txt"
    path.write_text("% exported\n@article{a, title={Switch}, eprint={2101.03961}}\n", "utf-8")
    trace = load_evidence(path)
    assert trace.format == "bibtex"
    assert Identifier("arxiv", "2101.03961") in trace.evidence.identifiers


class _Counted:
    """A file stream that records the size of each read and may under-report its size."""

    def __init__(self, stream: Any, fake_size: int | None = None) -> None:
        self._stream, self.reads, self._fake_size = stream, [], fake_size

    def read(self, size: int) -> bytes:
        self.reads.append(size)
        return bytes(self._stream.read(size))

    def fileno(self) -> int:
        if self._fake_size is not None:
            raise OSError("no descriptor")  # a stream that says nothing of its size
        return int(self._stream.fileno())

    def tell(self) -> int:
        return int(self._stream.tell())

    def close(self) -> None:
        self._stream.close()


def test_a_regular_file_is_read_in_one_read_of_its_size(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    body = ("See arXiv:2101.03961. " * 200_000).encode()  # 4.4 MB: over four chunks
    path.write_bytes(body)
    counted = _Counted(path.open("rb"))
    source = Input(counted, str(path), owned=True)
    with source:
        assert source.text() == body.decode()
    assert counted.reads[0] == len(body) + 1  # the whole file at once, then the end seen
    assert len(counted.reads) <= 2


def test_the_rest_after_a_sniffed_head_and_a_stream_without_a_size_read_whole(
    tmp_path: Path,
) -> None:
    path = tmp_path / "report.md"
    body = "".join(f"line {i} arXiv:2101.{i:05d}\n" for i in range(150_000)).encode()
    path.write_bytes(body)
    with open_input(path) as source:
        assert source.head(1000) == body[:1000]
        assert source.read() == body
    counted = _Counted(path.open("rb"), fake_size=0)
    with Input(counted, str(path), owned=True) as source:
        assert source.read() == body
    assert len(counted.reads) > 2  # in chunks


def test_a_regular_file_over_the_limit_is_refused_as_before(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * 5000)
    with open_input(path, max_bytes=4096) as source, pytest.raises(InputError, match="limit"):
        source.text()
    with open_input(path, max_bytes=5000) as source:
        assert source.text() == "x" * 5000
