"""Where extractors live: an explicit registry object and plug-in discovery.

Lessons taken from eyecite, pluggy and fsspec: the registry is an object you can copy or build
fresh (tests never touch global state), a name clash is an error unless ``replace=True`` is
asked for, and entry points are discovered only when asked and imported only when first used,
so a broken plug-in names itself instead of breaking every audit.

A plug-in is third-party code running inside every audit, so it is isolated from the
interpreter's exit: a ``SystemExit`` raised while importing it (or, see
:mod:`groundcheck.extractors.pipeline`, while it runs) is a :class:`PluginError` like any other
failure, never the end of the process. ``discover(strict=False)`` goes further, as the CLI
does: a plug-in that cannot be registered or loaded is set aside, listed by :meth:`broken`
with its error, and the other extractors still run.

The registry knows nothing of its contents: the built-in families and the default registry
live in :mod:`groundcheck.extractors.builtin`, which imports this module (never the reverse).
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from stat import S_ISDIR
from typing import TYPE_CHECKING, Any, Protocol, overload, runtime_checkable

from groundcheck.errors import PluginError, RegistryError
from groundcheck.model import Mention, Scheme

if TYPE_CHECKING:  # importlib.metadata costs ~40 ms; load it only when plug-ins are discovered
    from importlib.metadata import EntryPoint

__all__ = [
    "ENTRY_POINT_GROUP",
    "Extractor",
    "FunctionExtractor",
    "Registry",
    "scheme_table",
    "schemes_of",
]

ENTRY_POINT_GROUP = "groundcheck.extractors"

_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*")


@runtime_checkable
class Extractor(Protocol):
    """Finds identifiers of one family in a text.

    ``find`` receives the normalised view of a report or of a tool output (see
    :mod:`groundcheck.text`) and yields :class:`~groundcheck.model.Mention` objects whose
    offsets index that string. It never sees evidence and never decides whether a mention is
    grounded: that is the checks' job.
    """

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def find(self, text: str) -> Iterable[Mention]: ...


def schemes_of(extractor: Extractor) -> tuple[Scheme, ...]:
    """The schemes an extractor says it finds (the optional ``schemes`` attribute)."""
    found = getattr(extractor, "schemes", ())
    return tuple(s for s in found if isinstance(s, Scheme)) if isinstance(found, tuple) else ()


def scheme_table(extractors: Iterable[Extractor]) -> dict[str, Scheme]:
    """Every scheme the extractors describe, by name (the first description of a name wins)."""
    table: dict[str, Scheme] = {}
    for extractor in extractors:
        for scheme in schemes_of(extractor):
            table.setdefault(scheme.name, scheme)
    return table


class FunctionExtractor:
    """Adapts a plain function ``text -> Iterable[Mention]`` to the :class:`Extractor` protocol.

    ``schemes`` describe the identifiers it finds (label and citation prefix, for messages).
    """

    __slots__ = ("_description", "_func", "_name", "schemes")

    def __init__(
        self,
        name: str,
        func: Callable[[str], Iterable[Mention]],
        description: str = "",
        schemes: tuple[Scheme, ...] = (),
    ):
        self._name = name
        self._func = func
        doc = (func.__doc__ or "").strip().splitlines()
        self._description = description or (doc[0] if doc else "")
        self.schemes = schemes

    @property
    def name(self) -> str:
        return self._name

    @property
    def description(self) -> str:
        return self._description

    def find(self, text: str) -> Iterable[Mention]:
        return self._func(text)

    def __repr__(self) -> str:
        return f"FunctionExtractor({self._name!r}, {self._func!r})"


class _Entry:
    """A registered extractor, or an entry point that will become one when first used.

    A failed load is remembered (``error``): the plug-in is imported once, and every later use
    raises the same :class:`PluginError` without importing it again. ``tolerant`` entries (from
    ``discover(strict=False)``) are skipped when all extractors are run.
    """

    __slots__ = ("_lock", "entry_point", "error", "extractor", "name", "source", "tolerant")

    def __init__(
        self,
        name: str,
        source: str,
        extractor: Extractor | None = None,
        entry_point: EntryPoint | None = None,
        tolerant: bool = False,
    ):
        self.name = name
        self.source = source
        self.extractor = extractor
        self.entry_point = entry_point
        self.tolerant = tolerant
        self.error: str | None = None
        self._lock = threading.Lock()

    def load(self) -> Extractor:
        if self.extractor is not None:
            return self.extractor
        with self._lock:
            if self.extractor is None and self.error is None:
                if self.entry_point is None:  # pragma: no cover - constructor guarantees one
                    raise PluginError(f"extractor {self.name!r} has nothing to load")
                try:
                    self.extractor = _load_entry_point(self.name, self.entry_point)
                except PluginError as exc:
                    self.error = str(exc)
            if self.extractor is None:
                raise PluginError(self.error or f"extractor {self.name!r} could not be loaded")
        return self.extractor


def _load_entry_point(name: str, ep: EntryPoint) -> Extractor:
    where = f"extractor plug-in {name!r} ({ep.value})"
    try:
        obj = ep.load()
    except (Exception, SystemExit) as exc:  # a plug-in's sys.exit() must not end the audit
        raise PluginError(f"{where} failed to import: {type(exc).__name__}: {exc}") from exc
    try:
        return _coerce(obj, name)
    except RegistryError as exc:
        raise PluginError(f"{where}: {exc}") from exc
    except (Exception, SystemExit) as exc:  # its .name or .find raised while being checked
        raise PluginError(f"{where} is not usable: {type(exc).__name__}: {exc}") from exc


def _entry_points(group: str) -> Iterable[EntryPoint]:
    """The entry points of ``group``; importlib.metadata only when a plug-in may be installed.

    Importing importlib.metadata and reading every installed distribution costs 60-80 ms of
    each start-up (the whole of the seed check's budget), and almost always finds nothing. So
    :func:`_may_provide` first looks, cheaply, for any distribution on ``sys.path`` whose
    ``entry_points.txt`` names the group; only then is importlib.metadata asked. A test (or a
    host) that replaced ``importlib.metadata.entry_points`` is always asked.
    """
    metadata = sys.modules.get("importlib.metadata")
    replaced = metadata is not None and not _genuine(getattr(metadata, "entry_points", None))
    if not replaced and not _may_provide(group):
        return ()
    from importlib.metadata import entry_points

    return entry_points(group=group)


def _genuine(func: Any) -> bool:
    return getattr(func, "__module__", None) == "importlib.metadata"


_scans: dict[tuple[str, tuple[tuple[str, int], ...]], bool] = {}
_scans_lock = threading.Lock()


def _may_provide(group: str) -> bool:
    """Whether any distribution on ``sys.path`` may declare entry points of ``group``.

    True is "ask importlib.metadata", never a promise: a path entry this scan cannot read
    (a zip, an egg) or a distribution finder other than the standard one answers True. The
    answer is kept per group and per set of path directories and their mtimes (installing or
    removing a distribution changes its directory's mtime), so discovering twice scans once.
    """
    if any(_finds_distributions(f) for f in sys.meta_path):
        return True
    stamps: list[tuple[str, int]] = []
    for entry in sys.path:
        path = entry or "."
        try:
            stat = os.stat(path)  # noqa: PTH116 - no pathlib at start-up (speed)
        except NotADirectoryError:  # "file/": pathlib reads it as the file, not a directory
            return True
        except OSError:
            continue  # a missing path entry holds no distribution
        if not S_ISDIR(stat.st_mode) or _suffix(path) == ".egg":
            return True
        stamps.append((path, stat.st_mtime_ns))
    key = (group, tuple(stamps))
    known = _scans.get(key)
    if known is None:
        known = any(_dir_mentions(path, group) for path, _ in stamps)
        with _scans_lock:
            _scans[key] = known
    return known


def _suffix(path: str) -> str:
    """``pathlib.PurePath(path).suffix``, without importing pathlib (~15 M instructions of
    a start-up): the suffix of the last part, empty and ``.`` parts ignored.

    >>> [_suffix(p) for p in ("a/b.egg", "b.egg/", "b.egg/.", ".egg", "a.", "a/b.tar.gz")]
    ['.egg', '.egg', '.egg', '', '', '.gz']
    """
    if os.altsep:
        path = path.replace(os.altsep, os.sep)
    parts = [part for part in path.split(os.sep) if part and part != "."]  # noqa: PTH206
    name = parts[-1] if parts else ""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def _finds_distributions(finder: Any) -> bool:
    """A meta-path finder, other than the standard path finder, that lists distributions."""
    import importlib.machinery

    return finder is not importlib.machinery.PathFinder and callable(
        getattr(finder, "find_distributions", None)
    )


def _dir_mentions(path: str, group: str) -> bool:
    """Whether a ``*.dist-info`` or ``*.egg-info`` in ``path`` names ``group`` anywhere in its
    ``entry_points.txt`` (a loose test: a false alarm only means importlib.metadata is asked).

    Plain ``os`` calls on names, not a ``Path`` per entry: a site-packages of a few hundred
    entries is read at every start-up."""
    try:
        names = os.listdir(path)  # noqa: PTH208 - names only, no Path per entry (speed)
    except OSError:
        return False
    for name in names:
        if not name.endswith((".dist-info", ".egg-info")):
            continue
        try:
            listed = os.path.join(path, name, "entry_points.txt")  # noqa: PTH118 - speed
            with open(listed, encoding="utf-8") as f:  # noqa: PTH123 - speed
                if group in f.read():
                    return True
        except (OSError, UnicodeDecodeError):
            continue
    return False


def _coerce(obj: Any, name: str | None) -> Extractor:
    """Accept an Extractor instance, a class that builds one, or a plain function."""
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:
            raise RegistryError(f"cannot instantiate {obj.__name__}: {exc}") from exc
    if isinstance(obj, Extractor):
        if name is not None and obj.name != name:
            raise RegistryError(f"extractor names itself {obj.name!r}, registered as {name!r}")
        return obj
    if callable(obj):
        fname = name if name is not None else getattr(obj, "__name__", "").replace("_", "-")
        return FunctionExtractor(fname, obj)
    raise RegistryError(
        f"{obj!r} is not an extractor: give a function text -> mentions, "
        "or an object with .name, .description and .find(text)"
    )


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise RegistryError(
            f"extractor name {name!r} is not valid: use lower-case letters, digits and "
            "single '-', '_' or '.' separators (e.g. 'pmid', 'arxiv-legacy')"
        )
    return name


class Registry:
    """An ordered set of named extractors.

    Order matters only for display; results never depend on it, because overlapping mentions
    are resolved by position (see :func:`groundcheck.extractors.extract`).
    """

    def __init__(self, extractors: Iterable[Extractor] = ()) -> None:
        self._entries: dict[str, _Entry] = {}
        self._unregistered: dict[str, str] = {}
        """Plug-ins ``discover(strict=False)`` could not register (bad name, clash): label ->
        error."""
        self._lock = threading.Lock()
        for ex in extractors:
            self.register(ex)

    # -- registration -----------------------------------------------------------------------

    def register(
        self,
        extractor: Extractor | Callable[[str], Iterable[Mention]],
        *,
        name: str | None = None,
        replace: bool = False,
        source: str = "user",
    ) -> Extractor:
        """Add an extractor; a clash with an existing name is an error unless ``replace``."""
        ex = _coerce(extractor, name)
        self._add(_Entry(_check_name(ex.name), source, extractor=ex), replace=replace)
        return ex

    @overload
    def extractor(self, func: Callable[[str], Iterable[Mention]], /) -> Extractor: ...

    @overload
    def extractor(
        self, name: str | None = None, /, *, replace: bool = False
    ) -> Callable[[Callable[[str], Iterable[Mention]]], Extractor]: ...

    def extractor(self, func_or_name: Any = None, /, *, replace: bool = False) -> Any:
        """Decorator form of :meth:`register`: ``@registry.extractor("pmid")``."""
        if callable(func_or_name) and not isinstance(func_or_name, str):
            return self.register(func_or_name)

        def decorate(func: Callable[[str], Iterable[Mention]]) -> Extractor:
            return self.register(func, name=func_or_name, replace=replace)

        return decorate

    def unregister(self, name: str) -> None:
        with self._lock:
            if name not in self._entries:
                raise RegistryError(
                    f"no extractor named {name!r}; known: {', '.join(self.names())}"
                )
            del self._entries[name]

    def discover(
        self, group: str = ENTRY_POINT_GROUP, *, replace: bool = False, strict: bool = True
    ) -> list[str]:
        """Register every entry point of ``group``; each is imported only when first used.

        Returns the names added. A plug-in whose name clashes with a registered extractor is
        an error (pass ``replace=True`` to let plug-ins win); re-discovering the same entry
        point is a no-op, so calling this twice is safe.

        With ``strict=False`` a plug-in that cannot be registered (a bad name, a clash) or, later,
        loaded is set aside instead: :meth:`broken` lists it with its error, and running all
        extractors skips it, so one broken plug-in does not stop the others.
        """
        added = []
        for ep in sorted(_entry_points(group), key=lambda e: (e.name, e.value)):
            current = self._entries.get(ep.name)
            if (
                current is not None
                and current.entry_point is not None
                and current.entry_point == ep
            ):
                continue
            source = f"entry point {ep.value}"
            dist = getattr(ep, "dist", None)
            if dist is not None:
                source = f"{dist.name} {dist.version} ({ep.value})"
            try:
                entry = _Entry(_check_name(ep.name), source, entry_point=ep, tolerant=not strict)
                self._add(entry, replace=replace)
            except RegistryError as exc:
                if strict:
                    raise
                self._unregistered[f"{ep.name} ({ep.value})"] = (
                    f"extractor plug-in {ep.name!r} ({source}) not registered: {exc}"
                )
                continue
            added.append(ep.name)
        return added

    def broken(self) -> dict[str, str]:
        """Plug-ins that could not be registered or loaded, with their errors, by name.

        Loads every plug-in not yet loaded (so a broken one is found now, not mid-audit).
        """
        found = dict(self._unregistered)
        for entry in list(self._entries.values()):
            if entry.entry_point is None:
                continue
            try:
                entry.load()
            except PluginError as exc:
                found[entry.name] = str(exc)
        return dict(sorted(found.items()))

    def _add(self, entry: _Entry, *, replace: bool) -> None:
        with self._lock:
            existing = self._entries.get(entry.name)
            if existing is not None and not replace:
                raise RegistryError(
                    f"an extractor named {entry.name!r} is already registered "
                    f"(from {existing.source}); pass replace=True to override it"
                )
            self._entries[entry.name] = entry

    # -- lookup -------------------------------------------------------------------------------

    def get(self, name: str) -> Extractor:
        entry = self._entries.get(name)
        if entry is None:
            raise RegistryError(f"no extractor named {name!r}; known: {', '.join(self.names())}")
        return entry.load()

    def names(self) -> list[str]:
        return list(self._entries)

    def source(self, name: str) -> str:
        entry = self._entries.get(name)
        if entry is None:
            raise RegistryError(f"no extractor named {name!r}")
        return entry.source

    def select(self, names: Iterable[str] | None) -> tuple[Extractor, ...]:
        """The extractors to run: all of them, or those named (unknown names are an error)."""
        if names is None:
            return tuple(self)
        return tuple(self.get(n) for n in names)

    def copy(self) -> Registry:
        clone = Registry()
        clone._entries = dict(self._entries)
        clone._unregistered = dict(self._unregistered)
        return clone

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[Extractor]:
        """Every extractor, loaded; a broken tolerant plug-in is skipped (see :meth:`broken`)."""
        for entry in list(self._entries.values()):
            if entry.tolerant:
                try:
                    yield entry.load()
                except PluginError:
                    continue
            else:
                yield entry.load()

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.names()!r})"
