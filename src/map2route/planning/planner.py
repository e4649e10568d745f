"""Scope-aware sequential route planning (paper 000, Sec. IV-D).

Each stage ``S_k`` is planned from where the previous one ended (the start pose first), through
its ordered waypoints ``M_{k,1}, ..., M_{k,n}`` to its target region, on that stage's cost map:
``tau_{k,j} = A*(M_{k,j-1}, M_{k,j})``. A region is a set of cells; each sub-segment reaches its
cheapest cell. With ``soft_waypoints`` (config) a Near or Relative preference also gets its
near band as an optional sub-goal of one stage, and with ``far_waypoints`` a scoped Far
preference its far band, kept only where it pays (:class:`_SoftStages`); with
``pass_along`` each band also gets candidate routes that pass along it (for Relative also round
A to its far side from B), scored by the official metric (over the evaluator's own window with
``evaluator_window``) under an optional length budget (:mod:`map2route.planning.candidates`). If any stage is
infeasible, planning stops with a :class:`NoRouteError` naming the
stage and the cause, found by re-planning without each active must-avoid region.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from map2route.gridsearch.kernel import GoalField, GridPath, goal_field, search
from map2route.planning.candidates import (
    FAR_EXIT_BAND_M,
    Cells,
    SoftWaypoint,
    best_ratio_cell,
    cell_mask,
    cells_length_m,
    exit_cells,
    far_side_cell,
    first_in,
    metric_value,
    ring_cells,
    route_points,
    window_points,
)
from map2route.planning.config import PlannerConfig
from map2route.planning.costmap import (
    StageCostMap,
    distance_fields,
    in_temporal_scope,
    reachable_min,
    stage_cost_map,
)
from map2route.planning.errors import NoPathError, NoRouteError
from map2route.routeir.errors import RouteIRError
from map2route.routeir.model import ConstraintKind, Region, RouteIR

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap


@dataclass(frozen=True, eq=False)
class Route:
    """A planned route in the map frame.

    Attributes:
        points: float64 ``(N, 2)`` cell-centre ``(x, y)`` metres, start first.
        cells: int32 ``(N, 2)`` the same points as ``(row, col)``.
        stage_index: int32 ``(N,)`` the stage each point belongs to; the start point is stage 0
            and a point shared by two stages (where one ends and the next begins) belongs to the
            earlier one.
        stage_lengths_m: length of each stage in metres.
        stage_costs: cost of each stage under its cost map (metres-equivalent, see costmap).
        length_m: total length in metres.
    """

    points: NDArray[np.float64]
    cells: NDArray[np.int32]
    stage_index: NDArray[np.int32]
    stage_lengths_m: tuple[float, ...]
    stage_costs: tuple[float, ...]
    length_m: float

    @property
    def end_xy(self) -> tuple[float, float]:
        """The last point."""
        return float(self.points[-1, 0]), float(self.points[-1, 1])


def _stage_name(ir: RouteIR, k: int) -> str:
    st = ir.stages[k]
    label = st.label or st.target.label
    return f"stage {k + 1} of {len(ir.stages)}" + (f" ({label!r})" if label else "")


def _snap_start(m: SemanticMap, start_xy: tuple[float, float], radius_m: float) -> tuple[int, int]:
    """The start cell, moved to the nearest traversable cell within ``radius_m`` if blocked."""
    grid = m.grid
    row, col = grid.world_to_cell(*start_xy)
    if not grid.contains_cell(row, col):
        msg = (f"start {start_xy} lies outside the map of {m.name!r} "
               f"(x {grid.origin_x:.2f}..{grid.origin_x + grid.width_m:.2f}, "
               f"y {grid.origin_y:.2f}..{grid.origin_y + grid.height_m:.2f}); pass a point inside it")
        raise NoRouteError(msg, stage=0, reason="start_blocked")
    if m.traversable[row, col]:
        return row, col
    r = int(np.ceil(grid.meters_to_cells(radius_m)))
    r0, r1 = max(row - r, 0), min(row + r + 1, grid.rows)
    c0, c1 = max(col - r, 0), min(col + r + 1, grid.cols)
    rr, cc = np.nonzero(m.traversable[r0:r1, c0:c1])
    if rr.size:
        d2 = (rr + r0 - row) ** 2 + (cc + c0 - col) ** 2
        best = int(np.argmin(d2))
        if grid.cells_to_square_meters(d2[best]) <= radius_m**2 + 1e-12:
            return int(rr[best] + r0), int(cc[best] + c0)
    msg = (f"start {start_xy} is on a blocked cell with no traversable cell within "
           f"{radius_m} m; move the start into free space")
    raise NoRouteError(msg, stage=0, reason="start_blocked")


def _goal_mask(region: Region, cmap: StageCostMap, m: SemanticMap, what: str, stage_name: str,
               k: int) -> NDArray[np.bool_]:
    """Usable cells of ``region`` for this stage, or a :class:`NoRouteError` saying why none."""
    mask = region.mask(m.grid)
    if not mask.any():
        msg = f"{stage_name}: {what} {region.label!r} is empty (no cells on this map)"
        raise NoRouteError(msg, stage=k, reason="empty_target")
    usable = mask & np.isfinite(cmap.cell_cost)
    if usable.any():
        return usable
    if not (mask & m.traversable).any():
        msg = (f"{stage_name}: {what} {region.label!r} has no traversable cell "
               f"({int(mask.sum())} cells, all walls or furniture)")
        raise NoRouteError(msg, stage=k, reason="empty_target")
    names = [c.label or c.region.label for c, am in cmap.avoid if (am & mask & m.traversable).any()]
    msg = (f"{stage_name}: every traversable cell of {what} {region.label!r} lies in the "
           f"must-avoid region(s) {names}")
    raise NoRouteError(msg, stage=k, reason="blocked_by_must_avoid")


def _diagnose(m: SemanticMap, ir: RouteIR, k: int, config: PlannerConfig,
              start: tuple[int, int], goal: NDArray[np.bool_], what: str,
              stage_name: str, err: NoPathError) -> NoRouteError:
    """Why a sub-segment failed: re-plan without each active must-avoid, then without all."""
    active = [i for i, c in enumerate(ir.constraints)
              if c.kind is ConstraintKind.MUST_AVOID
              and (c.temporal_scope is None or k in c.temporal_scope)]

    def reachable(skip: frozenset[int]) -> bool:
        cmap = stage_cost_map(m, ir, k, config, hard_only=True, skip_avoid=skip)
        try:
            search(cmap.cell_cost, start, goal,
                   allow_corner_cutting=config.allow_corner_cutting)
        except NoPathError:
            return False
        return True

    def label(i: int) -> str:
        c = ir.constraints[i]
        return repr(c.label or c.region.label or f"constraint {i}")

    if active and err.reason != "start_blocked":
        single = [i for i in active if reachable(frozenset({i}))]
        if len(single) == 1:
            msg = (f"{stage_name}: {what} is cut off by the must-avoid region {label(single[0])} "
                   "(reachable without it)")
            return NoRouteError(msg, stage=k, reason="blocked_by_must_avoid")
        if single:
            names = ", ".join(label(i) for i in single)
            msg = (f"{stage_name}: {what} is cut off by the must-avoid regions {names} "
                   "(reachable without any one of them)")
            return NoRouteError(msg, stage=k, reason="blocked_by_must_avoid")
        if len(active) > 1 and reachable(frozenset(active)):
            names = ", ".join(label(i) for i in active)
            msg = f"{stage_name}: {what} is cut off by the must-avoid regions {names} together"
            return NoRouteError(msg, stage=k, reason="blocked_by_must_avoid")
    if err.reason == "start_blocked":
        inside = [c.label or c.region.label for c, am in
                  stage_cost_map(m, ir, k, config, hard_only=True).avoid if am[start]]
        msg = f"{stage_name}: the stage starts inside the must-avoid region(s) {inside}"
        return NoRouteError(msg, stage=k, reason="start_blocked")
    msg = (f"{stage_name}: {what} is unreachable from cell {start}: walls or furniture "
           f"separate them ({err})")
    return NoRouteError(msg, stage=k, reason="unreachable")


#: Solves one sub-segment: (stage k, sub-goal j, cost map, goal mask, start cell) -> path.
LegSolver = Callable[[int, int, StageCostMap, "NDArray[np.bool_]", tuple[int, int]], GridPath]


def _astar_leg(k: int, j: int, cmap: StageCostMap, goal: NDArray[np.bool_],
               start: tuple[int, int], *, corner_cut: bool) -> GridPath:
    return search(cmap.cell_cost, start, goal, length_weight=cmap.length_weight,
                  allow_corner_cutting=corner_cut)


def _plan_stage(m: SemanticMap, ir: RouteIR, k: int, start: tuple[int, int],
                config: PlannerConfig, cmap: StageCostMap, solve: LegSolver,
                first_subgoal: int = 0, soft: Sequence[SoftWaypoint] = ()) -> list[GridPath]:
    """The sub-segments of stage ``k`` from ``start``: waypoints in order, then the target.

    ``soft`` sub-goals are visited just before the sub-goal they name; one that cannot be
    reached is skipped (it is a preference, never a requirement).
    """
    stage = ir.stages[k]
    name = _stage_name(ir, k)
    legs: list[GridPath] = []
    here = start
    goals = [(wp, f"waypoint {j + 1} of {len(stage.waypoints)}")
             for j, wp in enumerate(stage.waypoints)] + [(stage.target, "the target")]
    for j, (region, what) in enumerate(goals):
        if j < first_subgoal:
            continue
        for sw in soft:
            if sw.before != j or not sw.mask.any():
                continue
            try:
                path = solve(k, -1 - sw.constraint, sw.cmap or cmap, sw.mask, here)
            except NoPathError:
                continue  # an unreachable band is skipped silently: it is only a preference
            legs.append(path)
            here = path.goal
        goal = _goal_mask(region, cmap, m, what, name, k)
        try:
            path = solve(k, j, cmap, goal, here)
        except NoPathError as err:
            raise _diagnose(m, ir, k, config, here, goal, f"{what} {region.label!r}", name,
                            err) from err
        legs.append(path)
        here = path.goal
    return legs


def _check_ir(m: SemanticMap, ir: RouteIR) -> None:
    """Validate ``ir`` and that it was grounded on ``m``'s grid."""

    ir.validate()
    g, mg = ir.grid, m.grid
    if g.shape != mg.shape or not np.allclose(
            [g.resolution, g.origin_x, g.origin_y], [mg.resolution, mg.origin_x, mg.origin_y]):
        msg = (f"the RouteIR was grounded on a {g.rows}x{g.cols} grid at {g.resolution} m with "
               f"origin ({g.origin_x}, {g.origin_y}), but map {m.name!r} is {mg.rows}x{mg.cols} "
               f"at {mg.resolution} m with origin ({mg.origin_x}, {mg.origin_y}); "
               "ground it on this map")
        raise RouteIRError(msg)
    bad = [f"constraint {i} ({c.kind.value} {c.label or c.region.label!r}): {c.weight}"
           for i, c in enumerate(ir.constraints)
           if not (np.isfinite(c.weight) and c.weight >= 0)]
    if bad:
        raise RouteIRError(f"constraint weights must be finite and >= 0; got {bad}")


