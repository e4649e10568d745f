"""Scene folders on disk: ``map.yaml`` + ``map.pgm`` (nav2 map_server), ``semantics.json``,
``rooms.png`` and ``walls.png``.

Layout of a scene folder::

    SCENE/
      map.yaml        nav2 map_server metadata (image, resolution, origin, negate, thresholds, mode)
      map.pgm         occupancy, top row first: 254 traversable, 0 blocked, 205 outside the house
      rooms.png       16-bit, top row first: room id + 1 per cell, 0 outside every room
      walls.png       8-bit, top row first: 255 wall, 0 otherwise
      semantics.json  versioned: rooms, objects, doors, windows, metadata

Every writer goes through a temporary file in the same folder and ``os.replace``, so a crash
never leaves a half-written scene.
"""

from __future__ import annotations

import difflib
import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import cv2
import numpy as np
import yaml

from map2route.files import atomic_write_bytes, atomic_write_text
from map2route.paths import maps_dir
from map2route.semantic_map.errors import MapError
from map2route.semantic_map.grid import GridSpec, grid_problems
from map2route.semantic_map.model import (
    Door,
    ObjectInstance,
    Room,
    RoomType,
    SemanticMap,
    Window,
)
from map2route.semantic_map.validate import semantics_problems

if TYPE_CHECKING:
    from numpy.typing import NDArray

SCHEMA_VERSION = "map2route.semantics/1"
FREE_VALUE, BLOCKED_VALUE, UNKNOWN_VALUE = 254, 0, 205
#: Thresholds written to map.yaml; 205 maps to p=0.196, which nav2 reads as unknown.
FREE_THRESH, OCCUPIED_THRESH = 0.196, 0.65


class SemanticsJSON(TypedDict):
    """The raw shape of ``semantics.json``."""

    schema_version: str
    name: str
    rooms: list[dict[str, Any]]
    objects: list[dict[str, Any]]
    doors: list[dict[str, Any]]
    windows: list[dict[str, Any]]
    metadata: dict[str, Any]


def _encode_png(image: NDArray[Any]) -> bytes:

    ok, buf = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - OpenCV only fails on unsupported dtypes
        raise MapError(f"could not encode a {image.dtype} image as PNG")
    return buf.tobytes()


def _encode_pgm(image: NDArray[np.uint8]) -> bytes:
    rows, cols = image.shape
    return f"P5\n{cols} {rows}\n255\n".encode("ascii") + image.tobytes()


