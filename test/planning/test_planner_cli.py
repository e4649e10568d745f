"""End to end: ``map2route plan`` (``bench planner``: test/bench/planner/test_speed.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from map2route.cli import main
from map2route.routeir import Constraint, ConstraintKind, RouteIR, Stage, routeir_to_json
from map2route.routeir.regions import footprint_region, object_goal_region
from map2route.semantic_map import save_scene


@pytest.fixture
def scene_and_ir(tmp_path, two_room_map):
    m = two_room_map
    scene = save_scene(m, tmp_path / "two_room_house")
    ir = RouteIR(stages=(Stage(target=object_goal_region(m, m.get_object("fridge_0")),
                               label="the fridge"),),
                 constraints=(Constraint(ConstraintKind.FAR,
                                         footprint_region(m, [m.get_object("bed_0")])),),
                 grid=m.grid, start=(0.5, 0.3), scene=m.name)
    path = tmp_path / "ir.json"
    path.write_text(json.dumps(routeir_to_json(ir)))
    return scene, path, m


def test_plan_prints_route_json_and_saves_it(scene_and_ir, tmp_path, capsys) -> None:
    scene, ir_path, m = scene_and_ir
    out = tmp_path / "route.json"
    assert main(["plan", str(scene), str(ir_path), "--json", "--save", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == json.loads(out.read_text())
    pts = np.array(doc["points"])
    goal = object_goal_region(m, m.get_object("fridge_0")).mask(m.grid)
    assert goal[m.grid.world_to_cell(*pts[-1])]
    assert doc["length_m"] == pytest.approx(sum(doc["stage_lengths_m"]), abs=1e-3)


def test_plan_text_output_and_hard_only(scene_and_ir, capsys) -> None:
    scene, ir_path, _ = scene_and_ir
    assert main(["plan", str(scene), str(ir_path), "--hard-only"]) == 0
    text = capsys.readouterr().out
    assert "stage 1: the fridge" in text


def test_plan_bad_routeir_file_is_an_error(scene_and_ir, tmp_path, capsys) -> None:
    scene, _, _ = scene_and_ir
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["plan", str(scene), str(bad)]) == 1
    assert "Error:" in capsys.readouterr().err


def test_plan_infeasible_names_the_stage(scene_and_ir, tmp_path, capsys) -> None:
    scene, ir_path, _ = scene_and_ir
    assert main(["plan", str(scene), str(ir_path), "--start", "50", "50"]) == 1
    err = capsys.readouterr().err
    assert "Error:" in err and "outside the map" in err


def test_plan_draws_the_route_over_the_scene(scene_and_ir, tmp_path) -> None:
    scene, ir_path, _ = scene_and_ir
    png = tmp_path / "route.png"
    assert main(["plan", str(scene), str(ir_path), "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
