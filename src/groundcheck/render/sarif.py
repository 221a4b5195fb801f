"""SARIF 2.1.0 that GitHub code scanning ingests: one result per finding, rules from the checks.

What code scanning needs, and how each is met:

- **URIs relative to a base** (``--sarif-base``, default the working directory), named by the
  ``SRCROOT`` entry of ``originalUriBaseIds``; a file outside the base gets an absolute
  ``file:`` URI instead of a ``../`` path no viewer can place;
- **a stable name for standard input** (``stdin.md``, or ``--stdin-name``), never ``<stdin>``;
- **a region on every result**: a citation's span, a run-level finding at line 1 of the report,
  and a finding in a trace's final answer at line 1 of the trace (its line and column within
  the answer are in the message, since they are not lines of the trace file);
- **rules that explain themselves**: ``shortDescription``, ``fullDescription``, ``help`` (text
  and Markdown) and ``helpUri``, all read from the checks (:mod:`groundcheck.checks`);
- columns count code points, as the text output does (``columnKind``);
- on an input error, still a valid log (:func:`error_sarif`): no results, an unsuccessful
  invocation and its error as a tool execution notification, so an upload step shows the
  failure instead of an empty or missing file.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from groundcheck.checks import DEFAULT_CHECKS, Check
from groundcheck.model import Citation, Finding, Verdict, dumps

__all__ = [
    "BASE_ID",
    "DOCS_URL",
    "PROJECT_URL",
    "SARIF_SCHEMA",
    "artifact_location",
    "error_sarif",
    "verdict_sarif",
]

PROJECT_URL = "https://github.com/groundcheck-citations/groundcheck-citations"
"""The project home (pyproject ``[project.urls]`` Homepage; a test keeps the two equal)."""
DOCS_URL = f"{PROJECT_URL}/blob/main/docs"
"""The documentation in the repository (``docs/``), which rules' ``helpUri`` point into."""
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
BASE_ID = "SRCROOT"
"""The ``uriBaseId`` of every relative artifact URI: the ``--sarif-base`` directory."""


# os.path.abspath, not Path.resolve: a path is named as the user wrote it, symlinks unresolved,
# so the same checkout gives the same URIs wherever it is linked from.


def _base_dir(base: str | Path | None) -> str:
    return os.path.abspath(base if base is not None else Path.cwd())  # noqa: PTH100


def _base_uri(base: str) -> str:
    uri = Path(base).as_uri()
    return uri if uri.endswith("/") else uri + "/"


def artifact_location(path: str, base: str | Path | None = None) -> dict[str, Any]:
    """Where ``path`` is for a SARIF viewer: relative to ``base`` (default the working
    directory) under ``SRCROOT``, or an absolute ``file:`` URI when it lies outside ``base``.

    >>> artifact_location("/repo/docs/my report.md", "/repo")
    {'uri': 'docs/my%20report.md', 'uriBaseId': 'SRCROOT'}
    >>> artifact_location("/elsewhere/r.md", "/repo")
    {'uri': 'file:///elsewhere/r.md'}
    """
    root = _base_dir(base)
    absolute = os.path.abspath(path)  # noqa: PTH100
    relative = os.path.relpath(absolute, root)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return {"uri": Path(absolute).as_uri()}
    return {"uri": quote(Path(relative).as_posix(), safe="/"), "uriBaseId": BASE_ID}


def _driver(version: str, rules: list[dict[str, Any]]) -> dict[str, Any]:
    driver: dict[str, Any] = {"name": "groundcheck", "informationUri": PROJECT_URL}
    if version:
        driver |= {"version": version, "semanticVersion": version}
    driver["rules"] = rules
    return driver


def _help_uri() -> str:
    return f"{DOCS_URL}/verdict.md#finding-codes"


def _rule(check: Check) -> dict[str, Any]:
    markdown = (
        f"**`{check.code}`** ({check.severity}): {check.description}.\n\n{check.help}\n\n"
        f"Every finding code is described in [docs/verdict.md]({_help_uri()})."
    )
    return {
        "id": check.code,
        "name": "".join(part.capitalize() for part in check.code.split("-")),
        "shortDescription": {"text": check.description},
        "fullDescription": {"text": check.help},
        "help": {"text": f"{check.help} See docs/verdict.md.", "markdown": markdown},
        "helpUri": _help_uri(),
        "defaultConfiguration": {"level": check.severity},
        "properties": {"tags": ["citations", "provenance"]},
    }


