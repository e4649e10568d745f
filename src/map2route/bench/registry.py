"""The one registry of what the benchmarks evaluate: Map2Route methods and GROKE agents by name.

The CLI and the drivers look methods up here; the Map2Route methods are
:mod:`map2route.bench.map2route.catalog`'s table (published here as :data:`METHODS`), which the
Map2Route driver reads directly so that ``bench.map2route`` never imports this module. The registry imports
the implementations; no implementation imports the registry (a method does not register
itself: a new one is one line in :data:`METHODS`), and no domain package (grounding, planning,
streets, ...) imports :mod:`map2route.bench` at all. Module by module the graph is one way::

    cli  ->  registry  ->  drivers (map2route.run -> map2route.catalog, groke.run)
         ->  methods (map2route.methods, grounding_method, llm_methods), streets agents
         ->  Map2Route episodes and metrics, execution (runner) / bench.report / errors
         ->  domain packages (grounding, planning, streets, routeir, semantic_map)
"""

from __future__ import annotations

from typing import Any

from map2route.bench.map2route.catalog import METHODS, make_method
from map2route.llm import ChatClient
from map2route.streets.errors import StreetError
from map2route.streets.heuristic import HeuristicAgent, OracleLengthHeuristicAgent
from map2route.streets.llm_agent import LLMAgent
from map2route.streets.navigator import Agent
from map2route.streets.offline import OfflineAgent

__all__ = ["AGENTS", "METHODS", "make_agent", "make_method"]

#: GROKE follower agents, in the order ``--agent`` lists them.
#: ``heuristic-oracle-length`` is told the reference length (GROKE's baseline stop rule).
AGENTS = ("heuristic", "heuristic-oracle-length", "offline", "llm")


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
