"""The error type of the street-graph package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class StreetError(Map2RouteError):
    """A street graph, an instruction set or a follower run cannot be loaded or done as asked."""
