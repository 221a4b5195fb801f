"""The data only an audit needs: returned works, evidence, findings, groundings, verdicts.

Re-exported by :mod:`groundcheck.model` on first use (see there): import them from
``groundcheck.model``. Each class names ``groundcheck.model`` as its module, so pickles and
reprs are those of the classes defined there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from attrs import field, frozen

from groundcheck.errors import ConfigError, UngroundedReportError
from groundcheck.model import (
    _SEVERITY_RANK,
    ERROR,
    SCHEMA,
    WARNING,
    Citation,
    Identifier,
    Marker,
    Severity,
    _non_empty,
    _non_negative,
    dumps,
)

__all__ = [
    "CitedWork",
    "Evidence",
    "EvidenceSet",
    "Finding",
    "Grounding",
    "Verdict",
    "Work",
    "WorkGrounding",
]

_MODULE = "groundcheck.model"


@frozen
class Work:
    """A returned work: a paper (or page) as one tool output described it.

    Loaders pair what sits together — a title with the identifiers of its own record
    (``{"arxiv_id": ..., "title": ...}``) or of its own line, with the authors and year when the
    record gives them — because the checks need to know which title belongs to which id, and
    which first author and year a returned paper has. ``origin`` says how it was found:
    ``record`` (fields of one JSON record), ``line`` (one line of a listing), ``bibtex``.
    """

    identifiers: frozenset[Identifier]
    title: str
    authors: tuple[str, ...] = ()
    """As the tool wrote them, first author first."""
    year: int | None = None
    origin: str = "record"


def _place(c: Citation) -> dict[str, Any]:
    return {
        "scheme": c.scheme,
        "id": c.id,
        "raw": c.raw,
        "start": c.start,
        "end": c.end,
        "line": c.line,
        "column": c.column,
        "source": c.source,
    }


@frozen
class CitedWork:
    """One work the report cites: the unit of judgment.

    A reference entry (``kind="entry"``, or ``"bibtex"`` for a BibTeX entry) with everything
    written in it, or a work cited inline (``"inline"``): an identifier with the title written
    beside it, a quoted title in prose, a heading naming a paper, a link. Every identifier
    written for the same work, wherever it is, belongs to that one work, and so do the
    in-text ``markers`` that point at it. The span is where the work is written down: the
    entry, or the work's first inline mention. ``key`` (``w1``, ``w2``, … in order) is what
    ``findings[].work`` names in the verdict JSON.
    """

    key: str = field(validator=_non_empty)
    kind: str
    start: int = field(validator=_non_negative)
    end: int = field(validator=_non_negative)
    line: int = field(validator=_non_negative)
    column: int = field(validator=_non_negative)
    source: str | None = None
    label: str | None = None
    """What markers call an entry: ``3`` for ``[3]``/``3.``, ``^a`` for ``[^a]:``, a cite key."""
    identifiers: tuple[Citation, ...] = ()
    titles: tuple[Citation, ...] = ()
    """Titles written for the work, its own first (an entry's title, the title beside an id)."""
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    urls: tuple[str, ...] = ()
    markers: tuple[Marker, ...] = ()
    section: str | None = None
    """The heading of the reference list an entry is in, if it has one."""

    @property
    def title(self) -> Citation | None:
        return self.titles[0] if self.titles else None

    @property
    def keys(self) -> tuple[Identifier, ...]:
        """Every name of the work, aliases included, without repeats."""
        return tuple(dict.fromkeys(k for c in self.identifiers for k in c.keys))

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "label": self.label,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
            "source": self.source,
            "section": self.section,
            "identifiers": [_place(c) for c in self.identifiers],
            "titles": [
                {"raw": t.raw, "kind": t.kind or None, "line": t.line, "column": t.column}
                for t in self.titles
            ],
            "authors": list(self.authors),
            "year": self.year,
            "venue": self.venue,
            "urls": list(self.urls),
            "markers": [m.to_dict() for m in self.markers],
        }


@frozen
class Evidence:
    """What one tool call returned, reduced to what the checks need.

    ``identifiers`` and ``titles`` come from the call's *output* only; the agent's own
    arguments are never evidence. ``recorded`` is false when the trace format did not keep the
    output at all, which is different from an output that was empty. ``action`` marks a call
    that acts rather than looks something up (writing a file, marking a task done): it never
    counts as a lookup for the guards. ``excluded`` says why an output is not evidence at all,
    e.g. it reads back a file the agent itself wrote.
    """

    tool: str
    call_id: str
    identifiers: frozenset[Identifier] = frozenset()
    titles: tuple[str, ...] = ()
    empty: bool = False
    errored: bool = False
    recorded: bool = True
    source: str | None = None
    action: bool = False
    excluded: str | None = None
    works: tuple[Work, ...] = ()
    text: str | None = field(default=None, eq=False, repr=False)
    """The output's text as the loader flattened it, for checks that read words rather than
    identifiers (verbatim quotes). None when the loader did not keep it, which is not the
    same as an empty output: a quote cannot be looked up in text nobody kept."""

    @property
    def returned_nothing(self) -> bool:
        """True when this call gave the agent nothing to cite: empty, failed or not evidence."""
        return self.empty or self.errored or self.excluded is not None


