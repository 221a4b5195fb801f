"""The URL comparison key: the 42 pairs of shared/url-libs.md, the spec's key table, properties."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.extractors.urlkey import canonical_url, split_url, unquote, unwrap

PAIRS = [
    ("HTTP://Example.COM/a", "http://example.com/a", True),  # 1: scheme/host case
    ("http://example.com:80/a", "http://example.com/a", True),  # 2: default port :80
    ("https://example.com:443/a", "https://example.com/a", True),  # 3: default port :443
    ("http://example.com/%7Euser", "http://example.com/~user", True),  # 4: unreserved %7E
    ("http://example.com/a%2fb", "http://example.com/a%2Fb", True),  # 5: escape hex case
    ("http://example.com/a/./b/../c", "http://example.com/a/c", True),  # 6: dot segments
    ("http://example.com", "http://example.com/", True),  # 7: empty path = /
    ("http://bücher.example/", "http://xn--bcher-kva.example/", True),  # 8: IDN vs punycode
    ("https://EXAMPLE.com./a", "https://example.com/a", True),  # 9: trailing dot in host
    ("https://example.com/café", "https://example.com/caf%C3%A9", True),  # 10: IRI vs URI path
    (
        "https://en.wikipedia.org/wiki/Python_(programming_language)",
        "https://en.wikipedia.org/wiki/Python_%28programming_language%29",
        True,
    ),  # 11: parens %28/%29 in path
    ("http://example.com/page", "https://example.com/page", True),  # 12: http vs https (lossy)
    ("https://www.example.com/page", "https://example.com/page", True),  # 13: www. prefix (lossy)
    ("https://example.com/docs/", "https://example.com/docs", True),  # 14: trailing slash (lossy)
    ("https://example.com/a#section-2", "https://example.com/a", True),  # 15: fragment
    (
        "https://example.com/a#:~:text=hello%20world",
        "https://example.com/a",
        True,
    ),  # 16: text fragment
    ("https://example.com/a?utm_source=x&utm_medium=y", "https://example.com/a", True),  # 17: utm_*
    ("https://example.com/a?fbclid=IwAR0abc", "https://example.com/a", True),  # 18: fbclid
    (
        "https://example.com/a?gclid=abc&id=5",
        "https://example.com/a?id=5",
        True,
    ),  # 19: gclid beside a kept param
    ("https://example.com/a?mc_cid=1&mc_eid=2", "https://example.com/a", True),  # 20: mc_cid/mc_eid
    (
        "https://example.com/a?_hsenc=p2ANqtz&_hsmi=123",
        "https://example.com/a",
        True,
    ),  # 21: _hsenc/_hsmi
    (
        "https://example.com/a?igshid=MzRl&msclkid=9",
        "https://example.com/a",
        True,
    ),  # 22: igshid/msclkid
    ("https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2", True),  # 23: query order
    ("https://example.com/a?", "https://example.com/a", True),  # 24: empty query
    (
        "https://example.com/search?q=a%20b",
        "https://example.com/search?q=a+b",
        True,
    ),  # 25: %20 vs + in query
    (
        "https://en.m.wikipedia.org/wiki/Mercury_(planet)",
        "https://en.wikipedia.org/wiki/Mercury_(planet)",
        True,
    ),  # 26: Wikipedia mobile host (allow-list)
    (
        "https://youtu.be/dQw4w9WgXcQ",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        True,
    ),  # 27: youtu.be alias (host rule)
    (
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "https://www.youtube.com/watch?v=oHg5SJYRHA0",
        False,
    ),  # 28: ?v= is the work
    (
        "https://example.com/item?id=1",
        "https://example.com/item?id=2",
        False,
    ),  # 29: ?id= is the work
    ("https://example.com/?p=123", "https://example.com/?p=456", False),  # 30: ?p= (WordPress post)
    ("https://example.com/Docs/Page", "https://example.com/docs/page", False),  # 31: path case
    ("https://example.com/a%2Fb", "https://example.com/a/b", False),  # 32: %2F is not /
    (
        "https://example.com/a?q=a+b",
        "https://example.com/a?q=a%2Bb",
        False,
    ),  # 33: + (space) vs %2B (plus) in query
    (
        "https://example.com/a?gallery=2",
        "https://example.com/a?gallery=3",
        False,
    ),  # 34: param named gallery
    (
        "https://example.com/a?source=nature",
        "https://example.com/a?source=science",
        False,
    ),  # 35: param named source
    ("https://example.com/a?uid=1", "https://example.com/a?uid=2", False),  # 36: param named uid
    (
        "https://gitlab.com/g/p/-/blob/x?ref=v2.1",
        "https://gitlab.com/g/p/-/blob/x?ref=v1.0",
        False,
    ),  # 37: ref= as a git ref
    ("https://example.com/#/route/a", "https://example.com/#/route/b", False),  # 38: SPA hash route
    ("https://sub.example.com/a", "https://example.com/a", False),  # 39: other subdomain
    ("https://m.example.com/a", "https://example.com/a", False),  # 40: m. on an unknown host
    ("http://example.com:8080/a", "http://example.com/a", False),  # 41: non-default port
    ("https://example.com/a?page=1", "https://example.com/a?page=2", False),  # 42: pagination
]
"""url-libs.md's 42 pairs: 11 standard equivalences, 16 lossy-but-safe merges, 15 pairs that
must stay apart because the differing part selects the work."""


@pytest.mark.parametrize(("a", "b", "same"), PAIRS)
def test_url_pairs(a: str, b: str, same: bool) -> None:
    """Equal keys exactly when the two URLs cite the same page."""
    assert (canonical_url(a) == canonical_url(b)) is same


KEYS = [
    ("HTTP://www.Example.COM:80/a/./b/../c/?utm_source=x&b=2&a=1#frag", "example.com/a/c?a=1&b=2"),
    (
        "https://en.m.wikipedia.org/wiki/Python_%28programming_language%29",
        "en.wikipedia.org/wiki/Python_(programming_language)",
    ),
    ("https://youtu.be/dQw4w9WgXcQ?t=5", "youtube.com/watch?t=5&v=dQw4w9WgXcQ"),
    ("https://example.com/#/route/a", "example.com/#/route/a"),
    ("http://xn--bcher-kva.example/", "bücher.example/"),
    ("https://example.com/caf%c3%a9?q=a%20b", "example.com/caf%C3%A9?q=a+b"),
    # Layer C: redirectors and AMP caches are unwrapped, share parameters dropped.
    ("https://www.google.com/url?q=https%3A%2F%2Fx.org%2Fa%3Futm_source%3Dy&sa=D", "x.org/a"),
    ("https://l.facebook.com/l.php?u=https%3A%2F%2Fx.org%2Fa&h=AT0", "x.org/a"),
    ("https://duckduckgo.com/l/?uddg=https%3A%2F%2Fx.org%2Fa&rut=abc", "x.org/a"),
    ("https://www.youtube.com/redirect?q=https%3A%2F%2Fx.org%2Fa&v=1", "x.org/a"),
    ("https://x-org.cdn.ampproject.org/c/s/x.org/news/a", "x.org/news/a"),
    ("https://www.google.com/amp/s/x.org/news/a", "x.org/news/a"),
    ("https://x.com/user/status/123?s=20&t=abc", "twitter.com/user/status/123"),
    ("https://mobile.twitter.com/user/status/123?ref_src=twsrc", "twitter.com/user/status/123"),
    ("https://m.youtube.com/watch?v=abc&si=xyz&feature=share", "youtube.com/watch?v=abc"),
    ("https://m.wikidata.org/wiki/Q42", "wikidata.org/wiki/Q42"),
    # Layer A and B details.
    ("https://user:secret@example.com/a", "example.com/a"),
    ("https://example.com/a?b=1&&c=&d", "example.com/a?b=1&c=&d="),
    ("https://example.com/a?tag=b&tag=a", "example.com/a?tag=b&tag=a"),
    ("https://example.com/a#sec:~:text=hello", "example.com/a"),
    ("https://example.com/#!/user/1:~:text=x", "example.com/#!/user/1"),
    ("https://example.com/a%2f%7e%41", "example.com/a%2F~A"),
    ("https://EXAMPLE.com:0443/a", "example.com/a"),
    ("ftp://files.example.org:21/pub/", "files.example.org/pub"),
    ("https://192.168.000.001/x", "192.168.0.1/x"),
    ("www.example.org/help", "example.org/help"),
    ("example.org/help", "example.org/help"),
]


@pytest.mark.parametrize(("url", "key"), KEYS)
def test_key_examples(url: str, key: str) -> None:
    assert canonical_url(url) == key


NEVER_MERGED = [
    ("https://www.youtube.com/watch?v=A", "https://www.youtube.com/watch?v=B"),
    ("https://youtu.be/A", "https://youtu.be/B"),
    (
        "https://github.com/Owner/Repo/blob/main/A.md",
        "https://github.com/owner/repo/blob/main/a.md",
    ),
    ("https://example.com/a?ref=v1", "https://example.com/a?ref=v2"),
    ("https://example.com/a?source=x", "https://example.com/a?source=y"),
    ("https://example.com/a?utmost=1", "https://example.com/a?utmost=2"),
    ("https://example.com/a?s=1", "https://example.com/a?s=2"),  # only Twitter's s= goes
    ("https://аpple.com/", "https://apple.com/"),  # IDN homograph: Cyrillic а
    ("https://faß.de/", "https://fass.de/"),  # casefold would merge these; lower() does not
    ("https://www.google.com/search?q=a", "https://www.google.com/search?q=b"),
    ("https://m.example.com/a", "https://example.com/a"),
    ("https://amp.example.com/a", "https://example.com/a"),
    ("https://example.com/a/amp", "https://example.com/a"),
]


@pytest.mark.parametrize(("a", "b"), NEVER_MERGED)
def test_never_merged(a: str, b: str) -> None:
    """What can select another work keeps the keys apart."""
    assert canonical_url(a) != canonical_url(b)


@pytest.mark.parametrize(
    "bad",
    [
        "mailto:foo@example.com",
        "doi:10.1000/x",
        "javascript:alert(1)",
        "https://",
        "https://-",
        "https://localhost.-/",
        "http://example",
        "http://1.2.3",
        "https://example.com:99999999/",
        "https://[::1/",
        "file:///etc/passwd",
        "https://exa mple.com/",
        "https://" + "a" * 64 + ".com/",
        "https://" + "a." * 130 + "com/",
    ],
)
def test_not_web_urls(bad: str) -> None:
    """Other schemes and hosts that are not host names are a clear ValueError."""
    with pytest.raises(ValueError, match="not a web URL"):
        canonical_url(bad)


def test_bad_escapes_and_surrogates_do_not_crash() -> None:
    """A ``%`` that starts no escape is written ``%25`` (the key stays a fixed point); lone
    surrogates are encoded."""
    assert canonical_url("https://x.org/%zz%C3%g1%") == "x.org/%25zz%C3%25g1%25"
    assert canonical_url("https://x.org/a\udcff") == "x.org/a%ED%B3%BF"
    assert canonical_url("https://xn--zz9zz.example/") == "xn--zz9zz.example/"
    assert canonical_url("https://xn--a.example/") == "xn--a.example/"  # decodes to a control


def test_unwrap_is_bounded() -> None:
    """A redirect nested in a redirect ... in a redirect stops after a few levels."""
    url = "https://x.org/end"
    for _ in range(50):
        url = "https://www.google.com/url?q=" + url.replace("%", "%25").replace("&", "%26")
    parts = split_url(url)
    assert parts is not None
    assert unwrap(parts).host.endswith("google.com")
    assert canonical_url(url).startswith("google.com/url?q=")


def test_many_parameters() -> None:
    """10,000 query parameters: sorted, tracking ones removed, nothing lost."""
    params = "&".join(f"p{i}={i}" for i in range(10_000)) + "&utm_source=x"
    key = canonical_url("https://example.com/a?" + params)
    assert key.count("&") == 9_999
    assert "utm_source" not in key


_url_chars = st.sampled_from(
    [*"aZ09-._~!$&'()*+,;=:@/?#%", "%2F", "%41", "%7e", "%zz", "é", "../", "./", "//",
     "utm_source=x", "v=1", "&", "=", "www.", "m.", ":80", ":8080", "#!/", "#:~:text=a"]
)  # fmt: skip
_hosts = st.sampled_from(
    ["example.com", "www.example.com", "EXAMPLE.com.", "en.m.wikipedia.org", "youtu.be",
     "x.com", "xn--bcher-kva.example", "bücher.example", "[::1]", "10.0.0.1", "a.b"]
)  # fmt: skip
urls = st.builds(
    lambda scheme, host, rest: f"{scheme}{host}/{rest}",
    st.sampled_from(["http://", "https://", "HTTPS://", "ftp://", ""]),
    _hosts,
    st.lists(_url_chars, max_size=30).map("".join),
)


@settings(max_examples=400, deadline=None)
@given(urls)
def test_key_is_idempotent(url: str) -> None:
    """A key, keyed again, is itself: keys compare equal however often they are computed."""
    key = canonical_url(url)
    assert canonical_url(key) == key
    assert canonical_url("https://" + key) == key


def test_a_stray_percent_never_joins_a_decoded_neighbour() -> None:
    """Hypothesis found ``%a%41`` keyed as ``%aA`` and then as ``%AA``: a stray ``%`` is
    written ``%25`` so the key is a fixed point."""
    assert canonical_url("http://example.com/%a%41") == "example.com/%25aA"
    assert canonical_url("http://example.com/%25aA") == "example.com/%25aA"
    assert canonical_url("http://example.com/100%") == canonical_url("http://example.com/100%25")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_key_or_a_value_error(text: str) -> None:
    """Arbitrary input never raises anything but ValueError."""
    with contextlib.suppress(ValueError):
        canonical_url(text)


@given(st.text(alphabet=st.sampled_from("%2Fa0zé/-C3A9"), max_size=30) | st.text(max_size=30))
def test_unquote_is_urllib_unquote(text: str) -> None:
    """The lazily imported decoder answers what ``urllib.parse.unquote`` answers, with or
    without an escape in the text (its fast path returns text without ``%`` as it is)."""
    from urllib.parse import unquote as urllib_unquote

    assert unquote(text) == urllib_unquote(text)
