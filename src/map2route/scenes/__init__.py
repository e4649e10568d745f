"""Scenes: ProcTHOR houses in and out, offline generation, statistics, the demo."""

from __future__ import annotations

from map2route.scenes.errors import SceneError
from map2route.scenes.official import read_official_map, write_official_map
from map2route.scenes.procthor import ROBOT_RADIUS_M, from_procthor_house, read_house_json

__all__ = [
    "ROBOT_RADIUS_M",
    "SceneError",
    "from_procthor_house",
    "read_house_json",
    "read_official_map",
    "write_official_map",
]
