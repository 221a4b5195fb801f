"""One reference entry cut into its parts by structure: authors, year, title, venue, links.

Every common style puts the parts in a fixed order around a few landmarks, so the landmarks
decide, never a guess that the first long phrase is the title:

- a quoted title is the title (IEEE, Chicago, MLA, ACM, Harvard: ``"Title,"`` ``‘Title’``);
- a link or bold text opening the entry is its title (Markdown link lists, agent listings);
- a year in parentheses after an author list is followed by the title (APA, Harvard:
  ``Lewis, P. (2020). Title. *Venue*``; ``Authors. (2020) Title. arXiv. URL``); a bare year
  after the authors too (ACM, Chicago author–date: ``Authors. 2020. Title. Venue.``);
- with no year there, an author list opens the entry and the next sentence is the title
  (Vancouver: ``Lewis P, Perez E. Title. Venue. 2020;33:1-9.``);
- with no author list either, the title is what opens the entry, up to the first sentence
  end, ``" - "`` site separator or identifier (``[1] Title - arXiv https://…``).

After an APA title comes the italic venue (``*Frontiers in Education*``), never the title;
an italic span right after the year is a book's title. The identifiers and URLs are where
the entry ends, so nothing after the first of them is the title.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from attrs import frozen

from groundcheck.document.authors import looks_like_authors, reads_as_authors, split_authors
from groundcheck.text import LazyPattern

__all__ = ["Parts", "may_be_strong", "segment"]

WINDOW = 2000
"""Only this much of an entry is read: an entry is a few hundred characters, and a 1 MB
"entry" (a paragraph under a References heading) must not cost more than a normal one."""


@frozen
class Parts:
    """What an entry holds. ``title`` is a span in the text; ``strong`` says the entry has the
    shape of a reference in some style (authors and a year around the title, a quoted title
    after authors), which is what makes a list item outside a reference section an entry."""

    title: tuple[int, int] | None = None
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    urls: tuple[str, ...] = ()
    strong: bool = False


_URL = LazyPattern(r"https?://[^\s<>\"'`\])]+|\bwww\.[^\s<>\"'`\])]+")
_ID_HEAD = LazyPattern(
    r"(?i)\b(?:doi|arxiv|pmid|pmcid|isbn|issn|openreview|acl)\s*:\s*\S|\b10\.\d{4,9}/\S"
    r"|\b\d{4}\.\d{4,5}\b"
)
_QUOTED = LazyPattern(
    r"\"([^\"\n]{4,400})\"|“([^”\n]{4,400})”|‘([^’\n]{4,400})’|``([^'\n]{4,400})''"
    r"|«([^»\n]{4,400})»|(?<![\w'])'([^'\n]{4,400})'(?=[\s,.;:]|$)"
)
_EMPHASIS = LazyPattern(r"(\*\*|__|\*|_)(?=\S)([^*_\n]{2,400}?)(?<=\S)\1(?![*\w])")
_LINK = LazyPattern(r"\[([^\[\]\n]{2,400})\]\(([^()\s]{1,2000})\)")
_YEAR_PAREN = LazyPattern(r"\(\s*((?:1[6-9]|20)\d{2})[a-z]?\b[^()\n]{0,40}\)|\(\s*n\.\s?d\.\s*\)")
_BARE_YEAR = LazyPattern(r"(?:^|[.,]\s+)((?:1[6-9]|20)\d{2})[a-z]?\.(?=\s|$)")
_YEAR_DASH = LazyPattern(r"[,.]?\s((?:1[6-9]|20)\d{2})[a-z]?\s+[-–—|:]\s+")
"""'Xu et al. 2018 - Strategyproof Peer Selection': a year, then a separator, then the title."""
_ANY_YEAR = LazyPattern(r"(?<![\d./:-])((?:1[6-9]|20)\d{2})(?!\d|\.\d)")
_SENTENCE_END = LazyPattern(r"[.?!](?=[\"”’'*_)\]]*(?:\s|$))")
_SEPARATOR = LazyPattern(r"\s[-–—|]\s|\s\(|\s\[")
_PIPE = LazyPattern(r"\s\|\s")
_HOLDS_CITATION = LazyPattern(r"\d|http|et al|:|\w\.[a-z]{2,}\b")
"""What makes a parenthesis after a title a citation or a site, not part of the title:
"(2017)", "(Lewis et al.)", "(arXiv:…)", "(arxiv.org)" - but not "(GELUs)"."""
_PREFIXED_ID = LazyPattern(r"(?i)(?:doi|arxiv)\s*:\s*\S+")
_ABBREVIATIONS = frozenset(
    {
        "al", "vs", "eg", "ie", "e.g", "i.e", "vol", "no", "pp", "ed", "eds", "inc", "jr", "sr",
        "st", "proc", "trans", "univ", "dept", "fig", "int", "conf", "j", "rev", "lett", "phys",
    }
)  # fmt: skip


def _first_year(text: str, start: int, end: int) -> int | None:
    m = _ANY_YEAR.search(text, start, end)
    return int(m.group(1)) if m else None


def _stops(text: str, start: int, end: int, ids: Sequence[tuple[int, int]]) -> int:
    """Where the identifiers and links of an entry begin (nothing after is title or authors)."""
    stop = end
    k = bisect_left(ids, (start, -1))
    if k < len(ids) and ids[k][0] < stop:
        stop = ids[k][0]
    for pattern in (_URL, _ID_HEAD):
        m = pattern.search(text, start, stop)
        if m is not None:
            stop = m.start()
    return stop


_NEXT_PART = LazyPattern(r"[*_\[(]|In\s|Proc|arXiv|doi|https?:|\d|$")


def _sentence_end(text: str, start: int, end: int, *, title: bool = False) -> int:
    """End of the sentence starting at ``start``: a ``.``/``?``/``!`` followed by a space,
    not after an initial or an abbreviation. ``?`` and ``!`` belong to the sentence; in a
    ``title``, they end it only when the next part follows ("Can LLMs give feedback? A case
    study." is one title; "Where are the educators? *Journal*" ends at the question mark)."""
    pos = start
    while True:
        m = _SENTENCE_END.search(text, pos, end)
        if m is None:
            return end
        at = m.start()
        if text[at] == ".":
            word_start = at
            while word_start > start and (
                text[word_start - 1].isalnum() or text[word_start - 1] == "."
            ):
                word_start -= 1
            word = text[word_start:at].casefold()
            if (len(word) == 1 and word.isalpha()) or word in _ABBREVIATIONS:
                pos = at + 1
                continue
            return at
        if title:
            following = at + 1
            while following < end and text[following] in " \t\"”’'":
                following += 1
            if following < end and _NEXT_PART.match(text, following, end) is None:
                pos = at + 1
                continue
        return at + 1


def _title_end(text: str, start: int, end: int, *, separators: bool) -> int:
    """Where a title that starts at ``start`` ends: a sentence end, an emphasis or quote that
    opens the next part, or (``separators``) a spaced dash, pipe, or a parenthesis holding a
    year, identifier or author."""
    stop = _sentence_end(text, start, end, title=True)
    for mark in ("*", "_"):
        at = text.find(mark, start + 1, stop)
        if at != -1 and (at == 0 or text[at - 1] in " \t(,"):
            stop = at
    if separators:
        pos = start
        while True:
            m = _SEPARATOR.search(text, pos, stop)
            if m is None:
                break
            if m.group().endswith(("(", "[")):
                close = text.find(")" if m.group().endswith("(") else "]", m.end(), m.end() + 120)
                inside = text[m.end() : close] if close != -1 else ""
                if close != -1 and not _HOLDS_CITATION.search(inside):
                    pos = close + 1  # "(GELUs)": part of the title
                    continue
            stop = m.start()
            break
    else:
        m = _PIPE.search(text, start, stop)
        if m is not None:
            stop = m.start()
    return stop


def _span(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start] in " \t\n\r.,;:*_\"'“”‘’«»`[]()—–-|":
        start += 1
    while end > start and text[end - 1] in " \t\n\r.,;:*_\"'“”‘’«»`[]()—–-|":
        end -= 1
    return (
        (start, end) if end - start >= 4 and any(ch.isalpha() for ch in text[start:end]) else None
    )


def _venue_after(text: str, pos: int, stop: int) -> str | None:
    """The venue written after a title: the italic span that follows it, else the next
    sentence up to the year or identifiers ("NeurIPS", "In Proc. EMNLP")."""
    while pos < stop and text[pos] in " \t.,;:\"”’'":
        pos += 1
    if pos >= stop:
        return None
    if text.startswith("In ", pos):
        pos += 3
    m = _EMPHASIS.match(text, pos, stop)
    if m is not None:
        return m.group(2).strip() or None
    end = _sentence_end(text, pos, stop)
    y = _ANY_YEAR.search(text, pos, end)
    if y is not None:
        end = y.start()
    venue = text[pos:end].strip(" \t,.;:()")
    if not venue or len(venue) > 200 or not any(ch.isalpha() for ch in venue):
        return None
    return venue


def _authors_and_year_before(text: str, start: int, end: int) -> bool:
    """Does ``text[start:end]`` open with an author list and a year in parentheses? Then a
    link after it is where the work is (``**Hopkins and Roger (2026), Title.** [Anthropic
    article](url)``), and the title follows the year, as in any author–year entry."""
    m = _YEAR_PAREN.search(text, start, min(end, start + 1500))
    return m is not None and looks_like_authors(text[start : m.start()])


def segment(text: str, start: int, end: int, ids: Sequence[tuple[int, int]] = ()) -> Parts:
    """Cut the entry ``text[start:end]`` (its label already removed) into its parts.

    ``ids`` are the spans of identifiers other extractors found, sorted.

    >>> t = ("Lewis, P., & Perez, E. (2020). Retrieval-augmented generation. *NeurIPS*. "
    ...      "arXiv:2005.11401")
    >>> p = segment(t, 0, len(t))
    >>> t[slice(*p.title)], p.authors, p.year, p.venue, p.strong
    ('Retrieval-augmented generation', ('Lewis, P.', 'Perez, E.'), 2020, 'NeurIPS', True)
    >>> t = 'P. Lewis and E. Perez, "Retrieval-augmented generation," in Proc. NeurIPS, 2020.'
    >>> p = segment(t, 0, len(t))
    >>> t[slice(*p.title)], p.authors, p.year
    ('Retrieval-augmented generation', ('P. Lewis', 'E. Perez'), 2020)
    """
    end = min(end, start + WINDOW)
    urls = tuple(m.group().rstrip(".,;:") for m in _URL.finditer(text, start, end))
    stop = _stops(text, start, end, ids)
    pos = start
    while pos < stop and text[pos] in " \t":
        pos += 1

    # A link or bold text opening the entry is its title (agent listings, link lists).
    link = _LINK.match(text, pos, end)
    if link is not None:
        title = _span(text, link.start(1), link.end(1))
        rest = link.end()
        authors, year = _authors_year_after(text, rest, end)
        return Parts(title, authors, year, None, urls, strong=bool(authors))
    lead = _EMPHASIS.match(text, pos, stop)
    if lead is not None and not lead.group(2).rstrip().endswith(":"):
        inner = lead.group(2)
        if not _YEAR_PAREN.search(inner) and not looks_like_authors(inner):
            title = _span(text, lead.start(2), lead.end(2))
            authors, year = _authors_year_after(text, lead.end(), end)
            venue = _venue_after(text, lead.end(), stop) if not authors else None
            return Parts(title, authors, year, venue, urls, strong=bool(authors))

    # A quoted title: IEEE, Chicago, MLA, Harvard.
    quoted = _QUOTED.search(text, pos, stop)
    if quoted is not None and len(quoted.group(quoted.lastindex or 0).split()) >= 2:
        g = quoted.lastindex or 0
        prefix = text[pos : quoted.start()]
        # An author list ends where the quoted title opens: 'P. Lewis and E. Perez, "…"',
        # 'Lewis, P. (2020) ‘…’'. A name running into a quote ('Loudwire “named …”') is prose.
        separated = prefix.rstrip()[-1:] in (",", ".", ":", ")")
        authors = (
            split_authors(_strip_year(prefix))
            if separated and looks_like_authors(_strip_year(prefix))
            else ()
        )
        year = _first_year(text, pos, end)
        venue = _venue_after(text, quoted.end(), stop)
        title = _span(text, quoted.start(g), quoted.end(g))
        return Parts(title, authors, year, venue, urls, strong=bool(authors))

    # A link inside the entry, after its authors: "Lewis et al., [Title](url), NeurIPS 2020."
    link = _LINK.search(text, pos, end)
    if (
        link is not None
        and link.start() <= stop
        and _words(link.group(1)) >= 2
        and "://" not in link.group(1)
        and not _authors_and_year_before(text, pos, link.start())
    ):
        prefix = text[pos : link.start()]
        authors = split_authors(_strip_year(prefix)) if reads_as_authors(prefix) else ()
        title = _span(text, link.start(1), link.end(1))
        return Parts(title, authors, _first_year(text, pos, end), None, urls, bool(authors))

    # A year in parentheses, or a bare year, after an author list: APA, Harvard, ACM.
    for pattern in (_YEAR_PAREN, _BARE_YEAR, _YEAR_DASH):
        m = pattern.search(text, pos, min(stop, pos + 1500))  # long author lists
        if m is None:
            continue
        prefix = text[pos : m.start()]
        if not prefix.strip(" \t.,*_"):
            continue
        year = int(m.group(1)) if m.group(1) else None
        after = m.end()
        if looks_like_authors(prefix) or (pattern is _YEAR_PAREN and reads_as_authors(prefix)):
            authors = split_authors(prefix)
            bold = prefix.lstrip()[:2]
            if bold in ("**", "__") and text.startswith(bold, after):
                after += 2  # "**Lewis et al. (2020)** Title"
            while after < stop and text[after] in " \t.,:":
                after += 1
            if after >= stop:
                return Parts(None, authors, year, None, urls, strong=True)
            emphasis = _EMPHASIS.match(text, after, stop)
            if emphasis is not None:  # APA book: the italic right after the year is the title
                title = _span(text, emphasis.start(2), emphasis.end(2))
                venue = _venue_after(text, emphasis.end(), stop)
            else:
                title_end = _title_end(text, after, stop, separators=False)
                title = _span(text, after, title_end)
                venue = _venue_after(text, title_end + 1, stop)
            starts_well = (
                text[after : after + 1].isupper() or text[after : after + 1] in "“\"*_[«'‘"
            )
            strong = (
                starts_well and text[m.end() : m.end() + 1] in ".,: " and pattern is _YEAR_PAREN
            )
            strong = strong or (pattern is not _YEAR_PAREN and starts_well)
            return Parts(title, authors, year, venue, urls, strong=strong)
        if pattern is _YEAR_PAREN:
            # "Title (2017) - arXiv": what precedes the year is the title.
            title = _span(text, pos, _title_end(text, pos, m.start(), separators=True))
            return Parts(title, (), year, None, urls)

    # No year before the title: an author list first (Vancouver), else the title first.
    year = _first_year(text, pos, end)
    authors_end = _leading_authors(text, pos, stop)
    if authors_end is not None:
        authors = split_authors(text[pos:authors_end])
        after = authors_end + 1
        while after < stop and text[after] in " \t":
            after += 1
        title_end = _title_end(text, after, stop, separators=False)
        title = _span(text, after, title_end)
        venue = _venue_after(text, title_end + 1, stop)
        return Parts(
            title, authors, year, venue, urls, strong=title is not None and year is not None
        )
    if pos >= stop:
        # The entry opens with its identifier ("arXiv:2005.11401 — Title"): the title follows.
        opens = _after_ids(text, pos, end, ids)
        if opens is None:
            return Parts(None, (), year, None, urls)
        title = _span(text, opens, _title_end(text, opens, end, separators=True))
        return Parts(title, (), _year_outside(text, pos, end, title), None, urls)
    title = _span(text, pos, _title_end(text, pos, stop, separators=True))
    return Parts(title, (), _year_outside(text, pos, end, title), None, urls)


_CAPITAL_OR_WIDE = LazyPattern(r"[^\x00-@\[-\x7f]")
"""An ASCII capital or any character outside ASCII (written as what it is not: a class
holding the whole range above ASCII takes milliseconds to compile)."""


def may_be_strong(text: str, start: int, end: int) -> bool:
    """False where ``segment(text, start, end).strong`` is known to be False without cutting
    the entry (True: it may be either).

    An entry is strong only when :func:`segment` finds its authors: an author list on part of
    it (:func:`looks_like_authors`, every piece of which is a name or initials, each opening
    with a capital, ``_UP`` in :mod:`.authors`), names after a leading title (``_AFTER_NAME``,
    a capital again), or the looser :func:`reads_as_authors` on what precedes a link or a
    year in parentheses, which "45 et al." passes with no capital. So an ASCII entry with no
    capital letter, no ``](`` and no year in parentheses is never strong: a paragraph of
    lower-case prose with a year in it (an output, the benchmark's text) is passed over
    without running the segmenter (and compiling its patterns, each on first use).

    >>> t = "results in 2019 and (n=120) see p. 4"
    >>> may_be_strong(t, 0, len(t)), segment(t, 0, len(t)).strong
    (False, False)
    >>> may_be_strong("lewis et al. (2020) rag", 0, 23)
    True
    """
    end = min(end, start + WINDOW)
    if _CAPITAL_OR_WIDE.search(text, start, end) is not None:
        return True  # (where it is, the search stops: in a report, at once)
    if text.find("](", start, end) != -1:
        return True
    return text.find("(", start, end) != -1 and _YEAR_PAREN.search(text, start, end) is not None


def _year_outside(text: str, start: int, end: int, title: tuple[int, int] | None) -> int | None:
    """The entry's year, not one inside its title ("… EVs in 2027-28 - Reuters")."""
    if title is None:
        return _first_year(text, start, end)
    return _first_year(text, start, title[0]) or _first_year(text, title[1], end)


_PERIOD = LazyPattern(r"\.\s")


def _leading_authors(text: str, pos: int, stop: int) -> int | None:
    """End of an author list that opens the entry as its own sentence, or None.

    Initials end in periods too ("P. Lewis, E. Perez. Title."), so the list is the longest
    run of sentences that still reads as names, followed by a capitalised sentence.
    """
    best = None
    for count, m in enumerate(_PERIOD.finditer(text, pos, min(stop, pos + 600))):
        if count >= 12:
            break
        if not looks_like_authors(text[pos : m.start() + 1]):
            if best is not None:
                break
            continue
        following = text[m.end() : m.end() + 1]
        if following[:1].isupper() or following in ('"', "“", "*", "_"):
            best = m.start()
    return best


def _words(text: str) -> int:
    return sum(1 for w in text.split() if any(ch.isalpha() for ch in w))


def _strip_year(prefix: str) -> str:
    """An author list before a quoted title may carry its year: "Lewis, P. 2020." """
    return _BARE_YEAR.sub("", _YEAR_PAREN.sub("", prefix))


_AFTER_NAME = LazyPattern(
    r"[-–—,:;\s(]*((?:[A-ZÀ-ÖØ-Þ][\w'’\-]{1,40}[ ,]{0,2}){1,4}?"
    r"(?:et\.? al\.?|(?:and|&) [A-ZÀ-ÖØ-Þ][\w'’\-]{1,40})?)[,\s(]{0,3}((?:1[6-9]|20)\d{2})"
)


def _authors_year_after(text: str, pos: int, end: int) -> tuple[tuple[str, ...], int | None]:
    """Authors and year written after a leading title: "[Title](url) - Vaswani et al., 2017"."""
    m = _AFTER_NAME.match(text, pos, min(end, pos + 200))
    if m is not None and looks_like_authors(m.group(1)):
        return split_authors(m.group(1)), int(m.group(2))
    return (), _first_year(text, pos, end)


def _after_ids(text: str, pos: int, end: int, ids: Sequence[tuple[int, int]]) -> int | None:
    """The first character after the identifiers and links an entry opens with."""
    at = pos
    for _ in range(8):
        while at < end and text[at] in " \t,;:—–-|()[]<>":
            at += 1
        moved = False
        k = bisect_left(ids, (at + 1, -1)) - 1
        if k >= 0 and ids[k][0] <= at < ids[k][1]:
            at = ids[k][1]
            moved = True
        m = _URL.match(text, at, end) or _PREFIXED_ID.match(text, at, end)
        if m is not None:
            at = m.end()
            moved = True
        if not moved:
            break
    return at if at < end else None
