"""RouteIR: ordered stages plus hard and soft constraints with spatial and temporal scopes."""

from __future__ import annotations

from map2route.routeir.errors import RouteIRError
from map2route.routeir.model import (
    SCHEMA_VERSION,
    Constraint,
    ConstraintKind,
    Region,
    RouteIR,
    Stage,
    check_scene,
    routeir_from_json,
    routeir_to_json,
    scene_problems,
    validation_problems,
)

__all__ = [
    "SCHEMA_VERSION",
    "Constraint",
    "ConstraintKind",
    "Region",
    "RouteIR",
    "RouteIRError",
    "Stage",
    "check_scene",
    "routeir_from_json",
    "routeir_to_json",
    "scene_problems",
    "validation_problems",
]
