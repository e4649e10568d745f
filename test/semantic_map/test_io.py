"""Scene folders: round trip, validation errors, atomic writes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from map2route.semantic_map import MapError, load_scene, save_scene


def test_round_trip_keeps_every_layer_and_entity(two_room_map, tmp_path) -> None:
    save_scene(two_room_map, tmp_path / "s")
    back = load_scene(tmp_path / "s")
    assert back.grid == two_room_map.grid
    for layer in ("traversable", "walls", "room_ids"):
        assert np.array_equal(getattr(back, layer), getattr(two_room_map, layer)), layer
    assert back.rooms == two_room_map.rooms
    assert back.objects == two_room_map.objects
    assert back.doors == two_room_map.doors
    assert back.windows == two_room_map.windows


def test_nav2_yaml_fields_are_present(two_room_map, tmp_path) -> None:
    import yaml

    save_scene(two_room_map, tmp_path / "s")
    meta = yaml.safe_load((tmp_path / "s" / "map.yaml").read_text())
    assert set(meta) >= {"image", "resolution", "origin", "negate", "occupied_thresh",
                         "free_thresh", "mode"}
    header = (tmp_path / "s" / "map.pgm").read_bytes()[:2]
    assert header == b"P5"


def test_missing_files_are_all_named(tmp_path) -> None:
    (tmp_path / "s").mkdir()
    with pytest.raises(MapError) as err:
        load_scene(tmp_path / "s")
    text = str(err.value)
    for name in ("map.yaml", "semantics.json", "rooms.png", "walls.png"):
        assert name in text


def test_bad_schema_version_is_rejected_by_name(two_room_map, tmp_path) -> None:
    save_scene(two_room_map, tmp_path / "s")
    p = tmp_path / "s" / "semantics.json"
    doc = json.loads(p.read_text())
    doc["schema_version"] = "map2route.semantics/99"
    p.write_text(json.dumps(doc))
    with pytest.raises(MapError, match="semantics/99"):
        load_scene(tmp_path / "s")


def test_unknown_room_and_outside_object_are_reported(two_room_map, tmp_path) -> None:
    save_scene(two_room_map, tmp_path / "s")
    p = tmp_path / "s" / "semantics.json"
    doc = json.loads(p.read_text())
    doc["objects"][0]["room_id"] = 42
    doc["objects"][1]["center"] = [100.0, 100.0]
    p.write_text(json.dumps(doc))
    with pytest.raises(MapError) as err:
        load_scene(tmp_path / "s")
    assert "unknown room 42" in str(err.value)
    assert "outside the map" in str(err.value)


def test_size_mismatch_is_reported(two_room_map, tmp_path) -> None:
    import cv2

    save_scene(two_room_map, tmp_path / "s")
    cv2.imwrite(str(tmp_path / "s" / "walls.png"), np.zeros((5, 5), np.uint8))
    with pytest.raises(MapError, match="walls.png is 5x5"):
        load_scene(tmp_path / "s")


def test_goal_region_is_room_cells_within_radius_plus_one_metre(two_room_map) -> None:
    fridge = two_room_map.get_object("fridge_0")
    mask = two_room_map.goal_region_mask(fridge)
    xx, yy = two_room_map.grid.cell_centres()
    r = fridge.radius_m + 1.0
    assert abs(fridge.radius_m - np.hypot(0.35, 0.35)) < 1e-9
    expected = ((xx - 5.5) ** 2 + (yy - 3.5) ** 2 <= r * r) & (two_room_map.room_ids == 1)
    assert np.array_equal(mask, expected)
