"""A scene in 3D for the simulator: walls, floor, ceiling and object boxes in an open3d
:class:`RaycastingScene` (CPU ray casting, Embree).

Walls are the wall layer's cells merged into rectangles and extruded to ``wall_height_m``; door
gaps stay open because they are gaps in that layer. Each object is the minimum-area rectangle
of its footprint extruded from ``z_min`` to ``z_max``. Every object is its own geometry, so a
ray's geometry id names the object it hit: the simulator's per-pixel instance id.

Structure objects (walls, windows, doorways, door frames) are not extruded: walls come from the
wall layer, and a doorway box would close the door; the wall above a door (its lintel, from
the door's top to the wall height) is added. ProcTHOR hangs paintings and TVs on the
wall's centre line, inside our 0.1 m thick wall cells; such an object is pushed out of the wall
into its room by the smallest shift (at most :data:`MAX_WALL_PUSH_M`) that frees it, or it
would be invisible.

Open storage furniture (:class:`OpenStorage`, categories from ``simulate.open_storage`` of
``config/mapping.yaml``: ProcTHOR's shelving units hold their objects *on* shelves inside the
box) is built as a frame instead of a solid box: a back panel on the long face that has a wall
behind it (none for a free-standing unit, open both ways), two side panels, a bottom and a top
board and a board under each object resting inside it (plus filler boards so no gap exceeds
``board_gap_m``, skipping heights where an object stands), so the lidar and the camera see
the objects on its shelves. Every other object (a fridge, a dresser, a microwave) stays a
solid box: what is inside it is unobservable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from map2route.mapping.errors import MappingError
from map2route.semantic_map.categories import STRUCTURE_CATEGORIES

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap

#: Thinnest box the simulator builds (flat footprints such as rugs still get a surface).
MIN_THICKNESS_M = 0.02
#: Largest shift that moves a wall-hung object out of the wall cells.
MAX_WALL_PUSH_M = 0.2
#: How far beyond an open-storage unit's long face walls are looked for (its back panel).
BACK_WALL_REACH_M = 0.3


@dataclass(frozen=True)
class OpenStorage:
    """Which categories are open-fronted storage, and their frame's dimensions.

    Args:
        categories: object categories built as a frame (``shelf``).
        panel_m: thickness of the back, side panels and boards.
        board_gap_m: filler boards are added so no gap between boards exceeds this (0: none).
    """

    categories: frozenset[str]
    panel_m: float
    board_gap_m: float


#: Structure categories that mark a door in a wall (the wall above them is the lintel).
DOOR_CATEGORIES = frozenset({"doorway", "doorframe"})


def _open3d() -> object:
    try:
        import open3d  # noqa: PLC0415 - optional dependency (mapping extra)
    except ImportError as err:
        msg = ("The mapping simulator needs open3d: install the extra with "
               "`.venv/bin/pip install -e '.[mapping]'` (on Debian also `apt-get install "
               f"libusb-1.0-0`). Import failed with: {err}")
        raise MappingError(msg) from err
    return open3d


def wall_rectangles(walls: NDArray[np.bool_]) -> list[tuple[int, int, int, int]]:
    """Cover the wall cells by rectangles ``(row0, col0, row1, col1)`` (inclusive-exclusive).

    Runs of wall cells in each row are merged with identical runs of the rows above; a few
    hundred boxes instead of one per cell keep the ray-casting scene small.
    """
    open_runs: dict[tuple[int, int], int] = {}
    rects: list[tuple[int, int, int, int]] = []
    for r in range(walls.shape[0] + 1):
        runs: set[tuple[int, int]] = set()
        if r < walls.shape[0]:
            row = np.concatenate([[False], walls[r], [False]]).astype(np.int8)
            edges = np.flatnonzero(np.diff(row))
            runs = {(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)}
        for run, start in list(open_runs.items()):
            if run not in runs:
                rects.append((start, run[0], r, run[1]))
                del open_runs[run]
        for run in runs:
            open_runs.setdefault(run, r)
    return rects


def _box(o3d: object, size: tuple[float, float, float], center: tuple[float, float, float],
         yaw: float) -> object:
    mesh = o3d.geometry.TriangleMesh.create_box(*size)  # type: ignore[attr-defined]
    mesh.translate((-size[0] / 2, -size[1] / 2, -size[2] / 2))
    c, s = math.cos(yaw), math.sin(yaw)
    mesh.rotate(np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]), center=(0, 0, 0))
    mesh.translate(center)
    return o3d.t.geometry.TriangleMesh.from_legacy(mesh)  # type: ignore[attr-defined]


def object_box(footprint: tuple[tuple[float, float], ...]
               ) -> tuple[tuple[float, float], tuple[float, float], float]:
    """Centre, size and yaw (rad) of the minimum-area rectangle of a footprint polygon."""

    (cx, cy), (w, h), angle = cv2.minAreaRect(np.asarray(footprint, dtype=np.float32))
    return (float(cx), float(cy)), (max(float(w), MIN_THICKNESS_M),
                                    max(float(h), MIN_THICKNESS_M)), math.radians(angle)


def wall_side(m: SemanticMap, center: tuple[float, float], size: tuple[float, float],
              yaw: float) -> tuple[float, float] | None:
    """The unit normal of the wall a box hangs on, pointing to the box's side of it.

    ProcTHOR hangs a painting with its back on the wall's centre line and its face towards
    its room, so the side is the sign of the box centre's offset from the centre line of the
    nearest ``wall`` object parallel to the box's long side (exact, unlike the 5 cm wall
    cells). A map without wall objects takes the side of the nearest traversable cell within
    0.5 m (an outer wall has floor on one side only). ``None``: no side can be told.
    """
    long_dir = yaw if size[0] >= size[1] else yaw + math.pi / 2
    best: tuple[float, tuple[float, float]] | None = None
    has_walls = False
    for w in m.objects:
        if w.category != "wall":
            continue
        has_walls = True
        (wx, wy), (wsx, wsy), wyaw = object_box(w.footprint)
        along = wyaw if wsx >= wsy else wyaw + math.pi / 2
        if abs(math.sin(along - long_dir)) > math.sin(math.radians(20.0)):
            continue
        ux, uy = math.cos(along), math.sin(along)
        rx, ry = center[0] - wx, center[1] - wy
        offset = -uy * rx + ux * ry  # signed distance from the centre line, normal (-uy, ux)
        if abs(rx * ux + ry * uy) > max(wsx, wsy) / 2 + 0.05 or abs(offset) > 0.2:
            continue
        if abs(offset) > 1e-3 and (best is None or abs(offset) < best[0]):
            sign = 1.0 if offset > 0 else -1.0
            best = (abs(offset), (-uy * sign, ux * sign))
    if best is not None:
        return best[1]
    if has_walls:
        return None
    r, c = m.grid.worlds_to_cells(np.asarray([center], dtype=np.float64))[0]
    reach = int(round(m.grid.meters_to_cells(0.5)))
    r0, c0 = max(0, r - reach), max(0, c - reach)
    window = m.traversable[r0:r + reach + 1, c0:c + reach + 1]
    free = np.argwhere(window)
    if not len(free):
        return None
    d = free + (r0, c0) - (r, c)
    dr, dc = d[int(np.argmin(np.hypot(d[:, 0], d[:, 1])))]
    norm = math.hypot(dr, dc)
    return None if norm == 0 else (float(dc / norm), float(dr / norm))


def push_out_of_walls(m: SemanticMap, center: tuple[float, float], size: tuple[float, float],
                      yaw: float) -> tuple[float, float]:
    """The centre of the box moved off the wall cells by the smallest shift towards its side
    of the wall (:func:`wall_side`).

    Shifts on a 1 cm lattice of up to :data:`MAX_WALL_PUSH_M` are tried, shortest first, the
    ones along the wall's normal before oblique ones (a painting in a corner needs both: off
    its wall and off the wall it touches); the box is sampled every centimetre. Shifts away
    from the box's side are tried only when none towards it frees the box (pushed the wrong
    way a painting ends up outside the house or in the next room, facing away from its own).
    Returns ``center`` when it is free already or when no shift frees it.
    """
    c, s = math.cos(yaw), math.sin(yaw)
    nu, nv = max(2, int(size[0] / 0.01) + 1), max(2, int(size[1] / 0.01) + 1)
    uu, vv = np.meshgrid(np.linspace(-size[0] / 2, size[0] / 2, nu),
                         np.linspace(-size[1] / 2, size[1] / 2, nv))
    local = np.stack([uu.ravel() * c - vv.ravel() * s, uu.ravel() * s + vv.ravel() * c], axis=1)

    def hits(cx: float, cy: float) -> int:
        rc = m.grid.worlds_to_cells(local + (cx, cy))
        ok = m.grid.contains_cells(rc)
        return int(m.walls[rc[ok, 0], rc[ok, 1]].sum())

    if hits(*center) == 0:
        return center
    n = int(round(MAX_WALL_PUSH_M / 0.01))
    ii, jj = np.meshgrid(np.arange(-n, n + 1), np.arange(-n, n + 1), indexing="ij")
    shifts = np.stack([ii.ravel(), jj.ravel()], axis=1).astype(np.float64) * 0.01
    length = np.hypot(shifts[:, 0], shifts[:, 1])
    keep = (length > 0) & (length <= MAX_WALL_PUSH_M + 1e-9)
    shifts, length = shifts[keep], length[keep]
    side = wall_side(m, center, size, yaw)
    normal = np.asarray(side if side is not None else (0.0, 0.0))
    toward = shifts @ normal
    # Shortest first; at equal length the one most along the normal (axis-aligned when none).
    order = np.lexsort((-np.abs(toward) if side is None else -toward / length, np.round(length, 6)))
    passes = [order[toward[order] > 1e-9], order[toward[order] <= 1e-9]] if side is not None else [order]
    for idx in passes:
        for k in idx:
            dx, dy = shifts[k]
            if hits(center[0] + dx, center[1] + dy) == 0:
                return (float(center[0] + dx), float(center[1] + dy))
    return center


def frame_parts(size: tuple[float, float], z_range: tuple[float, float],
                rest_heights: list[tuple[float, float]], back: tuple[bool, bool],
                spec: OpenStorage) -> list[tuple[tuple[float, float, float],
                                                  tuple[float, float, float]]]:
    """The boxes ``(size, centre)`` of an open storage unit in its own frame.

    The frame: x along ``size[0]``, y along ``size[1]`` (the box's centre at 0, 0), z up.
    ``back`` says whether the face at -y / +y (the long faces when ``size[0] >= size[1]``;
    otherwise -x / +x) gets a back panel. ``rest_heights`` are the ``(z_min, z_max)`` of the
    objects inside: each gets a board under it, and no filler board crosses one.
    """
    t = spec.panel_m
    z0, z1 = z_range
    sx, sy = size
    height = z1 - z0
    long_x = sx >= sy
    parts: list[tuple[tuple[float, float, float], tuple[float, float, float]]] = []
    zc = z0 + height / 2
    for sign, has in zip((-1.0, 1.0), back, strict=True):
        if not has:
            continue
        if long_x:
            parts.append(((sx, t, height), (0.0, sign * (sy - t) / 2, zc)))
        else:
            parts.append(((t, sy, height), (sign * (sx - t) / 2, 0.0, zc)))
    for sign in (-1.0, 1.0):  # the two short (side) faces
        if long_x:
            parts.append(((t, sy, height), (sign * (sx - t) / 2, 0.0, zc)))
        else:
            parts.append(((sx, t, height), (0.0, sign * (sy - t) / 2, zc)))
    boards = [z0 + t, z1]
    boards += [lo for lo, _ in rest_heights if z0 + 2 * t < lo < z1 - t]
    if spec.board_gap_m > 0:
        boards.sort()
        for lo, hi in zip(list(boards[:-1]), list(boards[1:]), strict=True):
            n = math.ceil((hi - lo) / spec.board_gap_m - 1e-9)
            for k in range(1, n):
                z = lo + (hi - lo) * k / n
                if all(not (a - t <= z <= b + t) for a, b in rest_heights):
                    boards.append(z)
    for top in sorted(set(round(b, 4) for b in boards)):
        parts.append(((sx, sy, t), (0.0, 0.0, top - t / 2)))
    return parts


def back_faces(m: SemanticMap, center: tuple[float, float], size: tuple[float, float],
               yaw: float) -> tuple[bool, bool]:
    """Which long face of a box has a wall behind it: wall cells within
    :data:`BACK_WALL_REACH_M` beyond the face (sampled along it). A face with more wall than
    the other is the back; with none on either (a free-standing unit) neither is."""
    c, s = math.cos(yaw), math.sin(yaw)
    sx, sy = size
    long_x = sx >= sy
    counts = []
    for sign in (-1.0, 1.0):
        along = np.linspace(-0.45, 0.45, 10) * (sx if long_x else sy)
        out = np.linspace(0.01, BACK_WALL_REACH_M, 6)
        aa, oo = np.meshgrid(along, out)
        if long_x:
            u, v = aa.ravel(), sign * (sy / 2 + oo.ravel())
        else:
            u, v = sign * (sx / 2 + oo.ravel()), aa.ravel()
        pts = np.stack([center[0] + u * c - v * s, center[1] + u * s + v * c], axis=1)
        rc = m.grid.worlds_to_cells(pts)
        ok = m.grid.contains_cells(rc)
        counts.append(int(m.walls[rc[ok, 0], rc[ok, 1]].sum()))
    if counts[0] == counts[1]:
        return (False, False)
    return (counts[0] > counts[1], counts[1] > counts[0])


def _frame_meshes(o3d: object, m: SemanticMap, obj: object, center: tuple[float, float],
                  size: tuple[float, float], yaw: float, spec: OpenStorage) -> list[object]:

    z0, z1 = obj.z_min, obj.z_max  # type: ignore[attr-defined]
    poly = Polygon(obj.footprint)  # type: ignore[attr-defined]
    inside = [(o.z_min, o.z_max) for o in m.objects
              if o is not obj and (o.parent_id == obj.id  # type: ignore[attr-defined]
                                   or poly.contains(ShapelyPoint(o.center)))
              and z0 < o.z_min and o.z_max < z1 + 1e-6]
    c, s = math.cos(yaw), math.sin(yaw)
    meshes = []
    for (px, py, pz), (ux, uy, uz) in frame_parts(size, (z0, z1), inside,
                                                   back_faces(m, center, size, yaw), spec):
        world = (center[0] + ux * c - uy * s, center[1] + ux * s + uy * c, uz)
        meshes.append(_box(o3d, (px, py, pz), world, yaw))
    return meshes


@dataclass
class Scene3D:
    """The ray-casting scene of one semantic map.

    Attributes:
        scene: the open3d ``RaycastingScene``.
        instance_of_geometry: int32 array, geometry id -> instance id (0 = wall/floor/ceiling,
            ``k >= 1`` = ``labels[k]``); index ``len`` holds 0 for "no hit".
        labels: instance id -> category (index 0 is ``"background"``).
        object_ids: instance id -> the map's object id (index 0 is ``""``).
        wall_height_m: height of walls and ceiling.
    """

    scene: object
    instance_of_geometry: NDArray[np.int32]
    labels: list[str]
    object_ids: list[str]
    wall_height_m: float

    @classmethod
    def from_map(cls, m: SemanticMap, *, wall_height_m: float = 2.5,
                 ceiling: bool = True, open_storage: OpenStorage | None = None,
                 door_lintels: bool = True) -> Scene3D:
        """Extrude ``m`` into 3D (``open_storage``: the categories built as frames; none when
        ``None``, every object a solid box). With ``door_lintels`` each door (a ``doorway``
        or ``doorframe`` object: every ProcTHOR door, 0-2.1 m) gets the wall over it, from
        its top to ``wall_height_m``, as a real door has; wall openings (no such object)
        stay open to the ceiling.

        Raises:
            MappingError: open3d is missing, or the map has no walls.
        """
        o3d = _open3d()
        scene = o3d.t.geometry.RaycastingScene()  # type: ignore[attr-defined]
        geometry_instance: list[int] = []
        rects = wall_rectangles(m.walls)
        if not rects:
            msg = f"Scene {m.name!r} has no wall cells; the simulator needs walls to render"
            raise MappingError(msg)
        for r0, c0, r1, c1 in rects:
            x0, y0, sx, sy = m.grid.cell_box(r0, c0, r1, c1)
            scene.add_triangles(_box(o3d, (sx, sy, wall_height_m),
                                     (x0 + sx / 2, y0 + sy / 2, wall_height_m / 2), 0.0))
            geometry_instance.append(0)
        w, h = m.grid.width_m, m.grid.height_m
        cx, cy = m.grid.origin_x + w / 2, m.grid.origin_y + h / 2
        scene.add_triangles(_box(o3d, (w, h, 0.02), (cx, cy, -0.01), 0.0))
        geometry_instance.append(0)
        if ceiling:
            scene.add_triangles(_box(o3d, (w, h, 0.02), (cx, cy, wall_height_m + 0.01), 0.0))
            geometry_instance.append(0)

        if door_lintels:
            for door in m.objects:
                if door.category not in DOOR_CATEGORIES or door.z_max >= wall_height_m:
                    continue
                (ox, oy), (sx, sy), yaw = object_box(door.footprint)
                sz = wall_height_m - door.z_max
                scene.add_triangles(_box(o3d, (sx, sy, sz), (ox, oy, door.z_max + sz / 2), yaw))
                geometry_instance.append(0)
        labels, object_ids = ["background"], [""]
        for obj in m.objects:
            if obj.category in STRUCTURE_CATEGORIES:
                continue
            (ox, oy), (sx, sy), yaw = object_box(obj.footprint)
            ox, oy = push_out_of_walls(m, (ox, oy), (sx, sy), yaw)
            z0 = obj.z_min
            sz = max(obj.z_max - obj.z_min, MIN_THICKNESS_M)
            if open_storage is not None and obj.category in open_storage.categories:
                meshes = _frame_meshes(o3d, m, obj, (ox, oy), (sx, sy), yaw, open_storage)
            else:
                meshes = [_box(o3d, (sx, sy, sz), (ox, oy, z0 + sz / 2), yaw)]
            labels.append(obj.category)
            object_ids.append(obj.id)
            for mesh in meshes:
                scene.add_triangles(mesh)
                geometry_instance.append(len(labels) - 1)
        table = np.asarray(geometry_instance + [0], dtype=np.int32)
        return cls(scene=scene, instance_of_geometry=table, labels=labels,
                   object_ids=object_ids, wall_height_m=wall_height_m)

    def cast(self, origins: NDArray[np.floating], directions: NDArray[np.floating]
             ) -> tuple[NDArray[np.float32], NDArray[np.int32], NDArray[np.float32]]:
        """Cast rays; return hit distance (``inf`` for none), instance id, and |cos| to the normal."""
        import open3d as o3d  # noqa: PLC0415 - optional heavy dependency (mapping extra)

        rays = np.concatenate([np.broadcast_to(origins, directions.shape), directions],
                              axis=-1).astype(np.float32).reshape(-1, 6)
        hits = self.scene.cast_rays(o3d.core.Tensor(rays))  # type: ignore[attr-defined,call-overload]
        t = hits["t_hit"].numpy()
        geo = hits["geometry_ids"].numpy().astype(np.int64)
        geo = np.where(geo >= len(self.instance_of_geometry) - 1, len(self.instance_of_geometry) - 1,
                       geo)
        inst = self.instance_of_geometry[geo]
        normals = hits["primitive_normals"].numpy()
        shade = np.abs(np.einsum("ij,ij->i", normals, rays[:, 3:]))
        shape = directions.shape[:-1]
        return t.reshape(shape), inst.reshape(shape), shade.reshape(shape).astype(np.float32)
