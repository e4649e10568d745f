"""Read and write the official Map2Route map JSON (the released benchmark's scene format).

The format (from the public Map2Route code; see ``shared/data/map2route/README.md``)::

    grid_size             N: the grid is N x N (the official exporter pads to a square)
    metadata.map_info     {"resolution": m/cell, ...}
    layers.occupancy      N x N: 0 free, 1 obstacle, 2 unknown
    layers.room           N x N: room instance id per cell (0 none; ids start at 1)
    layers.object_instance N x N: object instance id per cell (0 none)
    room_instances        [{id, category, name, attributes}]  (category: kitchen, bedroom,
                          bathroom, living_room, hallway; attributes: ["key=value", ...])
    object_instances      [{id, category, name, attributes, room_id?}]
    object_footprints     (ProcTHOR maps) {instance id: [[x, y], ...]}

``grid_size`` [rows, cols] (our older files) is still read. We write a square grid like the
exporter, padding with obstacle cells, and keep our own shape as
``metadata.original_grid_shape`` (the exporter's key), which crops the padding on reading.

What the release does not pin down, and what we do:

- Row order and origin: we write ``metadata.map_info.origin`` ``[x, y]`` and
  ``row_order: "bottom_up"`` (row 0 = smallest y, our convention). On reading, a file with
  ``row_order: "top_down"`` is flipped; a file without it is read as bottom-up with origin
  ``[0, 0]`` unless ``origin`` is given.
- Footprints: read from ``object_footprints`` (metres) when present, else the convex hull of the
  object's cells in ``layers.object_instance``. An instance whose cells fall apart into
  several 8-connected parts (a wall running through two rooms) becomes one object per part,
  ``NAME``, ``NAME#part2``, ...; writing joins the parts back under one instance id.
- Walls: written as ``layers.wall`` (0/1) and read from it when present; the cells of
  ``wall`` instances are walls too (the official maps have no wall layer).
- Room polygons: ``attributes.polygon`` when present, else the outer contour of the room's cells.
- Doors and windows are written under ``doors`` / ``windows`` (map2route extensions).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import cv2
import numpy as np
from matplotlib.path import Path as MplPath
from scipy.ndimage import label
from scipy.spatial import ConvexHull, QhullError

from map2route.files import atomic_write_text
from map2route.scenes.errors import SceneError
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import (
    Door,
    ObjectInstance,
    Room,
    RoomType,
    SemanticMap,
    Window,
)

if TYPE_CHECKING:
    import os

    from numpy.typing import NDArray

FREE, OBSTACLE, UNKNOWN = 0, 1, 2
FORMAT_NAME = "map2route.official_map"


class OfficialMapJSON(TypedDict, total=False):
    """The raw shape of an official map JSON."""

    grid_size: int | list[int]
    metadata: dict[str, Any]
    layers: dict[str, list[list[int]]]
    room_instances: list[dict[str, Any]]
    object_instances: list[dict[str, Any]]
    object_footprints: dict[str, Any]
    doors: list[dict[str, Any]]
    windows: list[dict[str, Any]]


def to_official_json(m: SemanticMap) -> OfficialMapJSON:
    """The official map JSON document of ``m`` (instance ids are 1-based, in object order)."""
    occupancy = np.full(m.grid.shape, UNKNOWN, dtype=np.int64)
    occupancy[(m.room_ids >= 0) | m.walls] = OBSTACLE
    occupancy[m.traversable] = FREE
    instance = np.zeros(m.grid.shape, dtype=np.int64)
    whole = [o for o in m.objects if _part_of(o.id) is None]
    split = {_part_of(o.id) for o in m.objects} - {None}
    ids = {o.id: i + 1 for i, o in enumerate(whole)}
    for o in m.objects:
        base = _part_of(o.id)
        if base is not None:
            ids[o.id] = ids.get(base) or len(ids) + 1
    # Larger footprints first so small objects on top of them stay visible in the layer.
    for o in sorted(m.objects, key=lambda o: -_area(o.footprint)):
        instance[_centre_mask(o.footprint, m.grid)] = ids[o.id]

    def pts(seq: Any) -> list[list[float]]:
        return [[float(x), float(y)] for x, y in seq]

    n = max(m.grid.rows, m.grid.cols)

    def square(a: NDArray[np.int64], fill: int) -> list[list[int]]:
        out = np.full((n, n), fill, dtype=np.int64)
        out[:a.shape[0], :a.shape[1]] = a
        return out.tolist()

    room_layer = np.where(m.room_ids >= 0, m.room_ids, -1).astype(np.int64)
    return {
        "grid_size": n,
        "metadata": {
            "format": FORMAT_NAME, "map_id": m.name,
            "original_grid_shape": [m.grid.rows, m.grid.cols],
            "map_info": {"resolution": m.grid.resolution,
                         "origin": [m.grid.origin_x, m.grid.origin_y], "row_order": "bottom_up"},
            "source": dict(m.metadata),
        },
        "layers": {"occupancy": square(occupancy, OBSTACLE), "room": square(room_layer, -1),
                   "object_instance": square(instance, 0),
                   "wall": square(m.walls.astype(np.int64), 0)},
        "room_instances": [{"id": r.id, "category": r.type.snake, "name": r.name,
                            "attributes": {"polygon": pts(r.polygon),
                                           "area_m2": round(r.area_m2, 3)}} for r in m.rooms],
        "object_instances": [{"id": ids[o.id], "category": o.category, "name": o.id,
                              "room_id": o.room_id,
                              "attributes": {"center": list(o.center), "z_min": o.z_min,
                                             "z_max": o.z_max,
                                             "parent": ids.get(o.parent_id or ""),
                                             "asset_id": o.asset_id}} for o in whole],
        "object_footprints": {str(ids[o.id]): pts(o.footprint) for o in whole
                              if o.id not in split},
        "doors": [{"id": d.id, "room_ids": list(d.room_ids), "segment": pts(d.segment)}
                  for d in m.doors],
        "windows": [{"id": w.id, "room_id": w.room_id, "segment": pts(w.segment)}
                    for w in m.windows],
    }


def write_official_map(m: SemanticMap, path: str | os.PathLike[str]) -> Path:
    """Write ``m`` as an official map JSON (atomically) and return the path."""
    out = Path(path)
    atomic_write_text(out, json.dumps(to_official_json(m), separators=(",", ":")))
    return out


def read_official_map(path: str | os.PathLike[str], *, name: str | None = None) -> SemanticMap:
    """Read an official map JSON file.

    Raises:
        SceneError: if the file is missing, not JSON, or lacks a required field (named).
    """
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        msg = f"Map file {str(p)!r} does not exist"
        raise SceneError(msg) from None
    except (OSError, json.JSONDecodeError) as err:
        msg = f"Map file {str(p)!r} is not JSON: {err}"
        raise SceneError(msg) from err
    return from_official_json(data, name=name or p.stem)


def _layer(data: OfficialMapJSON, key: str, shape: tuple[int, int], *, flip: bool,
           required: bool = True) -> NDArray[np.int64] | None:
    layers = data.get("layers") or {}
    if key not in layers:
        if required:
            msg = f"the map has no layers.{key}; an official map needs occupancy, room, object_instance"
            raise SceneError(msg)
        return None
    arr = np.asarray(layers[key], dtype=np.int64)
    if arr.shape != shape:
        msg = f"layers.{key} is {arr.shape}, grid_size says {shape}"
        raise SceneError(msg)
    return np.flipud(arr).copy() if flip else arr


def from_official_json(data: OfficialMapJSON, *, name: str) -> SemanticMap:
    """Build a semantic map from a parsed official map JSON.

    Raises:
        SceneError: naming the missing or inconsistent field.
    """
    try:
        size = data["grid_size"]
        rows, cols = (int(size), int(size)) if isinstance(size, (int, float)) else (
            int(size[0]), int(size[1]))
        meta0 = data.get("metadata") or {}
        info = dict(meta0.get("map_info") or {})
        resolution = float(info["resolution"])
    except (KeyError, TypeError, ValueError, IndexError) as err:
        msg = f"map {name!r} needs grid_size N and metadata.map_info.resolution ({err})"
        raise SceneError(msg) from err
    crop = None
    if meta0.get("format") == FORMAT_NAME and meta0.get("original_grid_shape"):
        crop = (int(meta0["original_grid_shape"][0]), int(meta0["original_grid_shape"][1]))
    origin = [float(v) for v in info.get("origin", [0.0, 0.0])]
    flip = info.get("row_order") == "top_down"
    full = (rows, cols)
    rows, cols = crop or full
    grid = GridSpec(rows=rows, cols=cols, resolution=resolution, origin_x=origin[0],
                    origin_y=origin[1])
    layers = {key: _layer(data, key, full, flip=flip, required=key != "wall")
              for key in ("occupancy", "room", "object_instance", "wall")}
    occupancy, room_layer, instance, wall_layer = (
        None if a is None else a[:rows, :cols] for a in layers.values())
    assert occupancy is not None and room_layer is not None and instance is not None
    walls = wall_layer.astype(bool) if wall_layer is not None else np.zeros(grid.shape, bool)
    try:
        wall_ids = [int(o["id"]) for o in data.get("object_instances", [])
                    if str(o.get("category")) == "wall"]
        if wall_layer is None:  # an official map: its wall instances are the walls
            walls |= np.isin(instance, wall_ids)
        rooms = tuple(_room(r, room_layer, grid) for r in data.get("room_instances", []))
        known_rooms = {r.id for r in rooms}
        footprints = data.get("object_footprints") or {}
        id_to_name = {int(o["id"]): str(o.get("name") or o["id"])
                      for o in data.get("object_instances", [])}
        objects = tuple(part for o in data.get("object_instances", [])
                        for part in _objects(o, instance, room_layer, grid, footprints,
                                             id_to_name, known_rooms))
        doors = tuple(Door(id=str(d["id"]), room_ids=(int(d["room_ids"][0]), int(d["room_ids"][1])),
                           segment=(tuple(d["segment"][0]), tuple(d["segment"][1])))  # type: ignore[arg-type]
                      for d in data.get("doors", []))
        windows = tuple(Window(id=str(w["id"]), room_id=int(w["room_id"]),
                               segment=(tuple(w["segment"][0]), tuple(w["segment"][1])))  # type: ignore[arg-type]
                        for w in data.get("windows", []))
    except (KeyError, TypeError, ValueError, IndexError) as err:
        msg = f"map {name!r} has a malformed room or object entry ({type(err).__name__}: {err})"
        raise SceneError(msg) from err
    room_ids = np.where(np.isin(room_layer, list(known_rooms)), room_layer, -1).astype(np.int32)
    meta = (data.get("metadata") or {})
    return SemanticMap(name=str(meta.get("map_id") or name), grid=grid,
                       traversable=(occupancy == FREE) & ~walls, walls=walls, room_ids=room_ids,
                       rooms=rooms, objects=objects, doors=doors, windows=windows,
                       metadata={"source_format": FORMAT_NAME, **dict(meta.get("source") or {})})


def _room(r: dict[str, Any], room_layer: NDArray[np.int64], grid: GridSpec) -> Room:
    rid = int(r["id"])
    attrs = _attributes(r.get("attributes"))
    if attrs.get("polygon"):
        polygon = tuple((float(x), float(y)) for x, y in attrs["polygon"])
    else:
        polygon = _contour(room_layer == rid, grid)
    return Room(id=rid, type=RoomType.parse(str(r["category"])), polygon=polygon,
                name=str(r.get("name", "")))


def _attributes(raw: Any) -> dict[str, Any]:
    """Attributes as a dict: ours are a dict, the official ones ``["key=value", ...]``."""
    if isinstance(raw, dict):
        return raw
    out: dict[str, Any] = {}
    for item in raw or []:
        key, sep, value = str(item).partition("=")
        if sep:
            out[key] = value
    return out


def _part_of(object_id: str) -> str | None:
    """The whole object's id of a part ``NAME#partK`` (``None`` for a whole object)."""
    base, sep, k = object_id.rpartition("#part")
    return base if sep and k.isdigit() else None


