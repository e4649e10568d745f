"""The error type of the control package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class ControlError(Map2RouteError):
    """A route cannot be followed as given, or the follower is misconfigured."""
