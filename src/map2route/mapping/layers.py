"""Grid layers from the accumulated cloud: ground, walls, traversability, rooms and doors.

- Ground and ceiling heights: the modes of the point-height histogram below and above the
  sensor.
- Walls: the column-height histogram. A cell is wall when points fill at least
  ``wall_fill`` of the 0.1 m height bins between ``wall_band_m`` above the ground and just
  under the ceiling: only walls reach that high over their whole height (a fridge fills part
  of the band, a shelf's top is open).
- Traversability: cells inside the walls (the free component the robot drove in, bounded by
  what was seen) with no obstacle points between ``obstacle_min_m`` and ``robot_height_m``
  over the ground.
- Rooms: walls dilated by ``door_close_m`` close the doorways; the connected components left
  are room seeds; ``cv2.watershed`` grows them back over the free cells; the watershed lines
  between two rooms that are not wall are the doors.
- Room types from the objects a room holds (:data:`ROOM_EVIDENCE`), overridable by id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.mapping.errors import MappingError
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import RoomType

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from numpy.typing import NDArray

#: Object categories that say what a room is, with their weight.
ROOM_EVIDENCE: dict[str, tuple[RoomType, float]] = {
    "bed": (RoomType.BEDROOM, 3.0), "dresser": (RoomType.BEDROOM, 1.0),
    "alarm_clock": (RoomType.BEDROOM, 0.5), "teddy_bear": (RoomType.BEDROOM, 0.5),
    "toilet": (RoomType.BATHROOM, 3.0), "toilet_paper": (RoomType.BATHROOM, 1.0),
    "plunger": (RoomType.BATHROOM, 1.0), "soap_bar": (RoomType.BATHROOM, 0.5),
    "fridge": (RoomType.KITCHEN, 3.0), "microwave": (RoomType.KITCHEN, 1.5),
    "coffee_machine": (RoomType.KITCHEN, 1.0), "toaster": (RoomType.KITCHEN, 1.0),
    "counter_top": (RoomType.KITCHEN, 1.0), "dining_table": (RoomType.KITCHEN, 0.5),
    "kettle": (RoomType.KITCHEN, 0.5), "pan": (RoomType.KITCHEN, 0.5), "pot": (RoomType.KITCHEN, 0.5),
    "sofa": (RoomType.LIVING_ROOM, 3.0), "television": (RoomType.LIVING_ROOM, 1.5),
    "tv_stand": (RoomType.LIVING_ROOM, 1.5), "arm_chair": (RoomType.LIVING_ROOM, 1.0),
    "ottoman": (RoomType.LIVING_ROOM, 0.5),
}


@dataclass(frozen=True)
class LayerConfig:
    """Layer parameters (``config/mapping.yaml``, section ``layers``)."""

    resolution: float
    margin_m: float
    obstacle_min_m: float
    robot_height_m: float
    wall_band_m: float
    wall_fill: float
    ceiling_gap_m: float
    door_close_m: float
    min_room_m2: float


@dataclass(frozen=True, eq=False)
class Layers:
    """The grid layers of a built map."""

    grid: GridSpec
    ground_z: float
    ceiling_z: float
    walls: NDArray[np.bool_]
    traversable: NDArray[np.bool_]
    room_ids: NDArray[np.int32]
    doors: tuple[tuple[tuple[int, int], tuple[tuple[float, float], tuple[float, float]]], ...]


def _mode(z: NDArray[np.floating], bin_m: float = 0.02) -> float:
    b = np.floor(z / bin_m).astype(np.int64)
    b0 = b.min()
    return float((np.argmax(np.bincount(b - b0)) + b0 + 0.5) * bin_m)


def ground_and_ceiling(points: NDArray[np.floating], sensor_z: float) -> tuple[float, float]:
    """Ground and ceiling heights: the z modes below and above the sensor (``inf``: no ceiling)."""
    z = points[:, 2]
    low = z[z < sensor_z - 0.2]
    high = z[z > sensor_z + 1.0]
    ground = _mode(low) if low.size else sensor_z - 0.45
    ceiling = _mode(high) if high.size > 100 else float("inf")
    return ground, ceiling


def _disk(radius_cells: int) -> NDArray[np.uint8]:
    import cv2

    r = max(1, radius_cells)
    return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)),
                      dtype=np.uint8)


def build_layers(points: NDArray[np.floating], trajectory_xy: NDArray[np.floating], *,
                 sensor_z: float, config: LayerConfig) -> Layers:
    """All grid layers from the accumulated cloud and the robot's trajectory.

    Raises:
        MappingError: too few points, or the trajectory lies outside what was seen.
    """
    import cv2
    from scipy import ndimage

    cfg = config
    pts = np.asarray(points, dtype=np.float64)
    if len(pts) < 1000 or len(trajectory_xy) == 0:
        msg = (f"only {len(pts)} lidar voxels and {len(trajectory_xy)} poses: too little to "
               "build a map; record a longer drive with /registered_scan and /state_estimation")
        raise MappingError(msg)
    ground, ceiling = ground_and_ceiling(pts, sensor_z)
    keep = (pts[:, 2] > ground - 0.2) & (pts[:, 2] < ceiling - cfg.ceiling_gap_m / 2)
    pts = pts[keep]
    lo = np.percentile(pts[:, :2], 0.05, axis=0) - cfg.margin_m
    hi = np.percentile(pts[:, :2], 99.95, axis=0) + cfg.margin_m
    res = cfg.resolution
    grid = GridSpec(rows=int(np.ceil((hi[1] - lo[1]) / res)), cols=int(np.ceil((hi[0] - lo[0]) / res)),
                    resolution=res, origin_x=float(lo[0]), origin_y=float(lo[1]))
    cells = grid.worlds_to_cells(pts[:, :2])
    inside = (cells[:, 0] >= 0) & (cells[:, 0] < grid.rows) & (cells[:, 1] >= 0) & (cells[:, 1] < grid.cols)
    cells, h = cells[inside], pts[inside, 2] - ground
    flat = cells[:, 0] * grid.cols + cells[:, 1]
    n = grid.rows * grid.cols
    seen = np.bincount(flat, minlength=n).reshape(grid.shape) > 0
    obst = (h > cfg.obstacle_min_m) & (h < cfg.robot_height_m)
    obstacle = np.bincount(flat[obst], minlength=n).reshape(grid.shape) > 0
    top = (ceiling - ground - cfg.ceiling_gap_m) if np.isfinite(ceiling) else float(h.max())
    band = (h >= cfg.wall_band_m) & (h < top)
    n_bins = max(1, int((top - cfg.wall_band_m) / 0.1))
    if band.any():
        bins = np.minimum(((h[band] - cfg.wall_band_m) / 0.1).astype(np.int64), n_bins - 1)
        occupied = np.unique(flat[band] * n_bins + bins)
        fill = np.bincount(occupied // n_bins, minlength=n).reshape(grid.shape)
    else:
        fill = np.zeros(grid.shape, dtype=np.int64)
    walls = fill >= cfg.wall_fill * n_bins
    # Close one-cell pinholes in walls so rooms do not leak through sparse columns.
    walls = cv2.morphologyEx(walls.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)).astype(bool)
    # Inside: the non-wall component(s) the robot drove through, within the hull of the walls
    # (the floor right around an upright Mid-360 is never hit, so "seen" cannot bound it).
    hull = np.zeros(grid.shape, dtype=np.uint8)
    wall_rc = np.argwhere(walls)
    if len(wall_rc) >= 3:
        cv2.fillPoly(hull, [cv2.convexHull(wall_rc[:, ::-1].astype(np.int32))], 1)
    else:
        hull[:] = seen
    labels, _ = ndimage.label(~walls & hull.astype(bool))
    traj = grid.worlds_to_cells(np.asarray(trajectory_xy))
    ok = (traj[:, 0] >= 0) & (traj[:, 0] < grid.rows) & (traj[:, 1] >= 0) & (traj[:, 1] < grid.cols)
    ids = np.unique(labels[traj[ok, 0], traj[ok, 1]])
    ids = ids[ids > 0]
    if ids.size == 0:
        msg = "the robot's trajectory lies outside every free area of the cloud; check the odometry frame"
        raise MappingError(msg)
    interior = np.isin(labels, ids)
    traversable = interior & ~obstacle
    room_ids, doors = segment_rooms(interior, walls, grid, config=cfg)
    return Layers(grid=grid, ground_z=ground, ceiling_z=ceiling, walls=walls,
                  traversable=traversable, room_ids=room_ids, doors=doors)


def segment_rooms(interior: NDArray[np.bool_], walls: NDArray[np.bool_], grid: GridSpec, *,
                  config: LayerConfig) -> tuple[NDArray[np.int32], tuple[Any, ...]]:
    """Room ids (``-1`` outside) and doors ``((room_a, room_b), segment)`` by watershed."""
    import cv2
    from scipy import ndimage

    res = grid.resolution
    closed = cv2.dilate(walls.astype(np.uint8), _disk(int(round(config.door_close_m / res)))).astype(bool)
    seeds, n = ndimage.label(interior & ~closed)
    if n:
        sizes = np.bincount(seeds.reshape(-1), minlength=n + 1)
        small = sizes * res * res < config.min_room_m2
        small[0] = False
        seeds[small[seeds]] = 0
        _, seeds = np.unique(seeds, return_inverse=True)
        seeds = seeds.reshape(interior.shape)
        n = int(seeds.max())
    if n == 0:
        # No room is wide enough to survive the door closing: one room for all.
        return np.where(interior, 0, -1).astype(np.int32), ()
    # Grow the seeds back over the free cells in equal steps (a marker-controlled watershed on
    # a flat relief: the geodesic Voronoi partition of the seeds). A relief from the distance
    # to walls (cv2.watershed, scipy's watershed_ift) ties everywhere next to walls and lets one
    # room flood another's rim through the door; equal steps meet in the middle of doorways.
    room = np.where(seeds > 0, seeds - 1, -1).astype(np.int32)
    free = interior & ~walls
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
    while True:
        grown_step = ndimage.grey_dilation(room + 1, footprint=cross) - 1
        new = free & (room < 0) & (grown_step >= 0)
        if not new.any():
            break
        room[new] = grown_step[new]
    room[~interior] = -1
    # watershed_ift leaves no lines: the doors are the free cells whose 3x3 neighbourhood
    # holds two rooms.
    grown = ndimage.grey_dilation(np.where(room >= 0, room + 1, 0), size=(3, 3))
    lo_nb = -ndimage.grey_dilation(np.where(room >= 0, -(room + 1), -(10**6)), size=(3, 3))
    line = interior & (room >= 0)
    # Doors: free cells touching two rooms.
    pair = line & (grown > 0) & (lo_nb > 0) & (lo_nb < 10**6) & (grown != lo_nb)
    doors = []
    if pair.any():
        comp, k = ndimage.label(pair, structure=np.ones((3, 3)))
        for j in range(1, k + 1):
            rc = np.argwhere(comp == j)
            if len(rc) < 3:
                continue
            a = int(np.bincount(lo_nb[comp == j]).argmax()) - 1
            b = int(np.bincount(grown[comp == j]).argmax()) - 1
            xy = grid.cells_to_worlds(rc)
            c = xy.mean(axis=0)
            _, _, vt = np.linalg.svd(xy - c, full_matrices=False)
            proj = (xy - c) @ vt[0]
            p0, p1 = c + vt[0] * proj.min(), c + vt[0] * proj.max()
            doors.append(((a, b), ((float(p0[0]), float(p0[1])), (float(p1[0]), float(p1[1])))))
    return room, tuple(doors)


def room_types(categories_by_room: Mapping[int, Iterable[str]],
               overrides: Mapping[int, RoomType] | None = None) -> dict[int, RoomType]:
    """Each room's type by the weighted evidence of its objects (living room when none)."""
    out: dict[int, RoomType] = {}
    for rid, cats in categories_by_room.items():
        score: dict[RoomType, float] = {}
        for c in cats:
            if c in ROOM_EVIDENCE:
                t, w = ROOM_EVIDENCE[c]
                score[t] = score.get(t, 0.0) + w
        out[rid] = max(score, key=lambda t: score[t]) if score else RoomType.LIVING_ROOM
    for rid, t in (overrides or {}).items():
        out[rid] = t
    return out
