"""``audit()`` and :class:`Auditor`: extract citations, ground them in evidence, run the checks.

The entry point users call. It composes the stages below it and decides nothing itself: the
policy says what to tolerate, the checks say what is wrong, the verdict records it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from os import PathLike
from types import MappingProxyType
from typing import Any

from attrs import evolve, field, fields, frozen

from groundcheck.checks import DEFAULT_CHECKS, AuditContext, Check
from groundcheck.collector import collection_paused
from groundcheck.document import Document, WorkSet, build_works
from groundcheck.errors import ConfigError, InputError
from groundcheck.evidence.bibtex import bibtex_problems
from groundcheck.evidence.native import from_tool_calls
from groundcheck.extractors import Extractor, Registry, extract
from groundcheck.extractors.pipeline import resolve_extractors
from groundcheck.extractors.registry import scheme_table
from groundcheck.grounding import EvidenceTitles, ground, ground_works
from groundcheck.grounding.ground import NOT_CITATIONS
from groundcheck.grounding.quotes import check_quotes, not_title_candidates, report_quotes
from groundcheck.grounding.url_policy import allow_urls, url_severity
from groundcheck.model import ERROR, WARNING, Citation, EvidenceSet, Finding, Severity, Verdict

__all__ = ["Auditor", "FileAudit", "Policy", "audit"]


def _check_chars(instance: object, attribute: Any, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{attribute.name} must be a whole number >= 0, got {value!r}")


def _check_names(instance: object, attribute: Any, value: tuple[str, ...] | None) -> None:
    if value is None:
        return
    if not value or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{attribute.name} must be None or a non-empty list of names")


def _check_threshold(instance: object, attribute: Any, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 100:
        raise ConfigError(f"{attribute.name} must be a number in (0, 100], got {value!r}")


def _check_severity(instance: object, attribute: Any, value: str) -> None:
    if value not in (ERROR, WARNING):
        raise ConfigError(f"{attribute.name} must be 'error' or 'warning', got {value!r}")


def _check_words(instance: object, attribute: Any, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{attribute.name} must be a whole number >= 1, got {value!r}")


def _check_input_limit(instance: object, attribute: Any, value: int | None) -> None:
    if value is not None:
        from groundcheck.evidence.jsonio import check_input_limit

        check_input_limit(value)


def _check_allowed_urls(instance: object, attribute: Any, value: tuple[str, ...]) -> None:
    from groundcheck.grounding.url_policy import UrlAllowList

    UrlAllowList.of(value)  # a ConfigError naming the entry that is neither host nor URL


def _url_list(value: Iterable[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(value)


def _names(value: Iterable[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    return tuple(value)


@frozen
class Policy:
    """What an audit tolerates. Every field can also be passed to ``audit()`` as a keyword.

    - ``long_report_chars``: when every tool call came back empty, a report that cites nothing
      but is longer than this (stripped) draws an ``empty-evidence-report`` warning.
    - ``extractors``: names of the extractors to run (default: all registered).
    - ``unrecorded_severity``: severity of ``fabricated-id`` when some tool outputs were not
      recorded by the trace; ``"warning"`` accepts that the gap may hold the source.
    - ``title_threshold``: similarity (0-100, normalised Levenshtein) a cited title needs to a
      returned title to count as the same; see docs/titles.md for how 90 was chosen.
    - ``url_severity``: severity of ``fabricated-id`` on a plain web URL (``"warning"`` to roll
      the URL check out gently; identifier URLs such as doi.org stay errors).
    - ``allowed_urls``: hosts (``github.com``, ``*.example.org``) and URL prefixes
      (``https://github.com/org/repo``) a report may cite without a tool returning them;
      compared on the canonical URL key. See docs/evidence.md.
    - ``quote_min_words``: a quoted passage needs this many words to be checked as a source's
      verbatim words (shorter ones are scare quotes and terms). See docs/quotes.md.
    - ``max_input_bytes``: the most bytes any one file may hold when the audit reads files
      (``audit_files``, batches); None is the loader's default, 512 MiB
      (``groundcheck.evidence.jsonio.MAX_INPUT_BYTES``). See docs/security.md.

    >>> strict = Policy(title_threshold=95)
    >>> strict.with_options(unrecorded_severity="warning").unrecorded_severity
    'warning'
    >>> Policy(title_threshold=0)
    Traceback (most recent call last):
    groundcheck.errors.ConfigError: title_threshold must be a number in (0, 100], got 0
    """

    long_report_chars: int = field(default=500, validator=_check_chars)
    extractors: tuple[str, ...] | None = field(
        default=None, converter=_names, validator=_check_names
    )
    unrecorded_severity: Severity = field(default=ERROR, validator=_check_severity)
    title_threshold: float = field(default=90.0, validator=_check_threshold)
    url_severity: Severity = field(default=ERROR, validator=_check_severity)
    allowed_urls: tuple[str, ...] = field(
        default=(), converter=_url_list, validator=_check_allowed_urls
    )
    quote_min_words: int = field(default=6, validator=_check_words)
    max_input_bytes: int | None = field(default=None, validator=_check_input_limit)

    def with_options(self, **options: Any) -> Policy:
        """A copy with some fields changed; an unknown option is a :class:`ConfigError`."""
        known = {f.name for f in fields(Policy)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ConfigError(
                f"unknown audit option(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        return evolve(self, **options)


class Auditor:
    """A reusable audit configuration: policy, registry and checks, resolved once."""

    def __init__(
        self,
        policy: Policy | None = None,
        *,
        registry: Registry | None = None,
        checks: Sequence[Check] = DEFAULT_CHECKS,
    ) -> None:
        self.policy = policy or Policy()
        self.registry = registry
        self.checks = tuple(checks)
        self.extractors: tuple[Extractor, ...] = resolve_extractors(
            registry, self.policy.extractors
        )
        self.schemes = MappingProxyType(scheme_table(self.extractors))

    def evidence(
        self, tool_calls: EvidenceSet | Iterable[Any] | str | PathLike[str]
    ) -> EvidenceSet:
        """Native records, an evidence set, or the path of any trace :func:`load_evidence` reads."""
        if isinstance(tool_calls, (str, PathLike)):
            from groundcheck.evidence.load import load_evidence

            return load_evidence(tool_calls, extractors=self.extractors).evidence
        return from_tool_calls(tool_calls, extractors=self.extractors)

    def audit(
        self,
        report: str,
        tool_calls: EvidenceSet | Iterable[Any] | str | PathLike[str],
        *,
        bibliography: str | Mapping[str, str] | None = None,
    ) -> Verdict:
        """Judge ``report`` against what ``tool_calls`` returned. Never raises on a finding.

        ``bibliography`` is the report's own reference list kept apart from it (a ``.bib``
        file, say): its text, or ``{name: text}`` for several. Every identifier in it is a
        citation like those in the report, located by ``source``, line and column.
        """
        if not isinstance(report, str):
            raise InputError(f"the report must be text (str), got {type(report).__name__}")
        # The cyclic collector is paused for the audit, as it is for reading a trace (see
        # groundcheck.collector): an audit makes tens of thousands of small objects and
        # no cycle that must be freed before it ends, and each pass the collector made over
        # them also walked every object of the evidence just read (young, so walked by the
        # first pass of each generation in turn: ~18 ms of an audit at scale, a pass that now
        # runs once, after the audit).
        with collection_paused():
            return self._audit(report, self.evidence(tool_calls), bibliography)

    def _audit(
        self,
        report: str,
        evidence: EvidenceSet,
        bibliography: str | Mapping[str, str] | None,
    ) -> Verdict:
        citations = extract(report, extractors=self.extractors)
        document = Document.parse(report, _id_spans(citations))
        notes: list[str] = []
        files: dict[str, tuple[Document, tuple[Citation, ...]]] = {}
        for name, text in _bibliographies(bibliography):
            found = extract(text, extractors=self.extractors, source=name)
            files[name] = (Document.parse(text, _id_spans(found)), found)
            citations += found
            notes.extend(bibtex_problems(text, name))
        citations = allow_urls(citations, self.policy.allowed_urls)
        titles = EvidenceTitles(evidence) if any(c.is_title for c in citations) else None
        threshold = self.policy.title_threshold
        passages = report_quotes(report, self.policy.quote_min_words)
        # A quoted sentence stays a title only when a tool returned it as a work's title (in
        # a record, beside an id): a page that quotes the same words returned a quote.
        citations = not_title_candidates(
            citations,
            passages,
            lambda t: titles is not None and bool(titles.which_work(t, threshold)),
        )
        # A URL in code, an API endpoint: written, but not cited (see NOT_CITATIONS).
        works = build_works(document, [c for c in citations if c.kind not in NOT_CITATIONS], files)
        groundings = ground(citations, evidence, titles, threshold, works.cited_titles)
        grounded_works = ground_works(works, groundings)
        quotes = check_quotes(report, citations, groundings, evidence, passages=passages)
        ctx = AuditContext(
            report=report,
            citations=groundings,
            evidence=evidence,
            long_report_chars=self.policy.long_report_chars,
            unrecorded_severity=self.policy.unrecorded_severity,
            title_threshold=threshold,
            titles=titles,
            schemes=self.schemes,
            works=grounded_works,
            references=works,
            quotes=quotes,
        )
        findings: list[Finding] = []
        for check in self.checks:
            findings.extend(check.run(ctx))
        findings = url_severity(findings, self.policy.url_severity)
        findings.sort(key=Finding.sort_key)
        notes.extend(works.notes)
        unchecked = _unchecked_author_years(works, evidence)
        if unchecked:
            notes.append(unchecked)
        return Verdict(
            tuple(findings), groundings, evidence, ctx.report_chars, notes, grounded_works
        )


def _unchecked_author_years(works: WorkSet, evidence: EvidenceSet) -> str | None:
    """A note when author–year citations cannot be judged: no list to resolve them in, and
    no tool output that gave authors (see the unverified-author-year check)."""
    if not works.unresolved or works.has_list:
        return None
    if any(w.authors for c in evidence.calls if c.excluded is None for w in c.works):
        return None
    n = len({(m.author, m.year) for m in works.unresolved})
    what = "citation" if n == 1 else "citations"
    return (
        f"{n} author–year {what} could not be checked: the report has no reference list and "
        "no tool output gave authors and years"
    )


def _id_spans(citations: Sequence[Citation]) -> list[tuple[int, int]]:
    return [(c.start, c.end) for c in citations if not c.is_title]


@frozen
class FileAudit:
    """A verdict on a report read from files, and the name its findings are located under."""

    verdict: Verdict
    report_name: str
    report: str = ""
    """The text audited (the HTML renderer shows it with its citations highlighted)."""


def audit_files(
    auditor: Auditor,
    report: str | None,
    evidence: Sequence[str] = (),
    *,
    trace: str | None = None,
    bibliography: Sequence[str] = (),
    evidence_format: str | None = None,
    sample: str | None = None,
) -> FileAudit:
    """Audit a report file (``-``: stdin) against trace files, as ``groundcheck audit`` does.

    ``trace`` is a trace that also holds the final answer: without ``report``, that answer is
    audited, and its findings are located in the trace's report file when it has one. All the
    files are one run (:func:`~groundcheck.evidence.load.load_run`): a file the agent wrote in
    one of them and read back in another is not evidence. ``sample`` picks the sample of an
    inspect-ai log (``id`` or ``id:epoch``).
    """
    from groundcheck.evidence.jsonio import limited_input

    with limited_input(auditor.policy.max_input_bytes):
        return _audit_files(auditor, report, evidence, trace, bibliography, evidence_format, sample)


def _audit_files(  # noqa: PLR0917 - the parameters of audit_files, passed on
    auditor: Auditor,
    report: str | None,
    evidence: Sequence[str],
    trace: str | None,
    bibliography: Sequence[str],
    evidence_format: str | None,
    sample: str | None,
) -> FileAudit:
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.evidence.load import load_run

    if report is None and trace is None:
        raise InputError("give a REPORT (with --evidence) or a --trace that holds the report")
    if trace is None and not evidence:
        raise InputError("no evidence: pass --evidence FILE (or --trace FILE)")
    sources = [*([trace] if trace else []), *evidence]
    run = load_run(sources, format=evidence_format, extractors=auditor.extractors, sample=sample)
    if report is not None:
        text = read_text(report)
        name = "<stdin>" if report == "-" else report
    else:
        first = run
        if first.report is None:
            raise InputError(
                "the trace holds no final answer to audit; pass the report as REPORT",
                source=trace,
            )
        text = first.report
        # Lines and columns count within the final answer, not the trace file: say so.
        name = first.report_path or f"{trace} (final answer)"
    bibliographies = {path: read_text(path) for path in bibliography}
    verdict = auditor.audit(text, run.evidence, bibliography=bibliographies or None)
    return FileAudit(verdict, name, text)


def _bibliographies(value: str | Mapping[str, str] | None) -> list[tuple[str, str]]:
    if value is None:
        return []
    if isinstance(value, str):
        return [("bibliography", value)]
    if isinstance(value, Mapping) and all(isinstance(v, str) for v in value.values()):
        return [(str(k), v) for k, v in value.items()]
    raise InputError("bibliography must be text or a mapping of name to text")


def audit(
    report: str,
    tool_calls: EvidenceSet | Iterable[Any] | str | PathLike[str],
    *,
    bibliography: str | Mapping[str, str] | None = None,
    policy: Policy | None = None,
    registry: Registry | None = None,
    **options: Any,
) -> Verdict:
    """Audit one report against the tool calls of its run.

    ``tool_calls`` is a list of native records (``{"tool", "input", "output"}``) or an
    :class:`EvidenceSet` from a loader. Keyword ``options`` override fields of ``policy``
    (``long_report_chars=800``). Returns a :class:`Verdict`; call
    ``verdict.raise_for_status()`` to turn an error finding into an exception.

    >>> calls = [{"tool": "search", "input": "rag", "output": "2005.11401 RAG"}]
    >>> verdict = audit("RAG (arXiv:2005.11401v2) beats DPR (arXiv:2004.04906).", calls)
    >>> verdict.ok, [(f.code, f.citation.raw) for f in verdict.findings]
    (False, [('fabricated-id', '2004.04906')])
    """
    chosen = (policy or Policy()).with_options(**options) if options else (policy or Policy())
    return Auditor(chosen, registry=registry).audit(report, tool_calls, bibliography=bibliography)
