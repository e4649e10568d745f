"""The error type of the semantic-map package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class MapError(Map2RouteError):
    """A scene cannot be loaded, validated, saved, or queried as asked."""
