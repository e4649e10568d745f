"""Footprint completion from a category size prior, and room types passed over openings."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.mapping.layers import room_types
from map2route.mapping.objects import complete_footprint, size_prior
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import RoomType

GRID = GridSpec(rows=100, cols=100, resolution=0.05, origin_x=0.0, origin_y=0.0)


def test_a_box_seen_from_one_side_grows_away_from_the_robot() -> None:
    blocked = np.zeros(GRID.shape, dtype=bool)
    # A chair's back face (0.5 x 0.1 m) seen from the north (y > 2.5).
    seen_from = np.array([[2.5, 4.0], [2.3, 4.5], [2.8, 3.8]])
    (cx, cy), (w, h) = complete_footprint((2.5, 2.5), (0.5, 0.1), 0.0, (0.5, 0.45),
                                          viewpoints=seen_from, blocked=blocked, grid=GRID,
                                          below=0.5)
    assert w == pytest.approx(0.5)
    assert h == pytest.approx(0.45, abs=0.051)
    assert cx == pytest.approx(2.5)
    # Grown south: the north face (y = 2.55) stays where it was seen.
    assert cy + h / 2 == pytest.approx(2.55, abs=1e-6)
    assert cy < 2.5


def test_growth_stops_at_a_wall_and_a_box_seen_from_both_sides_keeps_its_size() -> None:
    blocked = np.zeros(GRID.shape, dtype=bool)
    blocked[int(2.3 / 0.05), :] = True  # a wall row at y = 2.30..2.35
    seen_from = np.array([[2.5, 4.0]])
    (_, cy), (_, h) = complete_footprint((2.5, 2.5), (0.5, 0.1), 0.0, (0.5, 0.45),
                                         viewpoints=seen_from, blocked=blocked, grid=GRID,
                                         below=0.5)
    assert cy - h / 2 >= 2.35 - 1e-6
    both = np.array([[2.5, 4.0], [2.5, 1.0]])
    _, size = complete_footprint((2.5, 2.5), (0.5, 0.1), 0.0, (0.5, 0.45), viewpoints=both,
                                 blocked=np.zeros(GRID.shape, dtype=bool), grid=GRID, below=0.5)
    assert size == pytest.approx((0.5, 0.1))
    # Not clearly smaller than the prior: unchanged.
    _, size = complete_footprint((2.5, 2.5), (0.5, 0.3), 0.0, (0.5, 0.45), viewpoints=seen_from,
                                 blocked=np.zeros(GRID.shape, dtype=bool), grid=GRID, below=0.5)
    assert size == pytest.approx((0.5, 0.3))


def test_size_prior_comes_from_the_procthor_assets() -> None:
    prior = size_prior(0.1)
    if not prior:
        pytest.skip("the procthor package is not installed")
    long_bed, short_bed = prior["bed"]
    long_chair, _ = prior["chair"]
    assert long_bed >= short_bed > 0.8
    assert long_bed > 2 * long_chair


def test_a_room_without_typing_objects_takes_its_most_connected_neighbour_type() -> None:
    cats = {0: ["sofa"], 1: ["bed"], 2: ["chair"], 3: []}
    # Room 2 opens 3 m onto the living room and 0.9 m onto the bedroom; room 3 only onto 2.
    links = {(0, 2): 3.0, (1, 2): 0.9, (2, 3): 1.0}
    types = room_types(cats, None, links)
    assert types == {0: RoomType.LIVING_ROOM, 1: RoomType.BEDROOM, 2: RoomType.LIVING_ROOM,
                     3: RoomType.LIVING_ROOM}
    types = room_types(cats, None, {(0, 2): 0.9, (1, 2): 3.0, (2, 3): 1.0})
    assert types[2] == RoomType.BEDROOM and types[3] == RoomType.BEDROOM
    # An override counts as evidence and wins.
    types = room_types(cats, {1: RoomType.KITCHEN}, {(0, 2): 0.9, (1, 2): 3.0})
    assert types[1] == RoomType.KITCHEN and types[2] == RoomType.KITCHEN
    # No connection and no evidence: living room.
    assert room_types({5: []})[5] == RoomType.LIVING_ROOM


def test_a_weakly_typed_part_of_an_open_plan_room_takes_the_stronger_part_type() -> None:
    # A dining corner (table: weak kitchen evidence) split from a living room (sofa) where the
    # free space narrows to 3.5 m; a real kitchen (fridge) behind a 0.9 m doorway keeps its type.
    cats = {0: ["sofa"], 1: ["dining_table"], 2: ["fridge"]}
    links = {(0, 1): 3.5, (1, 2): 0.9}
    types = room_types(cats, None, links, open_m=3.0, weak=1.0)
    assert types[1] == RoomType.LIVING_ROOM and types[2] == RoomType.KITCHEN
    # Through a doorway, or with the rule off, the corner keeps its own evidence.
    assert room_types(cats, None, {(0, 1): 2.0}, open_m=3.0, weak=1.0)[1] == RoomType.KITCHEN
    assert room_types(cats, None, links)[1] == RoomType.KITCHEN
    # The override still wins.
    assert room_types(cats, {1: RoomType.BEDROOM}, links, open_m=3.0, weak=1.0)[1] == \
        RoomType.BEDROOM