#: Plans one whole stage: (stage k, start cell, cost map, first sub-goal) -> its legs.
StagePlanner = Callable[[int, tuple[int, int], StageCostMap, int], list[GridPath]]


def _sequential(m: SemanticMap, ir: RouteIR, config: PlannerConfig, start: tuple[int, int],
                cost_map: Callable[[int], StageCostMap], solve: LegSolver, *,
                first_stage: int = 0, first_subgoal: int = 0,
                plan_stage: StagePlanner | None = None) -> Route:
    """Plan stages ``first_stage..`` from cell ``start``; earlier stages get length and cost 0."""
    if plan_stage is None:
        def plan_stage(k: int, here: tuple[int, int], cmap: StageCostMap,
                       first: int) -> list[GridPath]:
            return _plan_stage(m, ir, k, here, config, cmap, solve, first)
    here = start
    cells_parts: list[NDArray[np.int32]] = [np.array([here], dtype=np.int32)]
    index_parts: list[NDArray[np.int32]] = [np.full(1, first_stage, dtype=np.int32)]
    lengths: list[float] = [0.0] * first_stage
    costs: list[float] = [0.0] * first_stage
    res = m.grid.resolution
    for k in range(first_stage, len(ir.stages)):
        legs = plan_stage(k, here, cost_map(k), first_subgoal if k == first_stage else 0)
        stage_cells = [leg.cells[1:] for leg in legs]
        new = np.concatenate(stage_cells) if stage_cells else np.zeros((0, 2), np.int32)
        full = np.concatenate([np.array([here], dtype=np.int32), new])
        lengths.append(cells_length_m(full, res))
        costs.append(float(sum(leg.cost for leg in legs)))
        cells_parts.append(new.astype(np.int32))
        index_parts.append(np.full(new.shape[0], k, dtype=np.int32))
        if legs:
            here = legs[-1].goal
    cells = np.concatenate(cells_parts).astype(np.int32)
    return Route(points=m.grid.cells_to_worlds(cells), cells=cells,
                 stage_index=np.concatenate(index_parts).astype(np.int32),
                 stage_lengths_m=tuple(lengths), stage_costs=tuple(costs),
                 length_m=float(sum(lengths)))


