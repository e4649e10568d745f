"""The one registry of what the benchmarks evaluate: Map2Route methods and GROKE agents by name.

The benchmark drivers (:mod:`map2route.bench.map2route.run`, :mod:`map2route.bench.groke.run`,
:mod:`map2route.bench.planner.tuning`) and the CLI look methods up here. The registry imports
the implementations; no implementation imports the registry (a method does not register
itself: a new one is one line in :data:`METHODS`), and no domain package (grounding, planning,
streets, ...) imports :mod:`map2route.bench` at all. Module by module the graph is one way::

    cli  ->  drivers (map2route.run, groke.run, planner.tuning)  ->  registry
         ->  methods (map2route.methods, grounding_method, llm_methods), streets agents
         ->  Map2Route episodes and metrics, bench.runner / report / errors
         ->  domain packages (grounding, planning, streets, routeir, semantic_map)
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from map2route.bench.errors import BenchmarkError
from map2route.bench.map2route.llm_methods import VARIANTS, grounding2route, variant_factory
from map2route.bench.map2route.methods import (
    HumanDemonstration,
    Method,
    OraclePlanner,
    ShortestFeasible,
)
from map2route.llm import ChatClient
from map2route.streets.errors import StreetError
from map2route.streets.heuristic import HeuristicAgent, OracleLengthHeuristicAgent
from map2route.streets.llm_agent import LLMAgent
from map2route.streets.navigator import Agent
from map2route.streets.offline import OfflineAgent

#: Map2Route method name -> factory. Factories accept keyword options (``planner_config``;
#: the Grounding2Route ones also ``grounder`` and ``grounding_config``). ``g2r`` is the offline
#: grounder unless the grounding config or ``grounder="llm"`` asks for the LLM; the
#: ``g2r-llm*`` names are the paper's Table III rows with an LLM (llm_methods.VARIANTS).
METHODS: dict[str, Callable[..., Method]] = {
    "shortest": ShortestFeasible,
    "oracle": OraclePlanner,
    "human": HumanDemonstration,
    "g2r": grounding2route,
    **{name: variant_factory(name) for name in VARIANTS},
}

#: GROKE follower agents, in the order ``--agent`` lists them.
#: ``heuristic-oracle-length`` is told the reference length (GROKE's baseline stop rule).
AGENTS = ("heuristic", "heuristic-oracle-length", "offline", "llm")


def make_method(name: str, **options: Any) -> Method:
    """Build the Map2Route method registered as ``name``.

    Raises:
        BenchmarkError: the name is unknown (with the nearest registered names).
    """
    if name not in METHODS:
        close = difflib.get_close_matches(name, sorted(METHODS), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        msg = f"Unknown method {name!r}{hint} Registered methods: {', '.join(sorted(METHODS))}"
        raise BenchmarkError(msg)
    return METHODS[name](**options)


def make_agent(name: str, *, llm_config: dict[str, Any] | None = None) -> Agent:
    """Build the GROKE follower agent ``name``.

    Raises:
        StreetError: an unknown name, or ``llm`` without ``base_url``/``model``.
    """
    if name == "offline":
        return OfflineAgent()
    if name == "heuristic":
        return HeuristicAgent()
    if name == "heuristic-oracle-length":
        return OracleLengthHeuristicAgent()
    if name == "llm":
        if not llm_config or "base_url" not in llm_config or "model" not in llm_config:
            msg = ("agent 'llm' needs --llm-url and --llm-model (an OpenAI-compatible "
                   "server, e.g. http://localhost:8000/v1)")
            raise StreetError(msg)
        return LLMAgent(ChatClient.from_config(llm_config))
    raise StreetError(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}")
