"""The Map2Route benchmark (paper 000): episodes, the paper's metrics, methods, runs and reports.

Public names: :class:`Episode`, :func:`load_episodes` and :func:`write_episodes` (episode
files, :mod:`.episode`), :func:`score_route` and :func:`summarize` (metrics, :mod:`.scoring`),
:class:`Method` and :class:`MethodResult` (:mod:`.methods`). Methods are built by name with
:func:`map2route.bench.registry.make_method`; a run is :func:`.run.run_benchmark`.

Modules: ``episode`` (the file format), ``generate`` / ``generate_all`` (episodes from scenes),
``references`` / ``language`` (referring expressions, instruction text), ``metrics`` /
``scoring`` (Table II numbers), ``methods`` / ``grounding_method`` (what is evaluated), ``run``
(a method over episodes), ``report`` (Table II files), ``official`` (the official episodes),
``rosbag`` (a recorded route), ``stats`` (Fig. 2), ``grounding_eval`` (grounding on the
held-out human instructions).
"""

from __future__ import annotations

from map2route.bench.map2route.episode import (
    EPISODE_SCHEMA,
    Episode,
    ReferenceInfo,
    ReferringExpression,
    StartPose,
    load_episodes,
    write_episodes,
)
from map2route.bench.map2route.methods import Method, MethodResult
from map2route.bench.map2route.scoring import EpisodeScore, score_route, summarize

__all__ = [
    "EPISODE_SCHEMA",
    "Episode",
    "EpisodeScore",
    "Method",
    "MethodResult",
    "ReferenceInfo",
    "ReferringExpression",
    "StartPose",
    "load_episodes",
    "score_route",
    "summarize",
    "write_episodes",
]
