"""The ``groundcheck`` command: ``audit``, ``extract``, ``extractors``.

Exit codes are a contract for CI: 0 the report passed, 1 findings at or above ``--fail-on``,
2 the command could not run (usage, unreadable or malformed input). Errors are one line on
stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundcheck.extractors import Registry

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line message, as the rest of the CLI does."""

    def error(self, message: str) -> Any:
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n(see '{self.prog} --help')\n")


def _build_parser() -> argparse.ArgumentParser:
    from groundcheck import __version__

    parser = _Parser(
        prog="groundcheck",
        description="Catch an AI agent citing sources its tools never returned.",
        epilog="exit status: 0 ok, 1 findings at or above --fail-on, 2 usage or input error",
    )
    parser.add_argument("--version", action="version", version=f"groundcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    common = _Parser(add_help=False)
    common.add_argument(
        "--extractor",
        action="append",
        metavar="NAME",
        dest="extractors",
        help="run only this extractor (repeatable; default all, see 'groundcheck extractors')",
    )
    common.add_argument(
        "--no-plugins",
        action="store_true",
        help="do not load extractors from installed plug-ins (entry points)",
    )

    a = sub.add_parser(
        "audit",
        parents=[common],
        help="check a report against what its tool calls returned",
        description="Check every identifier REPORT cites against the outputs of its tool calls.",
    )
    a.add_argument(
        "--format",
        choices=("text", "json", "sarif"),
        default="text",
        help="output format (default text; sarif for code-scanning dashboards)",
    )
    a.add_argument(
        "report",
        metavar="REPORT",
        nargs="?",
        help="the agent's report ('-' for stdin); optional with --trace",
    )
    a.add_argument(
        "--evidence",
        action="append",
        default=[],
        metavar="FILE",
        help="a trace or tool-call file, or a session folder, any supported format "
        "(repeatable: several files are one run)",
    )
    a.add_argument(
        "--trace",
        metavar="FILE",
        help="a trace holding the final answer too: audited alone when REPORT is not given",
    )
    a.add_argument(
        "--bibliography",
        action="append",
        default=[],
        metavar="FILE",
        help="the report's own reference list (e.g. a .bib file): its identifiers are "
        "citations too (repeatable)",
    )
    a.add_argument(
        "--evidence-format",
        metavar="NAME",
        help="read every --evidence/--trace file as this format instead of detecting it "
        "(see docs/formats.md)",
    )
    a.add_argument(
        "--fail-on",
        choices=("error", "warning"),
        default="error",
        help="lowest severity that makes the exit status 1 (default error)",
    )
    a.add_argument(
        "--long-report-chars",
        type=int,
        metavar="N",
        help="after only empty tool calls, warn about a report longer than N (default 500)",
    )
    a.add_argument(
        "--title-threshold",
        type=float,
        metavar="T",
        help="similarity (0-100] a cited title needs to a returned title (default 90)",
    )
    a.add_argument(
        "--unrecorded-severity",
        choices=("error", "warning"),
        help="severity of fabricated-id when the trace lost some outputs (default error)",
    )

    e = sub.add_parser(
        "extract",
        parents=[common],
        help="list the identifiers a file cites",
        description="List every identifier FILE cites, with line, column and raw text.",
    )
    e.add_argument("file", metavar="FILE", help="text to scan ('-' for stdin)")
    e.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )

    batch = _Parser(add_help=False)  # options shared by the commands that audit many runs
    batch.add_argument("--format", choices=("text", "json"), default="text")
    batch.add_argument(
        "--confidence", type=float, default=0.95, metavar="C", help="interval level (default 0.95)"
    )
    batch.add_argument("--workers", type=int, metavar="N", help="processes (default: all cores)")
    batch.add_argument("--no-plugins", action="store_true", help="skip installed plug-ins")

    r = sub.add_parser(
        "rate",
        parents=[batch],
        help="audit many runs and report the fabrication rate with an interval",
        description="Audit every run and pool the verdicts: runs flagged, the rate with a "
        "Wilson interval, per-citation rate, per-group rates, runs still needed for a target.",
    )
    r.add_argument(
        "runs",
        metavar="RUNS",
        nargs="+",
        help="run folders, folders of runs, globs, or a JSONL manifest "
        '({"run", "report", "evidence", "group"?, "task"?} per line)',
    )
    r.add_argument(
        "--target",
        type=float,
        default=0.01,
        metavar="P",
        help="upper bound to reach (default 0.01)",
    )
    r.add_argument("--plot", metavar="FILE", help="draw a forest plot to FILE (.png, .svg, .pdf)")
    r.add_argument(
        "--canary",
        action="store_true",
        help="also audit a copy of each report with an id no tool returned; all must be caught",
    )

    c = sub.add_parser(
        "compare",
        parents=[batch],
        help="compare two agents run on the same tasks (paired)",
        description="Pair runs of A and B by task id (manifest 'task', else the run id) and "
        "report the difference in rates with Newcombe's interval and the exact McNemar test.",
    )
    c.add_argument("a", metavar="A", help="runs of agent A (folder, glob or manifest)")
    c.add_argument("b", metavar="B", help="runs of agent B")

    led = sub.add_parser(
        "ledger",
        help="inspect or audit an evidence ledger (tool calls recorded live)",
        description="Show the runs of an evidence ledger, or audit a report against one run.",
    )
    led_sub = led.add_subparsers(dest="ledger_command", metavar="ACTION", parser_class=_Parser)
    led_sub.required = True
    show = led_sub.add_parser("show", help="runs with their calls and returned identifiers")
    show.add_argument("db", metavar="DB")
    show.add_argument("--run", metavar="NAME", help="only this run")
    show.add_argument("--format", choices=("text", "json"), default="text")
    laud = led_sub.add_parser(
        "audit", help="audit a report against a run's recorded calls (exit codes as audit)"
    )
    laud.add_argument("db", metavar="DB")
    laud.add_argument("report", metavar="REPORT", help="the report ('-' for stdin)")
    laud.add_argument("--run", metavar="NAME", help="the run (default: 'default')")
    laud.add_argument("--format", choices=("text", "json"), default="text")
    laud.add_argument("--fail-on", choices=("error", "warning"), default="error")
    laud.add_argument("--title-threshold", type=float, metavar="T")

    x = sub.add_parser(
        "extractors",
        help="list the registered extractors",
        description="List registered extractors: name, where it comes from, what it finds.",
    )
    x.add_argument("--format", choices=("text", "json"), default="text")
    x.add_argument("--no-plugins", action="store_true", help="skip installed plug-ins")
    return parser