def _objects(o: dict[str, Any], instance: NDArray[np.int64], room_layer: NDArray[np.int64],
             grid: GridSpec, footprints: dict[str, Any], id_to_name: dict[int, str],
             known_rooms: set[int]) -> list[ObjectInstance]:
    """One object per 8-connected part of the instance's cells (one hull never spans rooms)."""

    iid = int(o["id"])
    cells = instance == iid
    if footprints.get(str(iid)) or not cells.any():
        return [_object(o, cells, room_layer, grid, footprints, id_to_name, known_rooms)]
    labels, n = label(cells, structure=np.ones((3, 3), dtype=bool))
    sizes = np.bincount(labels.ravel())[1:]
    order = np.argsort(-sizes, kind="stable") + 1
    return [_object(o, labels == k, room_layer, grid, footprints, id_to_name, known_rooms,
                    part=i) for i, k in enumerate(order)]


def _object(o: dict[str, Any], cells: NDArray[np.bool_], room_layer: NDArray[np.int64],
            grid: GridSpec, footprints: dict[str, Any], id_to_name: dict[int, str],
            known_rooms: set[int], *, part: int = 0) -> ObjectInstance:
    iid = int(o["id"])
    attrs = _attributes(o.get("attributes"))
    fp_raw = footprints.get(str(iid))
    if fp_raw:
        footprint = tuple((float(x), float(y)) for x, y in fp_raw)
    elif cells.any():
        footprint = _hull(cells, grid)
    else:
        msg = f"object {iid} has neither a footprint nor cells in layers.object_instance"
        raise SceneError(msg)
    if part:
        attrs = {k: v for k, v in attrs.items() if k != "center"}
    if attrs.get("center"):
        center = (float(attrs["center"][0]), float(attrs["center"][1]))
    else:
        pts = np.asarray(footprint)
        center = (float(pts[:, 0].mean()), float(pts[:, 1].mean()))
    room_id = None if part else o.get("room_id")
    if room_id is None and cells.any():
        vals = room_layer[cells]
        vals = vals[vals >= 0]
        room_id = int(np.bincount(vals).argmax()) if len(vals) else None
    if room_id is not None and int(room_id) not in known_rooms:
        room_id = None
    parent = attrs.get("parent")
    name = id_to_name[iid] + (f"#part{part + 1}" if part else "")
    return ObjectInstance(id=name, category=str(o["category"]),
                          room_id=None if room_id is None else int(room_id), footprint=footprint,
                          center=center, z_min=float(attrs.get("z_min", 0.0)),
                          z_max=float(attrs.get("z_max", 0.0)),
                          parent_id=id_to_name.get(int(parent)) if parent not in (None, "") else None,
                          asset_id=attrs.get("asset_id"))


