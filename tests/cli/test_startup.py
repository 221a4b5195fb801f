"""What a one-line ``groundcheck extract`` loads, and that what it no longer loads up front
still works when it is needed: the log collector, pathlib's spelling of a path, the parser.

These are tests about imports, never timing (the start-up figure is printed by
``benchmarks/bench_process.py``)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path, PurePath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundcheck.cli import terminal
from groundcheck.cli.parser import Parser
from groundcheck.evidence.jsonio import read_text
from groundcheck.extractors.registry import _suffix

SRC = Path(__file__).resolve().parents[2] / "src"

NOT_ON_THE_EXTRACT_PATH = (
    "logging",  # cli.terminal: imported by the collector only once something imports it
    "pathlib",  # evidence.jsonio, extractors.registry
    "urllib.parse",  # extractors.urlkey.unquote
    "ipaddress",
    "shutil",  # argparse's formatter, asked for the terminal width
    "groundcheck.model._audit",  # Verdict, EvidenceSet, ...: created on first use
    "groundcheck.render.text",
    "groundcheck.render.html",
    "groundcheck.render.sarif",
    "groundcheck.evidence.load",
    "groundcheck.grounding",
    "groundcheck.checks",
    "groundcheck.auditor",
)

LAZY_PATTERNS = (  # what a text without a URL or a message to print never needs
    ("groundcheck.extractors.url", "_RUN"),
    ("groundcheck.extractors.urlkey", "_SCHEME"),
    ("groundcheck.extractors.urlkey", "_LABEL"),
    ("groundcheck.render.escape", "_CONTROL"),
)


def _fresh(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=False
    )


def test_a_one_line_extract_loads_only_what_it_needs(tmp_path: Path) -> None:
    report = tmp_path / "tiny.md"
    report.write_text("see arXiv:2005.11401\n", encoding="utf-8")
    code = (
        "import contextlib, io, json, sys\n"
        "from groundcheck.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    status = main(['extract', sys.argv[1], '--format', 'json'])\n"
        f"lazy = {LAZY_PATTERNS!r}\n"
        "compiled = [f'{m}.{n}' for m, n in lazy if sys.modules[m].__dict__[n]._compiled]\n"
        f"loaded = [m for m in {NOT_ON_THE_EXTRACT_PATH!r} if m in sys.modules]\n"
        "print(json.dumps({'status': status, 'out': out.getvalue(), 'loaded': loaded, "
        "'compiled': compiled}))\n"
    )
    run = _fresh(code, str(report))
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["status"] == 0
    assert [c["id"] for c in json.loads(result["out"])] == ["2005.11401"]
    assert result["loaded"] == []
    assert result["compiled"] == []


def test_the_audit_classes_are_made_on_first_use_and_are_groundcheck_model_classes() -> None:
    code = (
        "import pickle, sys, typing\n"
        "import groundcheck.model as model\n"
        "assert 'groundcheck.model._audit' not in sys.modules\n"
        "from groundcheck.model import EvidenceSet, Verdict\n"
        "assert Verdict is model.Verdict is sys.modules['groundcheck.model._audit'].Verdict\n"
        "assert Verdict.__module__ == 'groundcheck.model', Verdict.__module__\n"
        "v = Verdict((), (), EvidenceSet())\n"
        "assert pickle.loads(pickle.dumps(v)) == v\n"
        "assert b'groundcheck.model._audit' not in pickle.dumps(v)\n"
        "assert typing.get_type_hints(Verdict)['evidence'] is EvidenceSet\n"
        "assert 'Finding' in dir(model) and 'Finding' in model.__all__\n"
        "try:\n    model.Nothing\nexcept AttributeError:\n    pass\n"
        "else:\n    raise AssertionError('no AttributeError')\n"
    )
    run = _fresh(code)
    assert run.returncode == 0, run.stderr


# -- the log collector -------------------------------------------------------------------------


def test_logs_of_a_library_imported_during_the_command_are_one_line(tmp_path: Path) -> None:
    """bibtexparser (imported while the audit runs, with logging) logs each bad entry."""
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a,\n title = {Foo\n@book{b, title={Bar}, year=2020}\n")
    report = tmp_path / "report.md"
    report.write_text("see arXiv:2005.11401\n", encoding="utf-8")
    code = (
        "import sys\nfrom groundcheck.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "import logging\n"
        "assert logging.getLogger().handlers == [], logging.getLogger().handlers\n"
        "raise SystemExit(status)\n"
    )
    run = _fresh(code, "audit", str(report), "--evidence", str(bib))
    assert run.returncode == 1, run.stderr
    notes = [line for line in run.stderr.splitlines() if "log message" in line]
    assert len(notes) == 1 and "from bibtexparser (first: " in notes[0], run.stderr
    assert "aborted" not in run.stderr.replace(notes[0], "")  # no raw record printed


def test_the_collector_keeps_warnings_and_restores_the_root_handlers() -> None:
    code = (
        "import logging\n"
        "from groundcheck.cli import terminal\n"
        "with terminal.capture_logs() as logs:\n"
        "    logging.getLogger('lib.part').warning('first %s', 'one')\n"
        "    logging.getLogger('other').info('below WARNING: not kept')\n"
        "    logging.getLogger('other').error('second')\n"
        "print(logs.summary())\n"
        "print(logging.getLogger().handlers)\n"
    )
    run = _fresh(code)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # nothing reached logging's last-resort handler
    summary, handlers = run.stdout.splitlines()
    assert summary == "note: 2 log messages from lib, other (first: first one)"
    assert handlers == "[]"


def test_the_collector_is_installed_when_logging_is_first_imported_inside_it() -> None:
    """Without logging loaded, the collector waits for its import: records logged from the
    moment the module exists are collected, the module is the ordinary one (its own loader),
    and afterwards the root handlers and ``sys.meta_path`` are as they were."""
    code = (
        "import sys\n"
        "from groundcheck.cli import terminal\n"
        "assert 'logging' not in sys.modules\n"
        "finders = list(sys.meta_path)\n"
        "with terminal.capture_logs() as logs:\n"
        "    import logging.handlers\n"
        "    logging.getLogger('lib.part').warning('first %s', 'one')\n"
        "    logging.getLogger('other').info('below WARNING: not kept')\n"
        "    logging.getLogger('other').error('second')\n"
        "assert sys.meta_path == finders, sys.meta_path\n"
        "assert 'ThenLoader' not in repr(logging.__loader__), logging.__loader__\n"
        "assert logging.__spec__.loader is logging.__loader__\n"
        "print(logs.summary())\n"
        "print(logging.getLogger().handlers)\n"
        "with terminal.capture_logs() as again:\n"
        "    logging.getLogger('x').warning('kept')\n"
        "print(again.summary())\n"
    )
    run = _fresh(code)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # nothing reached logging's last-resort handler
    summary, handlers, again = run.stdout.splitlines()
    assert summary == "note: 2 log messages from lib, other (first: first one)"
    assert handlers == "[]"
    assert again == "note: 1 log message from x (first: kept)"


def test_nested_collectors_waiting_for_logging_are_installed_outermost_first() -> None:
    """Two collectors waiting for the same import: each gets the records logged while it is
    the innermost, as when logging was loaded up front."""
    code = (
        "import sys\n"
        "from groundcheck.cli import terminal\n"
        "finders = list(sys.meta_path)\n"
        "with terminal.capture_logs() as outer:\n"
        "    with terminal.capture_logs() as inner:\n"
        "        import logging\n"
        "        logging.getLogger('a').warning('in inner')\n"
        "    logging.getLogger('b').warning('in outer')\n"
        "with terminal.capture_logs() as early:\n"
        "    pass\n"
        "assert sys.meta_path == finders and logging.getLogger().handlers == []\n"
        "print(inner.summary()); print(outer.summary()); print(early.summary())\n"
    )
    run = _fresh(code)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert run.stdout.splitlines() == [
        "note: 1 log message from a (first: in inner)",
        "note: 1 log message from b (first: in outer)",
        "None",
    ]


def test_a_command_that_never_imports_logging_has_nothing_to_say() -> None:
    code = (
        "import sys\n"
        "from groundcheck.cli import terminal\n"
        "with terminal.capture_logs() as logs:\n"
        "    pass\n"
        "assert 'logging' not in sys.modules\n"
        "print(logs.summary())\n"
    )
    run = _fresh(code)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "None\n"


def test_the_collector_in_this_process() -> None:
    import logging

    with terminal.capture_logs() as logs:
        logging.getLogger("x").warning("kept")
    assert [r.getMessage() for r in logs.records] == ["kept"]
    assert logs.summary() == "note: 1 log message from x (first: kept)"


# -- what replaced pathlib ---------------------------------------------------------------------


_PARTS = st.sampled_from(["", ".", "..", "a", "b.egg", ".egg", "a.", "x.tar.gz", "..egg", "é.py"])


@given(st.lists(_PARTS, max_size=5), st.booleans())
def test_suffix_is_purepaths(parts: list[str], absolute: bool) -> None:
    path = ("/" if absolute else "") + "/".join(parts)
    assert _suffix(path) == PurePath(path).suffix


@pytest.mark.parametrize("suffix", ["", "/", "/.", "//", "/./"])
def test_a_report_path_opens_what_pathlib_opens(tmp_path: Path, suffix: str) -> None:
    report = tmp_path / "report.md"
    report.write_text("see arXiv:2005.11401\n", encoding="utf-8")
    assert read_text(str(report) + suffix) == report.read_text(encoding="utf-8")


def test_an_empty_path_is_the_working_directory_as_with_pathlib() -> None:
    from groundcheck.errors import InputError

    with pytest.raises(InputError, match="is a directory"):
        read_text("")


# -- the parser --------------------------------------------------------------------------------


def test_the_metavar_check_still_runs() -> None:
    with pytest.raises(ValueError, match="metavar"):
        Parser(prog="p").add_argument("--x", nargs=2, metavar=("A", "B", "C"))
    with pytest.raises(ValueError, match="metavar"):
        argparse.ArgumentParser(prog="p").add_argument("--x", nargs=2, metavar=("A", "B", "C"))


@pytest.mark.parametrize("columns", ["30", "100"])
def test_help_is_formatted_for_the_terminal_as_argparse_does(columns: str) -> None:
    def usage(cls: type[argparse.ArgumentParser]) -> str:
        parser = cls(prog="groundcheck", description="a description long enough to wrap " * 3)
        parser.add_argument("--version", action="version", version="1")
        sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog="groundcheck")
        extract = sub.add_parser("extract", help="find citations")
        extract.add_argument("--format", choices=["text", "json"], help="output format " * 4)
        return parser.format_help() + extract.format_help()

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = columns
    try:
        assert usage(Parser) == usage(argparse.ArgumentParser)
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
