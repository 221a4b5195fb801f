"""sovereign-agent session folders: ``workspace/report.md`` and ``logs/trace.jsonl``.

At v0.2.0 the trace keeps each tool call's one-line ``summary``, never its output
(see ``docs/formats.md``), so every call is marked *not recorded*: the
verdict warns that identifiers may be missing from the evidence. A summary is still searched
(some summaries list the ids found), and ``→ 0 result(s)`` is read as an empty call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from groundcheck.evidence.trace import TraceBuilder, as_mapping

__all__ = ["is_sovereign", "load_sovereign", "session_paths"]

Records = Iterable[tuple[int | None, Any]]

_ZERO_RESULTS = re.compile(r"(?:→|->)\s*0\s+results?\b|(?:→|->)\s*0 result\(s\)")


def is_sovereign(r: Mapping[str, Any]) -> bool:
    return isinstance(r.get("event_type"), str) and "payload" in r


def load_sovereign(records: Records, b: TraceBuilder) -> None:
    for _, r in records:
        if not isinstance(r, Mapping) or r.get("event_type") != "executor.tool_called":
            continue
        payload = as_mapping(r.get("payload"))
        summary = payload.get("summary")
        tool = str(payload.get("tool") or "?")
        if "output" in payload:  # a trace written with outputs (later versions, or patched)
            output, recorded, empty = payload.get("output"), True, None
        elif isinstance(summary, str) and _ZERO_RESULTS.search(summary):
            output, recorded, empty = None, True, True  # the summary records an empty result
        else:
            output, recorded, empty = summary, False, None
        b.call_and_result(
            r.get("event_id"),
            tool,
            payload.get("arguments"),
            output,
            errored=payload.get("success") is False,
            recorded=recorded,
            empty=empty,
        )


def session_paths(folder: Path) -> tuple[Path, Path | None] | None:
    """(trace, report) of a session folder, or None when it is not one."""
    trace = folder / "logs" / "trace.jsonl"
    if not trace.is_file():
        return None
    report = folder / "workspace" / "report.md"
    return trace, report if report.is_file() else None
