"""The verifier: cardinality with candidates, recomputed relations, blocked targets."""

from __future__ import annotations

from map2route.grounding.api import GroundingAPI
from map2route.grounding.sandbox import run_in_process
from map2route.grounding.verifier import recheck_trace, verify


def test_ambiguous_reference_lists_the_candidates(two_room_map):
    r = run_in_process(two_room_map, "task([segment(unique(entities('chair'), 'the chair'))])\n")
    [issue] = r.issues
    assert issue.code == "ambiguous_reference" and issue.span == (1, 0)
    assert sorted(issue.candidates) == ["chair chair_0 in the bedroom",
                                        "chair chair_1 in the bedroom",
                                        "chair chair_2 in the kitchen"]


def test_a_tampered_ranking_is_caught_by_recomputation(two_room_map):
    api = GroundingAPI(two_room_map)
    api.kth_nearest(api.entities("chair"), api.unique(api.entities("bed")))
    rec = api.trace[-1]
    assert rec["result"] == "o:chair_0"
    assert recheck_trace(two_room_map, api.trace) == []
    rec["result"] = "o:chair_2"
    [issue] = recheck_trace(two_room_map, api.trace)
    assert issue.code == "relation_mismatch"


def test_avoiding_the_target_is_reported(two_room_map):
    src = ("fridge = unique(entities('fridge'))\n"
           "task([segment(fridge)], [avoid(unique(rooms('kitchen')))])\n")
    r = run_in_process(two_room_map, src, (1.0, 1.0))
    assert r.routeir is not None
    codes = [i.code for i in verify(two_room_map, r.routeir, r.trace, (1.0, 1.0))]
    assert "avoid_blocks_target" in codes


def test_start_inside_a_must_avoid_region_is_reported(two_room_map):
    src = ("fridge = unique(entities('fridge'))\n"
           "task([segment(fridge)], [avoid(unique(rooms('bedroom')))])\n")
    r = run_in_process(two_room_map, src, (1.0, 1.0))
    codes = [i.code for i in verify(two_room_map, r.routeir, r.trace, (1.0, 1.0))]
    assert codes == ["start_in_avoid"]


def test_a_clean_program_verifies(two_room_map):
    src = ("bed = unique(entities('bed'))\nchair = kth_nearest(entities('chair'), bed)\n"
           "task([segment(chair)], [constraint('near', bed)])\n")
    r = run_in_process(two_room_map, src, (4.0, 1.0))
    assert r.ok and verify(two_room_map, r.routeir, r.trace, (4.0, 1.0)) == []
