"""The checks: strict ones on identifiers, and guards on the run as a whole.

Each check is a small named object that reads an :class:`AuditContext` and yields findings. It
never reads files and never extracts: it judges what the earlier stages found. Each carries its
own finding ``code``, default ``severity``, a one-line ``description`` and a longer ``help``:
SARIF rules and the docs read them from the check itself. Messages say "not in any tool
output", never "does not exist": groundcheck judges provenance, not existence.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, Literal, Protocol

from attrs import field, frozen

from groundcheck.document.authors import surname, surname_key
from groundcheck.document.works import WorkSet
from groundcheck.grounding import EvidenceTitles, similarity
from groundcheck.grounding.quotes import MISATTRIBUTED, UNVERIFIED, QuoteCheck
from groundcheck.grounding.url_pages import PageIndex
from groundcheck.model import (
    ERROR,
    WARNING,
    Citation,
    CitedWork,
    EvidenceSet,
    Finding,
    Grounding,
    Identifier,
    Marker,
    Scheme,
    Severity,
    Work,
    WorkGrounding,
)

__all__ = [
    "DEFAULT_CHECKS",
    "AuditContext",
    "Check",
    "DanglingMarkers",
    "EmptyEvidenceReport",
    "FabricatedIds",
    "IdTitleMismatch",
    "MalformedIds",
    "MisattributedQuotes",
    "NoToolCalls",
    "OutputsNotRecorded",
    "TitleProblem",
    "UnverifiedAuthorYear",
    "UnverifiedQuotes",
    "UnverifiedTitles",
    "check_named",
]

_NO_SCHEMES: Mapping[str, Scheme] = MappingProxyType({})


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@frozen
class TitleProblem:
    """What is wrong with the titles written for one work, if anything (one per work).

    ``code`` is ``id-title-mismatch`` (the title is another returned work's: ``other``, with
    its identifiers) or ``unverified-title`` (it matches no returned title, or only comes
    close to the work's own: ``own``, ``score``).
    """

    code: str
    title: Citation
    own: str | None = None
    other: str | None = None
    other_ids: tuple[Identifier, ...] = ()
    score: float | None = None


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
    schemes: Mapping[str, Scheme] = field(default=_NO_SCHEMES)
    """What the extractors say about each scheme (label, prefix), by scheme name."""
    works: tuple[WorkGrounding, ...] = ()
    """The report's cited works and how each was grounded (see :class:`CitedWork`)."""
    references: WorkSet | None = None
    """What the document model could not resolve: dangling markers, unmatched author–year
    citations, and whether the report has a reference list at all."""
    quotes: tuple[QuoteCheck, ...] = ()
    """The report's quoted passages and where each was found (see
    :mod:`groundcheck.grounding.quotes`)."""
    _by_citation: dict[int, Grounding] | None = field(init=False, eq=False, repr=False)
    _problems: dict[str, TitleProblem | None] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_citation", None)
        object.__setattr__(self, "_problems", {})

    def grounding(self, citation: Citation) -> Grounding | None:
        """The grounding of one citation of the report.

        The map it reads is made when first asked: only title checks ask, and a flood of
        100,000 identifiers would hold it through every check (8 MB) for nothing.
        """
        by_citation = self._by_citation
        if by_citation is None:
            by_citation = {id(g.citation): g for g in self.citations}
            object.__setattr__(self, "_by_citation", by_citation)
        return by_citation.get(id(citation))

    def title_problem(self, work: WorkGrounding) -> TitleProblem | None:
        """What is wrong with the titles written for ``work`` (computed once per work)."""
        key = work.work.key
        if key not in self._problems:
            self._problems[key] = _title_problem(self, work)
        return self._problems[key]

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


def _quote(title: str, limit: int = 90) -> str:
    short = title if len(title) <= limit else title[: limit - 1].rstrip() + "…"
    return f"“{short}”"


def _work_name(work: CitedWork) -> str:
    """How a finding names an entry of the report's list: ``reference [3]``, ``@lewis2020``."""
    if work.kind == "bibtex" and work.label:
        return f"@{work.label}"
    if work.label and work.kind == "entry":
        label = work.label
        if label.startswith("^"):
            return f"footnote [{label}]"
        return f"reference [{label}]" if label.isdigit() else f"entry {label}"
    return ""


def _about(work: CitedWork | None, *, title: bool = True) -> str:
    """``; cited as reference [3], “Title”``: which work a finding is about, at the end,
    so the message still starts with what users grep for (``arXiv:… is not in any tool
    output``). Only a title written as one is named, never the bare words next to an id."""
    if work is None:
        return ""
    name = _work_name(work)
    written = title and work.title is not None and work.title.kind != "adjacent"
    quoted = _quote(work.title.raw) if written and work.title is not None else ""
    if name and quoted:
        return f"; cited as {name}, {quoted}"
    if quoted:
        return f"; cited with the title {quoted}"
    return f"; cited as {name}" if name else ""


def _times(citations: Sequence[Citation]) -> str:
    if len(citations) < 2:
        return ""
    lines = sorted({c.line for c in citations if c.source is None})
    where = f" (lines {', '.join(map(str, lines[:6]))}{', …' if len(lines) > 6 else ''})"
    return f"; cited {len(citations)} times{where if len(lines) > 1 else ''}"


class FabricatedIds:
    """``fabricated-id``: a cited work whose well-formed identifiers are in no tool output.

    One finding per work: an identifier cited in prose and again in the reference list is
    one work, and the title written for it is named in the finding (there is no separate
    title warning for the same work). A work grounded by one of its identifiers is grounded:
    the other identifiers written for it (a publisher URL beside a returned arXiv id) are
    not accused.
    """

    code: ClassVar[str] = "fabricated-id"
    severity: ClassVar[Severity] = ERROR
    description: ClassVar[str] = "Cited identifier is in no tool output"
    help: ClassVar[str] = (
        "A cited work's well-formed identifiers are in no tool output. The agent may have "
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
        pages: PageIndex | None = None

        def same_page(c: Citation) -> Identifier | None:
            nonlocal pages
            if c.scheme != "url":
                return None
            pages = pages or PageIndex(ctx.evidence.identifiers)
            return pages.same_page(c.identifier)

        covered: set[int] = set()
        for wg in ctx.works:
            work = wg.work
            covered.update(map(id, work.identifiers))
            if wg.grounded:
                continue
            missing = [c for c in work.identifiers if c.malformed is None]
            if not missing:
                continue
            # Each identifier object named once (a flood's citations share one), in order.
            distinct = {id(c.identifier): c.identifier for c in missing}.values()
            named = list(dict.fromkeys(map(ctx.cited_as, distinct)))
            where = next((c for c in missing if work.start <= c.start < work.end), missing[0])
            verb = "is" if len(named) == 1 else "are"
            lowered, also = severity, ""
            # Asked of every identifier only when each is a web page (same_page is None for
            # any other scheme).
            web = all(c.scheme == "url" for c in missing)
            elsewhere = [same_page(c) for c in missing] if web else [None]
            if all(r is not None for r in elsewhere):  # every one a returned page elsewhere
                lowered = WARNING
                shown = ", ".join(dict.fromkeys(ctx.cited_as(r) for r in elsewhere if r))
                also = f"; a tool returned the same page at another address: {shown}"
            elif (twin := _returned_twin(ctx, work, missing)) is not None:
                lowered = WARNING
                also = (
                    f"; its title is that of a paper the tools returned ({twin}), without "
                    f"{'this identifier' if len(named) == 1 else 'these identifiers'}"
                )
            yield Finding(
                self.code,
                lowered,
                f"{' and '.join(named)} {verb} not in any tool output ({context}){also}"
                f"{_about(work)}{_times(missing)}",
                where,
                work=work,
            )
        for g in ctx.citations:  # citations no work holds (a context built by hand)
            c = g.citation
            # (is_title, a Python call, asked last: a flood's citations are all covered)
            if id(c) in covered or g.grounded or c.malformed is not None or c.is_title:
                continue
            message = f"{ctx.cited_as(c.identifier)} is not in any tool output ({context})"
            lowered = severity
            returned = same_page(c)
            if returned is not None:
                lowered = WARNING
                message += (
                    f"; a tool returned the same page at another address: {ctx.cited_as(returned)}"
                )
            yield Finding(self.code, lowered, message, c)


def _returned_twin(ctx: AuditContext, work: CitedWork, missing: list[Citation]) -> str | None:
    """How to name the returned paper a work with unreturned identifiers is, by its title, or
    None when there is none or when it was returned with another id of the same scheme.

    "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks … doi:10.5555/…": the
    tools returned that paper (with its arXiv id), the agent added its publisher DOI. The DOI
    is in no output, certain, but the source is not invented: a warning. A written title (an
    entry's, a heading, a quote; not the words beside an id) must match a returned paper's
    title; a paper returned with its own arXiv id cited with another arXiv id stays an error
    (it has one), as does any other scheme clash, except a DOI beside arXiv's own DOI
    (10.48550/arXiv.…): a paper also has its publisher's.
    """
    title = work.title
    if ctx.titles is None or title is None or title.kind == "adjacent":
        return None
    found = ctx.titles.match(title.raw or title.id, ctx.title_threshold)
    if found is None:
        return None
    works = [w for w in ctx.titles.works_of(found.title) if w.identifiers]
    if not works:
        return None
    schemes = {c.identifier.scheme for c in missing}
    returned = sorted({i for w in works for i in w.identifiers}, key=str)
    for ident in returned:
        if ident.scheme in schemes and not (
            ident.scheme == "doi" and ident.id.lower().startswith("10.48550/arxiv.")
        ):
            return None
    shown = [ctx.cited_as(i) for i in returned if i.scheme != "url"] or [
        ctx.cited_as(i) for i in returned
    ]
    return ", ".join(shown[:2])


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
        # Only a malformed citation's work is looked up: a flood of well-formed ids makes
        # no map of them.
        owner = {
            id(c): wg.work
            for wg in ctx.works
            for c in wg.work.identifiers
            if c.malformed is not None
        }
        for g in ctx.citations:
            c = g.citation
            if c.malformed is None:
                continue
            work = owner.get(id(c))
            yield Finding(
                self.code,
                ERROR,
                f"{c.raw!r} is written as a {ctx.scheme(c.scheme).label} identifier but cannot "
                f"be one: {c.malformed}; no tool output can hold it{_about(work)}",
                c,
                work=work,
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


_VARIANT_MARGIN = 10.0
"""Two returned titles this close (threshold minus the margin) may name one paper ("…Nets" and
"…Networks"): a title matching one of them is never called another paper's."""


_LABEL_SCORE = 50.0
"""Below this score against the page's own title, the text of a link to a web page is a label
the agent wrote for it ("[FDA Type B Meetings](…)", "[Q3 2025 Results](…)"), not an attempt at
the page's title: agents describe the pages they link. Closer texts are near copies of the
title, and a changed copy is still worth a warning; scholarly identifiers are always judged."""


def _link_text(report: str, title: Citation) -> bool:
    """Whether ``title`` is written as the text of a Markdown link (``[title](url)``)."""
    opener = report.rfind("[", max(0, title.start - 3), title.start + 1)
    return opener != -1 and report.find("](", title.end, title.end + 5) != -1


def _title_problem(ctx: AuditContext, wg: WorkGrounding) -> TitleProblem | None:
    work = wg.work
    if not work.titles:
        return None
    if not work.identifiers:
        if wg.grounded:
            return None
        title = work.titles[0]  # its own title: the entry's, or the one it is cited by
        if ctx.titles is not None and ctx.titles.titles:
            close = ctx.titles.match(title.raw or title.id, max(ctx.title_threshold - 25.0, 1.0))
            if close is not None:
                return TitleProblem("unverified-title", title, other=close.title, score=close.score)
        return TitleProblem("unverified-title", title)
    if not wg.grounded:
        return None  # fabricated-id speaks for the work, naming its title
    # Grounded by an identifier: its titles can only be judged against the title the tools
    # returned *with* it. When none was returned with it, "matches no title anywhere" says
    # more about where the tool put its titles than about the report: no finding.
    titles = ctx.titles
    if titles is None:
        return None
    keys = work.keys
    warning: TitleProblem | None = None
    own_titles = titles.own_titles(keys)
    if not own_titles and not titles.titles:
        return None
    web_only = all(c.identifier.scheme == "url" for c in work.identifiers)
    for title in work.titles:
        g = ctx.grounding(title)
        if g is not None and g.matched_title is not None and g.matched_title in own_titles:
            continue  # grounding already matched it to this work's own title
        rel = titles.relation(title.raw or title.id, keys, ctx.title_threshold)
        if rel.kind in ("own", "unknown"):
            continue
        near = rel.own
        own = near.title if near is not None else None
        if rel.kind == "other" and rel.other is not None and own is not None:
            others = tuple(sorted({i for w in rel.works for i in w.identifiers}, key=str))
            if set(others) & set(keys):
                continue  # the "other" work is this one, returned again under that title
            variant = ctx.title_threshold - _VARIANT_MARGIN
            if not others:
                others = tuple(sorted(titles.ids_of(rel.other.title), key=str))
            # Another *work*: a title some output returned with identifiers of its own. A
            # title seen only as words (a heading, a quote in a page) may be this page's own.
            if others and similarity(rel.other.title, own, titles.rules) < variant:
                return TitleProblem("id-title-mismatch", title, own, rel.other.title, others)
            # A near variant of its own title, returned elsewhere as a title: a warning.
        if warning is None and title.kind != "adjacent" and own is not None:
            score = near.score if near is not None else None
            if web_only and _link_text(ctx.report, title) and (score or 0.0) < _LABEL_SCORE:
                continue  # "[FDA Type B Meetings](url)": a label for a page, not its title
            warning = TitleProblem("unverified-title", title, own, score=score)
    return warning


def _title_gap(ctx: AuditContext) -> str:
    unrecorded = len(ctx.evidence.unrecorded_calls)
    if not unrecorded:
        return ""
    return (
        f"; but {_plural(unrecorded, 'lookup')} did not record "
        f"{'its' if unrecorded == 1 else 'their'} output, which may hold it"
    )


class UnverifiedTitles:
    """``unverified-title``: a cited work's title matches no title any tool returned.

    A warning, not an error: titles are written loosely, and a paraphrase is not a
    fabrication. It fires for a work cited by its title alone (a reference entry without an
    identifier, a quoted title in prose, a heading naming a paper) whose title matches
    nothing, and for a work whose returned identifier is written beside a title that only
    comes close to the title the tools returned for it. A work whose identifiers are not in
    the evidence gets a ``fabricated-id`` naming its title instead; one problem, one finding.
    """

    code: ClassVar[str] = "unverified-title"
    severity: ClassVar[Severity] = WARNING
    description: ClassVar[str] = "Cited title matches no returned title"
    help: ClassVar[str] = (
        "A title written as a citation (a reference entry, a quoted title in prose, a heading "
        "naming a paper, or the title beside an identifier) matches no title any tool "
        "returned, or only comes close to the one returned with its identifier. A warning: "
        "titles are written loosely, and a paraphrase is not a fabrication."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        for wg in ctx.works:
            problem = ctx.title_problem(wg)
            if problem is None or problem.code != self.code:
                continue
            title = problem.title
            name = _work_name(wg.work)
            subject = f"title {_quote(title.raw)}" + (f" ({name})" if name else "")
            if problem.own is not None:
                ident = ctx.cited_as(wg.work.identifiers[0].identifier)
                score = problem.score or 0.0
                message = (
                    f"{subject} written for {ident} does not match the title the tools "
                    f"returned for it, {_quote(problem.own)} ({score:.0f} < "
                    f"{ctx.title_threshold:g})"
                )
            else:
                nearest = ""
                if problem.other is not None and problem.score is not None:
                    nearest = (
                        f"; the closest returned title is {_quote(problem.other)} "
                        f"({problem.score:.0f} < {ctx.title_threshold:g})"
                    )
                message = f"{subject} matches no title in any tool output{nearest}{_title_gap(ctx)}"
            yield Finding(self.code, WARNING, message, title, work=wg.work)


class IdTitleMismatch:
    """``id-title-mismatch``: a returned identifier cited beside another returned work's title.

    The tools returned this identifier with a title of its own; the title written for it in
    the report is the title of a *different* returned work. This is how real-but-mislabelled
    bibliographies look: each id exists, each title exists, they do not belong together. A
    title that only comes close to the work's own, or matches nothing, is at most an
    ``unverified-title`` warning: an error needs certainty.
    """

    code: ClassVar[str] = "id-title-mismatch"
    severity: ClassVar[Severity] = ERROR
    description: ClassVar[str] = "Returned identifier cited beside another paper's title"
    help: ClassVar[str] = (
        "The tools returned this identifier with a title of its own, but the report cites it "
        "beside the title of a different returned paper: each exists, they do not belong "
        "together."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        for wg in ctx.works:
            problem = ctx.title_problem(wg)
            if problem is None or problem.code != self.code:
                continue
            work = wg.work
            ident = next((c for c in work.identifiers if c.malformed is None), None)
            if ident is None or problem.own is None:
                continue
            label = ctx.cited_as(ident.identifier)
            others = [ctx.cited_as(i) for i in problem.other_ids]
            whose = f" ({', '.join(others[:3])})" if others else ""
            yield Finding(
                self.code,
                ERROR,
                f"{label} was returned as {_quote(problem.own)}, but is cited beside "
                f"{_quote(problem.title.raw)}, the title of another returned paper{whose}"
                f"{_about(work, title=False)}",
                ident,
                work=work,
            )


def _label_range(labels: Sequence[str]) -> str:
    numbers = sorted(int(x) for x in labels if x.isdigit())
    if not numbers:
        return ""
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        span = f"[{numbers[0]}]" if len(numbers) == 1 else f"[{numbers[0]}]–[{numbers[-1]}]"
        return f" (its entries are {span})"
    return f" ({len(numbers)} numbered entries, [{numbers[0]}] to [{numbers[-1]}])"


class DanglingMarkers:
    """``dangling-marker``: an in-text marker pointing to no entry of the report's own list.

    ``[12]`` when the list stops at ``[8]``, ``[^4]`` with no footnote 4, ``\\cite{key}``
    with no such entry. Only counted when the report labels its entries that way at all (a
    report with no numbered list has nothing for ``[3]`` to dangle from), and a bracketed
    year (``[2025]``) is a year. One finding per label, however often it is cited.
    """

    code: ClassVar[str] = "dangling-marker"
    severity: ClassVar[Severity] = ERROR
    description: ClassVar[str] = "In-text marker points to no entry of the report's list"
    help: ClassVar[str] = (
        "The report cites [n] (or [^n], \\cite{key}), but its own reference list has no such "
        "entry: the source it points at is not in the report, so no reader can check it."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        refs = ctx.references
        if refs is None:
            return
        labels = [w.work.label for w in ctx.works if w.work.label is not None]
        for label, markers in refs.dangling:
            first = markers[0]
            if first.kind == "footnote":
                what, where = f"[{label}]", "has no footnote definition"
            elif first.kind == "key":
                what, where = f"\\cite{{{label}}}", "names no entry of the report's bibliography"
            else:
                what = f"[{label}]"
                where = f"points to no entry of the report's reference list{_label_range(labels)}"
            times = f"; cited {len(markers)} times" if len(markers) > 1 else ""
            yield Finding(self.code, ERROR, f"marker {what} {where}{times}", first.citation(label))


def _returned_authors(evidence: EvidenceSet) -> set[tuple[str, int | None]] | None:
    """(first author's surname key, year) of every returned work with authors — the year None
    when the tool gave none, which any year matches — or None when no tool output gave any
    authors at all (nothing to check an author–year citation by)."""
    found: set[tuple[str, int | None]] = set()
    any_authors = False
    for call in evidence.calls:
        if call.excluded is not None:
            continue
        for work in call.works:
            if work.authors:
                any_authors = True
                found.add((surname_key(surname(work.authors[0])), work.year))
    return found if any_authors else None


def _titled_lines(ctx: AuditContext) -> dict[int, tuple[str, tuple[Work, ...]]]:
    """Lines of the report holding exactly one cited title that matched a returned title,
    with that title and the works returned under it: an author–year citation on such a line
    ("### BERTology Meets Biology (Vig et al., 2020)") names the authors of that work."""
    if ctx.titles is None:
        return {}
    found: dict[int, list[tuple[str, tuple[Work, ...]]]] = {}
    for g in ctx.title_citations:
        if g.matched_title is not None:
            works = ctx.titles.works_of(g.matched_title)
            if works:
                found.setdefault(g.citation.line, []).append((g.matched_title, works))
    return {line: pairs[0] for line, pairs in found.items() if len({t for t, _ in pairs}) == 1}


_Beside = Literal["none", "own", "unknown", "other"]


def _beside_title(
    m: Marker, lines: Mapping[int, tuple[str, tuple[Work, ...]]]
) -> tuple[_Beside, tuple[str, Work] | None]:
    """What the title on an author–year citation's line says about it: ``own`` when a work
    returned under that title has its first author; ``unknown`` when no tool gave that work's
    authors (cannot judge); ``other`` with (title, work) when the tools returned it with
    another first author; ``none`` when its line holds no such title."""
    entry = lines.get(m.line)
    if entry is None:
        return "none", None
    title, works = entry
    authored = [w for w in works if w.authors]
    if not authored:
        return "unknown", None
    key = surname_key(m.author)
    if any(surname_key(surname(w.authors[0])) == key for w in authored):
        return "own", None
    return "other", (title, authored[0])


class UnverifiedAuthorYear:
    """``unverified-author-year``: "Lewis et al. (2020)" matching no entry and no returned work.

    With a reference list, an author–year citation must match one of its entries (first
    author's surname and year). Without one, it must match a returned work by that first
    author, of that year when the tool gave one; written on the line of a cited title that
    matched a returned one, it must name *that* work's first author ("Sparse Autoencoders
    Uncover … (Adams et al., 2025)" for a paper the tools returned as Gujral et al.'s). A
    warning: names are spelled in many ways. A citation that could be anything followed by a
    year ("GPT-4 (2023)") is not checked at all.
    """

    code: ClassVar[str] = "unverified-author-year"
    severity: ClassVar[Severity] = WARNING
    description: ClassVar[str] = "Author–year citation matches no entry and no returned work"
    help: ClassVar[str] = (
        "An author–year citation in the text (Lewis et al., 2020) matches no entry of the "
        "report's reference list, or, when the report has none, no returned work with that "
        "first author and year."
    )

    def run(self, ctx: AuditContext) -> Iterator[Finding]:
        refs = ctx.references
        if refs is None or not refs.unresolved:
            return
        returned = None if refs.has_list else _returned_authors(ctx.evidence)
        if not refs.has_list and returned is None:
            return  # no tool output gave authors: nothing to check against (see the notes)
        lines = _titled_lines(ctx) if returned is not None else {}
        seen: dict[tuple[str, int | None], list[Marker]] = {}
        for m in refs.unresolved:
            relation, other = _beside_title(m, lines)
            if relation in ("own", "unknown"):
                continue  # the work titled on its line: its own authors, or none known
            if other is not None:
                title, work = other
                yield Finding(
                    self.code,
                    WARNING,
                    f"author–year citation {m.raw!r} is written beside {_quote(title)}, which "
                    f"the tools returned with first author {work.authors[0]}"
                    + (f" ({work.year})" if work.year is not None else ""),
                    m.citation(),
                )
                continue
            seen.setdefault((surname_key(m.author), m.year), []).append(m)
        for (key, year), markers in seen.items():
            first = markers[0]
            if returned is not None and year is not None and (
                (key, year) in returned or (key, None) in returned
            ):
                continue  # a returned work by that first author, in that year or undated
            where = (
                "matches no entry of the report's reference list"
                if refs.has_list
                else "matches no returned work with that first author and year"
            )
            times = f"; cited {len(markers)} times" if len(markers) > 1 else ""
            yield Finding(
                self.code,
                WARNING,
                f"author–year citation {first.raw!r} {where}{times}",
                first.citation(),
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
    DanglingMarkers(),
    UnverifiedAuthorYear(),
    UnverifiedQuotes(),
    MisattributedQuotes(),
)


def check_named(code: str, checks: tuple[Check, ...] = DEFAULT_CHECKS) -> Check | None:
    """The check that emits ``code`` (for SARIF rules and docs), or None."""
    return next((c for c in checks if c.code == code), None)
