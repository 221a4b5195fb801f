"""The package's shape: the pinned public API, no name shadowed by a submodule, no import cycle."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import groundcheck

SRC = Path(groundcheck.__file__).resolve().parent

PUBLIC = [
    "SCHEMA",
    "AuditContext",
    "Auditor",
    "Check",
    "Citation",
    "CitationRefused",
    "ConfigError",
    "Evidence",
    "EvidenceSet",
    "Extractor",
    "Finding",
    "GroundcheckError",
    "Grounding",
    "Identifier",
    "InputError",
    "Ledger",
    "LedgerError",
    "LedgerRun",
    "LedgerWarning",
    "Mention",
    "PluginError",
    "Policy",
    "Registry",
    "RegistryError",
    "Scheme",
    "TextView",
    "TitleExtractor",
    "TitleIndex",
    "TitleMatch",
    "Trace",
    "UngroundedReportError",
    "Verdict",
    "Work",
    "__version__",
    "audit",
    "default_registry",
    "extract",
    "from_tool_calls",
    "load_evidence",
    "load_tool_calls",
    "register_extractor",
]


def _submodules() -> list[str]:
    found = pkgutil.walk_packages([str(SRC)], "groundcheck.")
    return sorted(m.name for m in found if not m.name.endswith("__main__"))


def test_public_names_are_pinned() -> None:
    """What ``groundcheck/__init__.py`` exports is the contract: a change here is deliberate."""
    assert sorted(groundcheck.__all__) == sorted(PUBLIC)
    for name in PUBLIC:
        assert getattr(groundcheck, name) is not None


def test_no_submodule_is_named_like_a_public_name() -> None:
    """Importing ``groundcheck.X`` binds ``X`` on the package: it must never be a public name."""
    top = {name.split(".")[1] for name in _submodules()}
    assert top.isdisjoint(groundcheck.__all__)


def test_public_names_survive_importing_every_submodule() -> None:
    """``groundcheck.audit`` stays the function whatever was imported before it."""
    before = {name: getattr(groundcheck, name) for name in groundcheck.__all__}
    for module in _submodules():
        try:
            importlib.import_module(module)
        except ImportError as exc:  # an integration whose framework is not installed
            if "groundcheck" in str(exc):
                raise
            continue
        for name, value in before.items():
            assert getattr(groundcheck, name) is value, f"{module} rebinds groundcheck.{name}"
    assert callable(groundcheck.audit) and not isinstance(groundcheck.audit, type(groundcheck))


@pytest.mark.parametrize(
    "first",
    ["groundcheck.auditor", "groundcheck.ledger", "groundcheck.cli", "groundcheck.batch"],
)
def test_audit_is_the_function_in_a_fresh_process(first: str) -> None:
    """The import orders that once turned ``groundcheck.audit`` into a module."""
    code = (
        f"import {first}\nimport groundcheck\nfrom groundcheck import Policy, audit\n"
        "groundcheck.Policy()\nv = groundcheck.audit('arXiv:2005.11401', [])\n"
        "assert not v.ok, v\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_importing_groundcheck_imports_no_submodule_and_no_framework() -> None:
    code = (
        "import sys, groundcheck\n"
        "mods = sorted(m for m in sys.modules if m.startswith('groundcheck.'))\n"
        "heavy = [m for m in ('attrs', 'regex', 'rapidfuzz', 'bibtexparser', 'inspect_ai', "
        "'mcp', 'langchain_core', 'agents', 'opentelemetry', 'ray') if m in sys.modules]\n"
        "assert not mods and not heavy, (mods, heavy)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- the import graph --------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[str]:
    """Every module an import statement names, at any depth (functions included), except
    under ``if TYPE_CHECKING:``, which never runs."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                yield f"{base}.{alias.name}"
                yield base
        stack.extend(ast.iter_child_nodes(node))


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        edges: set[str] = set()
        is_package = path.name == "__init__.py"
        for target in _imports(ast.parse(path.read_text("utf-8")), name, is_package):
            if target not in files:
                continue
            # Importing a.b.c runs the packages a and a.b first, unless they are this module's
            # own ancestors (already running when this module runs).
            parts = target.split(".")
            for k in range(1, len(parts) + 1):
                step = ".".join(parts[:k])
                if step in files and step != name and not name.startswith(step + "."):
                    edges.add(step)
        graph[name] = edges
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_anywhere() -> None:
    """Arrows only point down the floors of DESIGN.md, lazy imports inside functions included."""
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
