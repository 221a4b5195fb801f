"""The data model: identity of identifiers, the verdict JSON contract, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundcheck import SCHEMA, Identifier, audit
from groundcheck.model import Evidence, EvidenceSet, Finding, Mention


def test_version_is_not_part_of_identity() -> None:
    """2005.11401v2 and 2005.11401 are one work: equal, same hash."""
    a, b = Identifier("arxiv", "2005.11401", 2), Identifier("arxiv", "2005.11401")
    assert a == b
    assert hash(a) == hash(b)
    assert a.display == "2005.11401v2"
    assert str(b) == "arxiv:2005.11401"


def test_validation() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        Identifier("", "x")
    with pytest.raises(ValueError, match="before it starts"):
        Mention(Identifier("a", "b"), 5, 3)
    with pytest.raises(ValueError, match="severity"):
        Finding("x", "fatal", "m")  # type: ignore[arg-type]


def test_evidence_set_merge_and_lookup() -> None:
    one = EvidenceSet([Evidence("t", "a", frozenset({Identifier("arxiv", "1")}))])
    two = EvidenceSet([Evidence("t", "b", frozenset({Identifier("arxiv", "1")}))])
    merged = EvidenceSet.merge([one, two])
    assert merged.calls_returning([Identifier("arxiv", "1")]) == ("a", "b")
    assert merged.calls_returning([Identifier("arxiv", "2")]) == ()


VERDICT_KEYS = {"schema", "ok", "summary", "findings", "citations", "evidence", "notes", "works"}
FINDING_KEYS = {"code", "severity", "message", "citation", "calls", "work"}
CITED_KEYS = {"scheme", "id", "raw", "start", "end", "line", "column", "source"}
CITATION_KEYS = {
    "scheme",
    "id",
    "version",
    "raw",
    "start",
    "end",
    "line",
    "column",
    "malformed",
    "source",
    "kind",
    "grounded",
    "evidence",
    "matched_title",
    "score",
}
EVIDENCE_KEYS = {
    "calls",
    "empty_calls",
    "errored_calls",
    "unrecorded_calls",
    "action_calls",
    "identifiers",
    "excluded",
    "notes",
}


def test_verdict_json_contract() -> None:
    """The keys the issue names are present, with the types it names."""
    v = audit(
        "See arXiv:2005.11401v2 and 2004.04906.",
        [{"tool": "s", "id": "c1", "output": "2005.11401"}, {"tool": "s", "output": []}],
    )
    data = json.loads(v.to_json())
    assert set(data) == VERDICT_KEYS
    assert data["schema"] == SCHEMA == "groundcheck.verdict/1"
    assert data["ok"] is False
    (finding,) = data["findings"]
    assert set(finding) == FINDING_KEYS
    assert set(finding["citation"]) == CITED_KEYS
    assert finding["code"] == "fabricated-id"
    assert [set(c) for c in data["citations"]] == [CITATION_KEYS, CITATION_KEYS]
    first = data["citations"][0]
    assert first == {
        "scheme": "arxiv",
        "id": "2005.11401",
        "version": 2,
        "raw": "2005.11401v2",
        "start": 10,
        "end": 22,
        "line": 1,
        "column": 11,
        "malformed": False,
        "source": None,
        "kind": None,
        "grounded": True,
        "evidence": ["c1"],
        "matched_title": None,
        "score": None,
    }
    assert set(data["evidence"]) == EVIDENCE_KEYS
    assert data["evidence"]["calls"] == 2
    assert data["evidence"]["empty_calls"] == 1
    assert data["evidence"]["identifiers"] == [{"scheme": "arxiv", "id": "2005.11401"}]


def test_ok_is_false_only_for_errors() -> None:
    v = audit("x" * 600, [{"tool": "s", "output": []}])
    data = json.loads(v.to_json())
    assert data["ok"] is True
    assert data["summary"]["warnings"] == 1


_SCRIPT = """
import groundcheck, sys
calls = [{"tool": "s", "output": ["2005.11401", "10.1000/A", "hep-th/9711200", "1706.03762"]}]
report = "10.1000/a 2004.04906 hep-th/9711200 1706.03762 2005.11401 arXiv:2313.00001 10.9999/z"
sys.stdout.write(groundcheck.audit(report, calls).to_json())
"""


def test_json_is_byte_identical_across_hash_seeds() -> None:
    """Same input, same bytes, whatever PYTHONHASHSEED the interpreter picks."""
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", _SCRIPT], env=env, capture_output=True, check=True, text=True
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_examples_verdicts_match_golden(examples: Path) -> None:
    """The bundled runs give the verdicts recorded in tests/golden (update them on purpose)."""
    golden = Path(__file__).parent / "golden"
    for run in ("apr23", "honest"):
        report = (examples / run / "report.md").read_text(encoding="utf-8")
        calls = json.loads((examples / run / "tool_calls.json").read_text(encoding="utf-8"))
        expected = (golden / f"{run}.verdict.json").read_text(encoding="utf-8")
        assert audit(report, calls).to_json() == expected


def test_the_lazily_made_classes_are_exactly_those_of_model_audit() -> None:
    """``model._AUDIT_CLASSES`` names what ``model.__getattr__`` loads from ``model._audit``;
    it is written out so the package need not import that module to know them."""
    from groundcheck import model
    from groundcheck.model import _audit

    assert frozenset(_audit.__all__) == model._AUDIT_CLASSES
    for name in _audit.__all__:
        assert getattr(model, name) is getattr(_audit, name)


_IDENTS = st.builds(
    Identifier,
    st.sampled_from(["arxiv", "doi", "title"]),
    st.text(min_size=1, max_size=8),
    st.none() | st.integers(1, 9),
)
_OFFSET = st.integers(0, 10**6)


@given(_IDENTS, _OFFSET, _OFFSET, st.none() | st.text(max_size=5), st.lists(_IDENTS, max_size=2))
def test_the_trusted_constructors_make_what_the_validated_ones_make(
    identifier: Identifier, start: int, length: int, malformed: str | None, aliases: list[Identifier]
) -> None:
    """The ``_trusted`` constructors (slot setters, no validators) build instances equal, field
    for field, to the classes' own ``__init__``; a subclass takes the path by name."""
    import attrs

    from groundcheck.model import Citation

    end = start + length
    fields = (identifier, start, end, malformed, tuple(aliases), "quoted")
    cite = (identifier, "raw", start, end, 3, 4, "arxiv", malformed, tuple(aliases), None, "url")
    scheme, id_, version = identifier.scheme, identifier.id, identifier.version
    cases = [
        (Identifier._trusted(scheme, id_, version), Identifier(scheme, id_, version)),
        (Mention._trusted(*fields), Mention(*fields)),
        (Citation._trusted(*cite), Citation(*cite)),
    ]

    @attrs.frozen
    class Sub(Citation):
        pass

    cases.append((Sub._trusted(*cite), Sub(*cite)))
    for trusted, validated in cases:
        assert type(trusted) is type(validated)
        assert attrs.astuple(trusted, recurse=False) == attrs.astuple(validated, recurse=False)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            trusted.kind = "x"  # type: ignore[misc,attr-defined]
