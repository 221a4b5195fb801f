"""A forest plot of rates with their intervals (optional: needs the ``plot`` extra)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from groundcheck.errors import ConfigError

if TYPE_CHECKING:
    from groundcheck.batch import RateReport

__all__ = ["forest_plot", "forest_svg"]

INSTALL_HINT = "pip install 'groundcheck-citations[plot]'"


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError(f"plotting needs matplotlib, which is optional: {INSTALL_HINT}") from None
    return plt


def forest_plot(report: RateReport, path: str | Path) -> Path:
    """Draw each group's run rate with its interval (and the pooled rate) to PNG or SVG."""
    out = Path(path)
    if out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ConfigError(f"--plot wants a .png, .svg or .pdf file, got {out.name!r}")
    plt = _pyplot()
    fig = _figure(plt, report)
    fig.savefig(out, dpi=150)
    plt.close(fig)
    return out


def forest_svg(report: RateReport) -> str | None:
    """The forest plot as an inline ``<svg>`` element (text as paths: no font to fetch), or
    None when matplotlib is not installed. Same report, same bytes."""
    try:
        plt = _pyplot()
    except ConfigError:
        return None
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "groundcheck", "svg.fonttype": "path"}):
        fig = _figure(plt, report)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
        plt.close(fig)
    svg = buffer.getvalue()
    return svg[svg.index("<svg") :]


def _figure(plt: Any, report: RateReport) -> Any:
    rows = [*report.groups, report.overall]
    # Group names are data: a "$" would start matplotlib's mathtext (and may not parse).
    labels = [f"{g.name} ({g.flagged}/{g.runs})".replace("$", r"\$") for g in rows]
    fig, ax = plt.subplots(figsize=(7, 0.55 * len(rows) + 1.4))
    for y, g in enumerate(reversed(rows)):
        r = g.run_rate
        pooled = g is report.overall
        ax.plot([r.low * 100, r.high * 100], [y, y], color="black" if pooled else "#1f5fa8", lw=2)
        ax.plot(
            [r.estimate * 100],
            [y],
            marker="D" if pooled else "o",
            markersize=8 if pooled else 6,
            color="black" if pooled else "#1f5fa8",
        )
    ax.axvline(
        report.target * 100, color="#b22222", ls="--", lw=1, label=f"target {report.target:.1%}"
    )
    ax.set_yticks(range(len(rows)), list(reversed(labels)))
    ax.set_xlabel(f"runs flagged (%), {report.confidence:.0%} Wilson interval")
    ax.set_xlim(left=0)
    ax.set_title("Fabrication rate by group")
    ax.legend(loc="lower right", frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
