"""The planning error family: ``PlanningError`` and the no-route errors the search raises.

It lives here, at the bottom layer, because the search kernel that raises
:class:`NoPathError` is shared by the planner, the comfortable walk (grounding's Path-Shape
reference and the benchmark's tau_ref), NeSy and the mapping drive; :mod:`map2route.planning.errors`
re-exports it, so ``except NoRouteError`` and ``except PlanningError`` catch what they always did.
"""

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
