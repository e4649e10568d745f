"""The ``g2r`` Map2Route method: Grounding2Route = grounding + scope-aware planning.

Registered by name in :mod:`map2route.bench.registry`. The method reads only the episode's
instruction, start and scene.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from map2route.bench.map2route.methods import MethodResult
from map2route.errors import Map2RouteError
from map2route.grounding.grounder import load_config, make_grounder
from map2route.planning import PlannerConfig, plan_route

if TYPE_CHECKING:
    from map2route.bench.map2route.episode import Episode
    from map2route.semantic_map.model import SemanticMap


class Grounding2Route:
    """Ground the instruction (offline by default, or an LLM), then plan with ``plan_route``.

    Args:
        grounder: ``offline``, ``hybrid`` or ``llm``.
        planner_config: planner YAML path (``None``: ``config/planner.yaml``).
        grounding_config: grounding YAML path (``None``: ``config/grounding.yaml``).
    """

    name = "g2r"

    def __init__(self, *, grounder: str = "offline", planner_config: str | None = None,
                 grounding_config: str | None = None) -> None:
        self.grounder = grounder
        self._grounder = make_grounder(grounder, config=load_config(grounding_config))
        self._planner = PlannerConfig.from_yaml(planner_config)

    def solve(self, episode: Episode, m: SemanticMap) -> MethodResult:
        start = episode.start_xy
        t0 = time.perf_counter()
        info: dict[str, Any] = {}
        try:
            g = self._grounder.ground(episode.instruction, m, start)
        except Map2RouteError as err:
            info["grounding_s"] = time.perf_counter() - t0
            return MethodResult(route=None, routeir=None, error=f"grounding: {err}", info=info)
        t1 = time.perf_counter()
        info.update({"grounding_s": t1 - t0, "repairs": g.repairs,
                     "reading": g.info.get("reading", "")})
        if "answered_by" in g.info:  # the hybrid grounder: which of the two answered
            info["answered_by"] = g.info["answered_by"]
        try:
            route = plan_route(m, g.routeir, start, config=self._planner)
        except Map2RouteError as err:
            info["planning_s"] = time.perf_counter() - t1
            return MethodResult(route=None, routeir=g.routeir, error=f"planning: {err}", info=info)
        info["planning_s"] = time.perf_counter() - t1
        info["total_s"] = time.perf_counter() - t0
        return MethodResult(route=route, routeir=g.routeir, info=info)
