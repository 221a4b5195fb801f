"""The CLI with every scheme: extract shows each family, the URL and quote policy options reach
every command that audits."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from groundcheck.cli import build_parser, main
from groundcheck.cli.options import policy_options
from groundcheck.extractors.builtin import BUILTIN
from groundcheck.extractors.registry import scheme_table

GOLDEN = Path(__file__).parents[1] / "golden"

EVERY_FAMILY = """\
See arXiv:2005.11401v2, hep-th/9711200 and doi:10.1038/nature14539.
Web: https://www.example.org/news/story?utm_source=x and [docs](https://en.wikipedia.org/wiki/Mercury_(planet)).
PMID: 31452104; PMC3531190; ISBN 978-0-262-03561-3; 2020.acl-main.703;
https://openreview.net/forum?id=HklBjCEKvH, CorpusId:215416146, https://openalex.org/W2741809807,
https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776,
DBLP:conf/nips/VaswaniSPUJGKP17 and "Attention Is All You Need".
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("GROUNDCHECK_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


def test_extract_shows_every_family(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tmp_path / "r.md"
    report.write_text(EVERY_FAMILY, "utf-8")
    code, out, _ = run(capsys, "extract", str(report), "--no-plugins")
    assert code == 0
    golden("extract_families.txt", out.replace(str(report), "r.md"))
    code, out, _ = run(capsys, "extract", str(report), "--format", "json", "--no-plugins")
    found = {c["scheme"] for c in json.loads(out)}
    assert found == set(scheme_table(BUILTIN))  # every scheme a built-in extractor names


def test_policy_options_reach_every_auditing_command() -> None:
    parser = build_parser()
    extra = ["--allow-url", "github.com/acme", "--allow-url", "*.acme.dev"]
    extra += ["--url-severity", "warning", "--quote-min-words", "8"]
    for argv in (
        ["audit", "r.md", "--evidence", "e.json"],
        ["rate", "runs/"],
        ["compare", "a/", "b/"],
        ["ledger", "audit", "db.sqlite", "r.md"],
    ):
        options = policy_options(parser.parse_args([*argv, *extra]))
        assert options["allowed_urls"] == ("github.com/acme", "*.acme.dev"), argv
        assert options["url_severity"] == "warning"
        assert options["quote_min_words"] == 8


def test_audit_with_url_policy(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    evidence = tmp_path / "e.jsonl"
    evidence.write_text(
        '{"tool": "search", "output": "https://nasa.gov/ice water ice at the poles"}\n', "utf-8"
    )
    report = tmp_path / "r.md"
    report.write_text(
        "Ice: https://nasa.gov/ice. Code: https://github.com/acme/tool. "
        "Made up: https://nasa.gov/ice-2030.\n",
        "utf-8",
    )
    code, out, _ = run(capsys, "audit", str(report), "--evidence", str(evidence))
    assert code == 1
    assert out.count("error: fabricated-id") == 2
    code, out, _ = run(
        capsys, "audit", str(report), "--evidence", str(evidence), "--allow-url", "github.com"
    )
    assert code == 1 and out.count("fabricated-id") == 1 and "nasa.gov/ice-2030" in out
    argv = ["audit", str(report), "--evidence", str(evidence), "--allow-url", "github.com"]
    code, out, _ = run(capsys, *argv, "--url-severity", "warning")
    assert code == 0 and "warning: fabricated-id: nasa.gov/ice-2030" in out
    code, _, err = run(capsys, *argv, "--allow-url", "mailto:x@y.z")
    assert code == 2 and "allowed_urls" in err
