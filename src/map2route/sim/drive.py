"""A simulated drive without ROS: the follower and the world in one deterministic loop.

The same world (:class:`~map2route.sim.world.World`), base (:class:`MecanumBase`), scan
(:func:`cast_scan`) and follower (:class:`~map2route.control.PathFollower`) as
``sim_node`` + ``path_follower_node``, stepped in strict lockstep: each step casts the scan at
the current pose and time, asks the follower, saturates and integrates its twist for ``dt``,
and checks the new pose against the world at the new time. A colliding step is refused (a
bumper stops the base) and counted once per contact, as ``drove_into`` or ``struck``
(:meth:`World.contact`). Plain floats and numpy in a fixed order: a rerun is bit-identical.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from map2route.control import FollowerState
from map2route.control.follower import scan_to_points
from map2route.sim.kinematics import MecanumBase, Pose2D, Twist2D, integrate
from map2route.sim.lidar import LaserConfig, cast_scan

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from map2route.control import PathFollower
    from map2route.sim.world import World


@dataclass
class Drive:
    """The outcome of one drive.

    Attributes:
        arrived: the follower reported ARRIVED before ``time_limit``.
        drove_into / struck: collision events by kind (see :meth:`World.contact`).
        seconds: sim time of the drive; ``travelled_m`` the path length driven.
        min_gap_m: the smallest distance between the base's rectangle and a dynamic
            obstacle's disc over the drive (negative: overlap).
        trajectory: ``(N, 4)`` t, x, y, yaw after every step.
    """

    arrived: bool
    drove_into: int
    struck: int
    seconds: float
    travelled_m: float
    steps: int
    min_gap_m: float
    trajectory: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 4)))
    replans: int = 0

    @property
    def collisions(self) -> int:
        return self.drove_into + self.struck


def rectangle_gap(pose: Pose2D, half_length: float, half_width: float,
                  centres: NDArray[np.float64]) -> float:
    """Smallest distance from the rectangle at ``pose`` to the discs ``(K, 3)`` (x, y, r)."""
    if len(centres) == 0:
        return math.inf
    c, s = math.cos(pose.yaw), math.sin(pose.yaw)
    dx, dy = centres[:, 0] - pose.x, centres[:, 1] - pose.y
    u, v = c * dx + s * dy, -s * dx + c * dy
    ex = np.maximum(np.abs(u) - half_length, 0.0)
    ey = np.maximum(np.abs(v) - half_width, 0.0)
    inside = (ex == 0) & (ey == 0)
    depth = np.minimum(half_length - np.abs(u), half_width - np.abs(v))
    dist = np.where(inside, -depth, np.hypot(ex, ey))
    return float(np.min(dist - centres[:, 2]))


def drive(world: World, follower: PathFollower, route: NDArray[np.float64], start: Pose2D,
          base: MecanumBase, *, dt: float = 0.1, time_limit: float = 90.0,
          laser: LaserConfig | None = None,
          replan: Callable[[tuple[float, float], NDArray[np.float64]],
                           NDArray[np.float64] | None] | None = None) -> Drive:
    """Follow ``route`` from ``start`` in ``world`` until arrival or ``time_limit`` sim s.

    ``replan(position, points)`` stands in for ``route_planner_node``: when the follower finds
    no local detour it is called once per route with the map-frame points that block the way
    (:meth:`PathFollower.blocking_points`) and returns a new route, or ``None``.
    """
    laser = laser or LaserConfig()
    hl, hw = base.half_length, base.half_width
    follower.set_path(route)
    pose, t, steps = start, 0.0, 0
    counts = {"drove_into": 0, "struck": 0}
    touching = False
    gap = rectangle_gap(pose, hl, hw, world.obstacle_centres(t))
    traj = [(t, pose.x, pose.y, pose.yaw)]
    arrived, asked, replans = False, False, 0
    while t < time_limit - 1e-9:
        ranges = cast_scan(world, pose, laser, t)
        pts = scan_to_points(ranges, laser.angle_min, laser.angle_increment,
                             range_max=laser.range_max)
        cmd = follower.step(pose.x, pose.y, pose.yaw, pts, dt if steps else 0.0)
        if cmd.state is FollowerState.ARRIVED:
            arrived = True
            break
        if replan is not None and follower.needs_replan and not asked:
            asked = True
            new_route = replan((pose.x, pose.y),
                               follower.blocking_points(pose.x, pose.y, pose.yaw, pts))
            if new_route is not None:
                follower.set_path(new_route)
                replans += 1
                asked = False
        twist = base.saturate(Twist2D(cmd.vx, cmd.vy, cmd.wz))
        new_pose = integrate(pose, twist, dt)
        steps += 1
        t = steps * dt
        kind = world.contact(pose, new_pose, hl, hw, t)
        if kind is None:
            pose = new_pose
        elif not touching:
            counts[kind] += 1
        touching = kind is not None
        gap = min(gap, rectangle_gap(pose, hl, hw, world.obstacle_centres(t)))
        traj.append((t, pose.x, pose.y, pose.yaw))
    arr = np.asarray(traj, dtype=np.float64)
    travelled = float(np.hypot(*np.diff(arr[:, 1:3], axis=0).T).sum()) if len(arr) > 1 else 0.0
    return Drive(arrived=arrived, drove_into=counts["drove_into"], struck=counts["struck"],
                 seconds=t, travelled_m=travelled, steps=steps, min_gap_m=gap, trajectory=arr,
                 replans=replans)
