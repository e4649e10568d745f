"""The Map2Route methods by name: what ``bench map2route --method NAME`` builds.

:mod:`map2route.bench.registry` publishes this table with the GROKE agents; the Map2Route
driver (:mod:`.run`) looks methods up here, inside its own package, so the registry imports
``bench.map2route`` and nothing in ``bench.map2route`` imports the registry back. A method does
not register itself: a new one is one line in :data:`METHODS`.
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
