"""Instances -> map objects: oriented footprints (L-shape fitting), heights, rooms, parents.

Footprint completion (:func:`complete_footprint`): an object seen from one side keeps only
its visible faces; when a side of its box is clearly shorter than its category's typical
size (:func:`size_prior`, from the ProcTHOR asset database), the box grows to that size away
from the robot's viewpoints, never across a wall or the robot's own path.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from scipy import ndimage

from map2route.scenes.assets import asset_database
from map2route.scenes.errors import SceneError
from map2route.semantic_map.categories import to_category
from map2route.semantic_map.model import ObjectInstance

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.mapping.instances import Instance
    from map2route.mapping.layers import Layers


def wall_axis_deg(walls: NDArray[np.bool_], *, min_edges: int = 20) -> float | None:
    """The building's main axis in ``[0, 90)`` degrees (world frame), or None without walls.

    Rooms are mostly rectangles whose walls run along two perpendicular directions, so the
    orientations of the wall layer's edges, taken modulo 90 deg and weighted by gradient
    strength, pile up at one angle. The peak of their histogram (1 deg bins, smoothed over
    +-2 deg) is refined by the weighted circular mean of the angles within 3 deg of it.
    """

    img = walls.astype(np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)  # along columns: world x
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)  # along rows: world y
    mag = np.hypot(gx, gy)
    on = mag > 1e-6
    if int(on.sum()) < min_edges:
        return None
    ang = np.mod(np.degrees(np.arctan2(gy[on], gx[on])), 90.0)
    w = mag[on]
    hist = np.bincount(np.floor(ang).astype(int) % 90, weights=w, minlength=90)
    smooth = sum(np.roll(hist, k) for k in range(-2, 3))
    peak = float(np.argmax(smooth)) + 0.5
    d = (ang - peak + 45.0) % 90.0 - 45.0
    near = np.abs(d) <= 3.0
    return float((peak + np.average(d[near], weights=w[near])) % 90.0) if near.any() else peak


def _rectangle_at(pts: NDArray[np.float64], theta: float
                  ) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The bounding rectangle of ``pts`` with its first side at heading ``theta`` (rad)."""
    e1 = np.array([np.cos(theta), np.sin(theta)])
    e2 = np.array([-np.sin(theta), np.cos(theta)])
    c1, c2 = pts @ e1, pts @ e2
    lo1, hi1, lo2, hi2 = c1.min(), c1.max(), c2.min(), c2.max()
    centre = e1 * (lo1 + hi1) / 2 + e2 * (lo2 + hi2) / 2
    return ((float(centre[0]), float(centre[1])), (float(hi1 - lo1), float(hi2 - lo2)),
            float(np.rad2deg(theta)))


