"""Score one route against one episode with the Map2Route metrics, and aggregate many.

:func:`score_route` scores with the semantics of the official evaluator (GitHub
BaoBao0926/Map2Route, ``scripts/evaluation/evaluation_metrics.evaluate_trajectory``;
:mod:`map2route.bench.map2route.official_metrics` names the function each metric follows): a route in
map metres becomes the grid path the evaluator reads; HCS counts the ordered must-passes after
the start (the record region) and stops at the first active must-avoid, 0 on any global one;
SPL is segment-wise with L* from each segment's actual start; soft values are the evaluator's
raw values (Relative without a value when D_A = 0). The route is segmented by the
ground-truth must-pass regions, never by a method's own stage labels.

Aggregation (paper 000, III-C2): each soft type is averaged over its constraints within an
episode (constraints without a value left out), then macro-averaged over the episodes that have
a value of that type; HCS, success and SPL are averaged over all episodes. Easy and Hard are
reported separately.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.bench.map2route import metrics as mt
from map2route.bench.map2route import official_metrics as om
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
#: Our stricter or older readings, reported beside the official columns (docs/benchmark.md).
EXTRA_KEYS = ("hcs_requirements", "success_requirements", "spl_episode", "clearance_robot_centre",
              "path_shape_waypoints")


@dataclass
class EpisodeScore:
    """Every metric of one episode; soft types the episode lacks are ``None``.

    The columns under the paper's names follow the official evaluator
    (:mod:`map2route.bench.map2route.official_metrics`). The ``*_requirements``, ``spl_episode``,
    ``clearance_robot_centre``, ``path_shape_waypoints`` and ``ends_in_destination`` columns
    are our stricter or older readings, kept as extras under their own names
    (docs/benchmark.md).
    """

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
    hcs_requirements: float | None = None
    success_requirements: bool | None = None
    ends_in_destination: bool | None = None
    spl_episode: float | None = None
    clearance_robot_centre: float | None = None
    path_shape_waypoints: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EpisodeScore:
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in names})


class _MapCache:
    """Per-map fields every episode of a scene shares (clearance fields, obstacle masks)."""

    def __init__(self) -> None:
        self._fields: dict[tuple[int, str], tuple[SemanticMap, Any]] = {}

    def _get(self, m: SemanticMap, kind: str, make: Any) -> Any:
        # Keyed by the map object, which the entry holds: an id alone is reused once its
        # object is freed, and a later map then got an earlier map's field (a wrong clearance
        # in a long test run); a map sharing another's layers but not its objects is another.
        key = (id(m), kind)
        hit = self._fields.get(key)
        if hit is not None and hit[0] is m:
            return hit[1]
        if len(self._fields) > 16:
            self._fields.clear()
        value = make()
        self._fields[key] = (m, value)
        return value

    def clearance(self, m: SemanticMap) -> NDArray[np.float64]:
        """d(p, U) to the robot-centre (inflated) non-traversable set, metres (our extra)."""
        return self._get(m, "robot", lambda: mt.clearance_field_m(m.traversable,
                                                                   m.grid.resolution))

    def obstacles(self, m: SemanticMap) -> NDArray[np.bool_]:
        return self._get(m, "obstacles", lambda: clearance_obstacles(m))

    def obstacle_field(self, m: SemanticMap) -> NDArray[np.float64]:
        return self._get(m, "field", lambda: om.clearance_field_cells(self.obstacles(m)))


_CACHE = _MapCache()


def clearance_obstacles(m: SemanticMap) -> NDArray[np.bool_]:
    """The evaluator's clearance obstacles on our map (``clearance_obstacle_cells``).

    Officially: every cell that is not free in the occupancy layer, plus every object cell
    except doorways and doorframes. On a map read from an official map JSON the traversable
    layer is that occupancy layer (not inflated), so its complement is used as is. On our maps
    (whose traversable layer is inflated by the robot radius): walls, every object footprint
    except those two categories, and the untraversable cells outside every room.
    """
    if m.metadata.get("source_format") == "map2route.official_map":
        return np.asarray(~m.traversable, dtype=bool)
    objects = [o for o in m.objects if o.category not in om.TRAVERSABLE_OBJECT_CATEGORIES]
    out = m.walls | m.footprint_mask(objects)
    out |= (m.room_ids < 0) & ~m.traversable
    return np.asarray(out, dtype=bool)


def world_to_grid_points(points: ArrayLike, grid: Any) -> NDArray[np.float64]:
    """Map-frame metres to the evaluator's grid coordinates ``(row, col)``, centres integral."""
    return np.asarray(grid.worlds_to_fractional(points) - 0.5)


