"""SARIF 2.1.0, for code-scanning dashboards: one result per finding, rules from the checks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from groundcheck.checks import DEFAULT_CHECKS, Check
from groundcheck.model import Finding, Verdict, dumps

__all__ = ["verdict_sarif"]

INFORMATION_URI = "https://pypi.org/project/groundcheck/"


def _rule(check: Check) -> dict[str, Any]:
    return {
        "id": check.code,
        "shortDescription": {"text": check.description},
        "fullDescription": {"text": check.help},
        "defaultConfiguration": {"level": check.severity},
    }


def verdict_sarif(
    verdict: Verdict,
    path: str = "report",
    version: str = "",
    checks: Sequence[Check] = DEFAULT_CHECKS,
) -> str:
    """SARIF 2.1.0, for code-scanning dashboards and CI annotations."""
    known = {c.code: c for c in checks}
    rules = [_rule(c) for c in sorted(known.values(), key=lambda c: c.code)]
    rules += [
        {"id": code, "shortDescription": {"text": code}}
        for code in sorted({f.code for f in verdict.findings} - set(known))
    ]
    results = []
    for f in sorted(verdict.findings, key=Finding.sort_key):
        result: dict[str, Any] = {
            "ruleId": f.code,
            "level": "error" if f.severity == "error" else "warning",
            "message": {"text": f.message},
        }
        uri = path if f.citation is None else (f.citation.source or path)
        location: dict[str, Any] = {"artifactLocation": {"uri": uri}}
        if f.citation is not None:
            c = f.citation
            region = {"startLine": c.line, "startColumn": c.column}
            if "\n" not in c.raw:
                region |= {"endLine": c.line, "endColumn": c.column + len(c.raw)}
            location["region"] = region
        result["locations"] = [{"physicalLocation": location}]
        results.append(result)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "groundcheck",
                        "version": version,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return dumps(sarif)
