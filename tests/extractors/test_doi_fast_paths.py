"""The DOI extractor's cheaper steps give what they gave before.

- ``_cut_unbalanced`` returns a suffix with no bracket at once, and ``_trim_entity`` one with
  no ``&``; compared with their previous code on generated suffixes;
- identifiers and mentions are made by the ``_trusted`` constructors; each equals, field by
  field, what the validated constructor makes of the same values.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import doi
from groundcheck.extractors.doi import find_doi
from groundcheck.model import Identifier, Mention


def _cut_unbalanced_v1(suffix: str) -> str:
    depth = {"(": 0, "<": 0, "{": 0}
    for m in doi._BRACKET.finditer(suffix):
        ch = m.group()
        if ch in depth:
            depth[ch] += 1
        else:
            opener = doi._CLOSERS[ch]
            if depth[opener] == 0:
                return suffix[: m.start()]
            depth[opener] -= 1
    return suffix


def _trim_entity_v1(suffix: str) -> str:
    entity = doi._ENTITY.search(suffix)
    return suffix if entity is None else suffix[: entity.start()]


@settings(max_examples=1500, deadline=None)
@given(st.text("ab1.()<>{}&#;x/", max_size=20))
def test_trim_steps_match_their_previous_code(suffix: str) -> None:
    assert doi._cut_unbalanced(suffix) == _cut_unbalanced_v1(suffix)
    assert doi._trim_entity(suffix) == _trim_entity_v1(suffix)


def _validated(m: Mention) -> Mention:
    ident = Identifier(m.identifier.scheme, m.identifier.id, m.identifier.version)
    aliases = tuple(Identifier(a.scheme, a.id, a.version) for a in m.aliases)
    return Mention(ident, m.start, m.end, m.malformed, aliases, m.kind)


def _fields(m: Mention) -> tuple[object, ...]:
    i = m.identifier
    return (i.scheme, i.id, i.version, m.start, m.end, m.malformed, m.aliases, m.kind)


_PARTS = [
    "doi:", "https://doi.org/", "https://www.biorxiv.org/content/", "10.1101/2020.01.01.123v2",
    "10.48550/arXiv.2005.11401v2", "10.18653/v1/2020.acl-main.1", "10.5/x", "10.1000/", " ",
    "10.1000/A%2Fb", "\n", "x.", "(", ")",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PARTS), max_size=12).map("".join))
def test_trusted_mentions_equal_validated_ones(text: str) -> None:
    for m in find_doi(text):
        assert _fields(m) == _fields(_validated(m))
        assert m == _validated(m)
