"""The comparison key of a web URL: two URLs cite the same page when their keys are equal.

``shared/identifier-spec-2.md`` section 1.2, in three layers:

* **A, standard** (RFC 3986 section 6, WHATWG): scheme and host case, default ports, unreserved
  percent-escapes, escape case, IRI to URI, dot segments, empty path, userinfo.
* **B, lossy but safe**: ``http`` = ``https``, ``www.``, one trailing slash, fragments (text
  fragments too, but not ``#!`` and ``#/`` routes), tracking parameters by exact name, parameter
  order, ``%20`` = ``+`` in the query, sub-delimiters decoded in the path.
* **C, host rules**, an allow-list: mobile Wikipedia, YouTube and Twitter hosts, AMP caches and
  redirectors unwrapped.

Why lossy merges are allowed: a merged key that should have been split can only miss a
fabrication that differs from a returned URL in exactly the merged part, while a split key
that should have merged accuses an honest citation. Nothing that can select a different work
is ever merged: ``?v=``, ``?id=``, ``?p=``, path case, ``%2F`` against ``/``, ``+`` against
``%2B``, other subdomains, ports. No URL library does all of this (``shared/url-libs.md``
measures seven), so it is written here on plain string operations, each one pass.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from attrs import frozen

from groundcheck.text import LazyPattern

__all__ = [
    "TRACKING_PARAMETERS",
    "UrlParts",
    "canonical_url",
    "split_url",
    "unquote",
    "unwrap",
    "unwrapped_key",
    "url_key",
]


def unquote(string: str) -> str:
    """:func:`urllib.parse.unquote`, imported on first use: urllib.parse, and the ipaddress
    it imports, were ~4 ms of every start-up, and most texts hold no ``%`` escape to decode.

    >>> unquote("10.1000%2Fxyz")
    '10.1000/xyz'
    """
    if "%" not in string:  # urllib's own first test: nothing to decode
        return string
    from urllib.parse import unquote as decode

    return decode(string)


_SCHEME = LazyPattern(r"([A-Za-z][A-Za-z0-9+.-]{0,15}):(?://)?")
_DEFAULT_PORTS = {"http": "80", "https": "443", "ftp": "21"}
_WEB_SCHEMES = frozenset(_DEFAULT_PORTS)

_LABEL = LazyPattern(r"[^\W_](?:[\w-]{0,61}[^\W_])?")
_IPV6 = LazyPattern(r"\[[0-9A-Fa-f:.]{2,45}(?:%25[0-9A-Za-z._~-]{1,20})?\]")
_PORT = LazyPattern(r"[0-9]{1,5}")

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PATH_SAFE = _UNRESERVED | frozenset("!$&'()*+,;=:@")
"""Decoded in the path (B9): characters a path segment may hold literally, which servers decode
before routing. Never ``/ ? # %``: decoding those changes where the path splits."""

_ESCAPE = LazyPattern(r"%([0-9A-Fa-f]{2})?")
"""A percent-escape, or a stray ``%`` (written ``%25``, so no decoded neighbour can later join
it into an escape: ``%a%41`` is ``%25aA``, never ``%aA`` that a second pass reads as ``%AA``)."""
_MUST_ENCODE = LazyPattern(r"[^\x21-\x7e]|[\"<>`{}|\\^]+")
"""Non-ASCII, controls, space and the ASCII characters WHATWG always escapes: IRI -> URI (A7)."""

TRACKING_PARAMETERS = frozenset(
    {
        # ClearURLs globalRules (exact names)
        "fbclid", "gclid", "dclid", "msclkid", "yclid", "twclid", "srsltid", "wickedid",
        "rb_clickid", "mc_cid", "mc_eid", "mc_tc", "_hsenc", "__hsfp", "__hssc", "__hstc",
        "hsctatracking", "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_conv", "vero_id",
        "ml_subscriber", "ml_subscriber_hash", "_openstat", "_ga", "_gl", "gs_l", "s_cid",
        "cmpid", "os_ehash", "wtrid", "wt_mc", "wt_zmc", "wtmc", "itm_campaign", "itm_medium",
        "itm_source", "hmb_campaign", "hmb_medium", "hmb_source", "tracking_source",
        "fb_action_ids", "fb_action_types", "fb_source", "fb_ref", "action_object_map",
        "action_type_map", "action_ref_map", "__twitter_impression",
        # ClearURLs providers: deeplearning.ai (HubSpot), instagram; courlan: Google Ads
        "_hsmi", "igshid", "igsh", "gbraid", "wbraid",
    }
)  # fmt: skip
"""Parameters that describe the click, not the page (B5), matched by exact lower-case name.
``ref``, ``source``, ``session``, ``uid``, ``cid`` are kept on purpose: they select content on
some sites (``gitlab.com/...?ref=v2.1`` is a git ref)."""

