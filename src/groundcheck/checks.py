"""The checks: strict ones on identifiers, and guards on the run as a whole.

Each check is a small named object that reads an :class:`AuditContext` and yields findings. It
never reads files and never extracts: it judges what the earlier stages found. Each carries its
own finding ``code``, default ``severity``, a one-line ``description`` and a longer ``help``:
SARIF rules and the docs read them from the check itself. Messages say "not in any tool
output", never "does not exist": groundcheck judges provenance, not existence.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import ClassVar, Protocol

from attrs import field, frozen

from groundcheck.document.layout import Layout
from groundcheck.grounding import EvidenceTitles, similarity
from groundcheck.grounding.quotes import MISATTRIBUTED, UNVERIFIED, QuoteCheck
from groundcheck.model import (
    ERROR,
    WARNING,
    EvidenceSet,
    Finding,
    Grounding,
    Identifier,
    Scheme,
    Severity,
)

__all__ = [
    "DEFAULT_CHECKS",
    "AuditContext",
    "Check",
    "EmptyEvidenceReport",
    "FabricatedIds",
    "IdTitleMismatch",
    "MalformedIds",
    "MisattributedQuotes",
    "NoToolCalls",
    "OutputsNotRecorded",
    "UnverifiedQuotes",
    "UnverifiedTitles",
    "check_named",
]

_NO_SCHEMES: Mapping[str, Scheme] = MappingProxyType({})


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@frozen
class AuditContext:
    """Everything a check may look at for one report."""

    report: str
    citations: tuple[Grounding, ...]
    evidence: EvidenceSet
    long_report_chars: int = 500
    unrecorded_severity: Severity = ERROR
    title_threshold: float = 90.0
    titles: EvidenceTitles | None = None
    layout: Layout | None = None
    schemes: Mapping[str, Scheme] = field(default=_NO_SCHEMES)
    """What the extractors say about each scheme (label, prefix), by scheme name."""
    quotes: tuple[QuoteCheck, ...] = ()
    """The report's quoted passages and where each was found (see
    :mod:`groundcheck.grounding.quotes`)."""

    @property
    def identifiers(self) -> tuple[Grounding, ...]:
        return tuple(g for g in self.citations if not g.citation.is_title)

    @property
    def title_citations(self) -> tuple[Grounding, ...]:
        return tuple(g for g in self.citations if g.citation.is_title)

    def scheme(self, name: str) -> Scheme:
        """The scheme called ``name``, described by its extractor or, failing that, by name."""
        return self.schemes.get(name) or Scheme.unknown(name)

    def cited_as(self, identifier: Identifier) -> str:
        """How a person writes the identifier: ``arXiv:2005.11401v2``, ``doi:10.1000/xyz``."""
        return self.scheme(identifier.scheme).cite(identifier)

    @property
    def report_chars(self) -> int:
        return len(self.report.strip())


class Check(Protocol):
    """A named rule. ``code`` is the stable finding code it emits.

    ``severity`` is the default severity of its findings (a policy may lower some of them),
    ``description`` one line for tables and SARIF ``shortDescription``, ``help`` a paragraph
    saying when it fires and what to do about it.
    """

    @property
    def code(self) -> str: ...

    @property
    def severity(self) -> Severity: ...

    @property
    def description(self) -> str: ...

    @property
    def help(self) -> str: ...

    def run(self, ctx: AuditContext) -> Iterator[Finding]: ...


def _evidence_phrase(evidence: EvidenceSet) -> str:
    calls = len(evidence.calls)
    if calls == 0:
        return "no tool was called"
    returned = len(evidence.identifiers)
    if returned == 0:
        return f"{_plural(calls, 'tool call')} returned no identifiers"
    returned_phrase = _plural(returned, "identifier")
    return f"{_plural(calls, 'tool call')} returned {returned_phrase}, none of them this one"


class FabricatedIds:
    """``fabricated-id``: a well-formed identifier whose work is in no tool output."""

    code: ClassVar[str] = "fabricated-id"
    severity: ClassVar[Severity] = ERROR
    description: ClassVar[str] = "Cited identifier is in no tool output"
    help: ClassVar[str] = (
        "A well-formed identifier the report cites is in no tool output. The agent may have "
        "written it from memory. Check that a tool really returned it; if some calls did not "
        "record their output, the message says so, and the policy's unrecorded_severity can "
        "lower it to a warning."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        unrecorded = ctx.evidence.unrecorded_calls
        severity = ctx.unrecorded_severity if unrecorded else ERROR
        context = _evidence_phrase(ctx.evidence)
        if unrecorded:
            context += (
                f"; but {_plural(len(unrecorded), 'lookup')} did not record "
                f"{'its' if len(unrecorded) == 1 else 'their'} output, which may hold it"
            )
        for g in ctx.identifiers:
            c = g.citation
            if g.grounded or c.malformed is not None:
                continue
            yield Finding(
                self.code,
                severity,
                f"{ctx.cited_as(c.identifier)} is not in any tool output ({context})",
                c,
            )


class MalformedIds:
    """``malformed-id``: written as an identifier (prefix, URL, version) but breaks the grammar."""

    code: ClassVar[str] = "malformed-id"
    severity: ClassVar[Severity] = ERROR
    description: ClassVar[str] = "Written as an identifier but breaks its grammar"
    help: ClassVar[str] = (
        "A token written as an identifier (an arXiv prefix or URL, a version suffix, doi:) "
        "cannot be one: a month 13, a sequence number 0, the wrong number of digits. No paper "
        "can have it, so no tool returned it."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        for g in ctx.citations:
            c = g.citation
            if c.malformed is None:
                continue
            yield Finding(
                self.code,
                ERROR,
                f"{c.raw!r} is written as a {ctx.scheme(c.scheme).label} identifier but cannot be "
                f"one: {c.malformed}; no tool output can hold it",
                c,
            )


class NoToolCalls:
    """``no-tool-calls``: a report was written, yet no tool was called at all."""

    code: ClassVar[str] = "no-tool-calls"
    severity: ClassVar[Severity] = ERROR
    description: ClassVar[str] = "Report written without any tool call"
    help: ClassVar[str] = (
        "The report has text, yet the run made no tool call at all: nothing in it can come "
        "from a tool."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        if ctx.evidence.calls or ctx.report_chars == 0:
            return
        yield Finding(
            self.code,
            ERROR,
            f"the report ({ctx.report_chars} characters) was written without any tool call: "
            "nothing in it can come from a tool",
        )


class EmptyEvidenceReport:
    """``empty-evidence-report``: every call returned nothing or failed, yet the report goes on.

    An error when the report still cites identifiers; a warning when it cites none but runs
    longer than ``long_report_chars``. A short "I found nothing" note is honest and passes.
    """

    code: ClassVar[str] = "empty-evidence-report"
    severity: ClassVar[Severity] = ERROR
    description: ClassVar[str] = "Every lookup returned nothing, yet the report goes on"
    help: ClassVar[str] = (
        "Every lookup of the run came back empty, failed, or only read back the agent's own "
        "files. An error when the report still cites identifiers; a warning when it cites "
        "none but runs long. A short note saying nothing was found passes."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        if not ctx.evidence.calls:
            return  # no-tool-calls speaks for this case
        calls = ctx.evidence.lookups
        if not all(c.returned_nothing for c in calls):
            return
        if not calls:
            actions = len(ctx.evidence.calls)
            what = f"no tool call looked anything up ({_plural(actions, 'action')} only)"
            calls = ctx.evidence.calls
        else:
            empty = sum(1 for c in calls if c.empty and not c.errored)
            failed = sum(1 for c in calls if c.errored)
            echoed = sum(1 for c in calls if c.excluded is not None and not c.empty)
            detail = f"{empty} empty, {failed} failed"
            if echoed:
                detail += f", {echoed} only read back the agent's own files"
            what = f"all {_plural(len(calls), 'lookup')} returned nothing ({detail})"
        cited = len(ctx.identifiers)
        if cited:
            yield Finding(
                self.code,
                ERROR,
                f"{what}, yet the report cites {_plural(cited, 'identifier')}",
                calls=tuple(c.call_id for c in calls),
            )
        elif ctx.report_chars > ctx.long_report_chars:
            yield Finding(
                self.code,
                WARNING,
                f"{what}, yet the report runs {ctx.report_chars} characters "
                f"(over {ctx.long_report_chars}); check it is not written from memory",
                calls=tuple(c.call_id for c in calls),
            )


class OutputsNotRecorded:
    """``outputs-not-recorded``: the trace did not keep some outputs, so evidence has gaps."""

    code: ClassVar[str] = "outputs-not-recorded"
    severity: ClassVar[Severity] = WARNING
    description: ClassVar[str] = "The trace did not record some tool outputs"
    help: ClassVar[str] = (
        "Some lookups' outputs were not kept by the trace format, so identifiers they "
        "returned cannot be seen. Record tool outputs (e.g. OpenTelemetry's opt-in "
        "gen_ai.tool.call.result) to close the gap."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        missing = ctx.evidence.unrecorded_calls
        if not missing:
            return
        named = ", ".join(f"{c.call_id} ({c.tool})" for c in missing[:5])
        if len(missing) > 5:
            named += f", and {len(missing) - 5} more"
        one = len(missing) == 1
        yield Finding(
            self.code,
            WARNING,
            f"{_plural(len(missing), 'lookup')} did not record {'its' if one else 'their'} "
            f"output in the trace: {named}; identifiers {'it' if one else 'they'} returned "
            "cannot be seen",
            calls=tuple(c.call_id for c in missing),
        )


def _quote(title: str, limit: int = 90) -> str:
    short = title if len(title) <= limit else title[: limit - 1].rstrip() + "…"
    return f"“{short}”"


class UnverifiedTitles:
    """``unverified-title``: a cited title that matches no title any tool returned.

    A warning, not an error: titles are written loosely, and a paraphrase is not a
    fabrication. Only titles written as citations count (see :mod:`groundcheck.document.layout`).
    """

    code: ClassVar[str] = "unverified-title"
    severity: ClassVar[Severity] = WARNING
    description: ClassVar[str] = "Cited title matches no returned title"
    help: ClassVar[str] = (
        "A title written as a citation (reference list, BibTeX, or quoted, heading, emphasis "
        "or link beside an id) matches no title any tool returned. A warning: titles are "
        "written loosely, and a paraphrase is not a fabrication."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        if ctx.layout is None:
            return
        unrecorded = len(ctx.evidence.unrecorded_calls)
        gap = (
            f"; but {_plural(unrecorded, 'lookup')} did not record "
            f"{'its' if unrecorded == 1 else 'their'} output, which may hold it"
            if unrecorded
            else ""
        )
        for g in ctx.title_citations:
            if g.grounded or not ctx.layout.cited(g.citation):
                continue
            nearest = ""
            if ctx.titles is not None and ctx.titles.titles:
                close = ctx.titles.match(g.citation.id, max(ctx.title_threshold - 25.0, 1.0))
                if close is not None:
                    nearest = (
                        f"; the closest returned title is {_quote(close.title)} "
                        f"({close.score:.0f} < {ctx.title_threshold:g})"
                    )
            yield Finding(
                self.code,
                WARNING,
                f"title {_quote(g.citation.raw)} matches no title in any tool output{nearest}{gap}",
                g.citation,
            )


_LOOSE_KINDS = frozenset({"adjacent", "heading"})
"""Titles too loosely written to accuse an id of a title matching nothing: the words beside it,
and section headings, which paraphrase as often as they quote. They still count when they
match another returned paper."""


class IdTitleMismatch:
    """``id-title-mismatch``: a returned identifier cited beside the wrong title.

    The tools returned this identifier with a title of its own; the title written beside it in
    the report matches a *different* returned paper better, or matches no returned title at
    all. This is how real-but-mislabelled bibliographies look: each id exists, each title
    exists, they do not belong together.
    """

    code: ClassVar[str] = "id-title-mismatch"
    severity: ClassVar[Severity] = ERROR
    description: ClassVar[str] = "Returned identifier cited beside another paper's title"
    help: ClassVar[str] = (
        "The tools returned this identifier with a title of its own, but the report cites it "
        "beside the title of a different returned paper (or a title written as a citation "
        "that matches none): each exists, they do not belong together."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        titles, layout = ctx.titles, ctx.layout
        if titles is None or layout is None:
            return
        groundings = {id(g.citation): g for g in ctx.title_citations}
        for g in ctx.identifiers:
            c = g.citation
            if not g.grounded:
                continue
            beside = layout.title_beside(c)
            own = titles.own_titles(c.keys)
            if beside is None or not own:
                continue
            written = groundings.get(id(beside))
            own_score = max(similarity(beside.id, t) for t in own)
            if own_score >= ctx.title_threshold:
                continue
            label = ctx.cited_as(c.identifier)
            matched = written.matched_title if written is not None else None
            if matched is not None and matched not in own:
                others = sorted(ctx.cited_as(i) for i in titles.ids_of(matched))
                whose = f" ({', '.join(others[:3])})" if others else ""
                yield Finding(
                    self.code,
                    ERROR,
                    f"{label} was returned as {_quote(own[0])}, but is cited beside "
                    f"{_quote(beside.raw)}, the title of another returned paper{whose}",
                    c,
                )
            elif matched is None and beside.kind not in _LOOSE_KINDS and layout.cited(beside):
                yield Finding(
                    self.code,
                    ERROR,
                    f"{label} was returned as {_quote(own[0])}, but is cited beside "
                    f"{_quote(beside.raw)}, which matches no returned title",
                    c,
                )


def _gap(unsearched: int) -> str:
    if not unsearched:
        return ""
    return f"; but {_plural(unsearched, 'lookup')} kept no output text, which may hold it"


def _shown(text: str) -> str:
    """A quoted passage on one line, for a message."""
    return _quote(" ".join(text.split()))


def _calls_phrase(ctx: AuditContext, calls: tuple[str, ...], limit: int = 3) -> str:
    tools = {c.call_id: c.tool for c in ctx.evidence.calls}
    named = [f"{c} ({tools[c]})" if c in tools else c for c in calls[:limit]]
    more = f" and {len(calls) - limit} more" if len(calls) > limit else ""
    return ", ".join(named) + more


class UnverifiedQuotes:
    """``unverified-quote``: a passage quoted as a source's words that no tool output holds.

    A warning: the words may come from a page no tool returned in full, or be remembered
    rather than read. Elisions, bracketed changes, quotation-mark and dash styles, case and line
    breaks are allowed (see :mod:`groundcheck.grounding.quotes`); a changed word is not.
    """

    code: ClassVar[str] = "unverified-quote"
    severity: ClassVar[Severity] = WARNING
    description: ClassVar[str] = "Quoted passage is in no tool output"
    help: ClassVar[str] = (
        "A passage the report presents as a source's exact words (in quotation marks or a "
        "block quote, at least quote_min_words words) occurs in no tool output, even allowing "
        "for quotation-mark, dash, case and line-break differences, elisions (...) and "
        "[bracketed] changes. The words may have been altered (a number, a negation, a word), "
        "stitched from two places, or remembered rather than read. The message names the "
        "output that holds most of it, and where it differs."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        for q in ctx.quotes:
            if q.status != UNVERIFIED:
                continue
            closest, calls = "", tuple[str, ...]()
            near = q.closest
            if near is not None and near.words * 2 >= near.total:
                where = "last" if near.from_end else "first"
                differs = ""
                if near.quote_word is not None and near.source_word is not None:
                    differs = (
                        f", where it reads “{near.source_word}” and the quote “{near.quote_word}”"
                    )
                closest = (
                    f"; the closest, call {_calls_phrase(ctx, (near.call,))}, holds its "
                    f"{where} {near.words} of {near.total} words{differs}"
                )
                calls = (near.call,)
            yield Finding(
                self.code,
                WARNING,
                f"quote {_shown(q.passage.text)} ({q.words} words) is not in any tool output "
                f"({_plural(q.searched, 'output')} searched{_gap(q.unsearched)}){closest}",
                q.citation,
                calls,
            )


class MisattributedQuotes:
    """``misattributed-quote``: a quote found, but only in an output other than its source's.

    The report cites a source beside the quote (a URL or identifier in the same sentence, or
    paragraph); the outputs that returned that source do not hold the quote, and another
    output does. A warning: the wording is real, the attribution is not.
    """

    code: ClassVar[str] = "misattributed-quote"
    severity: ClassVar[Severity] = WARNING
    description: ClassVar[str] = "Quote is in a tool output, but not in the source cited beside it"
    help: ClassVar[str] = (
        "The quoted words are in a tool output, but not in what the tools returned for the "
        "source the report cites beside them (a link, URL or identifier in the same sentence "
        "or paragraph): the quote is real, its attribution is not. Cite the source the words "
        "came from."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        for q in ctx.quotes:
            if q.status != MISATTRIBUTED:
                continue
            cited = sorted({ctx.cited_as(i) for i in q.cited if i.scheme != "url"}) or sorted(
                {ctx.cited_as(i) for i in q.cited}
            )
            named = ", ".join(cited[:3]) + (f" and {len(cited) - 3} more" if len(cited) > 3 else "")
            yield Finding(
                self.code,
                WARNING,
                f"quote {_shown(q.passage.text)} is in the output of call "
                f"{_calls_phrase(ctx, q.calls)}, but not in the outputs that returned {named}, "
                f"which the report cites beside it (call {_calls_phrase(ctx, q.cited_calls)})",
                q.citation,
                q.calls,
            )


DEFAULT_CHECKS: tuple[Check, ...] = (
    FabricatedIds(),
    MalformedIds(),
    NoToolCalls(),
    EmptyEvidenceReport(),
    OutputsNotRecorded(),
    UnverifiedTitles(),
    IdTitleMismatch(),
    UnverifiedQuotes(),
    MisattributedQuotes(),
)


def check_named(code: str, checks: tuple[Check, ...] = DEFAULT_CHECKS) -> Check | None:
    """The check that emits ``code`` (for SARIF rules and docs), or None."""
    return next((c for c in checks if c.code == code), None)
