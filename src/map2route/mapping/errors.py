"""The error type of the mapping package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class MappingError(Map2RouteError):
    """A bag, a sensor setting, a detector or a build step cannot do what was asked."""
