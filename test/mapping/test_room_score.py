"""Room scores that penalise splits and merges, and the merge of open same-type rooms."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.mapping.layers import merge_open_rooms, open_boundaries
from map2route.mapping.room_score import adjusted_rand_index, panoptic_quality, score_rooms
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import RoomType


def test_ari_is_one_for_the_same_partition_under_other_names() -> None:
    assert adjusted_rand_index(np.array([0, 0, 1, 1]), np.array([7, 7, 3, 3])) == 1.0
    # One group each side: identical.
    assert adjusted_rand_index(np.array([0, 0, 0]), np.array([5, 5, 5])) == 1.0


def test_ari_hand_computed_for_a_split() -> None:
    # True: one room of 4 cells; built: split 2 + 2. Pairs: C(4,2) = 6 in the true group,
    # C(2,2) * 2 = 2 in the built groups, 2 together; E = 6 * 2 / 6 = 2; max = (6 + 2) / 2 = 4.
    # ARI = (2 - 2) / (4 - 2) = 0: a split of the only room is no better than chance.
    assert adjusted_rand_index(np.array([0, 0, 0, 0]), np.array([1, 1, 2, 2])) == 0.0
    # True 3 + 3, built splits the second room 2 + 1: n_ij = [3, 0, 0; 0, 2, 1];
    # index = 3 + 1 = 4; a = 3 + 3 = 6; b = 3 + 1 + 0 = 4; C(6, 2) = 15; E = 24 / 15 = 1.6;
    # max = 5; ARI = (4 - 1.6) / (5 - 1.6) = 2.4 / 3.4.
    t = np.array([0, 0, 0, 1, 1, 1])
    b = np.array([5, 5, 5, 6, 6, 7])
    assert adjusted_rand_index(t, b) == pytest.approx(2.4 / 3.4)


def test_panoptic_quality_counts_the_split_off_part_as_a_false_positive() -> None:
    t = np.array([0] * 6 + [1] * 4)
    # Built: room 10 = true 0's first 5 cells, room 11 = its last cell, room 12 = true room 1.
    b = np.array([10] * 5 + [11] + [12] * 4)
    pq, sq, rq = panoptic_quality(t, b, true_ids=[0, 1], built_ids=[10, 11, 12])
    # Matches: (0, 10) IoU 5/6, (1, 12) IoU 1. TP 2, FP 1 (room 11), FN 0.
    assert sq == pytest.approx((5 / 6 + 1) / 2)
    assert rq == pytest.approx(2 / 2.5)
    assert pq == pytest.approx(sq * rq)
    # A merge: one built room over both true rooms, IoU 6/10 with room 0 (> 0.5), 4/10 with 1.
    pq2, sq2, rq2 = panoptic_quality(t, np.full(10, 3), true_ids=[0, 1], built_ids=[3])
    assert sq2 == pytest.approx(0.6) and rq2 == pytest.approx(1 / 1.5)


def test_score_rooms_over_floor_cells_with_count_error() -> None:
    true_room = np.array([[0, 0, -1, 1, 1]])
    built = np.array([[4, 4, 4, 5, 6]])
    floor = true_room >= 0
    s = score_rooms(true_room, built, floor, true_ids=[0, 1], built_ids=[4, 5, 6])
    assert s.room_count_error == 1 and s.rooms_built == 3 and s.rooms_true == 2
    # Room 1 split 1 + 1: IoU 0.5 is not a match; room 0 matches 4 with IoU 1.
    assert s.recognition_quality == pytest.approx(1 / (1 + 2 / 2 + 1 / 2))
    assert s.segmentation_quality == pytest.approx(1.0)


GRID = GridSpec(origin_x=0.0, origin_y=0.0, resolution=0.1, rows=20, cols=40)


def _two_rooms(opening_rows: slice) -> np.ndarray:
    ids = np.full(GRID.shape, -1, dtype=np.int32)
    ids[:, :20] = 0
    ids[:, 21:] = 1
    ids[opening_rows, 20] = 0  # the opening: room 0 cells reach room 1
    return ids


def test_open_boundary_length_and_lintel_cover() -> None:
    ids = _two_rooms(slice(0, 15))  # a 1.5 m opening (15 cells)
    widths = open_boundaries(ids, GRID, None)
    assert widths == {(0, 1): pytest.approx(1.5)}
    lintel = np.zeros(GRID.shape, dtype=bool)
    lintel[0:15, 20] = True
    assert open_boundaries(ids, GRID, lintel) == {}


def test_same_type_rooms_through_a_wide_opening_merge_but_not_under_a_lintel() -> None:
    ids = _two_rooms(slice(0, 15))
    same = {0: RoomType.BEDROOM, 1: RoomType.BEDROOM}
    out, mapping = merge_open_rooms(ids, same, GRID, None, open_m=1.2)
    assert mapping == {0: 0, 1: 0} and set(np.unique(out)) == {-1, 0}
    # Another type, a lintel over the opening, a narrow opening, or off: kept apart.
    other = {0: RoomType.BEDROOM, 1: RoomType.KITCHEN}
    assert merge_open_rooms(ids, other, GRID, None, open_m=1.2)[1] == {0: 0, 1: 1}
    lintel = np.zeros(GRID.shape, dtype=bool)
    lintel[0:15, 20] = True
    assert merge_open_rooms(ids, same, GRID, lintel, open_m=1.2)[1] == {0: 0, 1: 1}
    narrow = _two_rooms(slice(0, 9))  # 0.9 m: a door whose lintel was not seen
    assert merge_open_rooms(narrow, same, GRID, None, open_m=1.2)[1] == {0: 0, 1: 1}
    assert merge_open_rooms(ids, same, GRID, None, open_m=0.0)[1] == {0: 0, 1: 1}
