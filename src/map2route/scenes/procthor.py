"""Import a ProcTHOR house JSON as a :class:`~map2route.semantic_map.SemanticMap`.

ProcTHOR (and AI2-THOR) use Unity's left-handed frame with ``y`` up. The map frame is
``x_map = x_unity``, ``y_map = z_unity`` (swapping two axes turns the left-handed frame into a
right-handed one, so the top-down view is not mirrored) and a Unity yaw of ``+theta`` about
``y`` (clockwise seen from above) is a map yaw of ``-theta``.

What each layer means:

- ``room_ids``: the room whose floor polygon holds the cell centre; ``-1`` on walls and outside.
- ``walls``: cells within ``wall_thickness_m / 2`` of a wall line, except door openings.
- ``traversable``: "the robot's centre may be here": a room cell, not a wall, not under a
  floor-standing object, and farther than ``robot_radius_m`` from every such blocked cell.
- objects: every house object and its children (recursively; a child's ``parent_id`` is the
  receptacle it stands on or in), footprints from the asset database's bounding boxes rotated by
  the object's yaw; plus the structure the benchmark names as objects: one ``wall`` per room
  wall, one ``doorway``/``doorframe`` per door, one ``window`` per window, and the
  ``sink_basin`` part of every sink (AI2-THOR sinks always carry one).
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

from map2route.scenes.assets import get_asset
from map2route.scenes.errors import SceneError
from map2route.semantic_map.categories import to_category
from map2route.semantic_map.model import (
    Door,
    ObjectInstance,
    Point,
    Room,
    RoomType,
    SemanticMap,
    Window,
    bounding_grid,
)

if TYPE_CHECKING:
    import os

    from numpy.typing import NDArray

    from map2route.semantic_map.grid import GridSpec

#: Robot radius used to erode free space into the traversable layer (a LoCoBot-sized base).
ROBOT_RADIUS_M = 0.2
#: ProcTHOR walls are planes; we draw them this thick.
WALL_THICKNESS_M = 0.1
#: Objects whose bottom is below this height stand on the floor and block the robot.
FLOOR_OBJECT_MAX_BOTTOM_M = 0.3
#: Grid margin around the house.
MARGIN_M = 0.3


@dataclass(frozen=True)
class _Wall:
    id: str
    room: str
    p0: Point
    p1: Point
    empty: bool = False

    @property
    def key(self) -> tuple[float, float, float, float]:
        """The same line from both sides gives the same key."""
        a, b = sorted((self.p0, self.p1))
        return (round(a[0], 3), round(a[1], 3), round(b[0], 3), round(b[1], 3))

    def along(self, t0: float, t1: float) -> tuple[Point, Point]:
        """The sub-segment from ``t0`` to ``t1`` metres along the wall from ``p0``."""
        (x0, y0), (x1, y1) = self.p0, self.p1
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        return (x0 + ux * t0, y0 + uy * t0), (x0 + ux * t1, y0 + uy * t1)


def _xz(p: Mapping[str, Any]) -> Point:
    return float(p["x"]), float(p["z"])


def _rect(cx: float, cy: float, sx: float, sy: float, yaw: float) -> tuple[Point, ...]:
    """Counter-clockwise corners of an ``sx`` x ``sy`` rectangle centred at ``(cx, cy)``."""
    c, s = math.cos(yaw), math.sin(yaw)
    out = []
    for dx, dy in ((-sx / 2, -sy / 2), (sx / 2, -sy / 2), (sx / 2, sy / 2), (-sx / 2, sy / 2)):
        out.append((round(cx + c * dx - s * dy, 4), round(cy + s * dx + c * dy, 4)))
    return tuple(out)


def _segment_rect(p0: Point, p1: Point, thickness: float) -> tuple[Point, ...]:
    (x0, y0), (x1, y1) = p0, p1
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return _rect(cx, cy, math.hypot(x1 - x0, y1 - y0), thickness, math.atan2(y1 - y0, x1 - x0))


def _segment_distance(xx: NDArray[np.float64], yy: NDArray[np.float64], p0: Point,
                      p1: Point) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Distance of each point to segment ``p0 p1`` and its projection parameter in [0, 1]."""
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    denom = dx * dx + dy * dy or 1e-12
    t = ((xx - x0) * dx + (yy - y0) * dy) / denom
    tc = np.clip(t, 0.0, 1.0)
    return np.hypot(xx - (x0 + tc * dx), yy - (y0 + tc * dy)), t


