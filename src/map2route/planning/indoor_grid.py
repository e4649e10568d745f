"""Random indoor-like occupancy grids for planner benchmarks and tests.

A square floor is split recursively into rooms by walls with door gaps, then furnished with
rectangular obstacles that never block a doorway. Deterministic for a given seed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray


def indoor_grid(size: int, *, seed: int = 0, min_room: int = 120, wall: int = 3,
                door: int = 24, furniture_per_room: int = 4) -> NDArray[np.bool_]:
    """A bool ``(size, size)`` traversable grid that looks like a house floor plan.

    Args:
        size: rows and columns (1000 = 50 m at 5 cm).
        seed: random seed.
        min_room: rooms are not split below this side length (cells).
        wall: wall thickness in cells.
        door: door gap width in cells.
        furniture_per_room: rectangles dropped into each room (kept away from doors).

    Returns:
        ``True`` where the robot may be; the outer border is blocked. Corners
        ``(wall+1, wall+1)`` and ``(size-wall-2, size-wall-2)`` are kept free.
    """
    rng = np.random.default_rng(seed)
    free = np.ones((size, size), dtype=bool)
    free[:wall, :] = free[-wall:, :] = False
    free[:, :wall] = free[:, -wall:] = False
    keep = np.zeros_like(free)  # doorways and corners: never furnished
    rooms: list[tuple[int, int, int, int]] = []

    def split(r0: int, r1: int, c0: int, c1: int) -> None:
        h, w = r1 - r0, c1 - c0
        if max(h, w) < 2 * min_room:
            rooms.append((r0, r1, c0, c1))
            return
        if h >= w:
            cut = int(rng.integers(r0 + min_room, r1 - min_room + 1))
            free[cut:cut + wall, c0:c1] = False
            d0 = int(rng.integers(c0 + wall, max(c0 + wall + 1, c1 - door - wall)))
            free[cut:cut + wall, d0:d0 + door] = True
            keep[max(cut - door, 0):cut + wall + door, d0:d0 + door] = True
            split(r0, cut, c0, c1)
            split(cut + wall, r1, c0, c1)
        else:
            cut = int(rng.integers(c0 + min_room, c1 - min_room + 1))
            free[r0:r1, cut:cut + wall] = False
            d0 = int(rng.integers(r0 + wall, max(r0 + wall + 1, r1 - door - wall)))
            free[d0:d0 + door, cut:cut + wall] = True
            keep[d0:d0 + door, max(cut - door, 0):cut + wall + door] = True
            split(r0, r1, c0, cut)
            split(r0, r1, cut + wall, c1)

    split(wall, size - wall, wall, size - wall)
    keep[: 4 * wall + 10, : 4 * wall + 10] = True
    keep[-(4 * wall + 10):, -(4 * wall + 10):] = True
    for r0, r1, c0, c1 in rooms:
        for _ in range(furniture_per_room):
            fh = int(rng.integers(10, max(11, (r1 - r0) // 3)))
            fw = int(rng.integers(10, max(11, (c1 - c0) // 3)))
            fr = int(rng.integers(r0, max(r0 + 1, r1 - fh)))
            fc = int(rng.integers(c0, max(c0 + 1, c1 - fw)))
            box = np.zeros_like(free)
            box[fr:fr + fh, fc:fc + fw] = True
            if not (box & keep).any():
                free[box] = False
    return free
