"""The ``groundcheck`` command: audit | extract | extractors | rate | compare | ledger | mcp.

Exit codes are a contract for CI: 0 the report passed, 1 findings at or above ``--fail-on``,
2 the command could not run (usage, unreadable or malformed input). Errors are one line on
stderr, never a traceback. Each command lives in :mod:`groundcheck.cli.commands`; options
shared by several commands are declared once in :mod:`groundcheck.cli.options`.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from groundcheck.cli.parser import Parser

__all__ = ["build_parser", "console", "main"]


def build_parser(only: str | None = None) -> Parser:
    """Every command's options, assembled from :mod:`groundcheck.cli.commands`.

    With ``only`` (the command about to run, the first word of the command line), the
    other commands get no parser at all: declaring all of them was several ms of every
    start-up, a command never reads another's options, and what lists the commands (the
    top-level ``--help``, an unknown command's error) runs only when the first word is not a
    command, with every parser built.
    """
    from groundcheck import __version__
    from groundcheck.cli.commands import COMMANDS
    from groundcheck.cli.parser import Parser

    parser = Parser(
        prog="groundcheck",
        description="Catch an AI agent citing sources its tools never returned.",
        epilog="exit status: 0 ok, 1 findings at or above --fail-on, 2 usage or input error",
    )
    parser.add_argument("--version", action="version", version=f"groundcheck {__version__}")
    # prog given, as argparse would spell it ("groundcheck"): it formats the usage otherwise,
    # which asks the terminal width (importing shutil) at every start-up
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=Parser, prog=parser.prog
    )
    sub.required = True
    for command in COMMANDS:
        if only is not None and command.name != only:
            continue
        p = sub.add_parser(command.name, help=command.help, description=command.description)
        command.declare(p)
        p.set_defaults(command_main=command.run)
    return parser


class _NeverRaised(Exception):
    pass


def _broken_pool() -> type[Exception]:
    """``BrokenProcessPool`` if a process pool was used (importing it costs ~20 ms of every
    start-up; without the module loaded, no pool can have broken)."""
    module = sys.modules.get("concurrent.futures.process")
    return module.BrokenProcessPool if module is not None else _NeverRaised


def _command_in(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs, when its first word names one (else None: parse them all)."""
    from groundcheck.cli.commands import COMMANDS

    first = argv[0] if argv else ""
    return first if any(command.name == first for command in COMMANDS) else None


_WITHOUT_CYCLE_COLLECTOR = frozenset({"extract"})
"""Commands run with the cyclic garbage collector off (see :func:`main`)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (the console script passes it to ``sys.exit``).

    Whatever happens inside a command, the result is an exit status and at most one line on
    stderr per problem: a plug-in calling ``sys.exit()``, a worker process dying and a library
    logging to stderr are each turned into one clear line, never a traceback or a silent exit.

    The cyclic garbage collector is off while the modules are imported and, for
    ``extract``, while the command runs: those make ~100,000 small objects with no reference
    cycles (classes, mentions, identifiers, regex matches), which reference counting frees as
    before, and the collector only traversed them again and again, finding nothing: ~80 M
    instructions of an ``extract`` of 10 MB (2.4%), ~10 M of every start-up. Any other
    command runs with the collector as it found it, and it is restored on return.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv, collecting)
    finally:
        if collecting:
            gc.enable()


def console() -> NoReturn:
    """The ``groundcheck`` command and ``python -m groundcheck``: :func:`main`, then exit.

    Before the interpreter tears down, the objects still alive are taken out of the cyclic
    collector's reach (``gc.freeze``). The teardown frees them as before, module by module,
    but first runs full collections that walk every one of them (a run's modules, classes,
    compiled patterns: ~15,000 objects) looking for cycles: ~6 ms of the ~11 ms teardown of an
    ``extract`` of 10 MB. A cycle among them is then left for the operating system to reclaim
    at exit, a moment later; output is flushed and ``atexit`` handlers run before the teardown
    either way. Only here, where the process ends: a caller of :func:`main` that goes on
    running keeps its collector whole.
    """
    status = main()
    gc.freeze()
    sys.exit(status)


def _main(argv: Sequence[str] | None, collecting: bool) -> int:
    from groundcheck.cli import terminal
    from groundcheck.cli.commands import EXIT_ERROR, EXIT_OK, render_error

    terminal.prepare_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(_command_in(argv)).parse_args(argv)
    from groundcheck.errors import GroundcheckError
    from groundcheck.evidence.jsonio import limited_input

    with terminal.capture_logs() as logs, limited_input(getattr(args, "max_input_bytes", None)):
        if collecting and args.command not in _WITHOUT_CYCLE_COLLECTOR:
            gc.enable()
        try:
            status: int = args.command_main(args)
        except GroundcheckError as exc:
            output = render_error(args, exc)
            if output is not None:
                terminal.write(output)
            terminal.error(str(exc))
            status = EXIT_ERROR
        except BrokenPipeError:
            sys.stderr.close()  # output cut off by `| head`: not an error worth a traceback
            return EXIT_OK
        except KeyboardInterrupt:
            sys.stderr.write("groundcheck: interrupted\n")
            return 130
        except SystemExit as exc:  # from inside a command: a plug-in or a library, not us
            terminal.error(
                f"the command was stopped by a call to sys.exit({exc.code!r}) from code it "
                "ran (a plug-in?); nothing was checked"
            )
            status = EXIT_ERROR
        except MemoryError:
            terminal.error(
                "out of memory: the input is too large for this machine; audit it in parts, "
                "or lower --max-input-bytes to refuse such files early"
            )
            status = EXIT_ERROR
        except _broken_pool() as exc:
            terminal.error(
                f"a worker process died ({exc}); rerun with --workers 1 to see which run "
                "or plug-in stops it"
            )
            status = EXIT_ERROR
    summary = logs.summary()
    if summary is not None and not getattr(args, "quiet", False):
        terminal.info(summary)
    return status
