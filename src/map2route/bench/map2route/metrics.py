"""The Map2Route metrics (paper 000, III-C, Table I), one short function each.

Every function works on plain arrays in map metres so it can be checked by hand:

- route helpers: :func:`dense_route_cells` (the grid cells a polyline passes through),
  :func:`distinct_in_order` (the paper's W(tau): distinct locations, first-occurrence order),
  :func:`ordered_entries` (first entry into each ordered must-pass region),
- hard requirements: :func:`hard_constraint_score` (HCS and strict success S_m),
- soft preferences: :func:`near_far_value`, :func:`relative_value`, :func:`path_shape_value`,
  :func:`clearance_value`, with the worst values of a route that never enters the active region,
- efficiency: :func:`path_length_m` (PL) and :func:`spl` (SPL, III-C3).

Readings of the paper stated once here (docs/benchmark.md repeats them):

- Distances d(p, O) are closest-point distances between grid-cell centres (0.05 m cells): a route
  cell to the nearest footprint cell of O; d(p, U) to the nearest non-traversable cell.
- DTW_delta uses the per-pair cost max(0, ||a - b|| - delta), the classic DTW recursion with
  steps (1,0), (0,1), (1,1); |tau_ref| is the number of reference points.
- Relative uses eps = one cell (0.05 m) so that a route touching A cannot divide by ~0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy.spatial import cKDTree

from map2route.gridsearch.walk import clearance_m

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import ArrayLike, NDArray

    from map2route.semantic_map.grid import GridSpec

#: Path-Shape tolerance delta and success distance d_succ (paper 000, III-C2).
PATH_SHAPE_DELTA_M = 0.5
PATH_SHAPE_D_SUCC_M = 0.2
#: Relative's eps in D_B / (D_A + eps): one grid cell.
RELATIVE_EPS_M = 0.05
#: Worst values when a route never enters the active region or never completes its segment.
WORST_FAR = 0.0
WORST_RELATIVE = 0.0
WORST_PATH_SHAPE = 0.0


# --- route helpers -----------------------------------------------------------------------------
def path_length_m(points: ArrayLike) -> float:
    """PL: the length of the route polyline in metres (paper 000, III-C3)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(pts) < 2:
        return 0.0
    return float(np.linalg.norm(np.diff(pts, axis=0), axis=1).sum())


