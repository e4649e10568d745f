"""Seeded drives among moving obstacles: collisions, arrivals and rerun identity.

Drive ``i`` takes the two-room house ("go to the fridge" from the bedroom, :data:`START`)
with :func:`map2route.sim.scenarios.crossing_scenario` seed ``i``: people crossing the
start-goal line, a box beside it. Every seed is driven twice; a drive is identical on rerun
when its outcome, collision counts, sim time and trajectory digest (every pose to 1e-9 m)
match. This module holds the pure-Python (``core``) stack: the same grounder, planner,
follower and world as the ROS nodes, in one loop (:func:`map2route.sim.drive.drive`);
:mod:`map2route.ros.moving_bench` drives the ROS stack with the same seeds and table.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.config import read_yaml
from map2route.control import FollowerConfig, PathFollower, inflate_for_robot
from map2route.errors import Map2RouteError
from map2route.grounding import make_grounder
from map2route.paths import config_dir
from map2route.planning import PlannerConfig, plan_route
from map2route.semantic_map.synthetic import two_room_house
from map2route.sim.drive import drive as drive_world
from map2route.sim.kinematics import MecanumBase, Pose2D
from map2route.sim.scenarios import crossing_scenario
from map2route.sim.world import World

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap
    from map2route.sim.world import DynamicObstacle

START, GOAL = (1.5, 1.0), (5.5, 2.8)
INSTRUCTION = "go to the fridge"
#: people per drive, boxes per drive, walking speeds (m/s): issue 20's 0.6 m/s crossing and
#: issue 16's 2 m/s one are inside the range.
PEOPLE, BOXES, SPEEDS, PAUSES = 2, 1, (0.3, 2.0), (3.0, 8.0)
#: how far (m) to each side of the way a person walks at most (walls and furniture cut it).
HALF_SPAN = 3.0


def scenario(seed: int, m: SemanticMap, route: NDArray[np.float64]) -> list[DynamicObstacle]:
    """The moving obstacles of drive ``seed`` in ``m``: people crossing the planned ``route``
    where people can walk, a box beside it in open floor."""
    world = World.from_map(m)
    return crossing_scenario(seed, START, GOAL, people=PEOPLE, boxes=BOXES, speed=SPEEDS,
                             half_span=HALF_SPAN, free=world.disc_free, route=route,
                             pauses=PAUSES)


@dataclass(frozen=True)
class DriveRow:
    """One drive's outcome, the same for both stacks."""

    seed: int
    stack: str
    arrived: bool
    drove_into: int
    struck: int
    sim_seconds: float
    travelled_m: float
    route_length_m: float
    digest: str
    wall_seconds: float = 0.0

    @property
    def collisions(self) -> int:
        return self.drove_into + self.struck

    def key(self) -> tuple[Any, ...]:
        """What must match on a rerun."""
        return (self.arrived, self.drove_into, self.struck, round(self.sim_seconds, 6),
                self.digest)


def trajectory_digest(traj: NDArray[np.float64]) -> str:
    """A short hash of ``(N, k)`` poses rounded to 1e-9 (bit noise below that is ignored)."""
    rounded = np.round(np.asarray(traj, dtype=np.float64), 9) + 0.0  # -0.0 -> 0.0
    return hashlib.sha256(rounded.tobytes()).hexdigest()[:12]


def _node_params(name: str) -> dict[str, Any]:
    data = read_yaml(config_dir() / f"{name}.yaml", what="parameter file") or {}
    return dict(data[name]["ros__parameters"])