def _registry(no_plugins: bool) -> Registry:
    from groundcheck.extractors import default_registry

    registry = default_registry()
    if not no_plugins:
        registry = registry.copy()
        registry.discover()
    return registry


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _cmd_audit(args: argparse.Namespace) -> int:
    from groundcheck.auditor import Auditor, Policy
    from groundcheck.errors import InputError
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.evidence.load import load_evidence
    from groundcheck.model import EvidenceSet
    from groundcheck.render import verdict_text

    if args.report is None and args.trace is None:
        raise InputError("give a REPORT (with --evidence) or a --trace that holds the report")
    if args.trace is None and not args.evidence:
        raise InputError("no evidence: pass --evidence FILE (or --trace FILE)")

    options: dict[str, Any] = {"extractors": args.extractors}
    if args.long_report_chars is not None:
        options["long_report_chars"] = args.long_report_chars
    if args.unrecorded_severity is not None:
        options["unrecorded_severity"] = args.unrecorded_severity
    if args.title_threshold is not None:
        options["title_threshold"] = args.title_threshold
    auditor = Auditor(Policy(**options), registry=_registry(args.no_plugins))
    sources = [*([args.trace] if args.trace else []), *args.evidence]
    traces = [
        load_evidence(path, format=args.evidence_format, extractors=auditor.extractors)
        for path in sources
    ]
    if args.report is not None:
        report = read_text(args.report)
        name = "<stdin>" if args.report == "-" else args.report
    else:
        trace = traces[0]
        if trace.report is None:
            raise InputError(
                "the trace holds no final answer to audit; pass the report as REPORT",
                source=args.trace,
            )
        report = trace.report
        # Lines and columns count within the final answer, not the trace file: say so.
        name = trace.report_path or f"{args.trace} (final answer)"
    evidence = EvidenceSet.merge(t.evidence for t in traces)
    bibliography = {path: read_text(path) for path in args.bibliography}
    verdict = auditor.audit(report, evidence, bibliography=bibliography or None)
    if args.format == "sarif":
        from groundcheck import __version__
        from groundcheck.render import verdict_sarif

        _write(verdict_sarif(verdict, name, __version__))
    else:
        _write(verdict.to_json() if args.format == "json" else verdict_text(verdict, name))
    return EXIT_FINDINGS if verdict.fails(args.fail_on) else EXIT_OK


