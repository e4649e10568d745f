"""``map2route map export-sdf``: a scene as a Gazebo SDF world (compatibility path).

The world is :mod:`map2route.gazebo.world`'s (walls with door openings, furniture boxes, inline
ground and lights, the Harmonic systems, a spawn frame); ``map2route gazebo export`` also
writes the robot and is the command to use for sim runs (docs/ros.md).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from map2route.files import atomic_write_text
from map2route.gazebo.export import spawn_pose
from map2route.gazebo.world import WorldSpec, world_sdf

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap


def scene_to_sdf(m: SemanticMap, *, wall_height_m: float = 2.5) -> str:
    """The SDF text of ``m`` with walls ``wall_height_m`` high, spawn at the default start."""
    spec = replace(WorldSpec.from_config(), wall_height_m=wall_height_m)
    return world_sdf(m, spawn_pose(m), spec=spec)


def export_sdf(m: SemanticMap, out: str | Path, *, wall_height_m: float = 2.5) -> Path:
    """Write :func:`scene_to_sdf` of ``m`` to ``out`` atomically."""
    path = Path(out)
    atomic_write_text(path, scene_to_sdf(m, wall_height_m=wall_height_m))
    return path
