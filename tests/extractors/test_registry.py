"""The extractor registry: registration, clashes, decorators, plug-ins, isolation."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import groundcheck
from groundcheck import Identifier, Mention, Registry, audit
from groundcheck.errors import PluginError, RegistryError
from groundcheck.extractors import extract
from groundcheck.extractors.builtin import builtin_registry, default_registry
from groundcheck.extractors.registry import FunctionExtractor

RFC = re.compile(r"RFC\s*([0-9]{1,5})\b")


def find_rfc(text: str) -> Iterator[Mention]:
    """IETF RFC numbers written as RFC 9110 (groundcheck ships no rfc extractor)."""
    for m in RFC.finditer(text):
        yield Mention(Identifier("rfc", m[1]), m.start(1), m.end(1))


def test_register_and_use_a_custom_extractor(registry: Registry) -> None:
    """A user's RFC extractor, a few lines long, grounds and flags like the built-ins."""
    registry.register(find_rfc, name="rfc")
    v = audit(
        "Shown in RFC 123 and RFC 999.",
        [{"tool": "rfc_index", "output": {"rfcs": ["RFC 123"]}}],
        registry=registry,
    )
    assert [(f.code, f.citation.id) for f in v.findings if f.citation] == [("fabricated-id", "999")]
    assert "rfc:999 is not in any tool output" in v.findings[0].message


def test_decorator_forms(registry: Registry) -> None:
    @registry.extractor
    def rfc_plain(text: str) -> Iterator[Mention]:
        yield from find_rfc(text)

    @registry.extractor("rfc")
    def whatever(text: str) -> Iterator[Mention]:
        yield from find_rfc(text)

    assert "rfc-plain" in registry
    assert "rfc" in registry
    assert registry.get("rfc").description == ""
    assert registry.names()[-2:] == ["rfc-plain", "rfc"]


def test_name_clash_is_an_error_unless_replace(registry: Registry) -> None:
    with pytest.raises(RegistryError, match=r"'doi' is already registered \(from builtin\)"):
        registry.register(find_rfc, name="doi")
    registry.register(find_rfc, name="doi", replace=True)
    assert registry.get("doi").find("RFC 5") is not None
    assert isinstance(RegistryError("x"), ValueError)


@pytest.mark.parametrize("name", ["", "RFC", "has space", "-x", "a--b", 3])
def test_bad_names_are_rejected(registry: Registry, name: object) -> None:
    with pytest.raises(RegistryError, match="not valid"):
        registry.register(find_rfc, name=name)  # type: ignore[arg-type]


def test_not_an_extractor(registry: Registry) -> None:
    with pytest.raises(RegistryError, match="is not an extractor"):
        registry.register(42)  # type: ignore[arg-type]


def test_class_based_extractor(registry: Registry) -> None:
    class Rfc:
        name = "rfc"
        description = "RFC numbers"

        def find(self, text: str) -> Iterator[Mention]:
            return find_rfc(text)

    registry.register(Rfc)
    assert registry.get("rfc").description == "RFC numbers"
    with pytest.raises(RegistryError, match="names itself 'rfc', registered as 'other'"):
        registry.register(Rfc(), name="other")


def test_unregister_and_unknown(registry: Registry) -> None:
    before = registry.names()
    registry.unregister("doi")
    assert registry.names() == [n for n in before if n != "doi"]
    with pytest.raises(RegistryError, match="no extractor named 'doi'"):
        registry.get("doi")
    with pytest.raises(RegistryError):
        registry.unregister("doi")


def test_copy_is_isolated(registry: Registry) -> None:
    clone = registry.copy()
    clone.register(find_rfc, name="rfc")
    assert "rfc" in clone
    assert "rfc" not in registry


def test_default_registry_sees_decorated_user_extractors() -> None:
    """eyecite's trap avoided: what a user registers is used by the default audit."""
    name = "test-default-rfc"
    groundcheck.register_extractor(name)(find_rfc)
    try:
        v = audit("RFC 77", [])
        assert [c.citation.scheme for c in v.citations] == ["rfc"]
    finally:
        default_registry().unregister(name)


def test_misbehaving_extractor_is_named(registry: Registry) -> None:
    def broken(text: str) -> Iterator[Mention]:
        raise RuntimeError("boom")
        yield  # pragma: no cover

    def liar(text: str) -> Iterator[Mention]:
        yield Mention(Identifier("x", "y"), 0, len(text) + 5)

    def wrong_type(text: str) -> Iterator[object]:
        yield ("x", 0, 1)

    for name, func, message in [
        ("broken", broken, "failed: RuntimeError: boom"),
        ("liar", liar, "outside a text"),
        ("wrong-type", wrong_type, "yielded tuple, not a Mention"),
    ]:
        reg = Registry([FunctionExtractor(name, func)])  # type: ignore[arg-type]
        with pytest.raises(PluginError, match=message):
            extract("abc", reg)


