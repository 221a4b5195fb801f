"""Data printed for people can never drive the terminal, forge a line, or fail to encode."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from groundcheck import audit
from groundcheck.render import RENDERERS, RenderContext, render
from groundcheck.render.escape import replace_surrogates, visible_controls

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@given(st.text())
def test_visible_controls_leaves_no_control_character(text: str) -> None:
    shown = visible_controls(text)
    assert not _CONTROL.search(shown)
    assert len(shown) >= len(text)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))))
def test_ordinary_text_is_unchanged(text: str) -> None:
    bidi = re.compile("[\u202a-\u202e\u2066-\u2069]")
    if not bidi.search(text):
        assert visible_controls(text) == text


@given(st.text(alphabet=st.characters(min_codepoint=0xD700, max_codepoint=0xE000)))
def test_replace_surrogates_always_encodes(text: str) -> None:
    replace_surrogates(text).encode("utf-8")


@given(st.text(st.characters(codec=None, blacklist_categories=())))
def test_replace_surrogates_replaces_exactly_the_surrogates(text: str) -> None:
    """The fast paths (ASCII, then "encodes as UTF-8") give what the one regex pass gave."""
    expected = re.sub("[\ud800-\udfff]", "\ufffd", text)
    assert replace_surrogates(text) == expected
    assert replace_surrogates(text + "\u00e9") == expected + "\u00e9"


HOSTILE_TITLE = (
    "Attention\n/tmp/r.md:1:1: error: forged\x1b]8;;http://evil\x07 Is \x1b[2J\ud800 All"
)


def hostile_verdict():  # type: ignore[no-untyped-def]
    """A tool output whose title forges a finding line, plants an OSC 8 hyperlink, clears the
    screen and holds a lone surrogate; a tool name and call id with controls of their own."""
    report = '# Notes\n\n"Dense Passage Retrieval for Open Domain QA" (arXiv:2005.11401)\n'
    calls = [
        {"tool": "s", "output": [{"arxiv": "2005.11401", "title": HOSTILE_TITLE}]},
        {"tool": "search\x1b[31m\nFAKE", "id": "c\r1", "output": None, "recorded": False},
    ]
    return report, audit(report, calls)


def test_every_renderer_of_a_verdict_encodes_and_escapes() -> None:
    """Every format of a verdict holding controls and a lone surrogate: encodable output, and
    in the formats for people no raw control character but the line breaks of its layout."""
    report, verdict = hostile_verdict()
    for kind, fmt in RENDERERS:
        if kind != "verdict":
            continue
        out = render(kind, fmt, verdict, RenderContext(path="r.md", report=report))
        out.encode("utf-8")
        if fmt in ("text", "github"):
            assert "\x1b" not in out and "\x07" not in out and "\r" not in out
            assert all(
                line.startswith(("/", "r.md", "note", "FAIL", "ok", "::"))
                for line in out.splitlines()
            )
            assert "forged" in out  # shown, not hidden
        if fmt == "html":
            assert "\x1b" not in out and "\x07" not in out


def test_text_lines_cannot_be_forged() -> None:
    _, verdict = hostile_verdict()
    out = render("verdict", "text", verdict, RenderContext(path="r.md"))
    forged = [line for line in out.splitlines() if line.startswith("/tmp/r.md")]
    assert forged == []
    assert "\\x1b]8;;http://evil\\x07" in out
