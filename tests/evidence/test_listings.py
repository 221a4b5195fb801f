"""Returned works in tool-output text: the formats real tools print, and what must not count.

The formats follow real tools (provenance in each test): paper-finder's text output
(``find_papers.py`` of the idea-explorer skills, Hypogenic-AI/news-future-ai-gemini,
``.claude/skills/paper-finder/scripts/find_papers.py`` @ d79c493), Claude Code's web search
result (``Links: [...]``, Hypogenic-AI/humor-recognition-llm-claude,
``logs/resource_finder_claude_transcript.jsonl`` @ 4c78e98), LangChain's ``ArxivQueryRun``
(``Published:``/``Title:``/``Authors:``/``Summary:`` blocks), Markdown tables and TSV exports.
"""

from __future__ import annotations

from collections.abc import Callable

from groundcheck import audit
from groundcheck.evidence.listings import listed_works
from groundcheck.evidence.trace import make_evidence
from groundcheck.extractors import find_mentions
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.model import Identifier
from groundcheck.text import TextView

EXTRACTORS = BUILTIN


def works(text: str) -> list[tuple[str, tuple[str, ...], int | None, str, set[str]]]:
    view = TextView.of(text).text
    ids = [m for m, _ in find_mentions(view, EXTRACTORS) if m.identifier.scheme != "title"]
    return [
        (w.title, w.authors, w.year, w.origin, {i.id for i in w.identifiers if i.scheme in SCHEMES})
        for w in listed_works(view, ids, EXTRACTORS)
    ]


SCHEMES = ("arxiv", "doi", "s2-corpus")
"""The identifiers these tests look at (URLs of the same works are identifiers too)."""


PAPER_FINDER = """Found 42 papers
======================================================================

1. Laughing Heads: Can Transformers Detect What Makes a Sentence Funny?
   Relevance: 3/3 | Year: 2021 | Citations: 31
   Authors: Maxime Peyrard, Beatriz Borges, Kristina Gligoric et al.
   URL: https://api.semanticscholar.org/CorpusId:234778118
   Abstract: The automatic detection of humor poses a grand challenge for natural language processing...

2. Getting Serious about Humor: Crafting Humor Datasets with Unfunny Large Language Models
   Relevance: 2/3 | Year: 2024 | Citations: 6
   Authors: Zachary Horvitz, Jingru Chen, Rahul Aditya et al.
   URL: https://arxiv.org/abs/2403.00794
"""


def test_paper_finder_listing() -> None:
    """Numbered titles with their metadata lines below: title, authors, year, the URL's ids."""
    found = works(PAPER_FINDER)
    assert [(t, a, y, o) for t, a, y, o, _ in found] == [
        (
            "Laughing Heads: Can Transformers Detect What Makes a Sentence Funny?",
            ("Maxime Peyrard", "Beatriz Borges", "Kristina Gligoric"),
            2021,
            "listing",
        ),
        (
            "Getting Serious about Humor: Crafting Humor Datasets with Unfunny Large Language Models",
            ("Zachary Horvitz", "Jingru Chen", "Rahul Aditya"),
            2024,
            "listing",
        ),
    ]
    # Each work holds the ids on its own lines only (the Semantic Scholar corpus id, the arXiv id).
    assert "234778118" in found[0][4] and "2403.00794" not in found[0][4]
    assert "2403.00794" in found[1][4] and "234778118" not in found[1][4]


def test_numbered_lines_without_metadata_are_not_titles() -> None:
    """A numbered list of steps or findings has no metadata lines: nothing is listed."""
    text = "1. Install the package\n2. Run the tests\n3. Read the report\n"
    assert works(text) == []


WEB_SEARCH = (
    'Web search results for query: "low rank representations neural networks"\n\n'
    'Links: [{"title":"[2402.15335] Low-Rank Representations Meets Deep Unfolding: A Generalized '
    'and Interpretable Network for Hyperspectral Anomaly Detection","url":"https://arxiv.org/abs/2402.15335"},'
    '{"title":"A New Look at Low-Rank Recurrent Neural Networks | OpenReview",'
    '"url":"https://openreview.net/forum?id=fWXYD0ZCdd"}]\n\nHere are the search results...'
)


