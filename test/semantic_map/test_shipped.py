"""resolve_scene: a folder, a shipped name, "default", and an unknown name with suggestions."""

from __future__ import annotations

import json

import pytest

from map2route.semantic_map import MapError
from map2route.semantic_map.shipped import resolve_scene, shipped_index, shipped_scene_names


@pytest.fixture
def maps(tmp_path, monkeypatch):
    root = tmp_path / "maps"
    for name in ("procthor_00001", "procthor_00002"):
        (root / name).mkdir(parents=True)
        (root / name / "map.yaml").write_text("image: map.pgm\n")
    (root / "notes").mkdir()  # a folder without map.yaml is not a shipped scene
    (root / "index.json").write_text(json.dumps(
        {"test": ["procthor_00002"], "dev": ["procthor_00001"], "default": "procthor_00002"}))
    monkeypatch.setenv("MAP2ROUTE_MAPS", str(root))
    return root


def test_a_folder_is_taken_as_it_is(maps, tmp_path) -> None:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    assert resolve_scene(str(folder)) == folder
    assert resolve_scene(folder) == folder


def test_a_shipped_name_and_default(maps) -> None:
    assert resolve_scene("procthor_00001") == maps / "procthor_00001"
    assert resolve_scene("default") == maps / "procthor_00002"
    assert shipped_scene_names() == ["procthor_00001", "procthor_00002"]
    assert shipped_index()["test"] == ["procthor_00002"]


def test_an_unknown_name_suggests_the_nearest(maps) -> None:
    with pytest.raises(MapError) as info:
        resolve_scene("procthor_0001")
    msg = str(info.value)
    assert msg.startswith("No scene 'procthor_0001'") and "does not exist" in msg
    assert "did you mean procthor_00001" in msg
    with pytest.raises(MapError, match="shipped scenes are in"):
        resolve_scene("kitchen")
    with pytest.raises(MapError, match="No scene 'notes'"):  # no map.yaml: not a shipped scene
        resolve_scene("notes")


def test_a_missing_index_says_how_to_make_it(maps) -> None:
    (maps / "index.json").unlink()
    with pytest.raises(MapError, match="scenes generate"):
        resolve_scene("default")
