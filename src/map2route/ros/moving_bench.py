"""Seeded sim drives among moving obstacles on the ROS stack (``map2route bench moving``).

Drive ``i`` is :mod:`map2route.bench.moving`'s seed ``i`` (the two-room house, "go to the
fridge", people crossing the planned route, a box beside it) run through the five ROS nodes
of ``launch/sim.launch.xml`` in one process (:func:`map2route.ros.runner.run_sim`, strict
lockstep on sim time), every seed twice; rows and summary are those of the core stack, so
the two stacks print the same table.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from map2route.bench.moving import (
    INSTRUCTION,
    START,
    DriveRow,
    plan_drive_route,
    scenario,
    trajectory_digest,
)
from map2route.ros.runner import run_sim
from map2route.semantic_map.io import save_scene
from map2route.semantic_map.synthetic import two_room_house
from map2route.sim.scenarios import obstacles_param


def ros_drive(scene: Path, seed: int, obstacles: str, *, time_limit: float = 90.0) -> DriveRow:
    """Drive ``seed`` with the ROS stack."""
    run = run_sim(scene, INSTRUCTION, start=START, obstacles=obstacles, time_limit_s=time_limit)
    return DriveRow(seed, "ros", run.arrived, run.drove_into, run.struck, run.sim_seconds,
                    run.travelled_m, run.route_length_m or 0.0, trajectory_digest(run.poses),
                    run.wall_seconds + run.planning_wall_seconds)


def run_ros(seeds: list[int], *, time_limit: float = 90.0,
            advance: Callable[[], None] | None = None) -> tuple[list[DriveRow], list[DriveRow]]:
    """Every seed twice with the ROS stack: (first drives, reruns)."""
    import rclpy.logging  # noqa: PLC0415 - only to quiet the nodes' per-drive info lines

    for name in ("semantic_map_server", "grounding_node", "route_planner_node",
                 "path_follower_node", "sim_node"):
        rclpy.logging.set_logger_level(name, rclpy.logging.LoggingSeverity.WARN)
    m = two_room_house()
    route = plan_drive_route(m)
    worlds = {s: obstacles_param(scenario(s, m, route)) for s in seeds}
    out: tuple[list[DriveRow], list[DriveRow]] = ([], [])
    with tempfile.TemporaryDirectory() as tmp:
        scene = save_scene(m, Path(tmp) / "two_room_house")
        for rows in out:
            for s in seeds:
                rows.append(ros_drive(scene, s, worlds[s], time_limit=time_limit))
                if advance is not None:
                    advance()
    return out
