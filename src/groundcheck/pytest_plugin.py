"""The pytest plugin (entry point ``pytest11``): readable verdict failures and a policy fixture.

- ``pytest_assertrepr_compare``: when an ``assert`` compares a :class:`~groundcheck.Verdict`,
  a :class:`~groundcheck.Finding` or a sequence of findings (``assert verdict.findings ==
  ()``), the failure lists every finding with its place, identifier and message instead of a
  wall of attrs reprs.
- ``groundcheck_policy``: a :class:`~groundcheck.Policy` built from the test's
  ``@pytest.mark.groundcheck(title_threshold=85, ...)`` marker (defaults without one).

pytest loads this module in every session of every project that has groundcheck installed,
so it imports nothing from groundcheck until a hook or the fixture needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import groundcheck

__all__ = ["groundcheck_policy", "pytest_assertrepr_compare", "pytest_configure"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "groundcheck(**options): audit options (policy fields) for the groundcheck_policy fixture",
    )


@pytest.fixture
def groundcheck_policy(request: pytest.FixtureRequest) -> groundcheck.Policy:
    """The audit policy for this test: defaults, changed by a ``groundcheck`` marker."""
    import groundcheck

    marker = request.node.get_closest_marker("groundcheck")
    policy = groundcheck.Policy()
    if marker is None:
        return policy
    if marker.args:
        raise pytest.UsageError("@pytest.mark.groundcheck takes keyword options only")
    return policy.with_options(**marker.kwargs)


def _ours(value: object) -> bool:
    """Cheap test, before importing anything: is this one of groundcheck's objects?"""
    if type(value).__module__.startswith("groundcheck."):
        return True
    if isinstance(value, (list, tuple)) and value:
        return all(type(v).__module__.startswith("groundcheck.") for v in value)
    return False


def _lines(value: object, side: str) -> list[str] | None:
    import groundcheck
    from groundcheck.testing import describe_findings, describe_verdict

    if isinstance(value, groundcheck.Verdict):
        return [
            f"{side}: {line}" if i == 0 else line for i, line in enumerate(describe_verdict(value))
        ]
    findings: Sequence[groundcheck.Finding]
    if isinstance(value, groundcheck.Finding):
        findings = [value]
    elif isinstance(value, (list, tuple)) and all(
        isinstance(v, groundcheck.Finding) for v in value
    ):
        findings = value
    else:
        return None
    return [f"{side}: {len(findings)} finding{'s' * (len(findings) != 1)}"] + [
        f"  {line}" for line in describe_findings(findings)
    ]


def pytest_assertrepr_compare(
    config: pytest.Config, op: str, left: Any, right: Any
) -> list[str] | None:
    """Explain a failed comparison involving verdicts or findings; leave the rest to pytest."""
    if not (_ours(left) or _ours(right)):
        return None
    described = [_lines(left, "left"), _lines(right, "right")]
    if all(d is None for d in described):
        return None
    out = [f"comparing groundcheck results with {op!r}:"]
    for lines in described:
        if lines is not None:
            out.extend(lines)
    return out
