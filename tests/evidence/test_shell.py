"""Which files a shell command writes (the agent's words), names (a download's file) or reads."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundcheck.evidence.shell import NAMED, READ, WROTE, file_effects

CASES = [
    ("cat > notes.md <<'EOF'\nDPR 2004.04906\n> quoted line\nEOF", [("notes.md", WROTE)]),
    ("cat <<EOF > notes.md\nx\nEOF", [("notes.md", WROTE)]),
    ('echo "DPR 2004.04906" >> refs.txt', [("refs.txt", WROTE)]),
    ("printf '%s\\n' a b | tee -a log.md", [("log.md", WROTE)]),
    ("tee review.md <<'EOF'\nx\nEOF", [("review.md", WROTE)]),
    ("curl -sL https://arxiv.org/pdf/2005.11401 -o papers/2005.11401_rag.pdf",
     [("papers/2005.11401_rag.pdf", NAMED)]),
    ("wget -q -O dpr.pdf https://arxiv.org/pdf/2004.04906", [("dpr.pdf", NAMED)]),
    ("curl -s https://example.org/page > page.html", [("page.html", NAMED)]),
    ("curl -s https://example.org/page | tee page.html", [("page.html", NAMED)]),
    ("python search.py --q moe > results.json", [("results.json", NAMED)]),
    ("mkdir -p papers/2101.03961_switch && touch papers/x.md",
     [("papers/2101.03961_switch", NAMED), ("papers/x.md", NAMED)]),
    ("mv download.pdf papers/", [("papers/download.pdf", NAMED)]),
    ("cp notes.md notes-v2.md", [("notes-v2.md", NAMED)]),
    ("echo x > n.md && cp n.md m.md", [("n.md", WROTE), ("m.md", WROTE)]),
    ("cat notes.md", [("notes.md", READ)]),
    ("grep -n DPR notes.md | head -5", [("notes.md", READ)]),
    ("sed -n '1,20p' review/literature.md", [("review/literature.md", READ)]),
    ("pandoc notes.md -o notes.pdf", [("notes.pdf", NAMED)]),
    ("ls 2>/dev/null > /dev/null", []),
    ("make 2> build.log", []),
    ("bash -lc 'cat > a.md <<\"EOF\"\nx\nEOF'", [("a.md", WROTE)]),
    ("/bin/zsh -c \"echo hi > b.md\"", [("b.md", WROTE)]),
    ("apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n"
     "*** Add File: docs/new.md\n+x\n*** End Patch\nPATCH",
     [("src/app.py", WROTE), ("docs/new.md", WROTE)]),
    ("git diff > changes.patch; cat changes.patch",
     [("changes.patch", NAMED), ("changes.patch", READ)]),
]  # fmt: skip


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[c for c, _ in CASES])
def test_file_effects(command: str, expected: list[tuple[str, str]]) -> None:
    assert [(e.path, e.kind) for e in file_effects(command)] == expected


def test_heredoc_bodies_are_not_commands() -> None:
    """A Markdown block quote inside a heredoc ("> note") is text, not a redirect."""
    effects = file_effects("cat > r.md <<'EOF'\n> see 2004.04906.md\ncurl x -o y.pdf\nEOF")
    assert [(e.path, e.kind) for e in effects] == [("r.md", WROTE)]


def test_hostile_commands_are_read_in_linear_time() -> None:
    """A huge heredoc, a huge line and deep bash -c nesting: bounded work, no crash."""
    body = "\n".join(f"> line {i}" for i in range(100_000))
    assert len(file_effects(f"cat > n.md <<'EOF'\n{body}\nEOF")) == 1
    assert file_effects("echo " + "a" * 1_000_000 + " > x.md") == []  # the tail is not parsed
    nested = "echo hi > z.md"
    for _ in range(9):  # 118 kB of quotes; only three levels are opened
        nested = "bash -c " + shlex.quote(nested)
    assert file_effects(nested) == []


@given(st.text(max_size=300))
def test_any_text_is_read_without_error(command: str) -> None:
    for effect in file_effects(command):
        assert effect.kind in (WROTE, NAMED, READ)
        assert effect.path
