"""A verdict as the few numbers and one line that scorers, metrics and events carry.

Every integration reports the same counts under the same names, so a dashboard built on the
inspect-ai scorer reads the same as one built on OpenTelemetry events.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import groundcheck

__all__ = ["counts", "fabrication_rate", "summary"]

_COUNTED = {
    "fabricated": "fabricated-id",
    "malformed": "malformed-id",
    "id_title_mismatch": "id-title-mismatch",
    "unverified_titles": "unverified-title",
}


def counts(verdict: groundcheck.Verdict) -> dict[str, int]:
    """Identifiers ``cited`` and ``matched`` in tool outputs, titles likewise, findings by kind.

    ``cited`` and ``matched`` count identifiers (and URLs); titles have their own ``titles``
    and ``titles_matched``, since a title is only a soft check.
    """
    ids = [g for g in verdict.citations if not g.citation.is_title]
    titles = [g for g in verdict.citations if g.citation.is_title]
    codes = Counter(f.code for f in verdict.findings)
    out = {
        "cited": len(ids),
        "matched": sum(1 for g in ids if g.grounded),
        "titles": len(titles),
        "titles_matched": sum(1 for g in titles if g.grounded),
    }
    out.update({name: codes.get(code, 0) for name, code in _COUNTED.items()})
    out["errors"] = len(verdict.errors)
    out["warnings"] = len(verdict.warnings)
    return out


def fabrication_rate(verdict: groundcheck.Verdict) -> float:
    """Fabricated identifiers over cited identifiers (0.0 when nothing is cited)."""
    numbers = counts(verdict)
    if numbers["cited"] == 0:
        return 0.0
    return min(1.0, numbers["fabricated"] / numbers["cited"])


def summary(verdict: groundcheck.Verdict) -> str:
    """The one-line summary the CLI prints last (``FAIL: 6 errors, ... returned``)."""
    return text(verdict).rstrip("\n").rsplit("\n", 1)[-1]


def text(verdict: groundcheck.Verdict, path: str = "report") -> str:
    """The compiler-style text verdict, as ``groundcheck audit`` prints it."""
    from groundcheck.render import verdict_text

    return verdict_text(verdict, path)
