"""Property tests of the loaders: any JSON value loads or fails with InputError, never worse."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundcheck.errors import InputError
from groundcheck.evidence import load_evidence

_keys = st.sampled_from(
    [
        "role", "content", "tool_calls", "tool_call_id", "type", "id", "name", "function",
        "arguments", "output", "call_id", "tool", "input", "error", "parts", "functionCall",
        "functionResponse", "response", "message", "item", "event_type", "payload", "jsonrpc",
        "method", "params", "result", "attributes", "title", "text", "data", "tool_use_id",
    ]
)  # fmt: skip
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(
        [
            "tool", "assistant", "user", "tool_use", "tool_result", "function_call",
            "function_call_output", "item.completed", "command_execution", "tools/call",
            "2005.11401", "hep-th/9711200", "doi:10.1000/x", "execute_tool", "",
        ]
    ),
    st.text(max_size=30),
)  # fmt: skip
_json = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(_keys, children, max_size=6)
    ),
    max_leaves=40,
)


def _fingerprint(value: Any) -> tuple[str, tuple[str, ...], int] | str:
    try:
        trace = load_evidence(value)
    except InputError as exc:
        return f"InputError: {exc}"
    ids = tuple(sorted(str(i) for i in trace.evidence.identifiers))
    return trace.format, ids, len(trace.evidence.calls)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_json, min_size=1, max_size=8))
def test_any_records_load_or_fail_cleanly(records: list[Any]) -> None:
    """Whatever the records, loading returns a trace or raises InputError, deterministically."""
    first = _fingerprint(records)
    assert _fingerprint(records) == first


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.one_of(_json.map(json.dumps), st.text(max_size=40)), max_size=10))
def test_any_jsonl_file_loads_or_fails_cleanly(tmp_path: Path, lines: list[str]) -> None:
    """Files of JSON lines mixed with arbitrary text: a trace, or an InputError."""
    path = tmp_path / "trace.jsonl"
    path.write_text("\n".join(line.replace("\n", " ") for line in lines) + "\n", "utf-8")
    with contextlib.suppress(InputError):
        load_evidence(path)