#: Dinkelbach steps (extra via cells) per Relative preference after its candidates.
_VIA_STEPS = 3
#: Preferences that get a near-band soft waypoint (their metric is a mean distance to the reference).
_SOFT_WAYPOINT_KINDS = frozenset({ConstraintKind.NEAR, ConstraintKind.RELATIVE})
#: Preferences whose value a far band must not lower (Path-Shape: mean distance to its path).
_SCORED_KINDS = frozenset({ConstraintKind.NEAR, ConstraintKind.FAR, ConstraintKind.RELATIVE,
                           ConstraintKind.PATH_SHAPE})


class _SoftStages:
    """A stage planner (:data:`StagePlanner`) that adds soft waypoints: near bands (Near /
    Relative) and far bands (Far), then candidate routes per band (``pass_along``).

    Why a waypoint and not a cost: the metrics are means over the route's points in the active
    region, and a non-negative per-cell cost can never make the optimal route lengthen itself to
    collect points near (or far from) the reference; a sub-goal can (as the paper enforces
    Path-Shape by waypoints).

    With ``soft_waypoints`` the near band of a Near / Relative constraint ``i`` is its active
    region's traversable cells within ``d_min + soft_waypoint_band_m`` of the reference (A for
    Relative), ``d_min`` being the closest reachable distance there (costmap.reachable_min).
    With ``far_waypoints`` the far band of a Far constraint with a spatial scope is the scope's
    usable cells (traversable, outside the stage's must-avoids) within ``far_waypoint_band_m``
    of the *farthest* distance from the reference there (an unscoped Far gets none: the
    farthest cell of a whole map is no sensible detour). A far band is kept only if its
    preference scores better with it and no other Near / Far / Relative / Path-Shape
    preference active in the stage scores worse (:meth:`_pays`).

    A band is attributed to one stage: the first in the temporal scope (any stage if none) whose
    plan *without* bands enters the active region, and visited just before the last sub-goal
    whose leg enters it (for a region without spatial scope: just before the target, so ordered
    Path-Shape waypoints keep their shape). With ``repeat_bands`` a preference without temporal
    scope (the official metric reads it over the whole route) gets its band again in each later
    stage that enters its region, kept only where it pays. Stages without a band are planned
    once. Scores are the official metric's (:func:`map2route.planning.candidates.metric_value`),
    over the stage's points or, with ``evaluator_window``, over exactly the evaluator's window
    (:func:`map2route.planning.candidates.window_points`) of the route planned so far.
    """

    def __init__(self, m: SemanticMap, ir: RouteIR, config: PlannerConfig,
                 solve_leg: LegSolver, start: tuple[int, int]) -> None:
        self.m, self.ir, self.config, self.solve_leg, self.start = m, ir, config, solve_leg, start
        self.fields = distance_fields(m)
        self.grid = m.grid
        kinds: set[ConstraintKind] = set()
        if config.soft_waypoints:
            kinds |= _SOFT_WAYPOINT_KINDS
        if config.far_waypoints:
            kinds.add(ConstraintKind.FAR)
        self.pending = [i for i, c in enumerate(ir.constraints)
                        if c.kind in kinds and not c.kind.is_hard and c.weight > 0
                        and not c.region.is_empty
                        and (c.kind is not ConstraintKind.FAR or c.spatial_scope is not None)]
        self.banded: set[int] = set()  # preferences that already got a band in an earlier stage
        self.active = {i: self._active_mask(i) for i in self.pending}
        self.budget_left: float | None = None  # metres of detour the route may still spend
        self.memo: dict[tuple[int, tuple[int, int], bytes], GridPath] = {}
        self.goal_fields: dict[tuple[int, bytes], GoalField] = {}
        self.outside: dict[tuple[int, int], StageCostMap] = {}
        # per-stage caches keyed by id(); each entry keeps its mask alive so no id is reused
        self.cells: dict[int, tuple[NDArray[np.bool_], Cells]] = {}
        self.outside_masks: dict[int, tuple[NDArray[np.bool_], NDArray[np.bool_]]] = {}
        self.usable: dict[int, NDArray[np.bool_]] = {}
        self.done: list[NDArray[np.int32]] = []  # points of the stages planned so far
        self._targets: list[NDArray[np.bool_]] | None = None

    # --- planning ------------------------------------------------------------------------------
    def __call__(self, k: int, here: tuple[int, int], cmap: StageCostMap,
                 first: int) -> list[GridPath]:
        self.memo.clear()
        self.goal_fields.clear()
        self.outside.clear()
        self.cells.clear()
        self.outside_masks.clear()
        self.usable.clear()
        legs = self._plan(k, here, cmap, first)
        soft, optional = self._bands(k, cmap, first, legs)
        if soft:
            legs = self._plan(k, here, cmap, first, soft)
        for sw in optional:  # far bands and repeated bands: kept only where they pay
            if sw.mask.any():
                trial = self._plan(k, here, cmap, first, [*soft, sw])
                if self._pays(k, sw.constraint, legs, trial):
                    soft.append(sw)
                    legs = trial
        if soft and (self.config.pass_along or self.config.length_budget is not None):
            legs = self._candidates(k, here, cmap, first, legs, soft)
        pts = route_points(legs)
        self.done.append(pts[1:] if self.done else pts)
        return legs

    def _plan(self, k: int, here: tuple[int, int], cmap: StageCostMap, first: int,
              soft: Sequence[SoftWaypoint] = ()) -> list[GridPath]:
        return _plan_stage(self.m, self.ir, k, here, self.config, cmap, self._solve, first, soft)

    def _solve(self, k: int, j: int, cmap: StageCostMap, goal: NDArray[np.bool_],
               here: tuple[int, int]) -> GridPath:
        """``solve_leg``, memoised within one stage: candidates share their first legs."""
        digest = hashlib.blake2b(np.packbits(goal).tobytes(), digest_size=16).digest()
        key = (id(cmap), here, digest)
        path = self.memo.get(key)
        if path is None:
            gf = self.goal_fields.get((id(cmap), digest))
            path = gf.path_from(here) if gf is not None else self.solve_leg(k, j, cmap, goal, here)
            self.memo[key] = path
        return path

    def _share_goal(self, cmap: StageCostMap, goal: NDArray[np.bool_]) -> None:
        """Serve every later leg to ``goal`` on ``cmap`` from one Dijkstra field (the
        candidates' legs from their exits to the next sub-goal; the same optimal costs)."""
        digest = hashlib.blake2b(np.packbits(goal).tobytes(), digest_size=16).digest()
        if (id(cmap), digest) not in self.goal_fields and goal.any():
            self.goal_fields[(id(cmap), digest)] = goal_field(
                cmap.cell_cost, goal, length_weight=cmap.length_weight,
                allow_corner_cutting=self.config.allow_corner_cutting)

    def _bands(self, k: int, cmap: StageCostMap, first: int, legs: list[GridPath]
               ) -> tuple[list[SoftWaypoint], list[SoftWaypoint]]:
        """The near bands planned into stage ``k`` and the optional bands (far, repeated) that
        it tries, for the preferences whose active region its plain plan enters."""
        ir, cfg, fields = self.ir, self.config, self.fields
        soft: list[SoftWaypoint] = []
        optional: list[SoftWaypoint] = []
        for i in [i for i in self.pending if in_temporal_scope(ir.constraints[i], k)]:
            c = ir.constraints[i]
            entering = [j for j, leg in enumerate(legs)
                        if self.active[i][leg.cells[:, 0], leg.cells[:, 1]].any()]
            if not entering:
                continue
            repeat = i in self.banded
            if not (cfg.repeat_bands and c.temporal_scope is None):
                self.pending.remove(i)
            self.banded.add(i)
            d = fields.to_region(c.region)
            usable = self.active[i] & np.isfinite(cmap.cell_cost)
            if c.kind is ConstraintKind.FAR:
                d_max = float(np.max(d, where=usable & np.isfinite(d), initial=-np.inf))
                band = usable & (d >= d_max - cfg.far_waypoint_band_m)
            else:
                band = usable & (d <= reachable_min(d, self.active[i]) + cfg.soft_waypoint_band_m)
            sw = SoftWaypoint(before=first + entering[-1], mask=band, constraint=i)
            (optional if repeat or c.kind is ConstraintKind.FAR else soft).append(sw)
        return soft, optional

    # --- scoring -------------------------------------------------------------------------------
    def _active_mask(self, i: int) -> NDArray[np.bool_]:
        scope = self.ir.constraints[i].spatial_scope
        return (self.fields.traversable if scope is None
                else scope.mask(self.grid) & self.fields.traversable)

    def _value(self, i: int, legs: Sequence[GridPath]) -> float | None:
        """The official value of preference ``i`` with this stage planned as ``legs``."""
        c = self.ir.constraints[i]
        pts = route_points(legs)
        if self.config.evaluator_window:
            if self._targets is None:
                self._targets = [s.target.mask(self.grid) for s in self.ir.stages]
            pts = window_points(np.concatenate([*self.done, pts[1:] if self.done else pts]),
                                self._targets, c.temporal_scope)
        if i not in self.active:
            self.active[i] = self._active_mask(i)
        return metric_value(c, pts, self.active[i], self.fields)

    def _others_hold(self, k: int, i: int, legs: list[GridPath], trial: list[GridPath]) -> bool:
        """No other Near / Far / Relative / Path-Shape preference active in stage ``k`` has a
        lower official value on ``trial`` than on ``legs`` (with ``trade`` > 0: no Near / Far /
        Relative loses more than ``trade`` times the relative gain of preference ``i``, as a
        fraction of its own value; Path-Shape never gives way)."""
        slack = 0.0
        if self.config.trade > 0:
            was_i, now_i = self._value(i, legs), self._value(i, trial)
            if was_i is not None and now_i is not None and abs(was_i) > 1e-9:
                slack = self.config.trade * max(now_i - was_i, 0.0) / abs(was_i)
        for o, other in enumerate(self.ir.constraints):
            if (o == i or other.kind not in _SCORED_KINDS or other.weight <= 0
                    or not in_temporal_scope(other, k)):
                continue
            was, now = self._value(o, legs), self._value(o, trial)
            give = 0.0 if other.kind is ConstraintKind.PATH_SHAPE else slack * abs(was or 0.0)
            if was is not None and (now is None or now < was - give - 1e-9):
                return False
        return True

    def _pays(self, k: int, i: int, legs: list[GridPath], trial: list[GridPath]) -> bool:
        """Keep an optional band only if it raises its preference's official value on this stage
        and lowers no other Near / Far / Relative / Path-Shape value active in the stage (one
        preference is never bought with another)."""
        before, after = self._value(i, legs), self._value(i, trial)
        if after is None or (before is not None and after <= before + 1e-9):
            return False
        return self._others_hold(k, i, legs, trial)

    # --- candidates ----------------------------------------------------------------------------
    def _stage_limit(self, k: int, here: tuple[int, int], first: int) -> tuple[float, float]:
        """(the stage's shortest feasible length from ``here``, the longest it may become)."""
        m, ir, config = self.m, self.ir, self.config
        if config.length_budget is None:
            return 0.0, np.inf
        if self.budget_left is None:  # the route's shortest feasible length, once per route
            hard_route = _sequential(m, ir, config, self.start,
                                     lambda s: stage_cost_map(m, ir, s, config, hard_only=True),
                                     self.solve_leg)  # not memoised: its cost maps are freed
            self.budget_left = config.length_budget * hard_route.length_m
        hard = stage_cost_map(m, ir, k, config, hard_only=True)
        shortest = cells_length_m(route_points(
            _plan_stage(m, ir, k, here, config, hard, self.solve_leg, first)), self.grid.resolution)
        return shortest, shortest + max(self.budget_left, 0.0) + 1e-9

    def _options(self, k: int, cmap: StageCostMap, legs: list[GridPath],
                 soft: list[SoftWaypoint], idx: int) -> list[list[SoftWaypoint]]:
        """Alternative sub-goal lists for band ``soft[idx]``: pass along it to each exit; for
        Relative also leave it on the far side of A from B (``relative_off_b_exits``) or go
        round A to that side directly (``pass_around``)."""
        cfg, fields, grid = self.config, self.fields, self.grid
        sw = soft[idx]
        i = sw.constraint
        c = self.ir.constraints[i]
        e1 = first_in(route_points(legs), sw.mask) if cfg.pass_along else None
        if e1 is None:
            return []
        band = sw.mask
        if c.kind is ConstraintKind.FAR:
            d = fields.to_region(c.region)
            usable = self.active[i] & np.isfinite(cmap.cell_cost)
            d_max = float(np.max(d, where=usable & np.isfinite(d), initial=-np.inf))
            band = usable & (d >= d_max - FAR_EXIT_BAND_M)
        goals = [*self.ir.stages[k].waypoints, self.ir.stages[k].target]
        nxt = goals[min(sw.before, len(goals) - 1)]
        exits = exit_cells(band, e1, fields.to_region(nxt), cells=self._nonzero(band))
        side = None
        if c.kind is ConstraintKind.RELATIVE and c.other is not None and (
                cfg.relative_off_b_exits or cfg.pass_around):
            side = far_side_cell(band, fields.to_region(c.other), cells=self._nonzero(band))
            if side is not None and cfg.relative_off_b_exits and side != e1 and side not in exits:
                exits.append(side)
        if len(exits) > 1 or side is not None:
            self._share_goal(cmap, nxt.mask(grid) & np.isfinite(cmap.cell_cost))
        before, after = soft[:idx], soft[idx + 1:]
        # the band itself again first: its leg (to e1) is the memoised one
        out = [[*before, sw, SoftWaypoint(sw.before, cell_mask(grid.shape, e2), i), *after]
               for e2 in exits]
        if side is not None and cfg.pass_around:
            out.append([*before, SoftWaypoint(sw.before, cell_mask(grid.shape, side), i), *after])
            via = self._best_ratio_cell(i, cmap, self._value(i, legs))
            if via is not None:
                out.append([*before, SoftWaypoint(sw.before, cell_mask(grid.shape, via), i),
                            *after])
                out.append([*before, sw, SoftWaypoint(sw.before, cell_mask(grid.shape, via), i),
                            *after])
        if cfg.loops and c.kind is not ConstraintKind.FAR and exits:
            centre = tuple(float(v) for v in c.region.cells.mean(axis=0))
            for cw in (True, False):
                ring = ring_cells(band, (centre[0], centre[1]), e1, clockwise=cw,
                                  cells=self._nonzero(band))
                if ring:
                    out.append([*before, sw, *(SoftWaypoint(sw.before, cell_mask(grid.shape, r), i)
                                               for r in [*ring, exits[0]]), *after])
        if cfg.early_placements:  # the window may end where the route first crosses a target
            out += [[*before, SoftWaypoint(j, sw.mask, i), *after]
                    for j in range(max(sw.before - 3, 0), sw.before)]
        if (cfg.outside_target and c.kind is not ConstraintKind.FAR
                and self._target_first(k, legs, sw.mask)):
            out += self._outside_target(k, cmap, [[*before, sw, *after], *out], i)
        return out

    def _target_first(self, k: int, legs: list[GridPath], band: NDArray[np.bool_]) -> bool:
        """Whether the stage's route enters its target before it reaches ``band`` (or never
        reaches it): then the evaluator's window ends before the band."""
        pts = route_points(legs)
        target = self.ir.stages[k].target.mask(self.grid)
        in_target = np.flatnonzero(target[pts[:, 0], pts[:, 1]])
        in_band = np.flatnonzero(band[pts[:, 0], pts[:, 1]])
        return bool(in_target.size) and (not in_band.size or in_target[0] < in_band[0])

    def _nonzero(self, mask: NDArray[np.bool_]) -> Cells:
        """``np.nonzero(mask)``, once per mask object within a stage."""
        hit = self.cells.get(id(mask))
        if hit is not None and hit[0] is mask:
            return hit[1]
        rr, cc = np.nonzero(mask)
        self.cells[id(mask)] = (mask, (rr, cc))
        return rr, cc

    def _outside_mask(self, mask: NDArray[np.bool_], target: NDArray[np.bool_]
                      ) -> NDArray[np.bool_]:
        """``mask & ~target``, once per mask object within a stage."""
        hit = self.outside_masks.get(id(mask))
        if hit is not None and hit[0] is mask:
            return hit[1]
        out = mask & ~target
        self.outside_masks[id(mask)] = (mask, out)
        return out

    def _best_ratio_cell(self, i: int, cmap: StageCostMap, ratio: float | None
                         ) -> tuple[int, int] | None:
        """:func:`best_ratio_cell` over Relative ``i``'s usable active cells in this stage."""
        c = self.ir.constraints[i]
        if c.other is None:
            return None
        if i not in self.usable:
            self.usable[i] = self.active[i] & np.isfinite(cmap.cell_cost)
        usable = self.usable[i]
        return best_ratio_cell(usable, self.fields.to_region(c.region),
                               self.fields.to_region(c.other), ratio,
                               cells=self._nonzero(usable))

    def _outside_target(self, k: int, cmap: StageCostMap, options: list[list[SoftWaypoint]],
                        i: int) -> list[list[SoftWaypoint]]:
        """``options`` with the legs to preference ``i``'s sub-goals kept out of stage ``k``'s
        target (the evaluator's window ends where the route first enters it), where any of
        its cells remains outside."""
        target = self.ir.stages[k].target.mask(self.grid)
        key = (id(cmap), -1)
        if key not in self.outside:
            cost = cmap.cell_cost.copy()
            cost[target] = np.inf
            self.outside[key] = StageCostMap(cell_cost=cost, length_weight=cmap.length_weight,
                                             avoid=cmap.avoid)
        out_cmap = self.outside[key]
        out: list[list[SoftWaypoint]] = []
        for opt in options:
            new = [SoftWaypoint(w.before, self._outside_mask(w.mask, target), i, out_cmap)
                   if w.constraint == i and self._outside_mask(w.mask, target).any() else w
                   for w in opt]
            if any(w.cmap is out_cmap for w in new):
                out.append(new)
        return out

    def _candidates(self, k: int, here: tuple[int, int], cmap: StageCostMap, first: int,
                    legs: list[GridPath], soft: list[SoftWaypoint]) -> list[GridPath]:
        """Per band, try the alternatives of :meth:`_options` and dropping it; keep the
        candidate with the best official value of its preference that lowers no other active
        preference and stays within the length budget (planning/candidates.py)."""
        res = self.grid.resolution
        shortest, limit = self._stage_limit(k, here, first)
        for sw in list(soft):
            i = sw.constraint
            idx = soft.index(sw)
            rest = soft[:idx] + soft[idx + 1:]
            cur_ok = cells_length_m(route_points(legs), res) <= limit
            options = self._options(k, cmap, legs, soft, idx)
            if not cur_ok or self.config.evaluator_window:
                options.append(rest)
            best_val = self._value(i, legs) if cur_ok else None
            best: tuple[list[GridPath], list[SoftWaypoint]] | None = None
            fallback: tuple[list[GridPath], list[SoftWaypoint]] | None = None
            for opt in options:
                trial = self._plan(k, here, cmap, first, opt)
                if cells_length_m(route_points(trial), res) > limit:
                    continue
                val = self._value(i, trial)
                if opt is rest:
                    fallback = (trial, opt)
                if val is None or (best_val is not None and val <= best_val + 1e-9):
                    continue
                if cur_ok and not self._others_hold(k, i, legs, trial):
                    continue
                best_val, best = val, (trial, opt)
            if best is None and not cur_ok:
                best = fallback if fallback is not None else (
                    self._plan(k, here, cmap, first, rest), rest)
            if best is not None:
                legs, soft[:] = best[0], best[1]
        for _ in range(_VIA_STEPS if self.config.pass_around else 0):
            legs = self._via_step(k, here, cmap, first, legs, soft, limit)
        if self.budget_left is not None:
            self.budget_left -= max(cells_length_m(route_points(legs), res) - shortest, 0.0)
        return legs


    def _via_step(self, k: int, here: tuple[int, int], cmap: StageCostMap, first: int,
                    legs: list[GridPath], soft: list[SoftWaypoint], limit: float
                    ) -> list[GridPath]:
        """A second Dinkelbach step per Relative preference: one more via cell (the largest
        ``d_B - R d_A`` at the ratio ``R`` the chosen candidate reached), before or after its
        sub-goals, kept under the same rules as a candidate."""
        res = self.grid.resolution
        for i in dict.fromkeys(w.constraint for w in soft):
            c = self.ir.constraints[i]
            if c.kind is not ConstraintKind.RELATIVE or c.other is None:
                continue
            val = self._value(i, legs)
            via = self._best_ratio_cell(i, cmap, val)
            if via is None or val is None:
                continue
            mine = [n for n, w in enumerate(soft) if w.constraint == i]
            step = SoftWaypoint(soft[mine[0]].before, cell_mask(self.grid.shape, via), i)
            for opt in ([*soft[:mine[-1] + 1], step, *soft[mine[-1] + 1:]],
                        [*soft[:mine[0]], step, *soft[mine[0]:]]):
                trial = self._plan(k, here, cmap, first, opt)
                now = self._value(i, trial)
                if (now is not None and now > val + 1e-9
                        and cells_length_m(route_points(trial), res) <= limit
                        and self._others_hold(k, i, legs, trial)):
                    legs, soft[:], val = trial, opt, now
                    break
        return legs


