"""The HTML pages in a real browser: Debian's chromium, headless, with the network cut off.

The DOM after the page's script has run (``--dump-dom``) shows the script worked (the panel
holds the selected citation's evidence or reason); the screenshot shows the highlights were
painted. ``.ci/run`` installs chromium, so in CI this test runs; elsewhere it is skipped when
no chromium is installed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from groundcheck import audit
from groundcheck.batch import rate
from groundcheck.render import RenderContext, render

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)

if CHROMIUM is None and os.environ.get("CI"):  # CI installs it: missing there is a failure
    raise RuntimeError("CI must install chromium (.ci/run) for the HTML browser test")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


def chromium(tmp_path: Path, url: str, *args: str) -> str:
    """Run headless chromium on ``url``; its stdout (the DOM, with --dump-dom)."""
    assert CHROMIUM is not None
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    result = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-extensions",
            # Every host name fails to resolve: a page that needed the network would show it.
            "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--user-data-dir={profile}",
            *args,
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def review_page(tmp_path: Path) -> tuple[Path, object]:
    report = (SCENARIOS / "review_with_references.md").read_text("utf-8")
    verdict = audit(report, SCENARIOS / "rag_search.json")
    page = tmp_path / "review.html"
    ctx = RenderContext(path="review_with_references.md", report=report, version="test")
    page.write_text(render("verdict", "html", verdict, ctx), "utf-8")
    return page, verdict


def panel(dom: str) -> str:
    match = re.search(r'<div id="panel-body"[^>]*>(.*?)</div></aside>', dom, re.S)
    assert match is not None, dom[-2000:]
    return match.group(0)


def test_script_runs_and_the_panel_shows_the_selected_citation(tmp_path: Path) -> None:
    page, verdict = review_page(tmp_path)
    ordered = sorted(verdict.citations, key=lambda g: g.citation.sort_key())  # type: ignore[attr-defined]
    grounded = next(n for n, g in enumerate(ordered, 1) if g.grounded and not g.citation.is_title)
    fabricated = next(
        n for n, g in enumerate(ordered, 1) if not g.grounded and not g.citation.is_title
    )

    dom = chromium(tmp_path, f"{page.as_uri()}#c{fabricated}", "--dump-dom")
    assert 'data-ready="1"' in dom and 'class="js"' in dom
    shown = panel(dom)
    assert f'data-shown="{fabricated}"' in shown
    assert "fabricated-id" in shown and "is not in any tool output" in shown
    assert len(re.findall(r'<mark class="cite [a-z]+ selected"', dom)) == 1

    dom = chromium(tmp_path, f"{page.as_uri()}#c{grounded}", "--dump-dom")
    shown = panel(dom)
    assert f'data-shown="{grounded}"' in shown
    assert "Evidence that grounded it" in shown
    for call in ordered[grounded - 1].calls:
        assert f"<code>{call}</code>" in shown


def _colours(png: Path) -> set[tuple[int, int, int]]:
    from matplotlib.image import imread  # a test dependency; reads PNG without Pillow

    pixels = (imread(str(png))[:, :, :3] * 255).round().astype(int)
    return {tuple(p) for p in pixels.reshape(-1, 3)[::3].tolist()}


def _near(colours: set[tuple[int, int, int]], target: tuple[int, int, int], tol: int = 6) -> bool:
    return any(all(abs(a - b) <= tol for a, b in zip(c, target, strict=True)) for c in colours)


def test_screenshot_paints_the_verdicts(tmp_path: Path) -> None:
    """The highlights are painted: error red, grounded green, the FAIL badge, no blank page."""
    page, _ = review_page(tmp_path)
    shot = tmp_path / "shot.png"
    chromium(tmp_path, page.as_uri(), f"--screenshot={shot}", "--window-size=1280,900")
    assert shot.stat().st_size > 10_000
    colours = _colours(shot)
    assert _near(colours, (0xFF, 0xD8, 0xD3)), "no error highlight painted"
    assert _near(colours, (0xD3, 0xF5, 0xDB)), "no grounded highlight painted"
    assert _near(colours, (0xCF, 0x22, 0x2E)), "no FAIL badge painted"


def test_rate_page_renders_the_inline_plot(tmp_path: Path) -> None:
    report = rate([str(ROOT / "examples/batch/manifest.jsonl")], workers=1)
    page = tmp_path / "rate.html"
    page.write_text(render("rate", "html", report, RenderContext(version="test")), "utf-8")
    dom = chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert "<svg" in dom and 'id="groups"' in dom
    shot = tmp_path / "rate.png"
    chromium(tmp_path, page.as_uri(), f"--screenshot={shot}", "--window-size=1100,1000")
    assert _near(_colours(shot), (0x1F, 0x5F, 0xA8), tol=12), "the forest plot was not painted"
