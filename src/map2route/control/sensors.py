"""Obstacle points for local avoidance from live sensors, and the watchdog that stops a blind base.

The follower avoids what its sensors see now: a planar ``LaserScan`` and/or a 3D cloud (a
Livox Mid-360's body-frame cloud, or SLAM's map-frame ``/registered_scan``). Each source is
brought into the base frame through the transform tree and cut to the height band the base
can hit (above the floor returns, below its top). :class:`ObstacleSources` keeps the latest
points of each source with their stamp; when no source is fresher than the timeout it reports
the base as blind, and the follower stops instead of treating unseen space as free.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.control.frames import Transform


def cloud_obstacle_points(points: NDArray[np.floating], sensor_in_base: Transform, *,
                          z_min: float, z_max: float) -> NDArray[np.float64]:
    """``(N, 2)`` base-frame points of a cloud's returns between ``z_min`` and ``z_max``.

    Args:
        points: ``(N, 3)`` returns in the cloud's frame (non-finite ones are dropped).
        sensor_in_base: the cloud frame's pose in the base frame.
        z_min, z_max: the obstacle band in the base frame (m; the base frame is on the floor).
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    pts = pts[np.isfinite(pts).all(axis=1)]
    base = sensor_in_base.apply(pts)
    keep = (base[:, 2] >= z_min) & (base[:, 2] <= z_max)
    return base[keep, :2]


def planar_points_to_base(points: NDArray[np.floating], sensor_in_base: Transform
                          ) -> NDArray[np.float64]:
    """``(N, 2)`` scan points in the scan frame's plane -> ``(N, 2)`` in the base frame."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    xyz = np.column_stack([pts, np.zeros(len(pts))])
    return sensor_in_base.apply(xyz)[:, :2]


@dataclass
class ObstacleSources:
    """The latest base-frame obstacle points of each sensor, and whether any is fresh.

    ``timeout`` <= 0 disables the freshness check (a base without obstacle sensors, on a
    closed course; never the default).
    """

    timeout: float
    #: source name -> (stamp of its latest message in s, its (N, 2) base-frame points)
    latest: dict[str, tuple[float, NDArray[np.float64]]] = field(default_factory=dict)

    def update(self, source: str, stamp: float, points: NDArray[np.float64]) -> None:
        self.latest[source] = (stamp, np.asarray(points, dtype=np.float64).reshape(-1, 2))

    def fresh(self, now: float) -> list[str]:
        """The sources whose latest message is at most ``timeout`` old at ``now``."""
        if self.timeout <= 0:
            return list(self.latest)
        return [name for name, (stamp, _) in self.latest.items()
                if now - stamp <= self.timeout]

    def points(self, now: float) -> NDArray[np.float64] | None:
        """All fresh sources' points together, or ``None`` when the base is blind."""
        names = self.fresh(now)
        if not names and self.timeout > 0:
            return None
        chunks = [self.latest[n][1] for n in names]
        return np.concatenate(chunks) if chunks else np.zeros((0, 2))

    def blind_reason(self, now: float, expected: list[str]) -> str:
        """Why :meth:`points` is ``None``, in words naming each expected source."""
        parts = []
        for name in expected:
            if name not in self.latest:
                parts.append(f"nothing received on {name}")
            else:
                age = now - self.latest[name][0]
                parts.append(f"{name} is {age:.2f} s old" if math.isfinite(age) else
                             f"{name} has no usable stamp")
        return (f"no fresh obstacle data (timeout {self.timeout:.2f} s): " + "; ".join(parts)
                + "; stopped rather than drive blind")
