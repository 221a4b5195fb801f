"""Exceptions groundcheck raises.

Every exception also subclasses a built-in, so a caller who already catches ``ValueError``
(bad input) or ``AssertionError`` (a failed check) keeps working without importing ours.
"""

from __future__ import annotations

__all__ = [
    "CitationRefused",
    "ConfigError",
    "GroundcheckError",
    "InputError",
    "LedgerError",
    "LedgerWarning",
    "PluginError",
    "RegistryError",
    "UngroundedReportError",
    "UnknownFormat",
]


class GroundcheckError(Exception):
    """Base class of every error groundcheck raises on purpose."""


class InputError(GroundcheckError, ValueError):
    """Input the user gave cannot be read: a missing file, bad JSON, a record of the wrong shape.

    The message always names where the problem is (``file:line: problem``), because a user with
    a 40,000-line trace cannot be asked to bisect it.
    """

    def __init__(self, problem: str, *, source: str | None = None, line: int | None = None):
        self.problem = problem
        self.source = source
        self.line = line
        where = source or "<input>"
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {problem}")


class UnknownFormat(InputError):
    """No trace format recognises the input (see ``docs/formats.md``, or name one with
    ``format=`` / ``--evidence-format``)."""


class ConfigError(GroundcheckError, ValueError):
    """A policy value or option is out of range or of the wrong type."""


class RegistryError(GroundcheckError, ValueError):
    """An extractor name clashes with one already registered, or is unknown."""


class PluginError(RegistryError):
    """An extractor plug-in (entry point) could not be loaded or does not fit the protocol."""


class UngroundedReportError(GroundcheckError, AssertionError):
    """Raised on request by :meth:`Verdict.raise_for_status` when a verdict holds an error.

    ``audit()`` itself never raises for a fabricated citation: a finding is a result, not a
    failure of the tool.
    """

    def __init__(self, message: str, verdict: object) -> None:
        super().__init__(message)
        self.verdict = verdict


class CitationRefused(GroundcheckError, ValueError):
    """``Ledger.cite`` was asked for an identifier no recorded call of the run returned."""


class LedgerError(GroundcheckError, OSError):
    """The ledger file could not be written or read: a full disk (or size limit), a lock held
    longer than the timeout, a read-only place. The message names the file and says what was
    not recorded."""


class LedgerWarning(UserWarning):
    """``@ledger.record`` could not record a call; the tool's result still went to the caller
    (the audit layer never fails an agent's tool call). Make it an error with
    ``warnings.simplefilter("error", LedgerWarning)``."""
