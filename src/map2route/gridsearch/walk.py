"""The path a person walks through ordered waypoints: short, but clear of furniture.

A Path-Shape instruction ("circle the table", "patrol along the walls") names a shape, not a
path; its reference trajectory tau_ref is how a person would walk that shape. We take that to
be the cheapest 8-connected walk through the shape's waypoints, in order, where a free cell
costs its step length plus ``2 * (1 - clearance / keep_clear_m)`` while closer than
``keep_clear_m`` to an obstacle (people keep about 0.6 m from furniture when they can).

The benchmark generator builds its tau_ref with it, and the grounding API builds the
reference its Path-Shape preference pulls towards with it, so an instruction grounded from
language and the ground truth mean the same walk.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from map2route.gridsearch.kernel import search

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Obstacles closer than this (metres) make a cell dearer to walk through.
KEEP_CLEAR_M = 0.6
#: Extra cost of a cell touching an obstacle (per cell, on top of the step length).
CLOSE_COST = 2.0


def walk_cost(traversable: NDArray[np.bool_], clearance_m: NDArray[np.float64], *,
              keep_clear_m: float = KEEP_CLEAR_M) -> NDArray[np.float64]:
    """Per-cell entry cost of :func:`comfortable_walk` (``inf`` off the traversable set)."""
    near = CLOSE_COST * np.clip(1.0 - clearance_m / keep_clear_m, 0.0, 1.0)
    return np.where(traversable, near, np.inf)


def clearance_m(traversable: NDArray[np.bool_], resolution: float) -> NDArray[np.float64]:
    """Metres from each cell centre to the nearest non-traversable cell centre (exact EDT)."""
    # Imported here for start-up time: scipy.ndimage costs about half a second, and the
    # planner, which imports this package, does not need it.
    from scipy.ndimage import distance_transform_edt  # noqa: PLC0415 - see the comment above

    return np.asarray(distance_transform_edt(traversable), dtype=np.float64) * resolution


def comfortable_walk(traversable: NDArray[np.bool_], resolution: float,
                     waypoints: Sequence[tuple[int, int]], *,
                     clearance: NDArray[np.float64] | None = None,
                     keep_clear_m: float = KEEP_CLEAR_M) -> NDArray[np.int32]:
    """The walk through ``waypoints`` (grid cells, in order), as ``(N, 2)`` cells.

    Args:
        traversable: bool ``(rows, cols)``.
        resolution: metres per cell.
        waypoints: ``(row, col)`` cells to pass in order; the first is the start.
        clearance: the traversable set's clearance field in metres (computed when ``None``).
        keep_clear_m: see the module docstring.

    Returns:
        Every cell of the walk, start and end included (consecutive cells are neighbours).

    Raises:
        NoPathError: a waypoint is blocked or unreachable from the previous one.
    """
    free = np.asarray(traversable, dtype=bool)
    clear = clearance_m(free, resolution) if clearance is None else clearance
    cost = walk_cost(free, clear, keep_clear_m=keep_clear_m)
    pieces = [np.asarray([waypoints[0]], dtype=np.int32)]
    for a, b in zip(waypoints[:-1], waypoints[1:], strict=True):
        goal = np.zeros(free.shape, dtype=bool)
        goal[b] = True
        pieces.append(np.asarray(search(cost, a, goal).cells, dtype=np.int32)[1:])
    return np.concatenate(pieces).astype(np.int32)
