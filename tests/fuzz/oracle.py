"""What every fuzz harness checks, whatever generates the inputs (hypothesis, atheris, random).

Each ``check_*`` runs one input through a public entry point and raises :class:`Violation`
on anything the issue forbids:

- an exception escaping the public API that is not one of groundcheck's documented errors
  (:class:`~groundcheck.errors.GroundcheckError`: ``InputError`` names the file, ``ConfigError``
  the option). Nothing is caught around the call but those, so a ``ValueError`` from the int
  limit, a ``KeyError`` or a ``RecursionError`` is a violation, not an "input error";
- output that does not encode as UTF-8 (every renderer, the CLI's stdout and stderr);
- a control character from the data on the terminal (text output and error lines: only
  ``\\n`` and ``\\t`` may reach it);
- a CLI exit status other than 0, 1, 2, a traceback, or an exit-2 error that is not one line;
- a citation whose span does not point at the characters written.

Time is not checked here (no timing in the normal suite); ``benchmarks/fuzz/fuzz_api.py``
adds the linear-budget check for long local runs.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

from groundcheck import audit, load_evidence
from groundcheck.errors import GroundcheckError
from groundcheck.extractors import extract
from groundcheck.render import RenderContext, formats, render

__all__ = ["BIG", "FRAGMENTS", "Violation", "check_audit", "check_cli", "check_extract", "check_load"]

_TERMINAL_OK = frozenset("\n\t")

BIG = "9" * 4400
"""Longer than Python converts to an int by default (4,300 digits)."""
FRAGMENTS = [
    "arXiv:", "2005.11401", "2005.11401v2", "hep-th/9711200", "math.AG/0601001", "10.1000/xyz",
    "10.", "doi:", "https://doi.org/", "https://arxiv.org/abs/", "PMID: 31452104", "PMC123456",
    "ISBN 978-3-16-148410-0", "\u2013", "\u2014", "\u2215", "\u200b", "\u00ad", "\ufe0f",
    "\U000e0041", "&shy;", "&#8203;", "%E2%80%8B", "%2F", "\\", "\\.", "*", "**", "_", "`",
    "\n", "\r\n", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\n\n", "    ", "\x1b[31m",
    "\x1b]8;;http://x\x07", "\x1b]0;title\x1b\\", "\x00", "\x07", "\ud800", "\udfff", '"',
    "\u201c", "\u201d", "'", "[1]", "References\n", "# ", "> ", "- ", "(", ")", "<b>", "</b>",
    "{", "}", "[", "]", ":", ",", BIG, "-" + BIG, "1e999999", "NaN", "Attention Is All You Need",
    "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
]  # fmt: skip
"""What inputs are built from: identifiers, disguises, escapes, terminal control sequences,
lone surrogates, NULs, long numbers, JSON punctuation."""


class Violation(AssertionError):
    """A fuzz input broke a promise of docs/security.md."""


def _encodes(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise Violation(f"{where}: output does not encode as UTF-8: {exc}") from None


def _no_controls(text: str, where: str) -> None:
    for ch in text:
        if (ch < " " or "\x7f" <= ch < "\xa0") and ch not in _TERMINAL_OK:
            raise Violation(f"{where}: control character {ch!r} reaches the terminal")


def _guard(where: str, call: Any, *args: Any, **kwargs: Any) -> Any:
    """``call(*args)``; a documented error is None, anything else a Violation."""
    try:
        return call(*args, **kwargs)
    except GroundcheckError:
        return None
    except Exception as exc:
        raise Violation(f"{where}: {type(exc).__name__} escaped: {exc!s:.300}") from exc


def _render_all(verdict: Any, where: str, report: str) -> None:
    for fmt in formats("verdict"):
        text = _guard(
            f"{where} render {fmt}", render, "verdict", fmt, verdict, RenderContext(report=report)
        )
        if text is not None:
            _encodes(text, f"{where} render {fmt}")
            if fmt == "text":
                _no_controls(text, f"{where} render text")


def check_extract(text: str) -> None:
    citations = _guard("extract", extract, text)
    for c in citations or ():
        if text[c.start : c.end] != c.raw:
            raise Violation(f"extract: span {c.start}:{c.end} is not the raw text {c.raw!r}")
    if citations is not None:
        _encodes(render("citations", "json", citations), "extract render json")


def check_audit(report: str, output: Any) -> None:
    """A report against one tool call whose output is ``output`` (any JSON-like value)."""
    verdict = _guard("audit", audit, report, [{"tool": "fuzz", "output": output}])
    if verdict is not None:
        _render_all(verdict, "audit", report)


def check_load(data: bytes, directory: Path, name: str = "trace.json") -> None:
    """``data`` as a trace file: loaded (or one documented error), then audited."""
    path = directory / name
    path.write_bytes(data)
    trace = _guard("load_evidence", load_evidence, path)
    if trace is None:
        return
    report = trace.report or "see arXiv:2005.11401"
    verdict = _guard("audit of a loaded trace", audit, report, trace.evidence)
    if verdict is not None:
        _render_all(verdict, "audit of a loaded trace", report)


def check_cli(report: bytes, evidence: bytes, directory: Path, fmt: str = "text") -> int:
    """``groundcheck audit REPORT --evidence FILE`` in this process; returns the exit status."""
    from groundcheck.cli import main

    report_path, evidence_path = directory / "report.md", directory / "trace.json"
    report_path.write_bytes(report)
    evidence_path.write_bytes(evidence)
    out, err = io.StringIO(), io.StringIO()
    argv = ["audit", str(report_path), "--evidence", str(evidence_path), "--format", fmt]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([*argv, "--color", "never", "-q"])
        except SystemExit as exc:  # argparse only: our arguments are always valid
            raise Violation(f"cli: SystemExit({exc.code!r}) escaped main") from exc
        except Exception as exc:
            raise Violation(f"cli: {type(exc).__name__} escaped main: {exc!s:.300}") from exc
    stdout, stderr = out.getvalue(), err.getvalue()
    _encodes(stdout, "cli stdout")
    _encodes(stderr, "cli stderr")
    _no_controls(stderr, "cli stderr")
    if fmt == "text":
        _no_controls(stdout, "cli stdout")
    if status not in (0, 1, 2):
        raise Violation(f"cli: exit status {status}")
    if "Traceback" in stderr:
        raise Violation(f"cli: traceback on stderr: {stderr[:500]}")
    if status == 2:
        errors = [line for line in stderr.splitlines() if line.startswith("groundcheck: error")]
        if len(errors) != 1:
            raise Violation(f"cli: exit 2 with {len(errors)} error lines: {stderr[:500]!r}")
    return int(status)
