"""NeSy-Route metrics, one short function each (section 4.2, Eq. 9-16).

Task 1/2: TM (Eq. 9), PR (Eq. 10, Kendall tau-b per sample over the gt-traversable classes),
FM (Eq. 11), RM (Eq. 12, per element). Task 3: AR (Eq. 13), CR (Eq. 14), VR (Eq. 15),
CD (Eq. 16, pixels). Conventions from the official evaluation code are in each docstring.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from map2route.nesy.kb import IMPASSABLE
from map2route.nesy.search import bresenham, leg_path, path_cost, step_costs

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import NDArray


def traversability_match(pred: Sequence[int], gt: Sequence[int]) -> bool:
    """TM indicator (Eq. 9): the binary vectors are equal element by element."""
    return [int(v) for v in pred] == [int(v) for v in gt]


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
    from scipy.stats import kendalltau

    idx = [i for i, t in enumerate(gt_trav) if int(t) == 1]
    if len(idx) < 2:
        return None
    x = np.asarray([float(pred_pref[i]) for i in idx])
    y = np.asarray([float(gt_pref[i]) for i in idx])
    if np.all(x == x[0]) or np.all(y == y[0]):
        return None
    tau = float(kendalltau(x, y, variant="b").statistic)
    return None if math.isnan(tau) else tau


def region_match(pred_reg: Sequence[int], gt_reg: Sequence[int]) -> float:
    """RM of one sample (Eq. 12): the fraction of the L elements that are equal."""
    return sum(int(p) == int(g) for p, g in zip(pred_reg, gt_reg, strict=True)) / len(gt_reg)


@dataclass(frozen=True)
class TrajectoryScore:
    """Task 3 scores of one sample.

    Attributes:
        adherent: every waypoint on traversable terrain and every leg reachable (S_A).
        cost_ratio: Eq. 14 term, for adherent samples; None otherwise.
        violation_ratio: Eq. 15 term, for non-adherent samples; None otherwise.
        chamfer: Eq. 16 term in pixels.
        dense: the reconstructed dense path ``(N, 2)`` (row, col).
    """

    adherent: bool
    cost_ratio: float | None
    violation_ratio: float | None
    chamfer: float
    dense: NDArray[np.int32]


def chamfer_distance(a: NDArray[np.integer], b: NDArray[np.integer]) -> float:
    """CD term of Eq. 16 in pixels: (mean NN distance a->b + mean NN distance b->a) / 2."""
    from scipy.spatial import cKDTree

    pa = np.asarray(a, dtype=np.float64).reshape(-1, 2)
    pb = np.asarray(b, dtype=np.float64).reshape(-1, 2)
    da, _ = cKDTree(pb).query(pa)
    db, _ = cKDTree(pa).query(pb)
    return float((da.mean() + db.mean()) / 2.0)


def _inside(w: NDArray[np.integer], p: tuple[int, int]) -> bool:
    return 0 <= p[0] < w.shape[0] and 0 <= p[1] < w.shape[1]


def score_trajectory(cost_map: NDArray[np.integer], waypoints: Sequence[tuple[int, int]] | None,
                     gt_path: NDArray[np.integer], start: tuple[int, int],
                     end: tuple[int, int]) -> TrajectoryScore:
    """Score one predicted sparse trajectory (Eq. 13-16).

    The route must run from S to E (Eq. 2), so S is put in front and E at the end when the
    prediction does not already start / end there. If every waypoint is traversable (S_A),
    consecutive waypoints are joined by A* on ``W`` and CR = cost / gt cost (start cell
    included, Eq. 14); a leg that A* cannot join moves the sample to S_B. Otherwise (S_B) the
    legs are Bresenham lines and VR is the share of their pixels on impassable (or
    outside-the-map) cells. A missing prediction (None) is non-adherent with VR = 1 and CD
    measured against the straight S-E line.

    Args:
        cost_map: uint16 W of the sample (65535 impassable).
        waypoints: predicted ``(row, col)`` points, or None when the model gave none.
        gt_path: the A*-optimal dense ground truth ``(N, 2)``.
        start: S ``(row, col)``.
        end: E ``(row, col)``.
    """
    gt = np.asarray(gt_path, dtype=np.int32).reshape(-1, 2)
    if waypoints is None:
        line = bresenham(start, end)
        return TrajectoryScore(False, None, 1.0, chamfer_distance(line, gt), line)
    pts = [(int(round(r)), int(round(c))) for r, c in waypoints]
    if not pts or pts[0] != tuple(start):
        pts.insert(0, (int(start[0]), int(start[1])))
    if pts[-1] != tuple(end):
        pts.append((int(end[0]), int(end[1])))
    adherent = all(_inside(cost_map, p) and int(cost_map[p]) < IMPASSABLE for p in pts)
    dense: NDArray[np.int32] | None = None
    if adherent:
        cost = step_costs(cost_map)  # converted once for every leg
        passable = cost_map[cost_map < IMPASSABLE]
        lowest = float(passable.min()) if passable.size else 0.0
        legs: list[NDArray[np.int32]] = []
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            if a == b:
                continue
            leg = leg_path(cost, a, b, min_cost=lowest)
            if leg is None:
                adherent = False
                break
            legs.append(leg if not legs else leg[1:])
        if adherent:
            dense = np.concatenate(legs).astype(np.int32) if legs else \
                np.asarray([pts[0]], dtype=np.int32)
    if adherent and dense is not None:
        ratio = path_cost(cost_map, dense) / path_cost(cost_map, gt)
        return TrajectoryScore(True, ratio, None, chamfer_distance(dense, gt), dense)
    legs = [bresenham(a, b) for a, b in zip(pts[:-1], pts[1:], strict=True)]
    dense = np.concatenate([legs[0]] + [leg[1:] for leg in legs[1:]]).astype(np.int32)
    rows, cols = cost_map.shape
    inside = (dense[:, 0] >= 0) & (dense[:, 0] < rows) & (dense[:, 1] >= 0) & (dense[:, 1] < cols)
    blocked = ~inside
    blocked[inside] = cost_map[dense[inside, 0], dense[inside, 1]] >= IMPASSABLE
    return TrajectoryScore(False, None, float(blocked.mean()), chamfer_distance(dense, gt), dense)