def _window(grid: GridSpec, pts: Sequence[Point], pad_m: float) -> tuple[slice, slice]:
    arr = np.asarray(pts, dtype=np.float64)
    r0, c0 = grid.world_to_cell(arr[:, 0].min() - pad_m, arr[:, 1].min() - pad_m)
    r1, c1 = grid.world_to_cell(arr[:, 0].max() + pad_m, arr[:, 1].max() + pad_m)
    return (slice(max(r0, 0), min(r1 + 1, grid.rows)), slice(max(c0, 0), min(c1 + 1, grid.cols)))


def _polygon_mask(grid: GridSpec, polygon: Sequence[Point]) -> NDArray[np.bool_]:
    """Cells whose centre lies inside ``polygon`` (shapely's exact point-in-polygon)."""

    mask = np.zeros(grid.shape, dtype=bool)
    rs, cs = _window(grid, polygon, grid.resolution)
    if rs.start >= rs.stop or cs.start >= cs.stop:
        return mask
    xs, ys = grid.centre_axes(rs, cs)
    xx, yy = np.meshgrid(xs, ys)
    mask[rs, cs] = shapely.contains_xy(Polygon(polygon), xx, yy)
    return mask


def _segment_mask(grid: GridSpec, p0: Point, p1: Point, half_width: float) -> NDArray[np.bool_]:
    mask = np.zeros(grid.shape, dtype=bool)
    rs, cs = _window(grid, (p0, p1), half_width + grid.resolution)
    xs, ys = grid.centre_axes(rs, cs)
    xx, yy = np.meshgrid(xs, ys)
    dist, _ = _segment_distance(xx, yy, p0, p1)
    mask[rs, cs] = dist <= half_width
    return mask


def _hole_span(entry: Mapping[str, Any]) -> tuple[float, float]:
    """Start and end (metres along the wall) of a door or window hole, old or new schema."""
    if "holePolygon" in entry:
        a, b = entry["holePolygon"][0], entry["holePolygon"][1]
    elif "boundingBox" in entry:
        a, b = entry["boundingBox"]["min"], entry["boundingBox"]["max"]
    else:
        msg = f"{entry.get('id', '?')!r} has neither 'holePolygon' nor 'boundingBox'"
        raise SceneError(msg)
    return min(float(a["x"]), float(b["x"])), max(float(a["x"]), float(b["x"]))


def _flatten(objects: Sequence[Mapping[str, Any]], parent: str | None
             ) -> list[tuple[Mapping[str, Any], str | None]]:
    out: list[tuple[Mapping[str, Any], str | None]] = []
    for o in objects:
        out.append((o, parent))
        out.extend(_flatten(o.get("children") or [], str(o["id"])))
    return out


def from_procthor_house(house_json: Mapping[str, Any], *, name: str, resolution: float = 0.05,
                        robot_radius_m: float = ROBOT_RADIUS_M,
                        wall_thickness_m: float = WALL_THICKNESS_M) -> SemanticMap:
    """Turn a ProcTHOR house JSON into a semantic map.

    Args:
        house_json: the parsed house (``rooms``, ``walls``, ``doors``, ``windows``, ``objects``).
        name: scene name.
        resolution: metres per cell.
        robot_radius_m: erosion radius of the traversable layer.
        wall_thickness_m: drawn wall thickness.

    Returns:
        The semantic map; room ids are ``0..n-1`` in the order of ``house_json["rooms"]`` and
        each room's ``name`` is its ProcTHOR id (``room|3``).

    Raises:
        SceneError: naming the missing key, unknown room, wall or asset.
    """
    try:
        return _import(house_json, name=name, resolution=resolution,
                       robot_radius_m=robot_radius_m, wall_thickness_m=wall_thickness_m)
    except (KeyError, TypeError, ValueError, IndexError) as err:
        msg = (f"House {name!r} is not a valid ProcTHOR house JSON ({type(err).__name__}: {err}); "
               "it needs rooms[].floorPolygon/roomType, walls[].polygon, doors[], objects[]")
        raise SceneError(msg) from err


