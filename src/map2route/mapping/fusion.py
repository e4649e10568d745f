"""Detections + lidar points -> 3D object instances (SysNav's fusion facts, implemented anew).

Per panorama:

1. Project the accumulated cloud near the robot into the panorama
   (:meth:`~map2route.mapping.camera.EquirectCamera.project`).
2. Occlusion: a per-pixel minimum-depth buffer (at most ``depth_buffer_width`` pixels wide),
   widened by a 7x7 minimum filter; a point is visible when its depth is within 0.15 m of the
   buffer at its pixel.
3. Each mask takes its visible points; sorted by depth, they are cut at the first gap wider
   than 0.3 m (what lies behind that jump is background seen past the object's edge).
4. The points become 0.03 m voxels: one observation of one category (from ``min_points``
   points; a small category's from ``repeated_min_points``, :func:`small_categories`).

Over time (:class:`InstanceMap`): an observation joins an instance of the same category when
the centroids are closer than ``max(0.25 m, half the mean half-extent)``, or the 3D IoU of
their axis-aligned boxes is above 0.2, or the containment (overlap / smaller volume) is above
0.4; instances that come to satisfy the same test are merged. Two detections of one
panorama are two objects: they never join one instance, and the instances they went to are
never merged afterwards (chairs 0.55 m apart around a table, which one view with both in a
mask made overlap). Two pieces seen only from opposite sides, each in front of the other
by more than their category is thick, are two objects on the two faces of something
(paintings back to back on one wall; :func:`opposite_faces`, ``opposite_views_apart``) and
are kept apart the same way. Each voxel keeps its evidence
(:class:`Instance`): hits from observations, misses from panoramas in which the instance was
detected and the voxel was visible outside the mask; boxes, centroids and footprints use the
voxels with more hits than misses. Instances seen fewer than
``min_observations`` times are dropped once unseen for ``prune_after_s``. At the end, stray
floor-plane clusters seen about once are trimmed (:func:`trim_outliers`), and an instance
whose voxels mostly lie on (next to) those of a much more often seen one of another category
is dropped (a mislabelled view of the same thing; :func:`voxel_share_near` - an object on a
shelf or a painting above a bed lies inside the other's box but on none of its voxels). With ``split_gap_m`` > 0 (off by default: it cuts
tables seen between their chairs into pieces), an instance whose voxels form floor-plane
clusters that far apart is split first (:func:`split_instance`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from map2route.mapping.instances import (
    Instance,
    kept,
    merge_fragments,
    opposite_faces,
    should_merge,
    small_categories,
    split_by_walls,
    split_instance,
    trim_outliers,
    view_direction,
    voxel_share_near,
)
from map2route.mapping.objects import size_prior
from map2route.mapping.voxels import decode, encode

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.mapping.camera import EquirectCamera, Pose
    from map2route.mapping.detectors import Detection
    from map2route.semantic_map.grid import GridSpec


@dataclass(frozen=True)
class FusionConfig:
    """Fusion parameters (``config/mapping.yaml``, section ``fusion``)."""

    max_range_m: float
    min_filter_px: int
    depth_buffer_width: int
    occlusion_tolerance_m: float
    depth_jump_m: float
    min_front_fraction: float
    mask_erode_deg: float
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
    split_gap_m: float
    same_view_overlap: float
    min_mask_keep: float
    completion_quantile: float
    completion_below: float
    outlier_gap_m: float
    outlier_hit_share: float
    outlier_mean_hits: float
    fragment_touch_voxels: int
    fragment_size_quantile: float
    suppress_by_voxels: bool
    opposite_views_apart: bool
    repeated_min_points: int
    repeated_min_observations: int
    repeated_min_voxels: int
    repeated_max_size_m: float
    box_snap_deg: float
    wall_split: bool


def depth_buffer(camera: EquirectCamera, pose: Pose, points: NDArray[np.floating], *,
                 config: FusionConfig) -> tuple[NDArray[np.int64], NDArray[np.int64],
                                                NDArray[np.int64], NDArray[np.float64],
                                                NDArray[np.float32]]:
    """Indices, pixel rows, columns and depths of the projected points, and the filtered buffer.

    The buffer is the per-pixel minimum depth widened by the ``min_filter_px`` minimum filter
    (``inf`` where no point fell near).
    """

    rows, cols = camera.shape
    u, v, d = camera.project(points, pose)
    ui = np.floor(u).astype(np.int64) % cols
    vi = np.floor(v).astype(np.int64)
    ok = (vi >= 0) & (vi < rows) & (d > 0.05) & (d <= config.max_range_m)
    idx = np.flatnonzero(ok)
    ui, vi, d = ui[ok], vi[ok], d[ok]
    # The buffer is at most depth_buffer_width wide: with one point per 3 cm voxel, a
    # 1920-wide panorama leaves holes between the points of surfaces nearer than ~2.5 m that a
    # 7x7 filter does not close, and the background shows through them into the masks.
    f = max(1, int(round(cols / max(config.depth_buffer_width, 1))))
    b_rows, b_cols = -(-rows // f), -(-cols // f)
    zbuf = np.full((b_rows, b_cols), np.inf, dtype=np.float32)
    np.minimum.at(zbuf, (vi // f, ui // f), d.astype(np.float32))
    k = config.min_filter_px
    # A minimum filter is a grey erosion; wrap the seam so the buffer is continuous at +-180 deg.
    pad = k // 2
    wrapped = np.concatenate([zbuf[:, -pad:], zbuf, zbuf[:, :pad]], axis=1)
    zmin = cv2.erode(wrapped, np.ones((k, k), np.uint8), borderType=cv2.BORDER_REPLICATE)
    zmin = zmin[:, pad: pad + b_cols]
    if f > 1:
        zmin = np.repeat(np.repeat(zmin, f, axis=0), f, axis=1)[:rows, :cols]
    return idx.astype(np.int64), vi, ui, d, np.asarray(zmin, dtype=np.float32)


def visible_points(camera: EquirectCamera, pose: Pose, points: NDArray[np.floating], *,
                   config: FusionConfig) -> tuple[NDArray[np.int64], NDArray[np.int64],
                                                  NDArray[np.int64], NDArray[np.float64]]:
    """Indices, pixel rows, pixel columns and depths of the points the camera sees.

    Raises nothing: an empty cloud gives empty arrays.
    """
    idx, vi, ui, d, zmin = depth_buffer(camera, pose, points, config=config)
    vis = d <= zmin[vi, ui] + config.occlusion_tolerance_m
    return idx[vis], vi[vis], ui[vis], d[vis]


def rim_px(config: FusionConfig, width: int) -> int:
    """The mask rim in pixels: ``mask_erode_deg`` on a ``width``-pixel panorama (>= 1 when the
    angle is > 0). An angle, not a pixel count, so a 1920-wide panorama drops the same rim as
    a 960-wide one: lidar points on an occluder's edge (a door jamb in front of the bed seen
    through the door) project just inside the mask's rim."""
    if config.mask_erode_deg <= 0:
        return 0
    return max(1, int(round(config.mask_erode_deg * width / 360.0)))


