"""Recompute the reference numbers of shipped episodes (``episodes refresh-reference``).

The generator stores, with each episode, numbers measured on its planned routes
(:func:`map2route.bench.map2route.generate.route_reference`): the rooms the oracle route passes through,
its length, and L*. A planner change moves them while the annotation stays valid; this
recomputes them exactly as the generator does and rewrites only those fields.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from map2route.bench.errors import BenchmarkError
from map2route.bench.map2route.episode import episode_from_json
from map2route.bench.map2route.generate import default_planner, route_reference
from map2route.bench.map2route.methods import hard_requirements
from map2route.errors import Map2RouteError
from map2route.files import atomic_write_text
from map2route.semantic_map import load_scene

if TYPE_CHECKING:
    from map2route.bench.map2route.episode import Episode
    from map2route.bench.map2route.generate import Planner
    from map2route.semantic_map import SemanticMap


def recompute_reference(ep: Episode, m: SemanticMap, *, planner: Planner | None = None,
                        planner_config: Any = None) -> dict[str, Any]:
    """What the generator computes today for ``ep``'s reference numbers (plans both routes).

    Raises:
        Map2RouteError: the episode cannot be planned on ``m`` any more.
    """
    plan = planner or default_planner()
    cfg = {} if planner_config is None else {"config": planner_config}
    start = (ep.start.x, ep.start.y)
    full = plan(m, ep.routeir, start, **cfg)
    short = plan(m, hard_requirements(ep.routeir), start, hard_only=True, **cfg)
    return route_reference(m, full, short)


def refresh_reference(path: str, maps_root: str, *, planner_config: Any = None,
                      write: bool = True) -> dict[str, int]:
    """Recompute the reference numbers of every episode of a JSON Lines file in place.

    Only ``reference.rooms_traversed``, ``trajectory_length_m`` and ``shortest_length_m``
    change (with the rounding :func:`map2route.bench.map2route.episode.episode_to_json` uses); every
    other byte of each line is kept. Returns how many episodes each field changed in.

    Raises:
        BenchmarkError: the file or a scene cannot be read, or an episode no longer plans.
    """
    p = Path(path)
    lines = p.read_text(encoding="utf-8").splitlines()
    scenes: dict[str, SemanticMap] = {}
    changed = {"episodes": 0, "rooms_traversed": 0, "trajectory_length_m": 0,
               "shortest_length_m": 0}
    out: list[str] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        raw = json.loads(line)
        ep = episode_from_json(raw, where=f"{p}:{n}")
        if ep.scene not in scenes:
            scenes.clear()
            scenes[ep.scene] = load_scene(Path(maps_root) / ep.scene)
        try:
            new = recompute_reference(ep, scenes[ep.scene], planner_config=planner_config)
        except Map2RouteError as err:
            raise BenchmarkError(f"{p}:{n} ({ep.id}) no longer plans: {err}") from err
        ref = raw["reference"]
        values = {"rooms_traversed": int(new["rooms_traversed"]),
                  "trajectory_length_m": round(float(new["trajectory_length_m"]), 4),
                  "shortest_length_m": round(float(new["shortest_length_m"]), 4)}
        changed["episodes"] += 1
        for key, value in values.items():
            if ref.get(key) != value:
                changed[key] += 1
                ref[key] = value
        out.append(json.dumps(raw, separators=(",", ":")))
    if write:
        atomic_write_text(p, "\n".join(out) + "\n")
    return changed
