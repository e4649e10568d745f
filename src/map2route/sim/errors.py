"""The error type of the simulator."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class SimError(Map2RouteError):
    """The simulated world or robot was configured or driven in a way it cannot honour."""
