"""Official Map2Route episode files: conversion and scoring their human trajectory."""

from __future__ import annotations

import json

import pytest

from map2route.bench.errors import BenchmarkError
from map2route.bench.map2route.official import read_official_episode
from map2route.bench.map2route.scoring import score_route
from map2route.cli import main


def _official(m) -> dict:
    g = m.grid
    fridge_rc = list(g.world_to_cell(5.5, 3.5))
    bed = m.get_object("bed_0")
    bed_cells = [[int(r), int(c)] for r, c in zip(*m.footprint_mask([bed]).nonzero(), strict=True)]
    start = g.world_to_cell(0.625, 2.025)
    human = [list(g.world_to_cell(x, 2.025)) for x in (0.625, 2.0, 3.0, 4.0, 5.525)]
    human.append(list(g.world_to_cell(5.525, 2.325)))
    return {
        "id": "official_0001", "map_id": m.name, "instruction": "Go to the fridge, hug the bed.",
        "difficulty_level": "easy", "start_pose": {"row": start[0], "col": start[1]},
        "human_expert_trajectory": human,
        "hard_constraints": [
            {"constraint_id": "h0", "kind": "must_pass", "order": 1, "shape": "circle",
             "center": list(start), "radius": 2},
            {"constraint_id": "h1", "kind": "must_pass", "order": 2, "shape": "circle",
             "center": fridge_rc, "radius": 30},
            {"constraint_id": "h2", "kind": "must_avoid", "order": None, "shape": "rectangle",
             "center": list(g.world_to_cell(1.0, 0.5)), "width": 6, "height": 6,
             "scope": {"type": "global"}},
        ],
        "soft_constraints": [
            {"constraint_id": "s1", "preference_type": "near_preference", "shape": "freeform",
             "cells": [list(g.world_to_cell(x, 2.025)) for x in (0.875, 0.925, 0.975)],
             "reference_region": {"cells": bed_cells},
             "scope": {"type": "between_hard_constraints", "from_order": 1, "to_order": 2}},
            {"constraint_id": "s2", "preference_type": "move_smoothness"},
        ],
        "feasible": True,
    }


def test_official_episode_scores_like_ours(two_room_map) -> None:
    off = read_official_episode(_official(two_room_map), two_room_map.grid)
    ep = off.episode
    assert ep.split == "easy" and len(ep.routeir.stages) == 1
    assert ep.routeir.constraints[1].temporal_scope == (0,)
    assert ep.metadata["ignored_preferences"] == ["move_smoothness"]
    assert len(ep.metadata["record_region"]) == 13  # radius 2 cells: 13 cell centres
    score = score_route(ep, two_room_map, off.human_trajectory)
    assert score.success and score.hcs == 1.0
    # The three active cells sit 0.2 m below the bed's lowest cell row.
    assert score.near == pytest.approx(0.2)


def test_a_trajectory_that_never_leaves_the_start_scores_zero(two_room_map) -> None:
    data = _official(two_room_map)
    ep = read_official_episode(data, two_room_map.grid).episode
    start = [data["start_pose"]["row"], data["start_pose"]["col"]]
    # The record region is not a stage: staying in it completes nothing (officially 0; the
    # old conversion made it stage 1 and scored 0.5).
    score = score_route(ep, two_room_map, None, grid_points=[start, start])
    assert score.hcs == 0.0 and not score.success and score.spl == 0.0


def test_an_episode_without_a_target_after_the_record_region_is_refused(two_room_map) -> None:
    data = _official(two_room_map)
    data["hard_constraints"] = data["hard_constraints"][:1]
    with pytest.raises(BenchmarkError, match="record region"):
        read_official_episode(data, two_room_map.grid)


def test_malformed_official_episode_names_the_field(two_room_map) -> None:
    data = _official(two_room_map)
    del data["start_pose"]
    with pytest.raises(BenchmarkError, match="official_0001.*start_pose"):
        read_official_episode(data, two_room_map.grid)


def test_convert_official_then_replay_human(tmp_path, two_room_scene, two_room_map, capsys) -> None:
    src = tmp_path / "official"
    src.mkdir()
    (src / "0001.json").write_text(json.dumps(_official(two_room_map)))
    out = tmp_path / "converted.jsonl"
    assert main(["episodes", "convert-official", str(src), "--scenes", str(two_room_scene),
                 "--out", str(out)]) == 0
    capsys.readouterr()
    code = main(["bench", "map2route", "--method", "human", "--episodes", str(out), "--scenes",
                 str(two_room_scene), "--out", str(tmp_path / "run"), "--workers", "1", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metrics"]["easy"]["hcs"] == 1.0
    assert data["metrics"]["easy"]["near"] == pytest.approx(0.2)


def test_row_origin_top_flips_rows(two_room_map) -> None:
    data = _official(two_room_map)
    rows = two_room_map.grid.rows

    def flip(rc):
        return [rows - 1 - rc[0], rc[1]]

    data["start_pose"] = dict(zip(("row", "col"), flip([data["start_pose"]["row"],
                                                        data["start_pose"]["col"]]), strict=True))
    data["human_expert_trajectory"] = [flip(p) for p in data["human_expert_trajectory"]]
    for c in data["hard_constraints"]:
        c["center"] = flip(c["center"])
    s1 = data["soft_constraints"][0]
    s1["cells"] = [flip(p) for p in s1["cells"]]
    s1["reference_region"]["cells"] = [flip(p) for p in s1["reference_region"]["cells"]]
    off = read_official_episode(data, two_room_map.grid, row_origin="top")
    plain = read_official_episode(_official(two_room_map), two_room_map.grid)
    assert off.episode.start_xy == plain.episode.start_xy
    score = score_route(off.episode, two_room_map, off.human_trajectory)
    assert score.success and score.near == pytest.approx(0.2)
