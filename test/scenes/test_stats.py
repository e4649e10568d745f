"""Scene-set statistics over saved scenes."""

from __future__ import annotations

import pytest

from map2route.scenes import SceneError, from_procthor_house
from map2route.scenes.stats import scene_set_stats
from map2route.semantic_map import save_scene


def test_stats_of_two_scenes(two_room_map, house_json, tmp_path):
    save_scene(two_room_map, tmp_path / "a")
    hand = from_procthor_house(house_json, name="hand")
    save_scene(hand, tmp_path / "b")
    s = scene_set_stats(tmp_path)
    assert s.scenes == 2
    assert s.mean_rooms == 2.0
    assert s.mean_objects == pytest.approx((len(two_room_map.objects) + len(hand.objects)) / 2, abs=0.05)
    assert s.rooms_by_type == {"bedroom": 2, "kitchen": 2}
    assert s.objects_by_category["chair"] == 3
    assert s.objects_by_category["wall"] == 8
    assert s.categories == len(two_room_map.categories() | hand.categories())
    assert "toilet" in s.vocabulary_missing and "bed" not in s.vocabulary_missing
    structure = sum(1 for o in hand.objects if o.category in {"wall", "doorway", "window"})
    assert s.mean_objects_without_structure == pytest.approx(s.mean_objects - structure / 2, abs=0.05)
    assert s.mean_floor_area_m2 == pytest.approx((24 + 21) / 2, abs=0.1)
    doc = s.to_json()
    assert {"scenes", "mean_rooms", "mean_objects", "categories"} <= set(doc)


def test_stats_errors(tmp_path):
    with pytest.raises(SceneError, match="does not exist"):
        scene_set_stats(tmp_path / "nope")
    with pytest.raises(SceneError, match="No scenes"):
        scene_set_stats(tmp_path)