def oriented_rectangle(xy: NDArray[np.floating], *, step_deg: float = 1.0, floor_m: float = 0.01,
                       axis_deg: float | None = None, snap_deg: float = 0.0
                       ) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The oriented rectangle around ``(N, 2)`` points whose sides the points hug most.

    The lidar sees the faces of an object that turn towards the robot: often two faces, an L.
    The minimum-area rectangle of an L is ambiguous (the box and the rectangle on the L's
    diagonal have the same area), so the orientation is chosen by closeness instead (L-shape
    fitting): for each heading in ``[0, 90)`` deg, every point scores ``1 / max(d, floor_m)``
    with ``d`` its distance to the nearest side of the bounding rectangle at that heading; the
    best heading's bounding rectangle is returned as ``cv2.minAreaRect`` does:
    ``((cx, cy), (w, h), angle_deg)``.

    With ``axis_deg`` (the walls' direction, :func:`wall_axis_deg`) a best heading within
    ``snap_deg`` of it (modulo 90 deg) is replaced by it: furniture stands square to the walls
    (93 % of the objects in ten ProcTHOR test scenes to within 1 deg), and the faces of a
    partly seen object fix its heading only to a few degrees.
    """
    pts = np.asarray(xy, dtype=np.float64)
    mean = pts.mean(axis=0)
    rel = pts - mean
    theta = np.deg2rad(np.arange(0.0, 90.0, step_deg))
    e1 = np.stack([np.cos(theta), np.sin(theta)], axis=1)
    e2 = np.stack([-np.sin(theta), np.cos(theta)], axis=1)
    c1, c2 = e1 @ rel.T, e2 @ rel.T
    d1 = np.minimum(c1.max(axis=1, keepdims=True) - c1, c1 - c1.min(axis=1, keepdims=True))
    d2 = np.minimum(c2.max(axis=1, keepdims=True) - c2, c2 - c2.min(axis=1, keepdims=True))
    score = (1.0 / np.maximum(np.minimum(d1, d2), floor_m)).sum(axis=1)
    k = int(np.argmax(score))
    best = float(theta[k])
    if axis_deg is not None and snap_deg > 0:
        off = (np.rad2deg(best) - axis_deg + 45.0) % 90.0 - 45.0
        if abs(off) <= snap_deg:
            best = float(np.deg2rad(axis_deg % 90.0))
    (cx, cy), size, angle = _rectangle_at(rel, best)
    return (float(mean[0] + cx), float(mean[1] + cy)), size, angle


@lru_cache(maxsize=4)
def size_prior(quantile: float) -> dict[str, tuple[float, float]]:
    """Typical footprint ``(long, short)`` side per category: the ``quantile`` of the sides of
    the ProcTHOR assets of that category (``procthor`` package's database, categories by
    :func:`map2route.semantic_map.categories.to_category`); empty without the package."""

    try:
        assets = asset_database()
    except SceneError:
        return {}
    sides: dict[str, list[tuple[float, float]]] = {}
    for a in assets.values():
        sides.setdefault(to_category(a.object_type), []).append(
            (max(a.size_x, a.size_z), min(a.size_x, a.size_z)))
    return {c: (float(np.quantile([v[0] for v in vs], quantile)),
                float(np.quantile([v[1] for v in vs], quantile))) for c, vs in sides.items()}


def complete_footprint(centre: tuple[float, float], size: tuple[float, float], angle_deg: float,
                       typical: tuple[float, float], *, viewpoints: NDArray[np.floating],
                       blocked: NDArray[np.bool_], grid: Any, below: float,
                       both_sides: float = 0.2) -> tuple[tuple[float, float], tuple[float, float]]:
    """Grow an oriented box seen from one side towards its category's typical size.

    ``size`` is ``(w, h)`` along the heading ``angle_deg`` and across it; ``typical`` is
    ``(long, short)``. A side shorter than ``below`` times its typical length grows towards
    the typical length, one grid cell at a time, and an end stops before a ``blocked`` cell
    (a wall, or free space the robot drove through: observed, so not the object). A
    viewpoint (``(N, 2)``, robot positions that could see the object) faces an end of the
    side when it lies beyond it within 45 deg of its normal. A side whose two ends were each
    faced by at least ``both_sides`` of the viewpoints was seen whole and does not grow; one
    whose one end was faced grows at the other end (away from the robot); one seen only
    edge-on grows at both ends. Returns the new ``(centre, size)``.
    """
    c = np.asarray(centre, dtype=np.float64)
    a = np.deg2rad(angle_deg)
    axes = [np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])]
    half = [size[0] / 2, size[1] / 2]
    lo, hi = [-half[0], -half[1]], [half[0], half[1]]
    long_first = size[0] >= size[1]
    target = (typical[0], typical[1]) if long_first else (typical[1], typical[0])
    vp = np.asarray(viewpoints, dtype=np.float64).reshape(-1, 2)
    res = float(grid.resolution)
    for k in (0, 1):
        if size[k] >= below * target[k] or len(vp) == 0:
            continue
        other = 1 - k
        along, lateral = (vp - c) @ axes[k], np.abs((vp - c) @ axes[other])
        # A viewpoint faces the end of this side it is beyond, within 45 deg of its normal.
        reach = lateral - (hi[other] - lo[other]) / 2
        n_lo = float(np.mean((along < lo[k]) & (lo[k] - along >= reach)))
        n_hi = float(np.mean((along > hi[k]) & (along - hi[k] >= reach)))
        if n_lo >= both_sides and n_hi >= both_sides:
            continue
        if max(n_lo, n_hi) >= both_sides:
            active = [1.0 if n_lo > n_hi else -1.0]
        else:  # neither end faced: the side was seen edge-on; grow both ends
            active = [1.0, -1.0]
        # The strip the end sweeps, less a cell at each corner (a wall the box's corner
        # touches does not stop it).
        trim = res if hi[other] - lo[other] > 3 * res else 0.0
        across = np.arange(lo[other] + trim, hi[other] - trim + res / 4, res / 2)
        need = target[k] - (hi[k] - lo[k])
        grown = 0.0
        while active and grown + res <= need + 1e-9:
            sign = active[0]
            face = (hi[k] if sign > 0 else -lo[k]) + res
            pts = c + np.outer(np.full(len(across), sign * face), axes[k]) + np.outer(across, axes[other])
            cells = grid.worlds_to_cells(pts)
            inside = (cells[:, 0] >= 0) & (cells[:, 0] < blocked.shape[0]) & \
                (cells[:, 1] >= 0) & (cells[:, 1] < blocked.shape[1])
            if not inside.all() or blocked[cells[:, 0], cells[:, 1]].any():
                active.pop(0)
                continue
            if sign > 0:
                hi[k] += res
            else:
                lo[k] -= res
            grown += res
            active = active[1:] + active[:1]
    shift = axes[0] * (lo[0] + hi[0]) / 2 + axes[1] * (lo[1] + hi[1]) / 2
    new_c = c + shift
    return (float(new_c[0]), float(new_c[1])), (float(hi[0] - lo[0]), float(hi[1] - lo[1]))


def nearest_room(room_ids: NDArray[np.integer], row: int, col: int, *, max_cells: int) -> int:
    """The room of cell ``(row, col)``, or, when it has none (a fridge or a TV against a
    wall: its centre falls on the wall layer), the room of the nearest room cell within
    ``max_cells``; -1 when there is none."""
    rid = int(room_ids[row, col])
    if rid >= 0 or max_cells <= 0:
        return rid
    r0, c0 = max(0, row - max_cells), max(0, col - max_cells)
    win = room_ids[r0: row + max_cells + 1, c0: col + max_cells + 1]
    rr, cc = np.nonzero(win >= 0)
    if len(rr) == 0:
        return -1
    d2 = (rr + r0 - row) ** 2 + (cc + c0 - col) ** 2
    k = int(np.argmin(d2))
    if d2[k] > max_cells**2:
        return -1
    return int(win[rr[k], cc[k]])


def _line_of_sight(origins: NDArray[np.floating], target: NDArray[np.floating],
                   walls: NDArray[np.bool_], grid: Any) -> NDArray[np.bool_]:
    """Which ``origins`` see ``target`` without a wall cell between (the last 0.05 m excluded).

    The lines are sampled every half cell: a fixed 24 samples (0.35 m apart on an 8 m line)
    stepped over a 0.1 m wall, and viewpoints in the next room counted as seeing an object's
    back (its footprint then did not grow: procthor_00201's dresser and toilet, once the
    walls were thinned to their true 0.1 m).
    """
    d = target - origins
    length = np.linalg.norm(d, axis=1)
    keep = np.maximum(length - 0.05, 0.0) / np.maximum(length, 1e-9)
    samples = max(2, int(np.ceil(2 * grid.meters_to_cells(float(length.max(initial=0.0))))) + 1)
    w = np.linspace(0.0, 1.0, samples)[None, :, None] * keep[:, None, None]
    pts = origins[:, None, :] + w * d[:, None, :]
    cells = grid.worlds_to_cells(pts.reshape(-1, 2)).reshape(len(origins), samples, 2)
    r = np.clip(cells[..., 0], 0, walls.shape[0] - 1)
    col = np.clip(cells[..., 1], 0, walls.shape[1] - 1)
    return ~walls[r, col].any(axis=1)


def objects_from_instances(instances: list[Instance], layers: Layers, *,
                           voxel_m: float, trajectory_xy: NDArray[np.floating] | None = None,
                           max_range_m: float = 8.0, completion_quantile: float = 0.0,
                           completion_below: float = 0.0, snap_deg: float = 0.0
                           ) -> list[ObjectInstance]:
    """One :class:`ObjectInstance` per instance, ids ``<category>_<k>``.

    The footprint is :func:`oriented_rectangle` of the instance's voxel centres grown by half
    a voxel (counter-clockwise); heights are relative to the ground; an object whose centre
    lies on the footprint of a lower one, starting near that one's top, gets it as parent.
    With ``trajectory_xy`` and ``completion_below`` > 0, footprints seen from one side are
    completed (:func:`complete_footprint`) to the ``completion_quantile`` of their
    category's sizes (:func:`size_prior`). With ``snap_deg`` > 0 a heading within that of
    the walls' direction (:func:`wall_axis_deg`) is squared to the walls.
    """

    grid = layers.grid
    prior = size_prior(completion_quantile) if completion_below > 0 and trajectory_xy is not None \
        else {}
    vp_all = np.zeros((0, 2))
    blocked = layers.walls
    if prior and trajectory_xy is not None and len(trajectory_xy):
        traj = np.asarray(trajectory_xy, dtype=np.float64).reshape(-1, 2)
        step = max(1, len(traj) // 400)
        vp_all = traj[::step]
        driven = np.zeros(grid.shape, dtype=bool)
        rc = grid.worlds_to_cells(traj)
        ok = grid.contains_cells(rc)
        driven[rc[ok, 0], rc[ok, 1]] = True
        # The robot's body (0.2 m radius) was there: observed free space.
        radius = max(1, int(round(grid.meters_to_cells(0.2))))
        yy, xx = np.mgrid[-radius:radius + 1, -radius:radius + 1]
        blocked = layers.walls | ndimage.binary_dilation(driven, structure=yy**2 + xx**2 <= radius**2)
    axis = wall_axis_deg(layers.walls) if snap_deg > 0 else None
    boxes = []
    for inst in instances:
        pts = inst.points(voxel_m)
        (cx, cy), (w, h), angle = oriented_rectangle(pts[:, :2], axis_deg=axis, snap_deg=snap_deg)
        if inst.label in prior and len(vp_all):
            near = np.sum((vp_all - (cx, cy)) ** 2, axis=1) < max_range_m**2
            vp = vp_all[near]
            vp = vp[_line_of_sight(vp, np.array([cx, cy]), layers.walls, grid)] if len(vp) else vp
            (cx, cy), (w, h) = complete_footprint((cx, cy), (w, h), angle, prior[inst.label],
                                                  viewpoints=vp, blocked=blocked, grid=grid,
                                                  below=completion_below)
        corners = cv2.boxPoints(((cx, cy), (w + voxel_m, h + voxel_m), angle)).astype(np.float64)
        signed = np.sum(corners[:, 0] * np.roll(corners[:, 1], -1) - np.roll(corners[:, 0], -1) * corners[:, 1])
        if signed < 0:
            corners = corners[::-1]
        z0 = float(pts[:, 2].min() - voxel_m / 2 - layers.ground_z)
        z1 = float(pts[:, 2].max() + voxel_m / 2 - layers.ground_z)
        boxes.append((inst, (float(cx), float(cy)), corners, max(z0, 0.0), z1))
    counts: dict[str, int] = {}
    ids: list[str] = []
    for inst, *_ in boxes:
        k = counts.get(inst.label, 0)
        counts[inst.label] = k + 1
        ids.append(f"{inst.label}_{k}")
    out = []
    for i, (_inst, (cx, cy), corners, z0, z1) in enumerate(boxes):
        row, col = grid.world_to_cell(cx, cy)
        if not grid.contains_cell(row, col):
            continue
        rid = nearest_room(layers.room_ids, row, col, max_cells=int(round(grid.meters_to_cells(0.5))))
        parent = None
        for j, (_o, _c, corners_j, z0_j, z1_j) in enumerate(boxes):
            if j != i and z0 > z0_j + 0.05 and abs(z0 - z1_j) < 0.15 and \
                    cv2.pointPolygonTest(corners_j.astype(np.float32), (cx, cy), False) >= 0:
                parent = ids[j]
                break
        out.append(ObjectInstance(id=ids[i], category=boxes[i][0].label,
                                  room_id=rid if rid >= 0 else None,
                                  footprint=tuple((float(x), float(y)) for x, y in corners),
                                  center=(cx, cy), z_min=round(z0, 3), z_max=round(z1, 3),
                                  parent_id=parent))
    known = {o.id for o in out}
    return [o if o.parent_id in known or o.parent_id is None else
            ObjectInstance(**{**o.__dict__, "parent_id": None}) for o in out]
