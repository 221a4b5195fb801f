"""The data groundcheck passes between stages: identifiers, citations, evidence, findings, verdicts.

Every class is frozen: a verdict is a record of what was checked, and nothing downstream may
quietly rewrite it. Use :func:`attrs.evolve` to derive a changed copy.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from attrs import field, frozen

from groundcheck.errors import ConfigError, UngroundedReportError

__all__ = [
    "AUTHOR_YEAR_SCHEME",
    "ERROR",
    "MARKER_SCHEME",
    "SCHEMA",
    "TITLE_SCHEME",
    "WARNING",
    "Citation",
    "CitedWork",
    "Evidence",
    "EvidenceSet",
    "Finding",
    "Grounding",
    "Identifier",
    "Marker",
    "Mention",
    "Scheme",
    "Severity",
    "Verdict",
    "Work",
    "WorkGrounding",
]

SCHEMA = "groundcheck.verdict/1"
"""Version tag of the verdict JSON. Bumped only when a key is removed or changes meaning."""

TITLE_SCHEME = "title"
"""The scheme of title candidates (``title:<normalised title>``): the one spelling of it."""

MARKER_SCHEME = "marker"
"""The scheme under which a finding about an in-text marker (``[12]``, ``[^4]``) is located."""

AUTHOR_YEAR_SCHEME = "author-year"
"""The scheme under which a finding about an author–year citation is located."""

Severity = Literal["error", "warning"]
ERROR: Severity = "error"
WARNING: Severity = "warning"
_SEVERITY_RANK = {ERROR: 0, WARNING: 1}


def _non_empty(instance: object, attribute: Any, value: str) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{attribute.name} must be a non-empty string, got {value!r}")


def _non_negative(instance: object, attribute: Any, value: int) -> None:
    if not isinstance(value, int) or value < 0:
        raise ValueError(f"{attribute.name} must be a non-negative int, got {value!r}")


_NEW = object.__new__
_SET = object.__setattr__
"""How :meth:`Citation._trusted` fills a frozen instance (as attrs' own ``__init__`` does,
without its validators)."""


@frozen(order=False)
class Identifier:
    """One work, named in one scheme: ``arxiv:2005.11401``, ``doi:10.1000/xyz``.

    ``id`` is the canonical form (see the identifier spec), so equal works compare equal
    however they were written. The version is kept for display and for version-aware checks,
    but it is *not* part of identity: ``2005.11401v2`` and ``2005.11401`` name the same paper.
    """

    scheme: str = field(validator=_non_empty)
    id: str = field(validator=_non_empty)
    version: int | None = field(default=None, eq=False)

    def __str__(self) -> str:
        return f"{self.scheme}:{self.id}"

    @property
    def display(self) -> str:
        """How a person would write it back: the canonical id with its version, if any."""
        return self.id if self.version is None else f"{self.id}v{self.version}"

    def to_dict(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "id": self.id}


@frozen
class Scheme:
    """How people name and write the identifiers of one scheme.

    Each extractor family carries the schemes it finds (``extractor.schemes``), so messages,
    bibliographies and SARIF rules never keep a table of their own. A scheme nobody described
    (a plug-in's) is named by its own name and written ``name:id``.

    >>> arxiv = Scheme("arxiv", "arXiv", "arXiv:")
    >>> arxiv.cite(Identifier("arxiv", "2005.11401", 2))
    'arXiv:2005.11401v2'
    >>> Scheme.unknown("pmid").cite(Identifier("pmid", "123"))
    'pmid:123'
    """

    name: str = field(validator=_non_empty)
    label: str = field(validator=_non_empty)
    """Its name in a sentence: ``arXiv``, ``DOI``, ``URL``."""
    prefix: str = ""
    """Written before the id when citing it: ``arXiv:``, ``doi:``; empty for URLs."""
    versioned: bool = True
    """Whether a version is written with the id (``2005.11401v2``). A DOI's version (a
    bioRxiv preprint's ``v2``) is not part of the DOI, so DOIs are cited without it."""
    version_mark: str = "v"
    """What separates the id from its version when cited: ``v`` for arXiv
    (``2005.11401v2``), ``.`` for PubMed (``PMID:12345678.2``, ``PMC13187626.1``)."""

    @classmethod
    def unknown(cls, name: str) -> Scheme:
        return cls(name, name, f"{name}:")

    def cite(self, identifier: Identifier) -> str:
        """How a person writes ``identifier``: the prefix, the canonical id, its version.

        >>> Scheme("pmid", "PMID", "PMID:", version_mark=".").cite(Identifier("pmid", "1", 2))
        'PMID:1.2'
        """
        if not self.versioned or identifier.version is None:
            return self.prefix + identifier.id
        return f"{self.prefix}{identifier.id}{self.version_mark}{identifier.version}"


@frozen
class Mention:
    """What an extractor reports: an identifier found at ``text[start:end]``.

    Offsets are in the text the extractor was given. ``malformed`` holds a reason when the
    token is written *as* an identifier (prefix, URL, version suffix) but breaks its grammar;
    such a mention can never be grounded. ``aliases`` are other names of the same work, e.g.
    the arXiv id inside the arXiv DOI ``10.48550/arXiv.2005.11401``.
    """

    identifier: Identifier
    start: int = field(validator=_non_negative)
    end: int = field(validator=_non_negative)
    malformed: str | None = None
    aliases: tuple[Identifier, ...] = ()
    kind: str = ""
    """How it was written, where that matters (titles: ``quoted``, ``heading``, ``reference``,
    ``emphasis``, ``link``, ``bibtex``, ``adjacent``)."""

    def __attrs_post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"mention ends ({self.end}) before it starts ({self.start})")

    @property
    def keys(self) -> tuple[Identifier, ...]:
        """Every name under which evidence can ground this mention."""
        return (self.identifier, *self.aliases)


