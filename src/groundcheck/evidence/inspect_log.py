"""inspect-ai logs: ``.eval`` archives and ``.json`` logs, one sample (one run) at a time.

An inspect-ai log holds many runs: one per sample and epoch. Each sample keeps its chat
``messages`` (assistant tool calls, ``role: "tool"`` results) and its ``output.completion``,
the final answer that is audited. The log formats (``docs/formats.md``):

- ``.eval`` (the default since inspect-ai 0.3.46): a zip archive with ``header.json``,
  ``summaries.json``, ``_journal/…`` and one ``samples/<id>_epoch_<n>.json`` per sample;
  members are DEFLATE-compressed, or Zstandard (zip method 93) in recent versions;
- ``.json``: one JSON document ``{"version", "status", "eval", …, "samples": [...]}``.

When inspect-ai is installed (``pip install 'groundcheck-citations[inspect]'``), samples are read
with its own reader (``inspect_ai.log.read_eval_log_sample``), which knows every version of the
format; otherwise with the small reader below, which reads the documented layout. Either way the
zip's directory is checked first: an archive whose members declare more than
:data:`MAX_MEMBER_BYTES` (or more than :data:`MAX_MEMBERS` members) is refused, and the small
reader stops decompressing a member as soon as it yields more than it declared, so a zip bomb
is a clear error, never an exhausted machine.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from attrs import frozen

from groundcheck.errors import InputError
from groundcheck.evidence.jsonio import decode, loads, open_input

if TYPE_CHECKING:
    from groundcheck.evidence.jsonio import Input

__all__ = [
    "MAX_MEMBERS",
    "MAX_MEMBER_BYTES",
    "SampleKey",
    "choose",
    "is_log",
    "list_samples",
    "looks_like_json_log",
    "read_sample",
    "select_in_document",
    "sniff_zip",
]

ZIP_MAGIC = b"PK\x03\x04"
MAX_MEMBER_BYTES = 1 << 30
"""The most one archive member may declare or decompress to (1 GiB)."""
MAX_MEMBERS = 1_000_000
"""The most members an archive may list."""
_CHUNK = 1 << 20
_SAMPLE_MEMBER = re.compile(r"^samples/(?P<id>.+)_epoch_(?P<epoch>\d+)\.json$")
_JSON_LOG_HEAD = re.compile(rb'^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:')
_STORED, _DEFLATED, _ZSTD = 0, 8, 93


@frozen(order=True)
class SampleKey:
    """One run of a log: a sample id and its epoch."""

    id: str
    epoch: int

    def label(self, epochs: bool) -> str:
        """``id``, or ``id:epoch`` when the log has several epochs."""
        return f"{self.id}:{self.epoch}" if epochs else self.id


def sniff_zip(head: bytes) -> bool:
    """A zip archive (an inspect-ai ``.eval`` log is one)."""
    return head.startswith(ZIP_MAGIC)


def looks_like_json_log(head: bytes) -> bool:
    """The start of an inspect-ai ``.json`` log as inspect-ai writes it."""
    return _JSON_LOG_HEAD.match(head.lstrip(b"\xef\xbb\xbf")) is not None


def is_log(doc: Any) -> bool:
    """A whole inspect-ai log document (or any ``{"samples": [...]}`` object)."""
    return isinstance(doc, Mapping) and isinstance(doc.get("samples"), list)


def _inspect_available() -> bool:
    from importlib.util import find_spec

    try:
        return find_spec("inspect_ai") is not None
    except (ImportError, ValueError):
        return False


# -- choosing a sample ----------------------------------------------------------------------


def _natural(key: SampleKey) -> tuple[int, int, str, int]:
    """Numeric ids in number order, then the rest by name; epochs in order."""
    number = int(key.id) if key.id.isdigit() and len(key.id) < 19 else 0
    return (0 if key.id.isdigit() else 1, number, key.id, key.epoch)


def in_order(keys: Sequence[SampleKey]) -> list[SampleKey]:
    return sorted(keys, key=_natural)


def _labels(keys: Sequence[SampleKey]) -> list[str]:
    epochs = any(k.epoch != 1 for k in keys)
    return [k.label(epochs) for k in keys]


def choose(keys: Sequence[SampleKey], wanted: str | None, source: str) -> SampleKey:
    """The sample ``wanted`` names (``id`` or ``id:epoch``); without one, the only sample.

    Errors list the samples there are, so the user can pick.

    >>> keys = [SampleKey("moe", 1), SampleKey("rag", 1)]
    >>> choose(keys, "rag", "log.json")
    SampleKey(id='rag', epoch=1)
    >>> choose(keys, "dpr", "log.json")
    Traceback (most recent call last):
    groundcheck.errors.InputError: log.json: no sample 'dpr' in this log; samples: moe, rag
    """
    listing = ", ".join(_labels(keys)[:50]) + (", …" if len(keys) > 50 else "")
    if not keys:
        raise InputError("an inspect-ai log with no samples (was it run with --no-log-samples?)",
                         source=source)  # fmt: skip
    if wanted is None:
        if len(keys) == 1:
            return keys[0]
        raise InputError(
            f"an inspect-ai log with {len(keys)} samples: pass --sample ID (one of: {listing})",
            source=source,
        )
    exact = [k for k in keys if k.id == wanted]
    if len(exact) == 1:
        return exact[0]
    head, _, tail = wanted.rpartition(":")
    if head and tail.isdigit():
        for k in keys:
            if k.id == head and k.epoch == int(tail):
                return k
    if len(exact) > 1:
        raise InputError(
            f"sample {wanted!r} has {len(exact)} epochs: pass --sample {wanted}:EPOCH "
            f"(one of: {listing})",
            source=source,
        )
    raise InputError(f"no sample {wanted!r} in this log; samples: {listing}", source=source)


# -- listing --------------------------------------------------------------------------------


def list_samples(path: str | Path) -> list[SampleKey] | None:
    """The samples of an inspect-ai log file (None when the file is not one)."""
    with open_input(path) as source:
        head = source.head()
        if sniff_zip(head):
            with _Archive(source) as archive:
                return archive.samples()
        if not looks_like_json_log(head):
            return None
        doc = _json_log(source)
    return _doc_samples(doc)


def _doc_samples(doc: Mapping[str, Any]) -> list[SampleKey]:
    keys = []
    for sample in doc.get("samples") or []:
        if isinstance(sample, Mapping):
            epoch = sample.get("epoch")
            keys.append(SampleKey(str(sample.get("id")), epoch if isinstance(epoch, int) else 1))
    return in_order(keys)


def select_in_document(doc: Mapping[str, Any], wanted: str | None, source: str) -> list[Any]:
    """The one sample of a parsed log document that ``wanted`` names, as a one-record list."""
    samples = [s for s in doc.get("samples") or [] if isinstance(s, Mapping)]
    key = choose(_doc_samples({"samples": samples}), wanted, source)
    for sample in samples:
        epoch = sample.get("epoch") if isinstance(sample.get("epoch"), int) else 1
        if str(sample.get("id")) == key.id and epoch == key.epoch:
            return [sample]
    raise AssertionError("chosen sample not found")  # pragma: no cover


# -- reading --------------------------------------------------------------------------------


def read_sample(source: Input, wanted: str | None) -> dict[str, Any]:
    """The sample ``wanted`` of the log ``source`` (a ``.eval`` archive or a ``.json`` log)."""
    head = source.head()
    if sniff_zip(head):
        with _Archive(source) as archive:
            key = choose(archive.samples(), wanted, source.name)
            if _inspect_available() and source.name != "-":
                return _inspect_sample(source.name, key)
            return archive.sample(key)
    first = head.lstrip(b" \t\r\n\xef\xbb\xbf")[:1]
    if first not in (b"{", b"["):
        raise InputError(
            "is neither a zip archive (an inspect-ai .eval log) nor JSON (a .json log)",
            source=source.name,
        )
    if _inspect_available() and source.name != "-" and looks_like_json_log(head):
        try:
            keys = _inspect_keys(source.name)
            return _inspect_sample(source.name, choose(keys, wanted, source.name))
        except InputError:
            raise
        except ValueError:
            pass  # inspect-ai's streaming parser refuses what JSON allows (a 5,000-digit number)
    doc = _json_log(source)
    if not is_log(doc):
        raise InputError("is JSON but not an inspect-ai log (no 'samples')", source=source.name)
    record = select_in_document(doc, wanted, source.name)[0]
    return dict(record)


def _json_log(source: Input) -> Any:
    key = _cache_key(source.name)
    if key is not None and _JSON_CACHE.get("key") == key:
        return _JSON_CACHE["doc"]
    doc = loads(source.text(), source.name)
    if key is not None:
        _JSON_CACHE.clear()
        _JSON_CACHE.update(key=key, doc=doc)
    return doc


_JSON_CACHE: dict[str, Any] = {}
"""The last ``.json`` log parsed (rating a log reads each of its samples in turn)."""


def _cache_key(name: str) -> tuple[str, int, int] | None:
    if name == "-":
        return None
    try:
        stat = Path(name).stat()
    except OSError:
        return None
    return (str(Path(name).resolve()), stat.st_size, stat.st_mtime_ns)


def _inspect_keys(path: str) -> list[SampleKey]:
    from inspect_ai.log import read_eval_log_sample_summaries

    summaries = read_eval_log_sample_summaries(path)
    return in_order([SampleKey(str(s.id), int(s.epoch)) for s in summaries])


def _inspect_sample(path: str, key: SampleKey) -> dict[str, Any]:
    """One sample through inspect-ai's own reader, as the JSON it would write."""
    from inspect_ai.log import read_eval_log_sample

    sample_id: str | int = int(key.id) if key.id.isdigit() else key.id
    try:
        sample = read_eval_log_sample(
            path, sample_id, key.epoch, resolve_attachments=True, exclude_fields={"events"}
        )
    except (IndexError, KeyError, ValueError):
        sample = read_eval_log_sample(path, key.id, key.epoch, resolve_attachments=True)
    dumped = sample.model_dump(mode="json", exclude_none=True)
    return dict(dumped)


