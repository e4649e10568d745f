"""Tenth round, by hand: a wall's face cells that the surface only touches are floor."""

from __future__ import annotations

import numpy as np

from map2route.mapping.layers import thin_walls
from map2route.semantic_map.grid import GridSpec

GRID = GridSpec(rows=40, cols=40, resolution=0.05, origin_x=0.0, origin_y=0.0)


def _face_points(x: float, rng: np.random.Generator, noise: float = 0.01) -> np.ndarray:
    """Points on the plane x = ``x`` (y 0.2..1.8) with range noise along x."""
    y = rng.uniform(0.2, 1.8, 2000)
    return np.stack([x + rng.normal(0.0, noise, len(y)), y], axis=1)


def _wall_mask(pts: np.ndarray) -> np.ndarray:
    """Every cell holding a point, as the column histogram marks a fully filled one."""
    rc = GRID.worlds_to_cells(pts)
    mask = np.zeros(GRID.shape, dtype=bool)
    mask[rc[:, 0], rc[:, 1]] = True
    return mask


def _cols(mask: np.ndarray, row: int = 20) -> list[int]:
    return np.flatnonzero(mask[row]).tolist()


def test_a_wall_whose_faces_lie_on_cell_borders_keeps_its_own_two_cells() -> None:
    rng = np.random.default_rng(0)
    # A 0.1 m wall from x = 0.95 to 1.05: cells 19 and 20 (0.95..1.05).
    pts = np.concatenate([_face_points(0.95, rng), _face_points(1.05, rng)])
    mask = _wall_mask(pts)
    mask[:, 19:21] |= mask[:, 18:19] | mask[:, 21:22]  # the histogram fills the inside too
    assert _cols(mask) == [18, 19, 20, 21]  # the points straddle both borders
    thin = thin_walls(mask, pts, GRID)
    assert _cols(thin) == [19, 20]
    # Nothing else changes: rows without points keep what they had.
    assert (thin[~mask.any(axis=1)] == mask[~mask.any(axis=1)]).all()


def test_a_face_cell_stays_when_its_centre_is_behind_the_surface() -> None:
    rng = np.random.default_rng(1)
    # Faces at 0.965 (cell 19, centre 0.975 inside the wall) and 1.085 (cell 21, centre
    # 1.075 inside): all three stay. Moved to 1.065, cell 21's centre is in front: it goes.
    for right, want in ((1.085, [19, 20, 21]), (1.065, [19, 20])):
        pts = np.concatenate([_face_points(0.965, rng, 0.005), _face_points(right, rng, 0.005)])
        mask = _wall_mask(pts)
        mask[:, 20] |= mask[:, 19]
        assert _cols(mask) == [19, 20, 21]
        assert _cols(thin_walls(mask, pts, GRID)) == want


def test_a_wall_one_cell_thin_or_two_facing_candidates_keep_their_cells() -> None:
    rng = np.random.default_rng(2)
    # One cell: no wall neighbour behind it, nothing to thin.
    one = _face_points(1.025, rng, 0.003)
    assert _cols(thin_walls(_wall_mask(one), one, GRID)) == [20]
    # Two cells, each face in the half towards the other (a wall under a cell thick):
    # both would go, so both stay.
    two = np.concatenate([_face_points(0.99, rng, 0.003), _face_points(1.01, rng, 0.003)])
    mask = _wall_mask(two)
    assert _cols(mask) == [19, 20]
    assert _cols(thin_walls(mask, two, GRID)) == [19, 20]


def test_a_thin_wall_blocks_the_line_of_sight_of_a_far_viewpoint() -> None:
    from map2route.mapping.objects import _line_of_sight

    grid = GridSpec(rows=40, cols=200, resolution=0.05, origin_x=0.0, origin_y=0.0)
    walls = np.zeros(grid.shape, dtype=bool)
    walls[:, 101:103] = True  # a 0.1 m wall at x = 5.05..5.15
    target = np.array([8.0, 1.0])
    # From 7.9 m away, on the wall's other side: blocked wherever the line crosses it.
    origins = np.array([[0.1 + 0.013 * k, 1.0 + 0.01 * k] for k in range(30)])
    assert not _line_of_sight(origins, target, walls, grid).any()
    # On the target's side: seen.
    assert _line_of_sight(np.array([[6.0, 0.5], [7.5, 1.8]]), target, walls, grid).all()