@frozen
class Citation:
    """A mention placed in the original report: raw text, offsets, 1-based line and column.

    ``text[start:end] == raw`` always holds for the text the citation was extracted from, even
    when extraction ran on a normalised view (zero-width characters, fullwidth digits).
    """

    identifier: Identifier
    raw: str
    start: int = field(validator=_non_negative)
    end: int = field(validator=_non_negative)
    line: int = field(validator=_non_negative)
    column: int = field(validator=_non_negative)
    extractor: str = ""
    malformed: str | None = None
    aliases: tuple[Identifier, ...] = ()
    source: str | None = None
    """Where the citation was written when not in the report itself (its bibliography file)."""
    kind: str = ""
    """How it was written (see :attr:`Mention.kind`)."""

    @classmethod
    def _trusted(  # noqa: PLR0917 - positional, as the hot loop of extract() calls it
        cls,
        identifier: Identifier,
        raw: str,
        start: int,
        end: int,
        line: int,
        column: int,
        extractor: str,
        malformed: str | None,
        aliases: tuple[Identifier, ...],
        source: str | None,
        kind: str,
    ) -> Citation:
        """A citation placed by :func:`groundcheck.extract` from a checked mention (offsets,
        line and column non-negative ints), made without the validators."""
        new = _NEW(cls)
        _SET(new, "identifier", identifier)
        _SET(new, "raw", raw)
        _SET(new, "start", start)
        _SET(new, "end", end)
        _SET(new, "line", line)
        _SET(new, "column", column)
        _SET(new, "extractor", extractor)
        _SET(new, "malformed", malformed)
        _SET(new, "aliases", aliases)
        _SET(new, "source", source)
        _SET(new, "kind", kind)
        return new

    @property
    def scheme(self) -> str:
        return self.identifier.scheme

    @property
    def id(self) -> str:
        return self.identifier.id

    @property
    def is_title(self) -> bool:
        """A title candidate rather than an identifier (checked loosely, as a warning)."""
        return self.identifier.scheme == TITLE_SCHEME

    @property
    def keys(self) -> tuple[Identifier, ...]:
        return (self.identifier, *self.aliases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": self.identifier.scheme,
            "id": self.identifier.id,
            "version": self.identifier.version,
            "raw": self.raw,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
            "malformed": self.malformed is not None,
            "source": self.source,
            "kind": self.kind or None,
        }

    def sort_key(self) -> tuple[str, int, int]:
        """Report first, then each bibliography; by position within each."""
        return (self.source or "", self.start, self.end)


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
class Marker:
    """An in-text pointer at the report's own reference list, placed in the report.

    ``[4]``, ``[2, 5–7]`` and ``【1】`` (kind ``number``), ``[^3]`` (``footnote``),
    ``\\cite{lewis2020}`` (``key``), and author–year citations such as ``Lewis et al. (2020)``
    (``author-year``). ``labels`` are the entry labels it names (a range is spelled out);
    an author–year citation names its first author's surname and year instead.
    """

    raw: str
    start: int = field(validator=_non_negative)
    end: int = field(validator=_non_negative)
    line: int = field(validator=_non_negative)
    column: int = field(validator=_non_negative)
    kind: str = "number"
    labels: tuple[str, ...] = ()
    author: str = ""
    """For an author–year citation: the first author's surname, as written."""
    year: int | None = None

    @property
    def is_author_year(self) -> bool:
        return self.kind == "author-year"

    def citation(self, label: str | None = None) -> Citation:
        """The marker as a located citation, for a finding about it (one label of it, or all)."""
        if self.is_author_year:
            ident = Identifier(AUTHOR_YEAR_SCHEME, f"{self.author.casefold()} {self.year}")
        else:
            ident = Identifier(MARKER_SCHEME, label or ",".join(self.labels) or self.raw)
        return Citation(ident, self.raw, self.start, self.end, self.line, self.column)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "raw": self.raw,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
        }
        if self.is_author_year:
            out["author"] = self.author
            out["year"] = self.year
        else:
            out["labels"] = list(self.labels)
        return out


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


def dumps(
    data: Mapping[str, Any] | list[Any], *, indent: int | None = 2, compact: bool = False
) -> str:
    """The one JSON encoder for everything groundcheck prints, so all outputs agree on format.

    ``indent=None`` is one line; with ``compact`` it has no spaces either
    (``{"a":1,"b":[2,3]}``), as the CLI's machine output does. Both run the encoder written in
    C; an indent sends every value through the pure-Python one, about 3x slower. Indented
    output is written in batches of chunks: ``json.dumps`` with an indent joins a list of
    every chunk (tens of small strings per finding), which for a verdict of 500,000 findings
    is gigabytes; batched, the peak is about the size of the output itself.

    >>> dumps({"a": 1, "b": [2, 3]}, indent=None), dumps({"a": 1}, indent=None, compact=True)
    ('{"a": 1, "b": [2, 3]}', '{"a":1}')
    """
    if indent is None:
        separators = (",", ":") if compact else None
        return json.dumps(data, ensure_ascii=False, separators=separators)
    out = io.StringIO()
    batch: list[str] = []
    for chunk in json.JSONEncoder(ensure_ascii=False, indent=indent).iterencode(data):
        batch.append(chunk)
        if len(batch) >= 8192:
            out.write("".join(batch))
            batch.clear()
    out.write("".join(batch))
    if indent:
        out.write("\n")
    return out.getvalue()