# -- the small reader of the .eval layout ---------------------------------------------------


class _Archive:
    """An ``.eval`` zip: its directory checked against zip bombs, members read with a bound."""

    def __init__(self, source: Input) -> None:
        self.name = source.name
        self._stream: IO[bytes] = source.seekable()
        try:
            self._zip = zipfile.ZipFile(self._stream)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
            raise InputError(f"not a readable zip archive: {exc}", source=self.name) from None
        infos = self._zip.infolist()
        if len(infos) > MAX_MEMBERS:
            raise InputError(f"a zip archive with {len(infos)} members: refused", source=self.name)
        for info in infos:
            if info.file_size > MAX_MEMBER_BYTES:
                raise InputError(
                    f"zip member {info.filename} declares {info.file_size} bytes, over the "
                    f"{MAX_MEMBER_BYTES}-byte limit (a zip bomb?): refused",
                    source=self.name,
                )
        self._infos = {i.filename: i for i in infos}
        if not any(n.startswith("samples/") or n == "header.json" for n in self._infos):
            raise InputError(
                "a zip archive, but not an inspect-ai .eval log (no header.json or samples/)",
                source=self.name,
            )

    def __enter__(self) -> _Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self._zip.close()

    def samples(self) -> list[SampleKey]:
        keys = []
        for name in self._infos:
            m = _SAMPLE_MEMBER.match(name)
            if m is not None:
                keys.append(SampleKey(m["id"], int(m["epoch"])))
        return in_order(keys)

    def sample(self, key: SampleKey) -> dict[str, Any]:
        name = f"samples/{key.id}_epoch_{key.epoch}.json"
        value = loads(decode(self.member(name), f"{self.name}:{name}"), f"{self.name}:{name}")
        if not isinstance(value, Mapping):
            raise InputError(f"{name} is not a JSON object", source=self.name)
        return dict(value)

    def member(self, name: str) -> bytes:
        """A member's bytes, decompressed with a bound on how much it may produce."""
        info = self._infos[name]
        where = f"{self.name}:{name}"
        self._stream.seek(info.header_offset)
        header = self._stream.read(30)
        if len(header) != 30 or header[:4] != ZIP_MAGIC:
            raise InputError("bad local header in the zip archive", source=where)
        name_len, extra_len = struct.unpack("<HH", header[26:30])
        self._stream.seek(info.header_offset + 30 + name_len + extra_len)
        compressed = self._stream.read(info.compress_size)
        if len(compressed) != info.compress_size:
            raise InputError("the zip archive is truncated", source=where)
        data = _decompress(info.compress_type, compressed, info.file_size, where)
        if len(data) > info.file_size:
            raise InputError(
                f"decompresses to more than the {info.file_size} bytes it declares "
                "(a zip bomb?): refused",
                source=where,
            )
        if zlib.crc32(data) != info.CRC:
            raise InputError("CRC check failed: the member is corrupt", source=where)
        return data