def test_claude_code_web_search_links() -> None:
    found = works(WEB_SEARCH)
    assert [(t, ids) for t, _, _, _, ids in found] == [
        (
            "[2402.15335] Low-Rank Representations Meets Deep Unfolding: A Generalized and "
            "Interpretable Network for Hyperspectral Anomaly Detection",
            {"2402.15335"},
        ),
        ("A New Look at Low-Rank Recurrent Neural Networks | OpenReview", set()),
    ]


def test_web_search_titles_ground_their_short_form() -> None:
    """End to end: the page title carries '[id]' and '| OpenReview'; the report cites it clean."""
    calls = [{"tool": "WebSearch", "output": WEB_SEARCH}]
    report = (
        '- "A New Look at Low-Rank Recurrent Neural Networks" (openreview)\n'
        "- *Low-Rank Representations Meets Deep Unfolding* (arXiv:2402.15335)\n"
    )
    assert audit(report, calls).findings == ()


LANGCHAIN_ARXIV = """Published: 2020-05-22
Title: Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks
Authors: Patrick Lewis, Ethan Perez, Aleksandra Piktus
Summary: Large pre-trained language models have been shown to store factual knowledge...

Published: 2020-04-10
Title: Dense Passage Retrieval for Open-Domain Question Answering
Authors: Vladimir Karpukhin, Barlas Oğuz, Sewon Min
Summary: Open-domain question answering relies on efficient passage retrieval..."""


def test_key_value_blocks() -> None:
    found = works(LANGCHAIN_ARXIV)
    assert [(t, a[0], y) for t, a, y, _, _ in found] == [
        ("Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks", "Patrick Lewis", 2020),
        ("Dense Passage Retrieval for Open-Domain Question Answering", "Vladimir Karpukhin", 2020),
    ]


def test_markdown_table_with_a_title_column() -> None:
    text = (
        "| # | Title | Authors | Year | arXiv |\n"
        "|---|-------|---------|------|-------|\n"
        "| 1 | **Toy Models of Superposition** | Elhage et al. | 2022 | 2209.10652 |\n"
        "| 2 | [Towards Monosemanticity](https://transformer-circuits.pub/2023) | Bricken | 2023 | - |\n"
        "\nOther text | with a pipe\n"
    )
    found = works(text)
    assert [(t, y, o, ids) for t, _, y, o, ids in found] == [
        ("Toy Models of Superposition", 2022, "table", {"2209.10652"}),
        ("Towards Monosemanticity", 2023, "table", set()),
    ]


def test_table_without_a_title_column_lists_nothing() -> None:
    text = "| Dataset | Size |\n|---|---|\n| Short Jokes Dataset Large | 231K |\n"
    assert works(text) == []


def test_tab_and_comma_separated_listings() -> None:
    tsv = "id\ttitle\tyear\n2101.03961\tSwitch Transformers: Scaling to Trillion Parameter Models\t2021\n"
    csv_text = 'title,year\n"Attention Is All You Need, Really",2017\nTwo Words,x,extra\n'
    assert works(tsv) == [
        (
            "Switch Transformers: Scaling to Trillion Parameter Models",
            (),
            2021,
            "line",
            {"2101.03961"},
        )
    ]
    assert [t for t, *_ in works(csv_text)] == ["Attention Is All You Need, Really"]


PDF_TEXT = """6 Conclusion
We showed that retrieval helps.

References
[1] P. Lewis, E. Perez, A. Piktus, et al. Retrieval-augmented generation for knowledge-
intensive NLP tasks. In NeurIPS, 2020.
[2] V. Karpukhin, B. Oguz, S. Min, et al., "Dense passage retrieval for open-domain
question answering," in EMNLP, 2020.
[3] Kelvin Guu, Kenton Lee, Zora Tung, Panupong Pasupat, and Ming-Wei Chang. 2020. REALM:
Retrieval-augmented language model pre-training. arXiv preprint arXiv:2002.08909.
"""