_TRACKING_PREFIXES = ("utm_", "mtm_", "ga_", "otm_", "vn_")
_TRACKING_STEMS = frozenset({"utm", "mtm"})

_HOST_PARAMETERS = {
    "youtube.com": frozenset({"si", "feature", "pp"}),
    "twitter.com": frozenset({"ref_src", "ref_url", "src", "s", "t", "cn"}),
    "open.spotify.com": frozenset({"si"}),
}
"""Per-host share parameters (ClearURLs providers ``youtube``, ``twitter``, ``spotify.com``).
YouTube's ``t`` (a position) is kept; a tweet is selected by its path, so all of Twitter's
share parameters go."""

_WIKIMEDIA = frozenset(
    {
        "wikipedia.org", "wiktionary.org", "wikidata.org", "wikibooks.org", "wikiquote.org",
        "wikisource.org", "wikinews.org", "wikiversity.org", "wikivoyage.org", "wikimedia.org",
        "mediawiki.org",
    }
)  # fmt: skip
_HOST_ALIASES = {
    "m.youtube.com": "youtube.com",
    "music.youtube.com": "youtube.com",
    "mobile.twitter.com": "twitter.com",
    "x.com": "twitter.com",
    "mobile.x.com": "twitter.com",
}

_REDIRECTORS: dict[tuple[str, str], tuple[str, ...]] = {
    ("google.com", "/url"): ("q", "url"),
    ("l.facebook.com", "/l.php"): ("u",),
    ("lm.facebook.com", "/l.php"): ("u",),
    ("youtube.com", "/redirect"): ("q",),
    ("duckduckgo.com", "/l/"): ("uddg",),
    ("html.duckduckgo.com", "/l/"): ("uddg",),
}
"""Redirect wrappers whose target is a query parameter (ClearURLs ``redirections``)."""
_MAX_UNWRAP = 4
_AMP_PATH = LazyPattern(r"/(?:[cvi]/|amp/)(s/)?([^/]+(?:/.*)?)$", re.DOTALL)


@frozen
class UrlParts:
    """A URL cut into its parts, with the scheme and host already lower-cased and checked."""

    scheme: str
    host: str
    port: str
    path: str
    query: str | None
    fragment: str | None

    @property
    def authority(self) -> str:
        return f"{self.host}:{self.port}" if self.port else self.host


def _normal_host(raw: str) -> str | None:
    """:func:`_host_name`, remembered for the few thousand hosts last seen (hosts repeat)."""
    return _cached_host(raw) if len(raw) <= 253 else None


def _host_name(raw: str) -> str | None:
    """The host lower-cased, ``xn--`` labels decoded, or None when it is not a host name.

    Accepts ``localhost``, a bracketed IPv6 literal, a dotted IPv4 address, or two or more
    labels of letters, digits and inner hyphens whose last label is not all digits.
    """
    if raw.startswith("["):
        return raw.lower() if _IPV6.fullmatch(raw) else None
    host = raw if raw.isascii() else unicodedata.normalize("NFKC", raw)
    host = host.lower()
    if host.endswith("."):
        host = host[:-1]
    if not host or len(host) > 253:
        return None
    if host == "localhost":
        return host
    labels = host.split(".")
    if len(labels) < 2:
        return None
    for i, label in enumerate(labels):
        if len(label) > 63 or not _LABEL.fullmatch(label):
            return None
        if label.startswith("xn--"):
            labels[i] = _decode_label(label)
    if all(label.isdigit() for label in labels):
        if len(labels) == 4 and all(int(label) <= 255 for label in labels):
            return ".".join(str(int(label)) for label in labels)
        return None
    if labels[-1].isdigit():
        return None
    return ".".join(labels)


_cached_host = lru_cache(maxsize=4096)(_host_name)


def _decode_label(label: str) -> str:
    """``xn--bcher-kva`` -> ``bücher``; a label that does not decode is kept as written."""
    try:
        decoded = label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return label
    decoded = decoded.lower()
    return decoded if decoded and _LABEL.fullmatch(decoded) else label


