"""The native evidence form: records, files, and the errors bad input gets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundcheck.errors import InputError
from groundcheck.evidence import from_tool_calls, load_tool_calls
from groundcheck.model import Identifier


def test_identifiers_come_from_output_never_input() -> None:
    """The agent's query is not evidence; only what the tool returned is."""
    ev = from_tool_calls(
        [{"tool": "search", "input": {"q": "2004.04906"}, "output": {"arxiv_id": "2005.11401"}}]
    )
    assert ev.identifiers == {Identifier("arxiv", "2005.11401")}


def test_well_known_keys_urls_and_nested_strings() -> None:
    """IDs in any string leaf count: URLs, DOIs, prose, JSON strings."""
    ev = from_tool_calls(
        [
            {
                "tool": "t",
                "input": None,
                "output": [
                    {"url": "https://arxiv.org/abs/1706.03762v5"},
                    {"doi": "10.1038/NATURE14539"},
                    "see hep-th/9711200",
                    '{"id": "http:\\/\\/arxiv.org\\/abs\\/2101.03961"}',
                ],
            }
        ]
    )
    assert {i for i in ev.identifiers if i.scheme != "url"} == {
        Identifier("arxiv", "1706.03762"),
        Identifier("doi", "10.1038/nature14539"),
        Identifier("arxiv", "hep-th/9711200"),
        Identifier("arxiv", "2101.03961"),
    }
    # the arXiv links are also returned under their URL keys (another name of the same work)
    assert {i.id for i in ev.identifiers if i.scheme == "url"} == {
        "arxiv.org/abs/1706.03762v5",
        "arxiv.org/abs/2101.03961",
    }


def test_arxiv_doi_in_evidence_grounds_plain_arxiv_id() -> None:
    """Evidence holding the arXiv DOI holds the arXiv id too (and the reverse)."""
    ev = from_tool_calls([{"tool": "t", "output": "10.48550/arXiv.2202.01037"}])
    assert Identifier("arxiv", "2202.01037") in ev.identifiers


def test_flags_and_default_ids() -> None:
    """Empty and errored calls are flagged; calls without an id get one from their position."""
    ev = from_tool_calls(
        [
            {"tool": "a", "output": []},
            {"tool": "b", "output": None, "error": "timeout"},
            {"tool": "c", "error": True},
            {"tool": "d", "id": "call_7", "output": "x"},
            {"tool": "e", "recorded": False},
        ]
    )
    assert [c.call_id for c in ev.calls] == ["#1", "#2", "#3", "call_7", "#5"]
    assert [c.empty for c in ev.calls] == [True, True, True, False, False]
    assert [c.errored for c in ev.calls] == [False, True, True, False, False]
    assert [c.recorded for c in ev.calls] == [True, True, True, True, False]
    assert (ev.empty_calls, ev.errored_calls, len(ev.unrecorded_calls)) == (1, 2, 1)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("just text", "must be an object"),
        ({"output": 1}, "no 'tool' name (keys: output)"),
        ({"tool": "", "output": 1}, "no 'tool' name"),
        ({"tool": "t"}, "has no 'output'"),
        ({"tool": "t", "output": 1, "error": 3}, "'error' must be"),
        ({"tool": "t", "output": 1, "recorded": "no"}, "'recorded' must be"),
        ({"tool": "t", "output": 1, "id": ["x"]}, "'id' must be"),
    ],
)
def test_wrong_shape_is_a_clear_input_error(record: object, message: str) -> None:
    """A record of the wrong shape says which call and what is wrong."""
    with pytest.raises(InputError, match="tool call #1") as info:
        from_tool_calls([record])
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


def test_single_mapping_or_string_is_rejected() -> None:
    with pytest.raises(InputError, match="list of records"):
        from_tool_calls({"tool": "t", "output": 1})  # type: ignore[arg-type]


