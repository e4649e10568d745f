"""A scene as a self-contained Gazebo Harmonic world: walls with door openings, furniture, lights.

Everything is inline, nothing is looked up (no ``model://``, no Fuel): a ground plane, the sun
and one point light per room, the walls (the wall layer merged into rectangles and extruded,
:func:`~map2route.mapping.scene3d.wall_rectangles`; doors are gaps in that layer, and the wall
over each door, its lintel, is added from the door's top up, as the mapping simulator does),
and each object as a static box of its footprint's minimum-area rectangle from ``z_min`` to
``z_max`` (structure objects -- walls, windows, doorways -- are not extruded; a wall-hung object
is pushed out of the wall cells, :func:`~map2route.mapping.scene3d.push_out_of_walls`). The
world carries the systems Harmonic needs to simulate and render our robot (physics, sensors on
ogre2, IMU, user commands, scene broadcaster) and a ``spawn`` frame: where the robot starts.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from map2route.gazebo.config import read_yaml, section
from map2route.gazebo.errors import GazeboError
from map2route.gazebo.xml import box_geometry, document, material, nums, sdf_root, sub
from map2route.mapping.scene3d import (
    DOOR_CATEGORIES,
    MIN_THICKNESS_M,
    object_box,
    push_out_of_walls,
    wall_rectangles,
)
from map2route.paths import config_dir
from map2route.semantic_map.categories import STRUCTURE_CATEGORIES

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap

#: World systems: (library, class). Harmonic loads none by default once a world lists any.
WORLD_SYSTEMS = (
    ("gz-sim-physics-system", "gz::sim::systems::Physics"),
    ("gz-sim-user-commands-system", "gz::sim::systems::UserCommands"),
    ("gz-sim-scene-broadcaster-system", "gz::sim::systems::SceneBroadcaster"),
    ("gz-sim-sensors-system", "gz::sim::systems::Sensors"),
    ("gz-sim-imu-system", "gz::sim::systems::Imu"),
)
#: The rendering engine of the Sensors system (gpu_lidar and cameras render).
RENDER_ENGINE = "ogre2"
WALL_RGBA = (0.85, 0.85, 0.82, 1.0)
FLOOR_RGBA = (0.55, 0.5, 0.45, 1.0)


@dataclass(frozen=True)
class WorldSpec:
    """World settings (``world:`` of ``config/gazebo.yaml``)."""

    wall_height_m: float
    physics_step_s: float
    real_time_factor: float
    room_light_height_m: float
    room_light_range_m: float

    @classmethod
    def from_config(cls, folder: Path | None = None) -> WorldSpec:
        """Read ``gazebo.yaml`` from ``folder`` (default: the config folder).

        Raises:
            GazeboError: the file or a key is missing.
        """
        path = (folder or config_dir()) / "gazebo.yaml"
        w = section(read_yaml(path), path, "world")
        try:
            return cls(**{k: float(w[k]) for k in (
                "wall_height_m", "physics_step_s", "real_time_factor", "room_light_height_m",
                "room_light_range_m")})
        except (KeyError, TypeError, ValueError) as err:
            raise GazeboError(f"{path}: 'world' lacks or mistypes {err}") from err


def sdf_name(text: str) -> str:
    """``text`` as a model name: letters, digits and ``_`` (``"Bed|3|1"`` -> ``"Bed_3_1"``)."""
    return re.sub(r"[^0-9A-Za-z_]", "_", text) or "_"


def category_rgba(category: str) -> tuple[float, float, float, float]:
    """A stable, muted colour per category, so the camera tells objects apart."""
    h = zlib.crc32(category.encode())
    return (0.3 + 0.5 * (h & 0xFF) / 255, 0.3 + 0.5 * ((h >> 8) & 0xFF) / 255,
            0.3 + 0.5 * ((h >> 16) & 0xFF) / 255, 1.0)


def _box(link: ET.Element, name: str, pose: tuple[float, ...], size: tuple[float, float, float],
         rgba: tuple[float, float, float, float]) -> None:
    """A collision and a visual box named ``name`` in ``link``."""
    for tag in ("collision", "visual"):
        el = sub(link, tag, name=f"{name}_{tag}" if name else tag)
        sub(el, "pose", nums(pose))
        box_geometry(el, size)
        if tag == "visual":
            material(el, rgba)


def _static_model(world: ET.Element, name: str) -> ET.Element:
    model = sub(world, "model", name=name)
    sub(model, "static", True)
    return sub(model, "link", name="link")


def _ground(world: ET.Element, m: SemanticMap) -> None:
    link = _static_model(world, "ground_plane")
    size = nums((m.grid.width_m + 20.0, m.grid.height_m + 20.0))
    centre = nums((m.grid.origin_x + m.grid.width_m / 2, m.grid.origin_y + m.grid.height_m / 2,
                   0, 0, 0, 0))
    for tag in ("collision", "visual"):
        el = sub(link, tag, name=tag)
        sub(el, "pose", centre)
        plane = sub(sub(el, "geometry"), "plane")
        sub(plane, "normal", "0 0 1")
        sub(plane, "size", size)
        if tag == "visual":
            material(el, FLOOR_RGBA)


def _lights(world: ET.Element, m: SemanticMap, spec: WorldSpec) -> None:
    sun = sub(world, "light", type="directional", name="sun")
    sub(sun, "cast_shadows", True)
    sub(sun, "pose", "0 0 10 0 0 0")
    sub(sun, "diffuse", "0.8 0.8 0.8 1")
    sub(sun, "specular", "0.2 0.2 0.2 1")
    sub(sun, "direction", "-0.5 0.1 -0.9")
    for room in m.rooms:
        x, y = room.centroid
        light = sub(world, "light", type="point", name=f"room_{room.id}_light")
        sub(light, "cast_shadows", False)
        sub(light, "pose", nums((x, y, spec.room_light_height_m, 0, 0, 0)))
        sub(light, "diffuse", "0.6 0.6 0.55 1")
        sub(light, "specular", "0.1 0.1 0.1 1")
        att = sub(light, "attenuation")
        sub(att, "range", spec.room_light_range_m)
        sub(att, "constant", 0.5)
        sub(att, "linear", 0.05)
        sub(att, "quadratic", 0.01)


def _walls(world: ET.Element, m: SemanticMap, height: float) -> int:
    """All walls and lintels as one static model (one link: Gazebo loads it fast)."""
    link = _static_model(world, "walls")
    rects = wall_rectangles(m.walls)
    for k, (r0, c0, r1, c1) in enumerate(rects):
        x0, y0, sx, sy = m.grid.cell_box(r0, c0, r1, c1)
        x, y = x0 + sx / 2, y0 + sy / 2
        _box(link, f"wall_{k}", (x, y, height / 2, 0, 0, 0), (sx, sy, height), WALL_RGBA)
    for k, door in enumerate(o for o in m.objects if o.category in DOOR_CATEGORIES):
        if door.z_max >= height:
            continue
        (x, y), (sx, sy), yaw = object_box(door.footprint)
        sz = height - door.z_max
        _box(link, f"lintel_{k}", (x, y, door.z_max + sz / 2, 0, 0, yaw), (sx, sy, sz),
             WALL_RGBA)
    return len(rects)


def _objects(world: ET.Element, m: SemanticMap) -> int:
    used: set[str] = set()
    count = 0
    for obj in m.objects:
        if obj.category in STRUCTURE_CATEGORIES:
            continue
        (x, y), (sx, sy), yaw = object_box(obj.footprint)
        x, y = push_out_of_walls(m, (x, y), (sx, sy), yaw)
        sz = max(obj.z_max - obj.z_min, MIN_THICKNESS_M)
        name = base = "obj_" + sdf_name(obj.id)
        k = 1
        while name in used:  # ids differing only in punctuation
            k += 1
            name = f"{base}_{k}"
        used.add(name)
        link = _static_model(world, name)
        _box(link, "", (x, y, obj.z_min + sz / 2, 0, 0, yaw),
             (max(sx, MIN_THICKNESS_M), max(sy, MIN_THICKNESS_M), sz),
             category_rgba(obj.category))
        count += 1
    return count


def world_element(m: SemanticMap, spawn: tuple[float, float, float], *,
                  spec: WorldSpec) -> ET.Element:
    """The ``<world>`` of ``m``; ``spawn`` is the robot's start ``(x, y, yaw)`` in the map frame.

    Raises:
        GazeboError: the map has no walls (nothing to simulate in).
    """
    if not m.walls.any():
        raise GazeboError(f"scene {m.name!r} has no wall cells; a Gazebo world needs walls")
    world = ET.Element("world", name=sdf_name(m.name or "map2route"))
    physics = sub(world, "physics", name="default_physics", type="ignored")
    sub(physics, "max_step_size", spec.physics_step_s)
    sub(physics, "real_time_factor", spec.real_time_factor)
    for library, cls in WORLD_SYSTEMS:
        plugin = sub(world, "plugin", filename=library, name=cls)
        if cls.endswith("Sensors"):
            sub(plugin, "render_engine", RENDER_ENGINE)
    sub(world, "gravity", "0 0 -9.8")
    scene = sub(world, "scene")
    sub(scene, "ambient", "0.5 0.5 0.5 1")
    sub(scene, "background", "0.7 0.75 0.8 1")
    sub(scene, "shadows", True)
    _lights(world, m, spec)
    _ground(world, m)
    _walls(world, m, spec.wall_height_m)
    _objects(world, m)
    frame = sub(world, "frame", name="spawn")
    x, y, yaw = spawn
    sub(frame, "pose", nums((x, y, 0.0, 0.0, 0.0, math.remainder(yaw, 2 * math.pi))))
    return world


def world_sdf(m: SemanticMap, spawn: tuple[float, float, float], *,
              spec: WorldSpec | None = None) -> str:
    """The SDF text of :func:`world_element` (``spec`` defaults to ``config/gazebo.yaml``)."""
    root = sdf_root()
    root.append(world_element(m, spawn, spec=spec or WorldSpec.from_config()))
    return document(root)
