"""The commands, one pair of functions each: ``declare_X`` adds its options, ``run_X`` is
parse → one library call → render → exit code."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from attrs import frozen

from groundcheck.cli import terminal
from groundcheck.cli.options import (
    add_batch,
    add_extractors,
    add_fail_on,
    add_format,
    add_input_limit,
    add_locations,
    add_plugins,
    add_policy,
    policy_options,
)

if TYPE_CHECKING:
    from groundcheck.extractors import Registry
    from groundcheck.render import RenderContext

__all__ = [
    "COMMANDS",
    "EXIT_ERROR",
    "EXIT_FINDINGS",
    "EXIT_INCONCLUSIVE",
    "EXIT_OK",
    "Command",
    "render_error",
]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INCONCLUSIVE = 3
"""``rate --max-rate`` and ``compare --max-difference``: the interval straddles the maximum."""


@frozen
class Command:
    name: str
    help: str
    description: str
    declare: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


_write = terminal.write
_fail = terminal.error

MACHINE_FORMATS = ("sarif", "github")
"""Formats whose file names must be real paths: stdin is ``stdin.md`` there, not ``<stdin>``."""


def _registry(args: argparse.Namespace, *, report: bool = True) -> Registry:
    """The default registry, plus installed plug-ins unless ``--no-plugins``.

    A plug-in that cannot be registered or loaded is reported once (a warning) and the other
    extractors still run; with ``--strict-plugins`` it is an error.
    """
    from groundcheck.errors import PluginError
    from groundcheck.extractors import default_registry

    registry = default_registry()
    if args.no_plugins:
        return registry
    registry = registry.copy()
    registry.discover(strict=False)
    broken = registry.broken()
    if broken and getattr(args, "strict_plugins", False):
        raise PluginError("; ".join(broken.values()) + " (--strict-plugins)")
    if report:
        for problem in broken.values():
            terminal.warning(f"{problem}; skipped, the other extractors still run")
    return registry


def _context(args: argparse.Namespace, path: str = "report", **extra: Any) -> RenderContext:
    from groundcheck import __version__
    from groundcheck.render import RenderContext

    return RenderContext(
        path=path,
        version=__version__,
        color=args.format == "text" and terminal.use_color(args.color),
        quiet=args.quiet,
        indent=getattr(args, "indent", None),
        **extra,
    )


def _render(
    kind: str, args: argparse.Namespace, value: Any, path: str = "report", **extra: Any
) -> str:
    from groundcheck.render import render

    return render(kind, args.format, value, _context(args, path, **extra))


def _stdin_name(args: argparse.Namespace) -> str:
    """What a report read from stdin is called in this output format."""
    name: str | None = getattr(args, "stdin_name", None)
    if name:
        return name
    return "stdin.md" if args.format in MACHINE_FORMATS else "<stdin>"


def _sarif_base(args: argparse.Namespace) -> str | None:
    from pathlib import Path

    from groundcheck.errors import ConfigError

    base: str | None = getattr(args, "sarif_base", None)
    if base is not None and not Path(base).is_dir():
        problem = "no such directory" if not Path(base).exists() else "not a directory"
        raise ConfigError(f"--sarif-base {base}: {problem}")
    return base


def _one_stdin(**uses: Any) -> None:
    """Standard input can be read once: at most one input may be ``-``."""
    from groundcheck.errors import ConfigError

    named = []
    for option, value in uses.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        named += [option] * sum(1 for v in values if v == "-")
    if len(named) > 1:
        raise ConfigError(
            f"standard input can be read only once, but {' and '.join(named)} are all '-'"
        )


def render_error(args: argparse.Namespace, exc: Exception) -> str | None:
    """For a machine format, the error as that format (a SARIF log with the error as a tool
    execution notification; a GitHub ``::error``), so an upload step still gets a valid file."""
    from groundcheck import __version__
    from groundcheck.errors import ConfigError, InputError

    fmt = getattr(args, "format", None)
    if fmt not in MACHINE_FORMATS or getattr(args, "kind", None) != "verdict":
        return None
    message = str(exc)
    source = getattr(exc, "source", None) if isinstance(exc, InputError) else None
    line = getattr(exc, "line", None) if isinstance(exc, InputError) else None
    if source == "-":
        source = _stdin_name(args)
    if fmt == "github":
        from groundcheck.render.github import escape_data, escape_property

        title = escape_property("groundcheck could not audit")
        return f"::error title={title}::{escape_data(message)}\n"
    from groundcheck.render.escape import replace_surrogates
    from groundcheck.render.sarif import error_sarif

    try:
        base = _sarif_base(args)
    except ConfigError:  # the base itself is the error: locate against the working directory
        base = None
    return replace_surrogates(
        error_sarif(message, __version__, source=source, line=line, base=base)
    )


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
        help="a trace or tool-call file, or a session folder, any supported format; '-' for "
        "stdin (repeatable: several files are one run)",
    )
    p.add_argument(
        "--trace",
        metavar="FILE",
        help="a trace holding the final answer too ('-' for stdin): audited alone when REPORT "
        "is not given",
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
    add_format(
        p,
        "verdict",
        "; sarif for code scanning, github for workflow annotations, html for one "
        "self-contained page",
    )
    add_locations(p)
    add_fail_on(p)
    add_policy(p)
    p.set_defaults(kind="verdict")


def run_audit(args: argparse.Namespace) -> int:
    from groundcheck.auditor import Auditor, Policy, audit_files

    _one_stdin(
        REPORT=args.report,
        **{"--evidence": args.evidence, "--trace": args.trace},
        **{"--bibliography": args.bibliography},
    )
    base = _sarif_base(args)
    auditor = Auditor(Policy(**policy_options(args)), registry=_registry(args))
    result = audit_files(
        auditor,
        args.report,
        args.evidence,
        trace=args.trace,
        bibliography=args.bibliography,
        evidence_format=args.evidence_format,
        sample=args.sample,
    )
    path, embedded = result.report_name, False
    if args.report == "-":
        path = _stdin_name(args)
    elif args.report is None and args.trace is not None:
        trace = _stdin_name(args) if args.trace == "-" else args.trace
        if result.report_name == f"{args.trace} (final answer)":
            # Lines count within the final answer, not the trace file: text says so in the
            # name; the machine formats locate it at the trace and say so in the message.
            embedded = args.format != "text"
            path = trace if embedded else f"{trace} (final answer)"
    out = _render(
        "verdict", args, result.verdict, path, base=base, embedded=embedded, report=result.report
    )
    _write(out)
    return EXIT_FINDINGS if result.verdict.fails(args.fail_on) else EXIT_OK


# -- extract, extractors -----------------------------------------------------------------------


def declare_extract(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="text to scan ('-' for stdin)")
    add_format(p, "citations")
    p.add_argument("--stdin-name", metavar="NAME", help="the name stdin ('-') is reported under")
    add_extractors(p)
    add_plugins(p)
    add_input_limit(p)


def run_extract(args: argparse.Namespace) -> int:
    from groundcheck.evidence.jsonio import read_text
    from groundcheck.extractors import extract

    registry = _registry(args)
    citations = extract(read_text(args.file), extractors=registry.select(args.extractors))
    name = _stdin_name(args) if args.file == "-" else args.file
    _write(_render("citations", args, citations, name))
    return EXIT_OK


def declare_extractors(p: argparse.ArgumentParser) -> None:
    add_format(p, "extractors")
    add_plugins(p)


def run_extractors(args: argparse.Namespace) -> int:
    """Every extractor, a broken plug-in included (marked with its error, never hidden)."""
    from groundcheck.errors import PluginError

    strict, args.strict_plugins = args.strict_plugins, False
    registry = _registry(args, report=False)
    broken = {} if args.no_plugins else registry.broken()
    rows: list[dict[str, Any]] = []
    for name in registry.names():
        try:
            ex = registry.get(name)
        except PluginError as exc:
            rows.append(
                {
                    "name": name,
                    "source": registry.source(name),
                    "description": "",
                    "error": str(exc),
                }
            )
            continue
        rows.append(
            {
                "name": ex.name,
                "source": registry.source(name),
                "description": ex.description,
                "error": None,
            }
        )
    for label, problem in broken.items():
        if label not in registry:
            rows.append(
                {"name": label, "source": "not registered", "description": "", "error": problem}
            )
    _write(_render("extractors", args, rows))
    if strict and broken:
        _fail(f"{len(broken)} plug-in(s) cannot be loaded (--strict-plugins)")
        return EXIT_ERROR
    return EXIT_OK


# -- rate, compare -----------------------------------------------------------------------------


def _batch_places(args: argparse.Namespace) -> dict[str, Any]:
    """Where runs are found and audited: report names, the manifest root, the engine."""
    return {
        "report_names": tuple(args.report_names or ()) or ("report.md",),
        "root": args.root,
        "engine": args.engine,
    }


def _input_errors(problems: list[str], count: int) -> None:
    """Input errors of a batch, one line each (the first few), after the report is printed."""
    for problem in problems[:5]:
        _fail(problem)
    if count > 5:
        _fail(f"… and {count - 5} more input errors (listed under 'unreadable' in --format json)")


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
    p.add_argument(
        "--max-rate",
        type=float,
        metavar="R",
        help="gate on the run rate: pass (exit 0) when the interval's upper bound is at most R, "
        "fail (exit 1) when its lower bound is above R, inconclusive (exit 3) otherwise",
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
    from groundcheck.cli.progress import progress_factory

    _check_level(args.target, "--target")
    _check_level(args.confidence, "--confidence")
    if args.max_rate is not None:
        _check_level(args.max_rate, "--max-rate")
    _check_workers(args.workers)
    if not args.no_plugins:
        _registry(args)  # a broken plug-in is reported here, once, not by every worker
    report = rate(
        args.runs,
        options=_batch_options(args),
        target=args.target,
        confidence=args.confidence,
        canary=args.canary,
        workers=args.workers,
        progress=progress_factory(not args.quiet),
        max_rate=args.max_rate,
        **_batch_places(args),
    )
    _write(_render("rate", args, report))
    if args.plot and report.overall.runs:
        from groundcheck.render.plot import forest_plot

        forest_plot(report, args.plot)
        terminal.info(f"plot written to {args.plot}", args.quiet)
    if report.input_errors:
        _input_errors(
            [u.problem or u.run for u in report.unreadable if u.input_error], report.input_errors
        )
        return EXIT_ERROR
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
    return EXIT_OK if report.gate is None else report.gate.exit_code


def declare_compare(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A", help="runs of agent A (folder, glob or manifest)")
    p.add_argument("b", metavar="B", help="runs of agent B")
    p.add_argument(
        "--max-difference",
        type=float,
        metavar="D",
        help="gate on the difference in run rates A − B: pass (exit 0) when the interval's "
        "upper bound is at most D, fail (exit 1) when its lower bound is above D, "
        "inconclusive (exit 3) otherwise",
    )
    add_batch(p, "compare")


def run_compare(args: argparse.Namespace) -> int:
    from groundcheck.batch import compare
    from groundcheck.cli.progress import progress_factory
    from groundcheck.errors import ConfigError

    _check_level(args.confidence, "--confidence")
    if args.max_difference is not None and not -1 < args.max_difference < 1:
        raise ConfigError(
            f"--max-difference must be between -1 and 1 (a difference of proportions), "
            f"got {args.max_difference}"
        )
    _check_workers(args.workers)
    if not args.no_plugins:
        _registry(args)  # a broken plug-in is reported here, once, not by every worker
    report = compare(
        args.a,
        args.b,
        options=_batch_options(args),
        confidence=args.confidence,
        workers=args.workers,
        progress=progress_factory(not args.quiet),
        max_difference=args.max_difference,
        **_batch_places(args),
    )
    _write(_render("compare", args, report))
    if report.input_errors:
        _input_errors(
            [u.problem or u.run for _, u in report.unreadable if u.input_error],
            report.input_errors,
        )
        return EXIT_ERROR
    if report.result.pairs == 0:
        _fail("no task was audited on both sides")
        return EXIT_ERROR
    return EXIT_OK if report.gate is None else report.gate.exit_code


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
    audit.add_argument(
        "--run", metavar="NAME", help="the run (default: the only run; several need a name)"
    )
    add_format(audit, "verdict")
    add_locations(audit)
    add_fail_on(audit)
    add_policy(audit)
    audit.set_defaults(kind="verdict")


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
        _write(_render("ledger", args, {"schema": "groundcheck.ledger/1", "runs": runs}))
        return EXIT_OK
    base = _sarif_base(args)
    report = read_text(args.report)
    verdict = ledger.audit(report, run=args.run, **policy_options(args))
    name = _stdin_name(args) if args.report == "-" else args.report
    _write(_render("verdict", args, verdict, name, base=base, report=report))
    return EXIT_FINDINGS if verdict.fails(args.fail_on) else EXIT_OK


# -- schema ------------------------------------------------------------------------------------


class _SchemaNames:
    """The schema names, listed only when argparse needs them (reading the package's schema
    files costs ~20 ms, and the parser is built on every start-up)."""

    def _names(self) -> list[str]:
        from groundcheck.schemas import names

        return list(names())

    def __contains__(self, item: object) -> bool:
        return item in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


def declare_schema(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "name",
        metavar="NAME",
        choices=_SchemaNames(),
        help="which output: %(choices)s",
    )


def run_schema(args: argparse.Namespace) -> int:
    from groundcheck.schemas import text

    _write(text(args.name))
    return EXIT_OK


# -- mcp -------------------------------------------------------------------------------------


def declare_mcp(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "server_args",
        nargs=argparse.REMAINDER,
        metavar="...",
        help="passed to the server (see docs/integrations.md); needs the 'mcp' extra",
    )


def run_mcp(args: argparse.Namespace) -> int:
    from groundcheck.integrations.mcp import main

    return main(args.server_args)


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
        "mcp",
        "serve the audit and extract tools over MCP (stdio)",
        "Run an MCP server over stdio with the read-only tools 'audit' and 'extract', for "
        "agents and MCP clients (needs the 'mcp' extra).",
        declare_mcp,
        run_mcp,
    ),
    Command(
        "extractors",
        "list the registered extractors",
        "List registered extractors: name, where it comes from, what it finds; a plug-in "
        "that cannot be loaded is listed as BROKEN with its error.",
        declare_extractors,
        run_extractors,
    ),
    Command(
        "schema",
        "print the JSON Schema of an output (verdict, rate, compare)",
        "Print the JSON Schema (draft 2020-12) of a JSON output, as shipped in the package.",
        declare_schema,
        run_schema,
    ),
)
