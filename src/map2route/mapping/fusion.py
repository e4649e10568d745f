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

import numpy as np

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
    import cv2

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
    import cv2

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


@dataclass
class Instance:
    """A 3D object instance built from observations.

    Every voxel keeps its evidence: ``hits`` counts the observations that brought it,
    ``misses`` the panoramas in which the instance was detected and the voxel was visible but
    fell outside the detection's mask. Only voxels with more hits than misses belong to the
    object (:attr:`keys`): background that slipped into a mask once (a wall behind a plant,
    the next chair) is seen beside the object from other viewpoints and drops out.
    """

    uid: int
    votes: Counter[str]
    n_obs: int
    first_seen: float
    last_seen: float
    voxel_keys: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    hits: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    misses: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    lo: NDArray[np.float64] = field(default_factory=lambda: np.zeros(3))
    hi: NDArray[np.float64] = field(default_factory=lambda: np.zeros(3))
    centroid: NDArray[np.float64] = field(default_factory=lambda: np.zeros(3))
    #: Sum over observations of the horizontal unit vector from the object to the viewpoint.
    view_sum: NDArray[np.float64] = field(default_factory=lambda: np.zeros(2))

    @property
    def label(self) -> str:
        """The category most observations gave."""
        return self.votes.most_common(1)[0][0]

    @property
    def keys(self) -> NDArray[np.int64]:
        """The voxels that belong to the object: more hits than misses."""
        return self.voxel_keys[self.hits > self.misses]

    def _accumulate(self, keys: NDArray[np.int64], hits: NDArray[np.int64],
                    misses: NDArray[np.int64]) -> None:
        allk = np.concatenate([self.voxel_keys, keys])
        uniq, inv = np.unique(allk, return_inverse=True)
        n = len(uniq)
        self.hits = np.bincount(inv, weights=np.concatenate([self.hits, hits]),
                                minlength=n).astype(np.int64)
        self.misses = np.bincount(inv, weights=np.concatenate([self.misses, misses]),
                                  minlength=n).astype(np.int64)
        self.voxel_keys = uniq

    def add_keys(self, keys: NDArray[np.int64]) -> None:
        """One more observation of ``keys`` (unique)."""
        self._accumulate(keys, np.ones(len(keys), np.int64), np.zeros(len(keys), np.int64))

    def absorb(self, other: Instance) -> None:
        """Take ``other``'s voxels, evidence, votes and observation count."""
        self._accumulate(other.voxel_keys, other.hits, other.misses)
        self.view_sum = self.view_sum + other.view_sum
        self.votes.update(other.votes)
        self.n_obs += other.n_obs
        self.first_seen = min(self.first_seen, other.first_seen)
        self.last_seen = max(self.last_seen, other.last_seen)

    def subset(self, sel: NDArray[np.bool_], voxel_m: float, *, uid: int | None = None
               ) -> Instance:
        """A new instance of the voxels ``sel`` selects (copies), with this one's votes,
        observation count and times, its box refreshed; ``uid`` defaults to this one's."""
        part = Instance(uid=self.uid if uid is None else uid, votes=Counter(self.votes),
                        n_obs=self.n_obs, first_seen=self.first_seen, last_seen=self.last_seen,
                        voxel_keys=self.voxel_keys[sel], hits=self.hits[sel],
                        misses=self.misses[sel])
        part.refresh(voxel_m)
        return part

    def _key_array(self) -> NDArray[np.int64]:
        keys = self.keys
        return keys if len(keys) else self.voxel_keys

    def refresh(self, voxel_m: float) -> None:
        pts = decode(self._key_array(), voxel_m)
        self.lo, self.hi = pts.min(axis=0) - voxel_m / 2, pts.max(axis=0) + voxel_m / 2
        self.centroid = pts.mean(axis=0)

    def points(self, voxel_m: float) -> NDArray[np.float64]:
        """Centres of the object's voxels (all voxels when none has the majority yet)."""
        return decode(self._key_array(), voxel_m)


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


def view_direction(centroid: NDArray[np.floating], viewpoint: NDArray[np.floating]
                   ) -> NDArray[np.float64]:
    """Horizontal unit vector from an object's centroid to the viewpoint (zero when above it)."""
    d = np.asarray(viewpoint[:2], dtype=np.float64) - np.asarray(centroid[:2], dtype=np.float64)
    n = float(np.linalg.norm(d))
    return d / n if n > 1e-9 else np.zeros(2)


#: Share of an instance's views that must agree on a side (|mean view direction|).
VIEW_SIDE_CONSISTENCY = 0.5


