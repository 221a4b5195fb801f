"""inspect-ai logs: .eval archives (Zstandard and DEFLATE) and .json logs, one sample at a time.

The logs in ``fixtures/inspect/`` were written by inspect-ai itself (``make_logs.py``, mockllm,
offline): two samples, "moe" (a search returns 2101.03961 and 1701.06538) and "rag" (a search
for 2004.04906 returns nothing), two epochs; both answers cite 2004.04906.
"""

from __future__ import annotations

import json
import struct
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from groundcheck import audit
from groundcheck.errors import InputError
from groundcheck.evidence import inspect_log, load_evidence, samples_of
from groundcheck.model import Identifier

LOGS = Path(__file__).parent / "fixtures" / "inspect"
FILES = ["moe.eval", "moe-deflate.eval", "moe.json"]
HAS_INSPECT = inspect_log._inspect_available()


@pytest.fixture(params=["builtin", "inspect-ai"])
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each test runs with the small reader, and with inspect-ai's when it is installed."""
    if request.param == "inspect-ai" and not HAS_INSPECT:
        pytest.skip("inspect-ai is not installed")
    if request.param == "builtin":
        monkeypatch.setattr(inspect_log, "_inspect_available", lambda: False)
    yield request.param


@pytest.mark.parametrize("name", FILES)
def test_each_sample_is_audited_against_its_own_tool_messages(name: str, reader: str) -> None:
    moe = load_evidence(LOGS / name, sample="moe:2")
    assert moe.format == "inspect-ai"
    assert moe.evidence.identifiers == {
        Identifier("arxiv", "2101.03961"),
        Identifier("arxiv", "1701.06538"),
    }
    assert moe.report == "Switch Transformers (arXiv:2101.03961) and DPR (arXiv:2004.04906)."
    verdict = audit(moe.report, moe.evidence)
    assert [(f.code, f.citation.id if f.citation else None) for f in verdict.findings] == [
        ("fabricated-id", "2004.04906")
    ]
    rag = load_evidence(LOGS / name, sample="rag:1")
    (call,) = rag.evidence.calls
    assert call.empty and call.tool == "arxiv_search"
    assert rag.report == "Nothing found; DPR is arXiv:2004.04906."


@pytest.mark.parametrize("name", FILES)
def test_choosing_a_sample(name: str, reader: str) -> None:
    """Several samples need --sample; a wrong or ambiguous one lists what there is."""
    listing = "moe:1, moe:2, rag:1, rag:2"
    with pytest.raises(
        InputError, match=f"log with 4 samples: pass --sample ID \\(one of: {listing}"
    ):
        load_evidence(LOGS / name)
    with pytest.raises(InputError, match=f"no sample 'dpr' in this log; samples: {listing}"):
        load_evidence(LOGS / name, sample="dpr")
    with pytest.raises(InputError, match="sample 'moe' has 2 epochs: pass --sample moe:EPOCH"):
        load_evidence(LOGS / name, sample="moe")


@pytest.mark.parametrize("name", FILES)
def test_samples_are_listed_for_rate(name: str) -> None:
    assert samples_of(LOGS / name) == [
        ("moe:1", "moe"), ("moe:2", "moe"), ("rag:1", "rag"), ("rag:2", "rag"),
    ]  # fmt: skip


def _one_sample_archive(tmp_path: Path, source: str = "moe-deflate.eval") -> Path:
    out = tmp_path / "one.eval"
    with (
        zipfile.ZipFile(LOGS / source) as src,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst,
    ):
        for info in src.infolist():
            if info.filename.startswith("samples/") and info.filename != "samples/moe_epoch_1.json":
                continue
            dst.writestr(info.filename, src.read(info.filename))
    return out


def test_a_one_sample_log_needs_no_sample(tmp_path: Path, reader: str) -> None:
    trace = load_evidence(_one_sample_archive(tmp_path))
    assert Identifier("arxiv", "2101.03961") in trace.evidence.identifiers
    doc = json.loads((LOGS / "moe.json").read_text("utf-8"))
    doc["samples"] = doc["samples"][:1]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(doc), "utf-8")  # one line, as json.dump writes it
    assert load_evidence(one).report == trace.report


def test_the_json_log_reads_the_same_one_line_or_pretty(tmp_path: Path) -> None:
    doc = json.loads((LOGS / "moe.json").read_text("utf-8"))
    flat = tmp_path / "flat.json"
    flat.write_text(json.dumps(doc), "utf-8")
    a = load_evidence(LOGS / "moe.json", sample="moe:1")
    b = load_evidence(flat, sample="moe:1")
    assert a.evidence.identifiers == b.evidence.identifiers and a.report == b.report


def test_attachments_are_resolved(tmp_path: Path) -> None:
    """inspect-ai may keep a long tool result once, as attachment://<hash>."""
    doc = json.loads((LOGS / "moe.json").read_text("utf-8"))
    sample = doc["samples"][0]
    tool = next(m for m in sample["messages"] if m["role"] == "tool")
    sample["attachments"] = {"c0ffee": tool["content"]}
    tool["content"] = "attachment://c0ffee"
    doc["samples"] = [sample]
    path = tmp_path / "attached.json"
    path.write_text(json.dumps(doc), "utf-8")
    assert Identifier("arxiv", "2101.03961") in load_evidence(path).evidence.identifiers


def test_zstandard_without_a_decoder_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inspect_log, "_inspect_available", lambda: False)
    monkeypatch.setitem(sys.modules, "zstandard", None)
    monkeypatch.setitem(sys.modules, "compression", None)
    with pytest.raises(InputError, match=r"Zstandard-compressed .*pip install zstandard"):
        load_evidence(LOGS / "moe.eval", sample="moe:1")


# -- bad input ------------------------------------------------------------------------------


def test_a_log_that_is_neither_zip_nor_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.eval"
    path.write_bytes(b"not a log\n")
    with pytest.raises(InputError, match=r"broken\.eval: is neither a zip archive"):
        load_evidence(path)


def test_a_zip_that_is_not_an_inspect_log(tmp_path: Path) -> None:
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(InputError, match=r"a zip archive, but not an inspect-ai \.eval log"):
        load_evidence(path)


def _bomb(tmp_path: Path, size: int) -> Path:
    path = tmp_path / "bomb.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", "{}")
        z.writestr("samples/x_epoch_1.json", b" " * size)
    return path


def test_a_member_declaring_too_much_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _bomb(tmp_path, 200_000)  # 200 kB of spaces: a few hundred bytes compressed
    monkeypatch.setattr(inspect_log, "MAX_MEMBER_BYTES", 100_000)
    with pytest.raises(InputError, match=r"declares 200000 bytes, over the 100000-byte limit"):
        load_evidence(path)


def test_a_member_that_lies_about_its_size_stops_decompressing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The classic bomb: a small declared size over data that inflates far beyond it."""
    monkeypatch.setattr(inspect_log, "_inspect_available", lambda: False)
    path = _bomb(tmp_path, 5_000_000)
    data = bytearray(path.read_bytes())
    name = b"samples/x_epoch_1.json"
    central = data.index(b"PK\x01\x02")  # the central directory entry of the sample
    while data[central + 46 : central + 46 + len(name)] != name:
        central = data.index(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", data, central + 24, 1000)  # uncompressed size: 1000 bytes
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"decompresses to more than the 1000 bytes it declares"):
        load_evidence(path)
