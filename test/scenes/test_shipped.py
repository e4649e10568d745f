"""The shipped scenes in maps/: index, loadability, reachability, statistics targets."""

from __future__ import annotations

import json

import pytest

from map2route.paths import PACKAGE_ROOT
from map2route.scenes.checks import impassable_doors, unreachable_rooms
from map2route.scenes.stats import scene_set_stats
from map2route.semantic_map import RoomType, load_scene

MAPS = PACKAGE_ROOT / "maps"
INDEX = json.loads((MAPS / "index.json").read_text())
NAMES = INDEX["dev"] + INDEX["test"]


def test_index_lists_40_test_and_4_disjoint_dev_scenes():
    assert len(INDEX["test"]) == 40
    assert len(INDEX["dev"]) == 4
    assert not set(INDEX["test"]) & set(INDEX["dev"])
    assert INDEX["default"] in NAMES
    assert sorted(p.name for p in MAPS.iterdir() if (p / "map.yaml").is_file()) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_room_is_reachable_through_doors(name):
    m = load_scene(MAPS / name)
    assert unreachable_rooms(m) == []
    assert impassable_doors(m) == []
    assert m.room_adjacency and all(m.room_adjacency[r.id] for r in m.rooms) or len(m.rooms) == 1


def test_scene_set_meets_the_targets():
    s = scene_set_stats(MAPS)
    assert s.scenes == 44
    assert s.mean_rooms >= 7.5
    assert s.mean_objects >= 200
    # Every ProcTHOR room type (hallways occur only in official simple-demo maps).
    assert set(s.rooms_by_type) == {t.snake for t in RoomType} - {"hallway"}
    assert s.vocabulary_covered >= 85
