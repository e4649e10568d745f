"""Waypoints ahead along a route, for a local planner that follows one point at a time.

The CMU autonomy stack's local planner (the paper's Mecanum robot) drives toward a single
``/way_point`` and avoids obstacles on its own; a global planner feeds it a point some
distance ahead along the route and moves the point on as the robot advances. This is that
feeder: progress is tracked monotonically along the route (a route that passes the same place
twice is followed in order), and the point handed out lies ``distance`` metres further on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from map2route.control.errors import ControlError

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass
class WaypointFeeder:
    """Hands out the point ``distance`` metres ahead of the robot along ``route``."""

    route: NDArray[np.float64]
    distance: float
    index: int = 0
    arc: NDArray[np.float64] = field(init=False)

    def __post_init__(self) -> None:
        pts = np.asarray(self.route, dtype=np.float64).reshape(-1, 2)
        if len(pts) == 0 or not np.isfinite(pts).all() or self.distance <= 0:
            raise ControlError("a waypoint feeder needs a non-empty finite route and a "
                               "positive distance")
        self.route = pts
        seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
        self.arc = np.concatenate([[0.0], np.cumsum(seg)])

    def update(self, x: float, y: float) -> tuple[float, float]:
        """The waypoint for a robot at ``(x, y)``."""
        end = int(np.searchsorted(self.arc, self.arc[self.index] + 2.0 * self.distance)) + 1
        window = self.route[self.index:end]
        self.index += int(np.argmin(np.hypot(window[:, 0] - x, window[:, 1] - y)))
        j = int(np.searchsorted(self.arc, self.arc[self.index] + self.distance))
        px, py = self.route[min(j, len(self.route) - 1)]
        return float(px), float(py)

    def remaining(self, x: float, y: float) -> float:
        """Route length left from the tracked point, plus the gap to it."""
        i = self.index
        return float(self.arc[-1] - self.arc[i]
                     + np.hypot(self.route[i, 0] - x, self.route[i, 1] - y))
