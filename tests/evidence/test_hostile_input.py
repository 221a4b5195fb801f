"""Inputs that once crashed or hung a reader: each is read, or is one clear InputError.

A JSON number longer than Python converts (4,300 digits), an endless stream, binary data, and
pipes that can be read only once. The command-line side of each is in
``tests/cli/test_hostile_cli.py``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.errors import ConfigError, InputError
from groundcheck.evidence import load_evidence
from groundcheck.evidence.jsonio import (
    MAX_INPUT_BYTES,
    input_limit,
    limited_input,
    parse_json,
    read_text,
)
from groundcheck.evidence.trace import parse_arguments
from groundcheck.model import Identifier, dumps

FIXTURES = Path(__file__).parent / "fixtures"
BIG = "9" * 5000
"""Longer than ``sys.get_int_max_str_digits()`` (4,300): ``int()`` refuses it."""
_MARK = "__groundcheck_big_number__"

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
SWITCH = Identifier("arxiv", "2101.03961")


def _with_big_numbers(value: Any) -> Any:
    """``value`` with a marker key in every object (replaced by a long number once dumped)."""
    if isinstance(value, dict):
        return {**{k: _with_big_numbers(v) for k, v in value.items()}, "gc_n": _MARK}
    if isinstance(value, list):
        return [_with_big_numbers(v) for v in value]
    return value


def _dump_big(value: Any, **kwargs: Any) -> str:
    return json.dumps(_with_big_numbers(value), **kwargs).replace(f'"{_MARK}"', BIG)


def _fixtures() -> Iterator[Path]:
    for path in sorted(FIXTURES.iterdir()):
        if path.suffix in (".json", ".jsonl"):
            yield path


# -- JSON numbers of any length ------------------------------------------------------------


def test_parse_json_reads_a_number_of_any_length_as_its_text() -> None:
    assert parse_json(f'{{"n": {BIG}, "m": -{BIG}, "k": 12}}') == {
        "n": BIG,
        "m": "-" + BIG,
        "k": 12,
    }
    assert parse_json(f"[{BIG}.5e3]")[0] == float("inf")  # floats never raise: inf


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=4000, max_value=9000), st.booleans())
def test_parse_json_never_raises_for_a_long_integer(digits: int, negative: bool) -> None:
    number = ("-" if negative else "") + "7" * digits
    value = parse_json(f'{{"x": [{number}]}}')["x"][0]
    if digits <= sys.get_int_max_str_digits():
        assert value == int(number)
    else:
        assert value == number


@pytest.mark.parametrize("path", list(_fixtures()), ids=lambda p: p.name)
def test_a_long_number_in_every_object_of_a_trace_changes_nothing(
    path: Path, tmp_path: Path
) -> None:
    """The class of the crash: a 5,000-digit number anywhere (here: in every object of every
    fixture, JSON Lines and documents alike) is read, and the trace reads as before."""
    text = path.read_text("utf-8")
    if path.suffix == ".jsonl":
        lines = [
            _dump_big(json.loads(line)) if line.lstrip()[:1] in ("{", "[") else line
            for line in text.splitlines()
        ]
        hostile = "\n".join(lines) + "\n"
    else:
        hostile = _dump_big(json.loads(text), indent=2)
    copy = tmp_path / path.name
    copy.write_text(hostile, "utf-8")
    plain, read = load_evidence(path), load_evidence(copy)
    assert read.format == plain.format
    assert read.evidence.identifiers == plain.evidence.identifiers
    assert read.report == plain.report


@pytest.mark.parametrize("layout", ["jsonl", "one-line", "pretty"])
def test_a_long_number_in_a_chat_trace_is_read(tmp_path: Path, layout: str) -> None:
    path = tmp_path / "trace.json"
    if layout == "jsonl":
        path.write_text("".join(_dump_big(m) + "\n" for m in MESSAGES), "utf-8")
    else:
        path.write_text(
            _dump_big({"messages": MESSAGES}, indent=2 if layout == "pretty" else None), "utf-8"
        )
    trace = load_evidence(path)
    assert SWITCH in trace.evidence.identifiers


def test_a_long_number_inside_embedded_json_and_arguments_is_read(tmp_path: Path) -> None:
    """Tool outputs and arguments that are JSON *strings* are parsed too: the number in them
    must not turn the embedded record into unparsed text or an error."""
    output = '{"hits": [{"arxiv": "2101.03961", "score": ' + BIG + "}]}"
    arguments = '{"query": "moe", "seed": ' + BIG + "}"
    messages = [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "s", "arguments": arguments}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": output},
    ]
    path = tmp_path / "trace.json"
    path.write_text(json.dumps({"messages": messages}), "utf-8")
    call = load_evidence(path).evidence.calls[0]
    assert SWITCH in call.identifiers
    assert parse_arguments(arguments) == {"query": "moe", "seed": BIG}


def test_a_long_number_in_an_inspect_log_is_read(tmp_path: Path) -> None:
    log = json.loads((FIXTURES / "inspect" / "moe.json").read_text("utf-8"))
    copy = tmp_path / "moe.json"
    copy.write_text(_dump_big(log), "utf-8")
    samples = [f"{s['id']}:{s['epoch']}" for s in log["samples"]]
    for sample in samples:
        plain = load_evidence(FIXTURES / "inspect" / "moe.json", sample=sample)
        read = load_evidence(copy, sample=sample)
        assert read.evidence.identifiers == plain.evidence.identifiers


def test_a_long_number_stored_in_a_ledger_is_read(tmp_path: Path) -> None:
    """A ledger row written by another program (or a Python without the digit limit) may hold
    any JSON: reading it back never raises."""
    from groundcheck.ledger import Ledger

    db = tmp_path / "run.db"
    ledger = Ledger(db)
    with ledger.run("r"):
        ledger.log_call("search", {"q": "moe"}, "Switch Transformers 2101.03961")
    ledger.close()
    with sqlite3.connect(db) as conn:  # another program: no append-only triggers
        for (trigger,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            conn.execute(f'DROP TRIGGER "{trigger}"')
        conn.execute("UPDATE calls SET input = ?", (f'{{"q": "moe", "n": {BIG}}}',))
    calls = Ledger(db).tool_calls("r")
    assert calls[0]["input"] == {"q": "moe", "n": BIG}


def test_a_long_number_in_a_manifest_is_read(tmp_path: Path) -> None:
    from groundcheck.batch.discover import discover_runs

    (tmp_path / "r.md").write_text("See arXiv:2101.03961.", "utf-8")
    (tmp_path / "t.json").write_text(json.dumps({"messages": MESSAGES}), "utf-8")
    manifest = tmp_path / "runs.jsonl"
    line = f'{{"run": "a", "report": "r.md", "evidence": ["t.json"], "seed": {BIG}}}\n'
    manifest.write_text(line, "utf-8")
    specs, _ = discover_runs([str(manifest)])
    assert [(s.run, s.problem) for s in specs] == [("a", None)]


# -- size limits, binary data, endless streams -----------------------------------------------


def test_the_input_limit_is_documented_and_overridable(tmp_path: Path) -> None:
    assert input_limit() == MAX_INPUT_BYTES == 512 * 1024 * 1024
    path = tmp_path / "r.md"
    path.write_text("x" * 5000, "utf-8")
    with limited_input(4096):
        assert input_limit() == 4096
        with pytest.raises(InputError, match=r"r\.md: more than the input limit of 4,096"):
            read_text(path)
    assert read_text(path, max_bytes=5000) == "x" * 5000
    with pytest.raises(InputError, match="input limit of 4,999 bytes"):
        read_text(path, max_bytes=4999)
    for bad in (0, -1, True, 1.5, "10"):
        with pytest.raises(ConfigError, match="max_input_bytes"):
            read_text(path, max_bytes=bad)  # type: ignore[arg-type]


def test_the_limit_holds_for_every_way_a_file_is_read(tmp_path: Path) -> None:
    lines = tmp_path / "t.jsonl"
    lines.write_text("".join(json.dumps(m) + "\n" for m in MESSAGES * 50), "utf-8")
    document = tmp_path / "t.json"
    document.write_text(json.dumps(MESSAGES * 50, indent=2), "utf-8")
    for path in (lines, document):
        size = path.stat().st_size
        assert load_evidence(path, max_input_bytes=size).evidence.calls
        with pytest.raises(InputError, match="more than the input limit"):
            load_evidence(path, max_input_bytes=size - 1)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_is_refused_at_once_as_evidence_and_stopped_as_a_report() -> None:
    with pytest.raises(InputError, match=r"^/dev/zero:1: binary data \(a NUL byte at offset 0\)"):
        load_evidence("/dev/zero")
    with pytest.raises(InputError, match=r"^/dev/zero: more than the input limit"):
        read_text("/dev/zero", max_bytes=1 << 20)


def test_an_endless_line_on_a_pipe_stops_at_the_limit() -> None:
    read, write = os.pipe()

    def flood() -> None:
        with os.fdopen(write, "wb") as stream:
            try:
                while True:
                    stream.write(b"{" * 65536)
            except (BrokenPipeError, OSError):
                pass

    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    try:
        with pytest.raises(InputError, match="more than the input limit of 1,048,576"):
            load_evidence(f"/dev/fd/{read}", max_input_bytes=1 << 20)
    finally:
        os.close(read)
    writer.join(timeout=10)


def test_utf16_json_is_named_binary_not_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_bytes(json.dumps(MESSAGES).encode("utf-16"))
    with pytest.raises(InputError, match=r"NUL byte.*UTF-16"):
        load_evidence(path)


def _fifo(path: Path, text: str) -> threading.Thread:
    os.mkfifo(path)

    def write() -> None:
        try:
            with path.open("w", encoding="utf-8") as stream:
                stream.write(text)
        except BrokenPipeError:  # the reader stopped early, on purpose
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


def test_several_pipes_of_one_run_are_each_opened_once(tmp_path: Path) -> None:
    """A run of several files is read in two passes; a FIFO (or ``<(cmd)``) can be read once,
    so it is spooled: before, the second pass found it empty ("no known trace format")."""
    other = [
        {**MESSAGES[0], "tool_calls": [{**MESSAGES[0]["tool_calls"][0], "id": "c2"}]},  # type: ignore[dict-item]
        {"role": "tool", "tool_call_id": "c2", "content": "RAG 2005.11401"},
    ]
    writers = [
        _fifo(tmp_path / "a.jsonl", "".join(json.dumps(m) + "\n" for m in MESSAGES)),
        _fifo(tmp_path / "b.json", json.dumps({"messages": other}, indent=1)),
    ]
    trace = load_evidence([tmp_path / "a.jsonl", tmp_path / "b.json"])
    for writer in writers:
        writer.join(timeout=10)
    assert {SWITCH, Identifier("arxiv", "2005.11401")} <= trace.evidence.identifiers
    assert trace.report == "See arXiv:2101.03961."


def test_a_spooled_pipe_obeys_the_limit(tmp_path: Path) -> None:
    writer = _fifo(tmp_path / "a.jsonl", "".join(json.dumps(m) + "\n" for m in MESSAGES * 100))
    plain = tmp_path / "b.jsonl"
    plain.write_text(json.dumps(MESSAGES[1]) + "\n", "utf-8")
    with pytest.raises(InputError, match=r"a\.jsonl: more than the input limit of 1,000"):
        load_evidence([tmp_path / "a.jsonl", plain], max_input_bytes=1000)
    writer.join(timeout=10)


# -- output of many findings ----------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=200,
    ),
    st.sampled_from([None, 0, 2]),
)
def test_dumps_in_batches_writes_what_json_dumps_writes(value: Any, indent: int | None) -> None:
    """The batched encoder (bounded memory for huge verdicts) changes no byte of the output."""
    expected = json.dumps(value, ensure_ascii=False, indent=indent) + ("\n" if indent else "")
    assert dumps(value, indent=indent) == expected


def test_a_file_only_format_given_python_objects_is_a_config_error() -> None:
    """Before: ``load_evidence(obj, format="bibtex")`` raised ``KeyError``."""
    with pytest.raises(ConfigError, match="format 'bibtex' reads files"):
        load_evidence([{"tool": "t", "output": "x"}], format="bibtex")


def test_a_ledger_row_that_is_not_json_is_a_clear_error(tmp_path: Path) -> None:
    """Before: a JSONDecodeError traceback from ``ledger audit`` / ``tool_calls``."""
    from groundcheck.ledger import Ledger

    db = tmp_path / "run.db"
    ledger = Ledger(db)
    with ledger.run("r"):
        ledger.log_call("search", {"q": "moe"}, "Switch Transformers 2101.03961")
    ledger.close()
    with sqlite3.connect(db) as conn:
        for (trigger,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            conn.execute(f'DROP TRIGGER "{trigger}"')
        conn.execute("UPDATE calls SET output = '{broken'")
    with pytest.raises(InputError, match=r"run\.db: call 1: the stored output is not valid JSON"):
        Ledger(db).tool_calls("r")


def test_a_manifest_is_read_under_the_input_limit(tmp_path: Path) -> None:
    from groundcheck.batch.discover import discover_runs

    manifest = tmp_path / "runs.jsonl"
    manifest.write_text('{"run": "a", "evidence": ["t.json"], "pad": "' + "x" * 5000 + '"}\n')
    with limited_input(1000), pytest.raises(InputError, match=r"runs\.jsonl: more than the input"):
        discover_runs([str(manifest)])
