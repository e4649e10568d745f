"""Room segmentation scores that penalise splits and merges.

The room accuracy of :mod:`map2route.mapping.score` maps each built room to the true room it
overlaps most, so a true room cut into three built rooms still scores 1.0. These scores do not:

- **Adjusted Rand index** (Hubert and Arabie 1985) over the true floor cells (the true map's
  free cells inside a room): two partitions of the same cells, the true rooms and the built
  rooms (cells the built map leaves outside every room form one group of their own). From the
  contingency table ``n_ij`` (cells in true room ``i`` and built room ``j``), its row sums
  ``a_i`` and column sums ``b_j`` and ``C(x) = x (x - 1) / 2``:
  ``ARI = (sum C(n_ij) - E) / ((sum C(a_i) + sum C(b_j)) / 2 - E)`` with
  ``E = sum C(a_i) sum C(b_j) / C(n)``. 1 for identical partitions, about 0 for chance; a
  split or a merge both lower it. Two one-group partitions (a one-room house built as one
  room) score 1.
- **Panoptic quality** (Kirillov et al. 2019) of the rooms as segments of the floor: a built
  and a true room match when their IoU over the floor cells exceeds 0.5 (so a match is
  unique); ``PQ = sum IoU(matches) / (TP + FP / 2 + FN / 2)``, ``FP`` the built rooms
  left unmatched, ``FN`` the true rooms left unmatched. Splitting a true room leaves at most
  one part matched and adds the others as false positives.
- **Room count error**: built rooms minus true rooms (signed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: A built and a true room are one match in panoptic quality above this IoU.
PQ_MATCH_IOU = 0.5


@dataclass(frozen=True)
class RoomSegmentationScore:
    """The scores of the module docstring."""

    adjusted_rand_index: float
    panoptic_quality: float
    segmentation_quality: float
    recognition_quality: float
    room_count_error: int
    rooms_built: int
    rooms_true: int


def _pairs(x: NDArray[np.int64]) -> float:
    return float(np.sum(x.astype(np.float64) * (x - 1) / 2.0))


def contingency(true_labels: NDArray[np.integer], built_labels: NDArray[np.integer]
                ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The contingency table of two labellings of the same cells (flat arrays), with the
    sorted distinct labels of each: ``(table, true ids, built ids)``."""
    t_ids, t_inv = np.unique(np.asarray(true_labels).ravel(), return_inverse=True)
    b_ids, b_inv = np.unique(np.asarray(built_labels).ravel(), return_inverse=True)
    table = np.zeros((len(t_ids), len(b_ids)), dtype=np.int64)
    np.add.at(table, (t_inv.ravel(), b_inv.ravel()), 1)
    return table, t_ids.astype(np.int64), b_ids.astype(np.int64)


def adjusted_rand_index(true_labels: NDArray[np.integer], built_labels: NDArray[np.integer]
                        ) -> float:
    """The adjusted Rand index of two labellings of the same cells (NaN for no cells)."""
    table, _, _ = contingency(true_labels, built_labels)
    n = int(table.sum())
    if n == 0:
        return float("nan")
    index = _pairs(table)
    a, b = _pairs(table.sum(axis=1)), _pairs(table.sum(axis=0))
    total = n * (n - 1) / 2.0
    expected = a * b / total if total > 0 else 0.0
    top = (a + b) / 2.0
    if top == expected:  # both partitions are one group (or all singletons): identical
        return 1.0
    return float((index - expected) / (top - expected))


def panoptic_quality(true_labels: NDArray[np.integer], built_labels: NDArray[np.integer], *,
                     true_ids: list[int], built_ids: list[int]
                     ) -> tuple[float, float, float]:
    """``(PQ, SQ, RQ)`` of the built segments ``built_ids`` against ``true_ids`` over the cells
    of the flat label arrays (other labels are no segment). ``SQ`` is the mean IoU of the
    matches, ``RQ = TP / (TP + FP/2 + FN/2)``, ``PQ = SQ * RQ``; NaN when both lists are empty."""
    t = np.asarray(true_labels).ravel()
    b = np.asarray(built_labels).ravel()
    table, t_u, b_u = contingency(t, b)
    t_row = {int(v): i for i, v in enumerate(t_u)}
    b_col = {int(v): j for j, v in enumerate(b_u)}
    t_size = table.sum(axis=1)
    b_size = table.sum(axis=0)
    tp_iou: list[float] = []
    matched_b: set[int] = set()
    for tid in true_ids:
        i = t_row.get(int(tid))
        if i is None:
            continue
        for bid in built_ids:
            j = b_col.get(int(bid))
            if j is None or bid in matched_b:
                continue
            inter = int(table[i, j])
            if inter == 0:
                continue
            iou = inter / float(t_size[i] + b_size[j] - inter)
            if iou > PQ_MATCH_IOU:  # above 0.5 a match is unique on both sides
                tp_iou.append(iou)
                matched_b.add(bid)
                break
    tp = len(tp_iou)
    fp = len(built_ids) - tp
    fn = len(true_ids) - tp
    denom = tp + fp / 2.0 + fn / 2.0
    if denom == 0:
        return float("nan"), float("nan"), float("nan")
    sq = float(np.mean(tp_iou)) if tp_iou else 0.0
    rq = tp / denom
    return sq * rq, sq, rq


def score_rooms(true_room: NDArray[np.integer], built_room: NDArray[np.integer],
                floor: NDArray[np.bool_], *, true_ids: list[int], built_ids: list[int]
                ) -> RoomSegmentationScore:
    """The scores of the module docstring.

    Args:
        true_room: the true room id per cell of the true grid.
        built_room: the built room id per cell of the same grid (``-1``: outside every room).
        floor: the true floor cells (free and in a true room): the cells scored.
        true_ids: the true rooms; built_ids: the built rooms (both counted in full, a room
            with no floor cell included: it is a false positive or a false negative).
    """
    t = np.asarray(true_room)[floor]
    b = np.asarray(built_room)[floor]
    ari = adjusted_rand_index(t, b)
    pq, sq, rq = panoptic_quality(t, b, true_ids=list(true_ids), built_ids=list(built_ids))
    return RoomSegmentationScore(
        adjusted_rand_index=ari, panoptic_quality=pq, segmentation_quality=sq,
        recognition_quality=rq, room_count_error=len(built_ids) - len(true_ids),
        rooms_built=len(built_ids), rooms_true=len(true_ids))