def dense_route_cells(points: ArrayLike, grid: GridSpec) -> NDArray[np.int64]:
    """The cells a polyline passes through, in order, consecutive repeats removed.

    Each segment is sampled every half cell, so a sparse route (odometry at a few hertz)
    enters the same cells a dense grid path would.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if len(pts) > 1:
        seg = np.diff(pts, axis=0)
        n = np.maximum(1, np.ceil(2 * grid.meters_to_cells(np.linalg.norm(seg, axis=1)))).astype(int)
        owner = np.repeat(np.arange(len(seg)), n)
        frac = np.concatenate([np.arange(k) / k for k in n])
        samples = pts[owner] + seg[owner] * frac[:, None]
        pts = np.vstack([samples, pts[-1:]])
    cells = grid.worlds_to_cells(pts)
    keep = np.ones(len(cells), dtype=bool)
    keep[1:] = np.any(cells[1:] != cells[:-1], axis=1)
    return cells[keep]


def distinct_in_order(cells: NDArray[np.int64]) -> NDArray[np.int64]:
    """W(tau): distinct cells, each kept at its first occurrence (paper 000, III-C2)."""
    if len(cells) == 0:
        return cells.reshape(0, 2)
    _, first = np.unique(cells, axis=0, return_index=True)
    return cells[np.sort(first)]


def cells_in_mask(cells: NDArray[np.int64], mask: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """For each cell, whether it lies inside ``mask`` (cells off the grid are outside)."""
    rows, cols = mask.shape
    r, c = cells[:, 0], cells[:, 1]
    ok = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
    out = np.zeros(len(cells), dtype=bool)
    out[ok] = mask[r[ok], c[ok]]
    return out


def ordered_entries(cells: NDArray[np.int64], regions: Sequence[NDArray[np.bool_]],
                    waypoints: Sequence[Sequence[NDArray[np.bool_]]] | None = None) -> list[int | None]:
    """Index of the first entry into each region, searching each after the previous entry.

    Region ``k`` counts only if entered at or after the index where region ``k-1`` was first
    entered (so one cell may satisfy two consecutive regions that overlap). ``None`` marks a
    region not entered in order; every later region is then ``None`` too.

    ``waypoints[k]`` (a stage's ordered Path-Shape waypoints) moves the search for region ``k``
    past the last waypoint when the route passes all of them in order, so a loop that crosses
    its own stage's target early is not cut short; a route that skips them is searched from
    the previous entry as usual (waypoints are soft, never a hard requirement).
    """
    out: list[int | None] = []
    cursor = 0
    for k, mask in enumerate(regions):
        begin = cursor
        for wp in (waypoints[k] if waypoints is not None and k < len(waypoints) else ()):
            hit = np.nonzero(cells_in_mask(cells[begin:], wp))[0]
            if hit.size == 0:
                begin = cursor
                break
            begin += int(hit[0])
        inside = np.nonzero(cells_in_mask(cells[begin:], mask))[0]
        if inside.size == 0 and begin != cursor:
            begin = cursor
            inside = np.nonzero(cells_in_mask(cells[begin:], mask))[0]
        if inside.size == 0:
            out.extend([None] * (len(regions) - len(out)))
            break
        cursor = begin + int(inside[0])
        out.append(cursor)
    return out


def stage_segments(n_cells: int, entries: Sequence[int | None]) -> list[tuple[int, int] | None]:
    """Index range ``[start, end]`` (inclusive) of each stage; ``None`` if it never completed."""
    segs: list[tuple[int, int] | None] = []
    start = 0
    for e in entries:
        if e is None:
            segs.append(None)
            continue
        segs.append((start, e))
        start = e
    if n_cells == 0:
        return [None] * len(entries)
    return segs


# --- hard requirements -------------------------------------------------------------------------
@dataclass(frozen=True)
class HardResult:
    """Per-requirement outcome of :func:`hard_constraint_score`."""

    stages_met: tuple[bool, ...]
    destination_met: bool
    avoids_met: tuple[bool, ...]

    @property
    def total(self) -> int:
        return len(self.stages_met) + len(self.avoids_met)

    @property
    def met(self) -> int:
        return sum(self.stages_met) + sum(self.avoids_met)

    @property
    def hcs(self) -> float:
        """The fraction of hard requirements met."""
        return self.met / self.total if self.total else 1.0

    @property
    def success(self) -> bool:
        """S_m: every hard requirement met."""
        return self.met == self.total


def hard_constraint_score(cells: NDArray[np.int64], stage_targets: Sequence[NDArray[np.bool_]],
                          avoid_masks: Sequence[NDArray[np.bool_]],
                          avoid_active: Sequence[NDArray[np.bool_]] | None = None) -> HardResult:
    """HCS (paper 000, III-C1): ordered must-pass regions G_i, the destination, must-avoids.

    Args:
        cells: the route's dense cell sequence.
        stage_targets: the ordered must-pass regions; the last one is the destination.
        avoid_masks: must-avoid regions.
        avoid_active: for each must-avoid, which route indices it applies to (its temporal
            scope); ``None`` means the whole route.

    Returns:
        Must-pass region ``i`` is met when entered after region ``i-1``; the destination (the
        last region) is met when entered in order *and* the route ends inside it; a must-avoid
        is met when no active route cell lies inside it.
    """
    entries = ordered_entries(cells, stage_targets)
    stages_met = [e is not None for e in entries]
    destination_met = bool(stages_met and stages_met[-1] and len(cells)
                           and cells_in_mask(cells[-1:], stage_targets[-1])[0])
    if stages_met:
        stages_met[-1] = destination_met
    avoids: list[bool] = []
    for k, mask in enumerate(avoid_masks):
        hit = cells_in_mask(cells, mask)
        if avoid_active is not None:
            hit &= avoid_active[k]
        avoids.append(not bool(hit.any()))
    return HardResult(stages_met=tuple(stages_met), destination_met=destination_met,
                      avoids_met=tuple(avoids))


# --- soft preferences (Table I) ------------------------------------------------------------------
def closest_distances(points: NDArray[np.float64], reference: NDArray[np.float64]) -> NDArray[np.float64]:
    """d(p, O) for every point: distance to the nearest reference point (metres)."""

    if len(reference) == 0:
        return np.full(len(points), np.inf)
    d, _ = cKDTree(reference).query(points)
    return np.asarray(d, dtype=np.float64)


def near_far_value(window: NDArray[np.float64], reference: NDArray[np.float64]) -> float:
    """Near and Far (Table I): mean closest-point distance to O over W_R(tau).

    Near is better lower, Far higher; both are the same mean. ``window`` must be non-empty.
    """
    return float(closest_distances(window, reference).mean())


def near_worst_value(region_points: NDArray[np.float64], reference: NDArray[np.float64]) -> float:
    """Near's worst value: the largest d(p, O) over the active region's traversable cells."""
    if len(region_points) == 0:
        return 0.0
    return float(closest_distances(region_points, reference).max())


def relative_value(window: NDArray[np.float64], closer: NDArray[np.float64],
                   farther: NDArray[np.float64], *, eps: float = RELATIVE_EPS_M) -> float:
    """Relative (Table I): D_B / (D_A + eps), A the object to stay closer to, B farther from."""
    d_a = float(closest_distances(window, closer).mean())
    d_b = float(closest_distances(window, farther).mean())
    return d_b / (d_a + eps)


def _dtw_tolerant_py(a: NDArray[np.float64], b: NDArray[np.float64], delta: float) -> float:
    n, m = len(a), len(b)
    acc = np.full((n + 1, m + 1), np.inf)
    acc[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d = math.hypot(a[i - 1, 0] - b[j - 1, 0], a[i - 1, 1] - b[j - 1, 1])
            cost = d - delta if d > delta else 0.0
            acc[i, j] = cost + min(acc[i - 1, j], acc[i, j - 1], acc[i - 1, j - 1])
    return float(acc[n, m])


def _compiled_dtw():  # type: ignore[no-untyped-def]
    # No maintained DTW package is installed here and the recursion is ten lines, so it is
    # written out and compiled with numba (about 1000x faster than the Python loop).
    try:
        import numba  # noqa: PLC0415 - numba may be missing: the pure-Python fallback below
    except ImportError:  # pragma: no cover - numba is a dependency
        return _dtw_tolerant_py
    return numba.njit(cache=True)(_dtw_tolerant_py)


_DTW = None


def dtw_tolerant(a: ArrayLike, b: ArrayLike, *, delta: float = PATH_SHAPE_DELTA_M) -> float:
    """DTW_delta: dynamic time warping with per-pair cost max(0, ||a_i - b_j|| - delta)."""
    global _DTW
    if _DTW is None:
        _DTW = _compiled_dtw()
    aa = np.ascontiguousarray(a, dtype=np.float64).reshape(-1, 2)
    bb = np.ascontiguousarray(b, dtype=np.float64).reshape(-1, 2)
    if len(aa) == 0 or len(bb) == 0:
        return math.inf
    return float(_DTW(aa, bb, float(delta)))


def path_shape_value(window: NDArray[np.float64], reference: NDArray[np.float64], *,
                     delta: float = PATH_SHAPE_DELTA_M, d_succ: float = PATH_SHAPE_D_SUCC_M) -> float:
    """Path-Shape (Table I): exp(-DTW_delta(W_R(tau), tau_ref) / (d_succ * |tau_ref|))."""
    if len(window) == 0 or len(reference) == 0:
        return WORST_PATH_SHAPE
    return math.exp(-dtw_tolerant(window, reference, delta=delta) / (d_succ * len(reference)))


def clearance_value(window_cells: NDArray[np.int64], clearance_field: NDArray[np.float64]) -> float:
    """Clearance (Table I): mean d(p, U) over the route's distinct cells, U = non-traversable."""
    if len(window_cells) == 0:
        return 0.0
    rows, cols = clearance_field.shape
    r = np.clip(window_cells[:, 0], 0, rows - 1)
    c = np.clip(window_cells[:, 1], 0, cols - 1)
    return float(clearance_field[r, c].mean())


def clearance_field_m(traversable: NDArray[np.bool_], resolution: float) -> NDArray[np.float64]:
    """d(p, U) for every cell: metres from its centre to the nearest non-traversable centre."""

    return clearance_m(traversable, resolution)


# --- efficiency --------------------------------------------------------------------------------
def spl(successes: Sequence[bool], shortest_m: Sequence[float], lengths_m: Sequence[float]) -> float:
    """SPL (paper 000, III-C3): mean of S_m * L*_m / max(L*_m, L_m)."""
    if not successes:
        return 0.0
    terms = [spl_term(s, ls, lm) for s, ls, lm in zip(successes, shortest_m, lengths_m, strict=True)]
    return float(np.mean(terms))


def spl_term(success: bool, shortest_m: float, length_m: float) -> float:
    """One episode's S_m * L* / max(L*, L)."""
    if not success:
        return 0.0
    denom = max(shortest_m, length_m)
    return 1.0 if denom <= 0 else shortest_m / denom