def opposite_faces(ca: NDArray[np.floating], view_a: NDArray[np.floating], n_a: int,
                   cb: NDArray[np.floating], view_b: NDArray[np.floating], n_b: int,
                   thickness_m: float) -> bool:
    """Two same-class pieces are two objects on the two faces of something between them
    (two paintings back to back on one wall): each was seen from one side only
    (:data:`VIEW_SIDE_CONSISTENCY`), from opposite sides, and each lies on its own viewers'
    side of the other by more than ``thickness_m`` (the class's thickest typical object):
    one object seen from front and back has its two faces at most that far apart.

    Args:
        ca, cb: centroids; view_a, view_b: sums of their horizontal view directions
            (:func:`view_direction`) over ``n_a`` / ``n_b`` observations.
    """
    if n_a <= 0 or n_b <= 0:
        return False
    ma, mb = np.asarray(view_a) / n_a, np.asarray(view_b) / n_b
    la, lb = float(np.linalg.norm(ma)), float(np.linalg.norm(mb))
    if la < VIEW_SIDE_CONSISTENCY or lb < VIEW_SIDE_CONSISTENCY:
        return False
    ua, ub = ma / la, mb / lb
    if float(ua @ ub) > -VIEW_SIDE_CONSISTENCY:
        return False
    gap = np.asarray(ca[:2], dtype=np.float64) - np.asarray(cb[:2], dtype=np.float64)
    return float(gap @ ua) > thickness_m and float(-gap @ ub) > thickness_m


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
            from map2route.mapping.objects import size_prior

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
        import cv2

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


def small_categories(config: FusionConfig) -> frozenset[str]:
    """The categories whose ``fragment_size_quantile`` long side (:func:`~map2route.mapping.
    objects.size_prior`) is at most ``repeated_max_size_m``: the lidar hits them with a few
    points per view (a wine bottle, a desk lamp). Empty when ``repeated_min_points`` is 0 or
    there is no prior (no ``procthor`` package)."""
    if config.repeated_min_points <= 0:
        return frozenset()
    from map2route.mapping.objects import size_prior

    return frozenset(c for c, (long, _) in size_prior(config.fragment_size_quantile).items()
                     if long <= config.repeated_max_size_m)


def kept(n_obs: int, voxels: int, config: FusionConfig, *, small: bool = False) -> bool:
    """Whether an instance seen ``n_obs`` times with ``voxels`` voxels is reported: seen
    ``min_observations`` times with ``min_voxels`` voxels, or - an object of a ``small``
    category (its ``fragment_size_quantile`` long side at most ``repeated_max_size_m``),
    which the lidar hits with a few points per view - seen ``repeated_min_observations``
    times with ``repeated_min_voxels`` voxels (``repeated_min_points`` > 0: on)."""
    if n_obs >= config.min_observations and voxels >= config.min_voxels:
        return True
    return (small and config.repeated_min_points > 0
            and n_obs >= config.repeated_min_observations
            and voxels >= config.repeated_min_voxels)


