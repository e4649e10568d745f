"""Episode statistics of the paper's Fig. 2, per split, as a table and a figure."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.files import atomic_write_bytes

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from map2route.bench.episode import Episode

#: (key, title) of each Fig. 2 quantity.
QUANTITIES: tuple[tuple[str, str], ...] = (
    ("instruction_words", "Instruction length (words)"),
    ("rooms_traversed", "Rooms traversed"),
    ("candidate_instances", "Candidate instances"),
    ("reference_depth", "Reference depth"),
    ("trajectory_length_m", "Trajectory length (m)"),
    ("hard_constraints", "Hard constraints"),
    ("soft_constraints", "Soft constraints"),
    ("referring_expressions", "Referring expressions"),
)


def episode_quantities(ep: Episode) -> dict[str, float]:
    """The Fig. 2 quantities of one episode."""
    r = ep.reference
    return {
        "instruction_words": float(len(ep.instruction.split())),
        "rooms_traversed": float(r.rooms_traversed),
        "candidate_instances": float(r.candidate_instances),
        "reference_depth": float(r.depth),
        "trajectory_length_m": float(r.trajectory_length_m),
        "hard_constraints": float(r.hard_constraints),
        "soft_constraints": float(r.soft_constraints),
        "referring_expressions": float(len(r.referring_expressions)),
    }


def split_statistics(episodes: Sequence[Episode]) -> dict[str, dict[str, dict[str, float]]]:
    """``{group: {quantity: {mean, median, min, max}}}`` for easy, hard, dev (as present)."""
    groups: dict[str, list[dict[str, float]]] = {}
    for ep in episodes:
        groups.setdefault(ep.split, []).append(episode_quantities(ep))
    out: dict[str, dict[str, dict[str, float]]] = {}
    for name in ("easy", "hard", "dev"):
        rows = groups.get(name)
        if not rows:
            continue
        out[name] = {"episodes": {"count": float(len(rows))}}
        for key, _ in QUANTITIES:
            vals = np.array([r[key] for r in rows])
            out[name][key] = {"mean": float(vals.mean()), "median": float(np.median(vals)),
                              "min": float(vals.min()), "max": float(vals.max())}
    return out


def statistics_figure(episodes: Sequence[Episode], path: Path) -> Path:
    """Histograms of each quantity, Easy and Hard overlaid (Fig. 2 layout); PNG, atomic."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 4, figsize=(14, 6))
    data: dict[str, list[dict[str, float]]] = {}
    for ep in episodes:
        data.setdefault(ep.split, []).append(episode_quantities(ep))
    for ax, (key, title) in zip(axes.ravel(), QUANTITIES, strict=True):
        series = {name: [r[key] for r in rows] for name, rows in data.items()}
        allv = [v for vals in series.values() for v in vals]
        if not allv:
            continue
        integer = key != "trajectory_length_m"
        lo, hi = min(allv), max(allv)
        bins: Any = (np.arange(lo - 0.5, hi + 1.5) if integer and hi - lo < 40 else 20)
        for name in ("easy", "hard", "dev"):
            if name in series:
                ax.hist(series[name], bins=bins, alpha=0.55, label=name.capitalize(),
                        density=True)
        ax.set_title(title, fontsize=9)
        ax.tick_params(labelsize=8)
    axes.ravel()[0].legend(fontsize=8)
    fig.suptitle("Map2Route episode statistics (cf. paper Fig. 2)", fontsize=10)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(path, buf.getvalue())
    return path
