"""The URL policy: fabricated URLs are fabricated-id; an allow-list and a severity adjust it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck import Policy, audit
from groundcheck.errors import ConfigError
from groundcheck.extractors import extract
from groundcheck.extractors.url import canonical_url
from groundcheck.grounding.url_policy import ALLOWED, UrlAllowList, allow_urls, url_severity

SEARCH = [
    {
        "tool": "web_search",
        "id": "s1",
        "input": {"q": "mercury ice"},
        "output": [{"title": "Water ice on Mercury", "url": "https://www.nasa.gov/ice"}],
    }
]


def codes(report: str, **options: object) -> list[tuple[str, str, str]]:
    verdict = audit(report, SEARCH, **options)
    return [(f.code, f.severity, f.citation.raw if f.citation else "") for f in verdict.findings]


def test_a_url_no_tool_returned_is_fabricated_id() -> None:
    assert codes("Ice at https://nasa.gov/ice and https://nasa.gov/ice-2025.") == [
        ("fabricated-id", "error", "https://nasa.gov/ice-2025")
    ]


def test_url_severity_lowers_plain_urls_only() -> None:
    report = "See https://nasa.gov/ice-2025 and https://doi.org/10.1126/science.1229953."
    assert codes(report, url_severity="warning") == [
        ("fabricated-id", "warning", "https://nasa.gov/ice-2025"),
        ("fabricated-id", "error", "https://doi.org/10.1126/science.1229953"),
    ]


def test_url_severity_never_raises_a_lowered_finding() -> None:
    calls = [*SEARCH, {"tool": "fetch", "id": "lost", "recorded": False}]
    verdict = audit("See https://nasa.gov/x.", calls, unrecorded_severity="warning")
    assert [f.severity for f in verdict.findings if f.code == "fabricated-id"] == ["warning"]


@pytest.mark.parametrize(
    ("entry", "url", "allowed"),
    [
        ("github.com", "https://www.github.com/acme/tool", True),
        ("github.com", "http://github.com", True),
        ("github.com", "https://gist.github.com/acme/1", False),
        ("*.acme.dev", "https://docs.acme.dev/a", True),
        ("*.acme.dev", "https://acme.dev/", True),
        ("*.acme.dev", "https://notacme.dev/", False),
        ("github.com/acme/tool", "https://github.com/acme/tool/issues/1?utm_source=x", True),
        ("https://github.com/acme/tool/", "https://github.com/acme/tool", True),
        ("github.com/acme/tool", "https://github.com/acme/tool-fork", False),
        ("github.com/acme/tool", "https://github.com/acme/tool?tab=readme", True),
        ("HTTPS://WWW.Example.org/Docs", "https://example.org/Docs/intro", True),
        ("https://example.org/Docs", "https://example.org/docs/intro", False),  # path case
        ("localhost:8000", "http://localhost:8000/api/x", True),
    ],
)
def test_allow_list_entries(entry: str, url: str, allowed: bool) -> None:
    assert UrlAllowList.of([entry]).allows_key(canonical_url(url)) is allowed


@pytest.mark.parametrize("entry", ["", "  ", "not a url at all", "*.x.org/path", "mailto:a@b.c"])
def test_a_bad_entry_is_a_config_error(entry: str) -> None:
    with pytest.raises(ConfigError, match="allowed_urls"):
        Policy(allowed_urls=[entry])


def test_allowed_urls_are_not_checked() -> None:
    report = "Our code is at https://github.com/acme/tool and data at https://nasa.gov/ice-2025."
    assert codes(report, allowed_urls=["github.com/acme"]) == [
        ("fabricated-id", "error", "https://nasa.gov/ice-2025")
    ]
    assert codes(report, allowed_urls="nasa.gov") == [
        ("fabricated-id", "error", "https://github.com/acme/tool")
    ]


def test_allow_urls_marks_identifier_urls_by_their_url_key() -> None:
    cited = extract("https://doi.org/10.1126/science.1229953 and https://x.org/a")
    marked = allow_urls(cited, ["doi.org"])
    assert [(c.scheme, c.kind) for c in marked] == [("doi", ALLOWED), ("url", "")]
    assert allow_urls(cited, []) == cited


def test_url_severity_leaves_other_findings() -> None:
    verdict = audit("See https://nasa.gov/x and arXiv:2005.11401.", SEARCH)
    lowered = url_severity(verdict.findings, "warning")
    assert sorted((f.citation.scheme, f.severity) for f in lowered if f.citation) == [
        ("arxiv", "error"),
        ("url", "warning"),
    ]
    assert url_severity(verdict.findings, "error") == list(verdict.findings)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "docs", "x-y", "v1"]), min_size=0, max_size=4),
    st.lists(st.sampled_from(["a", "b", "c"]), min_size=0, max_size=3),
)
def test_a_prefix_allows_everything_under_it_and_nothing_beside(
    prefix: list[str], rest: list[str]
) -> None:
    base = "https://example.org/" + "/".join(prefix)
    allow = UrlAllowList.of([base])
    under = base.rstrip("/") + ("/" + "/".join(rest) if rest else "")
    assert allow.allows_key(canonical_url(under))
    if prefix:
        assert not allow.allows_key(canonical_url(base.rstrip("/") + "zz"))
    assert not allow.allows_key(canonical_url("https://example.net/" + "/".join(prefix)))
