"""``groundcheck.audit`` as every integration calls it.

Until the package reorganisation renames the ``groundcheck.audit`` *module*, importing it
(which ``groundcheck.Policy`` does) makes the attribute ``groundcheck.audit`` the module rather
than the function. The integrations call the public function through this one place, so none
of them depends on which name was touched first.
"""

from __future__ import annotations

from typing import Any

import groundcheck

__all__ = ["audit"]


def audit(report: str, tool_calls: Any, **options: Any) -> groundcheck.Verdict:
    """:func:`groundcheck.audit`, whatever shadows the name for now."""
    function: Any = groundcheck.audit
    if not callable(function):  # the submodule of the same name
        function = function.audit
    verdict: groundcheck.Verdict = function(report, tool_calls, **options)
    return verdict
