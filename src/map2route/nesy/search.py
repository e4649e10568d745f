"""The official NeSy-Route A* cost model on top of map2route's exact grid search.

NeSy-Route (section 3.3.3, Eq. 2 and the official evaluation code): 8-connected moves, each step
costs the terrain cost ``W`` of the cell *entered*, impassable cells hold 65535 in a uint16 cost
map. The path cost used by CR (Eq. 14) is ``sum(W(p))`` over every cell of the path, the start
cell included; since the start is fixed, minimising the entered-cell sum minimises that too.

Corner cutting: the official A* is a plain 8-neighbour search with no rule about the two
orthogonal cells a diagonal step passes between, so we allow corner cutting
(``CORNER_CUTTING = True``); ground truth and the evaluator's reconstruction use the same rule.

The search itself is :mod:`map2route.planning.grid_search` with ``length_weight=0``.
Points here are ``(row, col)`` pixel indices with row 0 at the top of the image (image order);
the dataset files store ``[x, y] = [col, row]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from map2route.nesy.errors import NesyError
from map2route.nesy.kb import IMPASSABLE

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: The official A* allows diagonal steps between two blocked orthogonal neighbours.
CORNER_CUTTING = True


def step_costs(cost_map: NDArray[np.integer]) -> NDArray[np.float64]:
    """The uint16 cost map as the planner kernel's float64 entering costs (65535 -> inf)."""
    w = np.asarray(cost_map)
    out = w.astype(np.float64)
    out[w >= IMPASSABLE] = np.inf
    return out


def optimal_path(cost_map: NDArray[np.integer], start: tuple[int, int],
                 goal: tuple[int, int]) -> NDArray[np.int32]:
    """The A*-optimal path from ``start`` to ``goal`` (both ``(row, col)``), inclusive.

    Raises:
        NesyError: if either point is impassable or outside, or the goal is unreachable.
    """
    from map2route.planning.errors import NoPathError
    from map2route.planning.grid_search import search

    cost = step_costs(cost_map)
    _check_point(cost, goal, "goal")
    mask = np.zeros(cost.shape, dtype=bool)
    mask[goal] = True
    try:
        found = search(cost, start, mask, length_weight=0.0, allow_corner_cutting=CORNER_CUTTING)
    except NoPathError as err:
        msg = f"no route from {start} to {goal} (row, col): {err}"
        raise NesyError(msg) from err
    return found.cells


def cost_field(cost_map: NDArray[np.integer], goal: tuple[int, int]) -> NDArray[np.float64]:
    """Cost-to-go from every cell to ``goal`` under the official model (inf = cannot reach)."""
    from map2route.planning.errors import NoPathError
    from map2route.planning.grid_search import cost_to_go

    cost = step_costs(cost_map)
    _check_point(cost, goal, "goal")
    mask = np.zeros(cost.shape, dtype=bool)
    mask[goal] = True
    try:
        field: NDArray[np.float64] = cost_to_go(cost, mask, length_weight=0.0,
                                                allow_corner_cutting=CORNER_CUTTING)
    except NoPathError as err:
        raise NesyError(f"cannot build a cost field towards {goal}: {err}") from err
    return field


@njit(cache=True)
def _descend(cost, field, sr, sc):  # type: ignore[no-untyped-def]
    rows, cols = cost.shape
    out = np.empty((rows * cols, 2), dtype=np.int32)
    r, c, n = sr, sc, 0
    out[0, 0], out[0, 1] = r, c
    while field[r, c] > 0.0:
        best, br, bc = np.inf, -1, -1
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                if dr == 0 and dc == 0:
                    continue
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    v = cost[rr, cc] + field[rr, cc]
                    if v < best:
                        best, br, bc = v, rr, cc
        if br < 0 or best == np.inf or n >= rows * cols - 1:
            return out[:0]
        r, c, n = br, bc, n + 1
        out[n, 0], out[n, 1] = r, c
    return out[: n + 1].copy()


def path_from_field(cost_map: NDArray[np.integer], field: NDArray[np.float64],
                    start: tuple[int, int], goal: tuple[int, int]) -> NDArray[np.int32]:
    """The optimal path from ``start`` by descending a :func:`cost_field` towards ``goal``.

    Each step enters the neighbour minimising ``W(q) + field(q)``, which equals ``field(p)``
    on an optimal path, so the path is optimal and ends where the field is 0 (the goal).
    Hand-written (a 20-line numba loop) because the planner's public API offers the field,
    not its descent.

    Raises:
        NesyError: if ``start`` is outside the map or cannot reach the goal.
    """
    cost = step_costs(cost_map)
    rows, cols = cost.shape
    sr, sc = int(start[0]), int(start[1])
    if not (0 <= sr < rows and 0 <= sc < cols) or not np.isfinite(field[sr, sc]):
        msg = f"no route from {start} to {goal} (row, col): the start cannot reach the goal"
        raise NesyError(msg)
    cells: NDArray[np.int32] = _descend(cost, np.ascontiguousarray(field, dtype=np.float64),
                                        sr, sc)
    if cells.shape[0] == 0:
        raise NesyError(f"the cost field does not lead from {start} to {goal}")
    return cells


def path_cost(cost_map: NDArray[np.integer], cells: NDArray[np.integer]) -> float:
    """``sum(W(p))`` over every cell of the path, start included (Eq. 14's numerator).

    Impassable cells count 65535, as in the official uint16 map.
    """
    pts = np.asarray(cells, dtype=np.intp).reshape(-1, 2)
    return float(np.asarray(cost_map, dtype=np.float64)[pts[:, 0], pts[:, 1]].sum())


def bresenham(p0: tuple[int, int], p1: tuple[int, int]) -> NDArray[np.int32]:
    """The cells of Bresenham's line from ``p0`` to ``p1`` (both inclusive, ``(row, col)``).

    Hand-written: the integer algorithm is eight lines, and no dependency we ship offers it
    for arbitrary (also out-of-image) endpoints.
    """
    r0, c0 = int(p0[0]), int(p0[1])
    r1, c1 = int(p1[0]), int(p1[1])
    dr, dc = abs(r1 - r0), -abs(c1 - c0)
    sr, sc = (1 if r1 >= r0 else -1), (1 if c1 >= c0 else -1)
    err = dr + dc
    out = [(r0, c0)]
    while (r0, c0) != (r1, c1):
        e2 = 2 * err
        if e2 >= dc:
            err += dc
            r0 += sr
        if e2 <= dr:
            err += dr
            c0 += sc
        out.append((r0, c0))
    return np.asarray(out, dtype=np.int32)


def _check_point(cost: NDArray[np.float64], p: tuple[int, int], what: str) -> None:
    rows, cols = cost.shape
    if not (0 <= p[0] < rows and 0 <= p[1] < cols):
        msg = f"{what} point {p} (row, col) lies outside the {rows}x{cols} map"
        raise NesyError(msg)
    if not np.isfinite(cost[p]):
        msg = f"{what} point {p} (row, col) lies on impassable terrain for this query"
        raise NesyError(msg)
