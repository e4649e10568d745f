"""Local detours around obstacles the map does not have (a box on the route, a person).

The follower's fan of straight directions handles an obstacle beside the route; one squarely
on it, between other obstacles, leaves every straight direction short and the base dithers.
Then the follower plans a detour (the local step of the issue's "local detour first, global
replan when blocked"): the live obstacle points go into a small grid around the base, grown
by the base's half width plus a margin (a distance transform), and A*
(:func:`map2route.gridsearch.kernel.search`) finds the cheapest way, preferring clearance,
from the base to the route beyond the blocked stretch, inside a corridor of ``corridor`` metres
around the route (space the sensors have not seen is unknown, not free: a wall hidden behind
the obstacle must not be planned through; the route itself is known to be clear of the map). The route is then followed along the
detour and on from where it rejoins. No detour within the window means the way is shut
locally: the caller asks for a global replan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy.ndimage import distance_transform_edt

from map2route.gridsearch.errors import NoPathError
from map2route.gridsearch.kernel import search

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True)
class DetourConfig:
    """Window half size and cell size (m), the clearance radius that blocks a cell (m), and
    the clearance (m) below which cells cost more (up to ``1 + clearance_weight``), and the
    largest distance (m) from the route a detour may go."""

    half_size: float = 3.0
    resolution: float = 0.1
    radius: float = 0.33
    comfort: float = 0.7
    clearance_weight: float = 3.0
    corridor: float = 0.9


def plan_detour(points: NDArray[np.float64], position: tuple[float, float],
                route: NDArray[np.float64], arc: NDArray[np.float64], index: int,
                config: DetourConfig) -> tuple[NDArray[np.float64], int] | None:
    """A detour from ``position`` to the route past the obstacles, or ``None``.

    Args:
        points: ``(N, 2)`` obstacle points in the route's frame.
        position: the base's ``(x, y)`` in the route's frame.
        route, arc: the route ``(M, 2)`` and the arc length at each of its points.
        index: the route point the base is at.

    Returns:
        ``(waypoints, j)``: the detour's ``(K, 2)`` points ending on route point ``j``, or
        ``None`` when no route point ahead can be reached inside the window.
    """
    cfg = config
    n = int(round(2 * cfg.half_size / cfg.resolution))
    ox, oy = position[0] - cfg.half_size, position[1] - cfg.half_size

    def cell(xy: NDArray[np.float64]) -> NDArray[np.int64]:
        # (row, col) = (y, x) cells of the window
        return np.floor(np.column_stack([(xy[:, 1] - oy), (xy[:, 0] - ox)])
                        / cfg.resolution).astype(np.int64)

    occupied = np.zeros((n, n), dtype=bool)
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    rc = cell(pts)
    inside = ((rc >= 0) & (rc < n)).all(axis=1)
    occupied[rc[inside, 0], rc[inside, 1]] = True
    clearance = distance_transform_edt(~occupied) * cfg.resolution if occupied.any() else \
        np.full((n, n), np.inf)
    cost = 1.0 + cfg.clearance_weight * np.clip(1.0 - clearance / cfg.comfort, 0.0, 1.0)
    cost[clearance < cfg.radius] = np.inf
    # The corridor: cells within ``corridor`` of the route (sampled every half cell).
    seg_len = np.linalg.norm(np.diff(route, axis=0), axis=1) if len(route) > 1 else np.zeros(0)
    dense = [route[:1]] + [np.linspace(a, b, max(2, int(d / (cfg.resolution / 2)) + 1))[1:]
                           for a, b, d in zip(route[:-1], route[1:], seg_len, strict=True)]
    route_cells = cell(np.concatenate(dense))
    on = ((route_cells >= 0) & (route_cells < n)).all(axis=1)
    on_route = np.zeros((n, n), dtype=bool)
    on_route[route_cells[on, 0], route_cells[on, 1]] = True
    if on_route.any():
        cost[distance_transform_edt(~on_route) * cfg.resolution > cfg.corridor] = np.inf
    start = cell(np.array([position]))[0]
    # The base may already stand closer than the radius to something (it stopped there): free
    # a small disc around it so the search can start.
    rr, cc = np.mgrid[0:n, 0:n]
    near_start = np.hypot(rr - start[0], cc - start[1]) * cfg.resolution <= cfg.radius
    opened = near_start & ~occupied
    cost[opened] = np.minimum(cost[opened], 1.0 + cfg.clearance_weight)

    route_rc = cell(route)
    in_window = np.asarray(((route_rc >= 1) & (route_rc < n - 1)).all(axis=1), dtype=bool)
    ahead = np.arange(len(route)) > index
    free = np.zeros(len(route), dtype=bool)
    free[in_window] = np.isfinite(cost[route_rc[in_window, 0], route_rc[in_window, 1]])
    blocked_ahead = np.nonzero(ahead & in_window & ~free)[0]
    if blocked_ahead.size:
        # Rejoin past the end of the first blocked stretch of the route.
        k = int(blocked_ahead[0])
        while k + 1 < len(route) and in_window[k + 1] and not free[k + 1]:
            k += 1
        lo, hi = arc[k], arc[k] + 1.0
    else:
        lo, hi = arc[index] + 1.0, arc[index] + 2.0
    goal_idx = np.nonzero(ahead & free & (arc >= lo) & (arc <= hi))[0]
    if goal_idx.size == 0:
        return None
    goal = np.zeros((n, n), dtype=bool)
    goal[route_rc[goal_idx, 0], route_rc[goal_idx, 1]] = True
    try:
        found = search(cost, (int(start[0]), int(start[1])), goal)
    except NoPathError:
        return None
    end = found.goal
    reached = (route_rc[goal_idx, 0] == end[0]) & (route_rc[goal_idx, 1] == end[1])
    j = int(goal_idx[np.argmax(reached)])
    cells = found.cells.astype(np.float64)
    way = np.column_stack([ox + (cells[:, 1] + 0.5) * cfg.resolution,
                           oy + (cells[:, 0] + 0.5) * cfg.resolution])
    way[0] = position
    way[-1] = route[j]
    return way, j
