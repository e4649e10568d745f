"""score_route on the two-room house: segments, scopes, worst values, PL and SPL by hand.

Scores follow the official evaluator (map2route.bench.map2route.official_metrics); the route is the
grid path of cells it passes through.
"""

from __future__ import annotations

import numpy as np
import pytest

from map2route.bench.map2route.episode import Episode, StartPose
from map2route.bench.map2route.scoring import score_route, summarize
from map2route.routeir import Constraint, ConstraintKind, Region, RouteIR, Stage

# Along y = 2.025 (cell row 45) from the bedroom through the door to below the fridge.
ROUTE = [(0.625, 2.025), (5.525, 2.025), (5.525, 2.325)]


def _strip(m, x0: float, x1: float) -> np.ndarray:
    xx, yy = m.grid.cell_centres()
    return (xx > x0) & (xx < x1) & (np.abs(yy - 2.025) < 0.03)


def _episode(m, constraints, stages=None, refs=None, shortest=5.0) -> Episode:
    fridge = m.get_object("fridge_0")
    stages = stages or (Stage(target=Region.from_mask("fridge", m.goal_region_mask(fridge))),)
    ir = RouteIR(stages=tuple(stages), constraints=tuple(constraints), grid=m.grid)
    from map2route.bench.map2route.episode import ReferenceInfo

    r, c = m.grid.world_to_cell(*ROUTE[0])
    return Episode(id="t/easy/0", scene=m.name, split="easy",
                   start=StartPose(ROUTE[0][0], ROUTE[0][1], 0.0, r, c),
                   instruction="go to the fridge", routeir=ir,
                   path_shape_references=refs or {},
                   reference=ReferenceInfo(shortest_length_m=shortest))


def _footprint(m, oid: str) -> Region:
    obj = m.get_object(oid)
    return Region.from_mask(oid, m.footprint_mask([obj]), object_ids=(oid,))


def test_reaching_the_goal_gives_full_hcs_pl_and_spl(two_room_map) -> None:
    s = score_route(_episode(two_room_map, []), two_room_map, ROUTE)
    assert s.hcs == 1.0 and s.success
    assert s.pl == pytest.approx(4.9 + 0.3)
    # Segment-wise SPL: the segment ends at the first route cell inside the fridge's goal
    # region, column 110 of row 45 (the route starts at column 17): L = 93 cells = 4.65 m.
    (seg,) = s.details["segments"]
    assert seg["L_m"] == pytest.approx(4.65) and seg["L_star_m"] <= 4.65
    assert s.spl == pytest.approx(seg["L_star_m"] / 4.65)
    # The whole-episode reading (L* = 5.0 m given, L = 5.2 m) stays as an extra column.
    assert s.spl_episode == pytest.approx(5.0 / 5.2)
    assert s.near is None and s.details["blocked_cells"] == 0


def test_near_over_the_scoped_window_is_the_distance_to_the_bed(two_room_map) -> None:
    m = two_room_map
    scope = Region.from_mask("strip under the bed", _strip(m, 0.8, 1.2))
    near = Constraint(kind=ConstraintKind.NEAR, region=_footprint(m, "bed_0"), spatial_scope=scope)
    s = score_route(_episode(m, [near]), m, ROUTE)
    # Route cells at y=2.025, the bed's lowest cell centres at y=2.225 straight above: 0.2 m.
    assert s.near == pytest.approx(0.2)
    assert s.details["soft"][0]["status"] == "computed"


def test_far_never_entered_scores_zero_and_near_scores_its_worst(two_room_map) -> None:
    m = two_room_map
    xx, yy = m.grid.cell_centres()
    corner = Region.from_mask("kitchen corner", (xx > 3.2) & (xx < 3.6) & (yy > 3.4) & (yy < 3.8))
    far = Constraint(kind=ConstraintKind.FAR, region=_footprint(m, "fridge_0"), spatial_scope=corner)
    near = Constraint(kind=ConstraintKind.NEAR, region=_footprint(m, "chair_2"), spatial_scope=corner)
    s = score_route(_episode(m, [far, near]), m, ROUTE)
    assert s.far == 0.0
    # Worst Near: the corner cell farthest from chair_2, centred at (3.225, 3.775); chair_2's
    # rasterised footprint covers cell centres x 4.275..4.725, y 2.375..2.825, so its nearest
    # cell centre is (4.275, 2.825).
    assert s.near == pytest.approx(float(np.hypot(4.275 - 3.225, 3.775 - 2.825)), abs=1e-6)
    assert {d["status"] for d in s.details["soft"]} == {"empty_region_zero_distance",
                                                        "empty_region_max_distance"}