def _cmd_extract(args: argparse.Namespace) -> int:
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.extractors import extract
    from groundcheck.render import citations_json, citations_text

    registry = _registry(args.no_plugins)
    citations = extract(read_text(args.file), extractors=registry.select(args.extractors))
    name = "<stdin>" if args.file == "-" else args.file
    _write(citations_json(citations) if args.format == "json" else citations_text(citations, name))
    return EXIT_OK


def _cmd_extractors(args: argparse.Namespace) -> int:
    from groundcheck.model import dumps

    registry = _registry(args.no_plugins)
    rows = [
        {"name": ex.name, "source": registry.source(ex.name), "description": ex.description}
        for ex in registry
    ]
    if args.format == "json":
        _write(dumps(rows))
        return EXIT_OK
    width = max(len(r["name"]) for r in rows) if rows else 4
    src_width = max(len(r["source"]) for r in rows) if rows else 6
    lines = [f"{r['name']:<{width}}  {r['source']:<{src_width}}  {r['description']}" for r in rows]
    _write("\n".join(lines) + "\n")
    return EXIT_OK


def _check_level(value: float, name: str) -> None:
    from groundcheck.errors import ConfigError

    if not 0 < value < 1:
        raise ConfigError(f"{name} must be between 0 and 1 (a proportion), got {value}")


def _check_workers(workers: int | None) -> None:
    from groundcheck.errors import ConfigError

    if workers is not None and workers < 1:
        raise ConfigError(f"--workers must be 1 or more, got {workers}")


def _cmd_rate(args: argparse.Namespace) -> int:
    from groundcheck.batch import TerminalProgress, audit_runs, discover_runs, rate_text, summarize
    from groundcheck.model import dumps

    _check_level(args.target, "--target")
    _check_level(args.confidence, "--confidence")
    _check_workers(args.workers)
    specs, notes = discover_runs(args.runs)
    results = audit_runs(
        specs,
        options={"no_plugins": args.no_plugins},
        canary=args.canary,
        workers=args.workers,
        progress=TerminalProgress("auditing"),
    )
    report = summarize(results, notes, target=args.target, confidence=args.confidence)
    _write(dumps(report.to_dict()) if args.format == "json" else rate_text(report))
    if report.overall.runs == 0:
        sys.stderr.write("groundcheck: error: no run could be audited; nothing was measured\n")
        return EXIT_ERROR
    if args.canary and report.canary_caught < report.canary_runs:
        missed = report.canary_runs - report.canary_caught
        sys.stderr.write(
            f"groundcheck: error: CANARY NOT CAUGHT in {missed} of {report.canary_runs} runs: "
            "an id no tool returned went unreported, so these rates cannot be trusted\n"
        )
        return EXIT_ERROR
    if args.plot:
        from groundcheck.plot import forest_plot

        forest_plot(report, args.plot)
        sys.stderr.write(f"plot written to {args.plot}\n")
    return EXIT_OK


