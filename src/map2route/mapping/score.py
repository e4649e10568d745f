"""``map2route map score``: how close a built map is to the true one.

- Objects (structure categories - walls, windows, doorways, door frames - are the building, not
  objects, and are left out on both sides): per category, a built object matches a true one of the same category when their
  footprint polygons overlap with IoU >= 0.25 (greedy, best IoU first, one-to-one); a
  footprint thinner than :data:`MIN_SIDE_M` (a painting or a TV is 3-8 cm deep) is widened
  to that depth about its centre line first, on both sides: with 3 cm voxels a 3 cm deep
  box cannot be placed to the centimetre an IoU over 0.25 would need;
  precision = matched / built, recall = matched / true, also for true objects taller than
  0.3 m; centroid error = mean distance between matched centres (metres). A true object
  taller than 0.3 m that stands inside a closed object (its centre inside the other's
  footprint, its height range strictly inside the other's: a bottle in a fridge) is
  unobservable - the simulator renders the closed object solid (only the
  ``simulate.open_storage`` categories are open frames) - and is listed in
  ``unobservable_tall``; ``recall_tall_observable`` leaves those out (``--json`` only).
  Given the ids of the objects a simulated drive showed (:func:`shown_objects`, from the
  bag's instance-id images), ``recall_tall_seen`` is recall over the true objects taller
  than 0.3 m that the drive showed, and ``unseen_tall`` lists the others: perception and
  fusion apart from the drive's coverage.
- Rooms: each built room is mapped to the true room it overlaps most; accuracy = the share of
  the true rooms' free cells whose built room maps to their true room (cells the built map
  leaves outside every room count as wrong); room-type accuracy over the matched rooms.
  Room accuracy never penalises a split (three built rooms in one true room all map to it);
  the adjusted Rand index and panoptic quality over the same cells and the room count error
  (:mod:`map2route.mapping.room_score`) do.
- Traversability: IoU of the traversable cells, the built layer sampled at the true grid's
  cell centres.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from shapely.geometry import Point, Polygon

from map2route.mapping.room_score import score_rooms
from map2route.mapping.simulate import SimConfig
from map2route.semantic_map.categories import STRUCTURE_CATEGORIES

if TYPE_CHECKING:
    from map2route.semantic_map.model import ObjectInstance, SemanticMap

FOOTPRINT_IOU = 0.25
TALL_M = 0.3
MIN_SIDE_M = 0.2


@dataclass(frozen=True)
class CategoryScore:
    true: int
    built: int
    matched: int

    @property
    def precision(self) -> float:
        return self.matched / self.built if self.built else float("nan")

    @property
    def recall(self) -> float:
        return self.matched / self.true if self.true else float("nan")


@dataclass(frozen=True)
class MapScore:
    """All measures of one built map against its truth."""

    precision: float
    recall: float
    recall_tall: float
    centroid_error_m: float
    room_accuracy: float
    room_type_accuracy: float
    traversability_iou: float
    by_category: dict[str, CategoryScore] = field(default_factory=dict)
    recall_tall_observable: float = float("nan")
    unobservable_tall: tuple[str, ...] = ()
    recall_tall_seen: float = float("nan")
    unseen_tall: tuple[str, ...] = ()
    room_ari: float = float("nan")
    room_pq: float = float("nan")
    room_count_error: int = 0
    rooms_built: int = 0
    rooms_true: int = 0

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["by_category"] = {k: {**asdict(v), "precision": v.precision, "recall": v.recall}
                            for k, v in self.by_category.items()}
        return d


def scored_objects(m: SemanticMap) -> list[ObjectInstance]:
    """The objects of ``m`` that are scored: all but the structure categories."""

    return [o for o in m.objects if o.category not in STRUCTURE_CATEGORIES]


def scoring_polygon(footprint: tuple[tuple[float, float], ...]) -> Any:
    """The shapely polygon a footprint is scored with (thin ones widened to ``MIN_SIDE_M``)."""

    poly = Polygon(footprint).buffer(0)
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.asarray(footprint, dtype=np.float32))
    if min(w, h) >= MIN_SIDE_M:
        return poly
    corners = cv2.boxPoints(((cx, cy), (max(w, MIN_SIDE_M), max(h, MIN_SIDE_M)), angle))
    return Polygon(corners.astype(np.float64)).buffer(0)


def match_objects(built: list[ObjectInstance], truth: list[ObjectInstance]
                  ) -> list[tuple[int, int, float]]:
    """Greedy one-to-one matches ``(built index, true index, footprint IoU)``, best IoU first."""
    bpoly = [scoring_polygon(o.footprint) for o in built]
    tpoly = [scoring_polygon(o.footprint) for o in truth]
    cands = []
    for i, bo in enumerate(built):
        for j, to in enumerate(truth):
            if bo.category != to.category or not bpoly[i].intersects(tpoly[j]):
                continue
            inter = bpoly[i].intersection(tpoly[j]).area
            union = bpoly[i].union(tpoly[j]).area
            iou = inter / union if union > 0 else 0.0
            if iou >= FOOTPRINT_IOU:
                cands.append((iou, i, j))
    cands.sort(reverse=True)
    used_b, used_t, out = set(), set(), []
    for iou, i, j in cands:
        if i not in used_b and j not in used_t:
            used_b.add(i)
            used_t.add(j)
            out.append((i, j, iou))
    return out


def sample_layer(built: SemanticMap, layer: np.ndarray, truth: SemanticMap, fill: Any) -> np.ndarray:
    """``layer`` of ``built`` looked up at every cell centre of ``truth``'s grid."""
    xx, yy = truth.grid.cell_centres()
    rc = built.grid.worlds_to_cells(np.stack([xx.ravel(), yy.ravel()], axis=1))
    ok = built.grid.contains_cells(rc)
    out = np.full(len(rc), fill, dtype=layer.dtype)
    out[ok] = layer[rc[ok, 0], rc[ok, 1]]
    return out.reshape(truth.grid.shape)


