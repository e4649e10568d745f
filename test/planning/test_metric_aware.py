"""The metric-aware candidates (planning/candidates.py, planner._SoftStages): the evaluator's
window, Dinkelbach via cells for Relative, loops round a reference, and their config keys."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from map2route.planning import PlannerConfig, PlanningError, plan_route, warm_up
from map2route.planning.candidates import (
    best_ratio_cell,
    far_side_cell,
    metric_value,
    ring_cells,
    window_points,
)
from map2route.planning.costmap import distance_fields
from map2route.routeir import Constraint, ConstraintKind, RouteIR, Stage
from map2route.routeir.regions import disk_region, footprint_region
from map2route.semantic_map.model import RoomType
from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    warm_up()


def _line(n: int) -> np.ndarray:
    return np.array([[0, c] for c in range(n)], dtype=np.int32)


def _mask(cols: list[int], shape: tuple[int, int] = (1, 10)) -> np.ndarray:
    m = np.zeros(shape, dtype=bool)
    m[0, cols] = True
    return m


def test_window_is_the_route_between_the_bounding_must_pass_hits() -> None:
    pts = _line(10)
    # stage 0's target is first hit at col 3 (also at 7), stage 1's at col 5 (searched from 3)
    targets = [_mask([3, 7]), _mask([5])]
    assert np.array_equal(window_points(pts, targets, None), pts)
    assert np.array_equal(window_points(pts, targets, (0,))[:, 1], [0, 1, 2, 3])
    assert np.array_equal(window_points(pts, targets, (1,))[:, 1], [3, 4, 5])
    assert np.array_equal(window_points(pts, targets, (0, 1))[:, 1], [0, 1, 2, 3, 4, 5])
    # a stage not planned yet (its target not on the route): open to the end
    assert np.array_equal(window_points(pts[:5], targets, (1,))[:, 1], [3, 4])


def test_best_ratio_cell_is_dinkelbachs_step() -> None:
    usable = np.ones((1, 4), dtype=bool)
    d_a = np.array([[0.5, 1.0, 0.2, 2.0]])
    d_b = np.array([[1.0, 3.0, 1.0, 2.5]])
    # R = 1: gains 0.5, 2.0, 0.8, 0.5 -> col 1; R = 4: gains -1, -1, 0.2, -5.5 -> col 2
    assert best_ratio_cell(usable, d_a, d_b, 1.0) == (0, 1)
    assert best_ratio_cell(usable, d_a, d_b, 4.0) == (0, 2)
    # no cell raises a ratio of 6 (every gain <= 0), and no ratio yet gives nothing
    assert best_ratio_cell(usable, d_a, d_b, 6.0) is None
    assert best_ratio_cell(usable, d_a, d_b, None) is None
    assert best_ratio_cell(usable & False, d_a, d_b, 1.0) is None


def test_far_side_cell_is_the_band_cell_farthest_from_b() -> None:
    band = _mask([2, 3, 4])
    d_b = np.arange(10, dtype=float)[None, :]
    d_b[0, 4] = np.inf  # unreachable distance never wins
    assert far_side_cell(band, d_b) == (0, 3)
    assert far_side_cell(band & False, d_b) is None


def test_ring_cells_go_round_the_centre_a_quarter_turn_apart() -> None:
    rr, cc = np.mgrid[0:21, 0:21]
    r = np.hypot(rr - 10, cc - 10)
    band = (r >= 7.5) & (r <= 8.5)
    e1 = (10, 18)  # east of the centre
    ccw = ring_cells(band, (10.0, 10.0), e1, clockwise=False)
    cw = ring_cells(band, (10.0, 10.0), e1, clockwise=True)
    # angles are atan2(row, col): +90 deg is larger rows
    assert ccw == [(18, 10), (10, 2), (2, 10)]
    assert cw == [(2, 10), (10, 2), (18, 10)]
    # a band on one side only (an object against a wall) gives no loop
    half = band & (cc >= 10)
    assert ring_cells(half, (10.0, 10.0), e1, clockwise=False) == []


def _room():
    """An 8 m x 4 m room, a 2 m table (A) in the middle and a box (B) at its west end."""
    return rect_house(name="room", rooms=[RectRoom(0, RoomType.LIVING_ROOM, 0, 0, 8, 4)],
                      objects=[RectObject("table_0", "table", 4.0, 2.0, 2.0, 0.6),
                               RectObject("box_0", "box", 1.0, 2.0, 0.4, 0.4)], doors=[])


def test_relative_metric_aware_candidates_raise_the_official_ratio(monkeypatch) -> None:
    m = _room()
    table = footprint_region(m, [m.get_object("table_0")])
    box = footprint_region(m, [m.get_object("box_0")])
    target = disk_region(m, (7.5, 3.5), 0.3)
    ban = Constraint(ConstraintKind.MUST_AVOID, disk_region(m, (6.0, 0.5), 0.4))
    rel = Constraint(ConstraintKind.RELATIVE, table, other=box, weight=1.0)
    ir = RouteIR(stages=(Stage(target=target),), constraints=(rel, ban), grid=m.grid,
                 scene=m.name)
    cfg = PlannerConfig.from_yaml()
    before = replace(cfg, evaluator_window=False, pass_around=False, outside_target=False,
                     loops=False, trade=0.0)
    fields = distance_fields(m)

    def ratio(route) -> float:
        value = metric_value(rel, route.cells, fields.traversable, fields)
        assert value is not None
        return value

    old = plan_route(m, ir, (0.5, 0.5), config=before)
    new = plan_route(m, ir, (0.5, 0.5), config=cfg)
    assert ratio(new) > ratio(old) + 0.05
    # hard requirements kept: the target reached, the must-avoid never entered, 8-connected
    assert target.mask(m.grid)[tuple(new.cells[-1])]
    assert not ban.region.mask(m.grid)[new.cells[:, 0], new.cells[:, 1]].any()
    assert (np.abs(np.diff(new.cells.astype(int), axis=0)).max(axis=1) == 1).all()
    # hard_only planning ignores every option
    assert np.array_equal(plan_route(m, ir, (0.5, 0.5), config=cfg, hard_only=True).cells,
                          plan_route(m, ir, (0.5, 0.5), config=before, hard_only=True).cells)


def test_metric_aware_keys_in_the_config() -> None:
    cfg = PlannerConfig.from_yaml()
    assert (cfg.evaluator_window, cfg.pass_around, cfg.outside_target, cfg.loops) == (
        True, True, True, True)
    assert (cfg.relative_off_b_exits, cfg.repeat_bands, cfg.early_placements) == (
        False, False, False)
    assert cfg.trade == 0.25
    doc = {"lambdas": {k: 1 for k in ("near", "far", "relative", "clear", "path_shape")},
           "scales_m": {k: 1 for k in ("near", "far", "relative", "clear", "path_shape")}}
    assert PlannerConfig.from_dict({**doc, "search": {"loops": True}}).loops is True
    with pytest.raises(PlanningError, match="trade"):
        PlannerConfig.from_dict({**doc, "search": {"trade": -0.5}})
    with pytest.raises(PlanningError, match="trade"):
        PlannerConfig.from_dict({**doc, "search": {"trade": "some"}})