# --- save ------------------------------------------------------------------------------------
def save_scene(m: SemanticMap, folder: str | os.PathLike[str]) -> Path:
    """Write ``m`` as a scene folder (see the module docstring) and return its path."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    occupancy = np.full(m.grid.shape, UNKNOWN_VALUE, dtype=np.uint8)
    occupancy[m.room_ids >= 0] = BLOCKED_VALUE
    occupancy[m.walls] = BLOCKED_VALUE
    occupancy[m.traversable] = FREE_VALUE
    map_yaml = {
        "image": "map.pgm",
        "mode": "trinary",
        "resolution": float(m.grid.resolution),
        "origin": [float(m.grid.origin_x), float(m.grid.origin_y), 0.0],
        "negate": 0,
        "occupied_thresh": OCCUPIED_THRESH,
        "free_thresh": FREE_THRESH,
    }
    rooms_img = (m.room_ids.astype(np.int64) + 1).astype(np.uint16)
    walls_img = np.where(m.walls, 255, 0).astype(np.uint8)
    atomic_write_bytes(out / "map.pgm", _encode_pgm(np.flipud(occupancy).copy()))
    atomic_write_bytes(out / "rooms.png", _encode_png(np.flipud(rooms_img).copy()))
    atomic_write_bytes(out / "walls.png", _encode_png(np.flipud(walls_img).copy()))
    atomic_write_text(out / "map.yaml", yaml.safe_dump(map_yaml, sort_keys=False))
    atomic_write_text(out / "semantics.json", json.dumps(semantics_to_json(m), indent=1))
    return out


def semantics_to_json(m: SemanticMap) -> SemanticsJSON:
    """The ``semantics.json`` document of ``m``."""

    def pts(seq: Any) -> list[list[float]]:
        return [[float(x), float(y)] for x, y in seq]

    return {
        "schema_version": SCHEMA_VERSION,
        "name": m.name,
        "rooms": [{"id": r.id, "type": r.type.value, "name": r.name, "polygon": pts(r.polygon)}
                  for r in m.rooms],
        "objects": [{"id": o.id, "category": o.category, "room_id": o.room_id,
                     "footprint": pts(o.footprint), "center": pts([o.center])[0],
                     "z_min": o.z_min, "z_max": o.z_max,
                     "parent_id": o.parent_id, "asset_id": o.asset_id} for o in m.objects],
        "doors": [{"id": d.id, "room_ids": list(d.room_ids), "segment": pts(d.segment)}
                  for d in m.doors],
        "windows": [{"id": w.id, "room_id": w.room_id, "segment": pts(w.segment)}
                    for w in m.windows],
        "metadata": dict(m.metadata),
    }


# --- load ------------------------------------------------------------------------------------
def _read_image(path: Path, problems: list[str], *, unchanged: bool = False) -> NDArray[Any] | None:

    if not path.is_file():
        problems.append(f"missing file {path.name}")
        return None
    flag = cv2.IMREAD_UNCHANGED if unchanged else cv2.IMREAD_GRAYSCALE
    img = cv2.imread(str(path), flag)
    if img is None:
        problems.append(f"{path.name} is not a readable image")
        return None
    return np.flipud(img).copy()


def load_scene(folder: str | os.PathLike[str]) -> SemanticMap:
    """Load and validate a scene folder.

    Raises:
        MapError: listing every problem found (missing file, size mismatch, unknown room,
            object outside the map, bad schema version), each on its own line.
    """
    root = Path(folder)
    if not root.is_dir():
        hint = ""

        if maps_dir().is_dir() and not root.is_absolute():
            names = sorted(p.name for p in maps_dir().iterdir() if (p / "map.yaml").is_file())

            close = difflib.get_close_matches(root.name, names, n=3)
            if close:
                hint = f"; did you mean {', '.join('maps/' + c for c in close)}?"
        msg = f"Scene folder {str(root)!r} does not exist{hint}"
        raise MapError(msg)
    problems: list[str] = []
    meta = _read_yaml(root / "map.yaml", problems)
    sem = _read_semantics(root / "semantics.json", problems)
    image = meta.get("image", "map.pgm") if meta else "map.pgm"
    if not isinstance(image, str) or not image:
        problems.append(f"map.yaml 'image' must be a file name, got {image!r}")
        image = "map.pgm"
    occ = _read_image(root / image, problems)
    rooms_img = _read_image(root / "rooms.png", problems, unchanged=True)
    walls_img = _read_image(root / "walls.png", problems)
    if problems or meta is None or sem is None or occ is None:
        raise MapError(_problem_message(root, problems))
    shape = occ.shape
    for name, img in (("rooms.png", rooms_img), ("walls.png", walls_img)):
        if img is not None and img.shape != shape:
            problems.append(f"{name} is {img.shape[1]}x{img.shape[0]}, map.pgm is "
                            f"{shape[1]}x{shape[0]}")
    try:
        resolution = float(meta["resolution"])
        origin = [float(v) for v in meta["origin"]]
        problems.extend(f"map.yaml: {p}" for p in grid_problems(
            shape[0], shape[1], resolution, origin[0], origin[1]))
    except (KeyError, TypeError, ValueError, IndexError) as err:
        problems.append(f"map.yaml needs numeric 'resolution' and 'origin' ({err})")
        resolution, origin = 0.05, [0.0, 0.0, 0.0]
    if not problems:
        grid_ok = GridSpec(rows=shape[0], cols=shape[1], resolution=resolution,
                           origin_x=origin[0], origin_y=origin[1])
        problems.extend(f"semantics.json: {p}" for p in semantics_problems(sem, grid_ok))
    else:
        problems.extend(f"semantics.json: {p}" for p in semantics_problems(sem))
    if rooms_img is not None and (rooms_img.dtype != np.uint16 or rooms_img.ndim != 2):
        problems.append(f"rooms.png is {rooms_img.dtype.itemsize * 8}-bit with "
                        f"{1 if rooms_img.ndim == 2 else rooms_img.shape[2]} channel(s); it must "
                        "be a 16-bit grey image (room id + 1 per cell), as save_scene writes it")
    elif rooms_img is not None:
        listed = sem.get("rooms")
        known = {r.get("id") for r in (listed if isinstance(listed, list) else [])
                 if isinstance(r, dict) and isinstance(r.get("id"), int)}
        stray = sorted(int(v) - 1 for v in np.unique(rooms_img) if v and int(v) - 1 not in known)
        if stray:
            problems.append(f"rooms.png has cells of room id(s) {stray[:10]} that semantics.json "
                            "does not list")
    if problems:
        raise MapError(_problem_message(root, problems))
    assert rooms_img is not None and walls_img is not None
    grid = GridSpec(rows=shape[0], cols=shape[1], resolution=resolution,
                    origin_x=origin[0], origin_y=origin[1])
    try:
        negate = int(meta.get("negate", 0))
        free_thresh = float(meta.get("free_thresh", FREE_THRESH))
        if not math.isfinite(free_thresh):
            raise ValueError(f"free_thresh is {free_thresh}")
    except (TypeError, ValueError, OverflowError) as err:
        raise MapError(_problem_message(root, [f"map.yaml 'negate' and 'free_thresh' must be "
                                               f"numbers ({err})"])) from None
    p_occ = (occ.astype(np.float64) / 255.0) if negate else (255.0 - occ) / 255.0
    traversable = p_occ < free_thresh
    walls = walls_img > 127
    room_ids = rooms_img.astype(np.int32) - 1
    try:
        entities = _entities_from_json(sem)
        return SemanticMap(name=str(sem.get("name") or root.name), grid=grid,
                           traversable=traversable & ~walls, walls=walls, room_ids=room_ids,
                           **entities)
    except MapError as err:
        raise MapError(f"Scene {str(root)!r}: {err}") from err


def _problem_message(root: Path, problems: list[str]) -> str:
    return (f"Cannot load scene {str(root)!r}:\n  - " + "\n  - ".join(problems)
            + "\nA scene folder holds map.yaml, map.pgm, rooms.png, walls.png and semantics.json.")


def _read_yaml(path: Path, problems: list[str]) -> dict[str, Any] | None:
    if not path.is_file():
        problems.append("missing file map.yaml")
        return None
    text = _read_utf8(path, problems)
    if text is None:
        return None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        problems.append(f"map.yaml is not valid YAML: {err}")
        return None
    if not isinstance(data, dict):
        problems.append("map.yaml must be a mapping")
        return None
    return data


def _read_semantics(path: Path, problems: list[str]) -> SemanticsJSON | None:
    if not path.is_file():
        problems.append("missing file semantics.json")
        return None
    text = _read_utf8(path, problems)
    if text is None:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        problems.append(f"semantics.json is not valid JSON: {err}")
        return None
    if not isinstance(data, dict):
        problems.append("semantics.json must be a JSON object")
        return None
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        problems.append(f"semantics.json has schema_version {version!r}; this map2route reads "
                        f"{SCHEMA_VERSION!r}")
        return None
    return data  # type: ignore[return-value]


def _read_utf8(path: Path, problems: list[str]) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        problems.append(f"{path.name} is not UTF-8 text (byte {err.start}: {err.reason}); save "
                        "it as UTF-8")
    except OSError as err:
        problems.append(f"cannot read {path.name}: {err.strerror}")
    return None


def _entities_from_json(sem: SemanticsJSON) -> dict[str, Any]:
    """Validate the raw semantic layer into dataclasses."""

    def pt(v: Any) -> tuple[float, float]:
        return float(v[0]), float(v[1])

    try:
        rooms = tuple(Room(id=int(r["id"]), type=RoomType.parse(r["type"]),
                           polygon=tuple(pt(p) for p in r["polygon"]), name=r.get("name", ""))
                      for r in sem["rooms"])
        objects = tuple(ObjectInstance(
            id=str(o["id"]), category=str(o["category"]),
            room_id=None if o.get("room_id") is None else int(o["room_id"]),
            footprint=tuple(pt(p) for p in o["footprint"]), center=pt(o["center"]),
            z_min=float(o.get("z_min", 0.0)), z_max=float(o.get("z_max", 0.0)),
            parent_id=o.get("parent_id"), asset_id=o.get("asset_id")) for o in sem["objects"])
        doors = tuple(Door(id=str(d["id"]), room_ids=(int(d["room_ids"][0]), int(d["room_ids"][1])),
                           segment=(pt(d["segment"][0]), pt(d["segment"][1])))
                      for d in sem.get("doors", []))
        windows = tuple(Window(id=str(w["id"]), room_id=int(w["room_id"]),
                               segment=(pt(w["segment"][0]), pt(w["segment"][1])))
                        for w in sem.get("windows", []))
    except (KeyError, TypeError, ValueError, IndexError) as err:
        msg = f"semantics.json has a malformed entry ({type(err).__name__}: {err})"
        raise MapError(msg) from err
    return {"rooms": rooms, "objects": objects, "doors": doors, "windows": windows,
            "metadata": dict(sem.get("metadata", {}))}
