"""Episode validity under the official metric: planned routes scored, contradictions proved.

An episode is *valid* when its planned routes (the scope-aware route and the shortest feasible
route, as the generator plans them) meet every hard requirement both under our reading
(``success_requirements``: the destination held at the end) and under the official evaluator's
HCS (:func:`map2route.bench.map2route.official_metrics.hcs`). The official HCS can fail where
ours holds: it completes a stage where the route's segment first *touches* a target cell's
square and checks the next stage's must-avoids from that instant, with touching counted as
entering. A stage whose goal region borders the next stage's must-avoid can then fail at the
very step that completes it (docs/benchmark.md, "Contradictory episodes").

For a flagged episode :func:`official_reachable_stages` says whether *any* route could do
better: an exact search over every 8-connected route on the traversable cells (diagonal steps
may pass wall corners), with each step judged by the official progress rule. When no route
completes every stage the episode is contradictory under the official semantics; otherwise
the planner missed a route that exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from map2route.bench.map2route import official_metrics as om
from map2route.bench.map2route.methods import hard_requirements
from map2route.bench.map2route.scoring import score_route
from map2route.planning import plan_route
from map2route.routeir import ConstraintKind

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from numpy.typing import NDArray

    from map2route.bench.map2route.episode import Episode
    from map2route.semantic_map import SemanticMap

_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def route_problem(ep: Episode, m: SemanticMap, points: Any) -> str | None:
    """Why a route of ``ep`` is not a valid reference route (``None``: it is).

    Both readings must hold: ours (every stage reached in order, must-avoids kept, the
    destination held at the end) and the official HCS (1.0).
    """
    s = score_route(ep, m, points)
    if not s.success_requirements:
        return "misses a hard requirement (our reading)"
    if not s.success:
        h = s.details["hcs"]
        where = (f"; transition {h['first_failed_transition']} touches "
                 f"{h['first_must_avoid_violation']!r}" if h["failed"] else "")
        glob = (f"; touches global must-avoid(s) {h['global_must_avoid_violations']}"
                if h["global_must_avoid_violations"] else "")
        return f"official HCS {s.hcs:.3f} ({h['completed']} of {h['must_pass']} stages{where}{glob})"
    return None


def _avoids(ep: Episode, m: SemanticMap) -> list[om.Avoid]:
    cs = [c for c in ep.routeir.constraints if c.kind is ConstraintKind.MUST_AVOID]
    return [om.Avoid(mask=c.region.mask(m.grid),
                     stages=None if c.temporal_scope is None else frozenset(c.temporal_scope),
                     name=c.label or f"must_avoid_{i + 1}") for i, c in enumerate(cs)]


def _touch(mask: NDArray[np.bool_], r: NDArray[np.int64], c: NDArray[np.int64],
           dr: int, dc: int) -> NDArray[np.bool_]:
    """Whether the unit steps ``(r, c) -> (r + dr, c + dc)`` meet a square of ``mask``: their
    two cells, and for a diagonal the two cells it passes between (it touches their corner).
    ``mask`` is padded by one cell, so every index is in range."""
    out = mask[r + 1, c + 1] | mask[r + dr + 1, c + dc + 1]
    if dr and dc:
        out |= mask[r + dr + 1, c + 1] | mask[r + 1, c + dc + 1]
    return out


def _components(free: NDArray[np.bool_], block: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Component labels of the ``free`` cells under the steps that meet no ``block`` square."""
    rows, cols = free.shape
    pad = np.pad(block, 1)
    ids = np.arange(rows * cols).reshape(rows, cols)
    src, dst = [], []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        r, c = np.nonzero(free)
        q_r, q_c = r + dr, c + dc
        ok = (q_r >= 0) & (q_r < rows) & (q_c >= 0) & (q_c < cols)
        r, c, q_r, q_c = r[ok], c[ok], q_r[ok], q_c[ok]
        ok = free[q_r, q_c] & ~_touch(pad, r, c, dr, dc)
        src.append(ids[r[ok], c[ok]])
        dst.append(ids[q_r[ok], q_c[ok]])
    s, d = np.concatenate(src), np.concatenate(dst)
    graph = csr_matrix((np.ones(len(s), dtype=np.int8), (s, d)), shape=(rows * cols, rows * cols))
    return np.asarray(connected_components(graph, directed=False)[1]).reshape(rows, cols)


