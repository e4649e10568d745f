"""The Gazebo export's domain error."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class GazeboError(Map2RouteError):
    """A world, robot or bridge file could not be written or did not pass the SDFormat parser."""
