"""Grid geometry on a :class:`~map2route.semantic_map.grid.GridSpec`: bands, lines, graphs.

Every mask here is a bool array of the grid's shape, indexed ``[row, col]`` (row 0 at the
bottom, see :mod:`map2route.semantic_map.grid`); every conversion between metres and cells
goes through the ``GridSpec`` (disks are ``GridSpec.disk_mask``, numpy only, so the map model
uses them without loading OpenCV). The grounding API builds its regions from these, so a
region means the same cells everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from scipy.sparse import csr_matrix

    from map2route.semantic_map.grid import GridSpec

Point = tuple[float, float]


def l2_cells(mask: NDArray[np.bool_]) -> NDArray[np.float32]:
    """Cells from each ``True`` cell to the nearest ``False`` cell (0 on ``False`` cells).

    OpenCV's 3x3 L2 distance transform (float32): an approximation of the Euclidean
    distance within a few percent, the one the grounding regions have always used. Convert
    to metres with :meth:`GridSpec.cells_to_meters`.
    """
    return np.asarray(cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3))


def polyline_mask(grid: GridSpec, points: Sequence[Point]) -> NDArray[np.bool_]:
    """The one-cell-wide raster of the open polyline through ``points`` (map metres)."""
    mask = np.zeros(grid.shape, dtype=np.uint8)
    cells = grid.worlds_to_cells(np.asarray(points))
    poly = cells[:, ::-1].astype(np.int32).reshape(-1, 1, 2)  # OpenCV wants (x=col, y=row)
    cv2.polylines(mask, [poly], False, 1, 1)
    return mask.astype(bool)


def segment_mask(grid: GridSpec, segment: Sequence[Point]) -> NDArray[np.bool_]:
    """The one-cell-wide raster of the straight segment between two map points."""
    mask = np.zeros(grid.shape, dtype=np.uint8)
    cells = grid.worlds_to_cells(np.asarray(segment))
    cv2.line(mask, (int(cells[0, 1]), int(cells[0, 0])), (int(cells[1, 1]), int(cells[1, 0])), 1, 1)
    return mask.astype(bool)


def free_space_graph(free: NDArray[np.bool_]) -> tuple[csr_matrix, NDArray[np.int64]]:
    """The 8-connected graph of the ``free`` cells, edge weights in cells (1 or sqrt(2)).

    Returns:
        The symmetric sparse adjacency matrix, and an index array of the grid's shape holding
        each free cell's node number (-1 elsewhere).
    """
    # Imported here for start-up time: scipy.sparse costs about a second, and only
    # geodesic_distance needs this graph.
    from scipy.sparse import coo_matrix  # noqa: PLC0415 - see the comment above

    index = np.full(free.shape, -1, dtype=np.int64)
    index[free] = np.arange(int(free.sum()))
    rows, cols, vals = [], [], []
    h, w = free.shape
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        a = free[max(0, -dr):h - max(0, dr), max(0, -dc):w - max(0, dc)]
        b = free[max(0, dr):h - max(0, -dr) or h, max(0, dc):w - max(0, -dc) or w]
        ia = index[max(0, -dr):h - max(0, dr), max(0, -dc):w - max(0, dc)]
        ib = index[max(0, dr):h - max(0, -dr) or h, max(0, dc):w - max(0, -dc) or w]
        both = a & b
        rows.append(ia[both])
        cols.append(ib[both])
        vals.append(np.full(int(both.sum()), math.hypot(dr, dc)))
    n = int(free.sum())
    g = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                   shape=(n, n)).tocsr()
    return g + g.T, index
