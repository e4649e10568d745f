"""The one conversion between map metres and grid cells.

Conventions (stated once, used everywhere):

- Map frame: ROS REP-103/REP-105 ``map``: x forward/east, y left/north, metres.
- Grid arrays are numpy arrays indexed ``[row, col]`` with shape ``(rows, cols)``.
  Row 0 is the *bottom* row (smallest y), exactly like ``nav_msgs/OccupancyGrid.data`` and
  like nav2's ``map_server``, whose ``origin`` is the pose of the lower-left cell's corner.
  Images on disk (PGM, PNG) are stored top row first, so writers flip vertically once.
- Cell ``(row, col)`` covers ``x in [ox + col*res, ox + (col+1)*res)`` and the same for y; its
  centre is at ``ox + (col + 0.5) * res``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True)
class GridSpec:
    """Geometry of a grid: size, resolution and the map-frame position of its lower-left corner.

    Args:
        rows: number of rows (y direction).
        cols: number of columns (x direction).
        resolution: metres per cell.
        origin_x: map-frame x of the lower-left corner of cell (0, 0).
        origin_y: map-frame y of the lower-left corner of cell (0, 0).
    """

    rows: int
    cols: int
    resolution: float = 0.05
    origin_x: float = 0.0
    origin_y: float = 0.0

    @property
    def shape(self) -> tuple[int, int]:
        """Array shape ``(rows, cols)``."""
        return (self.rows, self.cols)

    @property
    def width_m(self) -> float:
        return self.cols * self.resolution

    @property
    def height_m(self) -> float:
        return self.rows * self.resolution

    def world_to_cell(self, x: float, y: float) -> tuple[int, int]:
        """Return the ``(row, col)`` of the cell containing map point ``(x, y)`` (may be outside)."""
        col = int(np.floor((x - self.origin_x) / self.resolution))
        row = int(np.floor((y - self.origin_y) / self.resolution))
        return row, col

    def cell_to_world(self, row: float, col: float) -> tuple[float, float]:
        """Return the map-frame centre ``(x, y)`` of cell ``(row, col)``."""
        x = self.origin_x + (col + 0.5) * self.resolution
        y = self.origin_y + (row + 0.5) * self.resolution
        return float(x), float(y)

    def worlds_to_cells(self, xy: ArrayLike) -> NDArray[np.int64]:
        """Vectorised :meth:`world_to_cell`: ``(N, 2)`` x,y metres -> ``(N, 2)`` row,col ints."""
        pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        cols = np.floor((pts[:, 0] - self.origin_x) / self.resolution)
        rows = np.floor((pts[:, 1] - self.origin_y) / self.resolution)
        return np.stack([rows, cols], axis=1).astype(np.int64)

    def cells_to_worlds(self, rc: ArrayLike) -> NDArray[np.float64]:
        """Vectorised :meth:`cell_to_world`: ``(N, 2)`` row,col -> ``(N, 2)`` x,y cell centres."""
        cells = np.asarray(rc, dtype=np.float64).reshape(-1, 2)
        x = self.origin_x + (cells[:, 1] + 0.5) * self.resolution
        y = self.origin_y + (cells[:, 0] + 0.5) * self.resolution
        return np.stack([x, y], axis=1)

    def contains_cell(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def contains_point(self, x: float, y: float) -> bool:
        return self.contains_cell(*self.world_to_cell(x, y))

    def meters_to_cells(self, distance_m: float) -> float:
        """A length in metres expressed in cells (not rounded)."""
        return distance_m / self.resolution

    def cell_centres(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Map-frame x and y of every cell centre, each of shape ``(rows, cols)``."""
        xs = self.origin_x + (np.arange(self.cols) + 0.5) * self.resolution
        ys = self.origin_y + (np.arange(self.rows) + 0.5) * self.resolution
        xx, yy = np.meshgrid(xs, ys)
        return xx, yy
