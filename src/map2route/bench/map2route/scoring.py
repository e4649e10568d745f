"""Score one route against one episode with the Map2Route metrics, and aggregate many.

:func:`score_route` segments the route by the ground-truth must-pass regions (stage ``k`` runs
from the first entry into target ``k-1`` to the first entry into target ``k``), so a route
from any source (a method, a recorded bag, a human) is scored the same way, never trusting a
method's own stage labels.

Aggregation (paper 000, III-C2): each soft type is averaged over its constraints within an
episode, then macro-averaged over the episodes that have that type; HCS, success, PL and SPL
are averaged over all episodes. Easy and Hard are reported separately.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.bench.map2route import metrics as mt
from map2route.routeir import ConstraintKind

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from numpy.typing import ArrayLike, NDArray

    from map2route.bench.map2route.episode import Episode
    from map2route.routeir import Constraint
    from map2route.semantic_map import SemanticMap

#: The soft metric keys in Table II order, with whether higher is better.
SOFT_TYPES: tuple[tuple[str, ConstraintKind, bool], ...] = (
    ("near", ConstraintKind.NEAR, False),
    ("far", ConstraintKind.FAR, True),
    ("relative", ConstraintKind.RELATIVE, True),
    ("path_shape", ConstraintKind.PATH_SHAPE, True),
)
METRIC_KEYS = ("hcs", "success", "near", "far", "relative", "path_shape", "clearance", "pl", "spl")


@dataclass
class EpisodeScore:
    """Every metric of one episode; soft types the episode lacks are ``None``."""

    episode_id: str
    split: str
    difficulty: str
    hcs: float
    success: bool
    near: float | None
    far: float | None
    relative: float | None
    path_shape: float | None
    clearance: float | None
    pl: float | None
    spl: float
    shortest_length_m: float | None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EpisodeScore:
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in names})


class _MapCache:
    """Per-map fields every episode of a scene shares (the clearance field d(p, U))."""

    def __init__(self) -> None:
        self._clearance: dict[int, NDArray[np.float64]] = {}

    def clearance(self, m: SemanticMap) -> NDArray[np.float64]:
        key = id(m.traversable)
        if key not in self._clearance:
            if len(self._clearance) > 8:
                self._clearance.clear()
            self._clearance[key] = mt.clearance_field_m(m.traversable, m.grid.resolution)
        return self._clearance[key]


_CACHE = _MapCache()


def score_route(ep: Episode, m: SemanticMap, points: ArrayLike | None, *,
                shortest_length_m: float | None = None) -> EpisodeScore:
    """Score a route (``(N, 2)`` map metres, or ``None`` for no route) against ``ep``.

    Args:
        ep: the episode (its ground-truth RouteIR must be resolved on ``m``'s grid).
        m: the episode's scene.
        points: the route; ``None`` or empty scores every metric at its worst.
        shortest_length_m: L* for SPL; defaults to ``ep.reference.shortest_length_m``.
    """
    ir = ep.routeir
    grid = m.grid
    lstar = ep.reference.shortest_length_m if shortest_length_m is None else shortest_length_m
    pts = np.zeros((0, 2)) if points is None else np.asarray(points, dtype=np.float64).reshape(-1, 2)
    cells = mt.dense_route_cells(pts, grid)
    targets = [s.target.mask(grid) for s in ir.stages]
    waypoints = [[w.mask(grid) for w in s.waypoints] for s in ir.stages]
    entries = (mt.ordered_entries(cells, targets, waypoints) if len(cells)
               else [None] * len(targets))
    segments = mt.stage_segments(len(cells), entries)

    avoid_cs = [c for c in ir.constraints if c.kind is ConstraintKind.MUST_AVOID]
    avoid_active = [_active_indices(c, len(cells), entries, segments, strict=False)[0]
                    for c in avoid_cs]
    if len(cells):
        hard = mt.hard_constraint_score(cells, targets, [c.region.mask(grid) for c in avoid_cs],
                                        avoid_active)
    else:  # no route meets no requirement, not even "never entered the avoid region"
        hard = mt.HardResult(stages_met=(False,) * len(targets), destination_met=False,
                             avoids_met=(False,) * len(avoid_cs))

    per_type: dict[str, list[float]] = {k: [] for k, _, _ in SOFT_TYPES}
    soft_details: list[dict[str, Any]] = []
    for index, c in enumerate(ir.constraints):
        key = next((k for k, kind, _ in SOFT_TYPES if kind is c.kind), None)
        if key is None:
            continue
        value, status = _soft_value(ep, m, index, c, cells, entries, segments)
        per_type[key].append(value)
        soft_details.append({"constraint": index, "kind": c.kind.value, "value": value,
                             "status": status})

    distinct = mt.distinct_in_order(cells)
    clearance = mt.clearance_value(distinct, _CACHE.clearance(m)) if len(distinct) else 0.0
    pl = mt.path_length_m(pts) if len(pts) else None
    spl_term = 0.0
    if hard.success and pl is not None and lstar is not None:
        spl_term = mt.spl_term(True, lstar, pl)
    blocked = int((~mt.cells_in_mask(cells, m.traversable)).sum()) if len(cells) else 0
    means = {k: (float(np.mean(v)) if v else None) for k, v in per_type.items()}
    return EpisodeScore(
        episode_id=ep.id, split=ep.split, difficulty=ep.difficulty,
        hcs=hard.hcs, success=hard.success,
        near=means["near"], far=means["far"], relative=means["relative"],
        path_shape=means["path_shape"], clearance=clearance, pl=pl, spl=spl_term,
        shortest_length_m=lstar,
        details={"stages_met": list(hard.stages_met), "avoids_met": list(hard.avoids_met),
                 "soft": soft_details, "route_cells": int(len(cells)),
                 "blocked_cells": blocked})


def _active_indices(c: Constraint, n: int, entries: Sequence[int | None],
                    segments: Sequence[tuple[int, int] | None], *,
                    strict: bool) -> tuple[NDArray[np.bool_], bool]:
    """Route indices a constraint's temporal scope covers, and whether its segments completed.

    With ``strict=False`` (must-avoid) an unfinished stage covers the rest of the route from
    where it began, so a route cannot escape an avoid by never finishing the stage.
    """
    active = np.zeros(n, dtype=bool)
    if c.temporal_scope is None:
        active[:] = True
        return active, True
    complete = True
    for s in c.temporal_scope:
        seg = segments[s] if 0 <= s < len(segments) else None
        if seg is not None:
            active[seg[0]:seg[1] + 1] = True
            continue
        complete = False
        if not strict:
            prev = [e for e in entries[:s] if e is not None]
            if len(prev) == s:  # every earlier stage finished: this one started
                active[(prev[-1] if prev else 0):] = True
    return active, complete


def _soft_value(ep: Episode, m: SemanticMap, index: int, c: Constraint,
                cells: NDArray[np.int64], entries: Sequence[int | None],
                segments: Sequence[tuple[int, int] | None]) -> tuple[float, str]:
    """One soft constraint's metric value and a status word (``computed`` or why worst)."""
    grid = m.grid
    region_mask = m.traversable if c.spatial_scope is None else c.spatial_scope.mask(grid) & m.traversable
    ref_pts = grid.cells_to_worlds(c.region.cells)
    active, complete = _active_indices(c, len(cells), entries, segments, strict=True)
    window_cells = np.zeros((0, 2), dtype=np.int64)
    if complete and len(cells):
        sel = cells[active]
        window_cells = mt.distinct_in_order(sel[mt.cells_in_mask(sel, region_mask)])
    status = "computed" if len(window_cells) else (
        "segment_not_completed" if not complete else "region_not_entered")
    window = grid.cells_to_worlds(window_cells)
    kind = c.kind
    if kind in (ConstraintKind.NEAR, ConstraintKind.FAR):
        if len(window):
            return mt.near_far_value(window, ref_pts), status
        if kind is ConstraintKind.FAR:
            return mt.WORST_FAR, status
        rr, cc = np.nonzero(region_mask)
        region_pts = grid.cells_to_worlds(np.stack([rr, cc], axis=1))
        return mt.near_worst_value(region_pts, ref_pts), status
    if kind is ConstraintKind.RELATIVE:
        if not len(window) or c.other is None:
            return mt.WORST_RELATIVE, status
        return mt.relative_value(window, ref_pts, grid.cells_to_worlds(c.other.cells)), status
    reference = ep.path_shape_references.get(index)
    if reference is None or not len(reference):
        return mt.WORST_PATH_SHAPE, "no_reference_trajectory"
    if not len(window):
        return mt.WORST_PATH_SHAPE, status
    return mt.path_shape_value(window, reference), status


# --- aggregation -------------------------------------------------------------------------------
def summarize(scores: Iterable[EpisodeScore]) -> dict[str, dict[str, Any]]:
    """Table II numbers per difficulty (``easy``, ``hard``) and ``all``.

    Returns:
        ``{group: {"episodes": n, "hcs": ..., "success": ..., "near": ..., "far": ...,
        "relative": ..., "path_shape": ..., "clearance": ..., "pl": ..., "spl": ...,
        "n_near": ..., ...}}``; a soft metric with no episode of its type is ``None``.
    """
    groups: dict[str, list[EpisodeScore]] = {"easy": [], "hard": [], "all": []}
    for s in scores:
        groups.setdefault(s.difficulty, []).append(s)
        groups["all"].append(s)
    out: dict[str, dict[str, Any]] = {}
    for name, items in groups.items():
        if not items:
            continue
        row: dict[str, Any] = {"episodes": len(items)}
        row["hcs"] = float(np.mean([s.hcs for s in items]))
        row["success"] = float(np.mean([s.success for s in items]))
        for key in ("near", "far", "relative", "path_shape", "clearance", "pl"):
            vals = [getattr(s, key) for s in items if getattr(s, key) is not None]
            row[key] = float(np.mean(vals)) if vals else None
            row[f"n_{key}"] = len(vals)
        row["spl"] = float(np.mean([s.spl for s in items]))
        out[name] = row
    return out


def ratios(ours: dict[str, Any], baseline: dict[str, Any],
           keys: Sequence[str] = ("near", "far", "relative")) -> dict[str, float | None]:
    """``ours[k] / baseline[k]`` for each key (the paper's 0.57x / 1.55x / 2.09x style)."""
    out: dict[str, float | None] = {}
    for k in keys:
        a, b = ours.get(k), baseline.get(k)
        out[k] = None if a is None or b is None or b == 0 or not math.isfinite(b) else a / b
    return out
