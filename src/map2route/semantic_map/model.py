"""The semantic map: aligned grid layers plus rooms, objects, doors and windows.

This is the one map model every planner, grounder, benchmark and ROS node reads. Layers are
numpy arrays of shape ``(rows, cols)`` in the axis order of :mod:`map2route.semantic_map.grid`
(row 0 at the bottom, like ``nav_msgs/OccupancyGrid``).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING

import cv2
import numpy as np

from map2route.semantic_map.errors import MapError
from map2route.semantic_map.grid import GridSpec

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from numpy.typing import NDArray

Point = tuple[float, float]
"""A map-frame point ``(x, y)`` in metres."""

#: The paper's goal-region margin: G_i = cells of R(O_i) within r_O + 1 m of the centre.
GOAL_REGION_MARGIN_M = 1.0
#: What "avoid X" forbids around an object: cells within r_O + this margin of its centre (the
#: episode generator's avoid zones and the grounding API's ``avoid`` use the same zone).
AVOID_MARGIN_M = 0.3


class RoomType(str, Enum):
    """Room types; values are ProcTHOR's ``roomType`` strings.

    ProcTHOR houses have the first four; ``Hallway`` occurs in the official Map2Route maps
    (their simple-demo layouts), so an official map reads and writes back unchanged.
    """

    KITCHEN = "Kitchen"
    LIVING_ROOM = "LivingRoom"
    BEDROOM = "Bedroom"
    BATHROOM = "Bathroom"
    HALLWAY = "Hallway"

    @property
    def snake(self) -> str:
        """The benchmark's spelling: ``kitchen``, ``living_room``, ``bedroom``, ``bathroom``."""
        return {"Kitchen": "kitchen", "LivingRoom": "living_room", "Bedroom": "bedroom",
                "Bathroom": "bathroom", "Hallway": "hallway"}[self.value]

    @property
    def words(self) -> str:
        """How people say it: ``living room``."""
        return self.snake.replace("_", " ")

    @classmethod
    def parse(cls, text: str) -> RoomType:
        """Accept ``LivingRoom``, ``living_room`` or ``living room`` (any case)."""
        key = text.strip().lower().replace("_", "").replace(" ", "")
        for member in cls:
            if member.value.lower() == key:
                return member
        msg = f"Unknown room type {text!r}; expected one of {[m.snake for m in cls]}"
        raise MapError(msg)


@dataclass(frozen=True)
class Room:
    """A room: its id in the room layer, its type and floor polygon (map metres)."""

    id: int
    type: RoomType
    polygon: tuple[Point, ...]
    name: str = ""

    @property
    def area_m2(self) -> float:
        """Polygon area in square metres (shoelace formula)."""
        pts = np.asarray(self.polygon, dtype=np.float64)
        x, y = pts[:, 0], pts[:, 1]
        return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2.0)

    @property
    def centroid(self) -> Point:
        pts = np.asarray(self.polygon, dtype=np.float64)
        return float(pts[:, 0].mean()), float(pts[:, 1].mean())


@dataclass(frozen=True)
class ObjectInstance:
    """One object instance.

    Attributes:
        id: stable id, unique in the map (e.g. ``"Chair|3|1"`` from ProcTHOR, or ``"chair_12"``).
        category: snake_case category in the benchmark vocabulary (``house_plant``).
        room_id: id of the room that holds its centre, or ``None`` outside every room.
        footprint: 2D footprint polygon in map metres (counter-clockwise).
        center: footprint centre ``(x, y)``.
        z_min, z_max: height range above the floor in metres.
        parent_id: id of the receptacle it stands on or in (a pan on a countertop), if any.
        asset_id: the ProcTHOR asset it came from, if any.
    """

    id: str
    category: str
    room_id: int | None
    footprint: tuple[Point, ...]
    center: Point
    z_min: float = 0.0
    z_max: float = 0.0
    parent_id: str | None = None
    asset_id: str | None = None

    @property
    def radius_m(self) -> float:
        """r_O: the largest distance from the centre to a footprint vertex."""
        cx, cy = self.center
        return max(math.hypot(x - cx, y - cy) for x, y in self.footprint)

    @property
    def height_m(self) -> float:
        return self.z_max - self.z_min


@dataclass(frozen=True)
class Door:
    """A doorway: a segment in a wall joining two rooms (``-1`` for outside the house)."""

    id: str
    room_ids: tuple[int, int]
    segment: tuple[Point, Point]

    @property
    def width_m(self) -> float:
        (x0, y0), (x1, y1) = self.segment
        return math.hypot(x1 - x0, y1 - y0)

    @property
    def center(self) -> Point:
        (x0, y0), (x1, y1) = self.segment
        return (x0 + x1) / 2.0, (y0 + y1) / 2.0


@dataclass(frozen=True)
class Window:
    """A window: a segment in a wall of one room."""

    id: str
    room_id: int
    segment: tuple[Point, Point]

    @property
    def center(self) -> Point:
        (x0, y0), (x1, y1) = self.segment
        return (x0 + x1) / 2.0, (y0 + y1) / 2.0


