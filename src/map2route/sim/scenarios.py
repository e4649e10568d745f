"""Seeded moving-obstacle scenarios: people crossing a corridor of the route, boxes on it.

A scenario is a list of :class:`~map2route.sim.world.DynamicObstacle` drawn from a seeded
generator (``numpy.random.default_rng(seed)``), so the same seed always gives the same world;
it is written in ``sim_node``'s ``obstacles`` parameter syntax for the runner.

Given the world (``free``), people walk where a person can: each one's line across the way is
cut at the first wall, piece of furniture or box on either side, so a person walks from one
side of a room to the other and back, as people do, instead of through walls (sim people
still ignore the robot: they keep walking their line; see docs/ros.md, "Collisions").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from map2route.sim.errors import SimError
from map2route.sim.world import DynamicObstacle

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Person radius and the gap they keep to walls and furniture (m).
PERSON_RADIUS, PERSON_GAP = 0.25, 0.05


def crossing_scenario(seed: int, start: tuple[float, float], goal: tuple[float, float], *,
                      people: int = 1, boxes: int = 0, speed: tuple[float, float] = (0.3, 0.6),
                      half_span: float = 1.0,
                      free: Callable[[float, float, float], bool] | None = None,
                      route: NDArray[np.float64] | None = None,
                      pauses: tuple[float, float] = (2.0, 6.0), min_side: float = 0.3,
                      min_walk: float = 1.0) -> list[DynamicObstacle]:
    """People walking across the start->goal line, and static boxes beside it.

    Each person (a 0.25 m radius cylinder) walks back and forth across the line, ``half_span``
    metres to each side, at a point drawn between 30 % and 80 % of the way, at a speed drawn
    from ``speed``; each box (0.2 m radius) stands 0.5-0.8 m off the line.

    With ``free`` (``free(x, y, r)``: a disc of radius ``r`` there touches nothing of the
    map) the way is ``route`` (a polyline; the start-goal segment without one), crossing
    points are drawn between 30 % and 80 % of its length, and a person walks across it at
    right angles to it there; each person's line is cut where it would meet the map, up to
    ``half_span`` to each side, and they stand
    ``pauses`` seconds (drawn) at each end. A crossing point with less than ``min_side`` m of
    room on a side or a walk shorter than ``min_walk`` m (a doorway) is drawn again (up to 100
    times, then the person is left out); people's crossing points keep 0.6 m off each
    other's walks (two people do not walk through each other). Boxes come next, off the furniture (clear of the
    map by 0.35 m all round: not in a doorway) and 0.35 m off the people's walks, 0.5-0.8 m beside
    the way.
    """
    if free is not None:
        line = np.asarray(route if route is not None else [start, goal], dtype=np.float64)
        return _walkable_scenario(seed, line, people=people, boxes=boxes, speed=speed,
                                  half_span=half_span, free=free, pauses=pauses,
                                  min_side=min_side, min_walk=min_walk)
    rng = np.random.default_rng(seed)
    sx, sy = start
    dx, dy = goal[0] - sx, goal[1] - sy
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return []
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    out: list[DynamicObstacle] = []
    for _ in range(people):
        f = float(rng.uniform(0.3, 0.8))
        cx, cy = sx + f * dx, sy + f * dy
        out.append(DynamicObstacle(start=(cx - half_span * nx, cy - half_span * ny), radius=0.25,
                                   end=(cx + half_span * nx, cy + half_span * ny),
                                   speed=float(rng.uniform(*speed)), height=1.7))
    for _ in range(boxes):
        f = float(rng.uniform(0.3, 0.8))
        side = float(rng.choice([-1.0, 1.0])) * float(rng.uniform(0.5, 0.8))
        out.append(DynamicObstacle(start=(sx + f * dx + side * nx, sy + f * dy + side * ny),
                                   radius=0.2, height=0.4))
    return out


def _point_on(line: NDArray[np.float64], f: float) -> tuple[float, float, float, float]:
    """The point at fraction ``f`` of the polyline's length and the unit normal there."""
    seg = np.diff(line, axis=0)
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    arc = np.concatenate([[0.0], np.cumsum(lengths)])
    s = f * arc[-1]
    k = int(min(np.searchsorted(arc, s, side="right") - 1, len(seg) - 1))
    while lengths[k] < 1e-9 and k > 0:
        k -= 1
    u = seg[k] / max(lengths[k], 1e-9)
    p = line[k] + u * (s - arc[k])
    # The direction over about 0.5 m around the point: a grid route's steps are jagged.
    a = line[int(np.searchsorted(arc, s - 0.25).clip(0, len(line) - 1))]
    b = line[int(np.searchsorted(arc, s + 0.25).clip(0, len(line) - 1))]
    d = b - a
    n = float(np.hypot(*d))
    ux, uy = (d / n) if n > 1e-9 else u
    return float(p[0]), float(p[1]), float(-uy), float(ux)


