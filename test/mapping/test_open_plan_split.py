"""Open-plan rooms split between two room types' evidence (layers.split_open_plan)."""

from __future__ import annotations

import dataclasses

import numpy as np

from map2route.mapping.builder import BuildConfig, _split_open_plan
from map2route.mapping.layers import LayerConfig, Layers, room_doors, room_types, split_open_plan
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import ObjectInstance, RoomType

#: An open room 8 m x 4 m at 0.1 m: one room (id 0), no wall inside.
GRID = GridSpec(rows=40, cols=80, resolution=0.1, origin_x=0.0, origin_y=0.0)
KITCHEN = [("fridge", (0.5, 2.0)), ("counter_top", (1.0, 0.5))]    # 3.0 + 1.0 at the west end
LIVING = [("sofa", (7.5, 2.0)), ("television", (6.5, 3.5))]       # 3.0 + 1.5 at the east end


def _room() -> np.ndarray:
    return np.zeros(GRID.shape, dtype=np.int32)


def _objs(items: list[tuple[str, tuple[float, float]]]) -> list[tuple[str, tuple[float, float], int]]:
    return [(c, xy, 0) for c, xy in items]


def _cfg() -> LayerConfig:
    return BuildConfig.from_yaml().layers


def _at(ids: np.ndarray, x: float, y: float) -> int:
    return int(ids[GRID.world_to_cell(x, y)])


def test_kitchen_and_living_room_at_two_ends_split_between_them() -> None:
    ids = split_open_plan(_room(), _objs(KITCHEN + LIVING), GRID, config=_cfg())
    assert sorted(np.unique(ids).tolist()) == [0, 1]
    west, east = _at(ids, 1.0, 2.0), _at(ids, 7.0, 2.0)
    assert west != east
    # The seeds' nearest (4-connected) cells: the west third is the kitchen's, the east
    # third the living room's; the boundary lies in the middle third.
    assert all(_at(ids, x, y) == west for x in (0.2, 1.5, 2.5) for y in (0.2, 2.0, 3.8))
    assert all(_at(ids, x, y) == east for x in (5.5, 6.5, 7.8) for y in (0.2, 2.0, 3.8))
    # Each part is a room of its own type, joined by one door across the whole 4 m width
    # (no wall; slanted, as the seeds stand at different heights).
    cats = {r: [c for c, (x, y) in KITCHEN + LIVING if _at(ids, x, y) == r] for r in (0, 1)}
    types = room_types(cats)
    assert {types[west], types[east]} == {RoomType.KITCHEN, RoomType.LIVING_ROOM}
    assert types[west] == RoomType.KITCHEN
    doors = room_doors(ids, GRID)
    assert len(doors) == 1
    (x0, y0), (x1, y1) = doors[0][1]
    assert abs(abs(y1 - y0) - 4.0) < 0.4 and 2.0 < (x0 + x1) / 2 < 6.0


def test_bedroom_with_a_desk_and_a_television_stays_one_room() -> None:
    # bed 3.0 + dresser 1.0 against television 1.5: the second type is under split_evidence.
    objs = _objs([("bed", (1.0, 2.0)), ("dresser", (0.5, 0.5)), ("desk", (4.0, 0.5)),
                  ("television", (7.5, 2.0))])
    ids = split_open_plan(_room(), objs, GRID, config=_cfg())
    assert (ids == 0).all()


def test_living_room_with_a_dining_corner_stays_one_room() -> None:
    # Two dining tables (kitchen 0.5 each) at the far end: 1.0 of kitchen evidence, and no
    # kitchen object weighs split_seed_weight.
    objs = _objs(LIVING + [("dining_table", (1.0, 2.0)), ("dining_table", (1.0, 3.0))])
    ids = split_open_plan(_room(), objs, GRID, config=_cfg())
    assert (ids == 0).all()


