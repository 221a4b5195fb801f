"""Quoted passages in a report: which are a source's words, which are not, and where they are."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.document.quotes import (
    BLOCK,
    INLINE,
    find_quotes,
    quote_tokens,
    quote_words,
    scan_quotes,
)

SIX = "the results were robust across every benchmark"


def texts(report: str, **kw: object) -> list[str]:
    return [q.text for q in find_quotes(report, **kw)]  # type: ignore[arg-type]


def reasons(report: str) -> list[tuple[str, str | None]]:
    return [(q.text, q.skip) for q in scan_quotes(report)]


@pytest.mark.parametrize(
    "report",
    [
        f'They wrote "{SIX}" in May.',
        f"They wrote \u201c{SIX}\u201d in May.",
        f"Sie schrieben \u201e{SIX}\u201c im Mai.",
        f"Ils ont \u00e9crit \u00ab{SIX}\u00bb en mai.",
        f'They wrote \u201c{SIX}" in May.',  # mixed marks, as agents write them
    ],
)
def test_every_double_quotation_style(report: str) -> None:
    assert texts(report) == [SIX]


def test_span_is_exact_and_placed() -> None:
    report = f'Intro line.\nThen: "{SIX}" and more.'
    (q,) = find_quotes(report)
    assert report[q.start : q.end] == q.raw == SIX
    assert (q.line, q.column, q.kind, q.words) == (2, 8, INLINE, 7)


def test_a_quotation_may_wrap_but_never_crosses_a_paragraph() -> None:
    wrapped = 'She said "the results were robust\nacross every benchmark" twice.'
    assert texts(wrapped) == ["the results were robust\nacross every benchmark"]
    broken = 'She said "the results were robust\n\nacross every benchmark" twice.'
    assert texts(broken) == []


def test_inches_and_stray_marks_open_nothing() -> None:
    assert texts(
        'A 12" screen and a 15" one, and the "eleven words long quote here now ok fine".'
    ) == ["eleven words long quote here now ok fine"]


def test_an_inner_quotation_is_part_of_the_outer_one() -> None:
    report = 'He said "they called it \u201cthe best model we have ever trained\u201d today" again.'
    assert texts(report) == ["they called it \u201cthe best model we have ever trained\u201d today"]


@pytest.mark.parametrize(
    ("report", "reason"),
    [
        ('a "scare quote" here', "short"),
        ('the album "There Is Nothing Left to Lose" sold', "title"),
        (
            'the paper titled "retrieval augmented generation for knowledge intensive tasks"',
            "title",
        ),
        ('I searched for "effects of microplastics on human cardiovascular health" first', "query"),
        (
            'the query "effects of microplastics on human cardiovascular health" found nothing',
            "query",
        ),
        ('They asked "is there a minimum viable population for an ecosystem?" first', "question"),
        (
            '[3] A. Author, "A study of long context retrieval in large models," in Proc. ACL, 2021.',
            "title",
        ),
        (
            'Lewis, P., Perez, E. (2020). "Retrieval augmented generation for knowledge tasks." NeurIPS.',
            "title",
        ),
        ('## "The results were robust across every benchmark"', "title"),
    ],
)
def test_what_is_not_a_quotation_of_a_source(report: str, reason: str) -> None:
    assert [r for _, r in reasons(report)] == [reason]


def test_a_sentence_with_capitalised_names_is_not_a_title() -> None:
    report = 'It said "March 9, Spruce Biosciences appointed Dale Hooks as Chief" then.'
    assert texts(report) == ["March 9, Spruce Biosciences appointed Dale Hooks as Chief"]


def test_a_bullet_with_a_year_is_not_a_reference_entry() -> None:
    report = '- In 2023 the CEO said "we will double production next year across all plants".'
    assert texts(report) == ["we will double production next year across all plants"]


def test_quotes_in_code_are_not_quotations() -> None:
    report = f'Run `echo "{SIX}"` or\n\n```\nprint("{SIX}")\n```\n'
    code = [(report.index("`"), report.index("`", report.index("`") + 1) + 1)]
    fence = report.index("```")
    code.append((fence, len(report)))
    assert texts(report, code=code) == []
    assert texts(report) == [SIX, SIX]  # without the code spans, they would be


def test_block_quote_with_lazy_continuation_and_attribution() -> None:
    report = (
        "Intro.\n\n> Pixel-wise annotations are notoriously laborious and costly\n"
        "to obtain in the medical domain.\n> \u2014 Jane Doe, Nature\n\nAfter."
    )
    (q,) = find_quotes(report)
    assert q.kind == BLOCK
    assert q.text == (
        "Pixel-wise annotations are notoriously laborious and costly\n"
        "to obtain in the medical domain."
    )
    assert report[q.start : q.end] == q.raw
    assert q.raw.startswith("Pixel-wise") and q.raw.endswith("Nature")


def test_block_quote_closing_notes_are_dropped_but_its_own_parentheses_stay() -> None:
    assert texts("> the costs were far higher than the first estimate (abstract)") == [
        "the costs were far higher than the first estimate"
    ]
    assert texts("> the agency is guiding to a biologics license application (BLA)") == [
        "the agency is guiding to a biologics license application (BLA)"
    ]
    assert texts("> the first two meetings with the FDA\u2014the first in December") == [
        "the first two meetings with the FDA\u2014the first in December"
    ]


def test_callouts_are_not_quotations() -> None:
    assert [
        r for _, r in reasons("> [!NOTE]\n> the results were robust across every benchmark")
    ] == ["callout"]
    assert [r for _, r in reasons("> **Key finding:** the results were robust across it all")] == [
        "callout"
    ]


def test_a_block_quote_holding_a_quotation_defers_to_it() -> None:
    report = f'> As the authors put it, "{SIX}", and so on and so forth.'
    assert texts(report) == [SIX]
    scare = (
        '> Curating annotations is a labor-intensive task, resulting in "narrowly" focused models'
    )
    assert texts(scare) == [
        'Curating annotations is a labor-intensive task, resulting in "narrowly" focused models'
    ]


def test_min_words_is_tunable() -> None:
    assert texts('called it "new standard of care" today') == []
    assert texts('called it "new standard of care" today', min_words=4) == ["new standard of care"]


def test_words_ignore_typography_case_markup_and_unicode() -> None:
    plain = quote_words("The model's state-of-the-art results: 4.5 points, in 3000 runs")
    assert (
        quote_words(
            "the model\u2019s state\u2011of\u2010the\u2013art  results\u2014 4.5 points,\n"
            "in 3,000 runs"
        )
        != plain
    )  # thousands separators are words of their own: 3 000 is not 3000
    assert (
        quote_words(
            "\uff34he model\u2019s <b>state</b>-of-the-art [12] results: 4.5\u00a0points, in 3000 r\u200buns"
        )
        == plain
    )
    assert quote_words("caf\u0065\u0301 d\u00e9j\u00e0") == quote_words(
        "caf\u00e9 de\u0301ja\u0300"
    )
    assert quote_words("[the report](https://x.org/a) says") == " the report says "
    assert quote_tokens("4.5 vs 45 vs 5.4") == ["4", "5", "vs", "45", "vs", "5", "4"]
    assert quote_tokens("\u7b2c\u4e00\u6b65") == ["\u7b2c", "\u4e00", "\u6b65"]


_PROSE = st.text(
    alphabet=st.sampled_from(list('ab c"\u201c\u201d\u201e\u00ab\u00bb>\n.,?`#-[]')), max_size=400
)


@settings(max_examples=300, deadline=None)
@given(_PROSE)
def test_scan_never_fails_and_spans_are_exact(report: str) -> None:
    found = list(scan_quotes(report, min_words=1))
    assert found == sorted(found, key=lambda q: (q.start, q.end))
    for q in found:
        assert 0 <= q.start <= q.end <= len(report)
        assert report[q.start : q.end] == q.raw


_WORDS = st.lists(st.sampled_from(["alpha", "beta", "gamma", "Delta", "4", "5", "x"]), max_size=30)


@settings(max_examples=200, deadline=None)
@given(_WORDS, st.sampled_from([" ", "\n", "\u00a0", " \u2014 ", ", ", "\u201c", "'"]))
def test_words_do_not_depend_on_separators(words: list[str], sep: str) -> None:
    assert quote_tokens(sep.join(words)) == [w.casefold() for w in words]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_quote_words_is_idempotent(text: str) -> None:
    once = quote_words(text)
    assert quote_words(once) == once
    assert once.startswith(" ") and once.endswith(" ")