def plan_route(m: SemanticMap, ir: RouteIR, start_xy: tuple[float, float], *,
               config: PlannerConfig | None = None, hard_only: bool = False) -> Route:
    """Plan the whole route of ``ir`` on ``m`` from ``start_xy`` (map metres).

    Args:
        m: the semantic map the RouteIR was grounded on.
        ir: the grounded route (validated here).
        start_xy: start position in the map frame; a blocked start moves to the nearest free
            cell within ``config.start_snap_radius_m``.
        config: lambdas and scales; ``None`` reads ``config/planner.yaml``.
        hard_only: the paper's "shortest feasible A*": same hard requirements (stages,
            waypoints, must-avoid), geometric cost only (and no soft waypoints).

    Returns:
        The route with per-point stage indices and per-stage lengths and costs.

    Raises:
        RouteIRError: the RouteIR is structurally invalid or grounded on another grid.
        NoRouteError: a stage is infeasible; the message names the stage and why.
    """
    cfg = config if config is not None else PlannerConfig.from_yaml()
    _check_ir(m, ir)
    distance_fields(m)  # build the shared fields once, before the first stage
    start = _snap_start(m, start_xy, cfg.start_snap_radius_m)

    def solve(k: int, j: int, cmap: StageCostMap, goal: NDArray[np.bool_],
              here: tuple[int, int]) -> GridPath:
        return _astar_leg(k, j, cmap, goal, here, corner_cut=cfg.allow_corner_cutting)

    soft = (_SoftStages(m, ir, cfg, solve, start)
            if (cfg.soft_waypoints or cfg.far_waypoints) and not hard_only else None)
    return _sequential(m, ir, cfg, start,
                       lambda k: stage_cost_map(m, ir, k, cfg, hard_only=hard_only), solve,
                       plan_stage=soft)


