"""What every trace loader shares: pairing calls with results, and turning outputs into evidence.

A loader reads its format and tells a :class:`TraceBuilder` what happened, in order: a tool was
called, a result came back, the agent said something. The builder pairs results with calls
(by id, or by order when the format has no ids, saying so), recognises the agent's own actions
(writing a file) and outputs that merely read such a file back, extracts identifiers from each
output as soon as it is complete, and keeps nothing else, so a trace of any length is read in
bounded memory.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import evolve, field, frozen

from groundcheck.evidence.jsonio import parse_json
from groundcheck.evidence.listings import harvest
from groundcheck.evidence.mentions import output_mentions
from groundcheck.evidence.provenance import (
    FETCH,
    WRITE_TOOLS,
    FetchRule,
    FileIndex,
    Provenance,
    argument_strings,
    echo_spans,
    is_action,
    is_composite,
    named_spans,
    string_leaves,
    summary_verdict,
)
from groundcheck.evidence.walk import flatten
from groundcheck.extractors import Extractor, find_mentions
from groundcheck.model import TITLE_SCHEME, Evidence, EvidenceSet, Identifier, Mention, Work
from groundcheck.text import TextView

__all__ = [
    "ACTION_TOOLS",
    "Reading",
    "Trace",
    "TraceBuilder",
    "as_list",
    "as_mapping",
    "make_evidence",
    "parse_arguments",
    "text_of",
]

ACTION_TOOLS = WRITE_TOOLS | {
    "todowrite", "todo_write", "complete_task", "exit_plan_mode", "create_directory",
}  # fmt: skip
"""Tools that act rather than look up (case-insensitive names): their results are
confirmations, so they never count as lookups for the empty-evidence guard. The file-writing
ones also tell which files the agent wrote, so reading them back is not evidence."""

STRUCTURAL_KEYS = frozenset(
    {
        "type",
        "data",
        "blob",
        "encrypted_content",
        "encrypted_index",
        "signature",
        "cache_control",
        "mimeType",
        "mime_type",
        "media_type",
        "_meta",
        "annotations",
        "is_error",
        "isError",
        "status",
    }
)
"""Keys of content blocks that are structure or binary, not returned text."""


@frozen
class Trace:
    """A loaded trace: the evidence, the final report if the trace holds one, the format."""

    evidence: EvidenceSet
    report: str | None
    format: str
    report_path: str | None = None


@frozen
class Reading:
    """How to read one file of a run: the extractors, the run's shared provenance, and which
    sample of a log (``--sample``) is wanted. ``source`` names the file in messages."""

    extractors: tuple[Extractor, ...]
    provenance: Provenance = field(factory=Provenance)
    sample: str | None = None
    source: str = "<tool_calls>"

    def at(self, source: str) -> Reading:
        return evolve(self, source=source)


def parse_arguments(arguments: Any) -> Any:
    """Tool arguments as an object: JSON strings are parsed, invalid JSON is kept as text.

    OpenAI warns that ``arguments`` may be invalid JSON; that is the agent's input, not ours to
    reject, so it stays a string.
    """
    if isinstance(arguments, str):
        stripped = arguments.strip()
        if stripped[:1] in ("{", "["):
            try:
                return parse_json(stripped)
            except (ValueError, RecursionError):
                return arguments
    return arguments


def make_evidence(
    tool: str,
    call_id: str,
    output: Any,
    extractors: Sequence[Extractor],
    *,
    errored: bool = False,
    recorded: bool = True,
    source: str | None = None,
    action: bool = False,
    excluded: str | None = None,
    empty: bool | None = None,
    ignore: frozenset[str] = STRUCTURAL_KEYS,
    shared: dict[Any, Any] | None = None,
    arguments: Sequence[str] = (),
    names: FileIndex | None = None,
    requested: Sequence[str] = (),
    fetch: FetchRule = FETCH,
) -> Evidence:
    """Flatten one output and extract what it holds (nothing, when it is excluded).

    Identifiers come from every string in the output; titles from ``title`` fields and from
    title-like text the title extractor finds; works pair a title with the identifiers of its
    own record, or of its own line. ``shared`` (one dict per trace) makes equal titles and
    identifiers of different calls one object each: a long trace repeats them a lot.

    Provenance (``docs/evidence.md``): ``arguments`` are the call's own argument strings: an
    identifier or title found only inside a repeat of a composite argument is not taken, and a
    short output that only restates its arguments is not recorded (or is empty). ``names`` are
    the files the agent wrote or named: identifiers inside those names, shown again (``ls``),
    are not taken. ``requested`` are the URLs a fetch-type call was asked for: when the output
    is real content (``fetch``), their identifiers count too.
    """
    flat = flatten(output, ignore)
    if excluded is not None:
        return Evidence(
            tool=tool, call_id=call_id, empty=flat.empty if recorded else False,
            errored=errored, recorded=recorded, source=source, action=action, excluded=excluded,
        )  # fmt: skip
    if arguments and recorded and not errored and not action and not flat.empty:
        leaves = string_leaves(output, ignore) if len(flat.text) <= 2000 else None
        verdict = summary_verdict(leaves, arguments) if leaves is not None else None
        if verdict is not None:
            return Evidence(
                tool=tool, call_id=call_id, empty=verdict == "empty", errored=errored,
                recorded=verdict == "empty", source=source, action=action,
            )  # fmt: skip
    identifiers: set[Identifier] = set()
    titles: list[str] = list(flat.titles)
    works: list[Work] = []
    text_view: TextView | None = None
    blocks: tuple[str, ...] | None = None
    block_starts: tuple[int, ...] | None = None
    if flat.text:
        # The text is the output's strings joined by blank lines. When none of them holds a
        # line break, every break sits in a blank line, and the strings are the blocks the
        # title finder's copy is made from. (Their join is a copy and a memchr, three times
        # cheaper than counting the breaks of the text, which tests every character.)
        plain = bool(flat.strings) and "\n" not in "".join(flat.strings)
        text_view = TextView.of(flat.text, paired=True if plain else None)
        if plain and text_view.is_identity:
            blocks, block_starts = flat.strings, flat.starts
    view = text_view.text if text_view is not None else ""
    echoes: list[tuple[int, int]] = []
    if view:
        if arguments:
            echoes.extend(echo_spans(view, _in_view(arguments, view)))
        every = output_mentions(view, extractors, blocks, block_starts)
        found = [m for m, _ in every if m.malformed is None]
        if names and found:
            echoes.extend(named_spans(view, names, ((m.start, m.end) for m in found)))
        echoes.sort()
        if echoes:
            found = [m for m in found if not _echoed(view, m, echoes)]
        if requested and found:
            # A fetch that repeats the address it was asked for returned the address, not the
            # page: what the address names counts only through the fetch rule below.
            addresses = sorted(echo_spans(view, _in_view(requested, view)))
            found = [m for m in found if not _echoed(view, m, addresses, strict=True)]
        ids = [m for m in found if m.identifier.scheme != TITLE_SCHEME]  # sorted by start
        starts = [m.start for m in ids]
        lines: list[int] | None = None
        add = identifiers.add
        for m in ids:  # (m.keys, in order, without building the tuple)
            add(m.identifier)
            if m.aliases:
                identifiers.update(m.aliases)
        for m in found:
            if m.identifier.scheme == TITLE_SCHEME:
                title = view[m.start : m.end]
                titles.append(title)
                if m.kind == "adjacent":
                    if lines is None:
                        lines = _line_starts(view)
                    beside = _on_same_line(view, m, ids, starts, lines)
                    if beside:
                        works.append(Work(frozenset(beside), title, origin="line"))
        # records, listings, tables
        found_works = harvest(flat, view, ids, extractors, titles, mentions=every, view=text_view)
        titles = list(found_works.titles)
        works.extend(found_works.works)
        if echoes:
            titles, works = _outside_echoes(view, echoes, titles, works, identifiers)
    is_empty = (flat.empty if empty is None else empty) if recorded else False
    fetched = requested and recorded and not errored and not is_empty
    if fetched and fetch.returned_content(view, echoes):
        for url in requested:
            identifiers.update(_url_keys(url, extractors))
    return Evidence(
        tool=tool,
        call_id=call_id,
        # (without a shared dict, the set is copied with the hashes it holds: an Identifier's
        # hash is a Python call, and a search result holds hundreds)
        identifiers=(
            frozenset(identifiers)
            if shared is None
            else frozenset(_shared(i, shared) for i in identifiers)
        ),
        titles=(
            tuple(dict.fromkeys(titles))
            if shared is None
            else tuple(_shared(t, shared) for t in dict.fromkeys(titles))
        ),
        empty=is_empty,
        errored=errored,
        recorded=recorded,
        source=source,
        action=action,
        excluded=excluded,
        works=tuple(dict.fromkeys(works)),
        text=flat.text if recorded and flat.text else None,  # the words quotes are looked up in
    )


def _outside_echoes(
    view: str,
    echoes: Sequence[tuple[int, int]],
    titles: list[str],
    works: list[Work],
    identifiers: set[Identifier],
) -> tuple[list[str], list[Work]]:
    """Titles and works not found only inside repeats of the call's arguments: a work keeps
    the identifiers that were found outside them, and goes when it had some and none is left."""
    echoed = list(dict.fromkeys(view[s:e] for s, e in echoes))  # each repeated argument once
    pieces, at = [], 0
    for s, e in sorted(echoes):
        if s > at:
            pieces.append(view[at:s])
        at = max(at, e)
    pieces.append(view[at:])
    outside = "\x00".join(pieces)

    def inside(title: str) -> bool:
        # the repeats are short: a title none of them holds costs no search of the whole text
        return any(
            title in x and is_composite(x, x.find(title), x.find(title) + len(title))
            for x in echoed
        ) and (title not in outside)

    kept_titles = [t for t in titles if not inside(t)]
    kept_works = []
    for work in works:
        named = work.identifiers & identifiers
        if (work.identifiers and not named) or inside(work.title):
            continue
        kept_works.append(work if named == work.identifiers else evolve(work, identifiers=named))
    return kept_titles, kept_works


def _in_view(arguments: Sequence[str], view: str) -> list[str]:
    """Argument strings (in the matching view) that the output repeats."""
    found = []
    for argument in arguments:
        text = TextView.of(argument).text
        if text in view:
            found.append(text)
    return found


def _echoed(
    view: str, mention: Mention, spans: list[tuple[int, int]], *, strict: bool = False
) -> bool:
    """True when ``mention`` lies inside a repeat of a composite argument or chosen name (any
    repeat at all, when ``strict``)."""
    at = bisect_right(spans, (mention.start, len(view) + 1)) - 1
    for start, end in spans[max(0, at - 8) : at + 1][::-1]:
        if not (start <= mention.start and mention.end <= end):
            continue
        if strict or is_composite(view[start:end], mention.start - start, mention.end - start):
            return True
    return False


def _url_keys(url: str, extractors: Sequence[Extractor]) -> set[Identifier]:
    """The works a requested URL names, as the registered extractors derive them."""
    keys: set[Identifier] = set()
    for mention, _ in find_mentions(TextView.of(url).text, extractors):
        if mention.malformed is None and mention.identifier.scheme != TITLE_SCHEME:
            keys.update(mention.keys)
    return keys


def _shared(value: Any, shared: dict[Any, Any] | None) -> Any:
    return value if shared is None else shared.setdefault(value, value)


def _on_same_line(
    text: str, title: Mention, ids: list[Mention], starts: list[int], lines: list[int]
) -> set[Identifier]:
    """Keys of the identifier nearest to a title on the title's own line (``ids`` sorted by
    start, ``starts`` their starts, ``lines`` the starts of the text's lines).

    The line is found by bisection and only the identifiers next to the title are compared
    (the nearest ones start just before or just after it), so a one-line output of a megabyte
    with thousands of ids and titles costs a few steps per title, not a scan of its line.
    """
    k = bisect_right(lines, title.start) - 1
    line_start = lines[k]
    line_end = lines[k + 1] - 1 if k + 1 < len(lines) else len(text)
    lo, hi = bisect_left(starts, line_start), bisect_left(starts, line_end)
    at = bisect_left(starts, title.end, lo, hi)
    near = [
        m for m in ids[max(lo, at - _NEIGHBOURS) : min(hi, at + _NEIGHBOURS)] if m.end <= line_end
    ]
    if not near:
        return set()
    closest = min(near, key=lambda m: min(abs(m.start - title.end), abs(title.start - m.end)))
    return set(closest.keys)


_NEIGHBOURS = 16
"""Identifiers compared on each side of a title: the nearest one is the last to start before
it or the first after it, unless identifiers overlap (a DOI inside a URL), never by many."""


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at != -1:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


class _Pending:
    __slots__ = ("args", "line", "tool")

    def __init__(self, tool: str, args: Any, line: int | None) -> None:
        self.tool = tool
        self.args = args
        self.line = line


class TraceBuilder:
    """Collects one run's tool calls and results, in order, into evidence.

    ``provenance`` is shared by every file of one run (see
    :mod:`groundcheck.evidence.provenance`); a builder of its own is made when none is given.
    A builder whose provenance is *scanning* only records which files the calls write.
    """

    def __init__(
        self,
        extractors: Sequence[Extractor],
        source: str | None,
        fmt: str,
        provenance: Provenance | None = None,
    ) -> None:
        self.extractors = extractors
        self.source = source
        self.format = fmt
        self.provenance = provenance if provenance is not None else Provenance()
        self._scanning = self.provenance.scanning
        self._pending: OrderedDict[str, _Pending] = OrderedDict()
        self._evidence: list[Evidence] = []
        self._report: str | None = None
        self._notes: list[str] = []
        self._approximate = 0
        self._summaries = 0
        self._shared: dict[Any, Any] = {}
        self._counter = 0
        self.skipped_lines = 0

    # -- events -----------------------------------------------------------------------------

    def call(
        self, call_id: str | None, tool: str, args: Any = None, line: int | None = None
    ) -> str:
        """A tool was called. Returns the call id used (one is made up when missing)."""
        key = self._key(call_id)
        tool = tool or "?"
        args = parse_arguments(args)
        self.provenance.saw_call(tool, args)
        if not self._scanning:
            self._pending[key] = _Pending(tool, args, line)
        return key

    def result(
        self,
        call_id: str | None,
        output: Any,
        *,
        tool: str | None = None,
        errored: bool = False,
        recorded: bool = True,
        empty: bool | None = None,
        excluded: str | None = None,
    ) -> None:
        """A result came back. Without an id it answers the oldest open call of that tool.
        ``excluded`` (a reason) says the loader knows it is not evidence (a sub-agent's report
        whose own tool calls the trace holds)."""
        if self._scanning:
            return
        key: str | None = call_id.strip() if isinstance(call_id, str) else None
        if key is None or key not in self._pending:
            matched = self._match_by_order(tool) if key is None else None
            if matched is not None:
                key = matched
            else:  # a result for a call the trace never showed: evidence all the same
                key = self._key(call_id)
                self._pending[key] = _Pending(tool or "?", None, None)
        pending = self._pending.pop(key)
        name = pending.tool if pending.tool != "?" else (tool or "?")
        action = is_action(name, pending.args, ACTION_TOOLS)
        if excluded is None and not action:
            excluded = self.provenance.readback(name, pending.args)
        fetch = self.provenance.fetch
        evidence = make_evidence(
            name,
            key,
            output,
            self.extractors,
            errored=errored,
            recorded=recorded,
            source=self.source,
            action=action,
            excluded=excluded,
            empty=empty,
            shared=self._shared,
            arguments=() if action or pending.args is None else argument_strings(pending.args),
            names=self.provenance.names,
            requested=() if action else fetch.requested(name, pending.args, output),
            fetch=fetch,
        )
        if recorded and not evidence.recorded:
            self._summaries += 1
        self._evidence.append(evidence)

    def call_and_result(
        self,
        call_id: str | None,
        tool: str,
        args: Any,
        output: Any,
        *,
        errored: bool = False,
        recorded: bool = True,
        empty: bool | None = None,
    ) -> None:
        """A format that records a call and its result together (spans, runs, items)."""
        key = self.call(call_id, tool, args)
        self.result(key, output, errored=errored, recorded=recorded, empty=empty)

    def add(self, evidence: Evidence) -> None:
        """A call already reduced to evidence (native records carry everything themselves)."""
        if not self._scanning:
            self._evidence.append(evidence)

    def said(self, text: str | None) -> None:
        """The agent wrote text to the user; the last non-blank text is the final report."""
        if isinstance(text, str) and text.strip():
            self._report = text

    def note(self, message: str) -> None:
        if message not in self._notes:
            self._notes.append(message)

    # -- helpers ----------------------------------------------------------------------------

    def _key(self, call_id: str | int | None) -> str:
        if (
            isinstance(call_id, (str, int))
            and not isinstance(call_id, bool)
            and str(call_id).strip()
        ):
            return str(call_id).strip()
        self._counter += 1
        return f"#{self._counter}"

    def _match_by_order(self, tool: str | None) -> str | None:
        for key, pending in self._pending.items():
            if tool is None or pending.tool == tool:
                self._approximate += 1
                return key
        return None

    # -- result -----------------------------------------------------------------------------

    def finish(self) -> Trace:
        for key, pending in self._pending.items():
            self._evidence.append(
                Evidence(
                    pending.tool,
                    key,
                    recorded=False,
                    source=self.source,
                    action=is_action(pending.tool, pending.args, ACTION_TOOLS),
                )
            )
        self._pending.clear()
        notes = list(self._notes)
        if self._approximate:
            notes.append(
                f"{self.format}: {self._approximate} result(s) carried no call id and were "
                "paired with calls by order; the pairing is approximate"
            )
        if self.skipped_lines:
            notes.append(f"{self.format}: skipped {self.skipped_lines} line(s) that were not JSON")
        if self._summaries:
            notes.append(
                f"{self._summaries} call(s) returned only a summary of their own arguments "
                "(such as 'Read pdf file: <path>'); their output was not recorded"
            )
        delegated = [e for e in self._evidence if e.excluded == DELEGATED]
        echoed = [e for e in self._evidence if e.excluded not in (None, DELEGATED)]
        if echoed:
            notes.append(
                f"{len(echoed)} call(s) only read back files the agent wrote itself; "
                "their output is not counted as evidence"
            )
        if delegated:
            notes.append(
                f"{len(delegated)} sub-agent report(s) not counted as evidence: each sub-agent's "
                "own tool calls are in the trace, and its report is its own words"
            )
        return Trace(EvidenceSet(self._evidence, notes), self._report, self.format)


DELEGATED = "a sub-agent's report: its own tool calls are in this trace, its report is its words"
"""Why a delegation call's result (Claude Code's ``Task``) is not evidence when the trace holds
the sub-agent's own tool results: an id the sub-agent invented would otherwise be returned."""


def as_mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else an empty one: traces are loose, readers are not."""
    return value if isinstance(value, Mapping) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def text_of(content: Any) -> str:
    """The readable text of a message's content: a string, or the text of its blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, Iterable) and not isinstance(content, (bytes, Mapping)):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping) and block.get("type") in (
                "text",
                "output_text",
                "input_text",
                None,
            ):
                text = block.get("text")
                if isinstance(text, str):
                    parts.append(text)
        return "".join(parts)
    return ""