def test_a_stage_scope_uses_only_that_segment(two_room_map) -> None:
    m = two_room_map
    xx, yy = m.grid.cell_centres()
    door = Region.from_mask("door", (np.abs(xx - 3.0) < 0.2) & (np.abs(yy - 2.0) < 0.5))
    fridge = Region.from_mask("fridge", m.goal_region_mask(m.get_object("fridge_0")))
    stages = (Stage(target=door), Stage(target=fridge))
    scope = Region.from_mask("strip under the bed", _strip(m, 0.8, 1.2))
    # Active in stage 1 (door -> fridge) but the strip is crossed in stage 0: not entered.
    late = Constraint(kind=ConstraintKind.NEAR, region=_footprint(m, "bed_0"), spatial_scope=scope,
                      temporal_scope=(1,))
    early = Constraint(kind=ConstraintKind.NEAR, region=_footprint(m, "bed_0"),
                       spatial_scope=scope, temporal_scope=(0,))
    s = score_route(_episode(m, [late, early], stages=stages), m, ROUTE)
    values = {d["constraint"]: d for d in s.details["soft"]}
    assert values[0]["status"] == "empty_region_max_distance"
    assert values[1]["value"] == pytest.approx(0.2)
    assert s.details["stages_met"] == [True, True]


def test_a_global_must_avoid_entered_zeroes_hcs(two_room_map) -> None:
    m = two_room_map
    xx, yy = m.grid.cell_centres()
    avoid = Constraint(kind=ConstraintKind.MUST_AVOID,
                       region=Region.from_mask("door", (np.abs(xx - 3.0) < 0.2) & (np.abs(yy - 2.0) < 0.5)))
    s = score_route(_episode(m, [avoid]), m, ROUTE)
    # Officially a global must-avoid touched anywhere sets HCS to 0 (the fridge is reached).
    assert s.hcs == 0.0 and not s.success and s.spl == 0.0
    assert s.details["hcs"]["completed"] == 1
    # Our requirement count (stage met, avoid missed) stays as the hcs_requirements extra.
    assert s.hcs_requirements == pytest.approx(0.5)


def test_no_route_scores_worst_everywhere(two_room_map) -> None:
    m = two_room_map
    xx, yy = m.grid.cell_centres()
    avoid = Constraint(kind=ConstraintKind.MUST_AVOID,
                       region=Region.from_mask("door", (np.abs(xx - 3.0) < 0.2)))
    far = Constraint(kind=ConstraintKind.FAR, region=_footprint(m, "bed_0"))
    s = score_route(_episode(m, [avoid, far]), m, None)
    assert (s.hcs, s.success, s.far, s.pl, s.spl) == (0.0, False, 0.0, None, 0.0)


def test_path_shape_follows_the_reference(two_room_map) -> None:
    m = two_room_map
    ref = np.array([[x, 2.025] for x in np.arange(0.625, 5.5, 0.05)])
    cells = m.grid.worlds_to_cells(ref)
    ps = Constraint(kind=ConstraintKind.PATH_SHAPE, region=Region("line", cells.astype(np.int32)))
    s = score_route(_episode(m, [ps], refs={0: ref}), m, ROUTE)
    assert s.path_shape == pytest.approx(1.0)
    assert s.path_shape_waypoints == pytest.approx(1.0)  # no waypoints: the same window
    off = score_route(_episode(m, [ps], refs={0: ref + [0.0, 1.5]}), m, ROUTE)
    assert off.path_shape < 0.01


def test_summarize_macro_averages_per_type(two_room_map) -> None:
    m = two_room_map
    near = Constraint(kind=ConstraintKind.NEAR, region=_footprint(m, "bed_0"),
                      spatial_scope=Region.from_mask("s", _strip(m, 0.8, 1.2)))
    a = score_route(_episode(m, [near, near]), m, ROUTE)
    b = score_route(_episode(m, []), m, None)
    summary = summarize([a, b])
    assert summary["easy"]["near"] == pytest.approx(0.2) and summary["easy"]["n_near"] == 1
    assert summary["easy"]["hcs"] == pytest.approx(0.5)


def test_summarize_is_the_same_whatever_order_the_episodes_finished_in() -> None:
    # parallel workers hand rows back in finishing order; a rerun over the same results must
    # print the same table to the last bit (np.mean's pairwise sum did not, in CI)
    from dataclasses import replace

    from map2route.bench.map2route.scoring import EpisodeScore

    base = EpisodeScore.from_json({
        "episode_id": "e", "difficulty": "easy", "split": "test", "hcs": 1.0, "success": 1.0,
        "spl": 0.1, "pl": 1.0, "near": None, "far": None, "relative": None, "path_shape": None,
        "clearance": None, "shortest_length_m": 5.0})
    spls = [0.1, 0.7, 1e-17, 0.3, 0.2 + 1e-16, 0.9, 1 / 3, 0.05]
    scores = [replace(base, episode_id=f"e{k}", spl=v) for k, v in enumerate(spls)]
    assert summarize(scores) == summarize(scores[::-1]) == summarize(scores[3:] + scores[:3])
    assert summarize(scores)["all"]["spl"] == pytest.approx(sum(spls) / len(spls))


def test_per_map_fields_are_never_another_maps(two_room_map) -> None:
    # the cache was keyed by id(m.traversable): a map sharing that array but not its objects
    # (and, in a long run, any map whose array took a freed one's id) got the other's field
    from dataclasses import replace

    from map2route.bench.map2route.scoring import _CACHE, clearance_obstacles

    bare = replace(two_room_map, objects=[])
    with_objects = _CACHE.obstacles(two_room_map)
    assert bare.traversable is two_room_map.traversable
    assert np.array_equal(_CACHE.obstacles(bare), clearance_obstacles(bare))
    assert not np.array_equal(_CACHE.obstacles(bare), with_objects)