def split_url(url: str) -> UrlParts | None:
    """Cut an ``http``/``https``/``ftp`` URL (or a scheme-less ``host/path``) into its parts.

    None when the scheme is another one or the host is not a host name. Hand-written rather
    than :func:`urllib.parse.urlsplit`, which raises on some hosts and silently drops tabs.

    >>> split_url("HTTPS://User@Example.COM:8080/a?b#c")
    UrlParts(scheme='https', host='example.com', port='8080', path='/a', query='b', fragment='c')
    """
    m = _SCHEME.match(url)
    if m is not None and url[m.end(1) : m.end(1) + 3] == "://":
        scheme = m.group(1).lower()
        if scheme not in _WEB_SCHEMES:
            return None
        rest = url[m.end(1) + 3 :]
    elif m is not None and not url[m.end(1) + 1 : m.end(1) + 2].isdigit():
        return None  # "mailto:x", "doi:10.1/x"; but "host:8080/" is a host and a port
    else:
        scheme, rest = "http", url
    cut = len(rest)
    for sep in "/?#":
        at = rest.find(sep, 0, cut)
        if at != -1:
            cut = at
    authority, tail = rest[:cut], rest[cut:]
    at = authority.rfind("@")
    if at != -1:
        authority = authority[at + 1 :]
    port = ""
    if authority.startswith("["):
        close = authority.find("]")
        if close == -1:
            return None
        host_raw, after = authority[: close + 1], authority[close + 1 :]
        if after:
            if not after.startswith(":"):
                return None
            port = after[1:]
    else:
        host_raw, colon, port = authority.partition(":")
        if not colon:
            port = ""
    if port and not _PORT.fullmatch(port):
        return None
    host = _normal_host(host_raw)
    if host is None:
        return None
    fragment = query = None
    hash_at = tail.find("#")
    if hash_at != -1:
        tail, fragment = tail[:hash_at], tail[hash_at + 1 :]
    q_at = tail.find("?")
    if q_at != -1:
        tail, query = tail[:q_at], tail[q_at + 1 :]
    return UrlParts(scheme, host, port.lstrip("0") or ("0" if port else ""), tail, query, fragment)


def _escapes(text: str, decode: frozenset[str]) -> str:
    """Upper-case every ``%xx`` (A5), decode those of ``decode`` (A6, B9), encode the rest (A7)."""
    if "%" in text:

        def escape(m: re.Match[str]) -> str:
            if m.group(1) is None:
                return "%25"
            ch = chr(int(m.group(1), 16))
            return ch if ch in decode else "%" + m.group(1).upper()

        text = _ESCAPE.sub(escape, text)
    if not text.isascii() or _MUST_ENCODE.search(text):
        text = _MUST_ENCODE.sub(_encode, text)
    return text


