"""Route planning: the exact grid search kernel, scope-aware cost maps and the sequential planner."""

from __future__ import annotations

from map2route.planning.errors import NoPathError, NoRouteError
from map2route.planning.grid_search import (
    GoalField,
    GridPath,
    cost_to_go,
    goal_field,
    search,
    warm_up,
)

__all__ = [
    "GoalField",
    "GridPath",
    "NoPathError",
    "NoRouteError",
    "cost_to_go",
    "goal_field",
    "search",
    "warm_up",
]
