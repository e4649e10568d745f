"""Offline grounding end to end through the sandbox, verifier and bounded repair."""

from __future__ import annotations

from pathlib import Path

import pytest

from map2route.bench.map2route.grounding_eval import evaluate_file, stage_descriptors
from map2route.grounding.errors import GroundingError
from map2route.grounding.grounder import Executor, OfflineGrounder, repair_loop
from map2route.routeir.model import ConstraintKind

DATA = Path(__file__).parent / "data" / "human_instructions.jsonl"
PROCTHOR_DATA = Path(__file__).parent / "data" / "human_instructions_procthor.jsonl"


@pytest.fixture(scope="module")
def offline(runner):
    return OfflineGrounder(executor=Executor("process", runner))


def test_paper_example_grounds_to_the_right_chair(offline, two_room_map):
    g = offline.ground("go to the chair nearest to the bed in the bedroom with two windows",
                       two_room_map, (4.0, 1.0))
    assert stage_descriptors(g.routeir) == ["chair_0"]
    assert "kth_nearest" in g.program and g.repairs == 0


def test_scoped_far_constraint(offline, two_room_map):
    g = offline.ground("go to the fridge, staying far from the windows while crossing the "
                       "bedroom", two_room_map, (1.0, 1.0))
    [far] = [c for c in g.routeir.constraints if c.kind is ConstraintKind.FAR]
    assert set(far.region.object_ids) == {"window_0", "window_1"}
    assert far.spatial_scope is not None and far.spatial_scope.construction["room"] == 0
    assert far.temporal_scope == (0,)


def test_conditional_takes_the_branch_the_map_supports(offline, two_room_map):
    g = offline.ground("if the bedroom contains a lamp, go to the lamp; otherwise, go to the "
                       "fridge", two_room_map, (4.0, 1.0))
    assert stage_descriptors(g.routeir) == ["desk_lamp_0"]
    g = offline.ground("if the kitchen contains a lamp, go to the lamp; otherwise, go to the "
                       "fridge", two_room_map, (1.0, 1.0))
    assert stage_descriptors(g.routeir) == ["fridge_0"]


def test_circle_and_coreference(offline, two_room_map):
    g = offline.ground("walk to the apple on the dining table, then circle the table clockwise",
                       two_room_map, (1.0, 1.0))
    assert stage_descriptors(g.routeir) == ["apple_0", "circle:dining_table_0"]
    assert len(g.routeir.stages[1].waypoints) == 8


def test_failure_names_the_word_not_understood(offline, two_room_map):
    with pytest.raises(GroundingError) as err:
        offline.ground("go to the zorblax", two_room_map, (1.0, 1.0))
    assert "zorblax" in str(err.value)
    assert err.value.issues[0].code == "not_understood"


def test_ambiguity_after_all_rounds_lists_candidates(two_room_map, runner):
    calls = []

    def propose(_i, prev, issues):
        calls.append((prev, tuple(i.code for i in issues)))
        return "task([segment(unique(entities('chair'), 'the chair'))])\n"

    with pytest.raises(GroundingError) as err:
        repair_loop("go to the chair", two_room_map, (1.0, 1.0), propose,
                    executor=Executor("process", runner), rounds=3)
    assert len(calls) == 4  # the first proposal and R = 3 repairs
    assert calls[1][1] == ("ambiguous_reference",)
    assert "chair chair_2 in the kitchen" in str(err.value)


def test_repair_round_uses_the_issues(two_room_map, runner):
    def propose(_i, prev, issues):
        if prev is None:
            return "task([segment(unique(entities('chair'), 'the chair'))])\n"
        assert issues[0].code == "ambiguous_reference"
        return "task([segment(unique(entities('chair', room=start_room()), 'the chair'))])\n"

    with pytest.raises(GroundingError):
        repair_loop("x", two_room_map, (1.0, 1.0), propose, executor=Executor("process", runner))
    g = repair_loop("x", two_room_map, (4.0, 1.0), propose, executor=Executor("process", runner))
    assert g.repairs == 1 and stage_descriptors(g.routeir) == ["chair_2"]


def test_held_out_human_instructions(offline, house):
    results = evaluate_file(DATA, offline, lambda _scene: house)
    assert len(results) >= 40
    accuracy = sum(r.correct for r in results) / len(results)
    wrong = [(r.instruction, r.expected, r.got, r.error[:80]) for r in results if not r.correct]
    print(f"held-out human instructions: {accuracy:.3f} ({len(results)})", wrong)
    # 36/47 = 0.766 before any tuning on this set (docs/grounding.md); keep well above chance
    assert accuracy >= 0.75, wrong


