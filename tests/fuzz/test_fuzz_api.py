"""Fuzzing the public API with hypothesis, for a short fixed budget in the normal suite.

Inputs are built from the fragments attackers and unlucky traces use (identifiers, disguise
characters, escapes, terminal control sequences, lone surrogates, NULs, numbers longer than
Python converts, broken JSON) and checked by ``oracle.py`` (no undocumented exception, output
that encodes, no control character on the terminal, sane exit codes). ``GROUNDCHECK_FUZZ_EXAMPLES=N``
runs N examples per property (default 40); ``benchmarks/fuzz/fuzz_api.py`` is the long run,
with the linear time budget.
"""

from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

_SPEC = importlib.util.spec_from_file_location(
    "groundcheck_fuzz_oracle", Path(__file__).with_name("oracle.py")
)
assert _SPEC is not None and _SPEC.loader is not None
oracle = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(oracle)

EXAMPLES = int(os.environ.get("GROUNDCHECK_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BIG = oracle.BIG
FRAGMENTS = oracle.FRAGMENTS
texts = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=40
).map("".join)

KEYS = [
    "role", "content", "tool_calls", "tool_call_id", "output", "input", "tool", "id", "name",
    "type", "function", "arguments", "messages", "events", "title", "arxiv", "doi", "url", "text",
    "result", "spans", "attributes", "samples", "version", "status",
]  # fmt: skip
_ROLES = st.sampled_from(["assistant", "tool", "user", "system", "function"])
json_leaves = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), texts
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(
        st.one_of(st.sampled_from(KEYS), st.text(max_size=6)),
        inner,
        max_size=5,
    ),
    max_leaves=30,
)
records = st.fixed_dictionaries(
    {"role": _ROLES, "content": st.one_of(st.none(), texts, json_values)},
    optional={
        "tool_call_id": st.sampled_from(["c1", "c2"]),
        "tool_calls": st.lists(
            st.fixed_dictionaries(
                {
                    "id": st.sampled_from(["c1", "c2"]),
                    "type": st.just("function"),
                    "function": st.fixed_dictionaries(
                        {"name": st.sampled_from(["search", "fetch"]), "arguments": texts}
                    ),
                }
            ),
            max_size=2,
        ),
    },
)


def _raw(value: Any) -> str:
    """JSON text, with its marker strings for long numbers written as bare numbers."""
    return json.dumps(value, ensure_ascii=False).replace(f'"{BIG}"', BIG)


@st.composite
def trace_bytes(draw: st.DrawFn) -> bytes:
    items = draw(st.lists(st.one_of(records, json_values), max_size=6))
    layout = draw(st.sampled_from(["jsonl", "document", "wrapped", "pretty"]))
    if layout == "jsonl":
        text = "".join(_raw(item) + "\n" for item in items)
    elif layout == "document":
        text = _raw(items)
    elif layout == "wrapped":
        text = _raw({"messages": items})
    else:
        text = json.dumps({"messages": items}, indent=2, ensure_ascii=False)
    cut = draw(st.one_of(st.none(), st.integers(0, max(0, len(text)))))
    if cut is not None:  # truncated or with garbage spliced in
        text = text[:cut] + draw(st.sampled_from(["", "\n", "{", "\x00", "garbage\n", BIG]))
    return text.encode("utf-8", "surrogatepass")


@FUZZ
@given(texts)
@example("see 10.1000/x\x00y and \x1b[2J arXiv:2005.11401\ud800")
def test_extract_never_escapes_and_spans_point_at_the_text(text: str) -> None:
    oracle.check_extract(text)


@FUZZ
@given(texts, st.one_of(texts, json_values))
def test_audit_never_escapes_and_every_format_encodes(report: str, output: Any) -> None:
    oracle.check_audit(report, output)


@FUZZ
@given(trace_bytes())
@example(b'{"role": "tool", "content": "2005.11401", "n": ' + BIG.encode() + b"}\n")
@example(b"\xff\xfe[\x00")
def test_load_evidence_is_a_trace_or_one_documented_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as directory:
        oracle.check_load(data, Path(directory))


@FUZZ
@given(texts, st.one_of(trace_bytes(), st.binary(max_size=200)), st.sampled_from(
    ["text", "json", "sarif", "github", "html"]
))  # fmt: skip
def test_cli_audit_exits_0_1_or_2_with_one_line_errors(
    report: str, evidence: bytes, fmt: str
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        oracle.check_cli(report.encode("utf-8", "surrogatepass"), evidence, Path(directory), fmt)
