"""Seeded moving-obstacle scenarios: people crossing a corridor of the route, boxes on it.

A scenario is a list of :class:`~map2route.sim.world.DynamicObstacle` drawn from a seeded
generator (``numpy.random.default_rng(seed)``), so the same seed always gives the same world;
it is written in ``sim_node``'s ``obstacles`` parameter syntax for the runner.
"""

from __future__ import annotations

import math

import numpy as np

from map2route.sim.world import DynamicObstacle


def crossing_scenario(seed: int, start: tuple[float, float], goal: tuple[float, float], *,
                      people: int = 1, boxes: int = 0, speed: tuple[float, float] = (0.3, 0.6),
                      half_span: float = 1.0) -> list[DynamicObstacle]:
    """People walking across the start->goal line, and static boxes beside it.

    Each person (a 0.25 m radius cylinder) walks back and forth across the line, ``half_span``
    metres to each side, at a point drawn between 30 % and 80 % of the way, at a speed drawn
    from ``speed``; each box (0.2 m radius) stands 0.5-0.8 m off the line.
    """
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


def obstacles_param(obstacles: list[DynamicObstacle]) -> str:
    """The obstacles in ``sim_node``'s ``obstacles`` syntax (``x,y,r`` / ``x0,y0,r,x1,y1,v``)."""
    parts = []
    for o in obstacles:
        if o.end is None or o.speed <= 0:
            parts.append(f"{o.start[0]:.3f},{o.start[1]:.3f},{o.radius:.3f}")
        else:
            parts.append(f"{o.start[0]:.3f},{o.start[1]:.3f},{o.radius:.3f},"
                         f"{o.end[0]:.3f},{o.end[1]:.3f},{o.speed:.3f}")
    return ";".join(parts)
