"""NeSy-Route: land-cover route planning for four agents, its generator and its evaluator.

Implements NeSy-Route (arXiv 2603.16307): the knowledge base (:mod:`.kb`), the official A* cost
model (:mod:`.search`), land-cover masks from PNG or OpenStreetMap (:mod:`.landcover`), regions
and complexity (:mod:`.regions`), queries and the offline parser (:mod:`.queries`), the dataset
generator and files (:mod:`.dataset`), the metrics (:mod:`.metrics`) and the evaluator
(:mod:`.evaluate`).
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
