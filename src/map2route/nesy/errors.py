"""The error type of the NeSy-Route package."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class NesyError(Map2RouteError):
    """A NeSy-Route mask, dataset file, prediction or query cannot be used as asked."""
