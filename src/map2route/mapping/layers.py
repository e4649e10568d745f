"""Grid layers from the accumulated cloud: ground, walls, traversability, rooms and doors.

- Ground and ceiling heights: the modes of the point-height histogram below and above the
  sensor.
- Walls: the column-height histogram. A cell is wall when points fill at least
  ``wall_fill`` of the 0.1 m height bins between ``wall_band_m`` above the ground and just
  under the ceiling: only walls reach that high over their whole height (a fridge fills part
  of the band, a shelf's top is open). With ``wall_thin`` a face cell whose points lie in its
  half towards the wall is floor (:func:`thin_walls`).
- Traversability: cells inside the walls (the free component the robot drove in, bounded by
  what was seen) with no obstacle points between ``obstacle_min_m`` and ``robot_height_m``
  over the ground.
- Lintels (:func:`lintels`): cells with points only high up (the wall over a door) close
  doorways for room segmentation.
- Rooms: a marker watershed on the distance to the walls and lintels; the markers are its maxima that
  stand ``room_split_m`` over the saddle (the doorway) that joins them to a higher one, so
  doorways of any width split rooms wider than them; the free cells where two rooms meet are
  the doors.
- Open-plan rooms (no wall between a kitchen and a living room) split by the objects they
  hold when each of two types has strong evidence at its own end (:func:`split_open_plan`).
- Room types from the objects a room holds (:data:`ROOM_EVIDENCE`); a room with none takes
  the type of the neighbour it shares the widest openings with; overridable by id.
- Open rooms merged (:func:`merge_open_rooms`): two rooms of one type that share an opening
  at least ``merge_open_m`` wide with no lintel over it are one room the watershed cut where
  the free space narrows.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from scipy import ndimage

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
    # A counter top is a fixture of a kitchen as a fridge is (a kitchen without a detected
    # fridge, procthor_00775, was typed by a toaster and a 1.0 counter: under split_evidence).
    "counter_top": (RoomType.KITCHEN, 3.0), "dining_table": (RoomType.KITCHEN, 0.5),
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
    wall_thin: bool
    ceiling_gap_m: float
    room_split_m: float
    min_room_m2: float
    open_plan_m: float
    weak_room_evidence: float
    split_evidence: float
    split_seed_weight: float
    split_gap_m: float
    split_min_room_m2: float
    lintel_min_m: float
    lintel_clear_m: float
    merge_open_m: float = 0.0


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
    #: Cells under a lintel (:func:`lintels`; ``None``: not known, no opening is a door).
    lintel: NDArray[np.bool_] | None = None


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


def build_layers(points: NDArray[np.floating], trajectory_xy: NDArray[np.floating], *,
                 sensor_z: float, config: LayerConfig) -> Layers:
    """All grid layers from the accumulated cloud and the robot's trajectory.

    Raises:
        MappingError: too few points, or the trajectory lies outside what was seen.
    """

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
    grid = GridSpec.covering(float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]), resolution=res)
    cells = grid.worlds_to_cells(pts[:, :2])
    inside = grid.contains_cells(cells)
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
    if cfg.wall_thin and band.any():
        band_xy = pts[inside][band, :2]
        walls = thin_walls(walls, band_xy, grid)
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
    ok = grid.contains_cells(traj)
    ids = np.unique(labels[traj[ok, 0], traj[ok, 1]])
    ids = ids[ids > 0]
    if ids.size == 0:
        msg = "the robot's trajectory lies outside every free area of the cloud; check the odometry frame"
        raise MappingError(msg)
    interior = np.isin(labels, ids)
    traversable = interior & ~obstacle
    # Lintels close doorways for the rooms (3x3 closing: one-cell pinholes, as for walls).
    lintel = lintels(h, flat, walls, top, cfg)
    seg_walls = walls  # already closed: closing it again would change nothing
    if lintel.any():
        seg_walls = cv2.morphologyEx((walls | lintel).astype(np.uint8), cv2.MORPH_CLOSE,
                                     np.ones((3, 3), np.uint8)).astype(bool)
    room_ids, doors = segment_rooms(interior, seg_walls, grid, config=cfg)
    return Layers(grid=grid, ground_z=ground, ceiling_z=ceiling, walls=walls,
                  traversable=traversable, room_ids=room_ids, doors=doors, lintel=lintel)


def thin_walls(walls: NDArray[np.bool_], band_xy: NDArray[np.floating],
               grid: GridSpec) -> NDArray[np.bool_]:
    """Walls without the outer cells the wall's surface only touches.

    A wall surface seen by the lidar sits on a cell border as often as not, and its points
    (range noise, 3 cm voxels) fall on both sides of it: a 0.1 m wall became 0.2 m, a cell of
    floor lost on each side (2 % of every house's floor, all of it outside every room). A cell
    on a wall's face - free on one side, wall on the other - whose wall-band points lie on
    average in its half towards the wall has its centre in front of the surface: it is floor,
    as a cell belongs to the region holding its centre. Two facing candidates (a wall thinner
    than a cell) both stay, so no wall gets a hole.
    """
    cells = grid.worlds_to_cells(band_xy)
    ok = grid.contains_cells(cells)
    cells, xy = cells[ok], band_xy[ok]
    flat = cells[:, 0] * grid.cols + cells[:, 1]
    n = grid.rows * grid.cols
    count = np.bincount(flat, minlength=n).reshape(grid.shape)
    # Mean position of the points inside their cell, 0..1 along x (columns) and y (rows).
    frac = grid.worlds_to_fractional(xy)
    fx = frac[:, 1] - cells[:, 1]
    fy = frac[:, 0] - cells[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = np.bincount(flat, weights=fx, minlength=n).reshape(grid.shape) / count
        my = np.bincount(flat, weights=fy, minlength=n).reshape(grid.shape) / count
    pad = np.pad(walls, 1)
    left, right = pad[1:-1, :-2], pad[1:-1, 2:]
    down, up = pad[:-2, 1:-1], pad[2:, 1:-1]
    has = walls & (count > 0)
    # (candidate, its wall-side neighbour offset (drow, dcol)).
    sides = [(has & ~left & right & (mx > 0.5), (0, 1)), (has & left & ~right & (mx < 0.5), (0, -1)),
             (has & ~down & up & (my > 0.5), (1, 0)), (has & down & ~up & (my < 0.5), (-1, 0))]
    cand = np.logical_or.reduce([c for c, _ in sides])
    drop = np.zeros_like(walls)
    for c, (dr, dc) in sides:
        # The wall-side neighbour must stay wall.
        nb = np.pad(cand, 1)[1 + dr:1 + dr + walls.shape[0], 1 + dc:1 + dc + walls.shape[1]]
        drop |= c & ~nb
    return walls & ~drop


def lintels(h: NDArray[np.floating], flat: NDArray[np.integer], walls: NDArray[np.bool_],
            top: float, cfg: LayerConfig) -> NDArray[np.bool_]:
    """Cells under a door's lintel: points between ``lintel_min_m`` over the ground and the
    top of the wall band, none from ``obstacle_min_m`` up to ``lintel_clear_m`` (one walks
    under it), and not wall. All false when ``lintel_min_m`` is 0.

    A door is a gap in the wall below its head (ProcTHOR's are 2.1 m high under 2.5 m walls)
    and the lidar sees the wall above it; the watershed alone keeps a bathroom behind a 2 m
    double door in the bedroom (its saddle is as high as the bathroom's middle). For room
    segmentation only: the cells stay traversable. Pictures and TVs hung high make such cells
    too, against a wall, where they only thicken it.
    """
    out = np.zeros(walls.shape, dtype=bool)
    if cfg.lintel_min_m <= 0:
        return out
    n = walls.size
    high = (h >= cfg.lintel_min_m) & (h < top)
    low = (h > cfg.obstacle_min_m) & (h < cfg.lintel_clear_m)
    out = (np.bincount(flat[high], minlength=n) > 0) & ~(np.bincount(flat[low], minlength=n) > 0)
    return out.reshape(walls.shape) & ~walls


def segment_rooms(interior: NDArray[np.bool_], walls: NDArray[np.bool_], grid: GridSpec, *,
                  config: LayerConfig) -> tuple[NDArray[np.int32], tuple[Any, ...]]:
    """Room ids (``-1`` outside) and doors ``((room_a, room_b), segment)`` by watershed.

    The relief is the distance to the nearest wall (or the edge of the interior). Rooms are
    its maxima that stand at least ``room_split_m`` above the saddle joining them to a higher
    one (:func:`h_maxima`): a doorway is a saddle, half its width high, between two rooms whose
    centres are half their widths high, so doorways of any width separate rooms wider than the
    doorway by ``2 * room_split_m``; the ridge along one room's middle varies by a cell or two
    and never splits it. The markers are flooded in falling distance (:func:`flood`, a
    marker-controlled watershed), so rooms meet at the doorways' narrowest line. Rooms under ``min_room_m2``
    join the neighbour they share most border with.
    """

    free = interior & ~walls
    if not free.any():
        return np.full(interior.shape, -1, dtype=np.int32), ()
    dist = grid.cells_to_meters(ndimage.distance_transform_edt(free))
    markers, n = ndimage.label(h_maxima(dist, config.room_split_m) & free,
                               structure=np.ones((3, 3)))
    if n <= 1:
        return np.where(interior, 0, -1).astype(np.int32), ()
    labels = _absorb_small_rooms(flood(dist, markers, free),
                                 int(round(grid.square_meters_to_cells(config.min_room_m2))))
    _, inverse = np.unique(labels, return_inverse=True)
    room = inverse.reshape(labels.shape).astype(np.int32) - (1 if (labels == 0).any() else 0)
    room[~interior] = -1
    # Interior cells that ``walls`` blocks (lintels: ``interior`` is bounded by the real walls)
    # join the nearest room, so the rooms on both sides of a door meet at its line.
    gap = interior & (room < 0)
    if gap.any() and (room >= 0).any():
        _, (ri, ci) = ndimage.distance_transform_edt(room < 0, return_indices=True)
        room[gap] = room[ri[gap], ci[gap]]
    return room, room_doors(room, grid)


def room_doors(room: NDArray[np.integer], grid: GridSpec,
               split: Iterable[int] = ()) -> tuple[Any, ...]:
    """Doors ``((room_a, room_b), segment)``: the runs of room cells whose 3x3 neighbourhood
    holds two rooms (the watershed leaves no lines), at least 3 cells long; a run where three
    rooms meet is one door, of its most common pair, unless one of them is in ``split`` (a
    room split off an open space by :func:`split_open_plan`): such a run is cut into one
    door per room pair (the lowest and highest id in each cell's neighbourhood)."""

    grown = ndimage.grey_dilation(np.where(room >= 0, room + 1, 0), size=(3, 3))
    lo_nb = -ndimage.grey_dilation(np.where(room >= 0, -(room + 1), -(10**6)), size=(3, 3))
    line = room >= 0
    # Doors: free cells touching two rooms.
    pair = line & (grown > 0) & (lo_nb > 0) & (lo_nb < 10**6) & (grown != lo_nb)
    doors = []
    if not pair.any():
        return ()
    split_ids = np.asarray(sorted(set(split)), dtype=np.int64) + 1
    comp, k = ndimage.label(pair, structure=np.ones((3, 3)))
    runs: list[NDArray[np.bool_]] = []
    for j in range(1, k + 1):
        run = comp == j
        if split_ids.size and (np.isin(lo_nb[run], split_ids).any() or np.isin(grown[run], split_ids).any()):
            key = lo_nb[run].astype(np.int64) * (int(grown.max()) + 1) + grown[run]
            for kk in np.unique(key):
                part = np.zeros_like(run)
                part[run] = key == kk
                sub, m = ndimage.label(part, structure=np.ones((3, 3)))
                runs.extend(sub == i for i in range(1, m + 1))
        else:
            runs.append(run)
    for run in runs:
        rc = np.argwhere(run)
        if len(rc) < 3:
            continue
        a = int(np.bincount(lo_nb[run]).argmax()) - 1
        b = int(np.bincount(grown[run]).argmax()) - 1
        xy = grid.cells_to_worlds(rc)
        c = xy.mean(axis=0)
        _, _, vt = np.linalg.svd(xy - c, full_matrices=False)
        proj = (xy - c) @ vt[0]
        p0, p1 = c + vt[0] * proj.min(), c + vt[0] * proj.max()
        doors.append(((a, b), ((float(p0[0]), float(p0[1])), (float(p1[0]), float(p1[1])))))
    return tuple(doors)


def split_open_plan(room_ids: NDArray[np.integer],
                    objects: Iterable[tuple[str, tuple[float, float], int | None]],
                    grid: GridSpec, *, config: LayerConfig) -> NDArray[np.int32]:
    """Rooms split between two or more room types' evidence (open kitchen and living room).

    ``objects``: ``(category, centre, room id)``. A room whose objects give at least
    ``split_evidence`` (:data:`ROOM_EVIDENCE`) to each of two or more types is one open space
    holding two rooms with no wall between them. Its cells go to the type whose seeds (the
    room's objects of that type weighing at least ``split_seed_weight``) are geodesically
    nearest (a breadth-first flood from all seeds at once through the room), when the seeds of
    any two types stand ``split_gap_m`` apart or more (not mixed), every part is at least
    ``split_min_room_m2`` and the objects inside every part still type it as its seeds' type
    with ``split_evidence`` or more. Otherwise the room stays whole. The largest part keeps the
    room's id; the others take new ids after the highest one.
    """

    out = np.asarray(room_ids, dtype=np.int32).copy()
    if config.split_evidence <= 0:
        return out
    items = [(c, (float(x), float(y)), r) for c, (x, y), r in objects
             if c in ROOM_EVIDENCE and r is not None and r >= 0]
    min_cells = grid.square_meters_to_cells(config.split_min_room_m2)
    next_id = int(out.max()) + 1 if out.size else 0
    for rid in sorted({r for _, _, r in items}):
        inside = [(c, xy) for c, xy, r in items if r == rid]
        score: dict[RoomType, float] = {}
        for c, _ in inside:
            t, w = ROOM_EVIDENCE[c]
            score[t] = score.get(t, 0.0) + w
        types = sorted((t for t, v in score.items() if v >= config.split_evidence),
                       key=lambda t: -score[t])
        if len(types) < 2:
            continue
        mask = out == rid
        # Seeds: the nearest room cell to each heavy object's centre (a fridge's centre can
        # fall on the wall layer).
        _, (near_r, near_c) = ndimage.distance_transform_edt(~mask, return_indices=True)
        seeds: dict[RoomType, list[tuple[float, float]]] = {t: [] for t in types}
        markers = np.zeros(out.shape, dtype=np.int32)
        for c, (x, y) in inside:
            t, w = ROOM_EVIDENCE[c]
            if t not in seeds or w < config.split_seed_weight:
                continue
            r, cc = grid.world_to_cell(x, y)
            r, cc = min(max(r, 0), out.shape[0] - 1), min(max(cc, 0), out.shape[1] - 1)
            markers[near_r[r, cc], near_c[r, cc]] = types.index(t) + 1
            seeds[t].append((x, y))
        if any(not v for v in seeds.values()):
            continue
        gap = min(float(np.hypot(a[0] - b[0], a[1] - b[1]))
                  for i, t in enumerate(types) for u in types[i + 1:]
                  for a in seeds[t] for b in seeds[u])
        if gap < config.split_gap_m:
            continue
        parts = flood(np.zeros(out.shape), markers, mask)
        ok = True
        for k, t in enumerate(types, start=1):
            part = parts == k
            if part.sum() < min_cells:
                ok = False
                break
            own: dict[RoomType, float] = {}
            for c, (x, y) in inside:
                r, cc = grid.world_to_cell(x, y)
                r, cc = min(max(r, 0), out.shape[0] - 1), min(max(cc, 0), out.shape[1] - 1)
                if parts[near_r[r, cc], near_c[r, cc]] == k:
                    u, w = ROOM_EVIDENCE[c]
                    own[u] = own.get(u, 0.0) + w
            if own.get(t, 0.0) < config.split_evidence or max(own, key=lambda u: own[u]) != t:
                ok = False
                break
        if not ok:
            continue
        keep = max(range(1, len(types) + 1), key=lambda k: int((parts == k).sum()))
        for k in range(1, len(types) + 1):
            if k != keep:
                out[parts == k] = next_id
                next_id += 1
    return out


def room_types(categories_by_room: Mapping[int, Iterable[str]],
               overrides: Mapping[int, RoomType] | None = None,
               connections: Mapping[tuple[int, int], float] | None = None, *,
               open_m: float = float("inf"), weak: float = 0.0) -> dict[int, RoomType]:
    """Each room's type by the weighted evidence of its objects.

    A room whose evidence totals under ``weak`` and that opens wider than ``open_m`` (no
    doorway: the watershed split one room where it narrows) onto a room with more evidence
    takes that room's type (a dining corner of a living room, typed kitchen by its table).

    A room without evidence (no typing object) is most likely the part of a neighbour that
    the watershed cut off where the free space narrows: it takes the type of the adjacent
    typed room it shares the widest openings with (``connections``: total door width in
    metres per room pair), passed on room by room (widest connection first); a room with no
    typed room reachable is a living room. ``overrides`` (room id -> type) count as evidence
    and always win.
    """
    out: dict[int, RoomType] = {}
    rooms = list(categories_by_room)
    total: dict[int, float] = {}
    for rid, cats in categories_by_room.items():
        score: dict[RoomType, float] = {}
        for c in cats:
            if c in ROOM_EVIDENCE:
                t, w = ROOM_EVIDENCE[c]
                score[t] = score.get(t, 0.0) + w
        total[rid] = sum(score.values())
        if score:
            out[rid] = max(score, key=lambda t: score[t])
    width: dict[int, dict[int, float]] = {r: {} for r in rooms}
    for (a, b), w in (connections or {}).items():
        if a in width and b in width and a != b:
            width[a][b] = width[a].get(b, 0.0) + w
            width[b][a] = width[b].get(a, 0.0) + w
    evidence = dict(out)
    for rid in rooms:
        if rid in evidence and total[rid] < weak:
            wide = [nb for nb, w in width[rid].items()
                    if w > open_m and nb in evidence and total[nb] > total[rid]]
            if wide:
                out[rid] = evidence[max(wide, key=lambda nb: width[rid][nb])]
    out.update(overrides or {})
    while True:
        best: tuple[float, int, int] | None = None
        for rid in rooms:
            if rid in out:
                continue
            for nb, w in width[rid].items():
                if nb in out and (best is None or w > best[0]):
                    best = (w, rid, nb)
        if best is None:
            break
        out[best[1]] = out[best[2]]
    for rid in rooms:
        out.setdefault(rid, RoomType.LIVING_ROOM)
    return out


def h_maxima(f: NDArray[np.floating], h: float) -> NDArray[np.bool_]:
    """The regional maxima of ``f`` that stand at least ``h`` above the saddle joining them to
    a higher one: the tops of the h-domes ``f - R(f - h)``, ``R`` the reconstruction by
    dilation under ``f`` (iterated 3x3 dilation, clipped by ``f``, until stable)."""

    marker = f - h
    while True:
        grown = np.minimum(ndimage.grey_dilation(marker, size=(3, 3)), f)
        if np.array_equal(grown, marker):
            break
        marker = grown
    return np.asarray((f - marker) >= h - 1e-9)


def flood(height: NDArray[np.floating], markers: NDArray[np.integer],
          mask: NDArray[np.bool_]) -> NDArray[np.int32]:
    """Marker watershed: labels spread from ``markers`` over ``mask`` highest ``height`` first
    (ties in first-come order), so basins meet at the saddles (0 = unreached)."""


    rows, cols = height.shape
    labels = np.where(mask, markers, 0).astype(np.int32)
    # Start from the markers' rims: their cells with an unlabelled free neighbour.
    rim = (labels > 0) & ndimage.binary_dilation((labels == 0) & mask, structure=np.ones((3, 3)))
    heap: list[tuple[float, int, int, int]] = []
    order = 0
    for r, c in zip(*np.nonzero(rim), strict=True):
        heap.append((-float(height[r, c]), order, int(r), int(c)))
        order += 1
    heapq.heapify(heap)
    lab, hgt, free = labels, height, mask
    while heap:
        _, _, r, c = heapq.heappop(heap)
        here = lab[r, c]
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and free[rr, cc] and lab[rr, cc] == 0:
                lab[rr, cc] = here
                order += 1
                heapq.heappush(heap, (-float(hgt[rr, cc]), order, rr, cc))
    return labels


def _absorb_small_rooms(labels: NDArray[np.integer], min_cells: int) -> NDArray[np.integer]:
    """Merge each room smaller than ``min_cells`` into the neighbour sharing most border."""

    out = labels.copy()
    while True:
        ids, sizes = np.unique(out[out > 0], return_counts=True)
        if len(ids) <= 1:
            return out
        small = [(int(s), int(i)) for i, s in zip(ids, sizes, strict=True) if s < min_cells]
        if not small:
            return out
        _, rid = min(small)
        mask = out == rid
        ring = ndimage.binary_dilation(mask, structure=np.ones((3, 3))) & ~mask & (out > 0)
        if not ring.any():
            return out
        out[mask] = int(np.bincount(out[ring]).argmax())


def open_boundaries(room_ids: NDArray[np.integer], grid: GridSpec,
                    lintel: NDArray[np.bool_] | None, *, lintel_reach_m: float = 0.15
                    ) -> dict[tuple[int, int], float]:
    """Per room pair ``(a, b)``, ``a < b``: the length (m) of their common border that no
    lintel covers. Each pair of 4-neighbour cells of the two rooms is one cell of border; a
    pair within ``lintel_reach_m`` of a lintel cell is under a door head and left out."""
    ids = np.asarray(room_ids)
    closed = np.zeros(ids.shape, dtype=bool)
    if lintel is not None and lintel.any():
        reach = max(1, int(np.ceil(lintel_reach_m / grid.resolution)))
        closed = ndimage.binary_dilation(lintel, structure=np.ones((3, 3)), iterations=reach)
    out: dict[tuple[int, int], float] = {}
    for a, b, ca, cb in ((ids[:, :-1], ids[:, 1:], closed[:, :-1], closed[:, 1:]),
                         (ids[:-1, :], ids[1:, :], closed[:-1, :], closed[1:, :])):
        edge = (a != b) & (a >= 0) & (b >= 0) & ~ca & ~cb
        lo, hi = np.minimum(a[edge], b[edge]), np.maximum(a[edge], b[edge])
        if lo.size == 0:
            continue
        pairs, counts = np.unique(np.stack([lo, hi], axis=1), axis=0, return_counts=True)
        for (x, y), n in zip(pairs.tolist(), counts.tolist(), strict=True):
            out[(int(x), int(y))] = out.get((int(x), int(y)), 0.0) + n * grid.resolution
    return out


def merge_open_rooms(room_ids: NDArray[np.integer], types: Mapping[int, RoomType],
                     grid: GridSpec, lintel: NDArray[np.bool_] | None, *, open_m: float
                     ) -> tuple[NDArray[np.int32], dict[int, int]]:
    """Rooms of one type joined by an opening at least ``open_m`` wide with no lintel over it
    (:func:`open_boundaries`) merged into one, transitively; a merged room keeps the lowest
    id among its parts (ids stay those of the unmerged rooms, so ``--room-type ID=TYPE`` on a
    built map's id names the same room in a rebuild).

    The watershed cuts one room where its free space narrows (an L-shaped bedroom, a living
    room around a chimney breast); two real rooms meet at a door, whose head the lidar sees.
    Two rooms of one type joined by a wide wall opening without a head (ProcTHOR's
    ``opening``) are merged too: no sensor tells them apart from one room.

    Returns:
        ``(new room ids, old id -> new id)``; unchanged when ``open_m <= 0``.
    """
    ids = np.asarray(room_ids, dtype=np.int32)
    old = sorted(int(r) for r in np.unique(ids) if r >= 0)
    parent = {r: r for r in old}

    def root(r: int) -> int:
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    if open_m > 0:
        for (a, b), width in sorted(open_boundaries(ids, grid, lintel).items()):
            if width >= open_m and a in types and b in types and types[a] == types[b]:
                ra, rb = root(a), root(b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
    mapping = {r: root(r) for r in old}
    out = np.full(ids.shape, -1, dtype=np.int32)
    for r, n in mapping.items():
        out[ids == r] = n
    return out, mapping