def _loose_doi(doi: str) -> str:
    # A line-end hyphen inside a DOI is ambiguous: the text view rejoins "0031-\n9163" as
    # "00319163". Comparing DOIs without hyphens as a fallback keeps such a citation grounded.
    return doi.replace("-", "")


def _as_calls(calls: Iterable[Evidence]) -> tuple[Evidence, ...]:
    return tuple(calls)


def _as_notes(notes: Iterable[str]) -> tuple[str, ...]:
    return tuple(notes)


@frozen
class EvidenceSet:
    """All tool calls of one run, with an index from identifier to the calls that returned it."""

    calls: tuple[Evidence, ...] = field(converter=_as_calls, default=())
    notes: tuple[str, ...] = field(converter=_as_notes, default=())
    _index: dict[Identifier, tuple[str, ...]] = field(init=False, eq=False, repr=False)
    _loose: dict[str, tuple[str, ...]] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        index: dict[Identifier, list[str]] = {}
        loose: dict[str, list[str]] = {}
        for call in self.calls:
            if call.excluded is not None:
                continue
            for ident in call.identifiers:
                index.setdefault(ident, []).append(call.call_id)
                if ident.scheme == "doi":
                    loose.setdefault(_loose_doi(ident.id), []).append(call.call_id)
        object.__setattr__(self, "_index", {k: tuple(v) for k, v in index.items()})
        object.__setattr__(self, "_loose", {k: tuple(v) for k, v in loose.items()})

    @classmethod
    def merge(cls, sets: Iterable[EvidenceSet]) -> EvidenceSet:
        """One evidence set from several transcripts of the same run."""
        sets = list(sets)
        return cls(
            tuple(call for s in sets for call in s.calls),
            tuple(note for s in sets for note in s.notes),
        )

    @property
    def identifiers(self) -> frozenset[Identifier]:
        return frozenset(self._index)

    @property
    def empty_calls(self) -> int:
        return sum(1 for c in self.calls if c.empty and not c.errored)

    @property
    def errored_calls(self) -> int:
        return sum(1 for c in self.calls if c.errored)

    @property
    def unrecorded_calls(self) -> tuple[Evidence, ...]:
        """Lookups whose output the trace did not keep (an action's confirmation is no loss)."""
        return tuple(c for c in self.calls if not c.recorded and not c.action)

    @property
    def lookups(self) -> tuple[Evidence, ...]:
        """The calls that looked something up (everything but the agent's own actions)."""
        return tuple(c for c in self.calls if not c.action)

    def __len__(self) -> int:
        return len(self.calls)

    def calls_returning(self, keys: Iterable[Identifier]) -> tuple[str, ...]:
        """Ids of the calls whose output holds any of ``keys``, in call order, without repeats."""
        found: dict[str, None] = {}
        for key in keys:
            for call_id in self._index.get(key, ()):
                found[call_id] = None
        if not found:
            for key in keys:
                if key.scheme == "doi":
                    for call_id in self._loose.get(_loose_doi(key.id), ()):
                        found[call_id] = None
        return tuple(found)

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": len(self.calls),
            "empty_calls": self.empty_calls,
            "errored_calls": self.errored_calls,
            "unrecorded_calls": len(self.unrecorded_calls),
            "action_calls": sum(1 for c in self.calls if c.action),
            "identifiers": [
                i.to_dict() for i in sorted(self._index, key=lambda i: (i.scheme, i.id))
            ],
            "excluded": [
                {"call": c.call_id, "tool": c.tool, "reason": c.excluded}
                for c in self.calls
                if c.excluded is not None
            ],
            "notes": list(self.notes),
        }


@frozen
class Finding:
    """One thing the audit reports, under a stable kebab-case ``code`` users can grep for."""

    code: str = field(validator=_non_empty)
    severity: Severity
    message: str
    citation: Citation | None = None
    calls: tuple[str, ...] = ()
    work: CitedWork | None = None
    """The cited work the finding is about, when it is about one."""

    def __attrs_post_init__(self) -> None:
        if self.severity not in _SEVERITY_RANK:
            raise ValueError(f"severity must be 'error' or 'warning', got {self.severity!r}")

    def sort_key(self) -> tuple[str, int, int, str, str]:
        c = self.citation
        source, start = ("", -1) if c is None else (c.source or "", c.start)
        return (source, start, _SEVERITY_RANK[self.severity], self.code, self.message)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "citation": None if self.citation is None else _place(self.citation),
            "calls": list(self.calls),
            "work": None if self.work is None else self.work.key,
        }


