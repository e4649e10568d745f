"""NeSy-Route metrics, one short function each (section 4.2, Eq. 9-16), as the official scorer.

Task 1/2: TM (Eq. 9), PR (Eq. 10, Kendall tau-b per sample over the gt-traversable classes),
FM (Eq. 11), RM (Eq. 12, per element). Task 3: AR (Eq. 13), CR (Eq. 14), VR (Eq. 15),
CD (Eq. 16, pixels).

The Task 3 semantics follow the public evaluation code of the release (MingYang1010/NeSy-Route,
``evaluation/task3``), read for its rules, not copied:

- the prediction is used as given: S and E are **not** added to a trajectory that lacks them;
- a sample is adherent when every waypoint lies inside the image on a labelled, traversable
  pixel; its waypoints are then joined by A* (:func:`official_astar`) and CR = cost of that
  dense path / cost of the ground truth, both summing ``W`` over every cell (start included);
  an adherent sample whose legs A* cannot join stays adherent but has no CR, and its dense
  path is the Bresenham polyline;
- a non-adherent sample is joined by Bresenham lines (:func:`official_line`) and VR is the
  share of those pixels outside the image or on non-traversable terrain;
- CD is the symmetric mean nearest-neighbour distance in pixels between the dense path and
  the ground truth, computed in float32 as the official scorer does.

Points here are ``(row, col)``; the files store ``[x, y] = [col, row]``.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numba import njit
from scipy.stats import kendalltau

from map2route.nesy.kb import IMPASSABLE
from map2route.nesy.search import path_cost

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import NDArray

#: Rows of the prediction handled at once by :func:`chamfer_distance` (the official chunk).
CHAMFER_CHUNK = 512


def traversability_match(pred: Sequence[int], gt: Sequence[int]) -> bool:
    """TM indicator (Eq. 9): the binary vectors are equal element by element."""
    return bool(np.all(np.asarray(pred) == np.asarray(gt)))


def full_match(pred_trav: Sequence[int], pred_pref: Sequence[int], gt_trav: Sequence[int],
               gt_pref: Sequence[int]) -> bool:
    """FM indicator (Eq. 11): both vectors equal."""
    return traversability_match(pred_trav, gt_trav) and traversability_match(pred_pref, gt_pref)


def preference_correlation(pred_pref: Sequence[float], gt_pref: Sequence[int],
                           gt_trav: Sequence[int]) -> float | None:
    """PR of one sample (Eq. 10): Kendall tau-b over the classes with ``gt_trav == 1``.

    Tau-b handles ties: ``(n_c - n_d) / sqrt((n0 - n1)(n0 - n2))``. Skipped (None), as in the
    official code, when fewer than 2 classes are gt-traversable or either vector is constant on
    them (tau-b is undefined there).
    """
    idx = [i for i, t in enumerate(gt_trav) if t == 1]
    if len(idx) < 2:
        return None
    x = np.asarray([pred_pref[i] for i in idx], dtype=np.float64)
    y = np.asarray([gt_pref[i] for i in idx], dtype=np.float64)
    if len(np.unique(x)) <= 1 or len(np.unique(y)) <= 1:
        return None
    tau = float(kendalltau(x, y, variant="b").statistic)
    return None if math.isnan(tau) else tau


def region_match(pred_reg: Sequence[int], gt_reg: Sequence[int]) -> float:
    """RM of one sample (Eq. 12): the fraction of the L elements that are equal."""
    return float(np.mean(np.asarray(pred_reg) == np.asarray(gt_reg)))


# --- Task 3 ------------------------------------------------------------------------------------
def official_line(p0: tuple[int, int], p1: tuple[int, int]) -> NDArray[np.int32]:
    """Cells of the official scorer's Bresenham line from ``p0`` to ``p1`` (``(row, col)``).

    Hand-written because VR and CD depend on which pixel a line takes at a tie, and the
    official scorer's rule is specific: it runs on ``x = col`` and ``y = row`` with
    ``err = dx - dy`` (``dx = |x1 - x0|``, ``dy = |y1 - y0|``), steps x when ``2 err > -dy``
    and y when ``2 err < dx`` (both strict, both may fire in one step). No library we ship
    draws lines with that tie rule (skimage and OpenCV break ties differently).
    """
    y, x = int(p0[0]), int(p0[1])
    y1, x1 = int(p1[0]), int(p1[1])
    dx, dy = abs(x1 - x), abs(y1 - y)
    sx = 1 if x < x1 else -1
    sy = 1 if y < y1 else -1
    err = dx - dy
    out = [(y, x)]
    while (y, x) != (y1, x1):
        twice = 2 * err
        if twice > -dy:
            err -= dy
            x += sx
        if twice < dx:
            err += dx
            y += sy
        out.append((y, x))
    return np.asarray(out, dtype=np.int32).reshape(-1, 2)


def polyline(points: Sequence[tuple[int, int]]) -> NDArray[np.int32]:
    """Waypoints joined by :func:`official_line`, shared vertices kept once."""
    if len(points) == 1:
        return np.asarray(points, dtype=np.int32).reshape(-1, 2)
    legs = [official_line(a, b) for a, b in zip(points[:-1], points[1:], strict=True)]
    return np.concatenate([legs[0], *(leg[1:] for leg in legs[1:])]).astype(np.int32)


@njit(cache=True)
def _astar(cost, sr, sc, gr, gc, min_cost):  # type: ignore[no-untyped-def]
    rows, cols = cost.shape
    g = np.full((rows, cols), np.inf)
    closed = np.zeros((rows, cols), dtype=np.bool_)
    parent = np.full((rows, cols), -1, dtype=np.int64)
    g[sr, sc] = 0.0
    root2 = math.sqrt(2.0)
    heap = [(0.0, 0, sr, sc)]
    counter = 1
    while len(heap) > 0:
        item = heapq.heappop(heap)
        r, c = item[2], item[3]
        if r == gr and c == gc:
            n = 1
            k = r * cols + c
            while parent[k // cols, k % cols] >= 0:
                k = parent[k // cols, k % cols]
                n += 1
            out = np.empty((n, 2), dtype=np.int32)
            k = r * cols + c
            for i in range(n - 1, -1, -1):
                out[i, 0], out[i, 1] = k // cols, k % cols
                k = parent[k // cols, k % cols]
            return out
        if closed[r, c]:
            continue
        closed[r, c] = True
        for dc in range(-1, 2):  # x outer, y inner: the official neighbour order
            for dr in range(-1, 2):
                if dr == 0 and dc == 0:
                    continue
                rr, cc = r + dr, c + dc
                if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                    continue
                if cost[rr, cc] >= 65535.0:
                    continue
                t = g[r, c] + cost[rr, cc]
                if t >= g[rr, cc]:
                    continue
                parent[rr, cc] = r * cols + c
                g[rr, cc] = t
                h = min_cost * math.sqrt(float((cc - gc) ** 2 + (rr - gr) ** 2)) / root2
                heapq.heappush(heap, (t + h, counter, rr, cc))
                counter += 1
    return np.empty((0, 2), dtype=np.int32)


def official_astar(cost_map: NDArray[np.integer], a: tuple[int, int], b: tuple[int, int], *,
                   min_cost: float) -> NDArray[np.int32] | None:
    """The official scorer's A* leg from ``a`` to ``b`` (``(row, col)``), or None if unreachable.

    Hand-written (a numba loop) because CD compares the reconstructed path pixel by pixel, so
    among equally cheap paths we must return the one the official scorer returns: 8 neighbours
    visited x-major (``dx`` outer, ``dy`` inner, each -1..1), entering cost ``W``, heuristic
    ``min_cost * hypot / sqrt(2)``, a heap ordered by ``(f, insertion counter)``, a neighbour
    updated only on a strictly lower ``g``, the goal returned when popped. map2route's planner
    (:mod:`map2route.gridsearch.kernel`) is exact too but breaks ties its own way.
    """
    if a == b:
        return np.asarray([a], dtype=np.int32)
    cost = np.ascontiguousarray(cost_map, dtype=np.float64)
    path: NDArray[np.int32] = _astar(cost, int(a[0]), int(a[1]), int(b[0]), int(b[1]),
                                     float(min_cost))
    return path if path.shape[0] else None


def violation_ratio(cost_map: NDArray[np.integer], cells: NDArray[np.integer]) -> float:
    """VR term (Eq. 15): the share of cells outside the image or on impassable terrain."""
    pts = np.asarray(cells, dtype=np.intp).reshape(-1, 2)
    if not len(pts):
        return 1.0
    rows, cols = cost_map.shape
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < rows) & (pts[:, 1] >= 0) & (pts[:, 1] < cols)
    blocked = ~inside
    blocked[inside] = cost_map[pts[inside, 0], pts[inside, 1]] >= IMPASSABLE
    return float(blocked.mean())


def _mean_nearest(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    total = 0.0
    for i in range(0, len(a), CHAMFER_CHUNK):
        part = a[i:i + CHAMFER_CHUNK]
        sq = ((part[:, None, :] - b[None, :, :]) ** 2).sum(axis=-1)
        total += float(np.sqrt(sq.min(axis=1)).sum())
    return total / len(a)


def chamfer_distance(a: NDArray[np.integer], b: NDArray[np.integer]) -> float:
    """CD term of Eq. 16 in pixels: (mean NN distance a->b + mean NN distance b->a) / 2.

    In float32 over chunks of 512 points, as the official scorer, so the last digits agree
    (a float64 KD-tree differs by up to ~1e-5 px on long paths). Infinite if either is empty.
    """
    pa = np.asarray(a, dtype=np.float32).reshape(-1, 2)
    pb = np.asarray(b, dtype=np.float32).reshape(-1, 2)
    if not len(pa) or not len(pb):
        return math.inf
    return (_mean_nearest(pa, pb) + _mean_nearest(pb, pa)) / 2.0


@dataclass(frozen=True)
class TrajectoryScore:
    """Task 3 scores of one sample.

    Attributes:
        adherent: every waypoint inside, labelled and traversable (S_A, Eq. 13).
        cost_ratio: Eq. 14 term, for adherent samples A* could join; None otherwise.
        violation_ratio: Eq. 15 term, for non-adherent samples; None otherwise.
        chamfer: Eq. 16 term in pixels.
        dense: the reconstructed dense path ``(N, 2)`` (row, col).
        connection: ``astar``, ``bresenham`` (non-adherent) or ``bresenham_fallback``.
    """

    adherent: bool
    cost_ratio: float | None
    violation_ratio: float | None
    chamfer: float
    dense: NDArray[np.int32]
    connection: str


def score_trajectory(cost_map: NDArray[np.integer], waypoints: Sequence[tuple[int, int]],
                     gt_path: NDArray[np.integer]) -> TrajectoryScore:
    """Score one predicted sparse trajectory (Eq. 13-16) as the official scorer does.

    Args:
        cost_map: uint16 W of the sample (65535 where unlabelled or not traversable).
        waypoints: the predicted ``(row, col)`` points as given (at least one).
        gt_path: the dense ground truth ``(N, 2)`` (row, col).
    """
    gt = np.asarray(gt_path, dtype=np.int32).reshape(-1, 2)
    pts = [(int(r), int(c)) for r, c in waypoints]
    rows, cols = cost_map.shape
    adherent = all(0 <= r < rows and 0 <= c < cols and int(cost_map[r, c]) < IMPASSABLE
                   for r, c in pts)
    if not adherent:
        dense = polyline(pts)
        return TrajectoryScore(False, None, violation_ratio(cost_map, dense),
                               chamfer_distance(dense, gt), dense, "bresenham")
    legs: list[NDArray[np.int32]] = []
    if len(pts) > 1:
        passable = cost_map[cost_map < IMPASSABLE]
        lowest = float(passable.min())
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            leg = official_astar(cost_map, a, b, min_cost=lowest)
            if leg is None:
                dense = polyline(pts)
                return TrajectoryScore(True, None, None, chamfer_distance(dense, gt), dense,
                                       "bresenham_fallback")
            legs.append(leg if not legs else leg[1:])
    dense = np.concatenate(legs).astype(np.int32) if legs else \
        np.asarray(pts, dtype=np.int32).reshape(-1, 2)
    ratio = path_cost(cost_map, dense) / path_cost(cost_map, gt)
    return TrajectoryScore(True, ratio, None, chamfer_distance(dense, gt), dense, "astar")
