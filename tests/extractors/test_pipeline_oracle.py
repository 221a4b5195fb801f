"""The pipeline's and the extractors' cheaper steps give what they gave before.

``oracle/pipeline_v1.py`` is ``resolve_overlaps`` as it was at 033619f: every mention filtered
the list of containers, whether or not any still reached it. Now the filter runs only where
one does. ``oracle/arxiv_legacy_v1.py`` is ``find_arxiv_legacy`` then: the archive before each
slash was searched for from 40 characters back; now from the run of letters, ``-`` and ``.``
that ends at the slash. Compared on generated overlapping spans (nested, equal, touching, the same mention
object twice) and on every extractor's output over generated texts; and a citation built by
``Citation._trusted`` (what ``extract`` uses) equals the validated constructor's.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.arxiv import find_arxiv_legacy
from groundcheck.extractors.builtin import default_registry
from groundcheck.extractors.pipeline import _run, resolve_overlaps
from groundcheck.model import Citation, Identifier, Mention
from oracles import load_oracle

OLD = load_oracle(__file__, "pipeline_v1")
OLD_LEGACY = load_oracle(__file__, "arxiv_legacy_v1")

_IDS = [Identifier("arxiv", "2005.11401"), Identifier("doi", "10.1/x"), Identifier("url", "u")]


@st.composite
def _found(draw: st.DrawFn) -> list[tuple[Mention, str]]:
    pairs: list[tuple[Mention, str]] = []
    for _ in range(draw(st.integers(0, 14))):
        if pairs and draw(st.integers(0, 9)) == 0:
            pairs.append(draw(st.sampled_from(pairs)))  # the same object twice
            continue
        start = draw(st.integers(0, 30))
        end = start + draw(st.integers(0, 12))
        ident = draw(st.sampled_from(_IDS))
        aliases = tuple(draw(st.lists(st.sampled_from(_IDS), max_size=2)))
        name = draw(st.sampled_from(["arxiv", "doi", "url"]))
        pairs.append((Mention(ident, start, end, aliases=aliases), name))
    return pairs


@settings(max_examples=500, deadline=None)
@given(_found())
def test_resolve_overlaps_matches_the_old_pass(found: list[tuple[Mention, str]]) -> None:
    assert resolve_overlaps(list(found)) == OLD.resolve_overlaps(list(found))


_PIECES = [
    "arXiv:",
    "2005.11401",
    "v2",
    " ",
    "\n",
    "doi:",
    "10.48550/arXiv.",
    "10.1000/x",
    "https://",
    "arxiv.org/abs/",
    "www.",
    "doi.org/",
    "aclanthology.org/",
    "P19-1001",
    "10.18653/v1/",
    "dblp.org/rec/",
    "DBLP:",
    "conf/nips/X17",
    "journals/corr/abs-2005-11401",
    "PMID: 123",
    "pubmed.ncbi.nlm.nih.gov/",
    "ISBN 978-0-262-03561-3",
    ")",
    ".",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_extractor_output_resolves_as_before(pieces: list[str]) -> None:
    text = "".join(pieces)
    found = []
    for extractor in default_registry().select(None):
        if extractor.name != "title":
            found.extend(_run(extractor, text))
    assert resolve_overlaps(list(found)) == OLD.resolve_overlaps(list(found))


_CITATION_ARGS = st.tuples(
    st.sampled_from(_IDS),
    st.text(max_size=5),
    st.integers(0, 10**6),
    st.integers(0, 10),
    st.integers(1, 10**4),
    st.integers(1, 10**4),
    st.sampled_from(["", "arxiv"]),
    st.none() | st.text(min_size=1, max_size=5),
    st.lists(st.sampled_from(_IDS), max_size=2).map(tuple),
    st.none() | st.just("refs.bib"),
    st.sampled_from(["", "url"]),
)


@given(_CITATION_ARGS)
def test_trusted_citation_equals_the_validated_one(args: tuple[object, ...]) -> None:
    ident, raw, start, length, line, column, extractor, malformed, aliases, source, kind = args
    assert isinstance(start, int) and isinstance(length, int)
    placed = (ident, raw, start, start + length, line, column, extractor, malformed)
    trusted = Citation._trusted(*placed, aliases, source, kind)  # type: ignore[arg-type]
    checked = Citation(*placed, aliases=aliases, source=source, kind=kind)  # type: ignore[arg-type]
    assert trusted == checked
    assert repr(trusted) == repr(checked) and hash(trusted) == hash(checked)


@given(
    st.text(min_size=1, max_size=6),
    st.text(min_size=1, max_size=12),
    st.none() | st.integers(0, 99),
    st.integers(0, 10**6),
    st.integers(0, 99),
    st.none() | st.text(max_size=5),
    st.lists(st.sampled_from(_IDS), max_size=2).map(tuple),
    st.sampled_from(["", "url", "code"]),
)
def test_trusted_mentions_and_identifiers_equal_the_validated_ones(  # noqa: PLR0917
    scheme: str,
    ident: str,
    version: int | None,
    start: int,
    length: int,
    malformed: str | None,
    aliases: tuple[Identifier, ...],
    kind: str,
) -> None:
    """``Identifier._trusted`` and ``Mention._trusted`` (the arXiv and URL extractors' hot
    loops) make the objects the validated constructors make: equal, same repr and hash,
    frozen, and pickled alike."""
    import pickle

    import attrs

    trusted_id = Identifier._trusted(scheme, ident, version)
    checked_id = Identifier(scheme, ident, version)
    assert trusted_id == checked_id and repr(trusted_id) == repr(checked_id)
    assert hash(trusted_id) == hash(checked_id)
    end = start + length
    trusted = Mention._trusted(trusted_id, start, end, malformed, aliases, kind)
    checked = Mention(checked_id, start, end, malformed=malformed, aliases=aliases, kind=kind)
    assert trusted == checked and repr(trusted) == repr(checked) and hash(trusted) == hash(checked)
    assert pickle.loads(pickle.dumps(trusted)) == checked
    assert Mention._trusted(trusted_id, start, end) == Mention(checked_id, start, end)
    try:
        trusted.start = 0  # type: ignore[misc]
    except attrs.exceptions.FrozenInstanceError:
        pass
    else:  # pragma: no cover - a failure
        raise AssertionError("a trusted mention must be frozen")


_LEGACY_PIECES = [
    "hep-th", "math", "math.AG", "cs", "physics", "q-bio", "HEP-TH", "\u212a", "\u017f",
    "\u0131", "\u0130", "/", "9711200", "0601001v2", "12345", " ", "\n", ".", "-", "arXiv.",
    "x", "1", "ph", "cond-mat.str-el",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_LEGACY_PIECES) | st.text(max_size=3), max_size=30))
def test_legacy_ids_are_found_as_before(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert list(find_arxiv_legacy(text)) == list(OLD_LEGACY.find_arxiv_legacy(text))
