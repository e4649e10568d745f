"""The error types of the planning package: one root, ``PlanningError``, and the no-route family."""

from __future__ import annotations

from map2route.errors import Map2RouteError


class PlanningError(Map2RouteError):
    """The planner cannot run as asked (bad configuration, bad input)."""


class NoRouteError(PlanningError):
    """No route satisfies the hard requirements; the message names the stage and why.

    Attributes:
        stage: 0-based index of the stage that failed, or ``None`` when not stage-specific.
        reason: a short machine-readable cause: ``"empty_target"``, ``"unreachable"``,
            ``"blocked_by_must_avoid"``, ``"start_blocked"``, ``"bad_input"``.
    """

    def __init__(self, message: str, *, stage: int | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.stage = stage
        self.reason = reason


class NoPathError(NoRouteError):
    """The grid search found no path from the start cell to any goal cell."""