def official_reachable_stages(ep: Episode, m: SemanticMap) -> int:
    """The most stages any route of ``ep`` can complete under the official HCS (its best
    HCS is this over the number of stages; a route touching a global must-avoid scores 0 and
    is not counted).

    Exact over routes that step between 8-neighbouring traversable cells: per progress level
    ``k`` (stages completed), the cells reachable by steps that meet neither stage ``k``'s
    target nor a must-avoid active in it (a global one counts in every stage: touching it
    zeroes HCS) are one set of components; every step out of that set that meets the target is
    judged by the official progress rule (:func:`official_metrics.hcs_progress`) and seeds the
    level it reaches. A result below the number of stages proves the episode contradictory.
    """
    grid = m.grid
    targets = [s.target.mask(grid) for s in ep.routeir.stages]
    avoids = _avoids(ep, m)
    n = len(targets)
    trav = np.asarray(m.traversable, dtype=bool)
    rows, cols = trav.shape
    start = grid.world_to_cell(*ep.start_xy)
    level = 0
    while level < n and targets[level][start]:
        level += 1
    seeds: dict[int, set[tuple[int, int]]] = {level: {start}}
    best = level
    for k in range(level, n):
        if not seeds.get(k):
            continue
        active = np.zeros_like(trav)
        for a in avoids:
            if a.stages is None or k in a.stages:
                active |= a.mask
        block = targets[k] | active
        label = _components(trav & ~block, block)
        starts = [s for s in seeds[k] if trav[s] and not block[s]]
        reach = np.isin(label, [label[s] for s in starts]) & trav & ~block if starts else \
            np.zeros_like(trav)
        later = [om.Avoid(a.mask, None if a.stages is None else
                          frozenset(s - k for s in a.stages if s >= k), a.name) for a in avoids]
        pad_t = np.pad(targets[k], 1)
        for dr, dc in _STEPS:
            r, c = np.nonzero(reach)
            q_r, q_c = r + dr, c + dc
            ok = (q_r >= 0) & (q_r < rows) & (q_c >= 0) & (q_c < cols)
            r, c, q_r, q_c = r[ok], c[ok], q_r[ok], q_c[ok]
            ok = trav[q_r, q_c] & _touch(pad_t, r, c, dr, dc)
            for p0, p1, e0, e1 in zip(r[ok], c[ok], q_r[ok], q_c[ok], strict=True):
                pts = np.array([[p0, p1], [e0, e1]], dtype=np.float64)
                prog = om.hcs_progress(pts, targets[k:], later, with_global=True)
                best = max(best, k + prog.completed)  # a failed step still counts its stages
                if not prog.failed and prog.completed > 0:
                    seeds.setdefault(k + prog.completed, set()).add((int(e0), int(e1)))
        if seeds.get(n):
            return n
    return best


@dataclass
class EpisodeCheck:
    """The validity of one episode (:func:`check_episode`).

    Attributes:
        episode_id: the episode.
        problems: one line per planned route that is not a valid reference route.
        stages: the number of stages.
        reachable_stages: for a flagged episode, :func:`official_reachable_stages` (below
            ``stages``: contradictory under the official semantics); ``None`` when not flagged.
    """

    episode_id: str
    problems: list[str] = field(default_factory=list)
    stages: int = 0
    reachable_stages: int | None = None

    @property
    def contradictory(self) -> bool:
        """No route can score HCS 1 under the official semantics."""
        return self.reachable_stages is not None and self.reachable_stages < self.stages


def check_episode(ep: Episode, m: SemanticMap, *, planner: Callable[..., Any] | None = None,
                  planner_config: Any = None) -> EpisodeCheck:
    """Plan ``ep``'s two reference routes as the generator does and validate both.

    A planning failure is a problem too. Flagged episodes get the exact search.
    """
    plan = planner or plan_route
    cfg = {} if planner_config is None else {"config": planner_config}
    start = (ep.start.x, ep.start.y)
    out = EpisodeCheck(episode_id=ep.id, stages=len(ep.routeir.stages))
    runs: Sequence[tuple[str, Any, dict[str, Any]]] = (
        ("oracle route", ep.routeir, {}), ("shortest route", hard_requirements(ep.routeir),
                                           {"hard_only": True}))
    for name, ir, extra in runs:
        try:
            route = plan(m, ir, start, **extra, **cfg)
        except Exception as err:  # noqa: BLE001 - reported, never raised
            out.problems.append(f"{name}: does not plan ({err})")
            continue
        why = route_problem(ep, m, route.points)
        if why is not None:
            out.problems.append(f"{name}: {why}")
    if out.problems:
        out.reachable_stages = official_reachable_stages(ep, m)
    return out
