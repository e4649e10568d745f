"""The grid-search kernel against a brute-force Dijkstra (networkx) and hand-computed costs."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from map2route.gridsearch.kernel import (
    cost_to_go,
    goal_field,
    path_cost,
    search,
    warm_up,
)
from map2route.planning.errors import NoPathError, NoRouteError

SQRT2 = math.sqrt(2.0)
RTOL = 1e-8  # the A* is exact within a relative 1e-9 (tie-breaking), see gridsearch.kernel's doc


def brute_force(cost: np.ndarray, start: tuple[int, int], goal: np.ndarray, *,
                length_weight: float, corner_cut: bool) -> float:
    """Dijkstra by networkx on the explicit graph of the same cost model."""
    rows, cols = cost.shape
    graph = nx.DiGraph()
    for r in range(rows):
        for c in range(cols):
            if not np.isfinite(cost[r, c]):
                continue
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if dr == dc == 0:
                        continue
                    vr, vc = r + dr, c + dc
                    if not (0 <= vr < rows and 0 <= vc < cols) or not np.isfinite(cost[vr, vc]):
                        continue
                    diagonal = dr != 0 and dc != 0
                    if diagonal and not corner_cut and (
                            not np.isfinite(cost[vr, c]) or not np.isfinite(cost[r, vc])):
                        continue
                    step = SQRT2 if diagonal else 1.0
                    graph.add_edge((r, c), (vr, vc), weight=length_weight * step + cost[vr, vc])
    graph.add_node(start)
    for r, c in zip(*np.nonzero(goal & np.isfinite(cost)), strict=True):
        graph.add_edge((int(r), int(c)), "sink", weight=0.0)
    try:
        return float(nx.shortest_path_length(graph, start, "sink", weight="weight"))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return math.inf


def random_case(seed: int, rows: int = 11, cols: int = 14, blocked: float = 0.25):
    rng = np.random.default_rng(seed)
    cost = rng.random((rows, cols)) * rng.choice([0.0, 1.0, 5.0])
    cost[rng.random((rows, cols)) < blocked] = np.inf
    cost[0, 0] = 0.0
    goal = np.zeros((rows, cols), dtype=bool)
    k = int(rng.integers(1, 4))
    goal[rng.integers(0, rows, k), rng.integers(0, cols, k)] = True
    goal[0, 0] = False
    return cost, goal


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    warm_up()


CASES = [(seed, lw, cc) for seed in range(8) for lw, cc in ((1.0, False), (1.0, True), (0.0, False),
                                                             (0.05, False))]


@pytest.mark.parametrize(("seed", "length_weight", "corner_cut"), CASES,
                         ids=[f"seed{s}-lw{lw}-{'cut' if c else 'nocut'}" for s, lw, c in CASES])
def test_search_cost_equals_brute_force_dijkstra(seed: int, length_weight: float,
                                                 corner_cut: bool) -> None:
    cost, goal = random_case(seed)
    expected = brute_force(cost, (0, 0), goal, length_weight=length_weight, corner_cut=corner_cut)
    if math.isinf(expected):
        with pytest.raises(NoPathError):
            search(cost, (0, 0), goal, length_weight=length_weight,
                   allow_corner_cutting=corner_cut)
        return
    path = search(cost, (0, 0), goal, length_weight=length_weight, allow_corner_cutting=corner_cut)
    assert path.cost == pytest.approx(expected, rel=RTOL, abs=1e-12)
    # The reported cost is the cost of the returned cells, which start at start and end in goal.
    assert path_cost(cost, path.cells, length_weight=length_weight) == pytest.approx(path.cost)
    assert tuple(path.cells[0]) == (0, 0)
    assert goal[tuple(path.cells[-1])]
    assert np.isfinite(cost[path.cells[:, 0], path.cells[:, 1]]).all()
    field = cost_to_go(cost, goal, length_weight=length_weight, allow_corner_cutting=corner_cut)
    assert field[0, 0] == pytest.approx(expected, rel=1e-12, abs=1e-12)
    again = goal_field(cost, goal, length_weight=length_weight,
                       allow_corner_cutting=corner_cut).path_from((0, 0))
    assert again.cost == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert path_cost(cost, again.cells, length_weight=length_weight) == pytest.approx(expected)
    assert goal[tuple(again.cells[-1])]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), rows=st.integers(2, 9), cols=st.integers(2, 9))
def test_search_is_optimal_on_random_grids(seed: int, rows: int, cols: int) -> None:
    cost, goal = random_case(seed, rows, cols, blocked=0.3)
    if not goal.any():
        goal[-1, -1] = True
    expected = brute_force(cost, (0, 0), goal, length_weight=1.0, corner_cut=False)
    if math.isinf(expected):
        with pytest.raises(NoPathError):
            search(cost, (0, 0), goal)
    else:
        assert search(cost, (0, 0), goal).cost == pytest.approx(expected, rel=RTOL, abs=1e-12)


def test_hand_computed_cost_on_a_tiny_grid() -> None:
    # 3x3, centre blocked, goal at the far corner (2, 2). Without corner cutting the path must
    # go round: (0,0)->(0,1)->(0,2)->(1,2)->(2,2) = 4 straight steps, entering cells costing
    # 1 + 2 + 3 + 0 = 6, so cost = 4 * 1 + 6 = 10. A diagonal (0,1)->(1,2) would cut the
    # blocked centre's corner, so it is not allowed. With cutting: (0,0)->(0,1)->(1,2)->(2,2)
    # = 1 + sqrt(2) + 1 plus entering 1 + 3 + 0 -> 6 + sqrt(2).
    cost = np.array([[0.0, 1.0, 2.0],
                     [5.0, np.inf, 3.0],
                     [5.0, 5.0, 0.0]])
    goal = np.zeros((3, 3), dtype=bool)
    goal[2, 2] = True
    path = search(cost, (0, 0), goal)
    assert path.cost == pytest.approx(10.0)
    assert path.cells.tolist() == [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2]]
    cut = search(cost, (0, 0), goal, allow_corner_cutting=True)
    assert cut.cost == pytest.approx(6.0 + SQRT2)
    assert cut.cells.tolist() == [[0, 0], [0, 1], [1, 2], [2, 2]]


def test_diagonals_cost_exactly_sqrt2() -> None:
    cost = np.zeros((6, 6))
    goal = np.zeros((6, 6), dtype=bool)
    goal[5, 5] = True
    path = search(cost, (0, 0), goal)
    assert path.cost == pytest.approx(5 * SQRT2, rel=1e-12)
    assert len(path.cells) == 6


def test_multi_cell_goal_reaches_the_cheapest_cell() -> None:
    cost = np.zeros((5, 9))
    goal = np.zeros((5, 9), dtype=bool)
    goal[2, 0] = goal[2, 8] = True
    cost[:, 1] = 10.0  # the near goal cell sits behind an expensive column
    path = search(cost, (2, 3), goal)
    assert path.goal == (2, 8)
    assert path.cost == pytest.approx(5.0)


def test_length_weight_zero_counts_only_entered_cells() -> None:
    # NeSy-Route's model: a step costs the terrain cost of the cell entered.
    cost = np.array([[1.0, 1.0, 1.0, 1.0]])
    goal = np.zeros((1, 4), dtype=bool)
    goal[0, 3] = True
    assert search(cost, (0, 0), goal, length_weight=0.0).cost == pytest.approx(3.0)


def test_start_in_goal_costs_nothing() -> None:
    cost = np.ones((3, 3))
    goal = np.ones((3, 3), dtype=bool)
    path = search(cost, (1, 1), goal)
    assert path.cost == 0.0
    assert path.cells.tolist() == [[1, 1]]


@pytest.mark.parametrize(("cost", "start", "goal", "reason"), [
    (np.array([[0.0, np.inf, 0.0]]), (0, 0), (0, 2), "unreachable"),
    (np.array([[np.inf, 0.0, 0.0]]), (0, 0), (0, 2), "start_blocked"),
    (np.array([[0.0, 0.0, np.inf]]), (0, 0), (0, 2), "empty_target"),
    (np.array([[0.0, -1.0, 0.0]]), (0, 0), (0, 2), "bad_input"),
    (np.array([[0.0, np.nan, 0.0]]), (0, 0), (0, 2), "bad_input"),
    (np.array([[0.0, 0.0, 0.0]]), (3, 0), (0, 2), "bad_input"),
], ids=["wall", "start-blocked", "goal-blocked", "negative", "nan", "start-outside"])
def test_failures_raise_no_path_error_with_reason(cost: np.ndarray, start: tuple[int, int],
                                                  goal: tuple[int, int], reason: str) -> None:
    mask = np.zeros(cost.shape, dtype=bool)
    mask[goal] = True
    with pytest.raises(NoPathError) as info:
        search(cost, start, mask)
    assert info.value.reason == reason
    assert isinstance(info.value, NoRouteError)
    assert str(info.value)


def test_cost_to_go_marks_unreachable_cells_inf() -> None:
    cost = np.zeros((3, 5))
    cost[:, 2] = np.inf
    goal = np.zeros((3, 5), dtype=bool)
    goal[1, 4] = True
    field = cost_to_go(cost, goal)
    assert np.isinf(field[:, :3]).all()
    assert field[1, 4] == 0.0
    assert field[1, 3] == pytest.approx(1.0)
    assert field[0, 3] == pytest.approx(SQRT2)
