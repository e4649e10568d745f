"""The simulated world: what blocks the robot and its LiDAR, and ground-truth collisions.

The obstacle layer is rebuilt from the map's geometry, not from its ``traversable`` layer
(which a planner may have eroded): walls, everything outside the house, and the footprints of
objects standing on the floor (``parent_id is None``; a pan on a countertop is inside the
countertop's footprint anyway), except structure listed as objects (doorways, door frames,
windows, walls) and objects starting above the base's height (paintings). Each obstacle cell also has a top height, for the 3D cloud.
Dynamic obstacles are vertical cylinders moving at constant velocity, bouncing between two
points, so avoidance tests can put something on a route after it was planned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely

from map2route.sim.errors import SimError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap
    from map2route.sim.kinematics import Pose2D

#: Height of walls for the 3D cloud (m); ProcTHOR walls are taller than the Mid-360's reach.
WALL_HEIGHT_M = 2.5
#: Objects that start higher than this (paintings, wall TVs) do not block the base.
BODY_HEIGHT_M = 0.6
#: Structure the map lists as objects: walls are in the wall layer already, doorways and
#: door frames are openings, windows sit in walls.
STRUCTURE = frozenset({"wall", "doorway", "doorframe", "window"})


@dataclass(frozen=True)
class DynamicObstacle:
    """A cylinder of radius ``radius`` moving from ``start`` toward ``end`` and back.

    ``speed`` 0 makes it static at ``start`` (a box dropped on the route). ``pause`` seconds
    are spent standing at each end before turning back (a person who walked to the counter).
    """

    start: tuple[float, float]
    radius: float
    end: tuple[float, float] | None = None
    speed: float = 0.0
    height: float = 1.0
    pause: float = 0.0

    def position(self, t: float) -> tuple[float, float]:
        """Centre at sim time ``t``: walk to ``end``, stand ``pause`` s, walk back, stand."""
        if self.end is None or self.speed <= 0:
            return self.start
        dx, dy = self.end[0] - self.start[0], self.end[1] - self.start[1]
        length = math.hypot(dx, dy)
        if length == 0:
            return self.start
        walk = length / self.speed
        period = 2.0 * (walk + self.pause)
        s = t % period
        if s <= walk:
            f = s / walk
        elif s <= walk + self.pause:
            f = 1.0
        elif s <= 2.0 * walk + self.pause:
            f = 1.0 - (s - walk - self.pause) / walk
        else:
            f = 0.0
        return self.start[0] + f * dx, self.start[1] + f * dy


@dataclass
class World:
    """Obstacles of one scene plus dynamic obstacles.

    Attributes:
        blocked: bool ``(rows, cols)`` of static obstacles (row 0 = bottom).
        top: float32 ``(rows, cols)`` top height of each blocked cell (m), 0 where free.
        obstacles: the dynamic obstacles (mutable: a test may add one mid-run).
    """

    map: SemanticMap
    blocked: NDArray[np.bool_]
    top: NDArray[np.float32]
    obstacles: list[DynamicObstacle]

    @classmethod
    def from_map(cls, m: SemanticMap, obstacles: list[DynamicObstacle] | None = None) -> World:
        """Build the obstacle layers of ``m`` (see the module docstring)."""

        blocked = m.walls | (m.room_ids < 0)
        top = np.where(blocked, np.float32(WALL_HEIGHT_M), np.float32(0.0)).astype(np.float32)
        xx, yy = m.grid.cell_centres()
        for o in m.objects:
            if o.parent_id is not None or o.category in STRUCTURE or o.z_min > BODY_HEIGHT_M:
                continue
            # A cell is the object's when its centre is inside the footprint (closed polygon),
            # the same rule the map's rasteriser uses.
            fp = np.asarray(o.footprint)
            (r0, c0), (r1, c1) = m.grid.worlds_to_cells(np.stack([fp.min(0), fp.max(0)]))
            r0, c0 = max(r0, 0), max(c0, 0)
            r1, c1 = min(r1 + 1, m.grid.rows - 1), min(c1 + 1, m.grid.cols - 1)
            if r1 < r0 or c1 < c0:
                continue
            poly = shapely.Polygon(fp)
            sub = (slice(r0, r1 + 1), slice(c0, c1 + 1))
            inside = shapely.intersects_xy(poly, xx[sub], yy[sub])
            height = max(float(o.z_max), 0.05)
            top[sub][inside] = np.maximum(top[sub][inside], height)
            blocked[sub] |= inside
        return cls(map=m, blocked=blocked, top=top, obstacles=list(obstacles or []))

    def obstacle_centres(self, t: float) -> NDArray[np.float64]:
        """``(K, 3)``: x, y, radius of every dynamic obstacle at time ``t``."""
        if not self.obstacles:
            return np.zeros((0, 3))
        return np.array([(*o.position(t), o.radius) for o in self.obstacles], dtype=np.float64)

    def footprint_points(self, pose: Pose2D, half_length: float, half_width: float
                         ) -> NDArray[np.float64]:
        """Sample points (spacing <= half a cell) covering the robot's rectangle at ``pose``."""
        step = self.map.grid.cells_to_meters(0.5)
        nx = max(2, int(math.ceil(2 * half_length / step)) + 1)
        ny = max(2, int(math.ceil(2 * half_width / step)) + 1)
        u, v = np.meshgrid(np.linspace(-half_length, half_length, nx),
                           np.linspace(-half_width, half_width, ny))
        c, s = math.cos(pose.yaw), math.sin(pose.yaw)
        x = pose.x + c * u - s * v
        y = pose.y + s * u + c * v
        return np.stack([x.ravel(), y.ravel()], axis=1)

    def disc_free(self, x: float, y: float, radius: float) -> bool:
        """Whether a disc of ``radius`` at ``(x, y)`` stays on the grid and off the map's
        obstacles (sampled every half cell)."""
        step = self.map.grid.resolution / 2.0
        n = int(math.ceil(radius / step))
        u = np.arange(-n, n + 1) * step
        uu, vv = np.meshgrid(u, u)
        inside = uu**2 + vv**2 <= radius**2
        pts = np.stack([x + uu[inside], y + vv[inside]], axis=1)
        g = self.map.grid
        cells = g.worlds_to_cells(pts)
        r, c = cells[:, 0], cells[:, 1]
        if ((r < 0) | (r >= g.rows) | (c < 0) | (c >= g.cols)).any():
            return False
        return not bool(self.blocked[r, c].any())

    def collides(self, pose: Pose2D, half_length: float, half_width: float, t: float = 0.0
                 ) -> bool:
        """Ground truth: does the robot's rectangle overlap a static or dynamic obstacle?"""
        return bool(self.touching(pose, half_length, half_width, t))

    def touching(self, pose: Pose2D, half_length: float, half_width: float, t: float = 0.0
                 ) -> list[int]:
        """What the robot's rectangle at ``pose`` overlaps at time ``t``: ``-1`` for the map
        (walls, furniture, outside the grid), then the index of each dynamic obstacle."""
        if half_length <= 0 or half_width <= 0:
            raise SimError(f"robot half sizes must be positive, got {half_length}, {half_width}")
        pts = self.footprint_points(pose, half_length, half_width)
        g = self.map.grid
        cells = g.worlds_to_cells(pts)
        r, cc = cells[:, 0], cells[:, 1]
        outside = (r < 0) | (r >= g.rows) | (cc < 0) | (cc >= g.cols)
        out = []
        if outside.any() or self.blocked[r, cc].any():
            out.append(-1)
        for k, (ox, oy, rad) in enumerate(self.obstacle_centres(t)):
            if np.any((pts[:, 0] - ox) ** 2 + (pts[:, 1] - oy) ** 2 <= rad**2):
                out.append(k)
        return out

    def contact(self, before: Pose2D, after: Pose2D, half_length: float, half_width: float,
                t: float) -> str | None:
        """Whether a step that moves the robot from ``before`` to ``after``, ending at time
        ``t``, collides, and whose doing it is (the collision definition of docs/ros.md).

        ``None``: no overlap at ``after``. ``"drove_into"``: the robot's own motion made the
        overlap (at ``t`` it would not overlap anything had it stayed at ``before``).
        ``"struck"``: something moved onto the robot where it stood (it overlaps ``before``
        at ``t`` too: a person walked into it). Both count as collisions.
        """
        hit = self.touching(after, half_length, half_width, t)
        if not hit:
            return None
        stayed = set(self.touching(before, half_length, half_width, t))
        return "struck" if stayed & set(hit) else "drove_into"
