"""Official API parity: the official names on the five-room house, hand-checked, and
official-style programs (``def ground(): return task(...)``) through the sandbox."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.grounding.api import GroundingAPI, exposed_names
from map2route.grounding.errors import ProgramIssue
from map2route.grounding.sandbox import check_program, run_in_process
from map2route.grounding.verifier import recheck_trace
from map2route.routeir.model import ConstraintKind

from .conftest import START

#: The 55 names of the official SEMANTIC_API_REGISTRY (BaoBao0926/Map2Route).
OFFICIAL_NAMES = (
    "entities rooms target_of in_room room_of contains count_next_to count_near adjacent_rooms "
    "passage_regions union intersection exclude count unique choose_any kth_nearest "
    "kth_farthest kth_largest kth_smallest order_by_distance closest_pair_member region_of "
    "room_region midpoint_region between_region near_region side_region boundary_region "
    "half_room relative_waypoint circle follow_wall position distance geodesic_distance inside "
    "intersects object_bbox room_polygon where compare all_of any_of not_ near_to far_from "
    "next_to on_top_of in_corner between set_segment_context constraint segment task").split()


def test_every_official_name_is_exposed():
    assert len(OFFICIAL_NAMES) == 55
    assert [n for n in OFFICIAL_NAMES if n not in exposed_names()] == []


def test_count_next_to_counts_footprint_gaps(house):
    api = GroundingAPI(house, START)
    table = api.unique(api.entities("dining_table"))
    # table x 7.3..8.7, y 1.55..2.45; chair gaps: chair_0 0.1 m, chair_1 0.2 m, chair_2 0.25 m
    assert api.count_next_to("chair", table) == 3
    assert api.count_next_to("chair", table, threshold=0.15) == 1
    # the official category-first form; centres 1.0 (chair_0), 1.1 (chair_1), 0.9 m (chair_2)
    assert api.count_near("chair", table, 1.0) == 2
    assert api.count_near("chair", table, 1.2) == 3


def test_closest_pair_member_is_nearest_to_any_reference(house):
    api = GroundingAPI(house, START)
    fridge = api.unique(api.entities("fridge"))
    sofa = api.unique(api.entities("sofa"))
    cans = api.entities("garbage_can")
    # to the fridge (9.5, 4.5): can_1 (9.6, 0.4) 4.10 m < can_2 (8.4, 8.6) 4.25 m < can_0 5.66 m
    assert api.closest_pair_member(cans, [fridge]).ref == "o:garbage_can_1"
    # to the sofa (2, 1) too: can_0 (5.6, 0.4) is 3.65 m from it
    assert api.closest_pair_member(cans, [fridge, sofa]).ref == "o:garbage_can_0"


def test_relative_waypoint_along_and_to_the_left(house):
    api = GroundingAPI(house, START)
    table = api.unique(api.entities("dining_table"))
    fridge = api.unique(api.entities("fridge"))
    g = house.grid

    def centre(area):
        rr, cc = np.nonzero(area._mask)
        return g.cell_to_world(float(rr.mean()), float(cc.mean()))

    # halfway from (8, 2) to (9.5, 4.5) is (8.75, 3.25)
    x, y = centre(api.relative_waypoint(table, fridge, along=0.5))
    assert math.hypot(x - 8.75, y - 3.25) < 0.08
    # 1 m to the left of the axis (1.5, 2.5)/2.915 at the table: (8 - 0.857, 2 + 0.515)
    x, y = centre(api.relative_waypoint(table, fridge, along=0.0, lateral=1.0))
    assert math.hypot(x - 7.1425, y - 2.5145) < 0.08
    with pytest.raises(ProgramIssue, match="along"):
        api.relative_waypoint(table, fridge, along=3.0)
    sofa = api.unique(api.entities("sofa"))
    with pytest.raises(ProgramIssue) as err:
        api.relative_waypoint(sofa, fridge)
    assert err.value.issue.code == "bad_scope"


def test_comparison_helpers_return_metres(house):
    api = GroundingAPI(house, START)
    sofa = api.unique(api.entities("sofa"))
    kitchen = api.unique(api.rooms("kitchen"))
    assert api.position(sofa) == (2.0, 1.0)
    assert api.object_bbox(sofa) == (1.0, 0.55, 3.0, 1.45)
    assert set(api.room_polygon(kitchen)) == {(6.0, 0.0), (10.0, 0.0), (10.0, 5.0), (6.0, 5.0)}
    stand, tv = api.unique(api.entities("tv_stand")), api.unique(api.entities("television"))
    assert api.intersects(stand, tv)
    assert not api.intersects(sofa, api.unique(api.entities("fridge")))
    assert api.intersects(api.region_of(sofa), api.unique(api.rooms("living_room")))


def test_kth_nearest_metric(house):
    api = GroundingAPI(house, START)
    dresser = api.unique(api.entities("dresser"))  # (3.5, 6.0), bedroom A
    items = [api.unique(api.entities("bed", room=api.room_of(dresser))),  # bed_0 (1.2, 7.5)
             api.unique(api.entities("house_plant", room=api.rooms("bedroom")))]  # (4.4, 5.4), B
    # straight line: the plant behind the wall (1.08 m) beats the bed (2.75 m); walking, the
    # plant is through two doors
    assert api.kth_nearest(items, dresser).ref == "o:house_plant_1"
    assert api.kth_nearest(items, dresser, metric="geodesic").ref == "o:bed_0"
    with pytest.raises(ProgramIssue, match="metric"):
        api.kth_nearest(items, dresser, metric="manhattan")


def test_midpoint_region_takes_both_forms(house):
    api = GroundingAPI(house, START)
    fridge, sink = api.unique(api.entities("fridge")), api.unique(api.entities("sink"))
    a, b = api.midpoint_region(fridge, sink), api.midpoint_region([fridge, sink])
    assert np.array_equal(a._mask, b._mask) and a._mask.any()
    assert np.array_equal(api.midpoint_region([fridge, sink], 0.3)._mask,
                          api.midpoint_region(fridge, sink, radius_m=0.3)._mask)


OFFICIAL_PROGRAM = '''def near_table(c):
    return near_to(c, unique(entities("dining_table")))

def ground():
    sofa = unique(entities("sofa"))
    fridge = unique(entities("fridge"))
    _s1_start = task_start
    set_segment_context("s1", _s1_start)
    _s1_target = sofa
    _s1_constraints = [constraint("prefer_near", unique(entities("tv_stand")), source_text="by the tv"),
                       constraint("forbid", kth_nearest(entities("side_table"), sofa))]
    _s1 = segment("s1", _s1_start, _s1_target, _s1_constraints)
    _s2_start = target_of(_s1)
    set_segment_context("s2", _s2_start)
    chairs = where(entities("chair"), lambda self: near_to(self, unique(entities("dining_table"))))
    same = where(entities("chair"), near_table)
    wp = relative_waypoint(unique(entities("dining_table")), fridge, along=0.5)
    _s2_constraints = [constraint("require_visit_in_order", wp),
                       constraint("prefer_relative", fridge, "farther_from",
                                  unique(entities("sink")), segment_scope="global")]
    _s2 = segment("s2", _s2_start, fridge, _s2_constraints)
    return task([_s1, _s2], {"fridge": fridge, "chairs": chairs, "same": same})
'''


def test_official_program_runs_unchanged_in_the_sandbox(house, runner):
    assert check_program(OFFICIAL_PROGRAM) == []
    res = runner.run(house, OFFICIAL_PROGRAM, START)
    assert res.ok, res.issues
    ir = res.routeir
    assert [s.target.construction["object"] for s in ir.stages] == ["sofa_0", "fridge_0"]
    assert len(ir.stages[0].waypoints) == 0 and len(ir.stages[1].waypoints) == 1
    assert ir.stages[1].waypoints[0].construction["op"] == "relative_waypoint"
    kinds = [(c.kind, c.temporal_scope) for c in ir.constraints]
    assert kinds == [(ConstraintKind.NEAR, (0,)), (ConstraintKind.MUST_AVOID, (0,)),
                     (ConstraintKind.RELATIVE, None)]
    near, avoid, rel = ir.constraints
    off = near.region.construction["official"]
    assert off["constraint_id"] == "s1_c0" and off["source_text"] == "by the tv"
    assert near.spatial_scope is not None  # officially a near preference holds in the room
    assert avoid.region.construction["official"]["constraint_id"] == "s1_c1"
    # farther from the fridge than the sink = closer to the sink than to the fridge
    assert rel.region.object_ids == ("sink_0",) and rel.other.object_ids == ("fridge_0",)
    assert rel.region.construction["official"]["argument_roles"] == ["farther_ref", "closer_ref"]
    gp = ir.metadata["grounded_program"]
    assert [s["id"] for s in gp["segments"]] == ["s1", "s2"]
    assert gp["segments"][1]["start"] == {"kind": "entity", "id": "sofa_0", "category": "sofa",
                                          "map2route_ref": "o:sofa_0"}
    assert gp["segments"][0]["start"]["kind"] == "position"
    # chair_0, chair_1, chair_2 are within 1.5 m of the dining table's centre (8, 2)
    assert [b["id"] for b in gp["bindings"]["chairs"]] == ["chair_0", "chair_1", "chair_2"]
    assert gp["bindings"]["same"] == gp["bindings"]["chairs"]


def test_our_form_keeps_working_next_to_the_official_one(house):
    prog = ("fridge = unique(entities('fridge'))\n"
            "s = segment(fridge, label='to the fridge')\n"
            "task([s], [constraint('near', unique(entities('sink')), None, None, s, 2.0)])\n")
    res = run_in_process(house, prog, START)
    assert res.ok, res.issues
    (c,) = res.routeir.constraints
    assert c.kind is ConstraintKind.NEAR and c.temporal_scope == (0,) and c.weight == 2.0
    assert "grounded_program" not in res.routeir.metadata


@pytest.mark.parametrize(("source", "code"), [
    ("f = lambda c: 1", "forbidden_syntax"),
    ("x = where(entities('chair'), lambda c, d=1: near_to(c, d))", "forbidden_syntax"),
    ("x = sorted(entities('chair'), key=lambda c: 1)", "forbidden_syntax"),
    ("__x = 1", "forbidden_name"),
    ("_ = 1", "forbidden_name"),
    ("def f(__a):\n    return 1", "forbidden_name"),
    ("_s1 = entities('chair')\n_s1._key", "forbidden_attribute"),
    ("x = where(entities('chair'), lambda c: c.__class__)", "forbidden_attribute"),
    ("x = where(entities('chair'), lambda __c: 1)", "forbidden_name"),
    ("x = where(entities('chair'), [lambda c: 1][0])", "forbidden_syntax"),
])
def test_official_allowances_stay_narrow(source, code):
    assert code in {i.code for i in check_program(source)}


def test_official_scopes_name_segments(house):
    prog = ('def ground():\n'
            '    sofa = unique(entities("sofa"))\n'
            '    set_segment_context("s1", task_start)\n'
            '    c = constraint("forbid", unique(entities("fridge")), segment_scope="s9")\n'
            '    return task([segment("s1", task_start, sofa, [c])])\n')
    res = run_in_process(house, prog, START)
    assert [i.code for i in res.issues] == ["bad_scope"]
    assert "s9" in res.issues[0].message


def test_the_verifier_reruns_a_geodesic_ranking_with_its_metric(house):
    api = GroundingAPI(house, START)
    dresser = api.unique(api.entities("dresser"))
    items = api.union(api.entities("bed"), api.entities("house_plant"))
    assert api.kth_nearest(items, dresser, metric="geodesic").ref == "o:bed_0"
    assert api.trace[-1]["metric"] == "geodesic"
    assert recheck_trace(house, api.trace, START) == []


def test_circle_and_follow_wall_take_the_official_form(house):
    api = GroundingAPI(house, START)
    table = api.unique(api.entities("dining_table"))
    full = api.circle(table, "clockwise")
    assert len(full._waypoints) == 9  # 8 per lap, back to the first
    assert len(api.circle(table, 1.0, "cw")._waypoints) == 9
    # half a ring: ceil(8 * 0.5) = 4 steps, 5 waypoints, first and last on opposite sides
    half = api.circle(table, 0.5, "counterclockwise", start_toward=api.unique(api.entities("fridge")))
    assert len(half._waypoints) == 5

    def centre(a):
        rr, cc = np.nonzero(a._mask)
        return house.grid.cell_to_world(float(rr.mean()), float(cc.mean()))

    (x0, y0), (x1, y1) = centre(half._waypoints[0]), centre(half._waypoints[-1])
    assert (x0 - 8.0) * (x1 - 8.0) + (y0 - 2.0) * (y1 - 2.0) < 0
    kitchen = api.unique(api.rooms("kitchen"))
    assert len(api.follow_wall(table, 1.0, "auto")._waypoints) == \
        len(api.follow_wall(kitchen)._waypoints)
    with pytest.raises(ProgramIssue, match="whole loops"):
        api.follow_wall(kitchen, 0.5)
    with pytest.raises(ProgramIssue, match="direction"):
        api.circle(table, "sideways")


def test_follow_wall_first_toward_starts_at_the_nearest_corner(house):
    api = GroundingAPI(house, START)
    kitchen = api.unique(api.rooms("kitchen"))
    sink = api.unique(api.entities("sink"))  # (9.6, 3.2): nearest inset corner (9.4, 4.4)
    shape = api.follow_wall(kitchen, 1.0, "ccw", first_toward=sink)
    rr, cc = np.nonzero(shape._waypoints[0]._mask)
    x, y = house.grid.cell_to_world(float(rr.mean()), float(cc.mean()))
    assert x > 8.0 and y > 2.5


def test_choose_any_and_order_by_distance_official_forms(house):
    api = GroundingAPI(house, START)
    fridge = api.unique(api.entities("fridge"))
    cans = api.entities("garbage_can")
    assert api.choose_any(cans).ref == "o:garbage_can_0"  # ours: first in map order
    assert api.choose_any(cans, fridge).ref == "o:garbage_can_1"  # official: nearest (4.10 m)
    assert [e.ref for e in api.order_by_distance(cans, fridge, "descending")] == \
        ["o:garbage_can_0", "o:garbage_can_2", "o:garbage_can_1"]
    assert api.order_by_distance(cans, fridge, "ascending") == api.order_by_distance(cans, fridge)
    with pytest.raises(ProgramIssue, match="ascending"):
        api.order_by_distance(cans, fridge, "sideways")
