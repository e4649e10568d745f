"""Inflate a map by the robot's footprint, so a planned route keeps the body off obstacles.

The planner treats the robot as a point on ``traversable``; a route along a wall would put half
of a 0.5 m base into it. Eroding ``traversable`` by the circumscribed radius (plus a margin)
keeps the centre far enough from every non-traversable cell (``cv2.distanceTransform``, exact
Euclidean distance in cells).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import cv2
import numpy as np

from map2route.control.errors import ControlError

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap


def inflate_for_robot(m: SemanticMap, radius_m: float, *,
                      keep: tuple[float, float] | None = None) -> SemanticMap:
    """A copy of ``m`` whose traversable cells are at least ``radius_m`` from any blocked cell.

    A map whose ``metadata["robot_radius_m"]`` says its traversable layer is already eroded
    by that much is eroded only by the rest.

    Args:
        m: the map.
        radius_m: clearance from the robot's centre to obstacles (m), >= 0.
        keep: a point (the robot's start): originally traversable cells within ``radius_m``
            of it stay traversable, so a robot parked near a wall can still leave.

    Raises:
        ControlError: negative radius.
    """

    if radius_m < 0:
        raise ControlError(f"inflation radius must be >= 0, got {radius_m}")
    # Scenes imported from ProcTHOR already erode free space by ``robot_radius_m``.
    eroded = m.metadata.get("robot_radius_m", 0.0)
    done = float(eroded) if isinstance(eroded, int | float) else 0.0
    extra = radius_m - done
    if extra <= 0:
        return m
    free = m.traversable.astype(np.uint8)
    dist_cells = cv2.distanceTransform(free, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    # A cell centre at distance d (cells) from the nearest blocked cell centre lies
    # d - 0.5 cells from that cell's edge.
    traversable = m.traversable & (m.grid.cells_to_meters(dist_cells - 0.5) >= extra)
    if keep is not None:
        traversable |= m.traversable & m.disk_mask(keep, radius_m + m.grid.cells_to_meters(1))
    return dataclasses.replace(m, traversable=traversable)
