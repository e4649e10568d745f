"""The error type of the execution layer."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class ExecutionError(Map2RouteError):
    """Work cannot be run where it was asked to: an unknown executor, Ray missing, or a Ray
    cluster that cannot be reached or joined."""
