"""Episode generation on the two-room house: valid, feasible, in range, deterministic."""

from __future__ import annotations

import pytest

from map2route.bench.map2route.episode import dumps_episode
from map2route.bench.map2route.generate import CONSTRAINT_RANGE, EpisodeGenerator
from map2route.bench.map2route.generate_all import scene_plans
from map2route.bench.map2route.scoring import score_route
from map2route.routeir import validation_problems


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_episodes_are_valid_feasible_and_in_range(two_room_map, planner, difficulty) -> None:
    gen = EpisodeGenerator(two_room_map, planner=planner)
    made = 0
    for seed in range(6):
        ep = gen.generate(episode_id=f"t/{difficulty}/{seed}", split=difficulty,
                          difficulty=difficulty, seed=seed)
        if ep is None:
            continue
        made += 1
        assert validation_problems(ep.routeir) == []
        lo, hi = CONSTRAINT_RANGE[difficulty]
        counted = ep.reference.hard_constraints + ep.reference.soft_constraints
        assert lo <= counted <= hi
        assert ep.reference.shortest_length_m is not None and ep.reference.shortest_length_m > 0
        route = planner(two_room_map, ep.routeir, ep.start_xy)
        assert score_route(ep, two_room_map, route.points).success
        for expr in ep.reference.referring_expressions:
            assert expr.text in ep.instruction or expr.text.startswith("the ")
            assert len(expr.object_ids) == 1
        for k in ep.path_shape_references:
            assert ep.routeir.constraints[k].kind.value == "path_shape"
    assert made >= 4


def test_same_seed_same_episode(two_room_map, planner) -> None:
    a = EpisodeGenerator(two_room_map, planner=planner).generate(
        episode_id="t/hard/0", split="hard", difficulty="hard", seed=11)
    b = EpisodeGenerator(two_room_map, planner=planner).generate(
        episode_id="t/hard/0", split="hard", difficulty="hard", seed=11)
    assert a is not None and b is not None
    assert dumps_episode(a) == dumps_episode(b)


def test_scene_plans_split_700_easy_over_40_scenes() -> None:
    plans = scene_plans({"test": [f"s{i}" for i in range(40)], "dev": ["d0", "d1", "d2", "d3"]})
    test = [p for p in plans if p[1] == "test"]
    dev = [p for p in plans if p[1] == "dev"]
    assert sum(len(d) for _, _, d in test) == 1000
    assert sum(d.count("easy") for _, _, d in test) == 700
    assert sum(len(d) for _, _, d in dev) == 50


def test_references_identify_one_object(two_room_map) -> None:
    import random

    from map2route.bench.map2route.references import SceneRefs

    refs = SceneRefs(two_room_map, (0.6, 2.0), random.Random(0))
    chair_refs = refs.object_refs(two_room_map.get_object("chair_2"))
    texts = {r.text for r in chair_refs}
    # chair_2 is the only chair in the kitchen; there are three chairs in all.
    assert any(t.startswith("the chair in the kitchen") for t in texts)
    assert all(r.candidates == 3 for r in chair_refs)
    # Not unique in the scene: "the chair" alone must never be produced.
    assert "the chair" not in texts
    lamp = {r.text for r in refs.object_refs(two_room_map.get_object("side_table_0"))}
    assert any("lamp on it" in t for t in lamp)
    room_texts = {r.text for r in refs.room_refs(two_room_map.get_room(0))}
    assert {"the bedroom", "the room you start in"} <= room_texts