@dataclass(frozen=True, eq=False)
class SemanticMap:
    """Aligned grid layers and the semantic entities of one scene.

    Attributes:
        name: scene name (folder name on disk).
        grid: grid geometry shared by every layer.
        traversable: bool ``(rows, cols)``: where the robot's centre may be.
        walls: bool ``(rows, cols)``: wall cells (never traversable).
        room_ids: int32 ``(rows, cols)``: room id per cell, ``-1`` outside every room.
        rooms, objects, doors, windows: the semantic layer.
        metadata: free-form provenance (generator, seed, source file).
    """

    name: str
    grid: GridSpec
    traversable: NDArray[np.bool_]
    walls: NDArray[np.bool_]
    room_ids: NDArray[np.int32]
    rooms: tuple[Room, ...]
    objects: tuple[ObjectInstance, ...]
    doors: tuple[Door, ...] = ()
    windows: tuple[Window, ...] = ()
    metadata: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = validate_map(self)
        if problems:
            msg = f"Scene {self.name!r} is not a valid semantic map:\n  - " + "\n  - ".join(problems)
            raise MapError(msg)

    @cached_property
    def fingerprint(self) -> str:
        """A short hash of what a RouteIR depends on: the grid, the layers and the object ids.

        Stamped into every grounded RouteIR (``metadata["scene_fingerprint"]``) so that
        ``plan`` can refuse a RouteIR made for another scene of the same size. It survives
        :func:`~map2route.semantic_map.io.save_scene` / ``load_scene``.
        """
        h = hashlib.sha256(repr(self.grid).encode("utf-8"))
        for layer in (self.traversable, self.walls, self.room_ids):
            h.update(np.ascontiguousarray(layer).tobytes())
        h.update("\n".join(sorted(f"{o.id}\t{o.category}" for o in self.objects)).encode("utf-8"))
        return h.hexdigest()[:16]

    # --- lookups -----------------------------------------------------------------------
    @cached_property
    def _rooms_by_id(self) -> dict[int, Room]:
        return {r.id: r for r in self.rooms}

    @cached_property
    def _objects_by_id(self) -> dict[str, ObjectInstance]:
        return {o.id: o for o in self.objects}

    def get_room(self, room_id: int) -> Room:
        """The room with this id; :class:`MapError` naming the known ids if there is none."""
        try:
            return self._rooms_by_id[room_id]
        except KeyError:
            msg = f"No room {room_id} in scene {self.name!r}; rooms are {sorted(self._rooms_by_id)}"
            raise MapError(msg) from None

    def get_object(self, object_id: str) -> ObjectInstance:
        """The object with this id; :class:`MapError` if there is none."""
        try:
            return self._objects_by_id[object_id]
        except KeyError:
            msg = f"No object {object_id!r} in scene {self.name!r}"
            raise MapError(msg) from None

    def objects_in_room(self, room_id: int) -> tuple[ObjectInstance, ...]:
        return tuple(o for o in self.objects if o.room_id == room_id)

    def objects_of(self, category: str) -> tuple[ObjectInstance, ...]:
        return tuple(o for o in self.objects if o.category == category)

    def children_of(self, object_id: str) -> tuple[ObjectInstance, ...]:
        """Objects standing on or inside ``object_id``."""
        return tuple(o for o in self.objects if o.parent_id == object_id)

    def windows_of(self, room_id: int) -> tuple[Window, ...]:
        return tuple(w for w in self.windows if w.room_id == room_id)

    def room_at(self, x: float, y: float) -> Room | None:
        """The room containing map point ``(x, y)``, or ``None``."""
        row, col = self.grid.world_to_cell(x, y)
        if not self.grid.contains_cell(row, col):
            return None
        rid = int(self.room_ids[row, col])
        return self._rooms_by_id.get(rid)

    @cached_property
    def room_adjacency(self) -> dict[int, frozenset[int]]:
        """Rooms joined by a door (outside, ``-1``, excluded)."""
        adj: dict[int, set[int]] = {r.id: set() for r in self.rooms}
        for d in self.doors:
            a, b = d.room_ids
            if a in adj and b in adj and a != b:
                adj[a].add(b)
                adj[b].add(a)
        return {k: frozenset(v) for k, v in adj.items()}

    def categories(self) -> frozenset[str]:
        return frozenset(o.category for o in self.objects)

    # --- regions -----------------------------------------------------------------------
    def room_mask(self, room_id: int) -> NDArray[np.bool_]:
        """Cells of room ``room_id``."""
        return np.asarray(self.room_ids == room_id)

    def disk_mask(self, center: Point, radius_m: float) -> NDArray[np.bool_]:
        """Cells whose centres lie within ``radius_m`` of ``center``."""
        return self.grid.disk_mask(center, radius_m)

    def goal_region_mask(self, obj: ObjectInstance) -> NDArray[np.bool_]:
        """G_O: cells of the object's room within r_O + 1 m of its centre (paper 000, HCS).

        Objects outside every room use all cells within that radius.
        """
        disk = self.disk_mask(obj.center, obj.radius_m + GOAL_REGION_MARGIN_M)
        if obj.room_id is None:
            return disk
        return disk & self.room_mask(obj.room_id)

    def footprint_mask(self, objects: Iterable[ObjectInstance]) -> NDArray[np.bool_]:
        """Cells covered by the footprints of ``objects`` (rasterised with OpenCV)."""

        mask = np.zeros(self.grid.shape, dtype=np.uint8)
        for obj in objects:
            cells = self.grid.worlds_to_cells(np.asarray(obj.footprint))
            pts = cells[:, ::-1].astype(np.int32).reshape(-1, 1, 2)  # cv2 wants (x=col, y=row)
            cv2.fillPoly(mask, [pts], 1)
        return mask.astype(bool)

    def summary(self) -> dict[str, object]:
        """Counts a person wants first: rooms by type, objects, area."""
        by_type: dict[str, int] = {}
        for r in self.rooms:
            by_type[r.type.snake] = by_type.get(r.type.snake, 0) + 1
        by_cat: dict[str, int] = {}
        for o in self.objects:
            by_cat[o.category] = by_cat.get(o.category, 0) + 1
        return {
            "name": self.name,
            "grid": {"rows": self.grid.rows, "cols": self.grid.cols,
                     "resolution": self.grid.resolution},
            "rooms": len(self.rooms),
            "rooms_by_type": dict(sorted(by_type.items())),
            "objects": len(self.objects),
            "categories": len(by_cat),
            "objects_by_category": dict(sorted(by_cat.items(), key=lambda kv: (-kv[1], kv[0]))),
            "doors": len(self.doors),
            "windows": len(self.windows),
            "floor_area_m2": round(sum(r.area_m2 for r in self.rooms), 2),
            "traversable_area_m2": round(self.grid.cells_to_square_meters(float(self.traversable.sum())), 2),
        }


