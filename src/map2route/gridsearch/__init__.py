"""Grid search at the bottom layer: the exact 8-connected search kernel and the comfortable walk.

:mod:`~map2route.gridsearch.kernel` is the A*/Dijkstra kernel every planner runs on;
:mod:`~map2route.gridsearch.walk` is how a person walks through ordered waypoints (the
Path-Shape reference of grounding and the benchmark's tau_ref). Both sit below grounding and
planning, so neither imports the other for them.
"""

from __future__ import annotations

from map2route.gridsearch.errors import NoPathError, NoRouteError, PlanningError
from map2route.gridsearch.kernel import (
    GoalField,
    GridPath,
    cost_to_go,
    goal_field,
    search,
    warm_up,
)
from map2route.gridsearch.walk import KEEP_CLEAR_M, clearance_m, comfortable_walk, walk_cost

__all__ = [
    "KEEP_CLEAR_M",
    "GoalField",
    "GridPath",
    "NoPathError",
    "NoRouteError",
    "PlanningError",
    "clearance_m",
    "comfortable_walk",
    "cost_to_go",
    "goal_field",
    "search",
    "walk_cost",
    "warm_up",
]
