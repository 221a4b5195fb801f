"""The error an integration raises when its framework is not installed."""

from __future__ import annotations

__all__ = ["missing"]


def missing(what: str, package: str, module: str, extra: str) -> ModuleNotFoundError:
    """``ModuleNotFoundError`` for ``module``, saying what needs it and how to install it.

    >>> str(missing("the MCP server", "mcp", "mcp", "mcp"))
    "the MCP server needs mcp, which is not installed: pip install mcp (or the 'mcp' extra)"
    """
    return ModuleNotFoundError(
        f"{what} needs {package}, which is not installed: "
        f"pip install {package} (or the '{extra}' extra)",
        name=module,
    )