def erode_mask(mask: NDArray[np.bool_], px: int, *, keep: float = 0.0) -> NDArray[np.bool_]:
    """``mask`` eroded by ``px`` pixels, or by fewer when that would leave less than ``keep``
    of its pixels (a bottle 7 px wide at 960 keeps 3 px after a 2 px rim: too few points to
    build it from; thin objects keep a thinner rim instead)."""

    rr, cc = np.nonzero(mask)
    if len(rr) == 0 or px <= 0:
        return mask
    r0, r1 = max(0, rr.min() - 1), rr.max() + 2
    c0, c1 = max(0, cc.min() - 1), cc.max() + 2
    crop = mask[r0:r1, c0:c1].astype(np.uint8)
    for e in range(px, 0, -1):
        small = cv2.erode(crop, np.ones((2 * e + 1,) * 2, np.uint8))
        if e == 1 or small.sum() >= keep * len(rr):
            break
    out = np.zeros_like(mask, dtype=bool)
    out[r0:r1, c0:c1] = small.astype(bool)
    return out


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
    """One detection lifted to 3D: its category, score, voxel keys, time and mask."""

    label: str
    score: float
    keys: NDArray[np.int64]
    t: float
    mask: NDArray[np.bool_] | None = field(default=None, repr=False)
    viewpoint: NDArray[np.float64] | None = field(default=None, repr=False)


