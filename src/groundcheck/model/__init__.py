"""The data groundcheck passes between stages: identifiers, citations, evidence, findings, verdicts.

Every class is frozen: a verdict is a record of what was checked, and nothing downstream may
quietly rewrite it. Use :func:`attrs.evolve` to derive a changed copy.

What extraction needs (identifiers, schemes, mentions, citations, markers) is defined here;
what only an audit needs (works, evidence, findings, groundings, verdicts) lives in
:mod:`groundcheck.model._audit` and is created on first use (PEP 562): creating an attrs
class compiles its methods, and those eight were ~9 ms of every ``groundcheck extract``
start-up. ``groundcheck.model.Verdict`` and ``from groundcheck.model import Verdict`` work
as before, and every class says ``groundcheck.model`` is its module (pickles, reprs).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from attrs import field, frozen

if TYPE_CHECKING:
    from groundcheck.model._audit import (
        CitedWork,
        Evidence,
        EvidenceSet,
        Finding,
        Grounding,
        Verdict,
        Work,
        WorkGrounding,
    )

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

_AUDIT_CLASSES = frozenset(
    {
        "CitedWork",
        "Evidence",
        "EvidenceSet",
        "Finding",
        "Grounding",
        "Verdict",
        "Work",
        "WorkGrounding",
    }
)
"""The classes of :mod:`groundcheck.model._audit`, made on first use."""


def __getattr__(name: str) -> Any:
    if name not in _AUDIT_CLASSES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from groundcheck.model import _audit

    # All of them at once: a string annotation naming one (``Verdict.evidence:
    # EvidenceSet``) then resolves in this module's namespace, as it did when they lived here.
    namespace = globals()
    for other in _AUDIT_CLASSES:
        namespace[other] = getattr(_audit, other)
    return namespace[name]


def __dir__() -> list[str]:
    return sorted({*globals(), *_AUDIT_CLASSES})


def _non_empty(instance: object, attribute: Any, value: str) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{attribute.name} must be a non-empty string, got {value!r}")


def _non_negative(instance: object, attribute: Any, value: int) -> None:
    if not isinstance(value, int) or value < 0:
        raise ValueError(f"{attribute.name} must be a non-negative int, got {value!r}")


_NEW = object.__new__
_SET = object.__setattr__
"""How the ``_trusted`` constructors fill a frozen instance (as attrs' own ``__init__`` does,
without its validators): for the class itself, through its slots' setters (see
:func:`_slot_setters`); for a subclass, by name."""


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each named slot of ``cls``: what ``object.__setattr__`` finds by
    name in the class's dictionary and calls, found once. Calling them directly is ~1/3
    cheaper per field, and the hot loops make a mention per match and a citation per
    mention (~0.1 us per mention, ~0.2 us per citation)."""
    return tuple(cls.__dict__[name].__set__ for name in names)


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

    @classmethod
    def _trusted(cls, scheme: str, id: str, version: int | None = None) -> Identifier:
        """An identifier an extractor builds from its own scheme name and a matched id (both
        non-empty strings by construction), made without the validators, as
        :meth:`Citation._trusted` is: the hot loops of the built-in extractors make one per
        mention."""
        new = _NEW(cls)
        if cls is Identifier:
            set_scheme, set_id, set_version = _IDENTIFIER_SLOTS
            set_scheme(new, scheme)
            set_id(new, id)
            set_version(new, version)
            return new
        _SET(new, "scheme", scheme)
        _SET(new, "id", id)
        _SET(new, "version", version)
        return new

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

    @classmethod
    def _trusted(  # noqa: PLR0917 - positional, as the extractors' hot loops call it
        cls,
        identifier: Identifier,
        start: int,
        end: int,
        malformed: str | None = None,
        aliases: tuple[Identifier, ...] = (),
        kind: str = "",
    ) -> Mention:
        """A mention a built-in extractor places from a regex match (``0 <= start <= end``
        ints by construction), made without the validators and the post-init check."""
        new = _NEW(cls)
        if cls is Mention:
            set_identifier, set_start, set_end, set_malformed, set_aliases, set_kind = (
                _MENTION_SLOTS
            )
            set_identifier(new, identifier)
            set_start(new, start)
            set_end(new, end)
            set_malformed(new, malformed)
            set_aliases(new, aliases)
            set_kind(new, kind)
            return new
        for name, value in zip(
            _MENTION_FIELDS, (identifier, start, end, malformed, aliases, kind), strict=True
        ):
            _SET(new, name, value)
        return new

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
        if cls is not Citation:
            values = (
                identifier, raw, start, end, line, column, extractor, malformed, aliases, source,
                kind,
            )  # fmt: skip
            for name, value in zip(_CITATION_FIELDS, values, strict=True):
                _SET(new, name, value)
            return new
        (
            set_identifier, set_raw, set_start, set_end, set_line, set_column, set_extractor,
            set_malformed, set_aliases, set_source, set_kind,
        ) = _CITATION_SLOTS  # fmt: skip
        set_identifier(new, identifier)
        set_raw(new, raw)
        set_start(new, start)
        set_end(new, end)
        set_line(new, line)
        set_column(new, column)
        set_extractor(new, extractor)
        set_malformed(new, malformed)
        set_aliases(new, aliases)
        set_source(new, source)
        set_kind(new, kind)
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


_IDENTIFIER_SLOTS = _slot_setters(Identifier, ("scheme", "id", "version"))
_MENTION_FIELDS = ("identifier", "start", "end", "malformed", "aliases", "kind")
_MENTION_SLOTS = _slot_setters(Mention, _MENTION_FIELDS)
_CITATION_FIELDS = (
    "identifier", "raw", "start", "end", "line", "column", "extractor", "malformed", "aliases",
    "source", "kind",
)  # fmt: skip
_CITATION_SLOTS = _slot_setters(Citation, _CITATION_FIELDS)


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
