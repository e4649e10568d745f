"""Detections + lidar points -> 3D object instances (SysNav's fusion facts, implemented anew).

Per panorama:

1. Project the accumulated cloud near the robot into the panorama
   (:meth:`~map2route.mapping.camera.EquirectCamera.project`).
2. Occlusion: a per-pixel minimum-depth buffer, widened by a 7x7 minimum filter; a point is
   visible when its depth is within 0.15 m of the buffer at its pixel.
3. Each mask takes its visible points; sorted by depth, they are cut at the first gap wider
   than 0.3 m (what lies behind that jump is background seen past the object's edge).
4. The points become 0.03 m voxels: one observation of one category.

Over time (:class:`InstanceMap`): an observation joins an instance of the same category when
the centroids are closer than ``max(0.25 m, half the mean half-extent)``, or the 3D IoU of
their axis-aligned boxes is above 0.2, or the containment (overlap / smaller volume) is above
0.4; instances that come to satisfy the same test are merged. Instances seen fewer than
``min_observations`` times are dropped once unseen for ``prune_after_s``; at the end, an
instance mostly inside a much more often seen one of another category is dropped too (a
mislabelled view of the same thing).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from map2route.mapping.voxels import decode, encode

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.mapping.camera import EquirectCamera, Pose
    from map2route.mapping.detectors import Detection


@dataclass(frozen=True)
class FusionConfig:
    """Fusion parameters (``config/mapping.yaml``, section ``fusion``)."""

    max_range_m: float
    min_filter_px: int
    occlusion_tolerance_m: float
    depth_jump_m: float
    min_front_fraction: float
    mask_erode_px: int
    voxel_m: float
    min_height_above_ground_m: float
    min_points: int
    merge_distance_m: float
    merge_iou: float
    merge_containment: float
    min_observations: int
    min_voxels: int
    prune_after_s: float
    suppress_containment: float
    suppress_ratio: float


def visible_points(camera: EquirectCamera, pose: Pose, points: NDArray[np.floating], *,
                   config: FusionConfig) -> tuple[NDArray[np.int64], NDArray[np.int64],
                                                  NDArray[np.int64], NDArray[np.float64]]:
    """Indices, pixel rows, pixel columns and depths of the points the camera sees.

    Raises nothing: an empty cloud gives empty arrays.
    """
    import cv2

    rows, cols = camera.shape
    u, v, d = camera.project(points, pose)
    ui = np.floor(u).astype(np.int64) % cols
    vi = np.floor(v).astype(np.int64)
    ok = (vi >= 0) & (vi < rows) & (d > 0.05) & (d <= config.max_range_m)
    idx = np.flatnonzero(ok)
    ui, vi, d = ui[ok], vi[ok], d[ok]
    zbuf = np.full((rows, cols), np.inf, dtype=np.float32)
    np.minimum.at(zbuf, (vi, ui), d.astype(np.float32))
    k = config.min_filter_px
    # A minimum filter is a grey erosion; wrap the seam so the buffer is continuous at +-180 deg.
    pad = k // 2
    wrapped = np.concatenate([zbuf[:, -pad:], zbuf, zbuf[:, :pad]], axis=1)
    zmin = cv2.erode(wrapped, np.ones((k, k), np.uint8), borderType=cv2.BORDER_REPLICATE)
    zmin = zmin[:, pad: pad + cols]
    vis = d <= zmin[vi, ui] + config.occlusion_tolerance_m
    return idx[vis], vi[vis], ui[vis], d[vis]


def cut_at_depth_jump(depths: NDArray[np.floating], jump_m: float, *,
                      min_fraction: float = 0.0) -> NDArray[np.bool_]:
    """Keep the points in front of the first gap wider than ``jump_m`` in sorted depth.

    Depth clusters in front holding less than ``min_fraction`` of the points are skipped first
    (a door jamb or a chair leg crossing the mask's rim), so the cut keeps the object itself.
    """
    if depths.size == 0:
        return np.zeros(0, dtype=bool)
    order = np.argsort(depths)
    bounds = np.concatenate([[0], np.flatnonzero(np.diff(depths[order]) > jump_m) + 1,
                             [depths.size]])
    keep = np.zeros(depths.size, dtype=bool)
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        if b - a >= min_fraction * depths.size:
            keep[order[a:b]] = True
            break
    return keep


@dataclass
class Observation:
    """One detection lifted to 3D: its category, score, voxel keys and time."""

    label: str
    score: float
    keys: NDArray[np.int64]
    t: float


def observe(camera: EquirectCamera, pose: Pose, points: NDArray[np.floating],
            detections: list[Detection], t: float, *, ground_z: float,
            config: FusionConfig) -> list[Observation]:
    """Lift ``detections`` on one panorama to 3D voxel observations (steps 1-4 above)."""
    if not detections or len(points) == 0:
        return []
    idx, vi, ui, d = visible_points(camera, pose, points, config=config)
    if idx.size == 0:
        return []
    rows, cols = camera.shape
    # Paint masks in ascending score, so where masks overlap the best one owns the pixel.
    import cv2

    owner = np.full((rows, cols), -1, dtype=np.int32)
    order = sorted(range(len(detections)), key=lambda i: detections[i].score)
    kernel = np.ones((2 * config.mask_erode_px + 1,) * 2, np.uint8)
    for i in order:
        mask = detections[i].mask
        if config.mask_erode_px:
            # Voxel centres sit up to half a voxel off the surface: keep off the mask's rim.
            mask = cv2.erode(mask.astype(np.uint8), kernel).astype(bool)
        owner[mask] = i
    det_of_point = owner[vi, ui]
    pts = np.asarray(points)[idx]
    above = pts[:, 2] > ground_z + config.min_height_above_ground_m
    out: list[Observation] = []
    sel_all = det_of_point >= 0
    for i in np.unique(det_of_point[sel_all & above]):
        sel = np.flatnonzero((det_of_point == i) & above)
        keep = cut_at_depth_jump(d[sel], config.depth_jump_m,
                                 min_fraction=config.min_front_fraction)
        chosen = pts[sel[keep]]
        if len(chosen) < config.min_points:
            continue
        keys = np.unique(encode(chosen, config.voxel_m))
        det = detections[int(i)]
        out.append(Observation(label=det.label, score=det.score, keys=keys, t=t))
    return out


@dataclass
class Instance:
    """A 3D object instance built from observations."""

    uid: int
    keys: set[int]
    votes: Counter[str]
    n_obs: int
    first_seen: float
    last_seen: float
    lo: NDArray[np.float64] = field(default_factory=lambda: np.zeros(3))
    hi: NDArray[np.float64] = field(default_factory=lambda: np.zeros(3))
    centroid: NDArray[np.float64] = field(default_factory=lambda: np.zeros(3))

    @property
    def label(self) -> str:
        """The category most observations gave."""
        return self.votes.most_common(1)[0][0]

    def refresh(self, voxel_m: float) -> None:
        pts = decode(np.fromiter(self.keys, dtype=np.int64, count=len(self.keys)), voxel_m)
        self.lo, self.hi = pts.min(axis=0) - voxel_m / 2, pts.max(axis=0) + voxel_m / 2
        self.centroid = pts.mean(axis=0)

    def points(self, voxel_m: float) -> NDArray[np.float64]:
        return decode(np.fromiter(self.keys, dtype=np.int64, count=len(self.keys)), voxel_m)


def box_overlap(lo_a: NDArray[np.floating], hi_a: NDArray[np.floating],
                lo_b: NDArray[np.floating], hi_b: NDArray[np.floating]) -> tuple[float, float]:
    """3D IoU and containment (overlap / smaller volume) of two axis-aligned boxes."""
    inter = np.clip(np.minimum(hi_a, hi_b) - np.maximum(lo_a, lo_b), 0.0, None).prod()
    va, vb = float(np.prod(hi_a - lo_a)), float(np.prod(hi_b - lo_b))
    union = va + vb - inter
    iou = float(inter / union) if union > 0 else 0.0
    small = min(va, vb)
    return iou, (float(inter / small) if small > 0 else 0.0)


def should_merge(ca: NDArray[np.floating], lo_a: NDArray[np.floating], hi_a: NDArray[np.floating],
                 cb: NDArray[np.floating], lo_b: NDArray[np.floating], hi_b: NDArray[np.floating],
                 config: FusionConfig) -> bool:
    """SysNav's same-class merge test (see the module docstring)."""
    half_extent = 0.25 * (float(np.mean(hi_a - lo_a)) + float(np.mean(hi_b - lo_b)))
    if float(np.linalg.norm(ca - cb)) < max(config.merge_distance_m, 0.5 * half_extent):
        return True
    iou, contain = box_overlap(lo_a, hi_a, lo_b, hi_b)
    return iou > config.merge_iou or contain > config.merge_containment


class InstanceMap:
    """Instances associated over time from :class:`Observation` s."""

    def __init__(self, config: FusionConfig) -> None:
        self.config = config
        self.instances: dict[int, Instance] = {}
        self._next = 0

    def add(self, obs: Observation) -> Instance:
        """Associate one observation: merge into a matching instance or start a new one."""
        cfg = self.config
        pts = decode(obs.keys, cfg.voxel_m)
        lo, hi = pts.min(axis=0) - cfg.voxel_m / 2, pts.max(axis=0) + cfg.voxel_m / 2
        c = pts.mean(axis=0)
        best: Instance | None = None
        best_d = np.inf
        for inst in self.instances.values():
            if obs.label not in inst.votes:
                continue
            if should_merge(c, lo, hi, inst.centroid, inst.lo, inst.hi, cfg):
                dist = float(np.linalg.norm(c - inst.centroid))
                if dist < best_d:
                    best, best_d = inst, dist
        if best is None:
            best = Instance(uid=self._next, keys=set(obs.keys.tolist()), votes=Counter(),
                            n_obs=0, first_seen=obs.t, last_seen=obs.t)
            self._next += 1
            self.instances[best.uid] = best
        else:
            best.keys.update(obs.keys.tolist())
        best.votes[obs.label] += 1
        best.n_obs += 1
        best.last_seen = obs.t
        best.refresh(cfg.voxel_m)
        self._merge_into(best)
        return best

    def _merge_into(self, inst: Instance) -> None:
        cfg = self.config
        merged = True
        while merged:
            merged = False
            for other in list(self.instances.values()):
                if other.uid == inst.uid or other.label != inst.label:
                    continue
                if should_merge(inst.centroid, inst.lo, inst.hi, other.centroid, other.lo,
                                other.hi, cfg):
                    inst.keys |= other.keys
                    inst.votes.update(other.votes)
                    inst.n_obs += other.n_obs
                    inst.first_seen = min(inst.first_seen, other.first_seen)
                    del self.instances[other.uid]
                    inst.refresh(cfg.voxel_m)
                    merged = True

    def prune(self, now: float) -> None:
        """Drop rarely seen instances that have not been seen for ``prune_after_s``."""
        cfg = self.config
        for uid, inst in list(self.instances.items()):
            if inst.n_obs < cfg.min_observations and now - inst.last_seen > cfg.prune_after_s:
                del self.instances[uid]

    def final(self) -> list[Instance]:
        """The instances worth reporting: seen often enough, big enough, not shadows of others."""
        cfg = self.config
        keep = [i for i in self.instances.values()
                if i.n_obs >= cfg.min_observations and len(i.keys) >= cfg.min_voxels]
        keep.sort(key=lambda i: -i.n_obs)
        out: list[Instance] = []
        for inst in keep:
            shadow = False
            for big in out:
                if big.n_obs >= cfg.suppress_ratio * inst.n_obs:
                    _, contain = box_overlap(inst.lo, inst.hi, big.lo, big.hi)
                    inter = np.clip(np.minimum(inst.hi, big.hi) - np.maximum(inst.lo, big.lo),
                                    0.0, None).prod()
                    inside = float(inter / max(np.prod(inst.hi - inst.lo), 1e-9))
                    if inside > cfg.suppress_containment:
                        shadow = True
                        break
            if not shadow:
                out.append(inst)
        return out
