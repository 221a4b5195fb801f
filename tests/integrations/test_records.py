"""Framework objects to native records: converted when readable, a gap when not, never a crash."""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import groundcheck
from groundcheck.integrations import _scores
from groundcheck.integrations._records import UNREADABLE, plain, record


@dataclasses.dataclass
class PaperDC:
    arxiv_id: str
    title: str


@attrs.frozen
class PaperAttrs:
    doi: str


class Color(enum.Enum):
    RED = "arXiv:2005.11401"


class Opaque:
    """An object with no text form: its repr is only an address."""


class Described:
    def __str__(self) -> str:
        return "doi:10.1000/xyz"


class Exploding:
    def __str__(self) -> str:
        raise RuntimeError("no")


def test_plain_converts_what_can_be_read() -> None:
    """Dataclasses, attrs classes, enums, bytes, sets and objects with a __str__ become data."""
    value = {
        "dc": PaperDC("2005.11401", "RAG"),
        "attrs": PaperAttrs("10.1000/xyz"),
        "enum": Color.RED,
        "bytes": b"arXiv:2004.04906",
        "set": {"b", "a"},
        "described": Described(),
        "nan": float("nan"),
    }
    assert plain(value) == {
        "dc": {"arxiv_id": "2005.11401", "title": "RAG"},
        "attrs": {"doi": "10.1000/xyz"},
        "enum": "arXiv:2005.11401",
        "bytes": "arXiv:2004.04906",
        "set": ["a", "b"],
        "described": "doi:10.1000/xyz",
        "nan": None,
    }


@pytest.mark.parametrize(
    "value",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00",
        bytearray(b"\xff\xfe\x00"),
        "data:image/png;base64,iVBORw0KGgo=",
        {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
        {"type": "input_audio", "data": "UklGR..."},
        [{"type": "image", "source": {"data": "iVBOR"}}],
        Opaque(),
        Exploding(),
    ],
)
def test_plain_marks_what_cannot_be_read(value: Any) -> None:
    """Binary data, images, audio and text-less objects are unreadable, not empty."""
    assert plain(value) is UNREADABLE


def test_mixed_content_keeps_the_text() -> None:
    """Text beside an image is kept; only the image is dropped."""
    blocks = [{"type": "text", "text": "arXiv:2005.11401"}, {"type": "image", "data": "x"}]
    assert plain(blocks) == [{"type": "text", "text": "arXiv:2005.11401"}]


@pytest.mark.parametrize(
    "value",
    [
        {"type": "image", "url": "https://arxiv.org/abs/2005.11401", "title": "RAG figure 1"},
        {"type": "document", "doi": "10.1000/xyz"},
        {"type": ["image"], "doi": "10.1000/xyz"},
    ],
)
def test_records_that_only_look_like_media_are_data(value: Any) -> None:
    """A search result typed "image" but titled, or any "document" record, is read as data."""
    assert plain(value) == value


def test_text_data_urls_are_text() -> None:
    """A data URL of text or JSON is not an image."""
    assert plain("data:text/plain;base64,aGk=") == "data:text/plain;base64,aGk="


def test_deep_and_cyclic_values_do_not_crash() -> None:
    """A cycle or an absurd depth ends in UNREADABLE, not a RecursionError."""
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    assert plain(cyclic) is UNREADABLE
    deep: Any = "arXiv:2005.11401"
    for _ in range(500):
        deep = [deep]
    assert plain(deep) is UNREADABLE


def test_pydantic_models_are_dumped() -> None:
    """A pydantic model reads as its JSON dump."""
    pydantic = pytest.importorskip("pydantic")

    class Paper(pydantic.BaseModel):  # type: ignore[misc,name-defined]
        doi: str

    assert plain([Paper(doi="10.1000/xyz")]) == [{"doi": "10.1000/xyz"}]


def test_unreadable_output_is_a_gap_in_the_evidence() -> None:
    """An unreadable output is recorded: false, so the verdict warns instead of calling it empty."""
    rec = record("screenshot", "c1", {"page": 1}, b"\x89PNG\x00")
    assert rec == {
        "tool": "screenshot",
        "input": {"page": 1},
        "output": None,
        "id": "c1",
        "recorded": False,
    }
    verdict = groundcheck.audit("See arXiv:2005.11401.", [rec])
    assert verdict.evidence.empty_calls == 0
    assert "outputs-not-recorded" in [f.code for f in verdict.findings]


def test_errored_record_keeps_the_message() -> None:
    """An error is the call's failure, whatever its output."""
    rec = record("", 7, None, None, error="timeout")
    assert rec == {"tool": "?", "input": None, "output": None, "id": "7", "error": "timeout"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        | st.tuples(inner, inner)
        | st.frozensets(st.text(max_size=4), max_size=3)
    ),
    max_leaves=20,
)


@given(json_values)
def test_plain_always_gives_json_or_unreadable(value: Any) -> None:
    """Whatever comes in, what goes out serialises as JSON, the same way twice."""
    out = plain(value)
    if out is not UNREADABLE:
        assert json.dumps(out, sort_keys=True) == json.dumps(plain(value), sort_keys=True)


@given(json_values)
def test_records_always_audit(value: Any) -> None:
    """Every record built from any output is one groundcheck.audit accepts."""
    groundcheck.audit("See arXiv:2005.11401.", [record("t", "1", value, value)])


def test_counts_name_every_kind_of_finding() -> None:
    """The counts every integration reports, from one verdict."""
    calls = [{"tool": "s", "input": "q", "output": "arXiv:2005.11401"}]
    verdict = groundcheck.audit("arXiv:2005.11401, arXiv:2004.04906, arXiv:2313.01234.", calls)
    numbers = _scores.counts(verdict)
    assert numbers["cited"] == 3
    assert numbers["matched"] == 1
    assert numbers["fabricated"] == 1
    assert numbers["malformed"] == 1
    assert numbers["errors"] == len(verdict.errors)
    assert _scores.fabrication_rate(verdict) == pytest.approx(1 / 3)
    assert _scores.summary(verdict).startswith("FAIL: 2 errors")
