"""What a framework hands over, turned into groundcheck's native tool-call records.

Frameworks pass tool outputs as whatever the tool returned: strings, dicts, pydantic models,
dataclasses, message objects, bytes, images. The native record (``{"tool", "input", "output",
"id", "error"?, "recorded"?}``) wants plain JSON-like data. :func:`plain` converts what can be
read and marks what cannot (binary data, images, audio, objects with no text form) as
unreadable; an output that is unreadable as a whole becomes ``"recorded": false`` — a gap in
the evidence the verdict reports — never an empty output and never a crash inside the
framework's callback.

Nothing here imports a framework: objects are recognised by what they offer (``model_dump``,
dataclass fields), and each integration passes a ``special`` hook for its own types.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable, Mapping
from typing import Any, Final

__all__ = ["NOT_HANDLED", "UNREADABLE", "plain", "record"]


class _Unreadable:
    """The marker for a value with no text groundcheck could read."""

    _instance: _Unreadable | None = None

    def __new__(cls) -> _Unreadable:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNREADABLE"


UNREADABLE: Final = _Unreadable()


class NotHandled:
    """Returned by a ``special`` hook for values it leaves to the generic rules."""


NOT_HANDLED: Final = NotHandled()

Special = Callable[[Any], Any]

# Content blocks that carry pixels or sound rather than text (OpenAI, Anthropic, LangChain,
# inspect-ai spellings): what they show cannot be read. A record that merely has such a type
# but also text a person reads (an image search result with its title) is data, not pixels.
_MEDIA_TYPES: Final = frozenset(
    {"image", "image_url", "input_image", "audio", "input_audio", "video"}
)
_TEXT_KEYS: Final = ("title", "text", "caption", "description", "alt", "name")
_MAX_DEPTH: Final = 64


def _no_special(value: Any) -> Any:
    return NOT_HANDLED


def _is_media_url(text: str) -> bool:
    """``data:image/png;base64,...``: an image written as a string (computer-use tools)."""
    if not text.startswith("data:"):
        return False
    head = text[5:200]
    mime, _, rest = head.partition(";")
    return ("base64," in rest or rest.startswith("base64")) and not (
        mime.startswith("text/") or mime in {"application/json", ""}
    )


def _text_of_bytes(data: bytes) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return UNREADABLE
    return UNREADABLE if "\x00" in text else text


def _container(items: list[Any]) -> Any:
    """Drop unreadable items; a non-empty container of nothing but those is unreadable."""
    kept = [item for item in items if item is not UNREADABLE]
    return UNREADABLE if items and not kept else kept


def plain(value: Any, special: Special = _no_special, _depth: int = 0) -> Any:
    """JSON-like data for ``value``, or :data:`UNREADABLE` when nothing in it can be read.

    Never raises: a conversion that fails is unreadable.

    >>> plain({"title": "RAG", "year": 2020, "pdf": b"%PDF\\x00\\x01"})
    {'title': 'RAG', 'year': 2020}
    >>> plain([{"type": "image", "data": "iVBORw0..."}])
    UNREADABLE
    >>> plain(b"arXiv:2005.11401")
    'arXiv:2005.11401'
    """
    try:
        return _plain(value, special, _depth)
    except Exception:
        return UNREADABLE


def _plain(value: Any, special: Special, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        return UNREADABLE
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return UNREADABLE if _is_media_url(value) else value
    handled = special(value)
    if handled is not NOT_HANDLED:
        return handled if handled is UNREADABLE else _plain(handled, _no_special, depth + 1)
    deeper = depth + 1
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _text_of_bytes(bytes(value))
    if isinstance(value, enum.Enum):
        return _plain(value.value, special, deeper)
    if isinstance(value, Mapping):
        kind = value.get("type")
        if (
            isinstance(kind, str)
            and kind in _MEDIA_TYPES
            and not any(k in value for k in _TEXT_KEYS)
        ):
            return UNREADABLE
        pairs = [(str(k), _plain(v, special, deeper)) for k, v in value.items()]
        kept = {k: v for k, v in pairs if v is not UNREADABLE}
        return UNREADABLE if pairs and not kept else kept
    if isinstance(value, (list, tuple)):
        return _container([_plain(v, special, deeper) for v in value])
    if isinstance(value, (set, frozenset)):
        return _container([_plain(v, special, deeper) for v in sorted(value, key=repr)])
    dump = getattr(value, "model_dump", None)  # pydantic v2 models
    if callable(dump) and not isinstance(value, type):
        try:
            dumped = dump(mode="json")
        except Exception:
            dumped = dump()
        return _plain(dumped, special, deeper)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}
        return _plain(fields, special, deeper)
    attrs_fields = getattr(type(value), "__attrs_attrs__", None)
    if attrs_fields is not None:
        return _plain({a.name: getattr(value, a.name, None) for a in attrs_fields}, special, deeper)
    cls: Any = type(value)
    if cls.__str__ is not object.__str__:
        return str(value)  # an object that says how it reads as text
    return UNREADABLE  # an object with no text form: its repr is an address, not data


def record(
    tool: Any,
    call_id: Any,
    tool_input: Any,
    output: Any,
    *,
    error: str | None = None,
    recorded: bool = True,
    special: Special = _no_special,
) -> dict[str, Any]:
    """One native record; an unreadable output (or one the framework did not keep) is a gap.

    >>> record("search", "c1", {"q": "rag"}, [{"type": "image_url", "image_url": "x"}])
    {'tool': 'search', 'input': {'q': 'rag'}, 'output': None, 'id': 'c1', 'recorded': False}
    """
    name = tool if isinstance(tool, str) and tool.strip() else "?"
    converted = plain(output, special) if recorded else None
    readable_input = plain(tool_input, special)
    out: dict[str, Any] = {
        "tool": name,
        "input": None if readable_input is UNREADABLE else readable_input,
        "output": None if converted is UNREADABLE else converted,
        "id": str(call_id),
    }
    if error:
        out["error"] = error
    elif not recorded or converted is UNREADABLE:
        out["recorded"] = False
    return out
