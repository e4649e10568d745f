"""Spherical geometry on lat/lng degrees: haversine distance, bearing, relative direction.

Headings are degrees clockwise from north in ``[0, 360)``, as in Touchdown and Map2Seq.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Mean Earth radius (m) used by haversine, as in GROKE's evaluation code.
EARTH_RADIUS_M = 6_371_000.0


def haversine_m(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in metres between two lat/lng points (degrees)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2.0 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def haversine_matrix_m(lat1: NDArray[np.float64], lng1: NDArray[np.float64],
                       lat2: NDArray[np.float64], lng2: NDArray[np.float64]) -> NDArray[np.float64]:
    """Pairwise haversine distances (m): rows index the first set, columns the second."""
    p1 = np.radians(lat1)[:, None]
    p2 = np.radians(lat2)[None, :]
    dl = np.radians(lng2)[None, :] - np.radians(lng1)[:, None]
    h = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    return 2.0 * EARTH_RADIUS_M * np.arcsin(np.minimum(1.0, np.sqrt(h)))


def bearing_deg(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Initial bearing from point 1 to point 2, degrees clockwise from north in [0, 360).

    ``atan2(sin dl cos p2, cos p1 sin p2 - sin p1 cos p2 cos dl)`` (GROKE, Sec. 3).
    """
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lng2 - lng1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360.0


def heading_delta(target: float, current: float) -> float:
    """Signed turn from ``current`` to ``target`` heading, in [-180, 180); positive = right.

    ``delta = (target - current + 180) mod 360 - 180`` (GROKE's POI direction formula).
    """
    return (target - current + 180.0) % 360.0 - 180.0


def relative_direction(delta: float) -> str:
    """GROKE's four relative directions: Forward within +-45 deg, Right, Back beyond +-135, Left."""
    if -45.0 <= delta <= 45.0:
        return "Forward"
    if 45.0 < delta < 135.0:
        return "Right"
    if -135.0 < delta < -45.0:
        return "Left"
    return "Back"


def project_xy(lat: NDArray[np.float64], lng: NDArray[np.float64], *, lat0: float,
               lng0: float) -> NDArray[np.float64]:
    """Local east/north metres about ``(lat0, lng0)`` (equirectangular), shape (N, 2).

    Good to well under 1 % over a city extract; used for the spatial index and for exports,
    while every reported distance is haversine.
    """
    x = np.radians(np.asarray(lng, dtype=np.float64) - lng0) * EARTH_RADIUS_M * math.cos(
        math.radians(lat0))
    y = np.radians(np.asarray(lat, dtype=np.float64) - lat0) * EARTH_RADIUS_M
    return np.stack([x, y], axis=1)
