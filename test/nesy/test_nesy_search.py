"""The official A* cost model: optimal against a brute-force Dijkstra, Bresenham, path cost."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from map2route.nesy.kb import IMPASSABLE
from map2route.nesy.search import (
    cost_field,
    leg_path,
    optimal_path,
    path_cost,
    path_from_field,
    step_costs,
)


def brute_force_cost(w: np.ndarray, s: tuple[int, int], g: tuple[int, int]) -> float:
    """Dijkstra over an explicit 8-connected graph whose edge weight is W of the entered cell."""
    graph = nx.DiGraph()
    rows, cols = w.shape
    for r in range(rows):
        for c in range(cols):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < rows and 0 <= cc < cols and \
                            w[rr, cc] != IMPASSABLE and w[r, c] != IMPASSABLE:
                        graph.add_edge((r, c), (rr, cc), weight=int(w[rr, cc]))
    return float(nx.dijkstra_path_length(graph, s, g)) + float(w[s])


@pytest.mark.parametrize("seed", range(6), ids=[f"seed{i}" for i in range(6)])
def test_optimal_against_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    w = rng.choice(np.array([1, 2, 3, 5, IMPASSABLE], dtype=np.uint16), size=(14, 17),
                   p=[0.3, 0.2, 0.2, 0.1, 0.2])
    free = np.argwhere(w != IMPASSABLE)
    s, g = tuple(int(v) for v in free[0]), tuple(int(v) for v in free[-1])
    try:
        expected = brute_force_cost(w, s, g)
    except nx.NetworkXNoPath:
        pytest.skip("random map has no path")
    cells = optimal_path(w, s, g)
    assert tuple(cells[0]) == s and tuple(cells[-1]) == g
    assert path_cost(w, cells) == pytest.approx(expected)
    field = cost_field(w, g)
    via_field = path_from_field(w, field, s, g)
    assert path_cost(w, via_field) == pytest.approx(expected)
    assert np.abs(np.diff(via_field.astype(int), axis=0)).max() == 1


def test_corner_cutting_is_allowed() -> None:
    w = np.array([[1, IMPASSABLE], [IMPASSABLE, 1]], dtype=np.uint16)
    assert optimal_path(w, (0, 0), (1, 1)).tolist() == [[0, 0], [1, 1]]


@pytest.mark.parametrize("seed", range(4), ids=[f"seed{i}" for i in range(4)])
def test_windowed_leg_is_exact(seed: int) -> None:
    # pricey terrain between two points and a cheap corridor far around it: the first window
    # must be rejected by the bound and the search widened
    rng = np.random.default_rng(seed)
    w = rng.choice(np.array([6, 6, 5, IMPASSABLE], dtype=np.uint16), size=(80, 40))
    w[0, :] = 1
    w[:, 0] = 1
    w[:, 39] = 1
    a, b = (60, 0), (60, 39)  # first window: rows 21-79, without the cheap row 0
    cells = leg_path(step_costs(w), a, b, margin=1)
    assert cells is not None and cells[:, 0].min() == 0  # found the corridor after widening
    assert cells is not None and tuple(cells[0]) == a and tuple(cells[-1]) == b
    assert path_cost(w, cells) == pytest.approx(brute_force_cost(w, a, b))


def test_windowed_leg_unreachable() -> None:
    w = np.ones((5, 5), dtype=np.uint16)
    w[:, 2] = IMPASSABLE
    assert leg_path(step_costs(w), (0, 0), (0, 4), margin=1) is None
