"""The ``groundcheck`` command: ``audit``, ``extract``, ``extractors``.

Exit codes are a contract for CI: 0 the report passed, 1 findings at or above ``--fail-on``,
2 the command could not run (usage, unreadable or malformed input). Errors are one line on
stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
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
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )
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
    from groundcheck.audit import Auditor, Policy
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
        name = trace.report_path or args.trace
    evidence = EvidenceSet.merge(t.evidence for t in traces)
    bibliography = {path: read_text(path) for path in args.bibliography}
    verdict = auditor.audit(report, evidence, bibliography=bibliography or None)
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


_COMMANDS = {"audit": _cmd_audit, "extract": _cmd_extract, "extractors": _cmd_extractors}


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
