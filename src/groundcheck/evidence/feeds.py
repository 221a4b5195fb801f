"""XML feeds in tool outputs, read as the records they hold.

An agent that calls the arXiv API itself (``curl 'http://export.arxiv.org/api/query?…'``) gets
an Atom feed back; one that calls PubMed's ``efetch`` gets a ``PubmedArticleSet``; a news search
often returns RSS. Read as text, such an output gives its identifiers but no titles: a title
sits between ``<title>`` tags several lines away from its ``<id>``, wrapped across lines, so
no title could be checked against the paper it belongs to. Here each ``<entry>``,
``<PubmedArticle>`` or ``<item>`` becomes one record (``title``, ``authors``, ``published``,
the identifiers it gives), which the output's other records are read with
(:func:`groundcheck.evidence.walk.flatten`).

The reading is deliberately shallow and linear: entries are cut at their closing tag with
substring search (a truncated output keeps its last, unclosed entry up to the next one), and
each field is a bounded run of text without tags, so no input costs more than a pass over it.
Malformed XML yields fewer records, never an error: a tool output is not ours to validate.

>>> feed = '''<feed xmlns="http://www.w3.org/2005/Atom"><entry>
...   <id>http://arxiv.org/abs/2005.11401v4</id>
...   <published>2020-05-22T17:58:44Z</published>
...   <title>Retrieval-Augmented Generation for Knowledge-Intensive NLP
...   Tasks</title>
...   <author><name>Patrick Lewis</name></author>
... </entry></feed>'''
>>> (record,) = feed_records(feed)
>>> record["title"], record["authors"], record["published"][:4], record["id"]
('Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks', ['Patrick Lewis'], '2020', 'http://arxiv.org/abs/2005.11401v4')
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["feed_records", "looks_like_feed"]

_MAX_FIELD = 4000
"""The longest text one field may hold (a title, a name, an id); longer runs are not fields."""
_MAX_SUMMARY = 100_000
_MAX_RECORDS = 100_000


def looks_like_feed(text: str) -> bool:
    """Cheap test on a string leaf: does it open like XML and hold a record element?

    >>> looks_like_feed('<?xml version="1.0"?><feed><entry>'), looks_like_feed("<b>hi</b>")
    (True, False)
    """
    head = text.lstrip()[:1]
    if head != "<":
        return False
    return any(tag in text for tag, _ in _KINDS)


def _text(raw: str) -> str:
    """Field text as a reader sees it: inline tags dropped, entities decoded, lines joined."""
    if "<" in raw:
        raw = _TAG.sub("", raw)
    if "&" in raw:
        raw = html.unescape(raw)
    return " ".join(raw.split())


_TAG = re.compile(r"<[^<>]{0,500}>")


def _field(tag: str, limit: int = _MAX_FIELD) -> re.Pattern[str]:
    """``<tag …>text</tag>``: text may hold inline tags (``<i>``) but no element of the same
    name, and is at most ``limit`` characters. The run stops at the next tag of that name,
    opening or closing, so each attempt reads only up to it: linear however the tags nest."""
    name = re.escape(tag)
    run = rf"(?:(?!</?{name}[\s>/]).){{0,{limit}}}"
    return re.compile(rf"<{name}(?:\s[^<>]{{0,500}})?>({run})</{name}\s*>", re.DOTALL)


def _all(pattern: re.Pattern[str], chunk: str) -> list[str]:
    return [t for t in (_text(m.group(1)) for m in pattern.finditer(chunk)) if t]


def _first(pattern: re.Pattern[str], chunk: str) -> str | None:
    m = pattern.search(chunk)
    if m is None:
        return None
    return _text(m.group(1)) or None


# -- Atom (the arXiv API, and any Atom feed) ---------------------------------------------------

_ATOM_ID = _field("id")
_ATOM_TITLE = _field("title")
_ATOM_SUMMARY = _field("summary", _MAX_SUMMARY)
_ATOM_PUBLISHED = _field("published")
_ATOM_UPDATED = _field("updated")
_ATOM_AUTHOR = re.compile(r"<author(?:\s[^<>]{0,500})?>\s{0,200}<name>([^<]{1,300})</name>")
_ATOM_DOI = _field("arxiv:doi")
_ATOM_JOURNAL = _field("arxiv:journal_ref")
_HREF = re.compile(r"<link\s[^<>]{0,500}?href=[\"']([^\"'<>\s]{1,2000})[\"']")


def _atom(chunk: str) -> dict[str, Any] | None:
    title = _first(_ATOM_TITLE, chunk)
    if title is None:
        return None
    record: dict[str, Any] = {"title": title}
    for key, pattern in (
        ("id", _ATOM_ID),
        ("published", _ATOM_PUBLISHED),
        ("updated", _ATOM_UPDATED),
        ("doi", _ATOM_DOI),
        ("journal_ref", _ATOM_JOURNAL),
        ("summary", _ATOM_SUMMARY),
    ):
        value = _first(pattern, chunk)
        if value is not None:
            record[key] = value
    authors = [" ".join(html.unescape(n).split()) for n in _ATOM_AUTHOR.findall(chunk)]
    if authors:
        record["authors"] = authors
    links = _HREF.findall(chunk)
    if links:
        record["links"] = [html.unescape(u) for u in links]
    return record


# -- PubMed efetch ------------------------------------------------------------------------------

_PM_PMID = _field("PMID")
_PM_TITLE = _field("ArticleTitle")
_PM_ABSTRACT = _field("AbstractText", _MAX_SUMMARY)
_PM_JOURNAL = _field("Title")
_PM_YEAR = re.compile(r"<PubDate>\s{0,200}<Year>(\d{4})</Year>")
_PM_MEDLINE_DATE = re.compile(r"<PubDate>\s{0,200}<MedlineDate>(\d{4})")
_PM_AUTHOR = re.compile(
    r"<Author\b[^<>]{0,200}>\s{0,200}<LastName>([^<]{1,200})</LastName>"
    r"(?:\s{0,200}<ForeName>([^<]{1,200})</ForeName>)?"
)
_PM_ARTICLE_ID = re.compile(
    r"<ArticleId\s+IdType=\"(doi|pmc|pubmed|pii)\"\s*>([^<]{1,300})</ArticleId>"
)


def _pubmed(chunk: str) -> dict[str, Any] | None:
    title = _first(_PM_TITLE, chunk)
    if title is None:
        return None
    record: dict[str, Any] = {"title": title}
    pmid = _first(_PM_PMID, chunk)
    if pmid is not None:
        record["pmid"] = pmid
    for kind, value in _PM_ARTICLE_ID.findall(chunk):
        key = {"pubmed": "pmid", "pmc": "pmcid"}.get(kind, kind)
        record.setdefault(key, " ".join(html.unescape(value).split()))
    year = _PM_YEAR.search(chunk) or _PM_MEDLINE_DATE.search(chunk)
    if year is not None:
        record["year"] = year.group(1)
    authors = [
        " ".join(f"{html.unescape(fore)} {html.unescape(last)}".split())
        for last, fore in _PM_AUTHOR.findall(chunk)
    ]
    if authors:
        record["authors"] = authors
    journal = _first(_PM_JOURNAL, chunk)
    if journal is not None:
        record["journal"] = journal
    abstract = _all(_PM_ABSTRACT, chunk)
    if abstract:
        record["abstract"] = " ".join(abstract)
    return record


# -- RSS ----------------------------------------------------------------------------------------

_RSS_TITLE = _field("title")
_RSS_LINK = _field("link")
_RSS_DATE = _field("pubDate")
_RSS_CREATOR = _field("dc:creator")
_RSS_DESCRIPTION = _field("description", _MAX_SUMMARY)


def _rss(chunk: str) -> dict[str, Any] | None:
    title = _first(_RSS_TITLE, chunk)
    if title is None:
        return None
    record: dict[str, Any] = {"title": title}
    for key, pattern in (
        ("url", _RSS_LINK),
        ("published", _RSS_DATE),
        ("description", _RSS_DESCRIPTION),
    ):
        value = _first(pattern, chunk)
        if value is not None:
            record[key] = value
    creators = _all(_RSS_CREATOR, chunk)
    if creators:
        record["authors"] = creators
    return record


_KINDS: tuple[tuple[str, Callable[[str], dict[str, Any] | None]], ...] = (
    ("<entry", _atom),
    ("<PubmedArticle", _pubmed),
    ("<item", _rss),
)
"""Where a record starts, and how it is read."""


def _chunks(text: str, opener: str) -> Iterator[str]:
    """Each element opened by ``opener`` (``<entry``), up to its closing tag or, when it has
    none (a truncated output), up to the next opener."""
    close = "</" + opener[1:]
    at = text.find(opener)
    while at != -1:
        after = text[at + len(opener) : at + len(opener) + 1]
        if after not in (">", " ", "\t", "\n", "\r", "/"):
            at = text.find(opener, at + 1)  # <entryList>, <items>: another element
            continue
        nxt = text.find(opener, at + 1)
        stop = len(text) if nxt == -1 else nxt
        end = text.find(close, at, stop)  # never past the next opener: linear in all
        if end == -1:
            end = stop
        yield text[at:end]
        at = nxt


def feed_records(text: str) -> list[dict[str, Any]] | None:
    """The records of an XML feed in ``text`` (see the module docstring), or None when it holds
    none with a title: then the text is read as text, as before."""
    if not looks_like_feed(text):
        return None
    for opener, read in _KINDS:
        if opener not in text:
            continue
        records: list[dict[str, Any]] = []
        for chunk in _chunks(text, opener):
            record = read(chunk)
            if record is not None:
                records.append(record)
                if len(records) >= _MAX_RECORDS:
                    break
        if records:
            return records
    return None
