"""Provenance: what a call really returned, as opposed to the agent's own words coming back.

Every rule here is written down, with examples, in ``docs/evidence.md``. In short:

1. **Echoes.** A result that repeats a call's own *composite* argument (a path, a URL, a query
   holding more than the identifier itself) does not ground what sits inside that repeat;
   a result that is *only* such a repeat plus summary words (``Read pdf file: <path>``,
   ``Search results for "<query>" returned.``) is not a recorded output at all.
2. **The agent's files.** A file the agent wrote (heredoc, ``echo >``, ``tee``, ``Write``,
   ``write_file``, ``apply_patch``) and later read back is not evidence; a file name the agent
   chose (``curl -o papers/<id>_name.pdf``, ``mkdir``, ``cp``) is the agent's own text wherever
   a later output shows it (``ls``). :class:`Provenance` holds this for *one run*, across all
   its trace files: a run loader scans every file's calls first, so a write in one file is
   known when another file reads it back, in whatever order the files were given.
3. **Fetches.** A fetch-type call (:class:`FetchRule`) that returned real content also grounds
   the URL it was asked for: a fetch returns the page, not its address.

Nothing here reads files or judges a report; the :class:`~groundcheck.evidence.trace.TraceBuilder`
asks, and :func:`~groundcheck.evidence.trace.make_evidence` applies the answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from attrs import field, frozen

from groundcheck.evidence.jsonio import parse_json
from groundcheck.evidence.shell import NAMED, READ, WROTE, file_effects, patch_paths

__all__ = [
    "FETCH",
    "NAMED",
    "SUMMARY_WORDS",
    "WROTE",
    "FetchRule",
    "FileIndex",
    "Provenance",
    "argument_strings",
    "echo_spans",
    "summary_verdict",
]

# -- tools that write, read and fetch -------------------------------------------------------

WRITE_TOOLS = frozenset(
    {
        "write", "write_file", "writefile", "create_file", "edit", "edit_file", "multiedit",
        "str_replace_editor", "str_replace_based_edit_tool", "text_editor", "file_change",
        "replace", "save_file", "append_file", "notebookedit", "apply_patch", "move_file",
    }
)  # fmt: skip
"""Tools whose call writes the agent's own text to a file (case-insensitive names)."""

_EDITOR_READS = frozenset({"view"})
"""``command`` values of editor tools (str_replace_editor, text_editor) that only read."""
_DIRECTORY_TOOLS = frozenset({"create_directory", "make_directory", "mkdir"})
_DOWNLOAD_TOOL = re.compile(r"(?i)download|save_?url|save_?pdf|fetch_?to_?file")
_READ_TOOL = re.compile(r"(?i)read|view|cat|open|get_file|head|tail|less|more|bat")
_COMMAND_KEYS = ("command", "cmd", "script")
PATH_KEYS = (
    "path", "file_path", "filepath", "absolute_path", "filename", "file", "notebook_path", "target",
    "destination", "dest", "output_path", "save_path", "out_path",
)  # fmt: skip
"""Argument keys that name a file (one level deep; ``paths``/``changes`` lists too)."""


def paths_in(args: Any) -> list[str]:
    """File paths named in tool arguments under :data:`PATH_KEYS` (and ``paths``, ``changes``)."""
    found: list[str] = []
    if isinstance(args, Mapping):
        for key in PATH_KEYS:
            value = args.get(key)
            if isinstance(value, str) and value.strip():
                found.append(value.strip())
        for key in ("paths", "files"):
            values = args.get(key)
            if isinstance(values, list):
                found.extend(v.strip() for v in values if isinstance(v, str) and v.strip())
        changes = args.get("changes")
        if isinstance(changes, list):
            for change in changes:
                found.extend(paths_in(change))
    return found


def _command_of(args: Any) -> str | list[Any] | None:
    if isinstance(args, str):
        return args
    if isinstance(args, Mapping):
        for key in _COMMAND_KEYS:
            value = args.get(key)
            if isinstance(value, (str, list)):
                return value
    if isinstance(args, list):
        return args
    return None


def is_action(tool: str, args: Any, actions: frozenset[str]) -> bool:
    """A call that acts rather than looks up: a tool in ``actions``, except an editor's
    ``view`` command, which reads."""
    if tool.lower() not in actions:
        return False
    command = args.get("command") if isinstance(args, Mapping) else None
    return not (isinstance(command, str) and command in _EDITOR_READS)