def test_pdf_reference_strings() -> None:
    found = works(PDF_TEXT)
    assert [(t, y, ids) for t, _, y, _, ids in found] == [
        ("Retrieval-augmented generation for knowledge-intensive NLP tasks", 2020, set()),
        ("Dense passage retrieval for open-domain question answering", 2020, set()),
        ("REALM: Retrieval-augmented language model pre-training", 2020, {"2002.08909"}),
    ]


def test_evidence_from_a_listing_holds_titles_and_works() -> None:
    ev = make_evidence("paper_finder", "c1", PAPER_FINDER, EXTRACTORS)
    assert "Laughing Heads: Can Transformers Detect What Makes a Sentence Funny?" in ev.titles
    (work,) = [w for w in ev.works if Identifier("arxiv", "2403.00794") in w.identifiers]
    assert work.year == 2024 and work.authors[0] == "Zachary Horvitz"


def test_json_records_carry_authors_and_year() -> None:
    """Semantic Scholar / paper-finder JSON: authors as strings or records, years as numbers."""
    out = [
        {"title": "SaRoHead: Detecting Satire", "year": 2025, "authors": "Mihnea Virlan, Razvan Smadu",
         "url": "https://api.semanticscholar.org/CorpusId:277667744"},
        {"title": ["Dense Passage Retrieval"], "DOI": "10.18653/v1/2020.emnlp-main.550",
         "author": [{"given": "Vladimir", "family": "Karpukhin"}], "issued": {"date-parts": [[2020, 11]]}},
    ]  # fmt: skip
    ev = make_evidence("s2", "c1", out, EXTRACTORS)
    got = {(w.title, w.authors[0], w.year) for w in ev.works}
    assert got == {
        ("SaRoHead: Detecting Satire", "Mihnea Virlan", 2025),
        ("Dense Passage Retrieval", "Vladimir Karpukhin", 2020),
    }


def test_ids_only_outputs_find_no_listing() -> None:
    """The fast path: prose and ids, no listing literal — nothing is parsed."""
    text = "lorem ipsum dolor sit amet " * 200 + " arxiv.org/abs/2101.00001 " + "lorem " * 200
    assert works(text) == []


def test_hostile_listings_stay_linear(linear: Callable[..., None]) -> None:
    """Floods of numbered lines, pipes, 'Title:' lines and dashes: bounded time, no crash."""
    floods = [
        "1. x\n   Year: 2020\n" * 20_000,
        "| title |\n|---|\n" + "| a b |\n" * 20_000,
        "Title: a b c\n" * 20_000,
        "References\n" + "[1] A. B. c d e. " * 20_000,
        "|" * 200_000,
        "-" * 200_000,
        "Links: [{" * 20_000,
        "x | 2101.00001 | a b c d " * 20_000,  # one line, many ids and pipes
        "paper, title\t" * 50_000,  # one line, many header words
        "a | b\n" + "|---|---|\n" * 20_000,
    ]
    for text in floods:
        linear(works, text)  # function calls counted; speed is measured in benchmarks/


def test_the_agents_own_query_echoed_back_is_not_a_returned_title() -> None:
    """Claude Code's web search repeats the query; an agent that searched for a title it then
    cites must not be grounded by its own words coming back."""
    out = (
        'Web search results for query: "Neural Decoding of Imagined Jokes"\n\n'
        'Links: [{"title":"Pun Unintended: LLMs and the Illusion of Humor Understanding",'
        '"url":"https://arxiv.org/html/2509.12158v1"}]\n\nNo paper of that name was found.'
    )
    ev = make_evidence("WebSearch", "c1", out, EXTRACTORS)
    assert "Neural Decoding of Imagined Jokes" not in ev.titles
    assert "Pun Unintended: LLMs and the Illusion of Humor Understanding" in ev.titles
    calls = [{"tool": "WebSearch", "output": out}]
    report = 'As "Neural Decoding of Imagined Jokes" shows (arXiv:2509.12158), puns are hard.'
    assert "unverified-title" in [f.code for f in audit(report, calls).findings]


