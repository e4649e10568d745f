"""The error type of the scenes package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class SceneError(Map2RouteError):
    """A house cannot be imported, generated, exported or summarised as asked."""