@frozen
class Grounding:
    """A citation and the tool calls whose output holds its work (none: not grounded).

    For a title, ``matched_title`` and ``score`` name the returned title it was matched to.
    """

    citation: Citation
    calls: tuple[str, ...] = ()
    matched_title: str | None = None
    score: float | None = None

    @property
    def grounded(self) -> bool:
        return bool(self.calls)

    def to_dict(self) -> dict[str, Any]:
        out = self.citation.to_dict()
        out["grounded"] = self.grounded
        out["evidence"] = list(self.calls)
        out["matched_title"] = self.matched_title
        out["score"] = None if self.score is None else round(self.score, 1)
        return out


@frozen
class WorkGrounding:
    """A cited work and how it was grounded (``by``: ``identifier``, ``title`` or None).

    A work is grounded when any of its identifiers is in a tool output; a work without
    identifiers, when its title matches a returned title (``matched_title``, ``score``).
    """

    work: CitedWork
    calls: tuple[str, ...] = ()
    by: str | None = None
    matched_title: str | None = None
    score: float | None = None

    @property
    def grounded(self) -> bool:
        return self.by is not None

    def to_dict(self) -> dict[str, Any]:
        out = self.work.to_dict()
        out["grounded"] = self.grounded
        out["grounded_by"] = self.by
        out["evidence"] = list(self.calls)
        out["matched_title"] = self.matched_title
        out["score"] = None if self.score is None else round(self.score, 1)
        return out


def _severity_count(findings: Iterable[Finding], severity: Severity) -> int:
    return sum(1 for f in findings if f.severity == severity)


@frozen
class Verdict:
    """The outcome of one audit. ``ok`` is false as soon as any finding is an error."""

    findings: tuple[Finding, ...]
    citations: tuple[Grounding, ...]
    evidence: EvidenceSet
    report_chars: int = 0
    notes: tuple[str, ...] = field(converter=_as_notes, default=())
    works: tuple[WorkGrounding, ...] = ()
    """The cited works of the report (see :class:`CitedWork`), in the order written."""

    @property
    def ok(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == WARNING)

    def fails(self, fail_on: Severity = ERROR) -> bool:
        """True when a finding is at least as severe as ``fail_on`` (the CI gate)."""
        if fail_on not in _SEVERITY_RANK:
            raise ConfigError(f"fail_on must be 'error' or 'warning', got {fail_on!r}")
        limit = _SEVERITY_RANK[fail_on]
        return any(_SEVERITY_RANK[f.severity] <= limit for f in self.findings)

    def raise_for_status(self, fail_on: Severity = ERROR) -> Verdict:
        """Raise :class:`UngroundedReportError` if the verdict fails; otherwise return it."""
        if self.fails(fail_on):
            limit = _SEVERITY_RANK[fail_on]
            worst = [f for f in self.findings if _SEVERITY_RANK[f.severity] <= limit]
            lines = "\n".join(f"  {f.severity} {f.code}: {f.message}" for f in worst[:20])
            more = f"\n  … and {len(worst) - 20} more" if len(worst) > 20 else ""
            raise UngroundedReportError(
                f"report is not grounded in its tool outputs ({len(worst)} finding(s)):\n"
                f"{lines}{more}",
                self,
            )
        return self

    def to_dict(self) -> dict[str, Any]:
        findings = sorted(self.findings, key=Finding.sort_key)
        citations = sorted(self.citations, key=lambda g: g.citation.sort_key())
        grounded = sum(1 for g in self.citations if g.grounded)
        return {
            "schema": SCHEMA,
            "ok": self.ok,
            "summary": {
                "errors": _severity_count(self.findings, ERROR),
                "warnings": _severity_count(self.findings, WARNING),
                "citations": len(self.citations),
                "grounded": grounded,
                "report_chars": self.report_chars,
                "works": len(self.works),
                "works_grounded": sum(1 for w in self.works if w.grounded),
            },
            "findings": [f.to_dict() for f in findings],
            "citations": [g.to_dict() for g in citations],
            "evidence": self.evidence.to_dict(),
            "notes": list(self.notes),
            "works": [w.to_dict() for w in self.works],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """Deterministic JSON: same verdict, same bytes, whatever the hash seed."""
        return dumps(self.to_dict(), indent=indent)


for _cls in (CitedWork, Evidence, EvidenceSet, Finding, Grounding, Verdict, Work, WorkGrounding):
    _cls.__module__ = _MODULE  # where they are found: ``groundcheck.model.Verdict``
del _cls
