"""A cited URL no tool returned, but whose page a tool did return with other parameters.

The URL key (:mod:`groundcheck.extractors.urlkey`) merges only what can never select another
page, so it keeps ``?t=`` (a YouTube position), ``?ref=`` (a git ref on some hosts, a referrer
on most) and the ``amp.`` or ``m.`` host of a site it has no rule for. An agent that cites
``youtube.com/watch?v=abc&t=10s`` after a search returned ``youtube.com/watch?v=abc`` has not
invented a page, and an error there is an error a CI gate gets switched off for. So when the
cited URL and a returned URL name the same host (up to a leading ``www.``, ``m.``, ``mobile.``
or ``amp.``) and the same path, and the parameters of one are a subset of the other's, the miss
is only a warning, and the message names the returned URL.

Parameters that disagree keep the error: ``watch?v=abc`` against ``watch?v=xyz`` is another
video, ``item?id=1`` against ``item?id=2`` another item. A different path is a different page
(a rewritten slug, a wrong date segment), whatever the host.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen

from groundcheck.model import Identifier

__all__ = ["PageIndex", "page_of"]

_SCHEME = "url"
_HOST_PREFIXES = ("www.", "m.", "mobile.", "amp.")


@frozen
class _Page:
    where: str
    """Host (without a mobile or AMP prefix) and path: what must match exactly."""
    parameters: frozenset[str]
    """The ``name=value`` pairs of the query, as the key writes them."""


def page_of(key: str) -> _Page:
    """The page a URL key names: host and path, and the query's parameters apart.

    >>> p = page_of("m.youtube.com/watch?t=10s&v=abc")
    >>> p.where, sorted(p.parameters)
    ('youtube.com/watch', ['t=10s', 'v=abc'])
    """
    rest, hash_, fragment = key.partition("#")
    where, _, query = rest.partition("?")
    host, slash, path = where.partition("/")
    for prefix in _HOST_PREFIXES:
        if host.startswith(prefix) and host.count(".") >= 2:
            host = host[len(prefix) :]
            break
    parameters = frozenset(p for p in query.split("&") if p)
    return _Page(f"{host}{slash}{path}{hash_}{fragment}", parameters)


class PageIndex:
    """The URLs the tools returned, by page, to find the returned URL a cited one varies."""

    def __init__(self, returned: Iterable[Identifier]) -> None:
        self._pages: dict[str, list[tuple[frozenset[str], Identifier]]] = {}
        for identifier in returned:
            if identifier.scheme != _SCHEME:
                continue
            page = page_of(identifier.id)
            self._pages.setdefault(page.where, []).append((page.parameters, identifier))
        for candidates in self._pages.values():
            candidates.sort(key=lambda c: (len(c[0]), c[1].id))

    def same_page(self, cited: Identifier) -> Identifier | None:
        """The returned URL of the same page whose parameters are a subset of the cited
        URL's, or a superset; the one with the fewest parameters first, so the answer is the
        same whatever the order of the evidence.

        >>> index = PageIndex([Identifier("url", "youtube.com/watch?v=abc")])
        >>> index.same_page(Identifier("url", "youtube.com/watch?t=10s&v=abc"))
        Identifier(scheme='url', id='youtube.com/watch?v=abc', version=None)
        >>> index.same_page(Identifier("url", "youtube.com/watch?v=xyz")) is None
        True
        """
        if cited.scheme != _SCHEME or not self._pages:
            return None
        page = page_of(cited.id)
        for parameters, identifier in self._pages.get(page.where, ()):
            if parameters <= page.parameters or page.parameters <= parameters:
                return identifier
        return None
