"""GitHub Actions workflow commands: one ``::error``/``::warning`` annotation per finding.

A step that prints these gets its findings shown on the pull request's changed files, without
a code-scanning upload. Escaping is GitHub's own (``@actions/core``): in the message ``%``,
``\\r`` and ``\\n`` are percent-encoded, and in properties (``file``, ``title``) ``:`` and ``,``
too, so no data can end a property or the command early. Other control characters (ESC, OSC
sequences, which the Actions log would interpret) are shown as visible escapes.
"""

from __future__ import annotations

import os
from pathlib import Path

from groundcheck.model import Finding, Verdict
from groundcheck.render.escape import visible_controls
from groundcheck.render.text import summary_line

__all__ = ["escape_data", "escape_property", "verdict_github"]


def escape_data(text: str) -> str:
    r"""A workflow command's message, escaped as GitHub requires.

    >>> escape_data("100% sure\nnext line")
    '100%25 sure%0Anext line'
    """
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return visible_controls(text)


def escape_property(text: str) -> str:
    """A workflow command's property value (``file=``, ``title=``), escaped as GitHub requires.

    >>> escape_property("a,b: c")
    'a%2Cb%3A c'
    """
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _file(path: str) -> str:
    """The path as Actions expects it: relative to the workspace (the working directory)."""
    if not Path(path).is_absolute():
        return path.replace(os.sep, "/")
    relative = os.path.relpath(path)
    if relative.startswith(os.pardir):
        return path
    return relative.replace(os.sep, "/")


def _annotation(f: Finding, path: str, embedded: bool) -> str:
    c = f.citation
    message = f.message
    props = []
    if c is None or (embedded and c.source is None):
        props += [f"file={escape_property(_file(path))}", "line=1"]
        if c is not None:
            message += f" (in the final answer the trace holds: line {c.line}, column {c.column})"
    else:
        props += [f"file={escape_property(_file(c.source or path))}", f"line={c.line}"]
        props.append(f"col={c.column}")
        if "\n" not in c.raw:
            props += [f"endLine={c.line}", f"endColumn={c.column + len(c.raw)}"]
    props.append(f"title={escape_property(f'groundcheck {f.code}')}")
    kind = "error" if f.severity == "error" else "warning"
    return f"::{kind} {','.join(props)}::{escape_data(message)}"


def verdict_github(verdict: Verdict, path: str = "report", *, embedded: bool = False) -> str:
    """One annotation per finding, then the summary as a ``::notice``."""
    lines = [_annotation(f, path, embedded) for f in sorted(verdict.findings, key=Finding.sort_key)]
    lines.append(
        f"::notice title={escape_property('groundcheck')}::{escape_data(summary_line(verdict))}"
    )
    return "\n".join(lines) + "\n"
