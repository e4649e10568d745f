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
from typing import TYPE_CHECKING, Any, overload

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

    @classmethod
    def covering(cls, x0: float, y0: float, x1: float, y1: float, *, resolution: float,
                 rounding: str = "ceil") -> GridSpec:
        """The grid whose lower-left corner is ``(x0, y0)`` and which spans to ``(x1, y1)``.

        Args:
            x0, y0, x1, y1: the rectangle in map metres.
            resolution: metres per cell.
            rounding: ``"ceil"`` (cover the whole rectangle) or ``"nearest"`` (the cell count
                nearest its size, for rectangles whose sides are whole cells).
        """
        span_x, span_y = (x1 - x0) / resolution, (y1 - y0) / resolution
        if rounding == "ceil":
            cols, rows = int(np.ceil(span_x)), int(np.ceil(span_y))
        elif rounding == "nearest":
            cols, rows = int(round(span_x)), int(round(span_y))
        else:
            msg = f"rounding must be 'ceil' or 'nearest', not {rounding!r}"
            raise ValueError(msg)
        return cls(rows=rows, cols=cols, resolution=resolution, origin_x=float(x0),
                   origin_y=float(y0))

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

    def contains_cells(self, rc: ArrayLike) -> NDArray[np.bool_]:
        """Vectorised :meth:`contains_cell`: ``(N, 2)`` row,col -> ``(N,)`` inside the grid."""
        cells = np.asarray(rc).reshape(-1, 2)
        return ((cells[:, 0] >= 0) & (cells[:, 0] < self.rows) & (cells[:, 1] >= 0)
                & (cells[:, 1] < self.cols))

    def contains_point(self, x: float, y: float) -> bool:
        return self.contains_cell(*self.world_to_cell(x, y))

    def worlds_to_fractional(self, xy: ArrayLike) -> NDArray[np.float64]:
        """``(N, 2)`` x,y metres -> ``(N, 2)`` row,col in cells, not floored (cell ``(r, c)``
        spans ``[r, r + 1)`` and ``[c, c + 1)``)."""
        pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        cols = (pts[:, 0] - self.origin_x) / self.resolution
        rows = (pts[:, 1] - self.origin_y) / self.resolution
        return np.stack([rows, cols], axis=1)

    def cells_to_corners(self, rc: ArrayLike, *, dr: float = 0.0,
                         dc: float = 0.0) -> NDArray[np.float64]:
        """``(N, 2)`` row,col -> ``(N, 2)`` x,y of the point ``(dr, dc)`` cells into each cell
        from its lower-left corner (``0, 0``: the corner; ``0.5, 0.5``: the centre)."""
        cells = np.asarray(rc, dtype=np.float64).reshape(-1, 2)
        x = self.origin_x + (cells[:, 1] + dc) * self.resolution
        y = self.origin_y + (cells[:, 0] + dr) * self.resolution
        return np.stack([x, y], axis=1)

    def cell_box(self, r0: int, c0: int, r1: int, c1: int) -> tuple[float, float, float, float]:
        """The map rectangle covered by cells ``[r0, r1) x [c0, c1)``: ``(x0, y0, width, height)``."""
        res = self.resolution
        return (self.origin_x + c0 * res, self.origin_y + r0 * res, (c1 - c0) * res,
                (r1 - r0) * res)

    @overload
    def meters_to_cells(self, distance_m: float) -> float: ...
    @overload
    def meters_to_cells(self, distance_m: NDArray[np.floating[Any]]) -> NDArray[np.float64]: ...
    def meters_to_cells(self, distance_m: Any) -> Any:
        """A length (or an array of lengths) in metres expressed in cells (not rounded)."""
        return distance_m / self.resolution

    def cells_to_meters(self, cells: Any) -> Any:
        """A length (or an array of lengths) in cells expressed in metres."""
        return cells * self.resolution

    def cells_to_square_meters(self, cells: Any) -> Any:
        """An area (or an array of areas) in cells expressed in square metres; also a squared
        cell distance as a squared distance in metres."""
        return cells * self.resolution ** 2

    def square_meters_to_cells(self, area_m2: float) -> float:
        """An area in square metres expressed in cells (not rounded)."""
        return area_m2 / self.resolution ** 2

    def centre_axes(self, rows: slice | None = None,
                    cols: slice | None = None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Map-frame x of the centres of columns ``cols`` and y of rows ``rows`` (all by default)."""
        cs = cols if cols is not None else slice(0, self.cols)
        rs = rows if rows is not None else slice(0, self.rows)
        xs = self.origin_x + (np.arange(cs.start, cs.stop) + 0.5) * self.resolution
        ys = self.origin_y + (np.arange(rs.start, rs.stop) + 0.5) * self.resolution
        return xs, ys

    def disk_window(self, center: tuple[float, float], radius_m: float) -> tuple[slice, slice]:
        """Rows and columns holding every cell centre within ``radius_m`` of ``center``
        (padded by one cell on each side, clipped to the grid; possibly empty)."""
        cx, cy = center
        res = self.resolution
        c0 = max(0, int(np.floor((cx - radius_m - self.origin_x) / res)) - 1)
        c1 = min(self.cols, int(np.ceil((cx + radius_m - self.origin_x) / res)) + 1)
        r0 = max(0, int(np.floor((cy - radius_m - self.origin_y) / res)) - 1)
        r1 = min(self.rows, int(np.ceil((cy + radius_m - self.origin_y) / res)) + 1)
        return slice(r0, r1), slice(c0, c1)

    def disk_mask(self, center: tuple[float, float], radius_m: float) -> NDArray[np.bool_]:
        """Cells whose centres lie within ``radius_m`` of ``center`` (evaluated in its window)."""
        out = np.zeros(self.shape, dtype=bool)
        rows, cols = self.disk_window(center, radius_m)
        if rows.start >= rows.stop or cols.start >= cols.stop:
            return out
        xs, ys = self.centre_axes(rows, cols)
        cx, cy = center
        out[rows, cols] = (xs[None, :] - cx) ** 2 + (ys[:, None] - cy) ** 2 <= radius_m ** 2
        return out

    def cell_centres(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Map-frame x and y of every cell centre, each of shape ``(rows, cols)``."""
        xs, ys = self.centre_axes()
        xx, yy = np.meshgrid(xs, ys)
        return xx, yy


#: The largest grid a file may declare (cells); 10^8 cells is a 500 m square at 5 cm.
MAX_GRID_CELLS = 100_000_000
#: Resolutions a file may declare (metres per cell): beyond these, metre-to-cell arithmetic
#: overflows or the map is not a map.
MIN_RESOLUTION_M, MAX_RESOLUTION_M = 1e-4, 1e3
#: How far from 0 a map origin may lie (metres; 10,000 km).
MAX_ORIGIN_M = 1e7


def grid_problems(rows: object, cols: object, resolution: object, origin_x: object,
                  origin_y: object) -> list[str]:
    """Every reason the values read from a file cannot make a :class:`GridSpec`, one line each.

    Used by every loader (scene folders, RouteIR files) so a NaN, zero or absurd size is one
    clear message instead of a crash deep inside numpy.
    """
    problems: list[str] = []
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
            problems.append(f"grid {name} must be a positive whole number, got {value!r}")
    if not problems and int(rows) * int(cols) > MAX_GRID_CELLS:  # type: ignore[call-overload]
        problems.append(f"grid is {rows}x{cols} cells, over the {MAX_GRID_CELLS:,} cells a "
                        "map may have")
    for name, value in (("resolution", resolution), ("origin x", origin_x), ("origin y", origin_y)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) \
                or not np.isfinite(value):
            problems.append(f"{name} must be a finite number, got {value!r}")
    if isinstance(resolution, (int, float)) and np.isfinite(resolution):
        if resolution <= 0:
            problems.append(f"resolution must be > 0 metres per cell, got {resolution!r}")
        elif not MIN_RESOLUTION_M <= resolution <= MAX_RESOLUTION_M:
            problems.append(f"resolution must be between {MIN_RESOLUTION_M:g} and "
                            f"{MAX_RESOLUTION_M:g} metres per cell, got {resolution!r}")
    for name, value in (("origin x", origin_x), ("origin y", origin_y)):
        if isinstance(value, (int, float)) and np.isfinite(value) and abs(value) > MAX_ORIGIN_M:
            problems.append(f"{name} is {value!r} m; a map origin lies within "
                            f"{MAX_ORIGIN_M:g} m of 0")
    return problems
