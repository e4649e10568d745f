"""GridSpec conversions and the grid geometry of semantic_map/geometry.py, checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.semantic_map import geometry
from map2route.semantic_map.grid import GridSpec

# 4 rows x 5 cols of 0.5 m cells, lower-left corner at (1, -1): x in [1, 3.5), y in [-1, 1).
G = GridSpec(rows=4, cols=5, resolution=0.5, origin_x=1.0, origin_y=-1.0)


def test_points_and_cells_by_hand() -> None:
    # (2.3, 0.2): col floor((2.3 - 1) / 0.5) = 2, row floor((0.2 + 1) / 0.5) = 2.
    assert G.world_to_cell(2.3, 0.2) == (2, 2)
    # Cell (2, 2)'s centre: x = 1 + 2.5 * 0.5 = 2.25, y = -1 + 2.5 * 0.5 = 0.25.
    assert G.cell_to_world(2, 2) == (2.25, 0.25)
    # Its lower-left corner and its far corner.
    assert G.cells_to_corners([(2, 2)]).tolist() == [[2.0, 0.0]]
    assert G.cells_to_corners([(2, 2)], dr=1, dc=1).tolist() == [[2.5, 0.5]]
    # Fractional cells: 2.3 m is 2.6 columns in, 0.2 m is 2.4 rows up.
    assert G.worlds_to_fractional([(2.3, 0.2)]) == pytest.approx(np.array([[2.4, 2.6]]))
    # Cells [1, 3) x [0, 2) cover x 1..2, y -0.5..0.5: (x0, y0, width, height).
    assert G.cell_box(1, 0, 3, 2) == (1.0, -0.5, 1.0, 1.0)
    assert G.meters_to_cells(1.25) == 2.5 and G.cells_to_meters(3) == 1.5
    xs, ys = G.centre_axes(slice(1, 3), slice(0, 2))
    assert xs.tolist() == [1.25, 1.75] and ys.tolist() == [-0.25, 0.25]


def test_covering_rounds_up_or_to_the_nearest_cell() -> None:
    # 2.1 m x 1.0 m at 0.5 m: ceil gives 5 x 2 cells, nearest gives 4 x 2.
    up = GridSpec.covering(0.0, 0.0, 2.1, 1.0, resolution=0.5)
    assert (up.rows, up.cols, up.origin_x, up.origin_y) == (2, 5, 0.0, 0.0)
    near = GridSpec.covering(0.0, 0.0, 2.1, 1.0, resolution=0.5, rounding="nearest")
    assert (near.rows, near.cols) == (2, 4)
    with pytest.raises(ValueError, match="rounding"):
        GridSpec.covering(0.0, 0.0, 1.0, 1.0, resolution=0.5, rounding="floor")


def test_disk_mask_is_the_cells_whose_centres_are_within_the_radius() -> None:
    # Around the centre of cell (2, 2) with radius 0.5 m: itself and its 4 side neighbours
    # (centres 0.5 m away); the diagonal ones are 0.707 m away.
    mask = G.disk_mask((2.25, 0.25), 0.5)
    assert sorted(map(tuple, np.argwhere(mask).tolist())) == [(1, 2), (2, 1), (2, 2), (2, 3), (3, 2)]
    # A disk wholly outside the grid is empty, and the windowed rule equals the full-grid one.
    assert not G.disk_mask((20.0, 20.0), 1.0).any()
    xx, yy = G.cell_centres()
    for centre, radius in (((1.1, -0.9), 0.8), ((3.4, 0.9), 1.3), ((2.0, 0.0), 0.01)):
        full = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= radius ** 2
        assert (G.disk_mask(centre, radius) == full).all()


def test_lines_distances_and_graph() -> None:
    # A horizontal segment through row 1 from col 0 to col 3.
    seg = geometry.segment_mask(G, [(1.1, -0.4), (2.9, -0.4)])
    assert np.argwhere(seg).tolist() == [[1, 0], [1, 1], [1, 2], [1, 3]]
    line = geometry.polyline_mask(G, [(1.1, -0.9), (1.1, 0.9), (3.4, 0.9)])  # up col 0, along row 3
    assert line[:, 0].all() and line[3, :].all() and line.sum() == 4 + 5 - 1
    # Distance from each cell of a 1-cell-wide free column to the blocked cells beside it: one
    # side step, which OpenCV's 3x3 L2 mask counts as 0.955 (its constant; 1.3693 diagonally).
    free = np.zeros((3, 3), dtype=bool)
    free[:, 1] = True
    assert geometry.l2_cells(free)[:, 1] == pytest.approx([0.955] * 3)
    assert (geometry.l2_cells(free)[:, [0, 2]] == 0).all()
    # Graph of a 2 x 2 free block: 4 nodes, 4 side edges of 1 and 2 diagonals of sqrt(2), both ways.
    graph, index = geometry.free_space_graph(np.ones((2, 2), dtype=bool))
    assert index.tolist() == [[0, 1], [2, 3]]
    assert graph.nnz == 12 and graph[0, 3] == pytest.approx(2 ** 0.5) and graph[1, 0] == 1.0


def test_contains_cells_is_the_vectorised_contains_cell() -> None:
    cells = [(0, 0), (3, 4), (4, 0), (0, 5), (-1, 2)]
    assert G.contains_cells(cells).tolist() == [G.contains_cell(r, c) for r, c in cells]
    assert G.contains_cells(cells).tolist() == [True, True, False, False, False]


def test_lengths_and_areas_between_metres_and_cells_by_hand() -> None:
    g = GridSpec(rows=10, cols=10, resolution=0.05)
    assert g.meters_to_cells(0.35) == pytest.approx(7.0)
    assert g.cells_to_meters(40) == pytest.approx(2.0)
    # 400 cells of 5 cm x 5 cm are one square metre, and back
    assert g.cells_to_square_meters(400) == pytest.approx(1.0)
    assert g.square_meters_to_cells(1.0) == pytest.approx(400.0)
    # a squared distance of 3^2 + 4^2 cells is (0.25 m)^2
    assert g.cells_to_square_meters(25) == pytest.approx(0.25 ** 2)
    np.testing.assert_allclose(g.meters_to_cells(np.array([0.05, 0.5])), [1.0, 10.0])
