"""Property tests: any disguise of an identifier reads as that identifier, in both directions.

An id is drawn (modern arXiv, old-style arXiv, DOI), then written with a random mix of the
disguise classes of issue 18: look-alike characters (digits of other scripts, fullwidth
forms, dashes of every width in archive names, look-alike slashes, upper case), characters
inserted between its characters (invisible format characters, raw or as an entity or a
percent-escape), at most one line break of any kind where the grammar cannot stop, Markdown
escapes and emphasis, prefixes and URLs, a space after the dot behind an ``arXiv:`` prefix.

- written in a report with no tool returning it, it is one ``fabricated-id`` with the right
  canonical id, and its span is exactly the written characters of the id;
- written (in another disguise) in a tool output, it grounds the plain citation and a
  disguised one: no error.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from attrs import frozen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundcheck import audit
from groundcheck.extractors.arxiv import LEGACY_ARCHIVES
from groundcheck.text import DASHES, HYPHENS

UNRELATED = [{"tool": "search", "output": [{"arxiv_id": "2101.03961", "title": "Switch"}]}]
INTRO, OUTRO = "Intro text.\n", "\nMore text."


@frozen
class Atom:
    """One character of an identifier and what it is (which disguises fit it)."""

    char: str
    role: str  # digit, dot, slash, dash, letter, version


@frozen
class Plain:
    """An identifier as atoms, with the gaps where a line break may sit, and its canonical id."""

    scheme: str
    kind: str  # modern, legacy, doi
    canonical: str
    atoms: tuple[Atom, ...]
    breakable: frozenset[int]  # gap i sits between atoms i-1 and i
    breakable_with_prefix: frozenset[int]
    prefixes: tuple[str, ...]


def _atoms(text: str, roles: dict[str, str] | None = None) -> list[Atom]:
    out = []
    for ch in text:
        if ch.isdigit():
            role = "digit"
        elif ch == ".":
            role = "dot"
        elif ch == "/":
            role = "slash"
        elif ch == "-":
            role = "dash"
        else:
            role = (roles or {}).get(ch, "letter")
        out.append(Atom(ch, role))
    return out


@st.composite
def modern_ids(draw: st.DrawFn) -> Plain:
    year = draw(st.integers(7, 25))
    month = draw(st.integers(4 if year == 7 else 1, 12))
    yymm = f"{year:02d}{month:02d}"
    width = 4 if yymm <= "1412" else 5
    seq = f"{draw(st.integers(1, 10**width - 1)):0{width}d}"
    version = draw(st.sampled_from(["", "v1", "v2", "v12"]))
    atoms = _atoms(f"{yymm}.{seq}") + [Atom(c, "version") for c in version]
    dot = 4
    return Plain(
        "arxiv",
        "modern",
        f"{yymm}.{seq}",
        tuple(atoms),
        breakable=frozenset(range(dot + 1, dot + 1 + width)),  # after the dot, in the sequence
        breakable_with_prefix=frozenset(range(1, dot + 1 + width)),  # also in the YYMM
        prefixes=("", "arXiv:", "arXiv ", "ArXiV:", "https://arxiv.org/abs/"),
    )


@st.composite
def legacy_ids(draw: st.DrawFn) -> Plain:
    archive = draw(st.sampled_from(sorted(LEGACY_ARCHIVES)))
    first, last = LEGACY_ARCHIVES[archive]
    yyyymm = draw(st.integers(first, last).filter(lambda v: 1 <= v % 100 <= 12))
    number = f"{draw(st.integers(1, 999)):03d}"
    digits = f"{yyyymm // 100 % 100:02d}{yyyymm % 100:02d}{number}"
    subject = draw(st.sampled_from(["", ".AG", ".GT"])) if archive == "math" else ""
    version = draw(st.sampled_from(["", "v1", "v3"]))
    written = f"{archive}{subject}/{digits}"
    atoms = _atoms(written) + [Atom(c, "version") for c in version]
    slash = written.index("/")
    gaps = frozenset(range(1, slash + 1 + 7))  # inside the name, around the slash, the digits
    return Plain(
        "arxiv",
        "legacy",
        f"{archive}/{digits}",
        tuple(atoms),
        breakable=gaps,
        breakable_with_prefix=gaps,
        prefixes=("", "arXiv:", "https://arxiv.org/abs/"),
    )


@st.composite
def dois(draw: st.DrawFn) -> Plain:
    registrant = str(draw(st.integers(1000, 99999).filter(lambda r: r != 48550)))
    words = draw(
        st.lists(st.text("abcdefghjkmnpqrstuwxyz0123456789", min_size=1, max_size=6), min_size=1)
    )
    suffix = ".".join(words[:4])
    written = f"10.{registrant}/{suffix}"
    slash = written.index("/")
    return Plain(
        "doi",
        "doi",
        written,
        tuple(_atoms(written)),
        breakable=frozenset(range(1, slash + 2)),  # in "10.", the registrant, after the slash
        breakable_with_prefix=frozenset(range(1, slash + 2)),
        prefixes=("", "doi:", "DOI: ", "https://doi.org/", "http://dx.doi.org/"),
    )


DIGIT_FORMS: list[Callable[[str], str]] = [
    lambda d: chr(ord(d) + 0xFEE0),  # fullwidth
    lambda d: chr(0x0660 + int(d)),  # Arabic-Indic
    lambda d: chr(0x1D7CE + int(d)),  # mathematical bold
    lambda d: chr(0x0966 + int(d)),  # Devanagari
]
ENCODED_DIGIT_FORMS: list[Callable[[str], str]] = [
    lambda d: f"&#{ord(d)};",
    lambda d: f"&#x{ord(d):x};",
    lambda d: f"\\u{ord(d):04x}",
]
DOT_FORMS = ["\uff0e"]
ENCODED_DOT_FORMS = ["&#46;", "%2E", "\\."]
SLASH_FORMS = ["\u2215", "\u2044", "\uff0f", "\u29f8"]
ENCODED_SLASH_FORMS = ["%2F", "\\/", "&#47;"]
DASH_FORMS = sorted(DASHES) + sorted(HYPHENS) + ["\ufe63", "\uff0d"]
ENCODED_DASH_FORMS = ["\\-", "&#8211;"]
INVISIBLES = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\u00ad",
    "\ufeff",
    "\u200e",
    "\u202a",
    "\u2066",
    "\u034f",
    "\ufe0f",
    "\ufe00",
    "\U000e0100",
    "\U000e01ef",
    "\U000e0041",
    "\U000e007f",
    "\u180b",
    "\u206a",
]
ENCODED_INVISIBLES = [
    "&shy;",
    "&#173;",
    "&#8203;",
    "&#x200B;",
    "&zwj;",
    "&zwnj;",
    "&ZeroWidthSpace;",
    "&NoBreak;",
    "&#65039;",
    "%E2%80%8B",
    "%C2%AD",
    "%E2%81%A0",
    "%EF%BB%BF",
]
BREAKS = ["\n", "\r\n", "\r", "\v", "\f", "\x85", "\u2028", "\u2029", "\n    "]
EMPHASIS = ["**", "*", "_", "__"]


@frozen
class Written:
    text: str
    start: int  # where the identifier's characters begin in ``text``
    end: int


@st.composite
def disguised(draw: st.DrawFn, plain: Plain) -> Written:
    """``plain`` written with a random mix of disguises; where its characters start and end."""
    prefix = draw(st.sampled_from(plain.prefixes))
    url = prefix.startswith("http")
    arxiv_prefix = prefix.lower().startswith("arxiv")
    gaps = plain.breakable_with_prefix if arxiv_prefix else plain.breakable
    break_at = draw(st.sampled_from(sorted(gaps))) if draw(st.booleans()) else None
    # Only one of: a line break, emphasis inside the id, a space after the dot.
    extra = draw(st.sampled_from(["", "emphasis", "space"])) if break_at is None else ""
    if extra == "space" and not (plain.kind == "modern" and arxiv_prefix):
        extra = ""
    encoded_ok = break_at is None and extra != "space" and not url
    separator = "dot" if plain.kind == "modern" else "slash"
    after_dot_or_slash = next(i + 1 for i, a in enumerate(plain.atoms) if a.role == separator)
    pieces: list[str] = []
    for i, atom in enumerate(plain.atoms):
        if i and break_at == i:
            pieces.append(draw(st.sampled_from(BREAKS)))
        if extra and i == after_dot_or_slash:
            if extra == "emphasis":  # "2005.*11401*", "hep-th/*9711200*", "10.1000/*x*"
                pieces.append(draw(st.sampled_from(["*", "**"])))
            else:  # "arXiv:2005. 11401"
                pieces.append(draw(st.sampled_from([" ", "  ", "\t"])))
        elif i and break_at != i and draw(st.integers(0, 5)) == 0:
            options = INVISIBLES + (ENCODED_INVISIBLES if encoded_ok else [])
            pieces.append(draw(st.sampled_from(options)))
        # A break or an emphasis marker is found by the characters beside it: keep those as
        # characters (of any script), not escapes.
        beside = i in (break_at, (break_at or 0) - 1) or (
            extra != "" and i in (after_dot_or_slash - 1, after_dot_or_slash)
        )
        pieces.append(_disguise_atom(draw, atom, encoded_ok and not beside))
    core = "".join(pieces)
    closing_emphasis = "*" if extra == "emphasis" else ""
    # Emphasis around the id: "**2005.11401**" (not with an arXiv prefix before a break inside
    # the YYMM, which must touch the prefix, nor inside a URL).
    around = ""
    if not url and (break_at is None or break_at in plain.breakable):
        around = draw(st.sampled_from(["", *EMPHASIS]))
    wrapped, closing = prefix, ""
    if url and draw(st.booleans()):
        wrapped, closing = f"[the paper]({prefix}", ")"
    text = f"{wrapped}{around}{core}{closing_emphasis}{around}{closing}"
    start = len(wrapped) + len(around)
    return Written(text, start, start + len(core))


def _disguise_atom(draw: st.DrawFn, atom: Atom, encoded_ok: bool) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return atom.char
    if atom.role == "digit":
        forms = DIGIT_FORMS + (ENCODED_DIGIT_FORMS if encoded_ok else [])
        return draw(st.sampled_from(forms))(atom.char)
    if atom.role == "dot":
        return draw(st.sampled_from(DOT_FORMS + (ENCODED_DOT_FORMS if encoded_ok else [])))
    if atom.role == "slash":
        return draw(st.sampled_from(SLASH_FORMS + (ENCODED_SLASH_FORMS if encoded_ok else [])))
    if atom.role == "dash":
        return draw(st.sampled_from(DASH_FORMS + (ENCODED_DASH_FORMS if encoded_ok else [])))
    if atom.role == "letter":
        return atom.char.upper()
    return atom.char


def _report(written: Written) -> tuple[str, int, int]:
    return INTRO + written.text + OUTRO, len(INTRO) + written.start, len(INTRO) + written.end


ids = st.one_of(modern_ids(), legacy_ids(), dois())
PROPERTY = settings(
    # GROUNDCHECK_DISGUISE_EXAMPLES=20000 for a longer local run
    max_examples=int(os.environ.get("GROUNDCHECK_DISGUISE_EXAMPLES", "400")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@PROPERTY
@given(st.data())
def test_every_disguise_of_a_fabricated_id_is_flagged_at_its_written_characters(
    data: st.DataObject,
) -> None:
    """One fabricated-id, with the canonical id, spanning exactly the id as written."""
    plain = data.draw(ids)
    written = data.draw(disguised(plain))
    report, start, end = _report(written)
    verdict = audit(report, UNRELATED)
    fabricated = [f.citation for f in verdict.findings if f.code == "fabricated-id"]
    assert [(c.scheme, c.id) for c in fabricated if c] == [(plain.scheme, plain.canonical)], (
        written.text,
        verdict.findings,
    )
    citation = fabricated[0]
    assert citation is not None
    assert report[citation.start : citation.end] == citation.raw
    # An id written in an identifier URL is cited as the whole link (the url extractor's
    # mention, counted once): the span then starts at the URL and still ends at the id.
    in_url = report[citation.start : start].lower().startswith(("http", "www"))
    assert (citation.start, citation.end) == (start, end) or (in_url and citation.end == end), (
        written.text,
        citation.raw,
    )
    assert not [f for f in verdict.findings if f.code == "malformed-id"]


@PROPERTY
@given(st.data())
def test_every_disguise_of_a_returned_id_is_grounded_both_ways(data: st.DataObject) -> None:
    """A disguised id in a tool output grounds the plain citation and a disguised one."""
    plain = data.draw(ids)
    in_output = data.draw(disguised(plain))
    in_report = data.draw(disguised(plain))
    evidence = [{"tool": "search", "output": f"Result: {in_output.text} (score 0.9)"}]
    prefix = "doi:" if plain.scheme == "doi" else "arXiv:"
    report = f"We rely on {prefix}{plain.canonical}.\nSee also {in_report.text} for details."
    verdict = audit(report, evidence)
    assert verdict.ok, (in_output.text, in_report.text, verdict.findings)


def test_the_disguise_classes_are_all_drawn() -> None:
    """The generator's vocabulary covers every class named in issue 18."""
    assert {"\u2012", "\u2013", "\u2014", "\u2015", "\ufe58", "\ufe63", "\uff0d", "\u2043"} <= set(
        DASH_FORMS
    )
    assert {"\r", "\v", "\f", "\x85", "\u2028", "\u2029"} <= set("".join(BREAKS))
    assert {"\u2215", "\u2044"} <= set(SLASH_FORMS)
    assert {"&shy;", "&#8203;"} <= set(ENCODED_INVISIBLES)
    assert any("\ufe00" <= c <= "\ufe0f" for c in INVISIBLES)  # variation selectors
    assert any("\U000e0000" <= c <= "\U000e007f" for c in INVISIBLES)  # tag characters