def _unknown_rule(code: str) -> dict[str, Any]:
    """A rule for a finding of a check that is not among ``checks`` (a caller's own)."""
    text = f"Finding code {code}, reported by a check outside groundcheck's defaults."
    return {
        "id": code,
        "shortDescription": {"text": code},
        "fullDescription": {"text": text},
        "help": {"text": text, "markdown": text},
        "helpUri": _help_uri(),
    }


def _region(c: Citation) -> dict[str, Any]:
    lines = c.raw.split("\n")
    end_line = c.line + len(lines) - 1
    end_column = c.column + len(c.raw) if len(lines) == 1 else len(lines[-1]) + 1
    return {
        "startLine": c.line,
        "startColumn": c.column,
        "endLine": end_line,
        "endColumn": end_column,
        "snippet": {"text": c.raw},
    }


def _result(f: Finding, rule_index: int, path: str, base: str, embedded: bool) -> dict[str, Any]:
    message = f.message
    c = f.citation
    if c is None or (embedded and c.source is None):
        region: dict[str, Any] = {"startLine": 1}
        uri = path
        if c is not None:
            message += f" (in the final answer the trace holds: line {c.line}, column {c.column})"
    else:
        region = _region(c)
        uri = c.source or path
    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": "error" if f.severity == "error" else "warning",
        "message": {"text": message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact_location(uri, base),
                    "region": region,
                }
            }
        ],
    }
    if f.calls:
        result["properties"] = {"calls": list(f.calls)}
    return result


def _notifications(notes: Iterable[str]) -> list[dict[str, Any]]:
    return [{"level": "note", "message": {"text": note}} for note in notes]


def _log(run: dict[str, Any]) -> str:
    return dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]})


def verdict_sarif(
    verdict: Verdict,
    path: str = "report",
    version: str = "",
    checks: Sequence[Check] = DEFAULT_CHECKS,
    *,
    base: str | Path | None = None,
    embedded: bool = False,
) -> str:
    """SARIF 2.1.0 for one verdict; ``path`` is the report (or, ``embedded``, the trace whose
    final answer was audited), ``base`` the directory URIs are relative to."""
    root = _base_dir(base)
    known = {c.code: c for c in checks}
    rules = [_rule(c) for c in sorted(known.values(), key=lambda c: c.code)]
    rules += [
        _unknown_rule(code) for code in sorted({f.code for f in verdict.findings} - set(known))
    ]
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = [
        _result(f, index[f.code], path, root, embedded)
        for f in sorted(verdict.findings, key=Finding.sort_key)
    ]
    notes = [*verdict.notes, *verdict.evidence.notes]
    notes += [
        f"call {c.call_id} ({c.tool}) is not evidence: {c.excluded}"
        for c in verdict.evidence.calls
        if c.excluded is not None
    ]
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if notes:
        invocation["toolExecutionNotifications"] = _notifications(notes)
    return _log(
        {
            "tool": {"driver": _driver(version, rules)},
            "originalUriBaseIds": {BASE_ID: {"uri": _base_uri(root)}},
            "invocations": [invocation],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }
    )


def error_sarif(
    message: str,
    version: str = "",
    *,
    source: str | None = None,
    line: int | None = None,
    base: str | Path | None = None,
    checks: Sequence[Check] = DEFAULT_CHECKS,
) -> str:
    """A valid SARIF log for a run that could not audit: no results, and the error as a tool
    execution notification (located at ``source``/``line`` when known)."""
    root = _base_dir(base)
    notification: dict[str, Any] = {"level": "error", "message": {"text": message}}
    if source is not None:
        location: dict[str, Any] = {"artifactLocation": artifact_location(source, root)}
        if line is not None and line >= 1:
            location["region"] = {"startLine": line}
        notification["locations"] = [{"physicalLocation": location}]
    rules = [_rule(c) for c in sorted(checks, key=lambda c: c.code)]
    return _log(
        {
            "tool": {"driver": _driver(version, rules)},
            "originalUriBaseIds": {BASE_ID: {"uri": _base_uri(root)}},
            "invocations": [
                {
                    "executionSuccessful": False,
                    "exitCode": 2,
                    "toolExecutionNotifications": [notification],
                }
            ],
            "columnKind": "unicodeCodePoints",
            "results": [],
        }
    )
