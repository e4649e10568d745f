"""Candidate routes per band (planning/candidates.py) and the length budget, on hand-checkable maps."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from map2route.gridsearch.kernel import GridPath
from map2route.planning import PlannerConfig, PlanningError, plan_route, warm_up
from map2route.planning.candidates import (
    cell_mask,
    exit_cells,
    first_in,
    metric_value,
    route_points,
)
from map2route.planning.costmap import distance_fields
from map2route.routeir import Constraint, ConstraintKind, Region, RouteIR, Stage
from map2route.routeir.regions import disk_region, footprint_region
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import RoomType
from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    warm_up()


@pytest.fixture(scope="module")
def config() -> PlannerConfig:
    return PlannerConfig.from_yaml()


class _Fields:
    """A stand-in for DistanceFields with hand-set distances (metric_value only reads to_region)."""

    def __init__(self, by_label: dict[str, np.ndarray]) -> None:
        self.by_label = by_label

    def to_region(self, region: Region) -> np.ndarray:
        return self.by_label[region.label]


def _region(label: str, grid: GridSpec) -> Region:
    mask = np.zeros(grid.shape, dtype=bool)
    mask[0, 0] = True
    return Region.from_mask(label, mask)


def test_route_points_drops_consecutive_repeats_only() -> None:
    a = GridPath(np.array([[0, 0], [0, 1], [1, 1]], dtype=np.int32), 0.0)
    b = GridPath(np.array([[1, 1], [0, 1]], dtype=np.int32), 0.0)
    pts = route_points([a, b])
    # the leg junction (1, 1) appears once; (0, 1) is visited twice and counted twice
    assert pts.tolist() == [[0, 0], [0, 1], [1, 1], [0, 1]]
    assert route_points([]).shape == (0, 2)


def test_metric_value_is_the_official_mean_over_every_point_inside() -> None:
    grid = GridSpec(rows=1, cols=4, resolution=1.0)
    d_a = np.array([[1.0, 2.0, 3.0, 4.0]])
    d_b = np.array([[4.0, 4.0, 2.0, 2.0]])
    fields = _Fields({"A": d_a, "B": d_b})
    pts = np.array([[0, 0], [0, 1], [0, 0], [0, 3]], dtype=np.int32)
    active = np.array([[True, True, False, True]])
    near = Constraint(ConstraintKind.NEAR, _region("A", grid))
    far = Constraint(ConstraintKind.FAR, _region("A", grid))
    rel = Constraint(ConstraintKind.RELATIVE, _region("A", grid), other=_region("B", grid))
    # points inside: (0,0) twice, (0,1), (0,3): d_A = 1, 2, 1, 4 -> mean 2; d_B mean 3.5
    assert metric_value(near, pts, active, fields) == pytest.approx(-2.0)
    assert metric_value(far, pts, active, fields) == pytest.approx(2.0)
    assert metric_value(rel, pts, active, fields) == pytest.approx(3.5 / 2.0)
    assert metric_value(near, pts, np.zeros((1, 4), dtype=bool), fields) is None
    # D_A = 0: no value, as the evaluator's raw_value None
    zero = _Fields({"A": np.zeros((1, 4)), "B": d_b})
    assert metric_value(rel, pts, active, zero) is None


def test_exit_cells_pick_the_band_cell_nearest_the_next_goal_and_the_farthest() -> None:
    band = np.zeros((5, 9), dtype=bool)
    band[2, :] = True  # a straight band along row 2
    to_next = np.abs(np.arange(9.0) - 6.0)[None, :].repeat(5, axis=0)  # next goal at column 6
    exits = exit_cells(band, (2, 0), to_next)
    assert exits[0] == (2, 6)  # nearest the next goal
    assert (2, 8) in exits  # the farthest from e1
    assert (2, 4) in exits  # half-way
    assert (2, 0) not in exits
    assert exit_cells(band & (np.arange(9) < 2)[None, :], (2, 0), to_next) == []
    assert first_in(np.array([[0, 0], [2, 3], [2, 4]], dtype=np.int32), band) == (2, 3)
    assert cell_mask((3, 3), (1, 2)).sum() == 1


def _room():
    """A 8 m x 4 m room with a 2 m long table in the middle (a reference to pass along)."""
    return rect_house(name="room", rooms=[RectRoom(0, RoomType.LIVING_ROOM, 0, 0, 8, 4)],
                      objects=[RectObject("table_0", "table", 4.0, 2.0, 2.0, 0.6)], doors=[])


def _ir(m, stages, constraints=()):
    return RouteIR(stages=tuple(stages), constraints=tuple(constraints), grid=m.grid, scene=m.name)


def _near_mean(m, route, region) -> float:
    d = distance_fields(m).to_region(region)
    return float(d[route.cells[:, 0], route.cells[:, 1]].mean())


def test_pass_along_lowers_the_official_near_mean_and_keeps_hard_requirements(config) -> None:
    m = _room()
    table = footprint_region(m, [m.get_object("table_0")])
    target = disk_region(m, (7.5, 0.5), 0.3)
    ban = Constraint(ConstraintKind.MUST_AVOID, disk_region(m, (4.0, 3.5), 0.4))
    near = Constraint(ConstraintKind.NEAR, table, weight=0.01)
    ir = _ir(m, [Stage(target=target)], [near, ban])
    base = replace(config, soft_waypoints=True, far_waypoints=False, length_budget=None)
    off = plan_route(m, ir, (0.5, 0.5), config=replace(base, pass_along=False))
    on = plan_route(m, ir, (0.5, 0.5), config=replace(base, pass_along=True))
    assert _near_mean(m, on, table) < _near_mean(m, off, table) - 0.05
    assert target.mask(m.grid)[tuple(on.cells[-1])]
    assert not ban.region.mask(m.grid)[on.cells[:, 0], on.cells[:, 1]].any()
    steps = np.abs(np.diff(on.cells.astype(int), axis=0))
    assert (steps.max(axis=1) == 1).all()
    # hard_only planning ignores it
    assert np.array_equal(plan_route(m, ir, (0.5, 0.5), config=replace(base, pass_along=True),
                                     hard_only=True).cells,
                          plan_route(m, ir, (0.5, 0.5), config=base, hard_only=True).cells)


def test_length_budget_bounds_the_detours(config) -> None:
    m = _room()
    table = footprint_region(m, [m.get_object("table_0")])
    target = disk_region(m, (7.5, 0.5), 0.3)
    ir = _ir(m, [Stage(target=target)], [Constraint(ConstraintKind.NEAR, table, weight=0.01)])
    base = replace(config, soft_waypoints=True, far_waypoints=False, pass_along=True)
    shortest = plan_route(m, ir, (0.5, 0.5), config=base, hard_only=True).length_m
    free = plan_route(m, ir, (0.5, 0.5), config=replace(base, length_budget=None))
    assert free.length_m > 1.2 * shortest  # the unbounded pass is a long detour here
    plain = plan_route(m, ir, (0.5, 0.5),
                       config=replace(base, soft_waypoints=False, pass_along=False))
    for budget in (0.0, 0.2):
        bounded = plan_route(m, ir, (0.5, 0.5), config=replace(base, length_budget=budget))
        # within the budget, or (when even one band is over it) the plan without bands
        assert (bounded.length_m <= (1 + budget) * shortest + 1e-6
                or bounded.length_m == pytest.approx(plain.length_m))
    loose = plan_route(m, ir, (0.5, 0.5), config=replace(base, length_budget=10.0))
    assert np.array_equal(loose.cells, free.cells)


def test_length_budget_and_pass_along_in_the_config(config) -> None:
    assert config.pass_along is True
    assert config.length_budget is None
    doc = {"lambdas": {"near": 8, "far": 96, "relative": 64, "clear": 36, "path_shape": 8},
           "scales_m": {"near": 3, "far": 5, "relative": 2, "clear": 0.5, "path_shape": 1}}
    assert PlannerConfig.from_dict({**doc, "search": {"length_budget": 0.4}}).length_budget == 0.4
    assert PlannerConfig.from_dict({**doc, "search": {"length_budget": None}}).length_budget is None
    with pytest.raises(PlanningError, match="length_budget"):
        PlannerConfig.from_dict({**doc, "search": {"length_budget": -0.1}})
    with pytest.raises(PlanningError, match="length_budget"):
        PlannerConfig.from_dict({**doc, "search": {"length_budget": "lots"}})
