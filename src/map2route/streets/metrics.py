"""Trajectory metrics of GROKE's public evaluation code: NE, SR, OSR, nDTW, SDTW, accuracy@d.

Distances are haversine metres between nodes. With ``d(a, b)`` the haversine distance:

- NE = d(last predicted node, goal) (navigation error).
- SR = 1[NE <= 25 m]; OSR = 1[min over predicted nodes of d(node, goal) <= 25 m].
- DTW_m = dynamic time warping of the predicted against the reference path with local cost
  ``d``; nDTW = exp(-DTW_m / reference_length_m) (reference_length_m: sum of the reference
  path's link lengths); SDTW = nDTW when successful, else 0.
- accuracy@d = 1[NE <= d] for d in 25/50/100/150 m.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from map2route.streets.geo import haversine_matrix_m
from map2route.streets.graph import StreetGraph

#: GROKE's success radius (m).
SUCCESS_RADIUS_M = 25.0
#: Radii of the accuracy@d columns (m).
ACCURACY_RADII_M = (25.0, 50.0, 100.0, 150.0)


@dataclass(frozen=True)
class TrajectoryScore:
    """Per-trajectory metrics; the benchmark averages them."""

    ne_m: float
    sr: float
    osr: float
    ndtw: float
    sdtw: float
    acc_25: float
    acc_50: float
    acc_100: float
    acc_150: float
    length_m: float
    reference_length_m: float

    def to_dict(self) -> dict[str, float]:
        """Field name -> value."""
        return asdict(self)


def dtw_m(pred_lat: np.ndarray, pred_lng: np.ndarray, ref_lat: np.ndarray,
          ref_lng: np.ndarray) -> float:
    """Dynamic time warping distance (m) with haversine local cost (O(N*M) dynamic program)."""
    cost = haversine_matrix_m(pred_lat, pred_lng, ref_lat, ref_lng)
    n, m = cost.shape
    acc = np.full((n + 1, m + 1), np.inf)
    acc[0, 0] = 0.0
    for i in range(1, n + 1):
        row = cost[i - 1]
        prev = acc[i - 1]
        cur = acc[i]
        for j in range(1, m + 1):
            cur[j] = row[j - 1] + min(prev[j], cur[j - 1], prev[j - 1])
    return float(acc[n, m])


def score_paths(graph: StreetGraph, predicted: Sequence[int], reference: Sequence[int], *,
                success_radius_m: float = SUCCESS_RADIUS_M) -> TrajectoryScore:
    """Score a predicted node path against the reference path (node indices of ``graph``).

    Raises:
        ValueError: when either path is empty.
    """
    if not predicted or not reference:
        raise ValueError("score_paths needs non-empty predicted and reference paths")
    p = np.asarray(predicted, dtype=np.int64)
    r = np.asarray(reference, dtype=np.int64)
    goal = r[-1:]
    to_goal = haversine_matrix_m(graph.lat[p], graph.lng[p], graph.lat[goal], graph.lng[goal])[:, 0]
    ne = float(to_goal[-1])
    success = ne <= success_radius_m
    osr = float(to_goal.min() <= success_radius_m)
    ref_len = graph.path_length_m(list(r))
    dist = dtw_m(graph.lat[p], graph.lng[p], graph.lat[r], graph.lng[r])
    ndtw = math.exp(-dist / ref_len) if ref_len > 0 else float(dist == 0.0)
    return TrajectoryScore(
        ne_m=ne, sr=float(success), osr=osr, ndtw=ndtw, sdtw=ndtw if success else 0.0,
        acc_25=float(ne <= ACCURACY_RADII_M[0]), acc_50=float(ne <= ACCURACY_RADII_M[1]),
        acc_100=float(ne <= ACCURACY_RADII_M[2]), acc_150=float(ne <= ACCURACY_RADII_M[3]),
        length_m=graph.path_length_m(list(p)), reference_length_m=ref_len)


def mean_scores(scores: Sequence[TrajectoryScore]) -> dict[str, float]:
    """Average every field over ``scores`` (empty input gives an empty dict)."""
    if not scores:
        return {}
    keys = scores[0].to_dict().keys()
    return {k: float(np.mean([s.to_dict()[k] for s in scores])) for k in keys}
