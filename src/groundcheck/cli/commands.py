"""The commands, one pair of functions each: ``declare_X`` adds its options, ``run_X`` is
parse → one library call → render → exit code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from attrs import frozen

from groundcheck.cli.options import (
    add_batch,
    add_extractors,
    add_fail_on,
    add_format,
    add_plugins,
    add_policy,
    policy_options,
)

if TYPE_CHECKING:
    from groundcheck.extractors import Registry

__all__ = ["COMMANDS", "EXIT_ERROR", "EXIT_FINDINGS", "EXIT_OK", "Command"]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@frozen
class Command:
    name: str
    help: str
    description: str
    declare: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _fail(message: str) -> None:
    sys.stderr.write(f"groundcheck: error: {message}\n")


def _registry(no_plugins: bool) -> Registry:
    from groundcheck.extractors import default_registry

    registry = default_registry()
    if not no_plugins:
        registry = registry.copy()
        registry.discover()
    return registry


def _render(kind: str, fmt: str, value: Any, path: str = "report") -> str:
    from groundcheck import __version__
    from groundcheck.render import RenderContext, render

    return render(kind, fmt, value, RenderContext(path=path, version=__version__))


def _check_level(value: float, name: str) -> None:
    from groundcheck.errors import ConfigError

    if not 0 < value < 1:
        raise ConfigError(f"{name} must be between 0 and 1 (a proportion), got {value}")


def _check_workers(workers: int | None) -> None:
    from groundcheck.errors import ConfigError

    if workers is not None and workers < 1:
        raise ConfigError(f"--workers must be 1 or more, got {workers}")


def _batch_options(args: argparse.Namespace) -> dict[str, Any]:
    return {**policy_options(args), "no_plugins": args.no_plugins}


# -- audit -------------------------------------------------------------------------------------


def declare_audit(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "report",
        metavar="REPORT",
        nargs="?",
        help="the agent's report ('-' for stdin); optional with --trace",
    )
    p.add_argument(
        "--evidence",
        action="append",
        default=[],
        metavar="FILE",
        help="a trace or tool-call file, or a session folder, any supported format "
        "(repeatable: several files are one run)",
    )
    p.add_argument(
        "--trace",
        metavar="FILE",
        help="a trace holding the final answer too: audited alone when REPORT is not given",
    )
    p.add_argument(
        "--bibliography",
        action="append",
        default=[],
        metavar="FILE",
        help="the report's own reference list (e.g. a .bib file): its identifiers are "
        "citations too (repeatable)",
    )
    p.add_argument(
        "--evidence-format",
        metavar="NAME",
        help="read every --evidence/--trace file as this format instead of detecting it: any "
        "format name in docs/formats.md, or 'records' for a file that is what the tools "
        "returned (an export of papers or citations, not a trace)",
    )
    p.add_argument(
        "--sample",
        metavar="ID",
        help="the sample of an inspect-ai log to audit (ID, or ID:EPOCH when it ran several "
        "epochs): its final completion against its tool messages",
    )
    add_format(p, "verdict", "; sarif for code-scanning dashboards")
    add_fail_on(p)
    add_policy(p)


def run_audit(args: argparse.Namespace) -> int:
    from groundcheck.auditor import Auditor, Policy, audit_files

    auditor = Auditor(Policy(**policy_options(args)), registry=_registry(args.no_plugins))
    result = audit_files(
        auditor,
        args.report,
        args.evidence,
        trace=args.trace,
        bibliography=args.bibliography,
        evidence_format=args.evidence_format,
        sample=args.sample,
    )
    _write(_render("verdict", args.format, result.verdict, result.report_name))
    return EXIT_FINDINGS if result.verdict.fails(args.fail_on) else EXIT_OK


# -- extract, extractors -----------------------------------------------------------------------


def declare_extract(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="text to scan ('-' for stdin)")
    add_format(p, "citations")
    add_extractors(p)
    add_plugins(p)


def run_extract(args: argparse.Namespace) -> int:
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.extractors import extract

    registry = _registry(args.no_plugins)
    citations = extract(read_text(args.file), extractors=registry.select(args.extractors))
    name = "<stdin>" if args.file == "-" else args.file
    _write(_render("citations", args.format, citations, name))
    return EXIT_OK


def declare_extractors(p: argparse.ArgumentParser) -> None:
    add_format(p, "extractors")
    add_plugins(p)


def run_extractors(args: argparse.Namespace) -> int:
    registry = _registry(args.no_plugins)
    rows = [
        {"name": ex.name, "source": registry.source(ex.name), "description": ex.description}
        for ex in registry
    ]
    _write(_render("extractors", args.format, rows))
    return EXIT_OK


# -- rate, compare -----------------------------------------------------------------------------


def declare_rate(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "runs",
        metavar="RUNS",
        nargs="+",
        help="run folders, folders of runs, globs, or a JSONL manifest "
        '({"run", "report", "evidence", "group"?, "task"?} per line)',
    )
    p.add_argument(
        "--target",
        type=float,
        default=0.01,
        metavar="P",
        help="upper bound to reach (default 0.01)",
    )
    p.add_argument("--plot", metavar="FILE", help="draw a forest plot to FILE (.png, .svg, .pdf)")
    p.add_argument(
        "--canary",
        action="store_true",
        help="also audit a copy of each report with an id no tool returned; all must be caught",
    )
    add_batch(p, "rate")


def run_rate(args: argparse.Namespace) -> int:
    from groundcheck.batch import rate
    from groundcheck.cli.progress import progress_for

    _check_level(args.target, "--target")
    _check_level(args.confidence, "--confidence")
    _check_workers(args.workers)
    report = rate(
        args.runs,
        options=_batch_options(args),
        target=args.target,
        confidence=args.confidence,
        canary=args.canary,
        workers=args.workers,
        progress=progress_for,
    )
    _write(_render("rate", args.format, report))
    if report.overall.runs == 0:
        _fail("no run could be audited; nothing was measured")
        return EXIT_ERROR
    if args.canary and report.canary_caught < report.canary_runs:
        missed = report.canary_runs - report.canary_caught
        _fail(
            f"CANARY NOT CAUGHT in {missed} of {report.canary_runs} runs: "
            "an id no tool returned went unreported, so these rates cannot be trusted"
        )
        return EXIT_ERROR
    if args.plot:
        from groundcheck.render.plot import forest_plot

        forest_plot(report, args.plot)
        sys.stderr.write(f"plot written to {args.plot}\n")
    return EXIT_OK


def declare_compare(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A", help="runs of agent A (folder, glob or manifest)")
    p.add_argument("b", metavar="B", help="runs of agent B")
    add_batch(p, "compare")


def run_compare(args: argparse.Namespace) -> int:
    from groundcheck.batch import compare
    from groundcheck.cli.progress import progress_for

    _check_level(args.confidence, "--confidence")
    _check_workers(args.workers)
    report = compare(
        args.a,
        args.b,
        options=_batch_options(args),
        confidence=args.confidence,
        workers=args.workers,
        progress=progress_for,
    )
    _write(_render("compare", args.format, report))
    if report.result.pairs == 0:
        _fail("no task was audited on both sides")
        return EXIT_ERROR
    return EXIT_OK


# -- ledger ------------------------------------------------------------------------------------


def declare_ledger(p: argparse.ArgumentParser) -> None:
    from groundcheck.cli.parser import Parser

    actions = p.add_subparsers(dest="ledger_command", metavar="ACTION", parser_class=Parser)
    actions.required = True
    show = actions.add_parser("show", help="runs with their calls and returned identifiers")
    show.add_argument("db", metavar="DB")
    show.add_argument("--run", metavar="NAME", help="only this run")
    add_format(show, "ledger")
    audit = actions.add_parser(
        "audit", help="audit a report against a run's recorded calls (exit codes as audit)"
    )
    audit.add_argument("db", metavar="DB")
    audit.add_argument("report", metavar="REPORT", help="the report ('-' for stdin)")
    audit.add_argument("--run", metavar="NAME", help="the run (default: 'default')")
    add_format(audit, "verdict")
    add_fail_on(audit)
    add_policy(audit)


def run_ledger(args: argparse.Namespace) -> int:
    from pathlib import Path

    from groundcheck.errors import InputError
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.ledger import Ledger

    if not Path(args.db).is_file():
        raise InputError("no such ledger file", source=args.db)
    ledger = Ledger(args.db)
    if args.ledger_command == "show":
        runs = ledger.summary(args.run)
        _write(_render("ledger", args.format, {"schema": "groundcheck.ledger/1", "runs": runs}))
        return EXIT_OK
    report = read_text(args.report)
    verdict = ledger.audit(report, run=args.run or "default", **policy_options(args))
    name = "<stdin>" if args.report == "-" else args.report
    _write(_render("verdict", args.format, verdict, name))
    return EXIT_FINDINGS if verdict.fails(args.fail_on) else EXIT_OK


COMMANDS = (
    Command(
        "audit",
        "check a report against what its tool calls returned",
        "Check every identifier REPORT cites against the outputs of its tool calls.",
        declare_audit,
        run_audit,
    ),
    Command(
        "extract",
        "list the identifiers a file cites",
        "List every identifier FILE cites, with line, column and raw text.",
        declare_extract,
        run_extract,
    ),
    Command(
        "rate",
        "audit many runs and report the fabrication rate with an interval",
        "Audit every run and pool the verdicts: runs flagged, the rate with a Wilson interval, "
        "per-citation rate, per-group rates, runs still needed for a target.",
        declare_rate,
        run_rate,
    ),
    Command(
        "compare",
        "compare two agents run on the same tasks (paired)",
        "Pair runs of A and B by task id (manifest 'task', else the run id) and report the "
        "difference in rates with Newcombe's interval and the exact McNemar test.",
        declare_compare,
        run_compare,
    ),
    Command(
        "ledger",
        "inspect or audit an evidence ledger (tool calls recorded live)",
        "Show the runs of an evidence ledger, or audit a report against one run.",
        declare_ledger,
        run_ledger,
    ),
    Command(
        "extractors",
        "list the registered extractors",
        "List registered extractors: name, where it comes from, what it finds.",
        declare_extractors,
        run_extractors,
    ),
)
