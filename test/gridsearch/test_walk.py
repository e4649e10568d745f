"""The comfortable walk through waypoints (tau_ref for Path-Shape), on hand-checkable grids."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.errors import Map2RouteError
from map2route.gridsearch.walk import KEEP_CLEAR_M, clearance_m, comfortable_walk, walk_cost

RES = 0.05


def _room(rows: int = 40, cols: int = 60) -> np.ndarray:
    free = np.ones((rows, cols), dtype=bool)
    free[0, :] = free[-1, :] = free[:, 0] = free[:, -1] = False  # walls all round
    return free


def _neighbours(cells: np.ndarray) -> bool:
    steps = np.abs(np.diff(cells, axis=0))
    return bool(((steps.max(axis=1) == 1)).all())


def test_walk_cost_rises_only_within_keep_clear_of_obstacles() -> None:
    free = _room()
    clear = clearance_m(free, RES)
    cost = walk_cost(free, clear)
    assert np.isinf(cost[0, 5]) and cost[20, 30] == 0.0  # wall; 1 m from every wall
    # One cell in from the wall: clearance 0.05 m, cost 2 * (1 - 0.05 / 0.6).
    assert cost[1, 30] == pytest.approx(2.0 * (1.0 - 0.05 / KEEP_CLEAR_M))
    assert cost[12, 30] == 0.0  # 0.6 m from the bottom wall


def test_walk_passes_its_waypoints_in_order_and_keeps_clear_of_the_walls() -> None:
    free = _room()
    loop = [(20, 15), (20, 45), (8, 30), (20, 15)]
    cells = comfortable_walk(free, RES, loop)
    assert _neighbours(cells) and free[cells[:, 0], cells[:, 1]].all()
    hits = [int(np.flatnonzero((cells == w).all(axis=1))[0]) for w in loop[:-1]]
    assert hits == sorted(hits) and tuple(cells[-1]) == loop[-1]
    # The straight leg (20, 15) -> (20, 45) runs 1 m from every wall: it stays on row 20.
    first_leg = cells[:hits[1] + 1]
    assert (first_leg[:, 0] == 20).all() and len(first_leg) == 31


def test_walk_bends_around_furniture_when_there_is_room() -> None:
    free = _room(60, 80)
    free[27:33, 38:42] = False  # a 0.3 x 0.2 m box on the straight line between the ends
    cells = comfortable_walk(free, RES, [(30, 10), (30, 70)])
    no_box = np.ones_like(free)
    no_box[27:33, 38:42] = False
    to_box = clearance_m(no_box, RES)
    # It keeps about 0.6 m from the box (the cost is zero there) instead of grazing it.
    assert to_box[cells[:, 0], cells[:, 1]].min() >= KEEP_CLEAR_M - 2 * RES
    # ... and is still a short detour, not a wander (the straight line is 3.0 m).
    length = float(np.hypot(*np.diff(cells, axis=0).T).sum()) * RES
    assert 3.0 < length < 3.0 * 1.25


def test_an_unreachable_waypoint_is_an_error() -> None:
    free = _room()
    free[:, 30] = False  # a wall splits the room
    with pytest.raises(Map2RouteError):
        comfortable_walk(free, RES, [(20, 10), (20, 50)])


def test_grounding_shape_reference_is_the_walk_through_its_waypoints(two_room_map) -> None:
    from map2route.grounding import api as api_module
    from map2route.grounding.api import GroundingAPI

    assert api_module.SHAPE_REFERENCE == "walk"
    api = GroundingAPI(two_room_map, start_xy=(1.5, 1.0))
    loop = api.circle(api.unique(api.entities("bed")), "counterclockwise")
    ref = loop._path._mask
    assert ref.any() and (ref <= two_room_map.traversable).all()
    # The walk goes through every waypoint region.
    assert all((w._mask & ref).any() for w in loop._waypoints)
    assert loop._path._construction.get("reference") == "walk"
    # A ring, so its cells surround the bed's centre on every side.
    bed = two_room_map.get_object(api.unique(api.entities("bed"))._key)
    rows, cols = np.nonzero(ref)
    xy = two_room_map.grid.cells_to_worlds(np.stack([rows, cols], axis=1))
    angles = np.arctan2(xy[:, 1] - bed.center[1], xy[:, 0] - bed.center[0])
    assert np.histogram(angles, bins=4, range=(-math.pi, math.pi))[0].min() > 0
