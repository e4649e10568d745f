"""NeSy-Route: land-cover route planning for four agents, its generator and its files.

Implements NeSy-Route (arXiv 2603.16307): the knowledge base (:mod:`.kb`), the official A* cost
model (:mod:`.search`), land-cover masks from PNG, OpenStreetMap or real orthophoto/mask pairs
(:mod:`.landcover`, :mod:`.dataset`), regions and complexity (:mod:`.regions`), query writers
and the offline parser's entry point (:mod:`.queries`; the parser's rules are
:mod:`map2route.language.nesy`), the dataset generator (:mod:`.dataset`), the official release
layout and prediction format (:mod:`.official`) and the metrics with the official scorer's
semantics (:mod:`.metrics`). The evaluator and the methods are the benchmark's:
:mod:`map2route.bench.nesy`.
"""

from __future__ import annotations

from map2route.nesy.errors import NesyError
from map2route.nesy.kb import (
    CLASS_NAMES,
    Agent,
    Objective,
    Vectors,
    cost_map,
    derive_vectors,
)

__all__ = ["CLASS_NAMES", "Agent", "NesyError", "Objective", "Vectors", "cost_map",
           "derive_vectors"]
