"""Official Map2Route map JSON: write, read back, compare."""

from __future__ import annotations

import json

import numpy as np
import pytest

from map2route.scenes import SceneError, from_procthor_house, read_official_map, write_official_map
from map2route.scenes.official import FREE, OBSTACLE, UNKNOWN, from_official_json, to_official_json


def _same(a, b):
    assert a.grid == b.grid
    assert np.array_equal(a.traversable, b.traversable)
    assert np.array_equal(a.walls, b.walls)
    assert np.array_equal(a.room_ids, b.room_ids)
    assert a.rooms == b.rooms
    assert a.objects == b.objects
    assert a.doors == b.doors
    assert a.windows == b.windows


def test_round_trip_synthetic(two_room_map, tmp_path):
    path = write_official_map(two_room_map, tmp_path / "map.json")
    back = read_official_map(path)
    _same(two_room_map, back)
    assert back.name == "two_room_house"


def test_round_trip_procthor_house(house_json, tmp_path):
    m = from_procthor_house(house_json, name="hand")
    _same(m, read_official_map(write_official_map(m, tmp_path / "hand.json")))


def test_layers_follow_the_official_codes(two_room_map):
    doc = to_official_json(two_room_map)
    rows, cols = two_room_map.grid.shape
    # The official grid is square (grid_size N): ours is padded with obstacle cells.
    assert doc["grid_size"] == max(rows, cols)
    assert doc["metadata"]["original_grid_shape"] == [rows, cols]
    occ = np.asarray(doc["layers"]["occupancy"])
    assert (occ[rows:] == OBSTACLE).all()
    occ = occ[:rows, :cols]
    assert set(np.unique(occ).tolist()) <= {FREE, OBSTACLE, UNKNOWN}
    assert np.array_equal(occ == FREE, two_room_map.traversable)
    inst = np.asarray(doc["layers"]["object_instance"])
    bed_id = next(o["id"] for o in doc["object_instances"] if o["name"] == "bed_0")
    r, c = two_room_map.grid.world_to_cell(1.0, 3.0)
    assert inst[r, c] == bed_id
    apple = next(o for o in doc["object_instances"] if o["name"] == "apple_0")
    table = next(o for o in doc["object_instances"] if o["name"] == "dining_table_0")
    assert apple["attributes"]["parent"] == table["id"]


def test_minimal_file_without_footprints_or_polygons(two_room_map):
    doc = to_official_json(two_room_map)
    doc.pop("object_footprints")
    doc["layers"].pop("wall")
    for r in doc["room_instances"]:
        r["attributes"] = {}
    for o in doc["object_instances"]:
        o["attributes"] = {}
        o.pop("room_id")
    m = from_official_json(json.loads(json.dumps(doc)), name="minimal")
    bed = m.get_object("bed_0")
    xs = [p[0] for p in bed.footprint]
    assert (min(xs), max(xs)) == pytest.approx((0.4, 1.6), abs=0.051)
    assert bed.room_id == 0
    assert m.rooms[0].area_m2 == pytest.approx(two_room_map.rooms[0].area_m2, rel=0.1)


def test_top_down_rows_are_flipped(two_room_map):
    doc = to_official_json(two_room_map)
    doc["metadata"]["map_info"]["row_order"] = "top_down"
    for key, layer in doc["layers"].items():
        doc["layers"][key] = layer[::-1]
    m = from_official_json(doc, name="flipped")
    assert np.array_equal(m.traversable, two_room_map.traversable)


@pytest.mark.parametrize(("edit", "needle"), [
    (lambda d: d.pop("grid_size"), "grid_size"),
    (lambda d: d["layers"].pop("room"), "layers.room"),
    (lambda d: d["layers"].update(occupancy=[[0]]), "layers.occupancy is (1, 1)"),
], ids=["no-grid-size", "no-room-layer", "bad-shape"])
def test_bad_files_are_named(two_room_map, edit, needle):
    doc = to_official_json(two_room_map)
    edit(doc)
    with pytest.raises(SceneError) as info:
        from_official_json(doc, name="bad")
    assert needle in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(SceneError, match="does not exist"):
        read_official_map(tmp_path / "nope.json")
