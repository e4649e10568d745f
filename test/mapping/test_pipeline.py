"""End to end on the two-room house: simulate a small bag, build, score, export; the CLI."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("open3d")

from map2route.cli import main  # noqa: E402
from map2route.mapping.builder import build_from_bag  # noqa: E402
from map2route.mapping.detectors import GroundTruthDetector  # noqa: E402
from map2route.mapping.score import score_map  # noqa: E402
from map2route.mapping.simulate import SimConfig, simulate  # noqa: E402
from map2route.semantic_map.io import load_scene, save_scene  # noqa: E402

_DEFAULT = SimConfig.from_yaml()
SMALL = SimConfig.from_yaml(image_width=480, crop_rows=160,
                            lidar=replace(_DEFAULT.lidar, points_per_scan=6000))


@pytest.fixture(scope="module")
def bag(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from map2route.semantic_map.synthetic import two_room_house

    out = tmp_path_factory.mktemp("sim") / "bag"
    simulate(two_room_house(), out, config=SMALL, progress=False)
    return out


def test_built_map_finds_rooms_door_and_large_objects(bag, two_room_map) -> None:  # type: ignore[no-untyped-def]
    res = build_from_bag(bag, name="built", detector=GroundTruthDetector(), progress=False)
    s = score_map(res.map, two_room_map)
    assert len(res.map.rooms) == 2
    assert s.room_accuracy >= 0.9
    assert s.room_type_accuracy == 1.0
    assert len(res.map.doors) == 1
    door_x = res.map.doors[0].center[0]
    assert abs(door_x - 3.0) < 0.15
    found = {o.category for o in res.map.objects}
    assert {"bed", "fridge", "dining_table", "chair"} <= found
    assert s.precision >= 0.8
    assert s.traversability_iou > 0.6


def test_cli_build_score_export(bag, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from map2route.semantic_map.synthetic import two_room_house

    truth = save_scene(two_room_house(), tmp_path / "truth")
    assert main(["map", "build", "--bag", str(bag), "-o", str(tmp_path / "built")]) == 0
    assert "2 rooms" in capsys.readouterr().out
    assert main(["map", "score", str(tmp_path / "built"), str(truth), "--json"]) == 0
    assert '"room_accuracy"' in capsys.readouterr().out
    assert main(["map", "export-sdf", str(tmp_path / "built"), "-o", str(tmp_path / "w.sdf")]) == 0
    assert "<model name=\"obj_bed_0\">" in (tmp_path / "w.sdf").read_text()
    load_scene(tmp_path / "built")


def test_cli_errors_name_the_problem(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["map", "build", "--bag", str(tmp_path / "none"), "-o", str(tmp_path / "x")]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert main(["map", "build", "--bag", str(tmp_path), "-o", str(tmp_path / "x"),
                 "--room-type", "bogus"]) == 1


def test_instance_pixels_and_score_bag(bag, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from map2route.mapping.bag import instance_pixels
    from map2route.semantic_map.synthetic import two_room_house

    house = two_room_house()
    ids, px, width = instance_pixels(bag)
    assert width == 480 and ids[0] == ""
    assert set(ids[1:]) == {o.id for o in house.objects}
    assert px[ids.index("fridge_0")] > 500  # a 1.8 m fridge fills many pixels
    truth = save_scene(house, tmp_path / "truth")
    assert main(["map", "build", "--bag", str(bag), "-o", str(tmp_path / "built")]) == 0
    capsys.readouterr()
    assert main(["map", "score", str(tmp_path / "built"), str(truth), "--json",
                 "--bag", str(bag)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["recall_tall_seen"] >= out["recall_tall"]
    assert "fridge_0" not in out["unseen_tall"]