class Planner:
    """Grounds :data:`INSTRUCTION` once and plans it as ``grounding_node`` and
    ``route_planner_node`` do (same grounder, inflation and planner configuration), replanning
    around reported obstacle cells as the node does on ``/route/obstacles``."""

    def __init__(self, m: SemanticMap) -> None:
        self.map = m
        grounder = make_grounder(str(_node_params("grounding_node")["grounder"]))
        self.routeir = grounder.ground(INSTRUCTION, m, START).routeir
        self.radius = float(_node_params("route_planner_node")["inflation_radius"])
        self.config = PlannerConfig.from_yaml(None)
        self.reported = np.zeros(m.grid.shape, dtype=bool)

    def plan(self, start: tuple[float, float]) -> NDArray[np.float64]:
        m = dataclasses.replace(self.map, traversable=self.map.traversable & ~self.reported)
        route = plan_route(inflate_for_robot(m, self.radius, keep=start), self.routeir, start,
                           config=self.config)
        return np.asarray(route.points, dtype=np.float64)

    def replan(self, start: tuple[float, float], points: NDArray[np.float64]
               ) -> NDArray[np.float64] | None:
        g = self.map.grid
        cells = g.worlds_to_cells(points)
        ok = (cells[:, 0] >= 0) & (cells[:, 0] < g.rows) & (cells[:, 1] >= 0) & \
            (cells[:, 1] < g.cols)
        self.reported[cells[ok, 0], cells[ok, 1]] = True
        try:
            return self.plan(start)
        except Map2RouteError:
            return None


def plan_drive_route(m: SemanticMap) -> NDArray[np.float64]:
    """The first route of a drive (see :class:`Planner`)."""
    return Planner(m).plan(START)


def core_drive(seed: int, m: SemanticMap, route: NDArray[np.float64], *,
               time_limit: float = 90.0) -> DriveRow:
    """Drive ``seed`` with the pure-Python stack."""
    import time  # noqa: PLC0415 - wall time only for the table

    sim = _node_params("sim_node")
    follower_params = _node_params("path_follower_node")
    follower = PathFollower(FollowerConfig.from_params(follower_params))
    # The follower's /map: everything that is not free space.
    follower.set_static_map(~m.traversable, m.grid.origin_x, m.grid.origin_y, m.grid.resolution)
    world = World.from_map(m, scenario(seed, m, route))
    base = MecanumBase(sim["vehicle_length"] / 2, sim["vehicle_width"] / 2,
                       sim["wheel_radius"], sim["max_wheel_speed"])
    wall0 = time.perf_counter()
    planner = Planner(m)
    d = drive_world(world, follower, route, Pose2D(START[0], START[1], 0.0), base,
                    dt=float(sim["dt"]), time_limit=time_limit, replan=planner.replan)
    length = float(np.hypot(*np.diff(route, axis=0).T).sum())
    return DriveRow(seed, "core", d.arrived, d.drove_into, d.struck, d.seconds, d.travelled_m,
                    length, trajectory_digest(d.trajectory), time.perf_counter() - wall0)


def run_core(seeds: list[int], *, time_limit: float = 90.0,
             advance: Callable[[], None] | None = None) -> tuple[list[DriveRow], list[DriveRow]]:
    """Every seed twice with the core stack: (first drives, reruns)."""
    m = two_room_house()
    route = plan_drive_route(m)
    out: tuple[list[DriveRow], list[DriveRow]] = ([], [])
    for rows in out:
        for s in seeds:
            rows.append(core_drive(s, m, route, time_limit=time_limit))
            if advance is not None:
                advance()
    return out


def summary(first: list[DriveRow], second: list[DriveRow]) -> dict[str, Any]:
    """The table's numbers: arrivals, collisions by kind, rerun identity, lengths and times."""
    n = len(first)
    same = sum(a.key() == b.key() for a, b in zip(first, second, strict=True))

    def mean(values: list[float]) -> float:
        return float(np.mean(values)) if values else math.nan

    both = first + second
    return {"drives": n, "arrived": sum(r.arrived for r in first),
            "collisions": sum(r.collisions for r in both),
            "drives_with_collisions": sum(r.collisions > 0 for r in both),
            "drove_into": sum(r.drove_into for r in both), "struck": sum(r.struck for r in both),
            "identical_on_rerun": same,
            "route_length_m": mean([r.route_length_m for r in first]),
            "travelled_m": mean([r.travelled_m for r in first]),
            "sim_seconds": mean([r.sim_seconds for r in first]),
            "wall_seconds": mean([r.wall_seconds for r in both])}
