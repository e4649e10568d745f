"""Instances -> map objects: oriented footprints (L-shape fitting), heights, rooms, parents."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from map2route.semantic_map.model import ObjectInstance

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.mapping.fusion import Instance
    from map2route.mapping.layers import Layers


def oriented_rectangle(xy: NDArray[np.floating], *, step_deg: float = 1.0, floor_m: float = 0.01
                       ) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The oriented rectangle around ``(N, 2)`` points whose sides the points hug most.

    The lidar sees the faces of an object that turn towards the robot: often two faces, an L.
    The minimum-area rectangle of an L is ambiguous (the box and the rectangle on the L's
    diagonal have the same area), so the orientation is chosen by closeness instead (L-shape
    fitting): for each heading in ``[0, 90)`` deg, every point scores ``1 / max(d, floor_m)``
    with ``d`` its distance to the nearest side of the bounding rectangle at that heading; the
    best heading's bounding rectangle is returned as ``cv2.minAreaRect`` does:
    ``((cx, cy), (w, h), angle_deg)``.
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
    lo1, hi1, lo2, hi2 = c1[k].min(), c1[k].max(), c2[k].min(), c2[k].max()
    centre = mean + e1[k] * (lo1 + hi1) / 2 + e2[k] * (lo2 + hi2) / 2
    return ((float(centre[0]), float(centre[1])), (float(hi1 - lo1), float(hi2 - lo2)),
            float(np.rad2deg(theta[k])))


def objects_from_instances(instances: list[Instance], layers: Layers, *,
                           voxel_m: float) -> list[ObjectInstance]:
    """One :class:`ObjectInstance` per instance, ids ``<category>_<k>``.

    The footprint is :func:`oriented_rectangle` of the instance's voxel centres grown by half
    a voxel (counter-clockwise); heights are relative to the ground; an object whose centre
    lies on the footprint of a lower one, starting near that one's top, gets it as parent.
    """
    import cv2

    grid = layers.grid
    boxes = []
    for inst in instances:
        pts = inst.points(voxel_m)
        (cx, cy), (w, h), angle = oriented_rectangle(pts[:, :2])
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
        rid = int(layers.room_ids[row, col])
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