@dataclass
class View:
    """What one panorama saw: the camera, its pose and the filtered depth buffer."""

    camera: EquirectCamera
    pose: Pose
    zmin: NDArray[np.float32] = field(repr=False)

    def visible_pixels(self, pts: NDArray[np.floating], config: FusionConfig
                       ) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.int64]]:
        """Which ``pts`` the camera sees (in the crop, in range, not behind the buffer)
        and their pixel rows and columns (clipped into the image)."""
        rows, cols = self.zmin.shape
        u, v, d = self.camera.project(np.asarray(pts, dtype=np.float64), self.pose)
        ui = np.floor(u).astype(np.int64) % cols
        vi = np.floor(v).astype(np.int64)
        inside = (vi >= 0) & (vi < rows) & (d > 0.05) & (d <= config.max_range_m)
        vi = np.clip(vi, 0, rows - 1)
        z = self.zmin[vi, ui]
        vis = inside & np.isfinite(z) & (d <= z + config.occlusion_tolerance_m)
        return vis, vi, ui


def observe(camera: EquirectCamera, pose: Pose, points: NDArray[np.floating],
            detections: list[Detection], t: float, *, ground_z: float,
            config: FusionConfig) -> list[Observation]:
    """Lift ``detections`` on one panorama to 3D voxel observations (steps 1-4 above)."""
    return observe_view(camera, pose, points, detections, t, ground_z=ground_z,
                        config=config)[0]


def observe_view(camera: EquirectCamera, pose: Pose, points: NDArray[np.floating],
                 detections: list[Detection], t: float, *, ground_z: float,
                 config: FusionConfig, small: frozenset[str] = frozenset()
                 ) -> tuple[list[Observation], View | None]:
    """:func:`observe`, and the :class:`View` the evidence of :meth:`InstanceMap.add_frame`
    needs (``None`` when nothing was projected). A detection of a ``small`` category
    (:func:`small_categories`) is lifted from ``repeated_min_points`` points on."""
    if not detections or len(points) == 0:
        return [], None
    idx, vi, ui, d, zmin = depth_buffer(camera, pose, points, config=config)
    vis = d <= zmin[vi, ui] + config.occlusion_tolerance_m
    idx, vi, ui, d = idx[vis], vi[vis], ui[vis], d[vis]
    if idx.size == 0:
        return [], None
    view = View(camera=camera, pose=pose, zmin=zmin)
    rows, cols = camera.shape
    # Paint masks in ascending score, so where masks overlap the best one owns the pixel.
    owner = np.full((rows, cols), -1, dtype=np.int32)
    order = sorted(range(len(detections)), key=lambda i: detections[i].score)
    erode = rim_px(config, cols)
    for i in order:
        mask = detections[i].mask
        if erode:
            # Voxel centres sit up to half a voxel off the surface: keep off the mask's rim.
            mask = erode_mask(mask, erode, keep=config.min_mask_keep)
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
        det = detections[int(i)]
        need = (min(config.min_points, config.repeated_min_points)
                if config.repeated_min_points > 0 and det.label in small else config.min_points)
        if len(chosen) < need:
            continue
        keys = np.unique(encode(chosen, config.voxel_m))
        out.append(Observation(label=det.label, score=det.score, keys=keys, t=t, mask=det.mask,
                               viewpoint=np.asarray(pose.position, dtype=np.float64)))
    return out, view