_EFFECT_KEYS = frozenset(
    (*PATH_KEYS, *_COMMAND_KEYS, "paths", "files", "changes", "input", "patch", "command")
)


def call_effects(tool: str, args: Any) -> list[tuple[str, str]]:
    """``(path, kind)`` for every file a call writes (``wrote``), names (``named``) or reads."""
    name = tool.lower()
    if isinstance(args, Mapping) and name not in WRITE_TOOLS and _EFFECT_KEYS.isdisjoint(args):
        return []  # a lookup that names no file and runs no command (most calls)
    effects: list[tuple[str, str]] = []
    if isinstance(args, Mapping):
        editor_command = args.get("command") if name in WRITE_TOOLS else None
        if isinstance(editor_command, str) and editor_command in _EDITOR_READS:
            return [(p, READ) for p in paths_in(args)]
        if name in WRITE_TOOLS:
            effects.extend((p, WROTE) for p in paths_in(args))
            patch = args.get("input", args.get("patch"))
            if isinstance(patch, str):
                effects.extend((p, WROTE) for p in patch_paths(patch))
            if isinstance(editor_command, str):
                return effects
        elif name in _DIRECTORY_TOOLS or _DOWNLOAD_TOOL.search(name):
            effects.extend((p, NAMED) for p in paths_in(args))
        elif _READ_TOOL.search(name):
            effects.extend((p, READ) for p in paths_in(args))
    command = _command_of(args)
    if isinstance(command, list):
        words = [str(w) for w in command]
        if words and PurePosixPath(words[0]).name in ("apply_patch", "applypatch"):
            return effects + [(p, WROTE) for w in words[1:] for p in patch_paths(w)]
        command = " ".join(_quote(w) for w in words)
    if isinstance(command, str) and (name not in WRITE_TOOLS or name == "apply_patch"):
        if name == "apply_patch" and "*** " in command and "\n" in command:
            effects.extend((p, WROTE) for p in patch_paths(command))
        else:
            effects.extend((e.path, e.kind) for e in file_effects(command))
    return effects


def _quote(word: str) -> str:
    return word if re.fullmatch(r"[\w@%+=:,./-]+", word) else "'" + word.replace("'", "'\\''") + "'"


# -- the run's files ------------------------------------------------------------------------


def _parts(path: str) -> tuple[str, ...]:
    return tuple(p for p in PurePosixPath(path.replace("\\", "/")).parts if p not in ("/", "."))