def _decompress(method: int, data: bytes, limit: int, where: str) -> bytes:
    """At most ``limit + 1`` bytes of a member (one more than allowed shows a lie)."""
    if method == _STORED:
        return data[: limit + 1]
    if method == _DEFLATED:
        inflate = zlib.decompressobj(-15)
        try:
            return inflate.decompress(data, limit + 1)
        except zlib.error as exc:
            raise InputError(f"corrupt DEFLATE data: {exc}", source=where) from None
    if method == _ZSTD:
        return _unzstd(data, limit + 1, where)
    raise InputError(f"zip compression method {method} is not supported", source=where)


def _unzstd(data: bytes, most: int, where: str) -> bytes:
    """Zstandard frames (inspect-ai writes several), decoded up to ``most`` bytes."""
    try:  # Python 3.14+
        from compression import zstd  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        zstd = None
    if zstd is not None:
        out = bytearray()
        rest = data
        while rest and len(out) < most:
            frame = zstd.ZstdDecompressor()
            out += frame.decompress(rest, max_length=most - len(out))
            if not frame.eof:
                break
            rest = frame.unused_data
        return bytes(out)
    try:
        import zstandard  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise InputError(
            "this .eval log is Zstandard-compressed (zip method 93, recent inspect-ai) and the "
            "zstandard package, a dependency of groundcheck-citations, is missing: "
            "pip install zstandard",
            source=where,
        ) from None
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True)
    try:
        out = bytearray()
        while len(out) < most:
            chunk = reader.read(min(_CHUNK, most - len(out)))
            if not chunk:
                break
            out += chunk
        return bytes(out)
    except zstandard.ZstdError as exc:
        raise InputError(f"corrupt Zstandard data: {exc}", source=where) from None
