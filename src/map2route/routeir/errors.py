"""The error type of the RouteIR package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class RouteIRError(Map2RouteError):
    """A RouteIR is malformed, inconsistent, or cannot be read."""
