"""Errors of the ROS nodes that their callers branch on."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class PlanFailure(Map2RouteError):
    """Planning could not run or found no route; ``code`` is a PlannerStatus code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