def _same_file(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """One path ends with the other (``/w/notes.md`` and ``notes.md``)."""
    n = min(len(a), len(b))
    return n > 0 and a[-n:] == b[-n:]


class FileIndex:
    """Files the agent wrote or named, by base name, with where each was written."""

    __slots__ = ("_by_name",)

    def __init__(self) -> None:
        self._by_name: dict[str, list[tuple[tuple[str, ...], str, str | None]]] = {}

    def __bool__(self) -> bool:
        return bool(self._by_name)

    def add(self, path: str, kind: str, source: str | None) -> None:
        parts = _parts(path)
        if not parts:
            return
        entries = self._by_name.setdefault(parts[-1], [])
        if (parts, kind, source) not in entries:
            entries.append((parts, kind, source))

    def extend(self, other: FileIndex) -> None:
        for entries in other._by_name.values():
            for parts, kind, source in entries:
                self.add("/".join(parts), kind, source)

    def find(self, path: str, kind: str | None = None) -> tuple[str, str, str | None] | None:
        """``(path as written, kind, source)`` of a write matching ``path``, or None."""
        parts = _parts(path)
        if not parts:
            return None
        for written, found_kind, source in self._by_name.get(parts[-1], ()):
            if (kind is None or found_kind == kind) and _same_file(parts, written):
                return "/".join(written), found_kind, source
        return None

    def has_name(self, name: str) -> bool:
        return name in self._by_name


class Provenance:
    """What the agent wrote and named during one run: shared by every loader of the run.

    A run loader calls :meth:`begin` with ``scanning=True`` for each file first (calls only),
    then again for the real pass. In the real pass of a file, a write in *another* file of the
    run counts whatever the order; a write in the same file counts only from where it happens
    (reading a file and then overwriting it is not a readback).
    """

    def __init__(self, fetch: FetchRule | None = None) -> None:
        self.fetch = fetch if fetch is not None else FETCH
        self._scanned: dict[str | None, FileIndex] = {}
        self._active = FileIndex()
        self._source: str | None = None
        self._scanning = False

    def begin(self, source: str | None, *, scanning: bool = False) -> None:
        """Start reading ``source`` (scanning: only record its writes, for the others)."""
        self._source = source
        self._scanning = scanning
        if scanning:
            self._active = self._scanned.setdefault(source, FileIndex())
            return
        self._active = FileIndex()
        for other, index in self._scanned.items():
            if other != source:
                self._active.extend(index)

    @property
    def scanning(self) -> bool:
        return self._scanning

    @property
    def names(self) -> FileIndex | None:
        """The files written or named so far (None when there are none)."""
        return self._active or None

    def saw_call(self, tool: str, args: Any) -> None:
        """Record the files a call writes or names (reads are looked at with its result)."""
        for path, kind in call_effects(tool, args):
            if kind != READ:
                self._active.add(path, kind, self._source)

    def readback(self, tool: str, args: Any) -> str | None:
        """Why this call's output is a file the agent wrote coming back, if it is."""
        if not self._active:
            return None
        for path, kind in call_effects(tool, args):
            if kind != READ:
                continue
            found = self._active.find(path, WROTE)
            if found is not None:
                _, _, source = found
                if source == self._source:
                    return f"reads back {path}, which the agent wrote earlier in this run"
                return f"reads back {path}, which the agent wrote in {source or 'another file'}"
        return None


# -- echoes of the call's own arguments -----------------------------------------------------

_MIN_ECHO = 4
_MAX_STRINGS = 64
_MAX_OCCURRENCES = 100_000
"""Repeats of one argument recognised in one output (a bound on memory, not on time)."""


_PATH_LIKE = re.compile(r"^(?![a-zA-Z][a-zA-Z0-9+.-]*://)[^\s]{1,4096}/[^\s/]{1,1024}$")


def argument_strings(args: Any) -> list[str]:
    """The string values of a call's arguments (at most 64, each at least 4 characters).

    A path also gives its shorter tails, since tools print paths relative to where they run:
    ``/home/u/papers/x.pdf`` is echoed as ``papers/x.pdf`` or ``x.pdf``. A shell command also
    gives its words that hold a digit, a dot or a slash (paths, URLs, quoted ids): ``echo
    "see 2004.04906"`` prints its own argument.

    >>> argument_strings({"absolute_path": "/w/p/2101.03961_x.pdf", "limit": 5})
    ['/w/p/2101.03961_x.pdf', 'w/p/2101.03961_x.pdf', 'p/2101.03961_x.pdf', '2101.03961_x.pdf']
    >>> argument_strings({"command": 'echo "DPR is 2004.04906"'})
    ['echo "DPR is 2004.04906"', 'DPR is 2004.04906']
    """
    found: list[str] = []
    stack: list[tuple[str | None, Any]] = [(None, args)]
    while stack and len(found) < _MAX_STRINGS:
        key, value = stack.pop()
        if isinstance(value, str):
            text = value.strip()
            if len(text) < _MIN_ECHO:
                continue
            found.append(text)
            if _PATH_LIKE.match(text):
                parts = text.split("/")
                tails = ["/".join(parts[i:]) for i in range(1, len(parts))][-8:]
                found.extend(t for t in tails if len(t) >= _MIN_ECHO and t != text)
            elif key in _COMMAND_KEYS:
                found.extend(_command_words(text, text))
        elif isinstance(value, Mapping):
            stack.extend(reversed([(str(k), v) for k, v in value.items()]))
        elif isinstance(value, (list, tuple)):
            stack.extend(reversed([(key, v) for v in value]))
    return found[: _MAX_STRINGS * 2]


def _command_words(command: str, whole: str) -> list[str]:
    from groundcheck.evidence.shell import words

    return [
        w
        for w in words(command)[:_MAX_STRINGS]
        if len(w) >= _MIN_ECHO and w != whole and any(c.isdigit() or c in "./" for c in w)
    ]


def echo_spans(view: str, strings: Iterable[str]) -> list[tuple[int, int]]:
    """Where ``view`` repeats any of ``strings`` (each occurrence, at most 100,000 per string)."""
    spans: list[tuple[int, int]] = []
    for s in strings:
        if len(s) < _MIN_ECHO:
            continue
        start = view.find(s)
        count = 0
        while start != -1 and count < _MAX_OCCURRENCES:
            spans.append((start, start + len(s)))
            count += 1
            start = view.find(s, start + len(s))
    return spans


_LABELS = frozenset({"", "arxiv", "doi", "id", "pmid", "pmc", "pmcid", "isbn", "paper", "abs"})


def is_composite(span_text: str, inner_start: int, inner_end: int) -> bool:
    """True when an argument holds more than one identifier (the part at ``inner``):
    ``papers/2101.03961v1_switch.pdf`` does, ``arXiv:2101.03961`` does not.

    >>> is_composite("arXiv:2101.03961", 6, 16), is_composite("q/2101.03961.pdf", 2, 12)
    (False, True)
    """
    rest = span_text[:inner_start] + " " + span_text[inner_end:]
    return re.sub(r"[\W_]+", "", rest).lower() not in _LABELS


SUMMARY_WORDS = frozenset(
    {
        "a", "an", "the", "of", "for", "from", "to", "in", "on", "at", "with", "by", "as", "and",
        "or", "is", "was", "were", "be", "been", "has", "have", "read", "reading", "file", "files",
        "pdf", "page", "pages", "chunk", "chunks", "line", "lines", "byte", "bytes", "char",
        "chars", "characters", "item", "items", "entry", "entries", "directory", "folder", "path",
        "content", "contents", "text", "document", "documents", "search", "searched", "searching",
        "result", "results", "returned", "return", "query", "queried", "found", "match", "matches",
        "matching", "fetched", "fetch", "fetching", "downloaded", "download", "saved", "save",
        "opened", "open", "loaded", "load", "processed", "processing", "prompt", "url", "urls",
        "link", "successfully", "success", "ok", "done", "completed", "complete", "output",
        "listed", "list", "wrote", "written", "created", "updated", "using", "via", "total", "no",
        "zero", "none", "nothing", "empty", "not", "any",
    }
)  # fmt: skip
"""Words a tool's one-line summary of its own arguments is made of (``Read pdf file: …``).
A result whose every word, outside the repeats of its arguments, is one of these (or a number)
is a summary, not an output; tune by editing this set."""

FAILURE_WORDS = SUMMARY_WORDS | frozenset(
    {
        "error", "errors", "failed", "failure", "fail", "unable", "cannot", "can", "could",
        "resolve", "resolved", "exist", "exists", "does", "do", "did", "invalid", "unknown",
        "missing", "unavailable", "available", "status", "message", "http", "code", "paper",
        "papers", "article", "articles", "record", "records", "id", "ids", "identifier",
        "doi", "arxiv", "pmid", "isbn", "such", "there", "are", "this", "that", "it",
    }
)  # fmt: skip
"""With :data:`SUMMARY_WORDS`, the words of a lookup that failed on what it was given
(``Error: paper 2401.99999 not found``, ``{"status": "error", "message": "DOI 10.1000/x could
not be resolved"}``): such a result, saying so (:data:`_NOTHING`), returned nothing. Kept
apart so that a confirmation (``Found paper 2401.99999``) is judged as before."""

_NOTHING = re.compile(
    r"(?i)\b(?:no|0|zero)\s+(?:\w+\s+)?(?:results?|matches|items|entries|documents|hits|papers)\b"
    r"|\bnot\s+found\b|\bnothing\s+found\b|\bfound\s+nothing\b|\bno\s+information\b"
    r"|\b(?:error|errors|failed|failure|unable|cannot|invalid|unknown|missing|unavailable)\b"
    r"|\b(?:could|can|does|do|did)\s+not\b|\bno\s+such\b|\b40[0-9]\b"
)
"""A restatement of the arguments that says the lookup found nothing or failed on them: the
call returned nothing (``empty``), rather than a summary of what it did."""
_WORD = re.compile(r"[^\W_]+")
_SHORT = 600
"""Only results this short (characters of text) can be summaries."""


REQUEST_KEYS = frozenset(
    {
        "query", "q", "queries", "search", "search_query", "prompt", "input", "url", "uri",
        "path", "file", "file_path", "filename", "request", "question", "instruction",
        "command", "cmd", "args", "arguments", "parameters", "params",
    }
)  # fmt: skip
"""Result keys under which a tool repeats what it was asked (``{"query": ..., "results": []}``)."""

Leaf = tuple[str | None, str]


def summary_verdict(leaves: Sequence[Leaf], strings: Sequence[str]) -> str | None:
    """``"empty"`` or ``"summary"`` when a short result only restates its arguments, else None.

    ``leaves`` are the result's string values with their keys, ``strings`` the call's argument
    strings. At least one argument must be repeated (as text, or under a request key such as
    ``query``); everything else must be summary words (:data:`SUMMARY_WORDS`) or numbers. A
    result that *is* one of its arguments and nothing else (a title search returning the title)
    is an answer, not a summary.

    >>> summary_verdict([(None, "Read pdf file: p/2101.03961v1_x.pdf")], ["p/2101.03961v1_x.pdf"])
    'summary'
    >>> summary_verdict([(None, 'No results for "moe"')], ["moe survey"]) is None
    True
    >>> summary_verdict([(None, 'No results for "moe survey"')], ["moe survey"])
    'empty'
    >>> summary_verdict([("query", "moe survey")], ["moe survey"])
    'empty'
    >>> summary_verdict([(None, "Error: paper 2401.99999 not found")], ["2401.99999"])
    'empty'
    """
    if not strings or sum(len(text) for _, text in leaves) > _SHORT:
        return None
    longest = sorted((s for s in strings if len(s) >= _MIN_ECHO), key=len, reverse=True)
    echoed = answered = False
    rest: list[str] = []
    for key, leaf in leaves:
        if key is not None and key.lower() in REQUEST_KEYS and any(s in leaf for s in longest):
            echoed = True
            continue
        text = leaf
        for s in longest:
            if s in text:
                echoed = True
                text = text.replace(s, " ")
        if text.strip() == "" and text != leaf:
            answered = True  # the whole value is an argument: the tool may be confirming it
        rest.append(text)
    if not echoed:
        return None
    residual = " ".join(rest)
    words = _WORD.findall(residual)
    if any(not w.isdigit() and w.lower() not in SUMMARY_WORDS for w in words):
        failed = all(w.isdigit() or w.lower() in FAILURE_WORDS for w in words)
        return "empty" if failed and _NOTHING.search(residual) else None
    if all(w.isdigit() for w in words):  # nothing but the arguments (and counts) came back
        return None if answered else "empty"
    return "empty" if _NOTHING.search(residual) else "summary"


def string_leaves(output: Any, ignore: frozenset[str], limit: int = _SHORT) -> list[Leaf] | None:
    """The string values of a small output with their keys (JSON strings parsed), or None when
    the output holds more than ``limit`` characters of text."""
    leaves: list[Leaf] = []
    size = 0
    stack: list[tuple[str | None, Any]] = [(None, output)]
    while stack:
        key, value = stack.pop()
        if isinstance(value, str):
            stripped = value.strip()
            if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
                try:
                    stack.append((key, parse_json(stripped)))
                    continue
                except (ValueError, RecursionError):
                    pass
            if stripped:
                leaves.append((key, stripped))
                size += len(stripped)
                if size > limit:
                    return None
        elif isinstance(value, Mapping):
            stack.extend((str(k), v) for k, v in value.items() if str(k) not in ignore)
        elif isinstance(value, (list, tuple)):
            stack.extend((key, v) for v in value)
        elif value is not None and not isinstance(value, bool):
            leaves.append((key, str(value)))
    return leaves


# -- names the agent chose, seen in later outputs ------------------------------------------

_STOP = re.compile(r"[\s\"'`<>()\[\]{},;|]")
_URLISH = re.compile(r"(?i)^(?:[a-z][a-z0-9+.-]*:|www\.|(?:[a-z0-9-]+\.)+[a-z]{2,}/)")


_NAME_WINDOW = 512
"""How far around a mention a file-name token is looked for (longer paths are cut there)."""


def named_spans(
    view: str, names: FileIndex, inner: Iterable[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The tokens of ``view`` around the spans ``inner`` (mentions) whose base name is a file
    the agent wrote or named; URLs are never file names. Each mention looks at most
    :data:`_NAME_WINDOW` characters either way, so the cost is linear in the mentions."""
    spans: list[tuple[int, int]] = []
    for start, end in inner:
        lo = max(0, start - _NAME_WINDOW)
        before = _STOP.search(view[lo:start][::-1])
        left = start - before.start() if before is not None else lo
        after = _STOP.search(view, end, end + _NAME_WINDOW)
        right = after.start() if after is not None else min(len(view), end + _NAME_WINDOW)
        token = view[left:right].rstrip(":/.")
        if left + len(token) < end or "://" in token or _URLISH.match(token):
            continue
        base = token.rsplit("/", 1)[-1]
        if base and names.has_name(base):
            spans.append((left, left + len(token)))
    return spans


# -- fetches --------------------------------------------------------------------------------

_FETCH_NAMES = (
    r"(?i)fetch|brows|open_?url|open_?page|read_?url|get_?url|scrape|crawl|visit|web_?page"
    r"|read_?webpage|get_?page|http_?get|url_?context|navigate|load_?url|extract_?url"
)
_URL = re.compile(r"^https?://\S{1,8000}$", re.IGNORECASE)
_CONTENT_KEYS = frozenset(
    {"content", "text", "markdown", "html", "body", "page_content", "raw_content", "data"}
)
_FAILED = re.compile(
    r"(?i)^\W*(?:error|failed|failure|unable|could\s+not|cannot|can't|40[0-9]|50[0-9]"
    r"|not\s+found|access\s+denied|forbidden|time[sd]?\s*out|redirect)"
)
_FAILED_SHORT = re.compile(
    r"(?i)\b(?:40[134]|410|429|50[0-4])\b|not\s+found|access\s+denied|forbidden|captcha"
    r"|enable\s+javascript|not\s+recogni[sz]ed|does\s+not\s+exist|no\s+such|redirect"
)


@frozen
class FetchRule:
    """Which calls fetch a page, and what counts as the page coming back.

    A call is fetch-type when its tool name matches ``tools`` (fetch, browse, open_url,
    WebFetch, web_fetch, read_url, scrape, crawl, …) or its result has the shape of a fetched
    page (an object with a ``url`` and a ``content``/``text``/``markdown``/``html`` field).
    The URLs it was asked for are the ``url_keys`` arguments (or any argument that is a URL).
    It returned real content when its output, outside repeats of its arguments, holds at least
    ``min_words`` words and does not open like a failure (``Error``, ``404``, ``not found``,
    a redirect notice). Tune it with ``load_evidence(..., fetch=FetchRule(...))``.
    """

    tools: str = _FETCH_NAMES
    url_keys: tuple[str, ...] = ("url", "uri", "href", "link", "page", "address", "urls")
    min_words: int = 5
    _pattern: re.Pattern[str] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_pattern", re.compile(self.tools))

    def requested(self, tool: str, args: Any, output: Any) -> list[str]:
        """The URLs a fetch-type call was asked for (empty for any other call)."""
        if not (self._pattern.search(tool) or _looks_fetched(output)):
            return []
        urls: list[str] = []
        if isinstance(args, Mapping):
            for key in self.url_keys:
                value = args.get(key)
                values = value if isinstance(value, list) else [value]
                urls.extend(_urls(values))
            if not urls:
                urls.extend(_urls(args.values()))
        elif isinstance(args, str) and _URL.match(args.strip()):
            urls.append(args.strip())
        return list(dict.fromkeys(urls))

    def returned_content(self, view: str, echoes: Sequence[tuple[int, int]]) -> bool:
        """True when ``view`` (the output's text) is a page, not a failure or an echo."""
        spans = sorted(echoes)
        words = 0
        residual: list[str] = []
        at = 0
        for match in _WORD.finditer(view):
            while at < len(spans) and spans[at][1] <= match.start():
                at += 1
            if at < len(spans) and spans[at][0] <= match.start() < spans[at][1]:
                continue
            words += 1
            if len(residual) < 60:
                residual.append(match.group())
            if words >= max(self.min_words, 60):
                break
        if words < self.min_words:
            return False
        opening = " ".join(residual)
        if _FAILED.match(opening):
            return False
        return not (words < 60 and _FAILED_SHORT.search(opening))


def _urls(values: Iterable[Any]) -> list[str]:
    return [v.strip() for v in values if isinstance(v, str) and _URL.match(v.strip())]


FETCH = FetchRule()
"""The default :class:`FetchRule`."""


def _looks_fetched(output: Any) -> bool:
    if isinstance(output, str):
        stripped = output.strip()
        if not (stripped.startswith("{") and len(stripped) < 5_000_000):
            return False
        try:
            output = parse_json(stripped)
        except (ValueError, RecursionError):
            return False
    return (
        isinstance(output, Mapping)
        and isinstance(output.get("url"), str)
        and any(isinstance(output.get(k), str) for k in _CONTENT_KEYS)
    )
