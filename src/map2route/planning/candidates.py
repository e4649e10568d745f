"""Candidate routes per stage, scored by the soft metrics under a length budget.

Near, Far and Relative are scored as *means* over the route's points inside a preference's
active region (the official evaluator's ``_near_or_far_detail`` / ``_relative_detail``:
every point of the grid path, consecutive repeats removed). A non-negative per-cell cost
cannot make an optimal route lengthen itself to collect near (or far) points, and a single
band sub-goal only touches the band. Here a stage gets a few alternative sub-goal lists for
one preference (docs/planner.md, "Candidate routes"):

- *pass along*: enter the band at ``e1`` (where the planned route first reaches it) and leave
  it at ``e2``, one of a few band cells (the one nearest the next required sub-goal, the one
  farthest from ``e1``, one half-way), so the leg ``e1 -> e2`` runs along the reference;
- *without* the band (the plain plan on the stage cost map);
- for Relative, the band cell farthest from B and Dinkelbach via cells
  (:func:`best_ratio_cell`); for Near / Relative a loop round the reference (:func:`ring_cells`).

With ``evaluator_window`` every candidate is scored over the evaluator's own window
(:func:`window_points`) of the route planned so far.

Each candidate is planned with the same A* legs and scored by the metric's own estimate
(:func:`metric_value`); the best one is kept if it does not lower any other preference
active in the stage and its length stays within ``(1 + length_budget)`` of the stage's
shortest feasible length (the hard-only plan from the same start). Hand-written: the scoring
is the benchmark's, read on our own leg representation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from map2route.gridsearch.kernel import SQRT2
from map2route.routeir.model import Constraint, ConstraintKind

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.gridsearch.kernel import GridPath
    from map2route.planning.costmap import DistanceFields, StageCostMap

#: A mask's cells as ``np.nonzero`` gives them (rows, cols).
Cells = tuple["NDArray[np.intp]", "NDArray[np.intp]"]
#: A Far pass leaves the band among the active cells within this of the farthest distance (m).
FAR_EXIT_BAND_M = 1.0
#: Fractions of the largest ``e1`` distance at which the pass-along exits are picked.
_EXIT_FRACTIONS = (1.0, 0.5)


@dataclass(frozen=True, eq=False)
class SoftWaypoint:
    """An optional sub-goal the planner adds for a Near / Relative / Far preference (not in the IR).

    Attributes:
        before: index of the stage sub-goal it precedes (0 = the first waypoint,
            ``len(waypoints)`` = the target).
        mask: the band's usable cells (traversable, outside every active must-avoid).
        constraint: index into ``ir.constraints`` of the preference it serves.
        cmap: the cost map of the leg to it, if not the stage's (one that keeps the leg out
            of the stage's target, so the evaluator's window does not end before it).
    """

    before: int
    mask: NDArray[np.bool_]
    constraint: int
    cmap: StageCostMap | None = None


def cells_length_m(cells: NDArray[np.int32], resolution: float) -> float:
    """The length of a grid path in metres (diagonal steps count sqrt 2 cells)."""
    if cells.shape[0] < 2:
        return 0.0
    step = np.abs(np.diff(cells.astype(np.int64), axis=0)).sum(axis=1)
    return float(np.where(step == 2, SQRT2, 1.0).sum() * resolution)


def route_points(legs: Sequence[GridPath]) -> NDArray[np.int32]:
    """The stage's grid points in order, consecutive repeats removed (the evaluator's reading)."""
    if not legs:
        return np.zeros((0, 2), dtype=np.int32)
    cells = np.concatenate([leg.cells for leg in legs])
    if cells.shape[0] < 2:
        return cells
    keep = np.ones(cells.shape[0], dtype=bool)
    keep[1:] = np.any(cells[1:] != cells[:-1], axis=1)
    return cells[keep]


def metric_value(c: Constraint, points: NDArray[np.int32], active: NDArray[np.bool_],
                 fields: DistanceFields) -> float | None:
    """The official value of a preference on ``points``, signed so that higher is better.

    Near / Path-Shape: minus the mean distance to the reference over the points inside
    ``active`` (every point counts); Far: that mean; Relative: ``mean d_B / mean d_A`` (no
    eps, as the evaluator; ``None`` when ``mean d_A`` is 0, as its ``raw_value: None``).
    ``None`` when no point lies inside ``active``.
    """
    if not points.shape[0]:
        return None
    inside = points[active[points[:, 0], points[:, 1]]]
    if not inside.shape[0]:
        return None
    d = fields.to_region(c.region)[inside[:, 0], inside[:, 1]]
    if c.kind in (ConstraintKind.NEAR, ConstraintKind.PATH_SHAPE):
        return -float(d.mean())
    if c.kind is ConstraintKind.FAR:
        return float(d.mean())
    if c.kind is ConstraintKind.RELATIVE and c.other is not None:
        d_a = float(d.mean())
        if d_a <= 1e-6:
            return None
        d_b = fields.to_region(c.other)[inside[:, 0], inside[:, 1]]
        return float(d_b.mean()) / d_a
    return None


def first_in(points: NDArray[np.int32], mask: NDArray[np.bool_]) -> tuple[int, int] | None:
    """The first of ``points`` inside ``mask``."""
    if not points.shape[0]:
        return None
    hit = np.flatnonzero(mask[points[:, 0], points[:, 1]])
    if not hit.size:
        return None
    r, c = points[hit[0]]
    return int(r), int(c)


def exit_cells(band: NDArray[np.bool_], e1: tuple[int, int],
               to_next_m: NDArray[np.float64], *, cells: Cells | None = None
               ) -> list[tuple[int, int]]:
    """Band cells to leave the band at, for a pass along it from ``e1``.

    The band cell nearest the next sub-goal (``to_next_m``: distance to it), then for each of
    :data:`_EXIT_FRACTIONS` the band cell whose straight-line distance from ``e1`` is nearest
    that fraction of the largest one (ties: nearest the next sub-goal). Cells equal to ``e1``
    and repeats are left out. ``cells``: ``np.nonzero(band)`` if already known.
    """
    rr, cc = np.nonzero(band) if cells is None else cells
    if rr.size < 2:
        return []
    dist = np.hypot(rr - e1[0], cc - e1[1])
    far = float(dist.max())
    if far < 2.0:
        return []
    out: list[tuple[int, int]] = []
    nxt = to_next_m[rr, cc]
    picks = [int(np.argmin(np.where(np.isfinite(nxt), nxt, np.inf)))]
    for f in _EXIT_FRACTIONS:
        key = np.abs(dist - f * far) + 1e-3 * np.where(np.isfinite(nxt), nxt, 0.0)
        picks.append(int(np.argmin(key)))
    for p in picks:
        cell = (int(rr[p]), int(cc[p]))
        if cell != e1 and dist[p] >= 2.0 and cell not in out:
            out.append(cell)
    return out


def cell_mask(shape: tuple[int, int], cell: tuple[int, int]) -> NDArray[np.bool_]:
    """A mask holding one cell."""
    mask = np.zeros(shape, dtype=bool)
    mask[cell] = True
    return mask


def window_points(points: NDArray[np.int32], targets: Sequence[NDArray[np.bool_]],
                  temporal_scope: Sequence[int] | None) -> NDArray[np.int32]:
    """The part of the route the official evaluator reads for a preference (its
    ``_active_trajectory``): without a temporal scope the whole route; with stages
    ``k0..k1``, the points from the first ordered hit of must-pass ``k0`` (the start for
    ``k0 = 0``, else stage ``k0 - 1``'s target) to that of stage ``k1``'s target, each hit
    searched from the one before (``_first_ordered_waypoint_hits``). A hit not on the route
    yet (a stage not planned yet) leaves the window open to the route's end.
    """
    if not temporal_scope or not points.shape[0]:
        return points
    k0, k1 = min(temporal_scope), max(temporal_scope)
    hits: list[int | None] = [0]
    cursor = 0
    for mask in targets[:k1 + 1]:
        rest = points[cursor:]
        inside = np.flatnonzero(mask[rest[:, 0], rest[:, 1]])
        hit = cursor + int(inside[0]) if inside.size else None
        if hit is not None:
            cursor = hit
        hits.append(hit)
    lo = hits[k0] if k0 < len(hits) else None
    hi = hits[k1 + 1] if k1 + 1 < len(hits) else None
    if lo is not None and hi is not None and hi >= lo:
        return points[lo:hi + 1]
    if lo is not None:
        return points[lo:]
    if hi is not None:
        return points[:hi + 1]
    return points


def far_side_cell(band: NDArray[np.bool_], to_b_m: NDArray[np.float64], *,
                  cells: Cells | None = None) -> tuple[int, int] | None:
    """The band cell farthest from B (``to_b_m``: distance to B): for Relative, the side of A
    away from B, where a point adds most to ``D_B`` at the band's ``D_A``."""
    rr, cc = np.nonzero(band) if cells is None else cells
    d_b = np.where(np.isfinite(to_b_m[rr, cc]), to_b_m[rr, cc], -np.inf)
    if not rr.size or not np.isfinite(d_b.max()):
        return None
    p = int(np.argmax(d_b))
    return int(rr[p]), int(cc[p])


def best_ratio_cell(usable: NDArray[np.bool_], to_a_m: NDArray[np.float64],
                    to_b_m: NDArray[np.float64], ratio: float | None, *,
                    cells: Cells | None = None) -> tuple[int, int] | None:
    """For Relative (``D_B / D_A`` over the route's points), the usable cell that adds most to
    the ratio at its current value ``R``: the largest ``d_B - R d_A`` (a point raises a ratio
    of means exactly when it is positive; Dinkelbach's step). ``None`` if no cell has
    ``d_B - R d_A > 0``. ``cells``: ``np.nonzero(usable)`` if already known."""
    if ratio is None:
        return None
    rr, cc = np.nonzero(usable) if cells is None else cells
    if not rr.size:
        return None
    gain = to_b_m[rr, cc] - ratio * to_a_m[rr, cc]
    gain = np.where(np.isfinite(gain), gain, -np.inf)
    p = int(np.argmax(gain))
    if gain[p] <= 0:
        return None
    return int(rr[p]), int(cc[p])


def ring_cells(band: NDArray[np.bool_], centre: tuple[float, float], e1: tuple[int, int], *,
               clockwise: bool, steps: int = 3, cells: Cells | None = None
               ) -> list[tuple[int, int]]:
    """Band cells round ``centre`` from ``e1``, one per quarter turn (``steps`` of them, in
    order, one way round): a loop round the reference instead of a pass along one side."""
    rr, cc = np.nonzero(band) if cells is None else cells
    if rr.size < steps + 1:
        return []
    ang = np.arctan2(rr - centre[0], cc - centre[1])
    a0 = float(np.arctan2(e1[0] - centre[0], e1[1] - centre[1]))
    rel = np.mod((a0 - ang) if clockwise else (ang - a0), 2 * np.pi)
    out: list[tuple[int, int]] = []
    for s in range(1, steps + 1):
        goal = 2 * np.pi * s / (steps + 1)
        p = int(np.argmin(np.abs(rel - goal)))
        if abs(float(rel[p]) - goal) > np.pi / (steps + 1):
            return []  # the band does not go round (a wall-side object): no loop
        cell = (int(rr[p]), int(cc[p]))
        if cell not in out:
            out.append(cell)
    return out