def _import(house: Mapping[str, Any], *, name: str, resolution: float, robot_radius_m: float,
            wall_thickness_m: float) -> SemanticMap:

    if not house.get("rooms"):
        msg = f"House {name!r} has no rooms"
        raise SceneError(msg)
    room_index: dict[str, int] = {}
    rooms: list[Room] = []
    for i, r in enumerate(house["rooms"]):

        poly = orient(Polygon([_xz(p) for p in r["floorPolygon"]]), sign=1.0)
        coords = tuple((round(x, 4), round(y, 4)) for x, y in list(poly.exterior.coords)[:-1])
        try:
            room_type = RoomType(r["roomType"])
        except ValueError:
            room_type = RoomType.parse(str(r["roomType"]))
        room_index[str(r["id"])] = i
        rooms.append(Room(id=i, type=room_type, polygon=coords, name=str(r["id"])))

    def room_of(pid: str, what: str) -> int:
        if pid not in room_index:
            msg = f"{what} names unknown room {pid!r}; rooms are {sorted(room_index)}"
            raise SceneError(msg)
        return room_index[pid]

    walls: dict[str, _Wall] = {}
    for w in house.get("walls", []):
        # The floor-level corners, in file order, run along the wall from its start.
        y_floor = min(float(p["y"]) for p in w["polygon"])
        base = [_xz(p) for p in w["polygon"] if float(p["y"]) == y_floor]
        if len(base) < 2:
            msg = f"wall {w['id']!r} needs two floor-level polygon points, got {len(base)}"
            raise SceneError(msg)
        walls[str(w["id"])] = _Wall(id=str(w["id"]), room=str(w.get("roomId", "")),
                                    p0=base[0], p1=base[1], empty=bool(w.get("empty", False)))

    def wall_of(wid: str, what: str) -> _Wall:
        if wid not in walls:
            msg = f"{what} names unknown wall {wid!r}"
            raise SceneError(msg)
        return walls[wid]

    all_pts = [p for r in rooms for p in r.polygon]
    grid = bounding_grid(all_pts, resolution=resolution, margin_m=MARGIN_M)
    room_ids = np.full(grid.shape, -1, dtype=np.int32)
    for r in rooms:
        room_ids[_polygon_mask(grid, r.polygon) & (room_ids < 0)] = r.id

    half = wall_thickness_m / 2
    wall_mask = np.zeros(grid.shape, dtype=bool)
    by_line: dict[tuple[float, float, float, float], list[_Wall]] = {}
    for w in walls.values():
        by_line.setdefault(w.key, []).append(w)
    for w in walls.values():
        # An "empty" wall is ProcTHOR's open floor plan: no wall between the two rooms.
        if not any(x.empty for x in by_line[w.key]):
            wall_mask |= _segment_mask(grid, w.p0, w.p1, half)

    doors: list[Door] = []
    objects: list[ObjectInstance] = []
    for d in house.get("doors", []):
        did = str(d["id"])
        w0 = wall_of(str(d["wall0"]), f"door {did!r}")
        t0, t1 = _hole_span(d)
        seg = w0.along(t0, t1)
        r0 = room_of(str(d["room0"]), f"door {did!r}")
        exterior = "exterior" in str(d.get("wall1", "")) or d.get("room1") in (None, d["room0"])
        r1 = -1 if exterior else room_of(str(d["room1"]), f"door {did!r}")
        doors.append(Door(id=did, room_ids=(r0, r1), segment=seg))
        # Open the hole through both wall planes, a little deeper than the wall.
        gap = _segment_mask(grid, seg[0], seg[1], half + grid.resolution)
        wall_mask &= ~gap
        room_ids[gap & (room_ids < 0) & _segment_mask(grid, seg[0], seg[1], half)] = r0
        asset_type = _door_type(str(d.get("assetId", "")))
        objects.append(ObjectInstance(
            id=did, category=to_category(asset_type), room_id=r0,
            footprint=_segment_rect(seg[0], seg[1], wall_thickness_m),
            center=((seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2),
            z_min=0.0, z_max=2.1, asset_id=d.get("assetId")))
    for line in sorted(by_line):
        sides = sorted({x.room for x in by_line[line] if x.room in room_index})
        if len(sides) == 2 and any(x.empty for x in by_line[line]):
            w = by_line[line][0]
            ra, rb = room_index[sides[0]], room_index[sides[1]]
            doors.append(Door(id=f"opening|{sides[0].split('|')[-1]}|{sides[1].split('|')[-1]}",
                              room_ids=(ra, rb), segment=(w.p0, w.p1)))
    room_ids[wall_mask] = -1

    windows: list[Window] = []
    for wd in house.get("windows", []):
        wid = str(wd["id"])
        w0 = wall_of(str(wd["wall0"]), f"window {wid!r}")
        t0, t1 = _hole_span(wd)
        seg = w0.along(t0, t1)
        rid = room_of(str(wd["room0"]), f"window {wid!r}")
        windows.append(Window(id=wid, room_id=rid, segment=seg))
        bb = wd.get("boundingBox") or {}
        z0 = float(bb.get("min", {}).get("y", 1.0))
        z1 = float(bb.get("max", {}).get("y", 2.0))
        objects.append(ObjectInstance(
            id=wid, category="window", room_id=rid,
            footprint=_segment_rect(seg[0], seg[1], wall_thickness_m),
            center=((seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2),
            z_min=z0, z_max=z1, asset_id=wd.get("assetId")))

    for w in walls.values():
        if w.room not in room_index or w.empty:
            continue  # exterior faces duplicate the rooms' own walls
        objects.append(ObjectInstance(
            id=w.id, category="wall", room_id=room_index[w.room],
            footprint=_segment_rect(w.p0, w.p1, wall_thickness_m),
            center=((w.p0[0] + w.p1[0]) / 2, (w.p0[1] + w.p1[1]) / 2), z_min=0.0, z_max=2.5))

    blocked = ~(room_ids >= 0) | wall_mask
    for o, parent in _flatten(house.get("objects", []), None):
        inst = _object_instance(o, parent, grid, room_ids, rooms)
        objects.append(inst)
        if parent is None and inst.z_min < FLOOR_OBJECT_MAX_BOTTOM_M:
            blocked |= _polygon_mask(grid, inst.footprint)
        if inst.category == "sink":
            objects.append(_sink_basin(inst))

    free = (~blocked).astype(np.uint8)
    dist_cells = cv2.distanceTransform(free, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    traversable = (grid.cells_to_meters(dist_cells) > robot_radius_m) & ~wall_mask & (room_ids >= 0)

    meta = dict(house.get("metadata") or {})
    metadata: dict[str, object] = {
        "generator": "map2route.scenes.procthor.from_procthor_house",
        "robot_radius_m": robot_radius_m,
        "wall_thickness_m": wall_thickness_m,
        "procthor_room_spec": meta.get("roomSpecId"),
    }
    return SemanticMap(name=name, grid=grid, traversable=traversable, walls=wall_mask,
                       room_ids=room_ids, rooms=tuple(rooms), objects=tuple(objects),
                       doors=tuple(doors), windows=tuple(windows), metadata=metadata)


def _door_type(asset_id: str) -> str:
    """``Doorway`` or ``Doorframe`` from a door asset id (``Doorway_Double_8``)."""
    try:
        return get_asset(asset_id).object_type
    except SceneError:
        return "Doorframe" if asset_id.lower().startswith("doorframe") else "Doorway"


def _object_instance(o: Mapping[str, Any], parent: str | None, grid: GridSpec,
                     room_ids: NDArray[np.int32], rooms: Sequence[Room]) -> ObjectInstance:
    asset = get_asset(str(o["assetId"]))
    cx, cy = _xz(o["position"])
    yaw = -math.radians(float((o.get("rotation") or {}).get("y", 0.0)))
    footprint = _rect(cx, cy, asset.size_x, asset.size_z, yaw)
    y = float(o["position"]["y"])
    return ObjectInstance(
        id=str(o["id"]), category=to_category(asset.object_type),
        room_id=_room_for_point(cx, cy, grid, room_ids, rooms), footprint=footprint,
        center=(round(cx, 4), round(cy, 4)), z_min=round(max(y - asset.size_y / 2, 0.0), 4),
        z_max=round(y + asset.size_y / 2, 4), parent_id=parent, asset_id=asset.asset_id)


def _sink_basin(sink: ObjectInstance) -> ObjectInstance:
    cx, cy = sink.center
    fp = tuple((round(cx + 0.6 * (x - cx), 4), round(cy + 0.6 * (y - cy), 4))
               for x, y in sink.footprint)
    top = sink.z_max
    return ObjectInstance(id=f"{sink.id}|SinkBasin", category="sink_basin", room_id=sink.room_id,
                          footprint=fp, center=sink.center, z_min=round(top - 0.2, 4),
                          z_max=top, parent_id=sink.id, asset_id=None)


def _room_for_point(x: float, y: float, grid: GridSpec, room_ids: NDArray[np.int32],
                    rooms: Sequence[Room]) -> int | None:
    """The room at a point; on a wall cell, the room with the nearest polygon edge."""
    row, col = grid.world_to_cell(x, y)
    if grid.contains_cell(row, col) and room_ids[row, col] >= 0:
        return int(room_ids[row, col])

    best, best_d = None, math.inf
    for r in rooms:
        d = Polygon(r.polygon).distance(ShapelyPoint(x, y))
        if d < best_d:
            best, best_d = r.id, d
    return best if best_d < 0.5 else None


def read_house_json(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a ProcTHOR house from ``.json`` or ``.json.gz``.

    Raises:
        SceneError: if the file is missing or not JSON.
    """

    p = Path(path)
    try:
        raw = gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()
        data = json.loads(raw)
    except FileNotFoundError:
        msg = f"House file {str(p)!r} does not exist"
        raise SceneError(msg) from None
    except (OSError, ValueError) as err:
        msg = f"House file {str(p)!r} is not a (gzipped) JSON file: {err}"
        raise SceneError(msg) from err
    if not isinstance(data, dict):
        msg = f"House file {str(p)!r} must hold a JSON object"
        raise SceneError(msg)
    return data
