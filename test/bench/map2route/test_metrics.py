"""Each Map2Route metric against a value computed by hand (paper 000, Table I and III-C)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.bench.map2route import metrics as mt
from map2route.semantic_map.grid import GridSpec

GRID = GridSpec(rows=10, cols=10, resolution=1.0)


def _mask(cells: list[tuple[int, int]]) -> np.ndarray:
    m = np.zeros(GRID.shape, dtype=bool)
    for r, c in cells:
        m[r, c] = True
    return m


def test_path_length_is_the_polyline_length() -> None:
    assert mt.path_length_m([(0, 0), (3, 4), (3, 5)]) == pytest.approx(6.0)
    assert mt.path_length_m([(1, 1)]) == 0.0


def test_distinct_in_order_keeps_first_occurrence() -> None:
    cells = np.array([[0, 0], [0, 1], [0, 0], [1, 1], [0, 1]])
    assert mt.distinct_in_order(cells).tolist() == [[0, 0], [0, 1], [1, 1]]


def test_dense_route_cells_fills_a_sparse_segment() -> None:
    grid = GridSpec(rows=4, cols=20, resolution=0.05)
    cells = mt.dense_route_cells([(0.025, 0.025), (0.525, 0.025)], grid)
    assert cells.tolist() == [[0, c] for c in range(11)]


@pytest.mark.parametrize(
    ("route", "expected_hcs", "success"),
    [
        ([(0, 0), (0, 3), (0, 6)], 1.0, True),          # A then B, never in the avoid
        ([(0, 0), (0, 3), (2, 4), (0, 6)], 2 / 3, False),  # enters the avoid at (2, 4)
        ([(0, 6), (0, 3)], 2 / 3, False),                 # B before A: B (the destination) fails
        ([(0, 0), (0, 3), (0, 6), (0, 8)], 2 / 3, False),  # passes B but ends outside it
        ([(0, 0), (0, 6)], 1 / 3, False),                 # skips A: A and B both fail
    ],
    ids=["in-order", "enters-avoid", "out-of-order", "leaves-destination", "skips-a"],
)
def test_hcs_counts_ordered_passes_destination_and_avoids(route, expected_hcs, success) -> None:
    cells = np.array(route)
    a, b = _mask([(0, 3)]), _mask([(0, 6)])
    avoid = _mask([(2, 4)])
    res = mt.hard_constraint_score(cells, [a, b], [avoid])
    assert res.hcs == pytest.approx(expected_hcs)
    assert res.success is success


def test_hcs_scoped_avoid_only_counts_its_stage() -> None:
    cells = np.array([[0, 0], [2, 4], [0, 3], [0, 6]])
    a, b = _mask([(0, 3)]), _mask([(0, 6)])
    avoid = _mask([(2, 4)])
    active_after_a = np.array([False, False, True, True])
    assert mt.hard_constraint_score(cells, [a, b], [avoid], [active_after_a]).success


def test_near_far_is_the_mean_closest_point_distance() -> None:
    window = np.array([[0.0, 0.0], [3.0, 1.0]])
    obj = np.array([[0.0, 1.0], [5.0, 5.0]])
    # (0,0) -> (0,1): 1;  (3,1) -> (0,1): 3;  mean 2
    assert mt.near_far_value(window, obj) == pytest.approx(2.0)


def test_near_worst_is_the_largest_distance_in_the_region() -> None:
    region = np.array([[0.0, 0.0], [4.0, 3.0]])
    assert mt.near_worst_value(region, np.array([[0.0, 0.0]])) == pytest.approx(5.0)


def test_relative_is_db_over_da_plus_eps() -> None:
    window = np.array([[0.0, 0.0]])
    value = mt.relative_value(window, np.array([[1.0, 0.0]]), np.array([[3.0, 0.0]]))
    assert value == pytest.approx(3.0 / (1.0 + mt.RELATIVE_EPS_M))


@pytest.mark.parametrize(
    ("offset", "expected"),
    [(0.0, 1.0), (0.4, 1.0), (0.7, math.exp(-1.0))],
    ids=["identical", "inside-tolerance", "0.2m-beyond-tolerance"],
)
def test_path_shape_is_tolerance_aware_ndtw(offset, expected) -> None:
    ref = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    route = ref + np.array([0.0, offset])
    # 0.7 m offset: the diagonal alignment pays 3 x (0.7 - 0.5) = 0.6; exp(-0.6 / (0.2 * 3))
    assert mt.path_shape_value(route, ref) == pytest.approx(expected)


def test_dtw_prefers_the_cheapest_warping() -> None:
    a = np.array([[0.0, 0.0], [0.0, 0.0], [2.0, 0.0]])
    b = np.array([[0.0, 0.0], [2.0, 0.0]])
    assert mt.dtw_tolerant(a, b, delta=0.0) == pytest.approx(0.0)
    assert mt.dtw_tolerant(a, b, delta=0.0) == pytest.approx(mt._dtw_tolerant_py(a, b, 0.0))


def test_clearance_is_the_mean_distance_to_non_traversable() -> None:
    trav = np.zeros((5, 5), dtype=bool)
    trav[1:4, 1:4] = True
    field = mt.clearance_field_m(trav, 0.5)
    assert field[2, 2] == pytest.approx(1.0)  # two cells of 0.5 m to the border
    assert field[1, 1] == pytest.approx(0.5)
    assert mt.clearance_value(np.array([[2, 2], [1, 1]]), field) == pytest.approx(0.75)


def test_spl_weights_success_by_shortest_over_taken() -> None:
    assert mt.spl([True, False, True], [10.0, 10.0, 10.0], [20.0, 5.0, 8.0]) == pytest.approx(
        (0.5 + 0.0 + 1.0) / 3)
