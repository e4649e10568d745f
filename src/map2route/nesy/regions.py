"""Regions of a land-cover mask (NeSy-Route section 3.3.2-3.3.3 and Eq. 5, 6, 8).

- Selective morphological filtering: connected components smaller than ``min_area`` pixels are
  filled with the majority class of the ring around them, except the functionally narrow classes
  Road, Water and Building, which are kept whatever their size.
- Regions are 4-connected components of one class; the largest region of each class is its
  *primary* region; its *probe* is the region eroded (Eq. 5, 3x3 neighbourhood, repeated up to
  ``probe_erosions`` times while something is left) so the numbered area shows one pure class.
  The probe's anchor is its point farthest from the region border (maximum inscribed disc).
- The region adjacency graph joins regions that share a 4-neighbour pixel border; masking it by
  ``V_trav`` (Eq. 6) keeps regions of traversable classes only. A start/end pair is valid when
  both primary regions lie in one connected component of the masked graph.
- Complexity score (Eq. 8): ``D = l1 H_inter + l2 H_intra + l3 H_count + l4 C_topo``. The
  paper gives no weights; we use equal weights 0.25 each (a parameter).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from map2route.nesy.kb import NUM_CLASSES

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Label ids kept by the selective filter whatever their size: Road, Water, Building.
NARROW_IDS = frozenset({4, 6, 8})
DEFAULT_MIN_AREA = 64
DEFAULT_PROBE_EROSIONS = 12
#: Equal weights for Eq. 8 (the paper does not give lambda_1..4).
EQUAL_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)


def selective_filter(labels: NDArray[np.uint8], *, min_area: int = DEFAULT_MIN_AREA,
                     keep: frozenset[int] = NARROW_IDS) -> NDArray[np.uint8]:
    """Fill small components (< ``min_area`` px) with the majority label of their neighbourhood.

    Components of the ``keep`` label ids and unlabelled (0) pixels are left alone.
    """

    out = labels.copy()
    for lid in range(1, NUM_CLASSES + 1):
        if lid in keep:
            continue
        comp, n = ndimage.label(labels == lid, structure=_CROSS)
        if n == 0:
            continue
        sizes = np.bincount(comp.ravel())
        small = np.nonzero(sizes < min_area)[0]
        small = small[small > 0]
        if small.size == 0:
            continue
        boxes = ndimage.find_objects(comp)
        for k in small:
            sl = boxes[k - 1]
            if sl is None:
                continue
            r0, r1 = max(sl[0].start - 1, 0), min(sl[0].stop + 1, labels.shape[0])
            c0, c1 = max(sl[1].start - 1, 0), min(sl[1].stop + 1, labels.shape[1])
            win = comp[r0:r1, c0:c1] == k
            ring = ndimage.binary_dilation(win, structure=_CROSS) & ~win
            around = out[r0:r1, c0:c1][ring]
            around = around[(around != lid) & (around != 0)]
            if around.size:
                out[r0:r1, c0:c1][win] = np.bincount(around).argmax()
    return out


@dataclass(frozen=True, eq=False)
class Regions:
    """The regions of one (filtered) mask.

    Attributes:
        region_map: int32 ``(rows, cols)``, region index + 1 per pixel, 0 on unlabelled pixels.
        region_class: class index (0-7) of each region.
        region_area: pixel count of each region.
        edges: ``(E, 2)`` int region index pairs ``i < j`` that share a border.
        primary: class index -> region index of its largest region.
        anchors: class index -> ``(row, col)`` anchor of its primary region's probe.
        probes: class index -> bool probe mask of its primary region.
    """

    region_map: NDArray[np.int32]
    region_class: NDArray[np.int64]
    region_area: NDArray[np.int64]
    edges: NDArray[np.int64]
    primary: dict[int, int]
    anchors: dict[int, tuple[int, int]]
    probes: dict[int, NDArray[np.bool_]] = field(repr=False)

    @property
    def classes_present(self) -> frozenset[int]:
        """Class indices with at least one region."""
        return frozenset(self.primary)

    def connected(self, trav: tuple[int, ...]) -> NDArray[np.int32]:
        """Component label of every region in the graph masked by ``V_trav`` (Eq. 6); -1 if masked."""

        n = len(self.region_class)
        ok = np.asarray(trav, dtype=bool)[self.region_class]
        e = self.edges[ok[self.edges[:, 0]] & ok[self.edges[:, 1]]] if len(self.edges) else \
            np.zeros((0, 2), dtype=np.int64)
        graph = coo_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(n, n))
        _, comp = connected_components(graph, directed=False)
        out = comp.astype(np.int32)
        out[~ok] = -1
        return out


def find_regions(labels: NDArray[np.uint8], *,
                 probe_erosions: int = DEFAULT_PROBE_EROSIONS) -> Regions:
    """Regions, adjacency, primary regions and probes of a mask (module docstring)."""

    region_map = np.zeros(labels.shape, dtype=np.int32)
    classes: list[int] = []
    areas: list[int] = []
    for lid in range(1, NUM_CLASSES + 1):
        comp, n = ndimage.label(labels == lid, structure=_CROSS)
        if n == 0:
            continue
        sizes = np.bincount(comp.ravel())[1:]
        base = len(classes)
        region_map[comp > 0] = comp[comp > 0] + base
        classes.extend([lid - 1] * n)
        areas.extend(int(s) for s in sizes)
    region_class = np.asarray(classes, dtype=np.int64)
    region_area = np.asarray(areas, dtype=np.int64)
    pairs = []
    for a, b in ((region_map[:-1, :], region_map[1:, :]), (region_map[:, :-1], region_map[:, 1:])):
        m = (a != b) & (a > 0) & (b > 0)
        pairs.append(np.stack([np.minimum(a[m], b[m]), np.maximum(a[m], b[m])], axis=1) - 1)
    edges = np.unique(np.concatenate(pairs), axis=0) if pairs else np.zeros((0, 2), np.int64)
    primary: dict[int, int] = {}
    for idx in np.argsort(-region_area, kind="stable"):
        primary.setdefault(int(region_class[idx]), int(idx))
    anchors: dict[int, tuple[int, int]] = {}
    probes: dict[int, NDArray[np.bool_]] = {}
    for cls, idx in primary.items():
        objs = ndimage.find_objects((region_map == idx + 1).astype(np.int32))[0]
        assert objs is not None
        r0, c0 = max(objs[0].start - 1, 0), max(objs[1].start - 1, 0)
        r1 = min(objs[0].stop + 1, labels.shape[0])
        c1 = min(objs[1].stop + 1, labels.shape[1])
        mask = region_map[r0:r1, c0:c1] == idx + 1
        probe = mask
        for _ in range(probe_erosions):
            nxt = ndimage.binary_erosion(probe, structure=np.ones((3, 3), bool))
            if not nxt.any():
                break
            probe = nxt
        dist = cv2.distanceTransform(np.pad(mask, 1).astype(np.uint8), cv2.DIST_L2, 3)[1:-1, 1:-1]
        dist = np.where(probe, dist, -1)
        ar, ac = np.unravel_index(int(np.argmax(dist)), dist.shape)
        anchors[cls] = (int(ar + r0), int(ac + c0))
        full = np.zeros(labels.shape, dtype=bool)
        full[r0:r1, c0:c1] = probe
        probes[cls] = full
    return Regions(region_map=region_map, region_class=region_class, region_area=region_area,
                   edges=edges.astype(np.int64), primary=primary, anchors=anchors, probes=probes)


def _entropy(p: NDArray[np.float64]) -> float:
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


@dataclass(frozen=True)
class Complexity:
    """The terms of Eq. 8 and their weighted sum."""

    h_inter: float
    h_intra: float
    h_count: float
    c_topo: float
    score: float


def complexity(regions: Regions, *,
               weights: tuple[float, float, float, float] = EQUAL_WEIGHTS) -> Complexity:
    """Complexity score D of Eq. 8.

    ``H_inter`` is the entropy of the class area proportions ``u_k``; ``H_count`` of the region
    count proportions ``v_k``; ``H_intra = (1/L) sum_k H(p_k.) / log2 N_k`` with
    ``p_kj = a_kj / A_k`` (a class with one region adds 0); ``C_topo = min(1, 2|E| / (|V|(|V|-1)))``
    over the region adjacency graph.
    """
    cls, area = regions.region_class, regions.region_area.astype(np.float64)
    a_k = np.bincount(cls, weights=area, minlength=NUM_CLASSES)
    n_k = np.bincount(cls, minlength=NUM_CLASSES).astype(np.float64)
    h_inter = _entropy(a_k / a_k.sum()) if a_k.sum() else 0.0
    h_count = _entropy(n_k / n_k.sum()) if n_k.sum() else 0.0
    intra = 0.0
    for k in range(NUM_CLASSES):
        if n_k[k] > 1:
            intra += _entropy(area[cls == k] / a_k[k]) / np.log2(n_k[k])
    h_intra = float(intra / NUM_CLASSES)
    v = len(cls)
    c_topo = min(1.0, 2.0 * len(regions.edges) / (v * (v - 1))) if v > 1 else 0.0
    terms = (h_inter, h_intra, h_count, c_topo)
    score = float(sum(w * t for w, t in zip(weights, terms, strict=True)))
    return Complexity(h_inter, h_intra, h_count, c_topo, score)