def _encode(m: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in m.group().encode("utf-8", "surrogatepass"))


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4, on a path that starts with ``/`` (one pass over its segments)."""
    if "/." not in path:  # a "." or ".." segment follows a "/"
        return path
    segments = path.split("/")[1:]
    out: list[str] = []
    for seg in segments:
        if seg == ".":
            continue
        if seg == "..":
            if out:
                out.pop()
            continue
        out.append(seg)
    result = "/" + "/".join(out)
    if segments and segments[-1] in (".", "..") and not result.endswith("/"):
        result += "/"
    return result


def _normal_path(path: str) -> str:
    if not path:
        return "/"
    path = _remove_dot_segments(_escapes(path, _PATH_SAFE))
    return path.rstrip("/") or "/"  # B3: trailing slashes, never the root


def _tracking(name: str, host: str) -> bool:
    low = name.lower()
    if low in TRACKING_PARAMETERS or low in _TRACKING_STEMS:
        return True
    if low.startswith(_TRACKING_PREFIXES) and len(low) > 3:
        return True
    extra = _HOST_PARAMETERS.get(host)
    return extra is not None and low in extra


def _normal_query(query: str, host: str) -> str:
    items: list[tuple[str, str]] = []
    for piece in query.split("&"):
        if not piece:
            continue  # B7: "&&" and a bare "?"
        name, _, value = piece.partition("=")
        name = _escapes(name, _UNRESERVED).replace("%20", "+")
        if _tracking(name, host):
            continue
        items.append((name, _escapes(value, _UNRESERVED).replace("%20", "+")))
    items.sort(key=lambda item: item[0])  # B6: stable, so repeated names keep their order
    return "&".join(f"{name}={value}" for name, value in items)


def _normal_fragment(fragment: str | None) -> str:
    """B4: fragments go, except hash-bang and single-page-app routes, which select content."""
    if not fragment or fragment[0] not in "!/":
        return ""
    route = fragment.split(":~:", 1)[0]  # a text directive only highlights
    return "#" + _escapes(route, _UNRESERVED)


@lru_cache(maxsize=4096)
def _host_rules(host: str) -> str:
    """B2 and the Layer C host allow-list: ``www.``, mobile Wikimedia, YouTube, Twitter."""
    while host.startswith("www.") and host.count(".") >= 2:
        host = host[4:]
    alias = _HOST_ALIASES.get(host)
    if alias is not None:
        return alias
    labels = host.split(".")
    if len(labels) >= 3 and ".".join(labels[-2:]) in _WIKIMEDIA:
        while len(labels) >= 3 and labels[-3] == "m":
            del labels[-3]
        return ".".join(labels)
    return host


def _param(query: str | None, names: tuple[str, ...]) -> str | None:
    if not query:
        return None
    for piece in query.split("&"):
        name, _, value = piece.partition("=")
        if name in names and value:
            return value
    return None


def _unwrapped(parts: UrlParts, host: str) -> str | None:
    """The URL a redirector or an AMP cache stands for, or None when this is not a wrapper."""
    path = parts.path
    for (wrapper, prefix), names in _REDIRECTORS.items():
        if host == wrapper and (path == prefix or path == prefix.rstrip("/")):
            target = _param(parts.query, names)
            if target is not None:
                target = unquote(target)
                if target[:7].lower() == "http://" or target[:8].lower() == "https://":
                    return target
            return None
    if host.endswith(".cdn.ampproject.org") or (host == "google.com" and path.startswith("/amp/")):
        m = _AMP_PATH.match(path)
        if m is not None:
            scheme = "https" if m.group(1) else "http"
            query = f"?{parts.query}" if parts.query else ""
            return f"{scheme}://{m.group(2)}{query}"
    return None


def unwrap(parts: UrlParts) -> UrlParts:
    """The page behind redirectors and AMP caches (Layer C), or ``parts`` itself.

    >>> unwrap(split_url("https://www.google.com/url?q=https%3A%2F%2Fx.org%2Fa&sa=D")).host
    'x.org'
    """
    for _ in range(_MAX_UNWRAP):
        target = _unwrapped(parts, _host_rules(parts.host))
        inner = split_url(target) if target is not None else None
        if inner is None:
            break
        parts = inner
    return parts


def url_key(parts: UrlParts) -> str:
    """The key of a URL already cut by :func:`split_url`."""
    return unwrapped_key(unwrap(parts))


def unwrapped_key(parts: UrlParts) -> str:
    """:func:`url_key` of parts :func:`unwrap` has already unwrapped (the URL extractor
    unwraps each URL for its own use too: ``url_key(p) == unwrapped_key(unwrap(p))``)."""
    host = _host_rules(parts.host)
    port = "" if parts.port == _DEFAULT_PORTS.get(parts.scheme) else parts.port
    path = parts.path
    query = parts.query
    if host == "youtu.be" and len(path) > 1:
        video = path[1:].split("/", 1)[0]
        host, path = "youtube.com", "/watch"
        query = f"v={video}&{query}" if query else f"v={video}"
    normal_query = _normal_query(query, host) if query else ""
    key = host + (f":{port}" if port else "") + _normal_path(path)
    if normal_query:
        key += "?" + normal_query
    return key + _normal_fragment(parts.fragment)


def canonical_url(url: str) -> str:
    """The comparison key of a web URL: two URLs cite the same page when their keys are equal.

    Accepts ``http``, ``https`` and ``ftp`` URLs, ``www.``-URLs without a scheme, and keys
    themselves (``canonical_url(canonical_url(u)) == canonical_url(u)``). Raises ``ValueError``
    for anything else.

    >>> canonical_url("HTTP://www.Example.COM:80/a/./b/../c/?utm_source=x&b=2&a=1#frag")
    'example.com/a/c?a=1&b=2'
    >>> canonical_url("https://en.m.wikipedia.org/wiki/Python_%28programming_language%29")
    'en.wikipedia.org/wiki/Python_(programming_language)'
    >>> canonical_url("https://youtu.be/dQw4w9WgXcQ?t=5")
    'youtube.com/watch?t=5&v=dQw4w9WgXcQ'
    """
    parts = split_url(url.strip())
    if parts is None:
        raise ValueError(f"not a web URL (http, https or ftp with a host name): {url[:200]!r}")
    return url_key(parts)