class Replanner:
    """Replans a RouteIR from any pose without new searches, for a robot that drifts or restarts.

    Each sub-goal (stage ``k``'s waypoints, then its target) gets one Dijkstra cost-to-go field on
    its stage's cost map, built on first use and kept; a route from a new pose is then read off
    the fields in time proportional to its length. Costs equal :func:`plan_route`'s (both are
    optimal per sub-segment; equal-cost paths may differ) when ``soft_waypoints`` and
    ``far_waypoints`` are off or the route has no Near / Relative / scoped Far preference: the
    replanner follows the RouteIR's own sub-goals and adds no soft waypoints, so a resumed route
    is never sent back to a band.

    Args:
        m: the map; ir: the grounded route; config: ``None`` reads ``config/planner.yaml``;
        hard_only: as in :func:`plan_route`.

    Raises:
        RouteIRError: as :func:`plan_route`.
    """

    def __init__(self, m: SemanticMap, ir: RouteIR, *, config: PlannerConfig | None = None,
                 hard_only: bool = False) -> None:
        self.map = m
        self.ir = ir
        self.config = config if config is not None else PlannerConfig.from_yaml()
        self.hard_only = hard_only
        _check_ir(m, ir)
        self._cmaps: dict[int, StageCostMap] = {}
        self._fields: dict[tuple[int, int], GoalField] = {}

    def _cost_map(self, k: int) -> StageCostMap:
        cmap = self._cmaps.get(k)
        if cmap is None:
            cmap = stage_cost_map(self.map, self.ir, k, self.config, hard_only=self.hard_only)
            self._cmaps[k] = cmap
        return cmap

    def _solve(self, k: int, j: int, cmap: StageCostMap, goal: NDArray[np.bool_],
               here: tuple[int, int]) -> GridPath:
        gf = self._fields.get((k, j))
        if gf is None:
            gf = goal_field(cmap.cell_cost, goal, length_weight=cmap.length_weight,
                            allow_corner_cutting=self.config.allow_corner_cutting)
            self._fields[(k, j)] = gf
        if not np.isfinite(cmap.cell_cost[here]):
            msg = f"start cell {here} is blocked in this stage's cost map"
            raise NoPathError(msg, reason="start_blocked")
        return gf.path_from(here)

    def route_from(self, start_xy: tuple[float, float], *, stage: int = 0,
                   waypoint: int = 0) -> Route:
        """The route from ``start_xy``, resuming at ``stage`` (0-based) and its sub-goal
        ``waypoint`` (0 = its first waypoint, ``len(waypoints)`` = its target).

        Earlier stages appear with length and cost 0 and no points.

        Raises:
            NoRouteError: a stage is infeasible from here, or ``stage``/``waypoint`` is out of range.
        """
        if not 0 <= stage < len(self.ir.stages):
            msg = f"stage {stage} is out of range; the route has stages 0..{len(self.ir.stages) - 1}"
            raise NoRouteError(msg, stage=stage, reason="bad_input")
        n_sub = len(self.ir.stages[stage].waypoints) + 1
        if not 0 <= waypoint < n_sub:
            msg = (f"sub-goal {waypoint} is out of range for stage {stage}; it has sub-goals "
                   f"0..{n_sub - 1} (the last is the target)")
            raise NoRouteError(msg, stage=stage, reason="bad_input")
        start = _snap_start(self.map, start_xy, self.config.start_snap_radius_m)
        return _sequential(self.map, self.ir, self.config, start, self._cost_map, self._solve,
                           first_stage=stage, first_subgoal=waypoint)