def validate_map(m: SemanticMap) -> list[str]:
    """Every problem with ``m`` as one line each; an empty list means valid."""
    problems: list[str] = []
    shape = m.grid.shape
    for name in ("traversable", "walls", "room_ids"):
        layer = getattr(m, name)
        if not isinstance(layer, np.ndarray):
            problems.append(f"layer {name} is not a numpy array")
        elif layer.shape != shape:
            problems.append(f"layer {name} has shape {layer.shape}, the grid is {shape}")
    if problems:
        return problems
    if m.grid.resolution <= 0:
        problems.append(f"resolution must be positive, got {m.grid.resolution}")
    if np.any(m.traversable & m.walls):
        problems.append(f"{int((m.traversable & m.walls).sum())} cells are both wall and traversable")
    room_ids = {r.id for r in m.rooms}
    if len(room_ids) != len(m.rooms):
        problems.append("room ids are not unique")
    layer_ids = set(np.unique(m.room_ids).tolist()) - {-1}
    unknown = layer_ids - room_ids
    if unknown:
        problems.append(f"room layer names unknown room ids {sorted(unknown)}")
    obj_ids = [o.id for o in m.objects]
    if len(set(obj_ids)) != len(obj_ids):
        dup = sorted({i for i in obj_ids if obj_ids.count(i) > 1})[:5]
        problems.append(f"object ids are not unique: {dup}")
    known_objects = set(obj_ids)
    for o in m.objects:
        if o.room_id is not None and o.room_id not in room_ids:
            problems.append(f"object {o.id!r} names unknown room {o.room_id}")
        if not m.grid.contains_point(*o.center):
            problems.append(f"object {o.id!r} centre {o.center} lies outside the map")
        if len(o.footprint) < 3:
            problems.append(f"object {o.id!r} footprint has fewer than 3 vertices")
        if o.parent_id is not None and o.parent_id not in known_objects:
            problems.append(f"object {o.id!r} names unknown parent {o.parent_id!r}")
    for d in m.doors:
        for rid in d.room_ids:
            if rid != -1 and rid not in room_ids:
                problems.append(f"door {d.id!r} names unknown room {rid}")
    for w in m.windows:
        if w.room_id not in room_ids:
            problems.append(f"window {w.id!r} names unknown room {w.room_id}")
    return problems


def bounding_grid(points: Sequence[Point], *, resolution: float = 0.05,
                  margin_m: float = 0.5) -> GridSpec:
    """A grid covering ``points`` plus ``margin_m`` on every side."""
    pts = np.asarray(points, dtype=np.float64)
    x0, y0 = pts.min(axis=0) - margin_m
    x1, y1 = pts.max(axis=0) + margin_m
    return GridSpec.covering(float(x0), float(y0), float(x1), float(y1), resolution=resolution)