def _walkable_scenario(seed: int, line: NDArray[np.float64], *, people: int, boxes: int,
                       speed: tuple[float, float], half_span: float,
                       free: Callable[[float, float, float], bool], pauses: tuple[float, float],
                       min_side: float, min_walk: float) -> list[DynamicObstacle]:
    rng = np.random.default_rng(seed)
    if len(line) < 2 or float(np.hypot(*(line[-1] - line[0]))) < 1e-6:
        return []
    step = 0.05
    walkers: list[DynamicObstacle] = []

    def off_walks(x: float, y: float, r: float) -> bool:
        """Whether a disc of ``r`` at ``(x, y)`` keeps off every placed person's walk."""
        for w in walkers:
            assert w.end is not None
            a, b = np.asarray(w.start), np.asarray(w.end)
            ab = b - a
            f = float(np.clip(np.dot(np.array([x, y]) - a, ab) / max(float(ab @ ab), 1e-12),
                              0.0, 1.0))
            if float(np.hypot(*(a + f * ab - (x, y)))) <= r + w.radius + PERSON_GAP:
                return False
        return True

    for _ in range(people):
        for _try in range(100):
            cx, cy, nx, ny = _point_on(line, float(rng.uniform(0.3, 0.8)))
            v = float(rng.uniform(*speed))
            pause = float(rng.uniform(*pauses))
            reach = []
            for sign in (-1.0, 1.0):
                d = 0.0
                while d + step <= half_span + 1e-9 and free(cx + sign * (d + step) * nx,
                                                            cy + sign * (d + step) * ny,
                                                            PERSON_RADIUS + PERSON_GAP):
                    d += step
                reach.append(d if free(cx, cy, PERSON_RADIUS + PERSON_GAP) else 0.0)
            if min(reach) >= min_side and sum(reach) >= min_walk and \
                    off_walks(cx, cy, PERSON_RADIUS + 0.3):
                walkers.append(DynamicObstacle(
                    start=(cx - reach[0] * nx, cy - reach[0] * ny), radius=PERSON_RADIUS,
                    end=(cx + reach[1] * nx, cy + reach[1] * ny), speed=v, height=1.7,
                    pause=pause))
                break

    placed: list[DynamicObstacle] = []
    for _ in range(boxes):
        for _try in range(100):
            cx, cy, nx, ny = _point_on(line, float(rng.uniform(0.3, 0.8)))
            side = float(rng.choice([-1.0, 1.0])) * float(rng.uniform(0.5, 0.8))
            bx, by = cx + side * nx, cy + side * ny
            if free(bx, by, 0.2 + 0.35) and off_walks(bx, by, 0.2 + 0.3):
                placed.append(DynamicObstacle(start=(bx, by), radius=0.2, height=0.4))
                break
    return walkers + placed


def obstacles_param(obstacles: list[DynamicObstacle]) -> str:
    """The obstacles in ``sim_node``'s ``obstacles`` syntax (``x,y,r`` /
    ``x0,y0,r,x1,y1,v[,pause]``)."""
    parts = []
    for o in obstacles:
        if o.end is None or o.speed <= 0:
            parts.append(f"{o.start[0]:.3f},{o.start[1]:.3f},{o.radius:.3f}")
        else:
            pause = f",{o.pause:.3f}" if o.pause > 0 else ""
            parts.append(f"{o.start[0]:.3f},{o.start[1]:.3f},{o.radius:.3f},"
                         f"{o.end[0]:.3f},{o.end[1]:.3f},{o.speed:.3f}{pause}")
    return ";".join(parts)


def parse_obstacles(text: str) -> list[DynamicObstacle]:
    """``"x,y,r; x0,y0,r,x1,y1,speed[,pause]"`` -> obstacles.

    Raises:
        SimError: naming the entry that is not 3 or 6 numbers.
    """
    out: list[DynamicObstacle] = []
    for entry in filter(None, (e.strip() for e in text.split(";"))):
        try:
            v = [float(x) for x in entry.split(",")]
        except ValueError as err:
            raise SimError(f"obstacle {entry!r} is not numbers: {err}") from err
        if not all(math.isfinite(x) for x in v):
            raise SimError(f"obstacle {entry!r} has a NaN or infinite number; use finite metres "
                           "and m/s")
        if len(v) == 3 and v[2] > 0:
            out.append(DynamicObstacle(start=(v[0], v[1]), radius=v[2]))
        elif len(v) in (6, 7) and v[2] > 0 and v[5] >= 0 and (len(v) == 6 or v[6] >= 0):
            out.append(DynamicObstacle(start=(v[0], v[1]), radius=v[2], end=(v[3], v[4]),
                                       speed=v[5], pause=v[6] if len(v) == 7 else 0.0))
        else:
            raise SimError(f"obstacle {entry!r} must be 'x,y,r' or 'x0,y0,r,x1,y1,speed' "
                           "or 'x0,y0,r,x1,y1,speed,pause' with r > 0, speed and pause >= 0")
    return out