def _near_mask(a: NDArray[np.int64], b: NDArray[np.int64], voxel_m: float) -> NDArray[np.bool_]:
    """Per voxel of ``a``: whether it or one of its 26 neighbours is a voxel of ``b``."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros(len(a), dtype=bool)
    from scipy.spatial import cKDTree

    pa, pb = decode(a, voxel_m), decode(b, voxel_m)
    lo, hi = pa.min(axis=0) - 2 * voxel_m, pa.max(axis=0) + 2 * voxel_m
    pb = pb[np.all((pb >= lo) & (pb <= hi), axis=1)]
    if len(pb) == 0:
        return np.zeros(len(a), dtype=bool)
    d, _ = cKDTree(pb).query(pa, distance_upper_bound=1.8 * voxel_m)
    return np.isfinite(d)


def _touching(a: NDArray[np.int64], b: NDArray[np.int64], voxel_m: float) -> int:
    """How many voxels of ``a`` lie on or next to (26-neighbourhood) a voxel of ``b``."""
    return int(np.sum(_near_mask(a, b, voxel_m)))


def merge_fragments(insts: list[Instance], config: FusionConfig,
                    apart: dict[int, set[int]] | None = None) -> list[Instance]:
    """Join same-category instances that are pieces of one object: their voxels touch (at
    least ``fragment_touch_voxels`` of the smaller next to the other's) and together they
    are no larger than the category's ``fragment_size_quantile`` size (:func:`~map2route.
    mapping.objects.size_prior`, plus 0.1 m). A dining table seen from its four sides
    between its chairs is four strips (the lidar below its top sees only the apron), no two
    of which pass the association test; two beds side by side are larger than any bed and
    stay two, and instances kept apart (:attr:`InstanceMap.apart`) are never joined. Returns
    new instances for the joined ones (the inputs are not changed); no size prior (no
    ``procthor`` package) or ``fragment_touch_voxels`` 0: ``insts`` as they are."""
    from map2route.mapping.objects import oriented_rectangle, size_prior

    if config.fragment_touch_voxels <= 0 or len(insts) < 2:
        return insts
    prior = size_prior(config.fragment_size_quantile)
    if not prior:
        return insts
    links = {uid: set(peers) for uid, peers in (apart or {}).items()}
    out: list[Instance] = []
    for inst in sorted(insts, key=lambda i: -i.n_obs):
        cur = inst
        changed = True
        while changed:
            changed = False
            for k, big in enumerate(out):
                if big.label != cur.label or big.label not in prior:
                    continue
                if cur.uid in links.get(big.uid, set()) or big.uid in links.get(cur.uid, set()):
                    continue
                small = cur if len(cur.keys) <= len(big.keys) else big
                other = big if small is cur else cur
                if _touching(small.keys, other.keys, config.voxel_m) < config.fragment_touch_voxels:
                    continue
                xy = np.concatenate([cur.points(config.voxel_m), big.points(config.voxel_m)])[:, :2]
                _, (w, h), _ = oriented_rectangle(xy)
                long_m, short_m = prior[big.label]
                if max(w, h) > long_m + 0.1 or min(w, h) > short_m + 0.1:
                    continue
                joined = big.subset(np.ones(len(big.voxel_keys), dtype=bool), config.voxel_m)
                joined.absorb(cur)
                joined.refresh(config.voxel_m)
                links[big.uid] = links.get(big.uid, set()) | links.get(cur.uid, set())
                for peers in links.values():
                    if cur.uid in peers:
                        peers.add(big.uid)
                out.pop(k)
                cur = joined
                changed = True
                break
        out.append(cur)
    return out


def voxel_share_near(keys: NDArray[np.int64], other: NDArray[np.int64], voxel_m: float) -> float:
    """The share of ``keys`` whose voxel or one of its 26 neighbours is in ``other``.

    A mislabelled view of an object brings that object's own lidar points, so its voxels are
    (next to) the object's; an object on a shelf or a painting above a bed lies inside the
    other's box but shares none of its voxels."""
    near = _near_mask(keys, other, voxel_m)
    return float(np.mean(near)) if len(near) else 0.0


def trim_outliers(inst: Instance, config: FusionConfig) -> Instance:
    """``inst`` without floor-plane clusters (voxels linked within ``outlier_gap_m``) that hold
    less than ``outlier_hit_share`` of its hits and were seen about once (fewer than
    ``outlier_mean_hits`` hits per voxel): background seen once through a doorway or along a
    wall (a dresser's box reached 1.7 m past the wall behind it; a stool's, 0.9 m along the
    wall base). The clusters an object is really seen as (a table's pieces between its
    chairs, 4 % of the hits but 5 per voxel) stay. ``inst`` itself when nothing is dropped."""
    keys = inst.keys
    if config.outlier_hit_share <= 0 or len(keys) < 2:
        return inst
    sel_keys = inst.hits > inst.misses
    hits = inst.hits[sel_keys].astype(np.float64)
    labels = floor_components(keys, config.voxel_m, config.outlier_gap_m)
    cluster_hits = np.bincount(labels, weights=hits)
    share = cluster_hits / max(float(hits.sum()), 1e-9)
    mean_hits = cluster_hits / np.bincount(labels)
    weak = np.flatnonzero((share < config.outlier_hit_share)
                          & (mean_hits < config.outlier_mean_hits))
    if len(weak) == 0 or len(weak) == len(share):
        return inst
    drop = np.isin(inst.voxel_keys, keys[np.isin(labels, weak)])
    return inst.subset(~drop, config.voxel_m)


def floor_components(keys: NDArray[np.int64], voxel_m: float, gap_m: float) -> NDArray[np.int64]:
    """Component label of each voxel in ``keys`` when voxels whose floor-plane (x, y) centres
    are within ``gap_m`` are linked (heights are ignored: a table's top joins its legs)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components
    from scipy.spatial import cKDTree

    xy = decode(keys, voxel_m)[:, :2]
    if len(xy) == 0:
        return np.zeros(0, np.int64)
    cells, inv = np.unique(np.round(xy / voxel_m).astype(np.int64), axis=0, return_inverse=True)
    pairs = cKDTree(cells.astype(np.float64) * voxel_m).query_pairs(gap_m, output_type="ndarray")
    n = len(cells)
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    return np.asarray(labels, np.int64)[np.asarray(inv).reshape(-1)]


def split_by_walls(inst: Instance, walls: NDArray[np.bool_], grid: GridSpec,
                   config: FusionConfig) -> list[Instance]:
    """``inst`` without the voxels that lie behind a wall seen from its body.

    A mask near a doorway or a wall end takes points of the next room (a plant in the corner
    beside a door reached 0.2 m past the wall; a desk's box took 0.6 m^2 of the room behind).
    The body is the hit-weighted median of the voxels' floor cells; a voxel is behind a wall
    when the straight line from the body to it crosses a wall cell before its own cell. An
    instance whose body lies on or within two cells of a wall cell (a painting, a TV) is
    left whole. Doors are gaps in the
    wall layer, so what stands in a doorway stays whole too. The voxels cut off are dropped,
    not made an object of their own: kept as one from ``min_voxels`` they were mostly not
    objects (procthor_00085 precision 0.936 -> 0.844, procthor_00219 0.962 -> 0.881).
    """
    keys = inst.voxel_keys
    if len(keys) < 2:
        return [inst]
    xy = decode(keys, config.voxel_m)[:, :2]
    rc = grid.worlds_to_cells(xy)
    rows, cols = walls.shape
    ok = (rc[:, 0] >= 0) & (rc[:, 0] < rows) & (rc[:, 1] >= 0) & (rc[:, 1] < cols)
    w = np.maximum(inst.hits, 1).astype(np.float64)

    def wmedian(v: NDArray[np.float64]) -> float:
        order = np.argsort(v)
        cum = np.cumsum(w[order])
        return float(v[order][np.searchsorted(cum, cum[-1] / 2)])

    body = grid.worlds_to_cells(np.array([[wmedian(xy[:, 0]), wmedian(xy[:, 1])]]))[0]
    if not (0 <= body[0] < rows and 0 <= body[1] < cols):
        return [inst]
    # On or against a wall (within two cells: a painting, a TV): the lines to its voxels run
    # along the wall face and touch its cells; with walls at their true 0.1 m the body is off
    # the wall cells, and such lines cut procthor_00201's TV down to a sliver.
    r0, c0 = max(0, body[0] - 2), max(0, body[1] - 2)
    if walls[r0:body[0] + 3, c0:body[1] + 3].any():
        return [inst]
    d = rc - body
    steps = int(np.abs(d).max())
    if steps < 2:
        return [inst]
    # Cells along each line, body excluded, the voxel's own cell excluded (a voxel on a wall
    # face sits in a wall cell).
    n = np.maximum(np.abs(d).max(axis=1), 1)
    t = np.arange(1, steps)[None, :] / n[:, None]
    inside = t < 1.0
    lr = np.rint(body[0] + d[:, :1] * t).astype(np.int64)
    lc = np.rint(body[1] + d[:, 1:] * t).astype(np.int64)
    lr, lc = np.clip(lr, 0, rows - 1), np.clip(lc, 0, cols - 1)
    behind = (walls[lr, lc] & inside).any(axis=1) & ok
    if not behind.any():
        return [inst]
    return [inst.subset(~behind, config.voxel_m)]


def split_instance(inst: Instance, config: FusionConfig) -> list[Instance]:
    """``inst``, or its parts when its voxels form floor-plane clusters farther apart than
    ``split_gap_m`` that each hold at least ``min_voxels`` voxels (neighbours of one class,
    chairs around a table, that a view with both in one mask joined). Each part keeps the
    instance's votes and observation count; smaller clusters stay with the largest part."""
    keys = inst.keys
    if config.split_gap_m <= 0 or len(keys) < 2 * config.min_voxels:
        return [inst]
    labels = floor_components(keys, config.voxel_m, config.split_gap_m)
    sizes = np.bincount(labels)
    big = np.flatnonzero(sizes >= config.min_voxels)
    if len(big) < 2:
        return [inst]
    main = int(big[np.argmax(sizes[big])])
    out: list[Instance] = []
    for lab in big:
        own = keys[(labels == lab) | ((int(lab) == main) & ~np.isin(labels, big))]
        sel = np.isin(inst.voxel_keys, own)
        out.append(inst.subset(sel, config.voxel_m,
                               uid=inst.uid if int(lab) == main else -1 - len(out)))
    return out