def score_route(ep: Episode, m: SemanticMap, points: ArrayLike | None, *,
                shortest_length_m: float | None = None,
                grid_points: ArrayLike | None = None) -> EpisodeScore:
    """Score a route against ``ep`` with the official evaluator's semantics.

    Args:
        ep: the episode (its ground-truth RouteIR must be resolved on ``m``'s grid).
        m: the episode's scene.
        points: the route in map metres ``(N, 2)``; it is turned into the grid path the
            evaluator reads (the cells it passes through, in order). ``None`` or empty scores
            every metric at its worst.
        shortest_length_m: L* of the whole episode for the ``spl_episode`` extra; defaults to
            ``ep.reference.shortest_length_m``.
        grid_points: instead of ``points``, an official trajectory: ``[row, col]`` grid points
            used as given (as ``evaluate_trajectory`` does).
    """
    ir = ep.routeir
    grid = m.grid
    lstar = ep.reference.shortest_length_m if shortest_length_m is None else shortest_length_m
    if grid_points is not None:
        gp = np.asarray(grid_points, dtype=np.float64).reshape(-1, 2)
        cells = _dense_cells(gp)
        pts = grid.cells_to_worlds(gp) if len(gp) else np.zeros((0, 2))
    else:
        pts = np.zeros((0, 2)) if points is None else np.asarray(points, dtype=np.float64).reshape(-1, 2)
        cells = mt.dense_route_cells(pts, grid)
        gp = cells.astype(np.float64)

    targets = [s.target.mask(grid) for s in ir.stages]
    avoid_cs = [c for c in ir.constraints if c.kind is ConstraintKind.MUST_AVOID]
    avoids = [om.Avoid(mask=c.region.mask(grid),
                       stages=None if c.temporal_scope is None else frozenset(c.temporal_scope),
                       name=c.label or f"must_avoid_{k + 1}") for k, c in enumerate(avoid_cs)]
    progress = om.hcs(gp, targets, avoids)
    hcs_value = progress.score
    spl_value, segments = om.segment_wise_spl(gp, targets, avoids, m.traversable)
    gated = om.hcs_progress(gp, targets, avoids, with_global=True).completed
    record = _record_mask(ep, grid)
    hits = om.ordered_hits(gp, [record, *targets])

    # Our Path-Shape extra: a stage ends where the route enters its target after passing the
    # stage's waypoints in order (mt.ordered_entries), so a loop that crosses its own target
    # early is read whole; the official window ends at the first entry.
    waypoints = [[w.mask(grid) for w in s.waypoints] for s in ir.stages]
    loop_hits: list[int | None] = [hits[0], *(mt.ordered_entries(cells, targets, waypoints)
                                              if len(cells) else [None] * len(targets))]
    per_type: dict[str, list[float]] = {k: [] for k, _, _ in SOFT_TYPES}
    loops: list[float] = []
    soft_details: list[dict[str, Any]] = []
    for index, c in enumerate(ir.constraints):
        key = next((k for k, kind, _ in SOFT_TYPES if kind is c.kind), None)
        if key is None:
            continue
        value, status = _official_soft(ep, m, index, c, gp, hits, gated)
        if value is not None:
            per_type[key].append(value)
        soft_details.append({"constraint": index, "kind": c.kind.value, "value": value,
                             "status": status})
        if c.kind is ConstraintKind.PATH_SHAPE and grid_points is None:
            loop, _ = _official_soft(ep, m, index, c, gp, loop_hits, gated)
            if loop is not None:
                loops.append(loop)

    clearance = om.clearance_value(gp, _CACHE.obstacle_field(m), _CACHE.obstacles(m))
    # PL is the given trajectory's length (compute_path_length of the points as given); a
    # route in metres is measured as given, not along its grid path.
    if grid_points is None:
        pl = mt.path_length_m(pts) if len(pts) else None
    else:
        pl = grid.cells_to_meters(om.path_length_cells(gp)) if len(gp) else None
    strict = _requirements_score(ep, m, cells)
    spl_episode = 0.0
    if strict.success and len(pts) and lstar is not None:
        spl_episode = mt.spl_term(True, lstar, mt.path_length_m(pts))
    distinct = mt.distinct_in_order(cells)
    robot_clearance = (mt.clearance_value(distinct, _CACHE.clearance(m)) if len(distinct)
                       else None)
    blocked = int((~mt.cells_in_mask(cells, m.traversable)).sum()) if len(cells) else 0
    means = {k: (float(np.mean(v)) if v else None) for k, v in per_type.items()}
    return EpisodeScore(
        episode_id=ep.id, split=ep.split, difficulty=ep.difficulty,
        hcs=hcs_value, success=bool(targets) and hcs_value == 1.0,
        near=means["near"], far=means["far"], relative=means["relative"],
        path_shape=means["path_shape"], clearance=None if clearance is None else grid.cells_to_meters(clearance),
        pl=pl, spl=0.0 if spl_value is None else spl_value,
        shortest_length_m=lstar,
        hcs_requirements=strict.hcs, success_requirements=strict.success,
        ends_in_destination=strict.destination_met, spl_episode=spl_episode,
        clearance_robot_centre=robot_clearance,
        path_shape_waypoints=float(np.mean(loops)) if loops else None,
        details={"hcs": {"completed": progress.completed, "must_pass": progress.total,
                         "failed": progress.failed,
                         "first_failed_transition": progress.failed_transition,
                         "first_must_avoid_violation": progress.first_violation,
                         "global_must_avoid_violations": progress.global_violations},
                 "segments": [{"L_star_m": None if s.l_star is None else grid.cells_to_meters(s.l_star),
                               "L_m": None if s.length is None else grid.cells_to_meters(s.length),
                               "S": int(s.success), "SPL": s.spl, "status": s.status}
                              for s in segments],
                 "stages_met": list(strict.stages_met), "avoids_met": list(strict.avoids_met),
                 "soft": soft_details, "route_cells": int(len(cells)),
                 "trajectory_points": int(len(gp)), "blocked_cells": blocked})


