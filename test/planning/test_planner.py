"""The scope-aware sequential planner: scopes, must-avoid, waypoint order, infeasibility."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.gridsearch.kernel import path_cost
from map2route.planning import NoRouteError, PlannerConfig, PlanningError, plan_route, warm_up
from map2route.planning.costmap import (
    distance_fields,
    j_clear,
    j_far,
    j_near,
    j_relative,
    stage_cost_map,
)
from map2route.routeir import Constraint, ConstraintKind, Region, RouteIR, RouteIRError, Stage
from map2route.routeir.regions import (
    disk_region,
    footprint_region,
    object_goal_region,
    ring_waypoints,
    room_region,
)
from map2route.semantic_map.model import RoomType
from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house

START = (0.5, 0.3)  # bedroom, bottom-left


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    warm_up()


@pytest.fixture(scope="module")
def config() -> PlannerConfig:
    return PlannerConfig.from_yaml()


def _ir(m, stages, constraints=()):
    return RouteIR(stages=tuple(stages), constraints=tuple(constraints), grid=m.grid, scene=m.name)


def _assert_connected(route) -> None:
    steps = np.abs(np.diff(route.cells.astype(int), axis=0))
    assert (steps.max(axis=1) == 1).all(), "consecutive route cells must be 8-neighbours"


def test_config_defaults_are_the_papers_lambdas(config: PlannerConfig) -> None:
    assert (config.lambda_near, config.lambda_far, config.lambda_relative,
            config.lambda_clear) == (8.0, 96.0, 64.0, 36.0)


@pytest.mark.parametrize(("text", "needle"), [
    ("lambdas: [1, 2]\nscales_m: {}\n", "lambdas"),
    ("lambdas: {near: 1, far: 1, relative: 1, clear: 1}\n", "path_shape"),
    ("- just a list\n", "mapping"),
    ("lambdas: {near: x, far: 1, relative: 1, clear: 1, path_shape: 1}\n"
     "scales_m: {near: 1, far: 1, relative: 1, clear: 1, path_shape: 1}\n", "lambdas.near"),
    ("lambdas: {near: -1, far: 1, relative: 1, clear: 1, path_shape: 1}\n"
     "scales_m: {near: 1, far: 1, relative: 1, clear: 1, path_shape: 1}\n", "lambda_near"),
], ids=["not-a-mapping", "missing-key", "top-list", "not-a-number", "negative"])
def test_bad_config_names_the_key(tmp_path, text: str, needle: str) -> None:
    f = tmp_path / "planner.yaml"
    f.write_text(text)
    with pytest.raises(PlanningError, match=needle):
        PlannerConfig.from_yaml(f)


def test_missing_config_file_says_which(tmp_path) -> None:
    with pytest.raises(PlanningError, match="cannot read planner config"):
        PlannerConfig.from_yaml(tmp_path / "nope.yaml")


def test_cost_terms_by_hand() -> None:
    d = np.array([0.0, 1.5, 3.0, 6.0])
    assert j_near(d, 3.0).tolist() == [0.0, 0.5, 1.0, 1.0]
    # Measured from the closest reachable distance d_min = 1.5: 0 up to it, 1 at d_min + D.
    assert j_near(d, 3.0, 1.5).tolist() == [0.0, 0.0, 0.5, 1.0]
    assert j_far(d, 3.0).tolist() == [1.0, 0.5, 0.0, 0.0]
    assert j_clear(np.array([0.05, 0.25, 0.5, 1.0]), 0.5).tolist() == pytest.approx(
        [0.9, 0.5, 0.0, 0.0])
    # Relative = 1/2 J_near(d_A) + 1/2 clip(1/2 + (d_A - d_B) / (2 D)), D = 2:
    # on A and closer to A by 2 -> 0; d_A = d_B = 1 -> 1/4 + 1/4; d_A = 3, d_B = 1 -> 1/2 + 1/2;
    # d_A = 1, d_B = 2 -> 1/4 + 1/8; with d_A_min = 1: the last case -> 0 + 1/8.
    d_a, d_b = np.array([0.0, 1.0, 3.0, 1.0]), np.array([2.0, 1.0, 1.0, 2.0])
    assert j_relative(d_a, d_b, 2.0).tolist() == [0.0, 0.5, 1.0, 0.375]
    assert j_relative(d_a, d_b, 2.0, 1.0).tolist() == [0.0, 0.25, 1.0, 0.125]


def test_route_reaches_target_and_costs_match(two_room_map, config) -> None:
    m = two_room_map
    target = object_goal_region(m, m.get_object("fridge_0"))
    ir = _ir(m, [Stage(target=target, label="the fridge")])
    route = plan_route(m, ir, START, config=config)
    assert target.mask(m.grid)[tuple(route.cells[-1])]
    _assert_connected(route)
    assert m.traversable[route.cells[:, 0], route.cells[:, 1]].all()
    cmap = stage_cost_map(m, ir, 0, config)
    assert route.stage_costs[0] == pytest.approx(
        path_cost(cmap.cell_cost, route.cells, length_weight=cmap.length_weight))
    assert route.points.shape == (len(route.cells), 2)
    assert route.length_m == pytest.approx(sum(route.stage_lengths_m))
    hard = plan_route(m, ir, START, config=config, hard_only=True)
    # Hard-only: cost is the geometric length; it is the shortest, so never longer.
    assert hard.stage_costs[0] == pytest.approx(hard.length_m)
    assert hard.length_m <= route.length_m + 1e-9


def test_sequential_stages_start_where_the_previous_ended(two_room_map, config) -> None:
    m = two_room_map
    stages = [Stage(target=object_goal_region(m, m.get_object("fridge_0"))),
              Stage(target=object_goal_region(m, m.get_object("chair_1"))),
              Stage(target=object_goal_region(m, m.get_object("dining_table_0")))]
    route = plan_route(m, _ir(m, stages), START, config=config)
    _assert_connected(route)
    assert route.stage_index.tolist() == sorted(route.stage_index.tolist())
    for k, st in enumerate(stages):
        last = route.cells[route.stage_index == k][-1]
        assert st.target.mask(m.grid)[tuple(last)], f"stage {k} must end in its target"
    assert len(route.stage_lengths_m) == 3


def test_temporal_scope_switches_terms_on_only_in_its_stages(two_room_map, config) -> None:
    m = two_room_map
    bed = footprint_region(m, [m.get_object("bed_0")])
    far = Constraint(ConstraintKind.FAR, bed, temporal_scope=(1,), label="away from the bed")
    stages = [Stage(target=room_region(m, 1)), Stage(target=room_region(m, 0))]
    ir = _ir(m, stages, [far])
    plain = _ir(m, stages)
    free = m.traversable
    for k, active in ((0, False), (1, True)):
        with_c = stage_cost_map(m, ir, k, config).cell_cost
        without = stage_cost_map(m, plain, k, config).cell_cost
        diff = with_c[free] - without[free]
        if active:
            # The Far term comes on everywhere, and the default clearance term is waived
            # inside its active region (here: the whole map, during stage 2).
            fields = distance_fields(m)
            expected = (config.lambda_far * j_far(fields.to_region(bed), config.far_scale_m)
                        - config.lambda_clear * j_clear(fields.obstacle_m, config.clear_scale_m)
                        ) * m.grid.resolution
            assert diff == pytest.approx(expected[free])
            assert diff.max() > 0
        else:
            assert np.array_equal(with_c, without)


def test_spatial_scope_limits_terms_to_its_cells(two_room_map, config) -> None:
    m = two_room_map
    fridge = footprint_region(m, [m.get_object("fridge_0")])
    scope = room_region(m, 0)  # the bedroom
    near = Constraint(ConstraintKind.NEAR, fridge, spatial_scope=scope, label="near the fridge")
    stages = [Stage(target=room_region(m, 1))]
    with_c = stage_cost_map(m, _ir(m, stages, [near]), 0, config).cell_cost
    without = stage_cost_map(m, _ir(m, stages), 0, config).cell_cost
    free = m.traversable
    changed = free & (with_c != without)
    inside = scope.mask(m.grid)
    assert changed.any()
    assert not (changed & ~inside).any(), "a scoped term must not touch cells outside its scope"
    # J_near is measured from the closest distance reachable in the scope, d_min (the fridge
    # stands in the other room): inside the scope every cell farther than d_min + near scale
    # pays lambda_near * 1 * res, and the default clearance term is waived there.
    fields = distance_fields(m)
    d = fields.to_region(fridge)
    d_min = d[free & inside].min()
    assert d_min > 0.5
    res = m.grid.resolution
    clear = config.lambda_clear * j_clear(fields.obstacle_m, config.clear_scale_m) * res
    far_cells = free & inside & (d >= d_min + config.near_scale_m)
    assert far_cells.any()
    assert (with_c - without)[far_cells] == pytest.approx(
        config.lambda_near * res - clear[far_cells])
    closest = free & inside & (d <= d_min + 1e-9)
    assert with_c[closest] == pytest.approx(0.0), "the closest reachable band costs nothing extra"


def test_default_clearance_is_waived_only_inside_a_preference_region(two_room_map,
                                                                     config) -> None:
    m = two_room_map
    res = m.grid.resolution
    free = m.traversable
    fields = distance_fields(m)
    clear = config.lambda_clear * j_clear(fields.obstacle_m, config.clear_scale_m) * res
    scope = room_region(m, 1)
    inside = scope.mask(m.grid) & free
    fridge = footprint_region(m, [m.get_object("fridge_0")])
    stages = [Stage(target=room_region(m, 0)), Stage(target=room_region(m, 1))]
    near = Constraint(ConstraintKind.NEAR, fridge, spatial_scope=scope, temporal_scope=(1,))
    explicit = Constraint(ConstraintKind.CLEARANCE, Region("", np.zeros((0, 2), np.int32)),
                          spatial_scope=scope, weight=0.5)
    for k in (0, 1):
        plain = stage_cost_map(m, _ir(m, stages), k, config).cell_cost
        assert plain[free] == pytest.approx(clear[free]), "the global term alone"
        cost = stage_cost_map(m, _ir(m, stages, [near]), k, config).cell_cost
        assert np.array_equal(cost[free & ~inside], plain[free & ~inside])
        if k == 0:  # out of temporal scope: nothing changes anywhere
            assert np.array_equal(cost, plain)
            continue
        d = fields.to_region(fridge)
        near_term = config.lambda_near * j_near(d, config.near_scale_m, d[inside].min()) * res
        assert cost[inside] == pytest.approx(near_term[inside])
        # An explicit Clearance constraint is not waived: it adds its own weighted term.
        both = stage_cost_map(m, _ir(m, stages, [near, explicit]), k, config).cell_cost
        assert both[inside] == pytest.approx(near_term[inside] + 0.5 * clear[inside])


def test_must_avoid_is_never_entered_while_in_scope(two_room_map, config) -> None:
    m = two_room_map
    target = object_goal_region(m, m.get_object("fridge_0"))
    # A disk across the straight line to the door: the shortest path crosses it.
    avoid_region = disk_region(m, (2.4, 1.9), 0.35, label="the rug")
    avoid = Constraint(ConstraintKind.MUST_AVOID, avoid_region, label="the rug")
    start = (0.6, 1.9)
    free_route = plan_route(m, _ir(m, [Stage(target=target)]), start, config=config, hard_only=True)
    mask = avoid_region.mask(m.grid)
    assert mask[free_route.cells[:, 0], free_route.cells[:, 1]].any(), "test must be able to fail"
    for hard in (True, False):
        route = plan_route(m, _ir(m, [Stage(target=target)], [avoid]), start, config=config,
                           hard_only=hard)
        assert not mask[route.cells[:, 0], route.cells[:, 1]].any()
    # Out of temporal scope (only stage 2), stage 1 may cross it.
    later = Constraint(ConstraintKind.MUST_AVOID, avoid_region, temporal_scope=(1,))
    two = [Stage(target=target), Stage(target=object_goal_region(m, m.get_object("chair_2")))]
    route = plan_route(m, _ir(m, two, [later]), start, config=config, hard_only=True)
    s0 = route.cells[route.stage_index == 0]
    s1 = route.cells[route.stage_index == 1]
    assert mask[s0[:, 0], s0[:, 1]].any()
    assert not mask[s1[:, 0], s1[:, 1]].any()


@pytest.mark.parametrize("ccw", [True, False], ids=["counterclockwise", "clockwise"])
def test_waypoints_are_visited_in_order(config, ccw: bool) -> None:
    m = rect_house(name="one_table", rooms=[RectRoom(0, RoomType.LIVING_ROOM, 0, 0, 5, 5)],
                   objects=[RectObject("table_0", "dining_table", 2.5, 2.5, 1.0, 1.0)], doors=[])
    table = m.get_object("table_0")
    wps = ring_waypoints(m, table, count=6, clearance_m=0.4, counterclockwise=ccw,
                         start_angle_rad=np.pi)
    stage = Stage(target=wps[0], waypoints=wps, label="circle the table")
    route = plan_route(m, _ir(m, [stage]), (0.5, 0.5), config=config)
    _assert_connected(route)
    pos = 0
    for j, wp in enumerate(wps):
        inside = wp.mask(m.grid)[route.cells[pos:, 0], route.cells[pos:, 1]]
        assert inside.any(), f"waypoint {j} never visited after waypoint {j - 1}"
        pos += int(np.argmax(inside))
    # Going round means the heading winds about 2*pi around the table centre.
    ang = np.unwrap(np.arctan2(route.points[:, 1] - table.center[1],
                               route.points[:, 0] - table.center[0]))
    turn = ang[-1] - ang[int(np.argmax(wps[0].mask(m.grid)[route.cells[:, 0], route.cells[:, 1]]))]
    assert (turn > 4.5) if ccw else (turn < -4.5)


def test_target_without_traversable_cell_is_empty_target(two_room_map, config) -> None:
    m = two_room_map
    bed_cells = footprint_region(m, [m.get_object("bed_0")])
    inner = Region.from_mask("under the bed", bed_cells.mask(m.grid) & ~m.traversable)
    with pytest.raises(NoRouteError, match="stage 1 of 1.*no traversable cell") as info:
        plan_route(m, _ir(m, [Stage(target=inner)]), START, config=config)
    assert info.value.reason == "empty_target"
    assert info.value.stage == 0


def test_must_avoid_blocking_the_door_is_named(two_room_map, config) -> None:
    m = two_room_map
    door = disk_region(m, (3.0, 2.0), 0.8, label="the doorway")
    avoid = Constraint(ConstraintKind.MUST_AVOID, door, label="the doorway")
    stages = [Stage(target=object_goal_region(m, m.get_object("chair_1"))),
              Stage(target=object_goal_region(m, m.get_object("fridge_0")), label="the fridge")]
    ir = _ir(m, stages, [Constraint(ConstraintKind.MUST_AVOID, door, temporal_scope=(1,),
                                    label="the doorway")])
    with pytest.raises(NoRouteError, match=r"stage 2 of 2 \('the fridge'\).*'the doorway'") as info:
        plan_route(m, ir, START, config=config)
    assert info.value.reason == "blocked_by_must_avoid"
    assert info.value.stage == 1
    with pytest.raises(NoRouteError):
        plan_route(m, _ir(m, stages, [avoid]), START, config=config, hard_only=True)


def test_unreachable_target_says_walls_separate_them(config) -> None:
    m = rect_house(name="closed", rooms=[RectRoom(0, RoomType.BEDROOM, 0, 0, 2, 2),
                                         RectRoom(1, RoomType.KITCHEN, 2, 0, 4, 2)],
                   objects=[], doors=[])
    with pytest.raises(NoRouteError, match="unreachable") as info:
        plan_route(m, _ir(m, [Stage(target=room_region(m, 1))]), (0.5, 0.5), config=config)
    assert info.value.reason == "unreachable"


def test_start_outside_the_map_is_reported(two_room_map, config) -> None:
    m = two_room_map
    ir = _ir(m, [Stage(target=room_region(m, 1))])
    with pytest.raises(NoRouteError, match="outside the map"):
        plan_route(m, ir, (50.0, 50.0), config=config)


def test_blocked_start_snaps_to_nearest_free_cell(two_room_map, config) -> None:
    m = two_room_map
    ir = _ir(m, [Stage(target=room_region(m, 1))])
    route = plan_route(m, ir, (0.5, 0.8), config=config)  # chair_0's centre
    assert m.traversable[tuple(route.cells[0])]
    x, y = route.points[0]
    assert np.hypot(x - 0.5, y - 0.8) <= config.start_snap_radius_m


def test_routeir_on_another_grid_is_rejected(two_room_map, config) -> None:
    m = two_room_map
    other = rect_house(name="small", rooms=[RectRoom(0, RoomType.BEDROOM, 0, 0, 2, 2)],
                       objects=[], doors=[])
    ir = _ir(other, [Stage(target=room_region(other, 0))])
    with pytest.raises(RouteIRError, match="ground it on this map"):
        plan_route(m, ir, START, config=config)


def test_negative_weight_is_rejected_by_name(two_room_map, config) -> None:
    m = two_room_map
    bed = footprint_region(m, [m.get_object("bed_0")])
    ir = _ir(m, [Stage(target=room_region(m, 1))],
             [Constraint(ConstraintKind.NEAR, bed, weight=-1.0, label="near the bed")])
    with pytest.raises(RouteIRError, match="near the bed"):
        plan_route(m, ir, START, config=config)


def test_stage_starting_inside_a_must_avoid_is_named(two_room_map, config) -> None:
    m = two_room_map
    fridge = object_goal_region(m, m.get_object("fridge_0"))
    ir = _ir(m, [Stage(target=fridge), Stage(target=room_region(m, 0), label="the bedroom")],
             [Constraint(ConstraintKind.MUST_AVOID, fridge, temporal_scope=(1,),
                         label="the fridge corner")])
    with pytest.raises(NoRouteError, match="stage 2 of 2.*starts inside.*fridge corner") as info:
        plan_route(m, ir, START, config=config)
    assert (info.value.stage, info.value.reason) == (1, "start_blocked")


@pytest.mark.parametrize(("radius", "needle"), [
    (0.45, "regions 'the low half', 'the high half' .reachable without any one"),
    (1.0, "regions 'the low half', 'the high half' together"),
], ids=["each-half-needed", "each-blocks-alone"])
def test_two_must_avoids_at_the_door_are_both_named(two_room_map, config, radius: float,
                                                    needle: str) -> None:
    m = two_room_map
    # The door spans y 1.5..2.5 at x = 3. Radius 0.45: the two disks close it only together
    # (removing either reopens it). Radius 1.0: each closes it alone, so removing one does not
    # help, only removing both does.
    low = disk_region(m, (3.0, 1.6), radius, label="the low half")
    high = disk_region(m, (3.0, 2.4), radius, label="the high half")
    ir = _ir(m, [Stage(target=room_region(m, 1), label="the kitchen")],
             [Constraint(ConstraintKind.MUST_AVOID, low, label="the low half"),
              Constraint(ConstraintKind.MUST_AVOID, high, label="the high half")])
    with pytest.raises(NoRouteError, match=needle) as info:
        plan_route(m, ir, START, config=config)
    assert info.value.reason == "blocked_by_must_avoid"


def test_replanner_reads_routes_off_cost_to_go_fields(two_room_map, config) -> None:
    from map2route.planning import Replanner

    m = two_room_map
    table = m.get_object("dining_table_0")
    stages = [Stage(target=object_goal_region(m, m.get_object("fridge_0"))),
              Stage(target=object_goal_region(m, m.get_object("chair_1")),
                    waypoints=ring_waypoints(m, table, count=6, clearance_m=0.45)[:2])]
    far = Constraint(ConstraintKind.FAR, footprint_region(m, [m.get_object("bed_0")]),
                     temporal_scope=(1,))
    ir = _ir(m, stages, [far])
    planned = plan_route(m, ir, START, config=config)
    replanner = Replanner(m, ir, config=config)
    again = replanner.route_from(START)
    assert again.stage_costs == pytest.approx(planned.stage_costs, rel=1e-8)
    _assert_connected(again)
    # Resume mid-way: from a point of stage 2, heading for its second waypoint.
    mid_xy = tuple(planned.points[planned.stage_index == 1][3])
    resumed = replanner.route_from(mid_xy, stage=1, waypoint=1)
    assert resumed.stage_lengths_m[0] == 0.0
    assert set(resumed.stage_index.tolist()) == {1}
    assert stages[1].target.mask(m.grid)[tuple(resumed.cells[-1])]
    with pytest.raises(NoRouteError, match="out of range"):
        replanner.route_from(START, stage=2)


def test_clearance_constraint_adds_its_weight_inside_its_scope(two_room_map, config) -> None:
    m = two_room_map
    scope = room_region(m, 1)
    clear = Constraint(ConstraintKind.CLEARANCE, Region("", np.zeros((0, 2), np.int32)),
                       spatial_scope=scope, weight=0.5, label="keep clear in the kitchen")
    stages = [Stage(target=room_region(m, 0))]
    with_c = stage_cost_map(m, _ir(m, stages, [clear]), 0, config).cell_cost
    without = stage_cost_map(m, _ir(m, stages), 0, config).cell_cost
    free = m.traversable
    extra = 0.5 * config.lambda_clear * j_clear(distance_fields(m).obstacle_m,
                                                config.clear_scale_m) * m.grid.resolution
    inside = scope.mask(m.grid) & free
    assert (with_c - without)[inside] == pytest.approx(extra[inside])
    assert np.array_equal(with_c[free & ~inside], without[free & ~inside])
    # The global term alone: lambda_clear * J_clear * resolution on every free cell.
    assert without[free] == pytest.approx(2 * extra[free])


# --- soft waypoints: a Near / Relative preference visits its near band ----------------------
def _hall():
    """An 8 m x 3 m hall with a 0.4 m box against the top wall at x = 4 (hand-checkable)."""
    return rect_house(name="hall", rooms=[RectRoom(0, RoomType.LIVING_ROOM, 0, 0, 8, 3)],
                      objects=[RectObject("box_0", "box", 4.0, 2.6, 0.4, 0.4)], doors=[])


def _min_dist_to(m, route, region) -> float:
    d = distance_fields(m).to_region(region)
    return float(d[route.cells[:, 0], route.cells[:, 1]].min())


@pytest.fixture(scope="module")
def soft_on(config) -> PlannerConfig:
    from dataclasses import replace

    return replace(config, soft_waypoints=True, soft_waypoint_band_m=0.3)


def test_soft_waypoint_visits_the_near_band_only_when_on(config, soft_on) -> None:
    from dataclasses import replace

    m = _hall()
    box = footprint_region(m, [m.get_object("box_0")])
    target = disk_region(m, (7.5, 0.5), 0.3)
    # A faint preference (weight 0.01): its cost term alone leaves the route on the bottom
    # (>= 1.5 m from the box); the soft waypoint takes it to within d_min + 0.3 m of the box.
    near = Constraint(ConstraintKind.NEAR, box, weight=0.01, label="near the box")
    ir = _ir(m, [Stage(target=target)], [near])
    off = plan_route(m, ir, (0.5, 0.5), config=replace(soft_on, soft_waypoints=False))
    on = plan_route(m, ir, (0.5, 0.5), config=soft_on)
    d = distance_fields(m).to_region(box)
    d_min = d[m.traversable].min()
    assert _min_dist_to(m, off, box) > 1.4
    assert _min_dist_to(m, on, box) <= d_min + 0.3 + 1e-9
    _assert_connected(on)
    assert target.mask(m.grid)[tuple(on.cells[-1])]
    assert on.length_m > off.length_m
    # The stage cost still sums its legs under the stage's cost map.
    cmap = stage_cost_map(m, ir, 0, soft_on)
    assert on.stage_costs[0] == pytest.approx(
        path_cost(cmap.cell_cost, on.cells, length_weight=cmap.length_weight))
    # hard_only planning never adds soft waypoints.
    hard_on = plan_route(m, ir, (0.5, 0.5), config=soft_on, hard_only=True)
    hard_off = plan_route(m, ir, (0.5, 0.5), config=config, hard_only=True)
    assert np.array_equal(hard_on.cells, hard_off.cells)


def test_soft_waypoint_of_relative_goes_to_a_and_respects_temporal_scope(soft_on) -> None:
    m = _hall()
    box = footprint_region(m, [m.get_object("box_0")])
    b = disk_region(m, (7.5, 2.5), 0.2, label="corner")
    rel = Constraint(ConstraintKind.RELATIVE, box, other=b, weight=0.01, temporal_scope=(1,))
    stages = [Stage(target=disk_region(m, (7.5, 0.5), 0.3)),
              Stage(target=disk_region(m, (0.5, 0.5), 0.3))]
    route = plan_route(m, _ir(m, stages, [rel]), (0.5, 0.5), config=soft_on)
    d_min = distance_fields(m).to_region(box)[m.traversable].min()
    first = route.stage_index == 0
    d = distance_fields(m).to_region(box)[route.cells[:, 0], route.cells[:, 1]]
    assert d[first].min() > 1.4, "stage 1 is outside the temporal scope: no band"
    assert d[~first].min() <= d_min + 0.3 + 1e-9, "stage 2 visits A's band"


def test_soft_waypoint_is_skipped_when_its_band_is_blocked(soft_on) -> None:
    m = _hall()
    box = footprint_region(m, [m.get_object("box_0")])
    near = Constraint(ConstraintKind.NEAR, box, weight=0.01)
    # A must-avoid disk covers the whole band (and more) around the box: the band's cells
    # are blocked, so it is skipped; the route never enters the must-avoid.
    ban = Constraint(ConstraintKind.MUST_AVOID, disk_region(m, (4.0, 2.6), 1.2))
    target = disk_region(m, (7.5, 0.5), 0.3)
    ir = _ir(m, [Stage(target=target)], [near, ban])
    route = plan_route(m, ir, (0.5, 0.5), config=soft_on)
    assert not ban.region.mask(m.grid)[route.cells[:, 0], route.cells[:, 1]].any()
    assert target.mask(m.grid)[tuple(route.cells[-1])]
    # A Near scoped to a region the route never enters gets no band either.
    scope = disk_region(m, (4.0, 2.6), 0.6)
    scoped = Constraint(ConstraintKind.NEAR, box, weight=0.01, spatial_scope=scope)
    plain = plan_route(m, _ir(m, [Stage(target=target)], [scoped]), (0.5, 0.5), config=soft_on)
    assert _min_dist_to(m, plain, box) > 1.4


def test_soft_waypoints_default_on_in_the_shipped_config(config) -> None:
    assert config.soft_waypoints is True
    assert config.soft_waypoint_band_m == pytest.approx(0.3)
    with pytest.raises(PlanningError, match="soft_waypoint_band_m"):
        PlannerConfig.from_dict({"lambdas": {t: 1 for t in ("near", "far", "relative", "clear",
                                                             "path_shape")},
                                 "scales_m": {t: 1 for t in ("near", "far", "relative", "clear",
                                                             "path_shape")},
                                 "search": {"soft_waypoint_band_m": -1}})


# --- far bands: a scoped Far preference visits the farthest reachable cells ---------------
def _window_mean(m, route, region, scope) -> float:
    d = distance_fields(m).to_region(region)
    inside = scope.mask(m.grid)[route.cells[:, 0], route.cells[:, 1]]
    flat = np.unique(route.cells[inside, 0] * m.grid.cols + route.cells[inside, 1])
    return float(d.ravel()[flat].mean())


def test_far_band_visits_the_farthest_cells_only_when_on_and_scoped(config) -> None:
    from dataclasses import replace

    m = _hall()
    box = footprint_region(m, [m.get_object("box_0")])
    hall = room_region(m, 0)
    target = disk_region(m, (7.5, 0.5), 0.3)
    # A faint Far preference scoped to the hall: the cost term alone leaves the route on its
    # straight line (y = 0.5, at most ~3.6 m from the box); the farthest reachable cells are the
    # bottom corners (~4.5 m), and the far band takes the route through one of them.
    far = Constraint(ConstraintKind.FAR, box, weight=0.01, spatial_scope=hall)
    ir = _ir(m, [Stage(target=target)], [far])
    on_cfg = replace(config, far_waypoints=True, far_waypoint_band_m=0.0)
    off = plan_route(m, ir, (0.5, 0.5), config=replace(on_cfg, far_waypoints=False))
    on = plan_route(m, ir, (0.5, 0.5), config=on_cfg)
    d = distance_fields(m).to_region(box)
    d_max = d[m.traversable & hall.mask(m.grid)].max()
    assert d[off.cells[:, 0], off.cells[:, 1]].max() < d_max - 0.3
    assert d[on.cells[:, 0], on.cells[:, 1]].max() >= d_max - 1e-9
    assert _window_mean(m, on, box, hall) > _window_mean(m, off, box, hall)
    _assert_connected(on)
    assert target.mask(m.grid)[tuple(on.cells[-1])]
    # hard_only planning never adds a far band.
    assert np.array_equal(plan_route(m, ir, (0.5, 0.5), config=on_cfg, hard_only=True).cells,
                          plan_route(m, ir, (0.5, 0.5), config=config, hard_only=True).cells)
    # An unscoped Far gets no band (the farthest cell of a whole map is no sensible detour).
    free = Constraint(ConstraintKind.FAR, box, weight=0.01)
    plain = plan_route(m, _ir(m, [Stage(target=target)], [free]), (0.5, 0.5), config=on_cfg)
    assert d[plain.cells[:, 0], plain.cells[:, 1]].max() < d_max - 0.3


def test_far_band_never_enters_a_must_avoid_nor_costs_a_near_preference(config) -> None:
    from dataclasses import replace

    m = _hall()
    box = footprint_region(m, [m.get_object("box_0")])
    hall = room_region(m, 0)
    target = disk_region(m, (7.5, 0.5), 0.3)
    on_cfg = replace(config, far_waypoints=True, far_waypoint_band_m=0.0, soft_waypoints=False)
    far = Constraint(ConstraintKind.FAR, box, weight=0.01, spatial_scope=hall)
    # Both bottom corners (the far band) lie in must-avoid disks: the band's usable cells are
    # the next farthest, and the route never enters a must-avoid.
    bans = [Constraint(ConstraintKind.MUST_AVOID, disk_region(m, (x, 0.0), 0.4))
            for x in (0.0, 8.0)]
    route = plan_route(m, _ir(m, [Stage(target=target)], [far, *bans]), (0.5, 0.6), config=on_cfg)
    for ban in bans:
        assert not ban.region.mask(m.grid)[route.cells[:, 0], route.cells[:, 1]].any()
    assert target.mask(m.grid)[tuple(route.cells[-1])]
    # A Near preference on the far end's top corner in the same stage: the detour to the
    # bottom-left corner (7 m from it) would raise the route's mean distance to it, so the band
    # is dropped and the route is unchanged.
    corner = disk_region(m, (7.7, 2.7), 0.2, label="corner")
    near = Constraint(ConstraintKind.NEAR, corner, weight=0.01, spatial_scope=hall)
    ir = _ir(m, [Stage(target=target)], [far, near])
    with_band = plan_route(m, ir, (0.5, 0.5), config=on_cfg)
    without = plan_route(m, ir, (0.5, 0.5), config=replace(on_cfg, far_waypoints=False))
    assert np.array_equal(with_band.cells, without.cells)


def test_far_waypoints_on_in_the_shipped_config(config) -> None:
    assert config.far_waypoints is True
    assert config.far_waypoint_band_m == pytest.approx(0.0)
    terms = ("near", "far", "relative", "clear", "path_shape")
    with pytest.raises(PlanningError, match="far_waypoint_band_m"):
        PlannerConfig.from_dict({"lambdas": {t: 1 for t in terms},
                                 "scales_m": {t: 1 for t in terms},
                                 "search": {"far_waypoint_band_m": -1}})
