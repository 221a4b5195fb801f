"""What a report may cite as a URL without any tool returning it, and how sure a miss is.

A cited URL no tool returned is ``fabricated-id`` (scheme ``url``), an error: the page may
exist, but the agent did not get it from a tool. Two policy knobs adjust that:

- an **allow-list** of hosts and URL prefixes a report may cite without retrieval (the
  project's own repository, its documentation): such URLs are not checked at all, like URLs in
  code. Entries are compared on the canonical URL key
  (:func:`groundcheck.extractors.url.canonical_url`), so ``http``/``https``, ``www.``, case of
  the host, tracking parameters and a trailing slash never matter. ``github.com`` allows that
  host only; ``*.example.org`` its subdomains (and itself); ``github.com/org/repo`` that path
  and everything under it (``github.com/org/repo/issues/1``, not ``github.com/org/repo-x``).
- a **severity** for fabricated plain URLs, so a team can roll the check out as warnings
  first. It applies only to web pages: a URL that names an identifier (``doi.org/…``,
  ``arxiv.org/abs/…``) is that identifier's citation and stays an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from attrs import evolve, frozen

from groundcheck.errors import ConfigError
from groundcheck.extractors.urlkey import canonical_url
from groundcheck.model import ERROR, WARNING, Citation, Finding, Severity

__all__ = ["ALLOWED", "UrlAllowList", "allow_urls", "url_severity"]

ALLOWED = "allowed"
"""The kind of a URL citation the allow-list lets through (not checked, like ``code``)."""

_SCHEME = "url"
_OTHER_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:(?![0-9])")
_FABRICATED = "fabricated-id"


@frozen
class UrlAllowList:
    """Hosts, host suffixes and URL-key prefixes a report may cite without retrieval.

    >>> allow = UrlAllowList.of(["github.com/acme/tool", "*.acme.dev", "docs.python.org"])
    >>> [allow.allows_key(canonical_url(u)) for u in (
    ...     "https://www.github.com/acme/tool/blob/main/README.md?utm_source=x",
    ...     "https://github.com/acme/tool-fork", "http://api.acme.dev/v1", "https://acme.dev/",
    ...     "https://docs.python.org/3/", "https://python.org/")]
    [True, False, True, True, True, False]
    """

    hosts: frozenset[str] = frozenset()
    suffixes: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()

    @classmethod
    def of(cls, entries: Iterable[str]) -> UrlAllowList:
        return _allow_list(tuple(entries))

    def __bool__(self) -> bool:
        return bool(self.hosts or self.suffixes or self.prefixes)

    def allows_key(self, key: str) -> bool:
        """Does the allow-list cover the URL with canonical key ``key``?"""
        host = key.split("/", 1)[0]
        bare = host.rsplit(":", 1)[0] if ":" in host and not host.endswith("]") else host
        if host in self.hosts or bare in self.hosts:
            return True
        if any(bare == s[1:] or bare.endswith(s) for s in self.suffixes):
            return True
        return any(_under(key, p) for p in self.prefixes)

    def allows(self, citation: Citation) -> bool:
        """Is ``citation`` a URL (or an identifier URL) the allow-list covers?"""
        return any(k.scheme == _SCHEME and self.allows_key(k.id) for k in citation.keys)


def _under(key: str, prefix: str) -> bool:
    if key == prefix:
        return True
    if prefix.endswith("/"):
        return key.startswith(prefix)
    return key.startswith(prefix) and key[len(prefix)] in "/?#"


@lru_cache(maxsize=32)
def _allow_list(entries: tuple[str, ...]) -> UrlAllowList:
    hosts: set[str] = set()
    suffixes: list[str] = []
    prefixes: list[str] = []
    for entry in entries:
        if not isinstance(entry, str) or not entry.strip():
            raise ConfigError(f"allowed_urls: each entry must be a host or URL, got {entry!r}")
        raw = entry.strip()
        wildcard = raw.startswith("*.")
        if wildcard:
            raw = raw[2:]
        url = raw if "://" in raw or raw.lower().startswith("www.") else "https://" + raw
        try:
            if "://" not in raw and _OTHER_SCHEME.match(raw):
                raise ValueError(raw)  # mailto:, doi:, file:: not a web address
            key = canonical_url(url)
        except ValueError:
            raise ConfigError(
                f"allowed_urls: {entry!r} is not a host (github.com, *.example.org) or a URL "
                "prefix (https://github.com/org/repo)"
            ) from None
        host, _, path = key.partition("/")
        if wildcard:
            if path:
                raise ConfigError(f"allowed_urls: {entry!r}: a *. entry is a host, no path")
            suffixes.append("." + host)
        elif not path:
            hosts.add(host)
        else:
            prefixes.append(key)
    return UrlAllowList(
        frozenset(hosts), tuple(sorted(set(suffixes))), tuple(sorted(set(prefixes)))
    )


def allow_urls(citations: Sequence[Citation], entries: Iterable[str]) -> tuple[Citation, ...]:
    """``citations`` with the URLs the allow-list covers marked ``kind="allowed"``, which
    grounding leaves out like URLs in code. Malformed identifier URLs stay: no tool output can
    hold them, allowed or not."""
    allow = UrlAllowList.of(entries)
    if not allow:
        return tuple(citations)
    return tuple(
        evolve(c, kind=ALLOWED) if c.malformed is None and allow.allows(c) else c for c in citations
    )


def url_severity(findings: Iterable[Finding], severity: Severity) -> list[Finding]:
    """``findings`` with ``fabricated-id`` on plain web URLs at ``severity`` (at most: a
    finding already lowered, e.g. by ``unrecorded_severity``, stays lowered). A finding about a
    work that also has a non-URL identifier keeps its severity."""
    out = list(findings)
    if severity == ERROR:
        return out
    for i, f in enumerate(out):
        if f.code != _FABRICATED or f.severity != ERROR or f.citation is None:
            continue
        if f.citation.scheme != _SCHEME:
            continue
        work = getattr(f, "work", None)  # a finding about a cited work names all its ids
        ids = getattr(work, "identifiers", ()) if work is not None else ()
        if any(c.scheme != _SCHEME and c.malformed is None for c in ids):
            continue
        out[i] = evolve(f, severity=WARNING)
    return out