def _dense_cells(gp: NDArray[np.float64]) -> NDArray[np.int64]:
    """The cells holding each grid point, consecutive repeats removed."""
    if len(gp) == 0:
        return np.zeros((0, 2), dtype=np.int64)
    cells = np.floor(gp + 0.5).astype(np.int64)
    keep = np.ones(len(cells), dtype=bool)
    keep[1:] = np.any(cells[1:] != cells[:-1], axis=1)
    return cells[keep]


def _record_mask(ep: Episode, grid: Any) -> NDArray[np.bool_] | None:
    """The record region (the official first must-pass) of an imported episode, if any."""
    cells = ep.metadata.get("record_region")
    if not cells:
        return None
    mask = np.zeros(grid.shape, dtype=bool)
    rc = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    ok = (rc[:, 0] >= 0) & (rc[:, 0] < grid.rows) & (rc[:, 1] >= 0) & (rc[:, 1] < grid.cols)
    mask[rc[ok, 0], rc[ok, 1]] = True
    return mask


def _official_soft(ep: Episode, m: SemanticMap, index: int, c: Constraint,
                   gp: NDArray[np.float64], hits: Sequence[int | None],
                   gated: int) -> tuple[float | None, str]:
    """One soft constraint as ``compute_soft_details`` scores it (raw value, status).

    A stage-scoped constraint reads the route between the hits of its bounding must-passes,
    and only when the hard progress (global avoids active) completed its last stage;
    otherwise it reads an empty route (the worst value of its type).
    """
    grid = m.grid
    active = gp
    status_prefix = ""
    if c.temporal_scope is not None and len(c.temporal_scope):
        k0, k1 = min(c.temporal_scope), max(c.temporal_scope)
        active = om.scoped_points(gp, hits[k0], hits[k1 + 1])
        if k1 >= gated:
            active = gp[:0]
            status_prefix = "segment_not_completed_worst_case:"
    if c.spatial_scope is not None:
        own = c.spatial_scope.mask(grid)
        region_pts = active[om.points_inside(active, own)]
        region_cells = np.argwhere(own)
    else:
        region_pts = active
        region_cells = np.argwhere(m.traversable)
    ref = c.region.cells.astype(np.float64)
    kind = c.kind
    if kind in (ConstraintKind.NEAR, ConstraintKind.FAR):
        value, status = om.near_far_value(region_pts, ref, near=kind is ConstraintKind.NEAR,
                                          region_cells=region_cells)
        value = None if value is None else grid.cells_to_meters(value)
    elif kind is ConstraintKind.RELATIVE:
        other = np.zeros((0, 2)) if c.other is None else c.other.cells.astype(np.float64)
        value, status = om.relative_value(region_pts, ref, other)
    else:
        reference = ep.path_shape_references.get(index)
        tau = None if reference is None else world_to_grid_points(reference, grid)
        value, status = om.path_shape_value(region_pts, tau)
    return value, status_prefix + status