def _plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    (tmp_path / "gc_test_plugin.py").write_text(textwrap.dedent(source), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "gc_test_plugin", raising=False)


def _entry_points(monkeypatch: pytest.MonkeyPatch, *eps: EntryPoint) -> None:
    def fake(group: str) -> list[EntryPoint]:
        return [ep for ep in eps if ep.group == group]

    monkeypatch.setattr("importlib.metadata.entry_points", fake)


def _ep(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group="groundcheck.extractors")


def test_entry_point_discovery_is_lazy_and_explicit(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discovery registers names; the plug-in module is imported only when first used."""
    _plugin(
        tmp_path,
        monkeypatch,
        """
        import re, sys
        from groundcheck import Identifier, Mention
        LOADED = True
        def find_rfc(text):
            for m in re.finditer(r"RFC\\s*(\\d+)", text):
                yield Mention(Identifier("rfc", m[1]), m.start(1), m.end(1))
        """,
    )
    _entry_points(monkeypatch, _ep("rfc", "gc_test_plugin:find_rfc"))
    assert registry.discover() == ["rfc"]
    assert "gc_test_plugin" not in sys.modules
    assert registry.source("rfc").startswith("entry point gc_test_plugin:find_rfc")
    assert [c.id for c in extract("RFC 42", registry)] == ["42"]
    assert "gc_test_plugin" in sys.modules
    assert registry.discover() == []  # idempotent


def test_broken_plugin_is_a_clear_error(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plugin(tmp_path, monkeypatch, "raise ImportError('missing dependency foo')\n")
    _entry_points(monkeypatch, _ep("bad", "gc_test_plugin:find"))
    registry.discover()
    with pytest.raises(PluginError, match=r"'bad' \(gc_test_plugin:find\) failed to import"):
        registry.get("bad")


def test_plugin_name_clash_is_an_error(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    _entry_points(monkeypatch, _ep("doi", "somewhere:find"))
    with pytest.raises(RegistryError, match="'doi' is already registered"):
        registry.discover()


def test_plugin_that_is_not_an_extractor(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plugin(tmp_path, monkeypatch, "find = 42\n")
    _entry_points(monkeypatch, _ep("num", "gc_test_plugin:find"))
    registry.discover()
    with pytest.raises(PluginError, match="is not an extractor"):
        registry.get("num")


def test_docs_custom_extractor_example_runs() -> None:
    """The custom-extractor example in docs/extractors.md runs as written."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "extractors.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert blocks, "docs/extractors.md has no python example"
    namespace: dict[str, object] = {}
    try:
        exec(blocks[0], namespace)
    finally:
        if "rfc" in default_registry():
            default_registry().unregister("rfc")


# -- plug-in isolation (issue 14: one broken plug-in must not stop the others) ---------------


def test_plugin_calling_sys_exit_on_import_is_a_plugin_error(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plug-in's ``sys.exit(0)`` at import is its failure, never the end of the audit."""
    _plugin(tmp_path, monkeypatch, "import sys\nsys.exit(0)\n")
    _entry_points(monkeypatch, _ep("exiter", "gc_test_plugin:find"))
    registry.discover()
    with pytest.raises(PluginError, match="failed to import: SystemExit: 0"):
        registry.get("exiter")


def test_plugin_calling_sys_exit_while_running_is_a_plugin_error(registry: Registry) -> None:
    def exits(text: str) -> Iterator[Mention]:
        raise SystemExit(0)
        yield  # pragma: no cover

    registry.register(exits, name="exits")
    with pytest.raises(PluginError, match="'exits' failed: SystemExit: 0"):
        extract("abc", registry)


def test_tolerant_discovery_sets_broken_plugins_aside(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """strict=False: a clash, a bad name and a failed import are listed; the rest still run."""
    _plugin(
        tmp_path,
        monkeypatch,
        """
        import re
        from groundcheck import Identifier, Mention
        def find_rfc(text):
            for m in re.finditer(r"RFC\\s*(\\d+)", text):
                yield Mention(Identifier("rfc", m[1]), m.start(1), m.end(1))
        raise_later = None
        """,
    )
    (tmp_path / "gc_broken_plugin.py").write_text("raise ImportError('no foo')\n", "utf-8")
    monkeypatch.delitem(sys.modules, "gc_broken_plugin", raising=False)
    _entry_points(
        monkeypatch,
        _ep("rfc", "gc_test_plugin:find_rfc"),
        _ep("doi", "gc_test_plugin:find_rfc"),
        _ep("Bad Name", "gc_test_plugin:find_rfc"),
        _ep("broken", "gc_broken_plugin:find"),
    )
    assert registry.discover(strict=False) == ["broken", "rfc"]
    broken = registry.broken()
    assert sorted(broken) == [
        "Bad Name (gc_test_plugin:find_rfc)",
        "broken",
        "doi (gc_test_plugin:find_rfc)",
    ]
    assert "ImportError: no foo" in broken["broken"]
    assert "already registered" in broken["doi (gc_test_plugin:find_rfc)"]
    names = [ex.name for ex in registry]
    assert names == [*builtin_registry().names(), "rfc"]
    assert [c.id for c in extract("RFC 42 and 10.1000/xyz", registry)] == ["42", "10.1000/xyz"]
    with pytest.raises(PluginError, match="no foo"):
        registry.get("broken")  # asked for by name, it is still an error
    assert registry.copy().broken() == broken


def test_broken_plugin_is_imported_once(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed load is remembered: the module's side effects do not run again on each use."""
    counter = tmp_path / "imports.txt"
    _plugin(
        tmp_path,
        monkeypatch,
        f"""
        with open({str(counter)!r}, "a") as f:
            f.write("x")
        raise RuntimeError("broken on import")
        """,
    )
    _entry_points(monkeypatch, _ep("bad", "gc_test_plugin:find"))
    registry.discover(strict=False)
    for _ in range(3):
        assert "broken on import" in registry.broken()["bad"]
        list(registry)
    assert counter.read_text("utf-8") == "x"


# -- finding plug-ins without importlib.metadata ------------------------------------------------


def _dist_info(where: Path, name: str, entry_points: str | None) -> Path:
    info = where / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points, "utf-8")
    return info


def test_the_cheap_scan_finds_every_plugin_importlib_metadata_finds(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed distribution declaring the group is found by the scan, and discovery then
    registers exactly what importlib.metadata lists; distributions declaring other groups
    (or none) are not taken for plug-ins."""
    from importlib.metadata import entry_points

    from groundcheck.extractors.registry import ENTRY_POINT_GROUP, _may_provide

    site = tmp_path / "site"
    _dist_info(site, "other_tool", "[console_scripts]\nother = other:main\n")
    _dist_info(site, "no_entry_points", None)
    monkeypatch.syspath_prepend(str(site))
    real = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    assert _may_provide(ENTRY_POINT_GROUP) == bool(real)
    _plugin(tmp_path, monkeypatch, "def find(text):\n    return []\n")
    _dist_info(site, "gc_scan_plugin", f"[{ENTRY_POINT_GROUP}]\nscanned = gc_test_plugin:find\n")
    # Installing changes the directory's mtime; the kernel's clock ticks in milliseconds, so
    # move it on explicitly, as the later install it stands for would.
    stat = site.stat()
    os.utime(site, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
    assert _may_provide(ENTRY_POINT_GROUP)
    assert "scanned" in registry.discover()
    assert sorted(set(registry.names()) - set(builtin_registry().names())) == sorted(
        ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)
    )


def test_path_entries_the_scan_cannot_read_ask_importlib_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from groundcheck.extractors.registry import ENTRY_POINT_GROUP, _may_provide

    archive = tmp_path / "plugins.zip"
    archive.write_bytes(b"PK\x05\x06" + b"\x00" * 18)  # an empty zip on sys.path
    monkeypatch.syspath_prepend(str(archive))
    assert _may_provide(ENTRY_POINT_GROUP)


def test_start_up_without_plugins_never_imports_importlib_metadata(tmp_path: Path) -> None:
    """With no plug-in installed, discovery costs a directory scan, not importlib.metadata."""
    from importlib.metadata import entry_points

    from groundcheck.extractors.registry import ENTRY_POINT_GROUP

    site = tmp_path / "site"
    _dist_info(site, "other_tool", "[console_scripts]\nother = other:main\n")
    path = [str(site), str(Path(groundcheck.__file__).parents[1])]
    script = (
        f"import sys; sys.path[:0] = {path!r}\n"
        "from groundcheck.extractors import default_registry\n"
        "registry = default_registry().copy()\n"
        "print(len(registry.discover(strict=False)), 'importlib.metadata' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    installed = len(entry_points(group=ENTRY_POINT_GROUP))  # none, unless this machine has some
    assert run.stdout.split() == [str(installed), str(installed > 0)]
