"""Record fields extracted in one pass find exactly what extracting each record alone finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.evidence.listings import identifiers_by_text
from groundcheck.extractors import FunctionExtractor, identifiers_in
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.registry import Extractor
from groundcheck.model import Identifier, Mention

ID_FINDERS = [e for e in BUILTIN if e.name != "title"]

# Pieces that make identifiers, labels, hints and the view's joins, glued at random: a label at
# the end of one record and a number at the start of the next is the trap.
_PIECES = st.sampled_from(
    [
        "PMID", "PMID:", "PubMed ID", "PMCID:", "PMC", "12345678", "31452104", "2323736",
        "2005.11401", "2005.", "11401", "114", "01", "v2", "arXiv", "arXiv:", "arxiv.org/abs/",
        "10.", "10.1000", "/", "/xyz", "10.1000/xyz", "hep-", "th", "hep-th", "/9711200",
        "ISBN", "ISBN:", "978-0-262-03561-3", "0-262-03561-8", "SBN", "CorpusId:", "corpus",
        "https://", "http://doi.org/", "www.", "doi.org/", "openreview.net/forum?id=", "abc123",
        "openalex.org/", "W2741809807", "dblp.org/rec/", "conf/nips/VaswaniSPUJGKP17",
        "aclanthology.org/", "2020.acl-main.1", "P19-1001", "semanticscholar.org/paper/",
        "&#47;", "&#50;", "%2F", "%2E", "\\/", "\\.", "*", "_", "**", "\u200b", "\u2013",
        "\u2010", "\uff0e", "\uff10", "\u00fc", " ", " ", "\t", "\n", "\n", "-", ".", ",", ";",
        "(", ")", "[", "]", "\"", "'", "=", ":", "#", "?", "&", "word", "Title",
    ]
)  # fmt: skip
_TEXTS = st.lists(st.lists(_PIECES, max_size=12).map("".join), min_size=2, max_size=8)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_one_pass_equals_one_by_one(texts: list[str]) -> None:
    expected = [identifiers_in(t, ID_FINDERS) if t else set() for t in texts]
    assert identifiers_by_text(texts, ID_FINDERS) == expected


def test_a_label_does_not_reach_into_the_next_record() -> None:
    texts = ["see PMID:", "31452104", "arXiv:", "2313.01234", "10.1000/", "abc"]
    assert identifiers_by_text(texts, ID_FINDERS) == [set(), set(), set(), set(), set(), set()]


def test_plug_ins_are_read_one_by_one() -> None:
    """A plug-in may read across any gap (here: it sees the whole text), so it gets each
    text on its own."""

    def whole(text: str) -> list[Mention]:
        return [Mention(Identifier("whole", text), 0, len(text))] if text else []

    plugin: Extractor = FunctionExtractor("whole", whole, "the whole text")
    texts = ["a", "b"]
    found = identifiers_by_text(texts, [*ID_FINDERS, plugin])
    assert found == [{Identifier("whole", "a")}, {Identifier("whole", "b")}]
