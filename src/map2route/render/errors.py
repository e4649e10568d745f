"""The error type of the render package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class RenderError(Map2RouteError):
    """A map, route or region cannot be drawn as asked."""
