"""The error types of the planning package: one root, ``PlanningError``, and the no-route family.

They are defined in :mod:`map2route.gridsearch.errors`, beside the search kernel that raises
them (see there why); this module is where planning code and users import them from.
"""

from __future__ import annotations

from map2route.gridsearch.errors import NoPathError, NoRouteError, PlanningError

__all__ = ["NoPathError", "NoRouteError", "PlanningError"]
