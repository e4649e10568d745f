"""Map2Route methods: the ``Method`` protocol, its result, and the three reference methods.

A method turns an episode's instruction, start and scene into a route. It may read only
``episode.instruction``, ``episode.start_xy`` and ``episode.scene`` (and the map); the
reference methods shipped here read the ground truth on purpose:

- ``shortest``: the paper's "Shortest Feasible A*": the shortest route that meets the
  ground-truth hard requirements, soft preferences ignored (``plan_route(hard_only=True)``).
- ``oracle``: the ground-truth RouteIR through the scope-aware planner (paper 000, Table IV).
- ``human``: the human expert trajectory of a converted official episode.

Methods are looked up by name in :mod:`map2route.bench.registry`, which imports this module
(and :mod:`map2route.bench.map2route.grounding_method`); nothing here imports the registry.
A factory takes keyword options (``planner_config``: a YAML path or ``None``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from map2route.errors import Map2RouteError
from map2route.planning import PlannerConfig, plan_route
from map2route.routeir import Stage

if TYPE_CHECKING:
    from map2route.bench.map2route.episode import Episode
    from map2route.routeir import RouteIR
    from map2route.semantic_map import SemanticMap


@dataclass
class MethodResult:
    """What a method returns for one episode.

    Attributes:
        route: the planned route (``map2route.planning.Route`` or anything with ``.points``),
            ``None`` when the method failed.
        routeir: the method's own RouteIR, when it builds one.
        error: why it failed (one line), ``None`` on success.
        info: free-form diagnostics (timings, LLM calls, repair rounds).
    """

    route: Any | None
    routeir: RouteIR | None = None
    error: str | None = None
    info: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Method(Protocol):
    """A route-planning method under evaluation."""

    name: str

    def solve(self, episode: Episode, m: SemanticMap) -> MethodResult:
        """Plan a route for ``episode`` on its scene ``m``."""
        ...


def _planner_config(path: str | None) -> PlannerConfig:
    return PlannerConfig.from_yaml(path)


def hard_requirements(ir: RouteIR) -> RouteIR:
    """``ir`` with only its hard requirements: stage targets and must-avoids.

    Path-Shape waypoints are a soft preference in the benchmark (paper 000, III-A2), so the
    shortest feasible route and L* do not pass them.
    """
    stages = tuple(Stage(target=s.target, label=s.label) for s in ir.stages)
    return replace(ir, stages=stages, constraints=ir.must_avoid)


class ShortestFeasible:
    """Shortest feasible A* on the ground-truth hard requirements (soft terms off)."""

    name = "shortest"

    def __init__(self, *, planner_config: str | None = None) -> None:
        self._config = _planner_config(planner_config)

    def solve(self, episode: Episode, m: SemanticMap) -> MethodResult:
        try:
            route = plan_route(m, hard_requirements(episode.routeir), episode.start_xy,
                               config=self._config, hard_only=True)
        except Map2RouteError as err:
            return MethodResult(route=None, routeir=episode.routeir, error=str(err))
        return MethodResult(route=route, routeir=episode.routeir)


class OraclePlanner:
    """The ground-truth RouteIR through the scope-aware planner (Table IV's "Ours")."""

    name = "oracle"

    def __init__(self, *, planner_config: str | None = None) -> None:
        self._config = _planner_config(planner_config)

    def solve(self, episode: Episode, m: SemanticMap) -> MethodResult:
        try:
            route = plan_route(m, episode.routeir, episode.start_xy, config=self._config)
        except Map2RouteError as err:
            return MethodResult(route=None, routeir=episode.routeir, error=str(err))
        return MethodResult(route=route, routeir=episode.routeir)


class HumanDemonstration:
    """Replays the human expert trajectory of an official episode (Table II's "Human Demo")."""

    name = "human"

    def __init__(self, **_options: Any) -> None:
        pass

    def solve(self, episode: Episode, m: SemanticMap) -> MethodResult:
        traj = episode.metadata.get("human_expert_trajectory")
        if not traj:
            return MethodResult(route=None, error=f"episode {episode.id!r} carries no human "
                                "expert trajectory (only converted official episodes do)")
        return MethodResult(route=_Points(np.asarray(traj, dtype=np.float64).reshape(-1, 2)))


@dataclass(frozen=True)
class _Points:
    points: Any
