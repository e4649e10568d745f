"""The ProcTHOR importer on the hand-checkable house of conftest.py."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.scenes import SceneError, from_procthor_house
from map2route.scenes.checks import impassable_doors, unreachable_rooms
from map2route.scenes.procthor import ROBOT_RADIUS_M
from map2route.semantic_map import RoomType


def _cell(m, x, y):
    return m.grid.world_to_cell(x, y)


def test_rooms_types_areas_and_ids(house_json):
    m = from_procthor_house(house_json, name="hand")
    assert [(r.id, r.type, r.name) for r in m.rooms] == [
        (0, RoomType.BEDROOM, "room|1"), (1, RoomType.KITCHEN, "room|2")]
    assert m.rooms[0].area_m2 == pytest.approx(12.0)
    assert m.rooms[1].area_m2 == pytest.approx(9.0)
    assert m.room_at(2.0, 2.8).id == 0
    assert m.room_at(6.0, 0.2).id == 1
    assert m.room_at(-0.2, 1.0) is None


def test_door_window_and_walls(house_json):
    m = from_procthor_house(house_json, name="hand")
    doors = [d for d in m.doors]
    assert len(doors) == 1
    (x0, y0), (x1, y1) = doors[0].segment
    assert doors[0].room_ids == (0, 1)
    assert (x0, min(y0, y1), max(y0, y1)) == pytest.approx((4.0, 1.0, 2.0))
    assert m.room_adjacency[0] == frozenset({1})
    assert [(w.room_id, w.center) for w in m.windows] == [(0, pytest.approx((1.5, 0.0)))]
    # The shared wall is a wall except in the door opening.
    assert m.walls[_cell(m, 4.0, 0.5)]
    assert not m.walls[_cell(m, 4.0, 1.5)]
    # Structure objects the benchmark names: 8 walls, a doorway, a window, plus the sink basin.
    cats = sorted(o.category for o in m.objects)
    assert cats.count("wall") == 8
    assert "doorway" in cats and "window" in cats and "sink_basin" in cats


def test_objects_footprints_heights_and_parents(house_json):
    m = from_procthor_house(house_json, name="hand")
    bed = m.get_object("1|0")
    assert bed.category == "bed" and bed.room_id == 0 and bed.asset_id == "Bed_14"
    xs = [p[0] for p in bed.footprint]
    ys = [p[1] for p in bed.footprint]
    assert (min(xs), max(xs)) == pytest.approx((1.5 - 0.6982, 1.5 + 0.6982), abs=1e-3)
    assert (min(ys), max(ys)) == pytest.approx((1.5 - 1.2017, 1.5 + 1.2017), abs=1e-3)
    assert bed.z_min == pytest.approx(0.0, abs=1e-3)
    assert bed.z_max == pytest.approx(0.7266, abs=1e-3)
    apple = m.get_object("small|2|0")
    assert apple.category == "apple" and apple.parent_id == "2|0" and apple.room_id == 1
    assert [o.id for o in m.children_of("2|0")] == ["small|2|0"]
    assert m.get_object("2|0").category == "counter_top"
    basin = m.get_object("2|1|SinkBasin")
    assert basin.parent_id == "2|1" and basin.category == "sink_basin"


def test_rotation_turns_the_footprint(house_json):
    house_json["objects"][0]["rotation"]["y"] = 90
    m = from_procthor_house(house_json, name="hand")
    bed = m.get_object("1|0")
    xs = [p[0] for p in bed.footprint]
    assert max(xs) - min(xs) == pytest.approx(2.4034, abs=1e-3)


def test_traversable_is_eroded_free_space_and_doors_stay_open(house_json):
    m = from_procthor_house(house_json, name="hand")
    assert m.traversable[_cell(m, 4.0, 1.5)]  # the middle of the door
    assert not m.traversable[_cell(m, 1.5, 1.5)]  # under the bed
    assert not m.traversable[_cell(m, 0.1, 1.5)]  # closer than the robot radius to a wall
    assert not m.traversable[_cell(m, 1.5, 2.8)]  # 0.10 m beyond the bed's end
    assert m.traversable[_cell(m, 3.3, 1.5)]  # open floor
    # Every traversable cell is farther than the robot radius from the bed footprint.
    xx, yy = m.grid.cell_centres()
    near_bed = (np.abs(xx - 1.5) < 0.6982 + ROBOT_RADIUS_M - 0.05) & \
        (np.abs(yy - 1.5) < 1.2017 + ROBOT_RADIUS_M - 0.05)
    assert not (m.traversable & near_bed).any()
    assert unreachable_rooms(m) == []
    assert impassable_doors(m) == []


def test_a_blocked_door_disconnects_the_rooms(house_json):
    house_json["objects"].append({"id": "1|9", "assetId": "Bed_14",
                                  "position": {"x": 3.3, "y": 0.3633, "z": 1.5},
                                  "rotation": {"x": 0, "y": 0, "z": 0}})
    m = from_procthor_house(house_json, name="hand")
    assert impassable_doors(m) == ["door|1|2"]
    assert unreachable_rooms(m) != []


def test_open_wall_joins_rooms_without_a_door(house_json):
    house_json["doors"] = []
    for w in house_json["walls"]:
        if w["id"].endswith("4.00|0.00|4.00|3.00"):
            w["empty"] = True
    m = from_procthor_house(house_json, name="hand")
    assert [d.id for d in m.doors] == ["opening|1|2"]
    assert not m.walls[_cell(m, 4.0, 0.5)]
    assert unreachable_rooms(m) == []


@pytest.mark.parametrize(("edit", "needle"), [
    (lambda h: h.update(rooms=[]), "no rooms"),
    (lambda h: h["objects"][0].update(assetId="Bed_1400"), "Unknown ProcTHOR assetId 'Bed_1400'"),
    (lambda h: h["doors"][0].update(room1="room|7"), "unknown room 'room|7'"),
    (lambda h: h["doors"][0].update(wall0="wall|x"), "unknown wall 'wall|x'"),
    (lambda h: h["rooms"][0].pop("floorPolygon"), "floorPolygon"),
], ids=["no-rooms", "unknown-asset", "unknown-room", "unknown-wall", "missing-key"])
def test_bad_houses_are_named(house_json, edit, needle):
    edit(house_json)
    with pytest.raises(SceneError, match=None) as info:
        from_procthor_house(house_json, name="bad")
    assert needle in str(info.value)


def test_resolution_changes_the_grid_not_the_geometry(house_json):
    coarse = from_procthor_house(house_json, name="hand", resolution=0.1)
    fine = from_procthor_house(house_json, name="hand", resolution=0.05)
    assert coarse.grid.rows * 2 == pytest.approx(fine.grid.rows, abs=1)
    assert math.isclose(coarse.get_object("1|0").radius_m, fine.get_object("1|0").radius_m)