def test_pipe_lines_with_an_id() -> None:
    """A Codex run's own arXiv API printout (tests/corpus/codex-lit-review-curl-from-memory):
    ``  Title | 2310.05344v1`` lines; the title is the field without the id."""
    text = (
        "\nQuery SteerLM http://export.arxiv.org/api/query?search_query=ti:SteerLM&max_results=3\n"
        "  HelpSteer: Multi-attribute Helpfulness Dataset for SteerLM | 2311.09528v1\n"
        "  SteerLM: Attribute Conditioned SFT as an (User-Steerable) Alternative to RLHF | 2310.05344v1\n"
        "  Mélanie Gaillochet; Mehrdad Noori | 2507.02743v1\n"
    )
    assert [(t, ids) for t, _, _, _, ids in works(text)] == [
        ("HelpSteer: Multi-attribute Helpfulness Dataset for SteerLM", {"2311.09528"}),
        (
            "SteerLM: Attribute Conditioned SFT as an (User-Steerable) Alternative to RLHF",
            {"2310.05344"},
        ),
    ]


def test_csv_rows_with_wrapped_quoted_titles() -> None:
    """A LangGraph agent's CSV export (tests/corpus/langgraph-litagent-wrapped-titles-records):
    quoted titles hard-wrapped over two lines are one row, one title."""
    text = (
        "id,source,title,year,venue,doi,url\n"
        'http://arxiv.org/abs/2507.02743v1,arxiv,"Prompt learning with bounding box constraints for medical image\n'
        '  segmentation",2025,arXiv,,http://arxiv.org/abs/2507.02743v1\n'
        'http://arxiv.org/abs/2506.02914v1,arxiv,"Towards Auto-Annotation from Annotation Guidelines: A Benchmark through\n'
        '  3D LiDAR Detection",2025,arXiv,,http://arxiv.org/abs/2506.02914v1\n'
    )
    assert [(t, y, ids) for t, _, y, _, ids in works(text)] == [
        (
            "Prompt learning with bounding box constraints for medical image segmentation",
            2025,
            {"2507.02743"},
        ),
        (
            "Towards Auto-Annotation from Annotation Guidelines: A Benchmark through 3D LiDAR Detection",
            2025,
            {"2506.02914"},
        ),
    ]


def test_numbered_listing_with_its_metadata_on_the_same_line() -> None:
    """``1. Title | Relevance: high | Year: 2024`` (issue 11): the title ends where the
    line's own metadata starts; a pipe inside a title without metadata after it stays."""
    out = (
        "1. Sparse Feature Circuits: Discovering and Editing Interpretable Causal Graphs in "
        "Language Models | Relevance: high | Year: 2024\n"
        "2. Dictionary Learning at Scale | Relevance: medium | Year: 2023\n"
        "3. A title | with a pipe inside it\n"
    )
    assert [(w.title, w.year) for w in listed_works(out, [])] == [
        (
            "Sparse Feature Circuits: Discovering and Editing Interpretable Causal Graphs in "
            "Language Models",
            2024,
        ),
        ("Dictionary Learning at Scale", 2023),
    ]
    verdict = audit(
        "Related work: “Sparse Feature Circuits” [1].\n\n## References\n\n"
        "[1] Marks, S. (2024). Sparse Feature Circuits. arXiv.\n",
        [{"tool": "paper_finder", "id": "c1", "output": out}],
    )
    assert verdict.findings == ()


def test_a_carriage_return_inside_a_csv_row_ends_the_listing() -> None:
    """A CSV row the csv module cannot read (a bare carriage return inside a field) is no row
    of the listing: the rows above it are read, and loading never fails on it."""
    out = 'title,year\nA Paper About Sparse Attention,2020\nA Paper "Broken\rField",2021\n'
    works = listed_works(out, [])
    assert [(w.title, w.year) for w in works] == [("A Paper About Sparse Attention", 2020)]
    evidence = make_evidence("search", "c1", out, BUILTIN)
    assert "A Paper About Sparse Attention" in evidence.titles