PROCTHOR_V2 = Path(__file__).parent / "data" / "human_instructions_procthor_v2.jsonl"
PROCTHOR_V3 = Path(__file__).parent / "data" / "human_instructions_procthor_v3.jsonl"
PROCTHOR_V4 = Path(__file__).parent / "data" / "human_instructions_procthor_v4.jsonl"


@pytest.mark.parametrize(("data", "scene", "min_n", "min_full", "min_dest"), [
    # 87 on procthor_00363/00526/00632: 68/87 = 0.782 fully right before the generalisation
    # work; 85/87 after (no longer held out).
    pytest.param(PROCTHOR_DATA, "procthor_00363", 60, 0.9, 0.95, id="v1"),
    # 69 on procthor_00921/00655/00788: 51/69 = 0.739 at first contact; 69/69 after.
    pytest.param(PROCTHOR_V2, "procthor_00921", 60, 1.0, 1.0, id="v2"),
    # 111 spoken requests on procthor_00435/00352/00943: 82/111 = 0.739 at first contact;
    # 103/111 after (2026-12-03); "the big fluffy sofa" is refused since an unknown describing
    # word refuses instead of being dropped (2026-12-06): destination 105/111.
    pytest.param(PROCTHOR_V3, "procthor_00435", 70, 0.92, 0.94, id="v3"),
    # 69 paper-style instructions on procthor_00540/00784: 59/69 = 0.855 at first contact;
    # 67/69 after (2026-12-03).
    pytest.param(PROCTHOR_V4, "procthor_00540", 60, 0.97, 0.98, id="v4"),
])
def test_human_instructions_on_shipped_procthor_scenes(data: Path, scene: str, min_n: int,
                                                       min_full: float,
                                                       min_dest: float) -> None:
    """Human-style instruction sets on shipped scenes (docs/grounding.md has their history)."""
    from map2route.paths import maps_dir
    from map2route.semantic_map.io import load_scene

    if not (maps_dir() / scene).is_dir():
        pytest.skip("shipped ProcTHOR scenes are not present")
    results = evaluate_file(data, OfflineGrounder(executor=Executor("inprocess")),
                            lambda name: load_scene(maps_dir() / name))
    assert len(results) >= min_n
    wrong = [(r.instruction, r.expected, r.got, r.got_constraints, r.error[:80])
             for r in results if not r.fully_correct]
    full = sum(r.fully_correct for r in results) / len(results)
    dest = sum(r.destination_correct for r in results) / len(results)
    print(f"{data.name}: all {full:.3f}, destination {dest:.3f}", wrong)
    assert full >= min_full, wrong
    assert dest >= min_dest, wrong


def test_refusal_names_the_word_and_suggests_names_in_the_map(house):
    grounder = OfflineGrounder(executor=Executor("inprocess"))
    with pytest.raises(GroundingError) as err:
        grounder.ground("go to the piano", house, (3.0, 2.5))
    text = str(err.value)
    assert "'piano'" in text and "nearest names in this map for 'piano'" in text
    with pytest.raises(GroundingError) as err:
        grounder.ground("go to the garage", house, (3.0, 2.5))
    assert "the map has no garage" in str(err.value)
    assert err.value.issues[0].code == "not_understood"


def test_leg_scoped_preference_prefers_the_object_in_the_legs_room():
    """v4 (2026-12-03): "..., keeping away from the dining table" on a leg that ends in a room
    with one dining table means that one, not the one nearest the goal in the next room."""
    from map2route.bench.map2route.grounding_eval import constraint_descriptors
    from map2route.paths import maps_dir
    from map2route.semantic_map.io import load_scene

    if not (maps_dir() / "procthor_00540").is_dir():
        pytest.skip("shipped ProcTHOR scenes are not present")
    m = load_scene(maps_dir() / "procthor_00540")
    grounder = OfflineGrounder(executor=Executor("inprocess"))
    g = grounder.ground("Go to the armchair next to the floor lamp in the big living room, "
                        "keeping away from the dining table.", m, (12.0, 20.0))
    assert stage_descriptors(g.routeir) == ["3|2|0"]
    assert constraint_descriptors(g.routeir) == ["far:3|1"]
    # a count condition over a room ("there are more than three chairs in the kitchen")
    g = grounder.ground("If there are more than three chairs in the kitchen, go to the fridge, "
                        "otherwise go to the sofa in the larger living room.", m, (12.0, 20.0))
    assert stage_descriptors(g.routeir) == ["2|2"]
    g = grounder.ground("If there are more than five chairs in the kitchen, go to the fridge, "
                        "otherwise go to the sofa in the larger living room.", m, (12.0, 20.0))
    assert stage_descriptors(g.routeir) == ["3|0|1"]