class InstanceMap:
    """Instances associated over time from :class:`Observation` s."""

    def __init__(self, config: FusionConfig) -> None:
        self.config = config
        self.instances: dict[int, Instance] = {}
        self._next = 0
        # uid -> uids seen as separate detections in one panorama: never merged.
        self.apart: dict[int, set[int]] = {}
        # category -> its thickest typical footprint side (opposite_views_apart).
        self._thickness: dict[str, float] = {}
        if config.opposite_views_apart:

            self._thickness = {c: short + config.voxel_m for c, (_, short)
                               in size_prior(config.fragment_size_quantile).items()}

    def _keep_apart(self, a: int, b: int) -> None:
        self.apart.setdefault(a, set()).add(b)
        self.apart.setdefault(b, set()).add(a)

    def _opposite(self, label: str, ca: NDArray[np.floating], view_a: NDArray[np.floating],
                  n_a: int, other: Instance) -> bool:
        thick = self._thickness.get(label)
        return thick is not None and opposite_faces(ca, view_a, n_a, other.centroid,
                                                    other.view_sum, other.n_obs, thick)

    def add_frame(self, observations: list[Observation], view: View | None) -> list[Instance]:
        """Associate one panorama's observations, record the misses of its view, then merge.

        Instances are merged only after the misses are in, so one view that let the next
        object into a mask does not join the two for good. Two detections of one panorama
        are two objects: they never join one instance, and the instances they went to are
        kept apart for good (:attr:`apart`) unless their voxels overlap by more than
        ``same_view_overlap`` of the smaller set (then they are one object detected twice).
        """
        touched: list[tuple[Instance, Observation]] = []
        claimed: set[int] = set()
        for obs in observations:
            inst = self.add(obs, merge=False, exclude=claimed)
            claimed.add(inst.uid)
            touched.append((inst, obs))
        for a in range(len(touched)):
            for b in range(a + 1, len(touched)):
                (ia, oa), (ib, ob) = touched[a], touched[b]
                if ia.uid == ib.uid or oa.label != ob.label:
                    continue
                shared = len(np.intersect1d(oa.keys, ob.keys, assume_unique=True))
                if shared <= self.config.same_view_overlap * min(len(oa.keys), len(ob.keys)):
                    self._keep_apart(ia.uid, ib.uid)
        if view is not None:
            self._record_misses(touched, view)
        for inst, _ in touched:
            if inst.uid in self.instances:
                self._merge_into(inst)
        return [inst for inst, _ in touched]

    def _record_misses(self, touched: list[tuple[Instance, Observation]], view: View) -> None:

        grow = np.ones((2 * rim_px(self.config, view.zmin.shape[1]) + 1,) * 2, np.uint8)
        masks: dict[int, NDArray[np.bool_]] = {}
        for inst, obs in touched:
            if obs.mask is None or inst.uid not in self.instances:
                continue
            # An instance may take two detections of one panorama: its mask is their union.
            mask = cv2.dilate(obs.mask.astype(np.uint8), grow).astype(bool)
            masks[inst.uid] = masks[inst.uid] | mask if inst.uid in masks else mask
        for uid, mask in masks.items():
            inst = self.instances[uid]
            pts = decode(inst.voxel_keys, self.config.voxel_m)
            vis, vi, ui = view.visible_pixels(pts, self.config)
            inst.misses = inst.misses + (vis & ~mask[vi, ui])
            inst.refresh(self.config.voxel_m)

    def add(self, obs: Observation, *, merge: bool = True,
            exclude: set[int] | None = None) -> Instance:
        """Associate one observation: merge into a matching instance or start a new one
        (then, with ``merge``, merge the instances that now pass the merge test).
        Instances in ``exclude`` (taken by another detection of the same panorama) are
        not candidates."""
        cfg = self.config
        pts = decode(obs.keys, cfg.voxel_m)
        lo, hi = pts.min(axis=0) - cfg.voxel_m / 2, pts.max(axis=0) + cfg.voxel_m / 2
        c = pts.mean(axis=0)
        view = (view_direction(c, obs.viewpoint) if obs.viewpoint is not None
                else np.zeros(2))
        best: Instance | None = None
        best_d = np.inf
        faced: list[int] = []
        for inst in self.instances.values():
            if obs.label not in inst.votes or (exclude and inst.uid in exclude):
                continue
            if should_merge(c, lo, hi, inst.centroid, inst.lo, inst.hi, cfg):
                if self._opposite(obs.label, c, view, 1, inst):
                    faced.append(inst.uid)
                    continue
                dist = float(np.linalg.norm(c - inst.centroid))
                if dist < best_d:
                    best, best_d = inst, dist
        if best is None:
            best = Instance(uid=self._next, votes=Counter(), n_obs=0, first_seen=obs.t,
                            last_seen=obs.t)
            self._next += 1
            self.instances[best.uid] = best
        for uid in faced:
            self._keep_apart(best.uid, uid)
        best.add_keys(obs.keys)
        best.view_sum = best.view_sum + view
        best.votes[obs.label] += 1
        best.n_obs += 1
        best.last_seen = obs.t
        best.refresh(cfg.voxel_m)
        if merge:
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
                if other.uid in self.apart.get(inst.uid, ()):
                    continue
                if self._opposite(inst.label, inst.centroid, inst.view_sum, inst.n_obs, other):
                    self._keep_apart(inst.uid, other.uid)
                    continue
                if should_merge(inst.centroid, inst.lo, inst.hi, other.centroid, other.lo,
                                other.hi, cfg):
                    inst.absorb(other)
                    del self.instances[other.uid]
                    self._relink(other.uid, inst.uid)
                    inst.refresh(cfg.voxel_m)
                    merged = True

    def _relink(self, gone: int, into: int) -> None:
        """``gone`` was absorbed by ``into``: ``into`` inherits its keep-apart links."""
        for uid in self.apart.pop(gone, set()):
            peers = self.apart.get(uid)
            if peers is not None:
                peers.discard(gone)
                if uid != into:
                    peers.add(into)
                    self.apart.setdefault(into, set()).add(uid)

    def prune(self, now: float) -> None:
        """Drop rarely seen instances that have not been seen for ``prune_after_s``."""
        cfg = self.config
        for uid, inst in list(self.instances.items()):
            if inst.n_obs < cfg.min_observations and now - inst.last_seen > cfg.prune_after_s:
                del self.instances[uid]
                for peer in self.apart.pop(uid, set()):
                    self.apart.get(peer, set()).discard(uid)

    def final(self, walls: tuple[NDArray[np.bool_], GridSpec] | None = None) -> list[Instance]:
        """The instances worth reporting: seen often enough, big enough, not shadows of others.

        With ``walls`` (the wall layer and its grid) an instance's voxels behind a wall from
        its body are cut off (:func:`split_by_walls`)."""
        cfg = self.config
        parts = [trim_outliers(p, cfg) for i in self.instances.values()
                 for p in split_instance(i, cfg)]
        parts = merge_fragments(parts, cfg, self.apart)
        if walls is not None and cfg.wall_split:
            parts = [q for p in parts for q in split_by_walls(p, walls[0], walls[1], cfg)]
        small = small_categories(cfg)
        keep = [i for i in parts if kept(i.n_obs, len(i.keys), cfg, small=i.label in small)]
        keep.sort(key=lambda i: -i.n_obs)
        out: list[Instance] = []
        for inst in keep:
            shadow = False
            for big in out:
                if big.n_obs >= cfg.suppress_ratio * inst.n_obs:
                    if cfg.suppress_by_voxels:
                        inside = voxel_share_near(inst.keys, big.voxel_keys, cfg.voxel_m)
                    else:
                        inter = np.clip(np.minimum(inst.hi, big.hi) - np.maximum(inst.lo, big.lo),
                                        0.0, None).prod()
                        inside = float(inter / max(np.prod(inst.hi - inst.lo), 1e-9))
                    if inside > cfg.suppress_containment:
                        shadow = True
                        break
            if not shadow:
                out.append(inst)
        return out


