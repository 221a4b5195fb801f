"""Option groups shared by several commands, each declared once.

A command asks for the groups it needs (``add_format``, ``add_plugins``, ``add_policy``,
``add_batch``); ``policy_options`` turns the parsed policy group into ``Policy`` fields, so the
same options mean the same thing in ``audit``, ``rate``, ``compare`` and ``ledger audit``.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = [
    "add_batch",
    "add_fail_on",
    "add_format",
    "add_input_limit",
    "add_locations",
    "add_plugins",
    "add_policy",
    "add_terminal",
    "policy_options",
]


def add_format(parser: argparse.ArgumentParser, kind: str, note: str = "") -> None:
    """``--format``, with the choices the renderer table has for this kind of result, and the
    options of a terminal (``--quiet``, ``--color``) that every printing command shares."""
    from groundcheck.render import formats

    choices = formats(kind)
    parser.add_argument(
        "--format",
        choices=choices,
        default="text",
        help=f"output format: {', '.join(choices)} (default text){note}",
    )
    if "json" in choices:
        parser.add_argument(
            "--indent",
            type=_indent,
            metavar="N",
            help="--format json: indent N spaces per level (default: compact, one line)",
        )
    add_terminal(parser)


def _indent(text: str) -> int:
    """``--indent N``: a number of spaces, 0 to 16.

    >>> _indent("2")
    2
    """
    if not text.strip().isdigit() or not 0 <= int(text) <= 16:
        raise argparse.ArgumentTypeError(f"expected a number of spaces from 0 to 16, got {text!r}")
    return int(text)


def add_terminal(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("terminal")
    group.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress bar, no note: lines, no informational messages (errors still print)",
    )
    group.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour text output: auto (default) on a terminal unless NO_COLOR is set",
    )


def add_plugins(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-plugins",
        action="store_true",
        help="do not load extractors from installed plug-ins (entry points)",
    )
    parser.add_argument(
        "--strict-plugins",
        action="store_true",
        help="a plug-in that cannot be loaded is an error (exit 2); by default it is reported "
        "once and the other extractors still run",
    )


def add_locations(parser: argparse.ArgumentParser) -> None:
    """Where findings are located in machine formats: the stdin name and the SARIF base."""
    parser.add_argument(
        "--stdin-name",
        metavar="NAME",
        help="the file name a report read from stdin ('-') is reported under "
        "(default <stdin> in text, stdin.md in sarif and github)",
    )
    parser.add_argument(
        "--sarif-base",
        metavar="DIR",
        help="directory SARIF artifact URIs are relative to (SRCROOT; default the working "
        "directory, which for code scanning should be the repository root)",
    )


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def byte_count(text: str) -> int:
    """A number of bytes as given on the command line: ``1000000``, ``64K``, ``512M``, ``2G``.

    >>> byte_count("512M"), byte_count("64k"), byte_count("100")
    (536870912, 65536, 100)
    """
    value = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = value[-1:] if value[-1:] in _UNITS else ""
    number = value[: len(value) - len(unit)]
    if not number.isdigit() or int(number) < 1:
        raise argparse.ArgumentTypeError(
            f"expected a positive number of bytes (e.g. 1000000, 64K, 512M, 2G), got {text!r}"
        )
    return int(number) * _UNITS[unit]


def add_input_limit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-input-bytes",
        type=byte_count,
        metavar="N",
        help="the most bytes any one input file may hold, e.g. 2G (default 512M); a larger "
        "file, or an endless stream such as /dev/zero, is an error (exit 2)",
    )


def add_extractors(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--extractor",
        action="append",
        metavar="NAME",
        dest="extractors",
        help="run only this extractor (repeatable; default all, see 'groundcheck extractors')",
    )


def add_fail_on(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fail-on",
        choices=("error", "warning"),
        default="error",
        help="lowest severity that makes the exit status 1 (default error)",
    )


def add_policy(parser: argparse.ArgumentParser) -> None:
    """What an audit tolerates: every field of ``groundcheck.Policy``, plus the plug-ins."""
    add_extractors(parser)
    add_plugins(parser)
    add_input_limit(parser)
    group = parser.add_argument_group("policy (what an audit tolerates)")
    group.add_argument(
        "--long-report-chars",
        type=int,
        metavar="N",
        help="after only empty tool calls, warn about a report longer than N (default 500)",
    )
    group.add_argument(
        "--title-threshold",
        type=float,
        metavar="T",
        help="similarity (0-100] a cited title needs to a returned title (default 90)",
    )
    group.add_argument(
        "--unrecorded-severity",
        choices=("error", "warning"),
        help="severity of fabricated-id when the trace lost some outputs (default error)",
    )
    group.add_argument(
        "--url-severity",
        choices=("error", "warning"),
        help="severity of fabricated-id on a web URL no tool returned (default error; "
        "identifier URLs such as doi.org stay errors)",
    )
    group.add_argument(
        "--allow-url",
        action="append",
        metavar="HOST_OR_PREFIX",
        dest="allowed_urls",
        help="a host (github.com, *.example.org) or URL prefix (https://github.com/org/repo) "
        "the report may cite without retrieval (repeatable)",
    )
    group.add_argument(
        "--quote-min-words",
        type=int,
        metavar="N",
        help="words a quoted passage needs to be checked as verbatim (default 6)",
    )


def policy_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``Policy`` fields the user set (unset options keep the policy's defaults)."""
    options: dict[str, Any] = {}
    if args.extractors:
        options["extractors"] = args.extractors
    if getattr(args, "allowed_urls", None):
        options["allowed_urls"] = tuple(args.allowed_urls)
    for name in (
        "long_report_chars",
        "title_threshold",
        "unrecorded_severity",
        "url_severity",
        "quote_min_words",
        "max_input_bytes",
    ):
        value = getattr(args, name, None)
        if value is not None:
            options[name] = value
    return options


def add_batch(parser: argparse.ArgumentParser, kind: str) -> None:
    """Options of the commands that audit many runs: every policy option ``audit`` takes,
    where runs are found, and where they are audited."""
    add_format(parser, kind)
    add_policy(parser)
    parser.add_argument(
        "--confidence", type=float, default=0.95, metavar="C", help="interval level (default 0.95)"
    )
    runs = parser.add_argument_group("finding runs")
    runs.add_argument(
        "--report-name",
        action="append",
        dest="report_names",
        metavar="NAME",
        help="the report file of a run folder, matched case-insensitively (repeatable; "
        "default report.md); a folder holding two is an error",
    )
    runs.add_argument(
        "--root",
        metavar="DIR",
        help="paths in a manifest must resolve inside DIR (default: the manifest's own folder)",
    )
    where = parser.add_argument_group("engine")
    where.add_argument(
        "--engine",
        choices=("process", "ray"),
        default="process",
        help="process: this machine's cores (default); ray: a Ray cluster, RAY_ADDRESS or a "
        "local one (needs the 'ray' extra); the output is the same, byte for byte",
    )
    where.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="processes (default: all cores); with --engine ray, the CPUs of a local cluster",
    )
