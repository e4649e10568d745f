"""Benchmark test helpers: a planner for the generator and methods on small maps.

The tests use ``map2route.planning.plan_route`` when the planner area provides it; until then
(and to keep the generator tests independent of planner tuning) they use
:func:`sequential_planner`, a plain stage-by-stage shortest path with the same signature.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest


@dataclass(frozen=True)
class SimpleRoute:
    points: np.ndarray
    cells: np.ndarray
    stage_index: np.ndarray
    length_m: float


def sequential_planner(m, ir, start_xy, *, hard_only=False, config=None):
    """Shortest path through each stage's waypoints and target; must-avoids blocked."""
    from map2route.gridsearch.kernel import search

    cost = np.where(m.traversable, 0.0, np.inf)
    cur = m.grid.world_to_cell(*start_xy)
    cells = [np.asarray([cur])]
    stages = [np.zeros(1, dtype=np.int32)]
    for k, st in enumerate(ir.stages):
        blocked = cost.copy()
        for c in ir.must_avoid:
            if c.temporal_scope is None or k in c.temporal_scope:
                blocked[c.region.mask(m.grid)] = np.inf
        for goal in [*st.waypoints, st.target]:
            path = search(blocked, cur, goal.mask(m.grid))
            seg = np.asarray(path.cells)[1:]
            cells.append(seg)
            stages.append(np.full(len(seg), k, dtype=np.int32))
            if len(seg):
                cur = (int(seg[-1][0]), int(seg[-1][1]))
    allc = np.concatenate(cells).astype(np.int32)
    pts = m.grid.cells_to_worlds(allc)
    length = float(np.linalg.norm(np.diff(pts, axis=0), axis=1).sum()) if len(pts) > 1 else 0.0
    return SimpleRoute(points=pts, cells=allc, stage_index=np.concatenate(stages), length_m=length)


@pytest.fixture
def seq_planner():
    """:func:`sequential_planner` itself (routes that match the generated test episodes)."""
    return sequential_planner


@pytest.fixture
def planner():
    """``plan_route`` when it exists, else :func:`sequential_planner`."""
    try:
        from map2route.planning import plan_route
    except ImportError:
        return sequential_planner
    return plan_route


@pytest.fixture
def two_room_scene(tmp_path, two_room_map):
    """The two-room house saved as a scene folder with an ``index.json``; returns the root."""
    import json

    from map2route.semantic_map import save_scene

    root = tmp_path / "maps"
    save_scene(two_room_map, root / two_room_map.name)
    (root / "index.json").write_text(json.dumps({"test": [two_room_map.name], "dev": [],
                                                 "default": two_room_map.name}))
    return root


@pytest.fixture
def two_room_episodes(tmp_path, two_room_scene):
    """Six generated episodes (4 easy, 2 hard) on the two-room house, as a JSONL path."""
    from map2route.bench.map2route.episode import write_episodes
    from map2route.bench.map2route.generate_all import generate_for_scene
    from map2route.semantic_map import load_scene

    m = load_scene(two_room_scene / "two_room_house")
    eps, _ = generate_for_scene(m, "test", ["easy"] * 4 + ["hard"] * 2, seed=3,
                                planner=sequential_planner)
    return write_episodes(tmp_path / "episodes.jsonl", eps)


class GroundTruthShortest:
    """A test method: the ground-truth hard requirements through :func:`sequential_planner`."""

    name = "gt_sequential"

    def __init__(self, **_options):
        pass

    def solve(self, episode, m):
        from map2route.bench.map2route.methods import MethodResult, hard_requirements

        ir = hard_requirements(episode.routeir)
        return MethodResult(route=sequential_planner(m, ir, episode.start_xy))


@pytest.fixture
def gt_method():
    """Register :class:`GroundTruthShortest` as ``gt_sequential`` for the test."""
    from map2route.bench.registry import METHODS

    METHODS["gt_sequential"] = GroundTruthShortest
    yield "gt_sequential"
    METHODS.pop("gt_sequential", None)
