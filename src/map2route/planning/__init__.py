"""Route planning: scope-aware cost maps and the sequential planner over the grid-search kernel.

``plan_route(m, ir, start_xy)`` turns a grounded :class:`~map2route.routeir.RouteIR` into a
:class:`Route`; :mod:`map2route.gridsearch.kernel` is the 8-connected search kernel it runs on.
"""

from __future__ import annotations

from map2route.gridsearch.kernel import (
    GoalField,
    GridPath,
    cost_to_go,
    goal_field,
    search,
    warm_up,
)
from map2route.planning.config import PlannerConfig
from map2route.planning.errors import NoPathError, NoRouteError, PlanningError
from map2route.planning.planner import Replanner, Route, plan_route

__all__ = [
    "GoalField",
    "GridPath",
    "NoPathError",
    "NoRouteError",
    "PlannerConfig",
    "PlanningError",
    "Replanner",
    "Route",
    "cost_to_go",
    "goal_field",
    "plan_route",
    "search",
    "warm_up",
]
