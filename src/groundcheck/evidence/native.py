"""The native evidence form: one record per tool call.

``{"tool": str, "input": any, "output": any, "id"?: str, "error"?: bool | str,
"recorded"?: bool}``. Identifiers count only when they appear in ``output``; ``input`` is the
agent's own words (its query) and is never evidence. ``recorded: false`` marks a call whose
output the trace did not keep, which is not the same as an empty output.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from groundcheck.collector import collection_paused
from groundcheck.errors import InputError
from groundcheck.evidence.provenance import Provenance, argument_strings, is_action
from groundcheck.evidence.trace import ACTION_TOOLS, TraceBuilder, make_evidence, parse_arguments
from groundcheck.extractors import Extractor
from groundcheck.extractors.pipeline import resolve_extractors
from groundcheck.extractors.registry import Registry
from groundcheck.model import Evidence, EvidenceSet

__all__ = ["evidence_from_record", "from_tool_calls", "is_native", "load_native"]


def is_native(r: Mapping[str, Any]) -> bool:
    """A record with a ``tool`` key and none of the other formats' markers is meant as native,
    and native validation then says exactly what is wrong with it (loose on purpose)."""
    return "tool" in r and not any(k in r for k in ("role", "type", "event_type", "jsonrpc"))


def load_native(records: Iterable[tuple[int | None, Any]], b: TraceBuilder) -> None:
    """Each record is one call; its validation errors name the file and line."""
    for index, (line, record) in enumerate(records, 1):
        if b.provenance.scanning:
            if isinstance(record, Mapping) and isinstance(record.get("tool"), str):
                b.provenance.saw_call(record["tool"], parse_arguments(record.get("input")))
            continue
        evidence = evidence_from_record(
            record, index, b.extractors, source=b.source, line=line, provenance=b.provenance
        )
        b.add(evidence)


def _where(source: str | None, line: int | None, index: int) -> tuple[str, int | None, str]:
    label = f"tool call #{index}" if line is None else "tool call"
    return source or "<tool_calls>", line, label


def evidence_from_record(
    record: Any,
    index: int,
    extractors: Sequence[Extractor],
    *,
    source: str | None = None,
    line: int | None = None,
    provenance: Provenance | None = None,
) -> Evidence:
    """Reduce one native record to :class:`Evidence`, or explain precisely why it is not one.

    ``input`` is the agent's own words: never evidence, and what an output that merely
    repeats it does not ground (see ``docs/evidence.md``). ``provenance`` is the run's (one is
    made for this record alone when none is given).
    """
    src, at, label = _where(source, line, index)
    if isinstance(record, Evidence):
        return record
    if not isinstance(record, Mapping):
        raise InputError(
            f"{label} must be an object with 'tool' and 'output', got {type(record).__name__}",
            source=src,
            line=at,
        )
    tool = record.get("tool")
    if not isinstance(tool, str) or not tool.strip():
        keys = ", ".join(sorted(map(str, record))) or "none"
        raise InputError(
            f"{label} has no 'tool' name (keys: {keys}); the native form is "
            '{"tool": ..., "input": ..., "output": ...}',
            source=src,
            line=at,
        )
    error = record.get("error", False)
    if not isinstance(error, (bool, str)) and error is not None:
        raise InputError(
            f"{label} ({tool}): 'error' must be true/false or a message, "
            f"got {type(error).__name__}",
            source=src,
            line=at,
        )
    errored = bool(error)
    recorded = record.get("recorded", True)
    if not isinstance(recorded, bool):
        raise InputError(f"{label} ({tool}): 'recorded' must be true or false", source=src, line=at)
    if "output" not in record and not errored and recorded:
        raise InputError(
            f"{label} ({tool}) has no 'output'; use \"output\": null for a call that returned "
            'nothing, or "recorded": false if the trace did not keep it',
            source=src,
            line=at,
        )
    call_id = record.get("id")
    if call_id is None:
        call_id = f"{Path(source).name}#{index}" if source else f"#{index}"
    elif not isinstance(call_id, (str, int)) or isinstance(call_id, bool):
        raise InputError(f"{label} ({tool}): 'id' must be a string", source=src, line=at)
    action = record.get("action", False)
    if not isinstance(action, bool):
        raise InputError(f"{label} ({tool}): 'action' must be true or false", source=src, line=at)
    state = provenance if provenance is not None else Provenance()
    args = parse_arguments(record.get("input"))
    action = action or is_action(tool, args, ACTION_TOOLS)
    state.saw_call(tool, args)
    output = record.get("output")
    return make_evidence(
        tool,
        str(call_id),
        output,
        extractors,
        errored=errored,
        recorded=recorded,
        source=source,
        action=action,
        excluded=None if action else state.readback(tool, args),
        ignore=frozenset(),
        arguments=argument_strings(args),
        names=state.names,
        requested=() if action else state.fetch.requested(tool, args, output),
        fetch=state.fetch,
    )


def from_tool_calls(
    records: EvidenceSet | Iterable[Any],
    *,
    registry: Registry | None = None,
    extractors: Sequence[Extractor] | None = None,
    source: str | None = None,
) -> EvidenceSet:
    """An evidence set from native records (dicts) or ready-made :class:`Evidence` objects."""
    if isinstance(records, EvidenceSet):
        return records
    if isinstance(records, (str, bytes, Mapping)):
        raise InputError(
            "tool calls must be a list of records, not a single "
            f"{type(records).__name__}; load a file with load_tool_calls(path)",
            source=source,
        )
    chosen = tuple(extractors) if extractors is not None else resolve_extractors(registry)
    state = Provenance()
    with collection_paused():
        return EvidenceSet(
            tuple(
                evidence_from_record(r, i, chosen, source=source, provenance=state)
                for i, r in enumerate(records, 1)
            )
        )