def _requirements_score(ep: Episode, m: SemanticMap, cells: NDArray[np.int64]) -> mt.HardResult:
    """Our stricter reading (the ``*_requirements`` extras): each stage, the destination held
    at the end, and each must-avoid is one requirement (paper 000, III-C1 as we read it)."""
    ir = ep.routeir
    grid = m.grid
    targets = [s.target.mask(grid) for s in ir.stages]
    waypoints = [[w.mask(grid) for w in s.waypoints] for s in ir.stages]
    entries = (mt.ordered_entries(cells, targets, waypoints) if len(cells)
               else [None] * len(targets))
    segments = mt.stage_segments(len(cells), entries)
    avoid_cs = [c for c in ir.constraints if c.kind is ConstraintKind.MUST_AVOID]
    if not len(cells):
        return mt.HardResult(stages_met=(False,) * len(targets), destination_met=False,
                             avoids_met=(False,) * len(avoid_cs))
    avoid_active = [_active_indices(c, len(cells), entries, segments, strict=False)[0]
                    for c in avoid_cs]
    return mt.hard_constraint_score(cells, targets, [c.region.mask(grid) for c in avoid_cs],
                                    avoid_active)


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
        row["hcs"] = _mean([s.hcs for s in items])
        row["success"] = _mean([s.success for s in items])
        for key in ("near", "far", "relative", "path_shape", "clearance", "pl", *EXTRA_KEYS):
            vals = [getattr(s, key) for s in items if getattr(s, key) is not None]
            row[key] = _mean(vals) if vals else None
            row[f"n_{key}"] = len(vals)
        row["spl"] = _mean([s.spl for s in items])
        out[name] = row
    return out


def _mean(values: Sequence[float]) -> float:
    """The mean with an exactly rounded sum: the same whatever order parallel workers finished
    the episodes in (np.mean's pairwise sum differs in the last bits between orders)."""
    return math.fsum(values) / len(values)


def ratios(ours: dict[str, Any], baseline: dict[str, Any],
           keys: Sequence[str] = ("near", "far", "relative")) -> dict[str, float | None]:
    """``ours[k] / baseline[k]`` for each key (the paper's 0.57x / 1.55x / 2.09x style)."""
    out: dict[str, float | None] = {}
    for k in keys:
        a, b = ours.get(k), baseline.get(k)
        out[k] = None if a is None or b is None or b == 0 or not math.isfinite(b) else a / b
    return out
