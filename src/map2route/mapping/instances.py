"""3D object instances and their clean-up: evidence per voxel, merge tests, trimming, splitting.

:class:`Instance` is what :class:`~map2route.mapping.fusion.InstanceMap` accumulates over
time; the functions after it decide which instances are one object (:func:`should_merge`,
:func:`opposite_faces`, :func:`merge_fragments`) and what of each is kept at the end
(:func:`trim_outliers`, :func:`split_instance`, :func:`split_by_walls`, :func:`kept`). The
fusion pipeline itself is described in :mod:`map2route.mapping.fusion`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from map2route.mapping.objects import oriented_rectangle, size_prior
from map2route.mapping.voxels import decode

if TYPE_CHECKING:
    from numpy.typing import NDArray

    # a typing-only edge: fusion imports this module at run time
    from map2route.mapping.fusion import FusionConfig
    from map2route.semantic_map.grid import GridSpec


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


def small_categories(config: FusionConfig) -> frozenset[str]:
    """The categories whose ``fragment_size_quantile`` long side (:func:`~map2route.mapping.
    objects.size_prior`) is at most ``repeated_max_size_m``: the lidar hits them with a few
    points per view (a wine bottle, a desk lamp). Empty when ``repeated_min_points`` is 0 or
    there is no prior (no ``procthor`` package)."""
    if config.repeated_min_points <= 0:
        return frozenset()

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
