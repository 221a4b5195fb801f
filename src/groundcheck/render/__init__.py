"""Renderers: one table from (what, format) to a function, used by every command.

Renderers never decide; they turn a result into text. ``formats(kind)`` gives the CLI its
``--format`` choices, so a new renderer is one row here and nothing else. Whatever a renderer
returns, :func:`render` replaces lone surrogates in it (a ``\\ud800`` escape in a trace's JSON
becomes one), so every output encodes as UTF-8.

>>> formats("verdict")
('text', 'json', 'sarif', 'github', 'html')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from attrs import frozen

from groundcheck.errors import ConfigError
from groundcheck.render.escape import replace_surrogates

__all__ = ["RENDERERS", "RenderContext", "formats", "render"]


@frozen
class RenderContext:
    """What a renderer may need beyond the value: where the report came from, the version."""

    path: str = "report"
    """The name findings are reported under (the report file, or the name given to stdin)."""
    version: str = ""
    color: bool = False
    """Text formats: colour for a terminal (the CLI decides: a TTY, and no ``NO_COLOR``)."""
    quiet: bool = False
    """Text formats: only the findings and the summary, no ``note:`` lines."""
    base: str | None = None
    """SARIF: the directory artifact URIs are relative to (default the working directory)."""
    embedded: bool = False
    """The report is text held inside ``path`` (a trace's final answer), so its lines and
    columns are not lines of that file."""
    report: str | None = None
    """HTML: the report text itself, shown with its citations highlighted."""
    indent: int | None = None
    """JSON: spaces per level, or None (the default) for compact JSON, one line: machine
    output is read by programs, and compact JSON is written by the C encoder, ~3x faster."""


Renderer = Callable[[Any, RenderContext], str]


def _verdict_text(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.text import verdict_text

    return verdict_text(value, ctx.path, color=ctx.color, quiet=ctx.quiet)


def _json_text(data: Any, indent: int | None) -> str:
    """``data`` as JSON (compact unless ``indent``), ending in one newline like every output."""
    from groundcheck.model import dumps

    text = dumps(data, indent=indent, compact=True)
    return text if text.endswith("\n") else text + "\n"


def _verdict_json(value: Any, ctx: RenderContext) -> str:
    return _json_text(value.to_dict(), ctx.indent)


def _verdict_sarif(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.sarif import verdict_sarif

    return verdict_sarif(value, ctx.path, ctx.version, base=ctx.base, embedded=ctx.embedded)


def _verdict_github(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.github import verdict_github

    return verdict_github(value, ctx.path, embedded=ctx.embedded)


def _verdict_html(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.html import verdict_html

    return verdict_html(value, ctx.path, ctx.report, ctx.version)


def _citations_text(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.text import citations_text

    return citations_text(value, ctx.path)


def _json(value: Any, ctx: RenderContext) -> str:
    data = value.to_dict() if hasattr(value, "to_dict") else value
    if isinstance(data, (list, tuple)):
        data = [item.to_dict() if hasattr(item, "to_dict") else item for item in data]
    return _json_text(data, ctx.indent)


def _citations_json(value: Any, ctx: RenderContext) -> str:
    if ctx.indent is not None or not isinstance(value, (list, tuple)):
        return _json(value, ctx)
    from groundcheck.render.citations import citations_json

    return citations_json(value) + "\n"


def _rate_text(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.rates import rate_text

    return rate_text(value)


def _rate_html(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.html import rate_html
    from groundcheck.render.plot import forest_svg

    return rate_html(value, ctx.version, forest_svg(value))


def _compare_text(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.rates import compare_text

    return compare_text(value)


def _extractors_text(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.text import extractors_text

    return extractors_text(value)


def _ledger_text(value: Any, ctx: RenderContext) -> str:
    from groundcheck.render.text import ledger_text

    return ledger_text(value["runs"])


RENDERERS: Mapping[tuple[str, str], Renderer] = MappingProxyType(
    {
        ("verdict", "text"): _verdict_text,
        ("verdict", "json"): _verdict_json,
        ("verdict", "sarif"): _verdict_sarif,
        ("verdict", "github"): _verdict_github,
        ("verdict", "html"): _verdict_html,
        ("citations", "text"): _citations_text,
        ("citations", "json"): _citations_json,
        ("rate", "text"): _rate_text,
        ("rate", "json"): _json,
        ("rate", "html"): _rate_html,
        ("compare", "text"): _compare_text,
        ("compare", "json"): _json,
        ("extractors", "text"): _extractors_text,
        ("extractors", "json"): _json,
        ("ledger", "text"): _ledger_text,
        ("ledger", "json"): _json,
    }
)
"""Every renderer, by (kind of result, format name). Read-only."""


def formats(kind: str) -> tuple[str, ...]:
    """The format names a kind of result can be rendered in, in table order."""
    return tuple(fmt for k, fmt in RENDERERS if k == kind)


def render(kind: str, fmt: str, value: Any, ctx: RenderContext | None = None) -> str:
    """Render ``value`` (a verdict, a rate report, ...) in format ``fmt``."""
    renderer = RENDERERS.get((kind, fmt))
    if renderer is None:
        known = ", ".join(formats(kind)) or "none"
        raise ConfigError(f"no {fmt!r} format for {kind}; known: {known}")
    return replace_surrogates(renderer(value, ctx or RenderContext()))


def verdict_text(verdict: Any, path: str = "report") -> str:
    """The text verdict (kept here for callers of ``groundcheck.render.verdict_text``)."""
    from groundcheck.render.text import verdict_text as text

    return text(verdict, path)
