"""What listings works out once per set of extractors (which find identifiers only, whether
all are built in) is what it would work out afresh, whichever extractors are asked about next,
and a list changed in place is seen."""

from __future__ import annotations

from groundcheck.evidence import listings
from groundcheck.extractors import Extractor, FunctionExtractor
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.model import Identifier, Mention, Scheme


def _whole(text: str) -> list[Mention]:
    return [Mention(Identifier("whole", text), 0, len(text))] if text else []


PLUGIN: Extractor = FunctionExtractor("whole", _whole, "the whole text")
TITLES: Extractor = FunctionExtractor(
    "titles", _whole, "titles", schemes=(Scheme("title", "a title"),)
)


def _fresh(extractors: list[Extractor] | tuple[Extractor, ...]) -> tuple[list[Extractor], bool]:
    finders = [e for e in extractors if not listings._finds_titles(e)]
    return finders, all(any(e is b for b in BUILTIN) for e in extractors)


def _same(extractors: list[Extractor] | tuple[Extractor, ...]) -> None:
    finders, builtin = _fresh(extractors)
    for _ in range(2):  # asked afresh, then remembered
        got = listings._id_finders(extractors)
        assert got == finders
        assert all(a is b for a, b in zip(got, finders, strict=True))
        assert listings._all_builtin(extractors) is builtin


def test_every_set_of_extractors_gets_its_own_answer() -> None:
    sets: list[list[Extractor] | tuple[Extractor, ...]] = [
        BUILTIN,
        tuple(BUILTIN),
        (*BUILTIN, PLUGIN),
        [*BUILTIN, TITLES],
        (PLUGIN,),
        (),
        BUILTIN[:3],
        tuple(BUILTIN),
    ]
    for extractors in sets * 2:
        _same(extractors)


def test_a_list_changed_in_place_is_seen() -> None:
    extractors = list(BUILTIN)
    _same(extractors)
    extractors.append(PLUGIN)
    _same(extractors)
    extractors[0] = TITLES
    _same(extractors)
    del extractors[-2:]
    _same(extractors)


def test_the_returned_list_is_the_callers() -> None:
    extractors = tuple(BUILTIN)
    first = listings._id_finders(extractors)
    first.clear()
    assert listings._id_finders(extractors) == _fresh(extractors)[0]
