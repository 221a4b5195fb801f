"""ISBNs: labels, check digits, ISBN-10 to ISBN-13, the ISMN range, and never from inside a DOI."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors import extract
from groundcheck.extractors.doi import DOI, find_doi
from groundcheck.extractors.isbn import (
    ISBN,
    ISBN_EXTRACTOR,
    find_isbn,
    isbn10_check,
    isbn13,
    isbn13_check,
    isbn_problem,
)
from groundcheck.extractors.registry import FunctionExtractor

DOI_EXTRACTOR = FunctionExtractor("doi", find_doi, schemes=(DOI,))


def isbns(text: str) -> list[tuple[str, str | None]]:
    return [(m.identifier.id, m.malformed) for m in find_isbn(text)]


POSITIVE = [
    ("ISBN 978-0-262-03561-3", "9780262035613"),
    ("ISBN-13: 9780262035613", "9780262035613"),
    ("ISBN-10: 0-262-03561-8", "9780262035613"),
    ("ISBN: 0262035618", "9780262035613"),
    ("ISBN 0 262 03561 8", "9780262035613"),
    ("isbn:080442957x", "9780804429573"),
    ("ISBN 978-3-16-148410-0.", "9783161484100"),
    ("ISBN13 979-10-90636-07-1", "9791090636071"),
    ("(ISBN 0-306-40615-2) 2016", "9780306406157"),
    ("ISBN 978 0 262 03561 3, 2016", "9780262035613"),
    ("ISBN 0-262-03561-8 2016", "9780262035613"),
    ("Deep Learning. MIT Press, 978-0-262-03561-3.", "9780262035613"),
    ("isbn: 9780262035613", "9780262035613"),  # walk.py's form of {"isbn": 9780262035613}
    ("ISBNs: 0262035618", "9780262035613"),
    ("isbn_13: 9780262035613", "9780262035613"),  # walk.py's form of {"isbn_13": ...}
    ("ISBN 13: 978-0-262-03561-3", "9780262035613"),
    ("ISBN10 0262035618", "9780262035613"),
    ("SBN 306-40615-2", "9780306406157"),
]


@pytest.mark.parametrize(("text", "canonical"), POSITIVE)
def test_isbn_positive(text: str, canonical: str) -> None:
    assert isbns(text) == [(canonical, None)]


MALFORMED = [
    (
        "ISBN 978-0-262-03561-8",
        "ISBN-13 check digit should be 3 (the ISBN-10 check digit was kept)",
    ),
    ("ISBN 978-0-262-03561-4", "ISBN-13 check digit should be 3"),
    ("ISBN 0-262-03561-7", "ISBN-10 check digit should be 8"),
    ("ISBN 979-0-2600-0043-8", "979-0 is the ISMN (printed music) range, not an ISBN"),
    ("ISBN 12345", "ISBN has 10 or 13 digits, not 5"),
    ("ISBN 123456789012", "ISBN has 10 or 13 digits, not 12"),
    ("ISBN 978026203561X", "X only as the ISBN-10 check character"),
    ("ISBN 12345678X", "ISBN has 10 or 13 digits, not 9"),
    ("ISBN 1234567890123", "ISBN-13 starts with 978 or 979"),
]


@pytest.mark.parametrize(("text", "reason"), MALFORMED)
def test_isbn_malformed(text: str, reason: str) -> None:
    """A written ISBN that fails its check is malformed: never dropped, never 'corrected'."""
    ((_, bad),) = isbns(text)
    assert bad == reason


NEGATIVE = [
    "call 978-555-0123",
    "0262035618",
    "9780262035613",
    "order 978-0-262-03561-8",  # bare with a bad check digit: not written as an ISBN
    "2023-10-15",
    "ISSN 0028-0836",
    "ISMN 979-0-2600-0043-8",
    "978-0-262-03561-3-2",
    "+1 978 555 0123",
    "10.1007/978-3-030-58452-8_13",
    "EAN 4006381333931",
    "x978-0-262-03561-3",
    "a/978-0-262-03561-3",
    "978-0-262-03561-3_x",
    "ISBN-like",
]


@pytest.mark.parametrize("text", NEGATIVE)
def test_isbn_negative(text: str) -> None:
    assert isbns(text) == []


def test_springer_chapter_doi_is_one_citation() -> None:
    """A chapter DOI holds its book's ISBN; the report cites the DOI, not the book."""
    cited = extract("10.1007/978-3-030-58452-8_13", extractors=(DOI_EXTRACTOR, ISBN_EXTRACTOR))
    assert [(c.scheme, c.id) for c in cited] == [("doi", "10.1007/978-3-030-58452-8_13")]


def test_labelled_and_bare_are_not_counted_twice() -> None:
    text = "978-0-262-03561-3 and ISBN 0-306-40615-2 and ISBN 978-0-262-03561-3"
    assert [m.identifier.id for m in find_isbn(text)] == [
        "9780306406157",
        "9780262035613",
        "9780262035613",
    ]


def test_check_digits_against_known_books() -> None:
    assert isbn10_check("030640615") == "2"
    assert isbn10_check("080442957") == "X"
    assert isbn13_check("978030640615") == "7"
    assert isbn_problem("9790260000438") is not None  # an ISMN, which stdnum accepts as ISBN


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789", min_size=9, max_size=9))
def test_isbn10_and_its_isbn13_are_one_key(body: str) -> None:
    """Every valid ISBN-10 and the ISBN-13 made from it give the same canonical id, and the
    cited form of that id is found again as the same id (idempotent)."""
    ten = body + isbn10_check(body)
    thirteen = isbn13(ten)
    assert thirteen is not None
    assert isbn13(thirteen) == thirteen
    assert isbns(f"ISBN {ten}") == isbns(f"ISBN {thirteen}") == [(thirteen, None)]
    (m,) = find_isbn(f"ISBN-10: {ten}")
    assert [x.identifier for x in find_isbn(ISBN.cite(m.identifier))] == [m.identifier]
