"""The official NeSy-Route A* cost model on top of map2route's exact grid search.

NeSy-Route (section 3.3.3, Eq. 2 and the official evaluation code): 8-connected moves, each step
costs the terrain cost ``W`` of the cell *entered*, impassable cells hold 65535 in a uint16 cost
map. The path cost used by CR (Eq. 14) is ``sum(W(p))`` over every cell of the path, the start
cell included; since the start is fixed, minimising the entered-cell sum minimises that too.

Corner cutting: the official A* is a plain 8-neighbour search with no rule about the two
orthogonal cells a diagonal step passes between, so we allow corner cutting
(``CORNER_CUTTING = True``); ground truth and the evaluator's reconstruction use the same rule.

The search itself is :mod:`map2route.gridsearch.kernel` with ``length_weight=0``.
Points here are ``(row, col)`` pixel indices with row 0 at the top of the image (image order);
the dataset files store ``[x, y] = [col, row]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from map2route.gridsearch.kernel import cost_to_go, search
from map2route.nesy.errors import NesyError
from map2route.nesy.kb import IMPASSABLE
from map2route.planning.errors import NoPathError

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


def leg_path(cost: NDArray[np.float64], a: tuple[int, int], b: tuple[int, int], *,
             margin: int = 32, min_cost: float | None = None) -> NDArray[np.int32] | None:
    """The optimal path from ``a`` to ``b`` on float entering costs, searched in a window first.

    Exact: A* runs on the bounding box of ``a`` and ``b`` grown by ``m`` cells. A path that
    leaves that window takes at least ``2 (m + 1)`` steps (out past the margin and back), each
    costing at least the smallest finite cell cost, so a window path that costs no more than
    that bound is optimal on the whole map. Otherwise ``m`` doubles until the window is the map.
    This keeps the evaluator's many short legs from scanning the full 1024x1024 map each time.

    Args:
        cost: float64 entering costs (inf = impassable), see :func:`step_costs`.
        a: start ``(row, col)``; b: goal ``(row, col)``.
        margin: the first window's margin in cells.
        min_cost: the smallest finite cost of ``cost`` (computed when None; pass it when
            calling for many legs on one map).

    Returns:
        ``(N, 2)`` cells from ``a`` to ``b`` inclusive, or None if ``b`` is unreachable.
    """

    rows, cols = cost.shape
    if min_cost is None:
        finite = cost[np.isfinite(cost)]
        min_cost = float(finite.min()) if finite.size else 0.0
    m = max(int(margin), abs(a[0] - b[0]), abs(a[1] - b[1]))
    while True:
        r0, r1 = max(min(a[0], b[0]) - m, 0), min(max(a[0], b[0]) + m + 1, rows)
        c0, c1 = max(min(a[1], b[1]) - m, 0), min(max(a[1], b[1]) + m + 1, cols)
        whole = r0 == 0 and c0 == 0 and r1 == rows and c1 == cols
        window = cost[r0:r1, c0:c1]
        goal = np.zeros(window.shape, dtype=bool)
        goal[b[0] - r0, b[1] - c0] = True
        try:
            found = search(window, (a[0] - r0, a[1] - c0), goal, length_weight=0.0,
                           allow_corner_cutting=CORNER_CUTTING)
        except NoPathError:
            if whole:
                return None
        else:
            if whole or found.cost <= 2 * (m + 1) * min_cost:
                cells: NDArray[np.int32] = (found.cells + np.array([r0, c0], dtype=np.int32))
                return cells.astype(np.int32)
        m *= 2


def cost_field(cost_map: NDArray[np.integer], goal: tuple[int, int]) -> NDArray[np.float64]:
    """Cost-to-go from every cell to ``goal`` under the official model (inf = cannot reach)."""

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

    Impassable cells count 65535, as in the official uint16 map, and so do cells outside it
    (the official scorer's rule).
    """
    pts = np.asarray(cells, dtype=np.intp).reshape(-1, 2)
    rows, cols = np.shape(cost_map)
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < rows) & (pts[:, 1] >= 0) & (pts[:, 1] < cols)
    w = np.asarray(cost_map, dtype=np.float64)
    return float(w[pts[inside, 0], pts[inside, 1]].sum() + IMPASSABLE * float((~inside).sum()))


def _check_point(cost: NDArray[np.float64], p: tuple[int, int], what: str) -> None:
    rows, cols = cost.shape
    if not (0 <= p[0] < rows and 0 <= p[1] < cols):
        msg = f"{what} point {p} (row, col) lies outside the {rows}x{cols} map"
        raise NesyError(msg)
    if not np.isfinite(cost[p]):
        msg = f"{what} point {p} (row, col) lies on impassable terrain for this query"
        raise NesyError(msg)
