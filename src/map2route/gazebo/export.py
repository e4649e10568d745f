"""Write the Gazebo files of scenes: ``DIR/robot.sdf`` and ``DIR/<scene>/world.sdf``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from map2route.files import atomic_write_text
from map2route.gazebo.errors import GazeboError
from map2route.gazebo.robot import RobotSpec, robot_sdf
from map2route.gazebo.world import WorldSpec, sdf_name, world_sdf
from map2route.sim.errors import SimError
from map2route.sim.start import default_start

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap

#: The robot model's file name in the export folder (the launch file's default ``robot``).
ROBOT_FILE = "robot.sdf"
#: Each scene's world file, under a folder named after the scene.
WORLD_FILE = "world.sdf"


@dataclass(frozen=True)
class ExportedWorld:
    """What :func:`export_world` wrote.

    Attributes:
        name: the scene's name (its folder under the export folder, the world's name).
        path: the world file.
        spawn: the robot's start ``(x, y, yaw)`` in the map frame (the world's ``spawn`` frame).
    """

    name: str
    path: Path
    spawn: tuple[float, float, float]


def spawn_pose(m: SemanticMap) -> tuple[float, float, float]:
    """Where the robot starts: the in-process sim's default start, facing +x.

    Raises:
        GazeboError: the map has no free cell for the robot.
    """
    try:
        x, y = default_start(m)
    except SimError as err:
        raise GazeboError(f"no spawn pose for scene {m.name!r}: {err}") from err
    return x, y, 0.0


def export_world(m: SemanticMap, out_dir: Path, *, spawn: tuple[float, float, float] | None = None,
                 spec: WorldSpec | None = None) -> ExportedWorld:
    """Write ``out_dir/<scene>/world.sdf`` atomically (``spawn`` defaults to :func:`spawn_pose`).

    Raises:
        GazeboError: the map has no walls or no free start.
    """
    name = sdf_name(m.name or "map2route")
    pose = spawn if spawn is not None else spawn_pose(m)
    path = Path(out_dir) / name / WORLD_FILE
    atomic_write_text(path, world_sdf(m, pose, spec=spec))
    return ExportedWorld(name=name, path=path, spawn=pose)


def export_robot(out_dir: Path, *, spec: RobotSpec | None = None) -> Path:
    """Write ``out_dir/robot.sdf`` atomically (``spec`` defaults to the config files')."""
    path = Path(out_dir) / ROBOT_FILE
    atomic_write_text(path, robot_sdf(spec or RobotSpec.from_config()))
    return path


# `map2route map export-sdf` (compatibility path): the world only, no robot.
def scene_to_sdf(m: SemanticMap, *, wall_height_m: float = 2.5) -> str:
    """The SDF text of ``m`` with walls ``wall_height_m`` high, spawn at the default start."""
    spec = replace(WorldSpec.from_config(), wall_height_m=wall_height_m)
    return world_sdf(m, spawn_pose(m), spec=spec)


def export_sdf(m: SemanticMap, out: str | Path, *, wall_height_m: float = 2.5) -> Path:
    """Write :func:`scene_to_sdf` of ``m`` to ``out`` atomically."""
    path = Path(out)
    atomic_write_text(path, scene_to_sdf(m, wall_height_m=wall_height_m))
    return path