def test_records_are_not_mutated() -> None:
    """Loading evidence leaves the caller's records untouched."""
    records = [{"tool": "t", "input": {"q": 1}, "output": {"hits": [{"title": "X"}]}}]
    snapshot = json.dumps(records)
    from_tool_calls(records)
    assert json.dumps(records) == snapshot


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_load_json_array_jsonl_and_wrapped(tmp_path: Path) -> None:
    """JSON arrays, JSON Lines and a pretty-printed {"tool_calls": [...]} all load the same."""
    calls = [{"tool": "s", "output": "2005.11401"}, {"tool": "s", "output": []}]
    array = _write(tmp_path, "a.json", json.dumps(calls, indent=2))
    lines = _write(tmp_path, "a.jsonl", "\n".join(json.dumps(c) for c in calls) + "\n\n")
    wrapped = _write(tmp_path, "w.json", json.dumps({"tool_calls": calls}, indent=2))
    results = [load_tool_calls(p) for p in (array, lines, wrapped)]
    for ev in results:
        assert ev.identifiers == {Identifier("arxiv", "2005.11401")}
        assert ev.empty_calls == 1
    assert [c.call_id for c in results[1].calls] == ["a.jsonl#1", "a.jsonl#2"]


def test_bad_jsonl_line_names_file_and_line(tmp_path: Path) -> None:
    """A broken line with records after it is an error naming it: skipping would lose one."""
    path = _write(
        tmp_path,
        "t.jsonl",
        '{"tool": "s", "output": 1}\n\n{"tool": "s", "output": \n{"tool": "t"}\n',
    )
    with pytest.raises(InputError, match=r"t\.jsonl:3: invalid JSON"):
        load_tool_calls(path)


def test_truncated_last_line_is_one_policy_for_both_readers(tmp_path: Path) -> None:
    """A run killed mid-write truncates its last line: both readers skip it with a note."""
    path = _write(
        tmp_path, "t.jsonl", '{"tool": "s", "output": "2005.11401"}\n\n{"tool": "s", "output": \n'
    )
    from groundcheck.evidence import load_evidence

    native = load_tool_calls(path)
    loaded = load_evidence(path).evidence
    assert native.identifiers == loaded.identifiers == {Identifier("arxiv", "2005.11401")}
    assert native.notes == loaded.notes
    assert any("line 3" in note and "truncated" in note for note in native.notes)


def test_bad_record_in_jsonl_names_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "t.jsonl", '{"tool": "s", "output": 1}\n{"name": "s"}\n')
    with pytest.raises(InputError, match=r"t\.jsonl:2: tool call has no 'tool'"):
        load_tool_calls(path)


def test_bad_json_document_names_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "t.json", '[\n  {"tool": "s",\n   "output": }\n]')
    with pytest.raises(InputError, match=r"t\.json:3: invalid JSON"):
        load_tool_calls(path)


def test_non_utf8_names_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "t.jsonl", b'{"tool": "s", "output": 1}\n{"tool": "\xff"}\n')
    with pytest.raises(InputError, match=r"t\.jsonl:2: not valid UTF-8"):
        load_tool_calls(path)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_tool_calls(tmp_path / "nope.json")
    with pytest.raises(InputError, match="directory"):
        load_tool_calls(tmp_path)


def test_deeply_nested_json_is_a_clear_error(tmp_path: Path) -> None:
    """100,000 levels of JSON nesting: an InputError naming the file, not a RecursionError."""
    path = _write(tmp_path, "deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(InputError, match=r"deep\.jsonl:1: JSON nested too deeply"):
        load_tool_calls(path)
    path = _write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputError, match="nested too deeply"):
        load_tool_calls(path)


def test_bom_and_blank_lines_are_fine(tmp_path: Path) -> None:
    path = _write(tmp_path, "t.jsonl", b'\xef\xbb\xbf{"tool": "s", "output": "x"}\n\n  \n')
    assert len(load_tool_calls(path)) == 1
