"""The official evaluator's semantics on hand-built official-format files, scored by hand.

The map, episodes and trajectories are written from the documented official format
(shared/data/map2route/README.md); each expected number follows the evaluator's algorithm
(BaoBao0926/Map2Route scripts/evaluation) step by step in the comments.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from map2route.bench.map2route import official_metrics as om
from map2route.bench.map2route.official import read_official_episode
from map2route.bench.map2route.scoring import score_route, summarize
from map2route.cli import main
from map2route.scenes.official import read_official_map, to_official_json
from map2route.semantic_map.model import RoomType

N = 10
WALL = [(r, 5) for r in (0, 1, 2, 3, 6, 7, 8, 9)]  # one wall instance in two parts
TABLE = [(2, 2), (2, 3)]


def _official_map() -> dict:
    occupancy = np.zeros((N, N), dtype=int)
    room = np.zeros((N, N), dtype=int)
    room[:, :5] = 1
    room[:, 6:] = 2
    instance = np.zeros((N, N), dtype=int)
    for r, c in WALL:
        occupancy[r, c], instance[r, c] = 1, 1
    for r, c in TABLE:
        occupancy[r, c], instance[r, c] = 1, 2
    return {
        "grid_size": N,
        "metadata": {"map_id": "hand_001", "map_info": {"resolution": 0.1}},
        "layers": {"occupancy": occupancy.tolist(), "room": room.tolist(),
                   "object_instance": instance.tolist()},
        "room_instances": [{"id": 1, "category": "hallway", "name": "hallway_1",
                            "attributes": ["area=5.0"]},
                           {"id": 2, "category": "kitchen", "name": "kitchen_1",
                            "attributes": []}],
        "object_instances": [{"id": 1, "category": "wall", "name": "wall_1", "attributes": []},
                             {"id": 2, "category": "table", "name": "table_1",
                              "attributes": ["asset_id=Table_1"]}],
    }


def _cell(rc):
    return {"shape": "freeform", "cells": [list(rc)]}


def _episode(avoids=(), soft=()) -> dict:
    hard = [{"constraint_id": "record", "kind": "must_pass", "order": 1, **_cell((5, 0))},
            {"constraint_id": "t1", "kind": "must_pass", "order": 2, **_cell((5, 2))},
            {"constraint_id": "t2", "kind": "must_pass", "order": 3, **_cell((5, 4))}]
    return {"id": "hand_ep", "map_id": "hand_001", "instruction": "along the hallway",
            "difficulty_level": "easy", "start_pose": {"row": 5, "col": 0},
            "human_expert_trajectory": [[5, c] for c in range(5)],
            "hard_constraints": hard + list(avoids), "soft_constraints": list(soft)}


def _avoid(rc, scope=None) -> dict:
    return {"constraint_id": f"avoid_{rc[0]}_{rc[1]}", "kind": "must_avoid", "order": None,
            **_cell(rc), "scope": scope or {"type": "global"}}


STRAIGHT = [[5, c] for c in range(5)]


@pytest.fixture
def hand_map(tmp_path):
    path = tmp_path / "hand_001.json"
    path.write_text(json.dumps(_official_map()))
    return read_official_map(path)


def _score(m, episode: dict, trajectory):
    ep = read_official_episode(episode, m.grid).episode
    return score_route(ep, m, None, grid_points=trajectory)


def test_the_official_map_reads_with_hallway_walls_and_wall_parts(hand_map) -> None:
    m = hand_map
    assert m.grid.shape == (N, N) and m.grid.resolution == 0.1
    assert {r.type for r in m.rooms} == {RoomType.HALLWAY, RoomType.KITCHEN}
    assert {(int(r), int(c)) for r, c in np.argwhere(m.walls)} == set(WALL)
    # The wall's two parts are two objects, neither hull spanning the door gap at rows 4-5.
    walls = [o for o in m.objects if o.category == "wall"]
    assert sorted(o.id for o in walls) == ["wall_1", "wall_1#part2"]
    spans = sorted((int(np.argwhere(m.footprint_mask([o]))[:, 0].min()),
                    int(np.argwhere(m.footprint_mask([o]))[:, 0].max())) for o in walls)
    assert spans[0][1] <= 4 and spans[1][0] >= 5
    assert m.get_object("table_1").asset_id == "Table_1"


def test_the_map_writes_back_with_the_same_layers(hand_map) -> None:
    out = to_official_json(hand_map)
    src = _official_map()
    assert out["grid_size"] == N
    assert out["layers"]["occupancy"] == src["layers"]["occupancy"]
    assert out["layers"]["object_instance"] == src["layers"]["object_instance"]
    assert [r["category"] for r in out["room_instances"]] == ["hallway", "kitchen"]
    assert [o["name"] for o in out["object_instances"]] == ["wall_1", "table_1"]


def test_hcs_every_target_in_order(hand_map) -> None:
    # t1 at (5,2) and t2 at (5,4) entered in order; the record region (5,0) is not scored.
    assert _score(hand_map, _episode(), STRAIGHT).hcs == 1.0


def test_a_global_avoid_touched_then_every_stage_scores_zero(hand_map) -> None:
    s = _score(hand_map, _episode([_avoid((5, 1))]), STRAIGHT)
    # compute_hcs: the progress completes both targets, but a global avoid touched -> 0.
    assert s.hcs == 0.0 and s.details["hcs"]["completed"] == 2
    assert s.details["hcs"]["global_must_avoid_violations"] == ["avoid_5_1"]
    # Our requirement count: 2 stages met + 1 avoid missed of 3 = 0.667 (the extra column).
    assert s.hcs_requirements == pytest.approx(2 / 3)


def test_an_active_scoped_avoid_stops_the_progress(hand_map) -> None:
    scope = {"type": "between_hard_constraints", "from_order": 2, "to_order": 3}
    s = _score(hand_map, _episode([_avoid((5, 3), scope)]), STRAIGHT)
    # t1 done at point (5,2); on segment (5,2)->(5,3) the avoid square is entered at t=0.5
    # while t2 is not on it: fail in transition 2 -> HCS = 1/2.
    assert s.hcs == 0.5 and s.details["hcs"]["first_failed_transition"] == 2
    assert s.spl == pytest.approx((1.0 + 0.0) / 2)


def test_an_avoid_scoped_to_another_transition_is_not_checked(hand_map) -> None:
    scope = {"type": "between_hard_constraints", "from_order": 1, "to_order": 2}
    s = _score(hand_map, _episode([_avoid((5, 3), scope)]), STRAIGHT)
    assert s.hcs == 1.0


def test_never_leaving_the_start_scores_zero(hand_map) -> None:
    s = _score(hand_map, _episode(), [[5, 0], [5, 0]])
    assert (s.hcs, s.success, s.spl) == (0.0, False, 0.0)


def test_a_diagonal_grazing_an_avoided_corner_touches_it() -> None:
    mask = np.zeros((N, N), dtype=bool)
    mask[4, 3] = True
    # (4,2)->(5,3) passes (4.5, 2.5), the corner of cell (4,3)'s square.
    assert om.trajectory_hits(np.array([[4.0, 2.0], [5.0, 3.0]]), mask)
    assert not om.trajectory_hits(np.array([[5.0, 2.0], [5.0, 3.0]]), mask)


def test_segment_wise_spl_measures_from_each_actual_start(hand_map) -> None:
    traj = [[5, 0], [4, 1], [5, 2], [5, 3], [5, 4]]
    s = _score(hand_map, _episode(), traj)
    # Segment 1 from (5,0): L = 2*sqrt(2) cells, L* = 2 -> 0.7071; segment 2 from (5,2),
    # the segment's actual start: L = L* = 2 -> 1. SPL = mean = 0.8536.
    assert s.spl == pytest.approx((2 / (2 * math.sqrt(2)) + 1.0) / 2)
    assert [seg["L_star_m"] for seg in s.details["segments"]] == pytest.approx([0.2, 0.2])


def test_clearance_averages_every_point_to_the_obstacles(hand_map) -> None:
    s = _score(hand_map, _episode(), [*STRAIGHT, [5, 4]])
    # Nearest obstacle cell per point: (5,0) table (2,2) sqrt 13; (5,1) table sqrt 10;
    # (5,2) table 3; (5,3) wall (6,5) sqrt 5; (5,4) wall (6,5) sqrt 2, counted twice.
    d = [math.sqrt(13), math.sqrt(10), 3.0, math.sqrt(5), math.sqrt(2), math.sqrt(2)]
    assert s.clearance == pytest.approx(np.mean(d) * 0.1)


def test_relative_with_d_a_zero_has_no_value_and_leaves_the_mean(hand_map) -> None:
    soft = {"constraint_id": "rel", "preference_type": "relative_preference",
            "shape": "freeform", "cells": [[5, 2]],
            "reference_regions": [{"cells": [[5, 2]]}, {"cells": [[5, 4]]}]}
    s = _score(hand_map, _episode(soft=[soft]), STRAIGHT)
    # The only point in the region, (5,2), lies on A: D_A = 0 -> no value (officially None).
    assert s.relative is None
    assert s.details["soft"][0]["status"] == "zero_distance_to_preferred_object"
    assert summarize([s])["all"]["n_relative"] == 0
    assert om.relative_value(np.array([[5.0, 3.0]]), np.array([[5.0, 2.0]]),
                             np.array([[5.0, 5.0]]))[0] == pytest.approx(2.0)


def test_score_trajectory_cli_on_official_files(tmp_path, hand_map, capsys) -> None:
    (tmp_path / "map.json").write_text(json.dumps(_official_map()))
    (tmp_path / "ep.json").write_text(json.dumps(_episode([_avoid((5, 1))])))
    (tmp_path / "traj.json").write_text(json.dumps({"trajectory": STRAIGHT}))
    code = main(["bench", "score-trajectory", "--scene", str(tmp_path / "map.json"),
                 "--episode", str(tmp_path / "ep.json"),
                 "--trajectory", str(tmp_path / "traj.json"), "--json"])
    assert code in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert data["hcs"] == 0.0 and data["hcs_requirements"] == pytest.approx(2 / 3)
    # The same route as map metres (cell centres of the 0.1 m grid, origin 0).
    metres = [[0.1 * c + 0.05, 0.1 * 5 + 0.05] for c in range(5)]
    (tmp_path / "xy.json").write_text(json.dumps(metres))
    main(["bench", "score-trajectory", "--scene", str(tmp_path / "map.json"),
          "--episode", str(tmp_path / "ep.json"), "--trajectory", str(tmp_path / "xy.json"),
          "--json"])
    assert json.loads(capsys.readouterr().out)["hcs"] == 0.0


def test_score_trajectory_cli_rejects_a_malformed_trajectory(tmp_path, capsys) -> None:
    (tmp_path / "map.json").write_text(json.dumps(_official_map()))
    (tmp_path / "ep.json").write_text(json.dumps(_episode()))
    (tmp_path / "traj.json").write_text(json.dumps({"points": []}))
    code = main(["bench", "score-trajectory", "--scene", str(tmp_path / "map.json"),
                 "--episode", str(tmp_path / "ep.json"),
                 "--trajectory", str(tmp_path / "traj.json")])
    assert code == 1
    assert "Error:" in capsys.readouterr().err


def test_official_episode_round_trips_through_our_form(hand_map) -> None:
    from map2route.bench.map2route.official import to_official_episode

    scope = {"type": "between_hard_constraints", "from_order": 2, "to_order": 3}
    near = {"constraint_id": "n", "preference_type": "near_preference", "shape": "freeform",
            "cells": [[5, 1], [5, 2], [5, 3]], "reference_region": {"cells": TABLE},
            "scope": scope}
    data = _episode([_avoid((5, 1)), _avoid((5, 3), scope)], soft=[near])
    ep = read_official_episode(data, hand_map.grid).episode
    back = read_official_episode(json.loads(json.dumps(to_official_episode(ep, hand_map.grid))),
                                 hand_map.grid).episode
    a, b = ep.routeir, back.routeir
    assert [s.target.cells.tolist() for s in a.stages] == [s.target.cells.tolist() for s in b.stages]
    assert [(c.kind, c.temporal_scope, c.region.cells.tolist()) for c in a.constraints] == \
        [(c.kind, c.temporal_scope, c.region.cells.tolist()) for c in b.constraints]
    assert back.metadata["record_region"] == ep.metadata["record_region"] == [[5, 0]]
    for traj in (STRAIGHT, [[5, 0], [4, 1], [5, 2], [5, 3], [5, 4]]):
        sa = score_route(ep, hand_map, None, grid_points=traj).to_json()
        sb = score_route(back, hand_map, None, grid_points=traj).to_json()
        assert {k: sa[k] for k in ("hcs", "spl", "near", "clearance", "pl")} == \
            {k: sb[k] for k in ("hcs", "spl", "near", "clearance", "pl")}


def test_our_episodes_export_to_official_and_score_the_same(tmp_path, two_room_scene,
                                                            two_room_episodes, two_room_map) -> None:
    from map2route.bench.map2route.episode import load_episodes
    from map2route.bench.registry import make_method

    code = main(["episodes", "export-official", str(two_room_episodes), "--out",
                 str(tmp_path / "official"), "--scenes", str(two_room_scene)])
    assert code in (0, None)
    files = sorted((tmp_path / "official").glob("*.json"))
    eps = load_episodes(two_room_episodes)
    assert len(files) == len(eps)
    oracle = make_method("oracle")
    for ep in eps:
        f = tmp_path / "official" / (ep.id.replace("/", "_") + ".json")
        back = read_official_episode(f, two_room_map.grid).episode
        route = oracle.solve(ep, two_room_map).route
        assert route is not None
        sa = score_route(ep, two_room_map, route.points).to_json()
        sb = score_route(back, two_room_map, route.points).to_json()
        for key in ("hcs", "success", "spl", "near", "far", "relative", "path_shape",
                    "clearance", "pl"):
            assert sa[key] == pytest.approx(sb[key], abs=1e-6), (ep.id, key)


def test_score_trajectory_cli_on_our_episode(tmp_path, two_room_scene, two_room_episodes,
                                             two_room_map, capsys) -> None:
    from map2route.bench.map2route.episode import load_episodes
    from map2route.bench.registry import make_method

    ep = load_episodes(two_room_episodes)[0]
    route = make_method("oracle").solve(ep, two_room_map).route
    assert route is not None
    (tmp_path / "route.json").write_text(json.dumps(np.asarray(route.points).tolist()))
    code = main(["bench", "score-trajectory", "--scene", str(two_room_scene / ep.scene),
                 "--episode", str(two_room_episodes), "--episode-id", ep.id,
                 "--trajectory", str(tmp_path / "route.json"), "--json"])
    assert code in (0, None)
    data = json.loads(capsys.readouterr().out)
    expected = score_route(ep, two_room_map, route.points).to_json()
    assert data["episode_id"] == ep.id
    for key in ("hcs", "success", "spl", "clearance", "pl"):
        assert data[key] == pytest.approx(expected[key])
    # Without --episode-id a file of several episodes is refused with the way out.
    code = main(["bench", "score-trajectory", "--scene", str(two_room_scene / ep.scene),
                 "--episode", str(two_room_episodes), "--trajectory", str(tmp_path / "route.json")])
    assert code == 1 and "--episode-id" in capsys.readouterr().err
