"""What a shell command does to files: which it writes, which names it chooses, which it reads.

Agents write their notes with heredocs and redirects, download papers with ``curl -o``, and
read files back with ``cat``. Provenance needs to know which is which (see
``docs/evidence.md``), without running anything: this module reads a command's text.

Two kinds of file effect matter:

- ``wrote``: the file's *content* is the agent's own text (a heredoc, ``echo``/``printf``
  redirected, ``tee`` fed by those, ``apply_patch``). Reading it back is not evidence.
- ``named``: only the file's *name* is the agent's (``curl -o papers/<id>_name.pdf``, a
  program's output redirected to a file, ``cp``/``mv`` targets, ``mkdir``, ``touch``). The
  content is what the download or the program produced, so reading it is evidence; a listing
  that shows the name is not.

>>> [(e.path, e.kind) for e in file_effects("curl -sL https://arxiv.org/pdf/2101.03961 -o p/a.pdf")]
[('p/a.pdf', 'named')]
>>> [(e.path, e.kind) for e in file_effects("cat > notes.md <<'EOF'\\nDPR is 2004.04906\\nEOF")]
[('notes.md', 'wrote')]
>>> [(e.path, e.kind) for e in file_effects("head -n 5 notes.md | grep DPR")]
[('notes.md', 'read')]

Parsing is linear in the command: heredoc bodies are cut out line by line, each remaining line
is split into words by :mod:`shlex` (at most :data:`MAX_LINE` characters of a line), and
``bash -lc '...'`` wrappers are opened up to three levels deep.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import PurePosixPath

from attrs import frozen

__all__ = ["NAMED", "READ", "WROTE", "FileEffect", "file_effects", "patch_paths"]

WROTE = "wrote"
NAMED = "named"
READ = "read"

MAX_LINE = 20_000
"""Characters of one command line that are split into words (the rest is not parsed)."""

_HEREDOC = re.compile(r"<<-?[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_.-]{0,63})\1")
_SHELL_C = re.compile(
    r"^\s*(?:\S*/)?(?:ba|z|da|k)?sh\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*c[A-Za-z]*\s+(?P<rest>.+)$",
    re.DOTALL,
)
_SEPARATORS = frozenset({"|", "||", "&&", ";", "&", "(", ")", ";;", "|&"})
_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
_WRAPPERS = frozenset({"sudo", "env", "time", "nohup", "command", "exec", "nice", "timeout"})
_FETCHERS = frozenset({"curl", "wget", "aria2c", "http", "https", "xh", "lynx", "w3m", "yt-dlp"})
_OUTPUT_OPTIONS = {
    "curl": ("-o", "--output"),
    "wget": ("-O", "--output-document"),
    "aria2c": ("-o", "--out"),
    "http": ("-o", "--output"),
    "https": ("-o", "--output"),
    "xh": ("-o", "--output"),
    "yt-dlp": ("-o", "--output"),
    "pandoc": ("-o", "--output"),
    "sort": ("-o", "--output"),
}
_READERS = frozenset(
    {
        "cat", "head", "tail", "less", "more", "bat", "nl", "tac", "grep", "egrep", "fgrep",
        "rg", "sed", "awk", "jq", "sort", "uniq", "cut", "strings", "column", "diff", "view",
    }
)  # fmt: skip
_PATCHERS = frozenset({"apply_patch", "applypatch", "patch"})
_PATCH_HEADER = re.compile(
    r"^(?:\*\*\* (?:Add|Update|Delete) File: |\*\*\* Move to: |\+\+\+ (?:b/)?)(\S[^\n]{0,1000})$",
    re.MULTILINE,
)


@frozen
class FileEffect:
    """One file a command touches: its path as written, and ``wrote``, ``named`` or ``read``."""

    path: str
    kind: str


def patch_paths(patch: str) -> list[str]:
    """Files an ``apply_patch`` / unified diff creates or changes (``*** Add File: p``).

    >>> patch_paths("*** Begin Patch\\n*** Add File: notes/review.md\\n+DPR\\n*** End Patch")
    ['notes/review.md']
    """
    found = []
    for match in _PATCH_HEADER.finditer(patch):
        path = match.group(1).strip()
        if path and path != "/dev/null":
            found.append(path)
    return found


def file_effects(command: str, depth: int = 0) -> list[FileEffect]:
    """Every file ``command`` writes, names or reads, in order (see the module docstring)."""
    if not isinstance(command, str) or not command.strip():
        return []
    inner = _SHELL_C.match(command) if depth < 3 else None
    if inner is not None:
        rest = _unquote(inner.group("rest").strip())
        if rest is not None:
            return file_effects(rest, depth + 1)
    effects: list[FileEffect] = []
    authored: set[str] = set()
    for line, body in _lines(command):
        for effect in _line_effects(line, body, authored):
            if effect.kind == WROTE:
                authored.add(effect.path)
            effects.append(effect)
    return effects


def _unquote(text: str) -> str | None:
    """The string a shell would pass for one quoted word (``'...'`` or ``"..."``), else None."""
    if len(text) <= 100 * MAX_LINE:
        try:
            words = shlex.split(text, posix=True)
        except ValueError:
            words = []
        if len(words) == 1:
            return words[0]
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("'\\''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return re.sub(r'\\(["\\$`])', r"\1", text[1:-1])
    return None


def _lines(command: str) -> Iterator[tuple[str, str | None]]:
    """Each command line with the body of the heredoc it opens (None when it opens none)."""
    lines = command.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        match = _HEREDOC.search(line)
        if match is None:
            yield line, None
            continue
        delimiter = match.group(2)
        body: list[str] = []
        while i < len(lines) and lines[i].strip() != delimiter:
            body.append(lines[i])
            i += 1
        i += 1  # the delimiter line
        yield line[: match.start()] + line[match.end() :], "\n".join(body)


def words(command: str) -> list[str]:
    """The words of a command as a shell would split them (the first line's worth)."""
    return [w for w in _words(command) if w not in _SEPARATORS and w not in _REDIRECTS]


def _words(line: str) -> list[str]:
    lexer = shlex.shlex(line[:MAX_LINE], posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote: fall back to whitespace
        return line[:MAX_LINE].split()


def _simple_commands(words: list[str]) -> Iterator[tuple[list[str], bool]]:
    """Simple commands of a line, each with whether it reads a pipe from the one before."""
    current: list[str] = []
    piped = False
    for word in words:
        if word in _SEPARATORS:
            if current:
                yield current, piped
            piped = word in ("|", "|&")
            current = []
        else:
            current.append(word)
    if current:
        yield current, piped


def _verb(words: list[str]) -> tuple[str, list[str]]:
    i = 0
    while i < len(words) and (
        words[i] in _WRAPPERS or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[i])
    ):
        i += 1
    if i >= len(words):
        return "", []
    return PurePosixPath(words[i]).name, words[i + 1 :]


def _is_path(word: str) -> bool:
    return bool(word) and word not in ("-", "/dev/null") and not word.startswith(("&", "/dev/"))


def _output_kind(
    verb: str, files: list[str], body: str | None, upstream: str | None, authored: set[str]
) -> str:
    """What a command's output is: the agent's own words, or what a program produced."""
    if verb in _FETCHERS:
        return NAMED
    if verb in ("echo", "printf"):
        return WROTE
    if verb == "cat" and (not files and (body is not None or upstream == WROTE)):
        return WROTE
    if verb == "cat" and files and all(f in authored for f in files):
        return WROTE
    if verb == "tee" and upstream is not None:
        return upstream
    if verb == "tee" and body is not None:
        return WROTE
    return NAMED


def _line_effects(line: str, body: str | None, authored: set[str]) -> Iterator[FileEffect]:
    source_kind: str | None = None  # what flows down the current pipeline
    for words, piped in _simple_commands(_words(line)):
        verb, args = _verb(words)
        operands: list[str] = []
        targets: list[str] = []
        i = 0
        while i < len(args):
            word = args[i]
            if word in _REDIRECTS:
                if i + 1 < len(args) and _is_path(args[i + 1]):
                    fd = operands[-1] if operands and operands[-1].isdigit() else None
                    if fd is not None:
                        operands.pop()
                    if fd in (None, "1"):
                        targets.append(args[i + 1])
                i += 2
                continue
            if word == "<":
                i += 2 if i + 1 < len(args) else 1
                continue
            operands.append(word)
            i += 1
        files = [w for w in operands if not w.startswith("-")]
        kind = _output_kind(verb, files, body, source_kind if piped else None, authored)
        if verb in _PATCHERS and body is not None:
            for path in patch_paths(body):
                yield FileEffect(path, WROTE)
        if verb in _READERS:
            for path in files:
                if _is_path(path) and ("." in path or "/" in path or path in authored):
                    yield FileEffect(path, READ)
        options = _OUTPUT_OPTIONS.get(verb, ())
        for j, word in enumerate(operands):
            for option in options:
                if word == option and j + 1 < len(operands) and _is_path(operands[j + 1]):
                    yield FileEffect(operands[j + 1], NAMED if verb in _FETCHERS else kind)
                elif word.startswith(option + "=") and option.startswith("--"):
                    yield FileEffect(word.split("=", 1)[1], NAMED if verb in _FETCHERS else kind)
        if verb == "tee":
            for path in files:
                if _is_path(path):
                    yield FileEffect(path, kind)
        elif verb in ("mkdir", "touch"):
            for path in files:
                yield FileEffect(path, NAMED)
        elif verb in ("cp", "mv") and len(files) >= 2:
            destination = files[-1]
            for origin in files[:-1]:
                inherited = WROTE if origin in authored else NAMED
                if len(files) > 2 or destination.endswith("/"):
                    yield FileEffect(f"{destination.rstrip('/')}/{PurePosixPath(origin).name}",
                                     inherited)  # fmt: skip
                else:
                    yield FileEffect(destination, inherited)
        for target in targets:
            yield FileEffect(target, kind)
        source_kind = kind
