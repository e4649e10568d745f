"""Map2Route reports laid out like the paper's Table II: markdown, CSV, JSON and a bar chart.

The files are written with the shared writers of :mod:`map2route.bench.report`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib.figure import Figure

from map2route.bench.report import csv_text, write_json, write_png
from map2route.files import atomic_write_text

if TYPE_CHECKING:
    from pathlib import Path

#: Table II columns: key, header, arrow, format.
COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("hcs", "HCS", "↑", "{:.3f}"),
    ("success", "Success", "↑", "{:.3f}"),
    ("near", "Near", "↓", "{:.2f}"),
    ("far", "Far", "↑", "{:.2f}"),
    ("relative", "Relative", "↑", "{:.2f}"),
    ("path_shape", "Path-Shape", "↑", "{:.2f}"),
    ("clearance", "Clearance", "↑", "{:.2f}"),
    ("pl", "PL", "", "{:.1f}"),
    ("spl", "SPL", "↑", "{:.2f}"),
)
GROUPS = (("easy", "Easy"), ("hard", "Hard"), ("human", "Human-style"), ("all", "All"))


def _cell(value: Any, fmt: str) -> str:
    return "–" if value is None else fmt.format(value)


def table_markdown(summaries: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Table II in markdown: one block of rows per difficulty, one row per method.

    Args:
        summaries: method name -> :func:`map2route.bench.map2route.scoring.summarize` output.
    """
    header = "| Method | " + " | ".join(f"{h} {a}".strip() for _, h, a, _ in COLUMNS) + " | n |"
    sep = "| --- |" + " --- |" * (len(COLUMNS) + 1)
    lines = [header, sep]
    for key, title in GROUPS:
        rows = [(name, s[key]) for name, s in summaries.items() if key in s]
        if not rows:
            continue
        lines.append(f"| **{title}** |" + " |" * (len(COLUMNS) + 1))
        for name, row in rows:
            cells = [_cell(row.get(k), fmt) for k, _, _, fmt in COLUMNS]
            lines.append(f"| {name} | " + " | ".join(cells) + f" | {row['episodes']} |")
    return "\n".join(lines) + "\n"


def table_csv(summaries: dict[str, dict[str, dict[str, Any]]]) -> str:
    """The same numbers as CSV, full precision: ``method,difficulty,episodes,hcs,...``."""
    keys = [k for k, _, _, _ in COLUMNS]
    rows = [[name, group, s[group]["episodes"],
             *["" if s[group].get(k) is None else f"{s[group][k]:.6g}" for k in keys]]
            for name, s in summaries.items() for group, _ in GROUPS if group in s]
    return csv_text(["method", "difficulty", "episodes", *keys], rows)


def bar_chart_png(summaries: dict[str, dict[str, dict[str, Any]]], path: Path, *,
                  title: str = "Map2Route") -> Path:
    """One panel per metric, bars per method, Easy and Hard side by side; written atomically."""
    fig = Figure(figsize=(2.1 * len(COLUMNS), 3.2))  # no pyplot: no global figure state
    axes = fig.subplots(1, len(COLUMNS))
    methods = list(summaries)
    width = 0.8 / max(1, len(methods))
    colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (key, header, arrow, _) in zip(axes, COLUMNS, strict=True):
        for mi, name in enumerate(methods):
            vals = [summaries[name].get(g, {}).get(key) for g in ("easy", "hard")]
            xs = [gi + mi * width for gi in range(2)]
            ax.bar(xs, [0.0 if v is None else v for v in vals], width=width,
                   color=colours[mi % len(colours)], label=name)
        ax.set_xticks([gi + (len(methods) - 1) * width / 2 for gi in range(2)])
        ax.set_xticklabels(["Easy", "Hard"])
        ax.set_title(f"{header} {arrow}".strip(), fontsize=9)
        ax.tick_params(labelsize=8)
    axes[0].legend(fontsize=7, loc="upper right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    write_png(fig, path, dpi=120)
    return path


def write_reports(out_dir: Path, summaries: dict[str, dict[str, dict[str, Any]]], *,
                  title: str = "Map2Route") -> dict[str, Path]:
    """Write ``summary.json``, ``table.md``, ``table.csv`` and ``metrics.png`` into ``out_dir``."""
    paths = {"json": out_dir / "summary.json", "markdown": out_dir / "table.md",
             "csv": out_dir / "table.csv", "png": out_dir / "metrics.png"}
    write_json(paths["json"], summaries, indent=1)
    atomic_write_text(paths["markdown"], table_markdown(summaries))
    atomic_write_text(paths["csv"], table_csv(summaries))
    bar_chart_png(summaries, paths["png"], title=title)
    return paths