def test_mixed_evidence_stays_one_room() -> None:
    # A fridge 1 m from the sofa: the two types' seeds are not apart (split_gap_m 2.0).
    objs = _objs([("fridge", (4.0, 2.0)), ("counter_top", (3.0, 0.5)),
                  ("sofa", (5.0, 2.0)), ("television", (6.5, 3.5))])
    ids = split_open_plan(_room(), objs, GRID, config=_cfg())
    assert (ids == 0).all()


def test_parts_too_small_for_rooms_stay_one_room() -> None:
    # The same evidence in a 4 m x 2 m room: each part about 4 m^2, under split_min_room_m2 8.
    room = np.full(GRID.shape, -1, dtype=np.int32)
    room[:20, :40] = 0
    objs = _objs([("fridge", (0.3, 1.0)), ("counter_top", (0.5, 0.3)),
                  ("sofa", (3.7, 1.0)), ("television", (3.5, 1.8))])
    ids = split_open_plan(room, objs, GRID, config=_cfg())
    assert (ids == room).all()


def test_split_off_by_zero_evidence_threshold() -> None:
    cfg = dataclasses.replace(BuildConfig.from_yaml().layers, split_evidence=0.0)
    ids = split_open_plan(_room(), _objs(KITCHEN + LIVING), GRID, config=cfg)
    assert (ids == 0).all()


def test_builder_moves_objects_and_doors_to_the_split_rooms() -> None:
    room = _room()
    layers = Layers(grid=GRID, ground_z=0.0, ceiling_z=2.5, walls=np.zeros(GRID.shape, bool),
                    traversable=np.ones(GRID.shape, bool), room_ids=room, doors=())
    objects = [ObjectInstance(id=f"{c}_0", category=c, room_id=0,
                              footprint=((x - 0.2, y - 0.2), (x + 0.2, y - 0.2),
                                         (x + 0.2, y + 0.2), (x - 0.2, y + 0.2)), center=xy)
               for c, xy in KITCHEN + LIVING for x, y in [xy]]
    new_layers, moved = _split_open_plan(layers, objects, BuildConfig.from_yaml().layers)
    rooms = {o.category: o.room_id for o in moved}
    assert rooms["fridge"] == rooms["counter_top"] != rooms["sofa"] == rooms["television"]
    assert len(new_layers.doors) == 1 and set(new_layers.doors[0][0]) == {0, 1}
    assert new_layers.room_ids.max() == 1 and layers.room_ids.max() == 0  # input untouched
    # Nothing to split: the same objects come back.
    same_layers, same = _split_open_plan(layers, objects[:2], BuildConfig.from_yaml().layers)
    assert same_layers is layers and same == objects[:2]



def test_three_rooms_meeting_in_open_floor_give_a_door_per_pair_when_split() -> None:
    # Room 0 the west half, rooms 1 (north-east) and 2 (south-east) the east quarters, no
    # wall anywhere: the three boundaries meet in a T at (4, 2).
    room = np.zeros(GRID.shape, dtype=np.int32)
    room[20:, 40:] = 1
    room[:20, 40:] = 2
    # Watershed rooms: one connected run, one door (kept as it was).
    assert len(room_doors(room, GRID)) == 1
    # Room 2 split off by split_open_plan: one door per pair.
    doors = {ab: seg for ab, seg in room_doors(room, GRID, {2})}
    assert set(doors) == {(0, 1), (0, 2), (1, 2)}
    (x0, y0), (x1, y1) = doors[(1, 2)]
    assert abs((y0 + y1) / 2 - 2.0) < 0.15 and abs(abs(x1 - x0) - 4.0) < 0.3
    for ab, ymid in (((0, 1), 3.0), ((0, 2), 1.0)):
        (x0, y0), (x1, y1) = doors[ab]
        assert abs((x0 + x1) / 2 - 4.0) < 0.15 and abs((y0 + y1) / 2 - ymid) < 0.2
        assert abs(abs(y1 - y0) - 2.0) < 0.3
