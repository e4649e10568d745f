"""The official Map2Route evaluator's metric semantics, on grid points and cell masks.

Each function follows one function of the public Map2Route evaluator (GitHub
BaoBao0926/Map2Route, ``scripts/evaluation/evaluation_metrics.py`` and ``metric_geometry.py``),
named in its docstring. The formulas and rules carry over; the code is ours (numpy and
scipy instead of per-point Python loops).

Conventions of the evaluator, kept here:

- A trajectory is a sequence of grid points ``(row, col)``; cell ``(r, c)`` is the unit
  square ``[r - 0.5, r + 0.5] x [c - 0.5, c + 0.5]`` around its integer centre.
- A point lies inside a cell region only when it equals one of the region's cell centres
  (``point_inside_constraint`` for a freeform region); a segment meets the region when it
  meets one of the closed unit squares (``segment_constraint_interval``), so a diagonal
  step that grazes a corner of an avoided cell touches it.
- Distances are in grid cells; the caller multiplies by the resolution for metres.
- ``EPSILON = 1e-6`` (``hyparameter.EVALUATION_EPSILON``).

Regions are bool ``(rows, cols)`` masks (the evaluator's ``freeform`` shape). Circle and
rectangle regions of official episodes are rasterised to masks when they are read
(:mod:`map2route.bench.map2route.official`), the one place where a point between cell centres can be
judged differently (docs/benchmark.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from scipy.ndimage import distance_transform_edt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra
from scipy.spatial import cKDTree

from map2route.bench.map2route.metrics import cells_in_mask, dtw_tolerant

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import NDArray

EPSILON = 1e-6
#: Path-Shape nDTW tolerance and success distance in grid cells (``hyparameter.py``).
PATH_SHAPE_TOLERANCE_CELLS = 10.0
PATH_SHAPE_SUCCESS_CELLS = 4.0
#: Object categories that do not count as clearance obstacles (``TRAVERSABLE_OBJECT_CATEGORIES``).
TRAVERSABLE_OBJECT_CATEGORIES = frozenset({"doorframe", "doorway"})


# --- geometry ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SegmentCells:
    """The cells whose unit squares one segment meets, with the segment-parameter interval."""

    cells: NDArray[np.int64]
    t_in: NDArray[np.float64]
    t_out: NDArray[np.float64]


def segment_cells(start: NDArray[np.float64], end: NDArray[np.float64]) -> SegmentCells:
    """Every cell square the segment ``start -> end`` meets (``_segment_rectangle_interval``).

    The slab test of the evaluator, vectorised over the cells of the segment's bounding box:
    per axis the entry and exit parameters, intersected over both axes and ``[0, 1]``, with a
    tolerance of ``EPSILON`` (so touching a corner or an edge counts). Memoised: HCS, the
    soft-scope gate and SPL walk the same segments.
    """
    return _segment_cells(float(start[0]), float(start[1]), float(end[0]), float(end[1]))


@lru_cache(maxsize=1 << 14)
def _segment_cells(r0: float, c0: float, r1: float, c1: float) -> SegmentCells:
    start, end = np.array([r0, c0]), np.array([r1, c1])
    lo = np.floor(np.minimum(start, end) - 0.5).astype(np.int64)
    hi = np.ceil(np.maximum(start, end) + 0.5).astype(np.int64)
    rows = np.arange(lo[0], hi[0] + 1)
    cols = np.arange(lo[1], hi[1] + 1)
    cells = np.stack([np.repeat(rows, len(cols)), np.tile(cols, len(rows))], axis=1)
    t_min = np.zeros(len(cells))
    t_max = np.ones(len(cells))
    ok = np.ones(len(cells), dtype=bool)
    for axis in (0, 1):
        s, d = float(start[axis]), float(end[axis] - start[axis])
        low, high = cells[:, axis] - 0.5, cells[:, axis] + 0.5
        if abs(d) <= EPSILON:
            ok &= (s >= low) & (s <= high)
            continue
        first, second = (low - s) / d, (high - s) / d
        t_min = np.maximum(t_min, np.minimum(first, second))
        t_max = np.minimum(t_max, np.maximum(first, second))
        ok &= ~(t_min - t_max > EPSILON)
    return SegmentCells(cells=cells[ok], t_in=np.maximum(0.0, t_min[ok]),
                        t_out=np.minimum(1.0, t_max[ok]))


def region_interval(seg: SegmentCells, mask: NDArray[np.bool_]) -> tuple[float, float] | None:
    """The interval of the earliest-entered region cell (``segment_constraint_interval``)."""
    inside = cells_in_mask(seg.cells, mask)
    if not inside.any():
        return None
    k = int(np.argmin(np.where(inside, seg.t_in, np.inf)))
    return float(seg.t_in[k]), float(seg.t_out[k])


def first_hit_after(seg: SegmentCells, mask: NDArray[np.bool_], after_t: float) -> float | None:
    """``_first_constraint_hit_after``: where the segment enters ``mask`` at or after ``after_t``."""
    interval = region_interval(seg, mask)
    if interval is None or interval[1] < after_t - EPSILON:
        return None
    return max(interval[0], after_t)


def point_inside(point: NDArray[np.float64], mask: NDArray[np.bool_]) -> bool:
    """``point_inside_constraint`` for a freeform region: the point is one of its cell centres."""
    r, c = float(point[0]), float(point[1])
    if r != round(r) or c != round(c):
        return False
    ri, ci = int(round(r)), int(round(c))
    return 0 <= ri < mask.shape[0] and 0 <= ci < mask.shape[1] and bool(mask[ri, ci])


def points_inside(points: NDArray[np.float64], mask: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """:func:`point_inside` for every point."""
    if len(points) == 0:
        return np.zeros(0, dtype=bool)
    rounded = np.rint(points)
    exact = np.all(rounded == points, axis=1)
    out = cells_in_mask(rounded.astype(np.int64), mask)
    return out & exact


def trajectory_hits(points: NDArray[np.float64], mask: NDArray[np.bool_]) -> bool:
    """``_constraint_hit``: a point inside the region or a segment meeting it."""
    if points_inside(points, mask).any():
        return True
    return any(region_interval(segment_cells(a, b), mask) is not None
               for a, b in zip(points[:-1], points[1:], strict=True))


def path_length_cells(points: NDArray[np.float64]) -> float:
    """``compute_path_length``: the polyline length in grid cells."""
    if len(points) < 2:
        return 0.0
    return float(np.linalg.norm(np.diff(points, axis=0), axis=1).sum())


# --- HCS ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Avoid:
    """A must-avoid region and the transitions it is active in (``None``: global)."""

    mask: NDArray[np.bool_]
    stages: frozenset[int] | None = None
    name: str = ""


@dataclass
class HCSProgress:
    """The outcome of :func:`hcs_progress` (the evaluator's ``compute_hcs_progress`` dict)."""

    completed: int
    total: int
    failed: bool = False
    failed_transition: int | None = None
    first_violation: str | None = None
    global_violations: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        """HCS: completed / total, 0 on a global must-avoid violation (``compute_hcs``)."""
        if self.global_violations or self.total == 0:
            return 0.0
        return self.completed / self.total


def _active(avoids: Sequence[Avoid], stage: int, *, with_global: bool) -> list[Avoid]:
    return [a for a in avoids if (a.stages is None and with_global)
            or (a.stages is not None and stage in a.stages)]


def hcs_progress(points: NDArray[np.float64], targets: Sequence[NDArray[np.bool_]],
                 avoids: Sequence[Avoid], *, with_global: bool = False) -> HCSProgress:
    """``compute_hcs_progress``: ordered must-pass progress under the active must-avoids.

    ``targets`` are the must-passes after the record region (the start, which the evaluator
    ignores). A target already holding the first point counts at once; then each segment is
    walked: the next target is completed where the segment first enters it, unless an active
    must-avoid is entered at or before that parameter, which stops the progress for good.
    ``with_global`` makes global avoids active in every transition (as
    ``_completed_segment_to_orders`` calls it); :func:`hcs` leaves them to the zero rule.
    """
    n = len(targets)
    progress = HCSProgress(completed=0, total=n)
    if len(points) == 0:
        return progress
    while progress.completed < n and point_inside(points[0], targets[progress.completed]):
        progress.completed += 1
    for a, b in zip(points[:-1], points[1:], strict=True):
        if progress.failed or progress.completed == n:
            break
        seg = segment_cells(a, b)
        t = 0.0
        while progress.completed < n:
            hits = []
            for av in _active(avoids, progress.completed, with_global=with_global):
                interval = region_interval(seg, av.mask)
                if interval is not None and interval[1] >= t - EPSILON:
                    hits.append((max(interval[0], t), av.name))
            goal_t = first_hit_after(seg, targets[progress.completed], t)
            if hits:
                avoid_t, name = min(hits, key=lambda h: h[0])
                if goal_t is None or avoid_t <= goal_t + EPSILON:
                    progress.failed = True
                    progress.failed_transition = progress.completed + 1
                    progress.first_violation = name
                    break
            if goal_t is None:
                break
            progress.completed += 1
            t = goal_t
    return progress


def hcs(points: NDArray[np.float64], targets: Sequence[NDArray[np.bool_]],
        avoids: Sequence[Avoid]) -> HCSProgress:
    """``evaluation_metrics.compute_hcs``: progress under scoped avoids, 0 on a global violation.

    Global must-avoids are taken out of the progress and checked over the whole trajectory
    (points and segments); touching one sets HCS to 0.
    """
    scoped = [a for a in avoids if a.stages is not None]
    progress = hcs_progress(points, targets, scoped)
    progress.global_violations = [a.name for a in avoids
                                  if a.stages is None and trajectory_hits(points, a.mask)]
    return progress


# --- segment-wise SPL --------------------------------------------------------------------------
def shortest_legal_length(traversable: NDArray[np.bool_], start: tuple[int, int],
                          target: NDArray[np.bool_], avoid: NDArray[np.bool_], *,
                          limit: float = np.inf) -> float | None:
    """L* of one segment (``build_segment_distance_field``, ``_shortest_legal_path_length``).

    The shortest 8-connected path, in cells, from ``start`` to any target cell over the
    traversable cells outside the active avoids; a diagonal step needs both cells beside it
    free (``can_traverse_between``, and a diagonal touching an avoided cell's corner meets
    it). ``None`` when the start is blocked or no target cell is reachable (within
    ``limit`` cells, which only bounds the search).
    """
    rows, cols = traversable.shape
    r0, c0 = start
    if not (0 <= r0 < rows and 0 <= c0 < cols) or not traversable[r0, c0] or avoid[r0, c0]:
        return None
    if target[r0, c0]:
        return 0.0
    allowed = traversable & ~avoid
    goals = np.flatnonzero(target & allowed)
    if goals.size == 0:
        return None
    dist = dijkstra(_legal_graph(allowed), directed=False, indices=goals, min_only=True,
                    limit=limit)
    value = float(np.asarray(dist).ravel()[r0 * cols + c0])
    return value if math.isfinite(value) else None


_GRAPHS: dict[bytes, csr_matrix] = {}


def _legal_graph(allowed: NDArray[np.bool_]) -> csr_matrix:
    """The 8-connected graph over ``allowed`` cells (diagonals need all four cells allowed),
    kept for the few avoid sets a scene's episodes share."""
    key = np.packbits(allowed).tobytes() + bytes(str(allowed.shape), "ascii")
    graph = _GRAPHS.get(key)
    if graph is not None:
        return graph
    if len(_GRAPHS) >= 8:
        _GRAPHS.clear()
    rows, cols = allowed.shape
    ids = np.arange(rows * cols).reshape(rows, cols)
    src: list[NDArray[np.int64]] = []
    dst: list[NDArray[np.int64]] = []
    wts: list[NDArray[np.float64]] = []

    def add(ok: NDArray[np.bool_], a: NDArray[np.int64], b: NDArray[np.int64], w: float) -> None:
        src.append(a[ok])
        dst.append(b[ok])
        wts.append(np.full(int(ok.sum()), w))

    add(allowed[:, :-1] & allowed[:, 1:], ids[:, :-1], ids[:, 1:], 1.0)
    add(allowed[:-1, :] & allowed[1:, :], ids[:-1, :], ids[1:, :], 1.0)
    quad = allowed[:-1, :-1] & allowed[1:, 1:] & allowed[1:, :-1] & allowed[:-1, 1:]
    add(quad, ids[:-1, :-1], ids[1:, 1:], math.sqrt(2))
    add(quad, ids[:-1, 1:], ids[1:, :-1], math.sqrt(2))
    graph = csr_matrix((np.concatenate(wts), (np.concatenate(src), np.concatenate(dst))),
                       shape=(rows * cols, rows * cols))
    _GRAPHS[key] = graph
    return graph


@dataclass(frozen=True)
class SegmentSPL:
    """One segment of :func:`segment_wise_spl` (lengths in cells)."""

    l_star: float | None
    length: float | None
    success: bool
    spl: float
    status: str


def segment_wise_spl(points: NDArray[np.float64], targets: Sequence[NDArray[np.bool_]],
                     avoids: Sequence[Avoid], traversable: NDArray[np.bool_]
                     ) -> tuple[float | None, list[SegmentSPL]]:
    """``compute_segment_wise_spl``: the mean over segments of S_k * L*_k / max(L*_k, L_k).

    Segment ``k`` starts where the route completed segment ``k-1`` (its first point inside
    target ``k-1``; the trajectory's first point for ``k = 0``) and L*_k is measured from that
    actual start, avoiding the must-avoids active in that transition (global ones included).
    A segment fails when its target is never reached, its part of the route touches an
    active avoid, or L* does not exist; every later segment then scores 0.
    """
    cursor = start_index = 0
    complete = True
    out: list[SegmentSPL] = []
    for k, target in enumerate(targets):
        active = _active(avoids, k, with_global=True)
        avoid_mask = np.zeros(target.shape, dtype=bool)
        for a in active:
            avoid_mask |= a.mask
        hit = None
        if complete:
            inside = np.flatnonzero(points_inside(points[cursor:], target))
            hit = cursor + int(inside[0]) if inside.size else None
        part = points[start_index:hit + 1] if hit is not None else points[:0]
        length = path_length_cells(part) if len(part) else None
        violation = bool(len(part)) and any(trajectory_hits(part, a.mask) for a in active)
        l_star = None
        if complete and start_index < len(points):
            r, c = (int(round(float(v))) for v in points[start_index])
            # L* only matters up to L (L* >= L scores 1), so search within L first; the exact
            # value (or its absence) is looked up without the bound only when that fails.
            bound = (length or 0.0) + 1e-6 if hit is not None and not violation else np.inf
            l_star = shortest_legal_length(traversable, (r, c), target, avoid_mask, limit=bound)
            if l_star is None and np.isfinite(bound):
                l_star = shortest_legal_length(traversable, (r, c), target, avoid_mask)
        success = hit is not None and not violation and l_star is not None
        if success:
            assert l_star is not None and hit is not None
            denom = max(l_star, length or 0.0)
            score = 1.0 if denom <= EPSILON else l_star / denom
            cursor = start_index = hit
            status = "completed"
        else:
            score = 0.0
            complete = False
            status = ("missing_or_invalid_oracle_segment" if l_star is None else
                      "target_not_completed" if hit is None else "active_must_avoid_violation")
        out.append(SegmentSPL(l_star=l_star, length=length, success=success, spl=score,
                              status=status))
    return (sum(s.spl for s in out) / len(out) if out else None), out


# --- soft preferences --------------------------------------------------------------------------
def ordered_hits(points: NDArray[np.float64], regions: Sequence[NDArray[np.bool_] | None]
                 ) -> list[int | None]:
    """``_first_ordered_waypoint_hits``: first point inside each region, from the last hit on.

    A region that is never hit leaves the cursor where it was, so later regions are still
    searched (``None`` marks the missing one). A ``None`` region (the record region of an
    episode that has none) is hit by the first point.
    """
    out: list[int | None] = []
    cursor = 0
    for mask in regions:
        if mask is None:
            hit = 0 if len(points) else None
        else:
            inside = np.flatnonzero(points_inside(points[cursor:], mask))
            hit = cursor + int(inside[0]) if inside.size else None
        if hit is not None:
            cursor = hit
        out.append(hit)
    return out


def scoped_points(points: NDArray[np.float64], from_index: int | None,
                  to_index: int | None) -> NDArray[np.float64]:
    """``_active_trajectory``: the part of the route between two must-pass hits."""
    if from_index is not None and to_index is not None and to_index >= from_index:
        return points[from_index:to_index + 1]
    if from_index is not None:
        return points[from_index:]
    if to_index is not None:
        return points[:to_index + 1]
    return points


def mean_distance(points: NDArray[np.float64], reference: NDArray[np.float64]) -> float:
    """Mean over ``points`` of the distance to the nearest reference cell (cells)."""
    d, _ = cKDTree(reference).query(points)
    return float(np.mean(d))


def near_far_value(region_points: NDArray[np.float64], reference: NDArray[np.float64], *,
                   near: bool, region_cells: NDArray[np.int64]) -> tuple[float | None, str]:
    """``_near_or_far_detail``: mean distance to O over the route's points in the region.

    Every point counts (no deduplication). With no point in the region Near takes the
    largest distance from a region cell to O and Far takes 0.
    """
    if len(reference) == 0:
        return None, "missing_object_footprint_cells"
    if len(region_points):
        return mean_distance(region_points, reference), "computed"
    if near:
        if len(region_cells) == 0:
            return None, "empty_region_without_cells"
        d, _ = cKDTree(reference).query(region_cells.astype(np.float64))
        return float(np.max(d)), "empty_region_max_distance"
    return 0.0, "empty_region_zero_distance"


def relative_value(region_points: NDArray[np.float64], closer: NDArray[np.float64],
                   farther: NDArray[np.float64]) -> tuple[float | None, str]:
    """``_relative_detail``: D_B / D_A over the route's points in the region.

    No point in the region gives 0; D_A <= EPSILON (the route runs over A) gives no value
    (``None``), which the means leave out, as the evaluator's ``raw_value: None`` does.
    """
    if len(closer) == 0 or len(farther) == 0:
        return None, "missing_relative_object_footprints"
    if len(region_points) == 0:
        return 0.0, "empty_region_zero_score"
    d_a = mean_distance(region_points, closer)
    d_b = mean_distance(region_points, farther)
    if d_a <= EPSILON:
        return None, "zero_distance_to_preferred_object"
    return d_b / d_a, "computed"


def path_shape_value(region_points: NDArray[np.float64], reference: NDArray[np.float64] | None
                     ) -> tuple[float | None, str]:
    """``compute_ndtw_score``: exp(-DTW_tol / (success_distance * |tau_ref|)), in cells.

    The per-pair cost is max(0, d - 10 cells), success distance 4 cells; no point in the
    region scores 0 and a missing reference gives no value.
    """
    if reference is None:
        return None, "missing_reference_trajectory"
    if len(region_points) == 0:
        return 0.0, "empty_region_zero_score"
    if len(reference) == 0:
        return 0.0, "empty_reference"
    cost = dtw_tolerant(region_points, reference, delta=PATH_SHAPE_TOLERANCE_CELLS)
    if not math.isfinite(cost):
        return 0.0, "computed"
    denom = PATH_SHAPE_SUCCESS_CELLS * max(len(reference), 1)
    return math.exp(-cost / denom), "computed"


def clearance_field_cells(obstacles: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Cells from each cell centre to the nearest obstacle cell centre (exact EDT)."""
    if not obstacles.any():
        return np.full(obstacles.shape, np.inf)
    return np.asarray(distance_transform_edt(~obstacles), dtype=np.float64)


def clearance_value(points: NDArray[np.float64], field_cells: NDArray[np.float64],
                    obstacles: NDArray[np.bool_]) -> float | None:
    """``_clearance_detail``: mean over all trajectory points of the distance to obstacles.

    Every point counts, repeats included; a point on a cell centre reads the distance field,
    one between centres is measured to the nearest obstacle cell centre.
    """
    if len(points) == 0:
        return None
    rounded = np.rint(points)
    on_grid = np.all(np.abs(rounded - points) <= EPSILON, axis=1)
    r, c = rounded[:, 0].astype(np.int64), rounded[:, 1].astype(np.int64)
    rows, cols = field_cells.shape
    on_grid &= (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
    d = np.empty(len(points))
    d[on_grid] = field_cells[r[on_grid], c[on_grid]]
    if (~on_grid).any():
        obstacle_cells = np.argwhere(obstacles).astype(np.float64)
        d[~on_grid] = (cKDTree(obstacle_cells).query(points[~on_grid])[0]
                       if len(obstacle_cells) else np.inf)
    return float(np.mean(d))
