"""The scene commands end to end: exit codes and messages."""

from __future__ import annotations

import json

import pytest

from map2route.cli import main
from map2route.scenes import from_procthor_house
from map2route.semantic_map import save_scene


@pytest.fixture
def maps(tmp_path, monkeypatch, two_room_map, house_json):
    root = tmp_path / "maps"
    save_scene(two_room_map, root / "procthor_00001")
    save_scene(from_procthor_house(house_json, name="procthor_00002"), root / "procthor_00002")
    (root / "index.json").write_text(json.dumps(
        {"test": ["procthor_00002"], "dev": ["procthor_00001"], "default": "procthor_00002"}))
    monkeypatch.setenv("MAP2ROUTE_MAPS", str(root))
    return root


def test_render_a_shipped_scene_by_name(maps, tmp_path, capsys):
    out = tmp_path / "r.png"
    assert main(["render", "procthor_00001", "-o", str(out), "--dpi", "50"]) == 0
    assert out.stat().st_size > 5000
    assert str(out) in capsys.readouterr().out


def test_unknown_scene_exits_1_with_a_suggestion(maps, tmp_path, capsys):
    assert main(["render", "procthor_0001", "-o", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: No scene 'procthor_0001'")
    assert "did you mean procthor_00001" in err
    assert "Traceback" not in err


def test_usage_error_exits_2(maps, capsys):
    assert main(["render", "procthor_00001"]) == 2
    assert "Missing option '-o'" in capsys.readouterr().err


def test_stats_json(maps, capsys):
    assert main(["scenes", "stats", str(maps), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["scenes"] == 2 and doc["mean_rooms"] == 2.0
    assert doc["categories"] > 5 and doc["mean_objects"] > 10


def test_stats_table_and_missing_folder(maps, tmp_path, capsys):
    assert main(["scenes", "stats", str(maps)]) == 0
    assert "mean rooms per scene" in capsys.readouterr().out
    assert main(["scenes", "stats", str(tmp_path / "none")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_demo_prints_a_summary_and_writes_the_png(maps, tmp_path, capsys):
    # The hand-made house has no teddy bear: route something it holds.
    assert main(["demo", "--out", str(tmp_path / "demo"),
                 "--instruction", "go to the apple on the counter, then the bed"]) == 0
    out = capsys.readouterr().out
    assert "procthor_00002" in out and "kitchen" in out and "bedroom" in out
    assert "stage 1" in out and "stage 2" in out
    assert (tmp_path / "demo" / "procthor_00002.png").stat().st_size > 5000
    assert (tmp_path / "demo" / "procthor_00002_route.png").stat().st_size > 5000


def test_demo_sample_instruction_routes_on_the_shipped_default_scene(tmp_path, capsys,
                                                                     monkeypatch):
    # What `make demo` runs: the shipped maps/ and the built-in sample instruction.
    monkeypatch.delenv("MAP2ROUTE_MAPS", raising=False)
    assert main(["demo", "--out", str(tmp_path / "demo")]) == 0
    out = capsys.readouterr().out
    assert "teddy bear" in out.lower() and "stage 2" in out
    assert list((tmp_path / "demo").glob("*_route.png"))


def test_demo_without_an_index(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MAP2ROUTE_MAPS", str(tmp_path))
    assert main(["demo", "--out", str(tmp_path / "d")]) == 1
    assert "map2route scenes generate" in capsys.readouterr().err


def test_import_and_export(maps, tmp_path, house_json, capsys):
    house = tmp_path / "house.json"
    house.write_text(json.dumps(house_json))
    assert main(["scenes", "import", str(house), "-o", str(tmp_path / "hand")]) == 0
    assert main(["scenes", "export", str(tmp_path / "hand"), "-o", str(tmp_path / "o.json")]) == 0
    assert main(["scenes", "import", str(tmp_path / "o.json"), "--format", "map2route",
                 "-o", str(tmp_path / "back")]) == 0
    assert "2 rooms" in capsys.readouterr().out
    assert main(["scenes", "import", str(tmp_path / "missing.json"), "-o",
                 str(tmp_path / "z")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_every_scene_command_takes_a_shipped_name(maps, tmp_path, capsys):
    # By name and by "default" (the `map` commands took only a folder before resolve_scene was
    # shared), and an unknown name gets the same suggestion as `render`.
    assert main(["map", "export-sdf", "procthor_00001", "-o", str(tmp_path / "w.sdf")]) == 0
    assert "<sdf" in (tmp_path / "w.sdf").read_text()
    assert main(["scenes", "export", "default", "-o", str(tmp_path / "m.json")]) == 0
    assert json.loads((tmp_path / "m.json").read_text())
    assert main(["map", "export-sdf", "procthor_0001", "-o", str(tmp_path / "x.sdf")]) == 1
    assert "did you mean procthor_00001" in capsys.readouterr().err