def enclosed_objects(objects: list[ObjectInstance], open_storage: frozenset[str]
                     ) -> set[int]:
    """Indices of the objects that stand inside a closed object (see the module docstring)."""

    polys = [Polygon(o.footprint) for o in objects]
    out: set[int] = set()
    for i, o in enumerate(objects):
        for j, box in enumerate(objects):
            if (j != i and box.category not in open_storage and box.z_min < o.z_min
                    and o.z_max < box.z_max and polys[j].contains(Point(o.center))):
                out.add(i)
                break
    return out


def shown_objects(object_ids: list[str], max_px: np.ndarray, width: int, min_px: int
                  ) -> set[str]:
    """The object ids whose largest pixel count in one panorama (``max_px`` per instance id,
    :func:`~map2route.mapping.bag.instance_pixels`) reaches ``min_px`` at 960 px wide, scaled
    by ``(width / 960)^2`` (the same solid angle at any resolution)."""
    need = max(1.0, min_px * (width / 960.0) ** 2)
    return {oid for k, oid in enumerate(object_ids)
            if oid and k < len(max_px) and max_px[k] >= need}


def score_map(built: SemanticMap, truth: SemanticMap, *,
              open_storage: frozenset[str] | None = None,
              shown: set[str] | None = None) -> MapScore:
    """Score ``built`` against ``truth`` (see the module docstring; ``open_storage``: the
    categories the simulator builds open, by default ``simulate.open_storage`` of
    ``config/mapping.yaml``; ``shown``: the true object ids the drive showed, for
    ``recall_tall_seen``)."""
    if open_storage is None:

        open_storage = frozenset(SimConfig.from_yaml().open_storage)
    b_objs, t_objs = scored_objects(built), scored_objects(truth)
    matches = match_objects(b_objs, t_objs)
    cats = sorted({o.category for o in b_objs} | {o.category for o in t_objs})
    by_cat = {}
    for c in cats:
        by_cat[c] = CategoryScore(
            true=sum(o.category == c for o in t_objs),
            built=sum(o.category == c for o in b_objs),
            matched=sum(t_objs[j].category == c for _, j, _ in matches))
    matched_t = {j for _, j, _ in matches}
    tall = [j for j, o in enumerate(t_objs) if o.height_m > TALL_M]
    enclosed = enclosed_objects(t_objs, open_storage)
    seen_tall = [j for j in tall if j not in enclosed]
    shown_tall = [j for j in tall if shown is not None and t_objs[j].id in shown]
    errs = [float(np.hypot(b_objs[i].center[0] - t_objs[j].center[0],
                           b_objs[i].center[1] - t_objs[j].center[1]))
            for i, j, _ in matches]
    # Rooms.
    b_rooms = sample_layer(built, built.room_ids, truth, -1)
    t_rooms = truth.room_ids
    free = (t_rooms >= 0) & ~truth.walls
    mapping: dict[int, int] = {}
    for r in built.rooms:
        overlap = t_rooms[(b_rooms == r.id) & free]
        if overlap.size:
            mapping[r.id] = int(np.bincount(overlap).argmax())
    lut = np.vectorize(lambda v: mapping.get(int(v), -2))(b_rooms) if mapping else np.full_like(b_rooms, -2)
    room_acc = float(np.mean(lut[free] == t_rooms[free])) if free.any() else float("nan")
    type_ok = [built.get_room(b).type == truth.get_room(t).type for b, t in mapping.items()]
    seg = score_rooms(t_rooms, b_rooms, free, true_ids=[r.id for r in truth.rooms],
                      built_ids=[r.id for r in built.rooms])
    # Traversability.
    b_trav = sample_layer(built, built.traversable, truth, False)
    inter = np.sum(b_trav & truth.traversable)
    union = np.sum(b_trav | truth.traversable)
    return MapScore(
        precision=len(matches) / len(b_objs) if b_objs else float("nan"),
        recall=len(matches) / len(t_objs) if t_objs else float("nan"),
        recall_tall=(sum(j in matched_t for j in tall) / len(tall)) if tall else float("nan"),
        centroid_error_m=float(np.mean(errs)) if errs else float("nan"),
        room_accuracy=room_acc,
        room_type_accuracy=float(np.mean(type_ok)) if type_ok else float("nan"),
        traversability_iou=float(inter / union) if union else float("nan"),
        by_category=by_cat,
        recall_tall_observable=(sum(j in matched_t for j in seen_tall) / len(seen_tall)
                                if seen_tall else float("nan")),
        unobservable_tall=tuple(sorted(t_objs[j].id for j in tall if j in enclosed)),
        recall_tall_seen=(sum(j in matched_t for j in shown_tall) / len(shown_tall)
                          if shown_tall else float("nan")),
        unseen_tall=(tuple(sorted(t_objs[j].id for j in tall if t_objs[j].id not in shown))
                     if shown is not None else ()),
        room_ari=seg.adjusted_rand_index, room_pq=seg.panoptic_quality,
        room_count_error=seg.room_count_error, rooms_built=seg.rooms_built,
        rooms_true=seg.rooms_true)