def _cell_corners(rc: NDArray[np.int64], grid: GridSpec) -> NDArray[np.float64]:
    """Map-frame corners of the given cells (4 per cell)."""
    return np.concatenate([grid.cells_to_corners(rc, dr=dr, dc=dc)
                           for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))])


def _hull(mask: NDArray[np.bool_], grid: GridSpec) -> tuple[tuple[float, float], ...]:

    pts = _cell_corners(np.argwhere(mask), grid)
    try:
        hull = ConvexHull(pts)
    except QhullError:
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return tuple((float(x), float(y)) for x, y in pts[hull.vertices])


def _contour(mask: NDArray[np.bool_], grid: GridSpec) -> tuple[tuple[float, float], ...]:
    """The outer boundary of the largest blob of ``mask`` as a polygon in metres."""

    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        msg = "a room has neither attributes.polygon nor cells in layers.room"
        raise SceneError(msg)
    c = max(contours, key=cv2.contourArea).reshape(-1, 2)
    if len(c) < 3:
        return _hull(mask, grid)
    return tuple(grid.cell_to_world(float(row), float(col)) for col, row in c)


def _centre_mask(polygon: Any, grid: GridSpec) -> NDArray[np.bool_]:
    """Cells whose centre lies inside ``polygon``: the inverse of the hull of whole cells that
    reading builds, so an instance's cells write back as they were read."""

    xs, ys = grid.cell_centres()
    inside = MplPath(np.asarray(polygon, dtype=np.float64)).contains_points(
        np.stack([xs.ravel(), ys.ravel()], axis=1))
    return inside.reshape(grid.shape)


def _area(pts: Any) -> float:
    a = np.asarray(pts, dtype=np.float64)
    x, y = a[:, 0], a[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2.0)
