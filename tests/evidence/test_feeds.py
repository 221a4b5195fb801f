"""XML feeds in tool outputs (arXiv API Atom, PubMed efetch, RSS) read as records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import groundcheck
from groundcheck.evidence import load_evidence
from groundcheck.evidence.feeds import feed_records, looks_like_feed

# The shape the arXiv API returns (export.arxiv.org/api/query): titles wrap onto an indented
# second line, authors are <author><name>, the DOI is an arxiv:doi element.
ATOM = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3Dall%3Alie" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=all:lie&amp;start=0&amp;max_results=2</title>
  <id>http://arxiv.org/api/6lmFN</id>
  <updated>2026-10-04T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">2</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/2503.03750v2</id>
    <updated>2025-03-20T17:59:01Z</updated>
    <published>2025-03-05T18:59:23Z</published>
    <title>The MASK Benchmark: Disentangling Honesty From Accuracy in AI
  Systems</title>
    <summary>  As large language models (LLMs) become more capable and agentic, the
requirement for trust in their outputs grows significantly.
</summary>
    <author>
      <name>Richard Ren</name>
    </author>
    <author>
      <name>Arunim Agarwal</name>
    </author>
    <link href="http://arxiv.org/abs/2503.03750v2" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2503.03750v2" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/2406.15927v1</id>
    <published>2024-06-22T13:00:01Z</published>
    <title>Semantic Entropy Probes: Robust and Cheap Hallucination Detection in
  LLMs</title>
    <author>
      <name>Jannik Kossen</name>
    </author>
    <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">10.48550/arXiv.2406.15927</arxiv:doi>
  </entry>
</feed>
"""

PUBMED = """<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2024//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_240101.dtd">
<PubmedArticleSet>
<PubmedArticle>
  <MedlineCitation Status="MEDLINE" Owner="NLM">
    <PMID Version="1">34265844</PMID>
    <Article PubModel="Print-Electronic">
      <Journal>
        <JournalIssue CitedMedium="Internet">
          <PubDate><Year>2021</Year><Month>Aug</Month></PubDate>
        </JournalIssue>
        <Title>Nature</Title>
      </Journal>
      <ArticleTitle>Highly accurate protein structure prediction with <i>AlphaFold</i>.</ArticleTitle>
      <Abstract><AbstractText>Proteins are essential to life.</AbstractText></Abstract>
      <AuthorList CompleteYN="Y">
        <Author ValidYN="Y"><LastName>Jumper</LastName><ForeName>John</ForeName><Initials>J</Initials></Author>
        <Author ValidYN="Y"><LastName>Evans</LastName><ForeName>Richard</ForeName></Author>
      </AuthorList>
    </Article>
  </MedlineCitation>
  <PubmedData>
    <ArticleIdList>
      <ArticleId IdType="pubmed">34265844</ArticleId>
      <ArticleId IdType="doi">10.1038/s41586-021-03819-2</ArticleId>
      <ArticleId IdType="pmc">PMC8371605</ArticleId>
    </ArticleIdList>
  </PubmedData>
</PubmedArticle>
</PubmedArticleSet>
"""

RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Google News: battery recycling</title>
<item><title>EU battery rules take effect - Reuters</title>
<link>https://www.reuters.com/business/eu-battery-rules-2025-02-18/</link>
<pubDate>Tue, 18 Feb 2025 08:00:00 GMT</pubDate><description>Brussels &amp; industry</description></item>
</channel></rss>
"""


def test_an_arxiv_atom_feed_gives_one_record_per_entry() -> None:
    records = feed_records(ATOM)
    assert records is not None
    assert [(r["title"], r["authors"], r["published"][:4], r["id"]) for r in records] == [
        (
            "The MASK Benchmark: Disentangling Honesty From Accuracy in AI Systems",
            ["Richard Ren", "Arunim Agarwal"],
            "2025",
            "http://arxiv.org/abs/2503.03750v2",
        ),
        (
            "Semantic Entropy Probes: Robust and Cheap Hallucination Detection in LLMs",
            ["Jannik Kossen"],
            "2024",
            "http://arxiv.org/abs/2406.15927v1",
        ),
    ]
    assert records[1]["doi"] == "10.48550/arXiv.2406.15927"


def test_a_pubmed_efetch_article_set_gives_its_articles() -> None:
    (record,) = feed_records(PUBMED) or []
    assert record["title"] == "Highly accurate protein structure prediction with AlphaFold."
    assert record["authors"] == ["John Jumper", "Richard Evans"]
    assert (record["pmid"], record["doi"], record["pmcid"], record["year"]) == (
        "34265844",
        "10.1038/s41586-021-03819-2",
        "PMC8371605",
        "2021",
    )


def test_an_rss_feed_gives_its_items_not_the_channel() -> None:
    (record,) = feed_records(RSS) or []
    assert (record["title"], record["url"], record["description"]) == (
        "EU battery rules take effect - Reuters",
        "https://www.reuters.com/business/eu-battery-rules-2025-02-18/",
        "Brussels & industry",
    )


@pytest.mark.parametrize(
    "text",
    [
        "<b>bold</b> text",
        "plain text with <entry> in it",  # does not open like XML
        "<html><body><p>An <entryway> and <items></p></body></html>",
        "<feed><entry><id>x</id></entry></feed>",  # an entry without a title
        "",
    ],
)
def test_what_is_not_a_feed_of_titled_records_is_none(text: str) -> None:
    assert feed_records(text) is None


def test_a_truncated_feed_keeps_the_entries_it_has() -> None:
    """Tools cut long outputs: the last entry, unclosed, is read up to where the text ends."""
    cut = ATOM[: ATOM.index("<arxiv:doi")]
    assert [r["title"][:14] for r in feed_records(cut) or []] == ["The MASK Bench", "Semantic Entro"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/ entryitlauhoname\n\"=&;")), max_size=400))
def test_any_text_is_read_without_error(text: str) -> None:
    records = feed_records("<feed>" + text)
    assert records is None or all(isinstance(r["title"], str) and r["title"] for r in records)
    assert looks_like_feed("<feed>" + text) in (True, False)


def test_a_curl_of_the_arxiv_api_grounds_titles_and_catches_a_wrong_one(tmp_path: Path) -> None:
    """A codex-style run: the agent curls the arXiv API itself and cites what came back
    (Hypogenic-AI/detect-different-lies-2bfa-codex-gpt-6-astra@a7201e2f, literature_review.md:
    paper-finder failed, every paper cited as '**Authors (Year), Title.** [arXivID](url)').
    Read as text, the feed gave ids but no title: a wrong title beside a returned id passed."""
    calls = [
        {
            "tool": "exec_command",
            "input": {"cmd": "curl -s 'http://export.arxiv.org/api/query?search_query=all:lie'"},
            "output": ATOM,
        }
    ]
    path = tmp_path / "calls.json"
    path.write_text(json.dumps(calls), "utf-8")
    works = load_evidence(str(path)).evidence.calls[0].works
    assert [(w.title[:20], w.authors[:1], w.year) for w in works] == [
        ("The MASK Benchmark: ", ("Richard Ren",), 2025),
        ("Semantic Entropy Pro", ("Jannik Kossen",), 2024),
    ]
    report = (
        "## Key papers\n\n"
        "**Ren et al. (2025), The MASK Benchmark: Disentangling Honesty From Accuracy in AI"
        " Systems.** [arXiv2503.03750](https://arxiv.org/abs/2503.03750). Neutral belief.\n\n"
        "**Kossen and Gal (2024), Attention Is All You Need.**"
        " [arXiv2406.15927](https://arxiv.org/abs/2406.15927). Logistic probes.\n"
    )
    verdict = groundcheck.audit(report, str(path))
    assert [(f.code, f.citation.raw if f.citation else None) for f in verdict.findings] == [
        ("unverified-title", "Attention Is All You Need")
    ]


def test_an_author_list_and_year_before_a_link_make_an_entry() -> None:
    """The same review cites a blog post as '**Hopkins, Khullar, Wang and Roger (2026), Fine-Tuned
    Lie Detectors Failed to Generalize.** [Anthropic article](url)': the link text is where the
    work is, not its title, and the author–year lead is the entry's, not a dangling citation."""
    report = (
        "**Ren et al. (2025), The MASK Benchmark: Disentangling Honesty From Accuracy in AI"
        " Systems.** [arXiv2503.03750](https://arxiv.org/abs/2503.03750). Text.\n\n"
        "**Hopkins, Khullar, Wang and Roger (2026), Fine-Tuned Lie Detectors Failed to"
        " Generalize.** [Anthropic article](https://alignment.anthropic.com/2026/lie-detectors/)."
        " Text.\n"
    )
    calls = [
        {"tool": "arxiv", "input": {"q": "x"}, "output": ATOM},
        {
            "tool": "fetch",
            "input": {"url": "https://alignment.anthropic.com/2026/lie-detectors/"},
            "output": "Fine-Tuned Lie Detectors Failed to Generalize\n\nApproximately 200,000.",
        },
    ]
    codes = [f.code for f in groundcheck.audit(report, calls).findings]
    assert "unverified-author-year" not in codes
