"""Street-graph instruction following and instruction scoring (GROKE) on Map2Seq/OSM data."""

from __future__ import annotations

from map2route.language.directions import Action, Condition, SubGoal, decompose
from map2route.streets.errors import StreetError
from map2route.streets.graph import Link, Poi, PoiAttachment, StreetGraph
from map2route.streets.loaders import NavInstance, load_instances, load_osm_pbf, load_touchdown
from map2route.streets.metrics import TrajectoryScore, score_paths
from map2route.streets.navigator import Agent, Decision, FollowConfig, FollowResult, follow
from map2route.streets.view import LocalView, build_view

__all__ = [
    "Action", "Agent", "Condition", "Decision", "FollowConfig", "FollowResult", "Link",
    "LocalView", "NavInstance", "Poi", "PoiAttachment", "StreetError", "StreetGraph",
    "SubGoal", "TrajectoryScore", "build_view", "decompose", "follow", "load_instances",
    "load_osm_pbf", "load_touchdown", "score_paths",
]
