"""Where a simulated robot starts when no start is given (both the in-process sim and Gazebo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from map2route.control import inflate_for_robot
from map2route.sim.errors import SimError
from map2route.sim.kinematics import Pose2D
from map2route.sim.world import World

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap


def default_start(m: SemanticMap, clearance_m: float = 0.4) -> tuple[float, float]:
    """A free start: the cell with ``clearance_m`` to obstacles nearest the largest room's centre.

    Raises:
        SimError: no cell of the map has that clearance.
    """
    free = inflate_for_robot(m, clearance_m).traversable
    rows, cols = np.nonzero(free)
    if rows.size == 0:
        raise SimError(f"scene {m.name!r} has no cell with {clearance_m} m clearance to start")
    room = max(m.rooms, key=lambda r: r.area_m2) if m.rooms else None
    cx, cy = room.centroid if room else m.grid.cell_to_world(m.grid.rows / 2, m.grid.cols / 2)
    xy = m.grid.cells_to_worlds(np.stack([rows, cols], axis=1))
    order = np.argsort(np.hypot(xy[:, 0] - cx, xy[:, 1] - cy))
    world = World.from_map(m)
    for i in order[:200]:
        if not world.collides(Pose2D(float(xy[i, 0]), float(xy[i, 1]), 0.0), 0.25, 0.25):
            return float(xy[i, 0]), float(xy[i, 1])
    return float(xy[order[0], 0]), float(xy[order[0], 1])
