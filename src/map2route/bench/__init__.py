"""The Map2Route benchmark: episodes, the paper's metrics, methods, runs and reports.

Public names: :class:`Episode` and :func:`load_episodes` (episode files),
:func:`score_route` and :func:`summarize` (metrics), :class:`Method`, :class:`MethodResult`,
:data:`METHODS` and :func:`make_method` (methods), :class:`BenchmarkError`.
"""

from __future__ import annotations

from map2route.bench.episode import (
    EPISODE_SCHEMA,
    Episode,
    ReferenceInfo,
    ReferringExpression,
    StartPose,
    load_episodes,
    write_episodes,
)
from map2route.bench.errors import BenchmarkError
from map2route.bench.methods import METHODS, Method, MethodResult, make_method
from map2route.bench.scoring import EpisodeScore, score_route, summarize

__all__ = [
    "EPISODE_SCHEMA",
    "METHODS",
    "BenchmarkError",
    "Episode",
    "EpisodeScore",
    "Method",
    "MethodResult",
    "ReferenceInfo",
    "ReferringExpression",
    "StartPose",
    "load_episodes",
    "make_method",
    "score_route",
    "summarize",
    "write_episodes",
]
