"""Fixtures of the grounding tests: the five-room house of the held-out human instructions.

Living room (x 0..6, y 0..5), kitchen (6..10, 0..5), bedroom A (0..4, 5..9, two windows),
bedroom B (4..8, 5..9, one window), bathroom (8..10, 5..9, no window); start (3.0, 2.5).
"""

from __future__ import annotations

import pytest

from map2route.semantic_map.model import RoomType, SemanticMap
from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house

START = (3.0, 2.5)


def five_room_house() -> SemanticMap:
    """The held-out set's house; every distance in the data file can be checked by hand."""
    rooms = [RectRoom(0, RoomType.LIVING_ROOM, 0.0, 0.0, 6.0, 5.0),
             RectRoom(1, RoomType.KITCHEN, 6.0, 0.0, 10.0, 5.0),
             RectRoom(2, RoomType.BEDROOM, 0.0, 5.0, 4.0, 9.0),
             RectRoom(3, RoomType.BEDROOM, 4.0, 5.0, 8.0, 9.0),
             RectRoom(4, RoomType.BATHROOM, 8.0, 5.0, 10.0, 9.0)]
    o = RectObject
    objects = [
        o("sofa_0", "sofa", 2.0, 1.0, 2.0, 0.9), o("tv_stand_0", "tv_stand", 2.0, 4.4, 1.5, 0.4),
        o("television_0", "television", 2.0, 4.4, 1.0, 0.2, z_max=1.2, parent_id="tv_stand_0",
          blocks=False),
        o("arm_chair_0", "arm_chair", 4.5, 1.2, 0.8, 0.8), o("arm_chair_1", "arm_chair", 0.6, 3.0, 0.8, 0.8),
        o("house_plant_0", "house_plant", 5.6, 4.5, 0.4, 0.4),
        o("side_table_0", "side_table", 3.6, 1.0, 0.5, 0.5),
        o("desk_lamp_0", "desk_lamp", 3.6, 1.0, 0.2, 0.2, parent_id="side_table_0", blocks=False),
        o("floor_lamp_0", "floor_lamp", 0.4, 0.4, 0.3, 0.3, z_max=1.6),
        o("garbage_can_0", "garbage_can", 5.6, 0.4, 0.3, 0.3),
        o("fridge_0", "fridge", 9.5, 4.5, 0.7, 0.7, z_max=1.8),
        o("counter_top_0", "counter_top", 8.0, 4.6, 2.0, 0.6, z_max=0.9),
        o("microwave_0", "microwave", 8.0, 4.6, 0.5, 0.4, parent_id="counter_top_0", blocks=False),
        o("dining_table_0", "dining_table", 8.0, 2.0, 1.4, 0.9),
        o("apple_0", "apple", 8.0, 2.0, 0.1, 0.1, parent_id="dining_table_0", blocks=False),
        o("chair_0", "chair", 7.0, 2.0, 0.4, 0.4), o("chair_1", "chair", 9.1, 2.0, 0.4, 0.4),
        o("chair_2", "chair", 8.0, 1.1, 0.4, 0.4),
        o("garbage_can_1", "garbage_can", 9.6, 0.4, 0.3, 0.3),
        o("sink_0", "sink", 9.6, 3.2, 0.5, 0.6),
        o("bed_0", "bed", 1.2, 7.5, 1.6, 2.0), o("side_table_1", "side_table", 2.4, 8.5, 0.5, 0.5),
        o("desk_lamp_1", "desk_lamp", 2.4, 8.5, 0.2, 0.2, parent_id="side_table_1", blocks=False),
        o("dresser_0", "dresser", 3.5, 6.0, 0.6, 1.0), o("chair_3", "chair", 3.4, 8.4, 0.4, 0.4),
        o("bed_1", "bed", 6.0, 7.8, 1.4, 1.8), o("desk_0", "desk", 7.4, 6.0, 1.0, 0.6),
        o("chair_4", "chair", 7.4, 6.7, 0.4, 0.4),
        o("laptop_0", "laptop", 7.4, 6.0, 0.3, 0.2, parent_id="desk_0", blocks=False),
        o("shelf_0", "shelf", 4.4, 8.5, 0.5, 0.8), o("house_plant_1", "house_plant", 4.4, 5.4, 0.4, 0.4),
        o("toilet_0", "toilet", 9.5, 8.5, 0.5, 0.6), o("sink_basin_0", "sink_basin", 9.6, 6.0, 0.5, 0.5),
        o("garbage_can_2", "garbage_can", 8.4, 8.6, 0.3, 0.3),
    ]
    doors = [("door_lk", (0, 1), ((6.0, 2.0), (6.0, 3.0))),
             ("door_la", (0, 2), ((1.5, 5.0), (2.5, 5.0))),
             ("door_lb", (0, 3), ((4.8, 5.0), (5.6, 5.0))),
             ("door_bw", (3, 4), ((8.0, 6.5), (8.0, 7.5)))]
    windows = [("win_l0", 0, ((1.0, 0.0), (2.0, 0.0))), ("win_l1", 0, ((4.0, 0.0), (5.0, 0.0))),
               ("win_k0", 1, ((10.0, 2.0), (10.0, 3.0))),
               ("win_a0", 2, ((0.0, 6.0), (0.0, 7.0))), ("win_a1", 2, ((1.0, 9.0), (2.0, 9.0))),
               ("win_b0", 3, ((5.0, 9.0), (6.0, 9.0)))]
    return rect_house(name="five_room_house", rooms=rooms, objects=objects, doors=doors,
                      windows=windows)


@pytest.fixture(scope="session")
def house():
    """Five rooms (living, kitchen, two bedrooms, bathroom); see :func:`five_room_house`."""
    return five_room_house()


@pytest.fixture(scope="session")
def runner():
    """One warm sandbox worker shared by the grounding tests."""
    from map2route.grounding.sandbox import SandboxRunner

    with SandboxRunner() as r:
        yield r