def _cmd_compare(args: argparse.Namespace) -> int:
    from groundcheck.batch import TerminalProgress, audit_runs, discover_runs
    from groundcheck.model import dumps
    from groundcheck.stats import paired_comparison

    _check_level(args.confidence, "--confidence")
    _check_workers(args.workers)
    sides = []
    notes: list[str] = []
    for label, source in (("A", args.a), ("B", args.b)):
        specs, found_notes = discover_runs([source])
        notes += [f"{label}: {n}" for n in found_notes]
        results = audit_runs(
            specs,
            options={"no_plugins": args.no_plugins},
            workers=args.workers,
            progress=TerminalProgress(f"auditing {label}"),
        )
        by_task: dict[str, bool] = {}
        for res in results:
            key = res.task or res.run
            if not res.readable:
                notes.append(f"{label}: unreadable run {res.run}: {res.problem}")
            elif key in by_task:
                notes.append(f"{label}: duplicate task {key!r}: kept the first")
            else:
                by_task[key] = res.flagged
        sides.append(by_task)
    a, b = sides
    tasks = sorted(set(a) & set(b))
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    if only_a:
        notes.append(f"{len(only_a)} task(s) only in A, left out: {', '.join(only_a[:10])}")
    if only_b:
        notes.append(f"{len(only_b)} task(s) only in B, left out: {', '.join(only_b[:10])}")
    result = paired_comparison([a[t] for t in tasks], [b[t] for t in tasks], args.confidence)
    n = result.pairs
    if args.format == "json":
        data = {"schema": "groundcheck.compare/1", **result.to_dict(), "notes": notes}
        _write(dumps(data))
    else:
        d = result.difference
        rate_a = (result.both + result.only_a) / n if n else 0.0
        rate_b = (result.both + result.only_b) / n if n else 0.0
        lines = [
            f"tasks paired: {n}",
            f"A flagged {result.both + result.only_a} ({rate_a:.1%}), "
            f"B flagged {result.both + result.only_b} ({rate_b:.1%})",
            f"discordant: {result.only_a} only A, {result.only_b} only B; "
            f"both {result.both}, neither {result.neither}",
            f"difference A − B: {d.estimate * 100:+.1f} points "
            f"({d.confidence:.0%} Newcombe CI {d.low * 100:+.1f} to {d.high * 100:+.1f})",
            f"exact McNemar test: p = {result.p_value:.4g}",
        ]
        lines += [f"note: {note}" for note in notes]
        _write("\n".join(lines) + "\n")
    if n == 0:
        sys.stderr.write("groundcheck: error: no task was audited on both sides\n")
        return EXIT_ERROR
    return EXIT_OK


def _cmd_ledger(args: argparse.Namespace) -> int:
    from groundcheck.errors import InputError
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.ledger import Ledger
    from groundcheck.model import dumps
    from groundcheck.render import verdict_text

    if not Path(args.db).is_file():
        raise InputError("no such ledger file", source=args.db)
    ledger = Ledger(args.db)
    if args.ledger_command == "show":
        runs = ledger.summary(args.run)
        if args.format == "json":
            _write(dumps({"schema": "groundcheck.ledger/1", "runs": runs}))
            return EXIT_OK
        lines = []
        for run in runs:
            lines.append(
                f"run {run['run']}: {len(run['calls'])} calls, {len(run['citations'])} citations"
            )
            for call in run["calls"]:
                flag = " FAILED" if call["error"] else ""
                returned = ", ".join(call["returned"]) or "no identifiers"
                lines.append(f"  {call['call']} {call['tool']}{flag}: {returned}")
            for cited in run["citations"]:
                lines.append(f"  cited {cited}")
        _write("\n".join(lines) + "\n")
        return EXIT_OK
    report = read_text(args.report)
    options: dict[str, Any] = {}
    if args.title_threshold is not None:
        options["title_threshold"] = args.title_threshold
    verdict = ledger.audit(report, run=args.run or "default", **options)
    name = "<stdin>" if args.report == "-" else args.report
    _write(verdict.to_json() if args.format == "json" else verdict_text(verdict, name))
    return EXIT_FINDINGS if verdict.fails(args.fail_on) else EXIT_OK


_COMMANDS = {
    "ledger": _cmd_ledger,
    "audit": _cmd_audit,
    "extract": _cmd_extract,
    "extractors": _cmd_extractors,
    "rate": _cmd_rate,
    "compare": _cmd_compare,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (the console script passes it to ``sys.exit``)."""
    args = _build_parser().parse_args(argv)
    from groundcheck.errors import GroundcheckError

    try:
        return _COMMANDS[args.command](args)
    except GroundcheckError as exc:
        sys.stderr.write(f"groundcheck: error: {exc}\n")
        return EXIT_ERROR
    except BrokenPipeError:
        sys.stderr.close()  # output cut off by `| head`: not an error worth a traceback
        return EXIT_OK
    except KeyboardInterrupt:
        sys.stderr.write("groundcheck: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
