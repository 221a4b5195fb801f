"""A forest plot of rates with their intervals (optional: needs the ``plot`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from groundcheck.errors import ConfigError

if TYPE_CHECKING:
    from groundcheck.batch import RateReport

__all__ = ["forest_plot"]


def forest_plot(report: RateReport, path: str | Path) -> Path:
    """Draw each group's run rate with its interval (and the pooled rate) to PNG or SVG."""
    out = Path(path)
    if out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ConfigError(f"--plot wants a .png, .svg or .pdf file, got {out.name!r}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError(
            "plotting needs matplotlib, which is optional: pip install 'groundcheck[plot]'"
        ) from None
    rows = [*report.groups, report.overall]
    labels = [f"{g.name} ({g.flagged}/{g.runs})" for g in rows]
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
    fig.savefig(out, dpi=150)
    plt.close(fig)
    return out
