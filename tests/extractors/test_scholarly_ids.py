"""Semantic Scholar, OpenAlex and DBLP ids: from URLs and prefixes only, never bare."""

from __future__ import annotations

import pytest

from groundcheck.extractors.dblp import DBLP, find_dblp
from groundcheck.extractors.openalex import OPENALEX, find_openalex
from groundcheck.extractors.semanticscholar import S2, S2_CORPUS, find_semanticscholar
from groundcheck.model import Identifier, Mention

SHA = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"


def found(finder, text: str) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    mentions: list[Mention] = list(finder(text))
    for m in mentions:
        assert text[m.start : m.end].lower() == m.identifier.id.lower()
    return [(m.identifier.scheme, m.identifier.id) for m in mentions]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            f"https://www.semanticscholar.org/paper/Attention-is-All-you-Need-Vaswani/{SHA}",
            ("s2", SHA),
        ),
        (f"https://www.semanticscholar.org/paper/{SHA}", ("s2", SHA)),
        (f"https://api.semanticscholar.org/graph/v1/paper/{SHA.upper()}", ("s2", SHA)),
        ("CorpusId:215416146", ("s2-corpus", "215416146")),
        ("CorpusID: 215416146", ("s2-corpus", "215416146")),
        ("Corpus ID: 215416146", ("s2-corpus", "215416146")),
        ("corpusid: 215416146", ("s2-corpus", "215416146")),
        ("https://api.semanticscholar.org/CorpusID:13756489", ("s2-corpus", "13756489")),
    ],
)
def test_semanticscholar_positive(text: str, expected: tuple[str, str]) -> None:
    assert found(find_semanticscholar, text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        SHA,  # a bare 40-hex string is any SHA-1
        f"https://github.com/a/b/commit/{SHA}",
        "https://www.semanticscholar.org/paper/abc123",
        "215416146",
        "corpus 215416146",
        f"https://www.semanticscholar.org/paper/x/{SHA}0",
    ],
)
def test_semanticscholar_negative(text: str) -> None:
    assert found(find_semanticscholar, text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://openalex.org/W2741809807", "W2741809807"),
        ("https://api.openalex.org/works/w2741809807", "W2741809807"),
        ("https://openalex.org/works/W2741809807", "W2741809807"),
        ("openalex:W2741809807", "W2741809807"),
        ("OpenAlex ID: W4407768578", "W4407768578"),
        ('"openalex": "https://openalex.org/W2741809807"', "W2741809807"),
    ],
)
def test_openalex_positive(text: str, expected: str) -> None:
    assert found(find_openalex, text) == [("openalex", expected)]


@pytest.mark.parametrize(
    "text",
    [
        "W2741809807",
        "a 500 W12 lamp",
        "https://openalex.org/A5023888391",  # an author, not a work
        "https://openalex.org/W12",
        "https://notopenalex.org/W2741809807",
    ],
)
def test_openalex_negative(text: str) -> None:
    assert found(find_openalex, text) == []


@pytest.mark.parametrize(
    ("text", "key", "alias"),
    [
        ("@inproceedings{DBLP:conf/nips/VaswaniSPUJGKP17,", "conf/nips/VaswaniSPUJGKP17", None),
        ("DBLP: conf/acl/DevlinCLT19", "conf/acl/DevlinCLT19", None),
        (
            "https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17.html?view=bibtex",
            "conf/nips/VaswaniSPUJGKP17",
            None,
        ),
        ("https://dblp.uni-trier.de/rec/bibtex/conf/icml/KingmaB15", "conf/icml/KingmaB15", None),
        (
            "https://dblp.org/rec/journals/corr/abs-1706-03762.html",
            "journals/corr/abs-1706-03762",
            "1706.03762",
        ),
        ("DBLP:journals/corr/abs-1412-6980.", "journals/corr/abs-1412-6980", "1412.6980"),
        ("DBLP:books/daglib/0020252", "books/daglib/0020252", None),
    ],
)
def test_dblp_positive(text: str, key: str, alias: str | None) -> None:
    (m,) = find_dblp(text)
    assert m.identifier == Identifier("dblp", key)
    assert m.aliases == ((Identifier("arxiv", alias),) if alias else ())
    assert text[m.start : m.end] == key


@pytest.mark.parametrize(
    "text",
    [
        "conf/nips/VaswaniSPUJGKP17",
        "see DBLP for more",
        "DBLP:nothing/x/y",
        "https://dblp.org/pid/1/2",
    ],
)
def test_dblp_negative(text: str) -> None:
    assert found(find_dblp, text) == []


@pytest.mark.parametrize(
    ("finder", "text", "scheme"),
    [
        (find_semanticscholar, f"https://www.semanticscholar.org/paper/{SHA}", S2),
        (find_semanticscholar, "CorpusId:215416146", S2_CORPUS),
        (find_openalex, "openalex:w2741809807", OPENALEX),
        (find_dblp, "DBLP:conf/nips/VaswaniSPUJGKP17", DBLP),
    ],
)
def test_cited_forms_are_found_again(finder, text: str, scheme) -> None:  # type: ignore[no-untyped-def]
    """Each scheme's citation form (its prefix + the canonical id) is the same id again."""
    (m,) = finder(text)
    assert [x.identifier for x in finder(scheme.cite(m.identifier))] == [m.identifier]


def test_a_dblp_record_url_ending_a_sentence_is_the_key_without_html() -> None:
    """Found by hypothesis: 'dblp.org/rec/conf/x/Y.html.' kept '.html' behind the full stop."""
    (m,) = find_dblp("See dblp.org/rec/conf/nips/VaswaniSPUJGKP17.html.")
    assert m.identifier.id == "conf/nips/VaswaniSPUJGKP17"
    (again,) = find_dblp("DBLP:conf/nips/VaswaniSPUJGKP17")
    assert again.identifier == m.identifier
