"""Scope-aware sequential route planning (paper 000, Sec. IV-D).

Each stage ``S_k`` is planned from where the previous one ended (the start pose first), through
its ordered waypoints ``M_{k,1}, ..., M_{k,n}`` to its target region, on that stage's cost map:
``tau_{k,j} = A*(M_{k,j-1}, M_{k,j})``. A region is a set of cells; each sub-segment reaches its
cheapest cell. If any stage is infeasible, planning stops with a :class:`NoRouteError` naming the
stage and the cause, found by re-planning without each active must-avoid region.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from map2route.planning.config import PlannerConfig
from map2route.planning.costmap import StageCostMap, distance_fields, stage_cost_map
from map2route.planning.errors import NoPathError, NoRouteError
from map2route.planning.grid_search import SQRT2, GridPath, search
from map2route.routeir.model import ConstraintKind, Region, RouteIR, Stage

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


def _cells_length_m(cells: NDArray[np.int32], resolution: float) -> float:
    if cells.shape[0] < 2:
        return 0.0
    step = np.abs(np.diff(cells.astype(np.int64), axis=0)).sum(axis=1)
    return float(np.where(step == 2, SQRT2, 1.0).sum() * resolution)


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
    r = int(np.ceil(radius_m / grid.resolution))
    r0, r1 = max(row - r, 0), min(row + r + 1, grid.rows)
    c0, c1 = max(col - r, 0), min(col + r + 1, grid.cols)
    rr, cc = np.nonzero(m.traversable[r0:r1, c0:c1])
    if rr.size:
        d2 = (rr + r0 - row) ** 2 + (cc + c0 - col) ** 2
        best = int(np.argmin(d2))
        if d2[best] * grid.resolution**2 <= radius_m**2 + 1e-12:
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


def _plan_stage(m: SemanticMap, ir: RouteIR, k: int, stage: Stage, start: tuple[int, int],
                config: PlannerConfig, hard_only: bool) -> list[GridPath]:
    cmap = stage_cost_map(m, ir, k, config, hard_only=hard_only)
    name = _stage_name(ir, k)
    legs: list[GridPath] = []
    here = start
    goals = [(wp, f"waypoint {j + 1} of {len(stage.waypoints)}")
             for j, wp in enumerate(stage.waypoints)] + [(stage.target, "the target")]
    for region, what in goals:
        goal = _goal_mask(region, cmap, m, what, name, k)
        try:
            path = search(cmap.cell_cost, here, goal, length_weight=cmap.length_weight,
                          allow_corner_cutting=config.allow_corner_cutting)
        except NoPathError as err:
            raise _diagnose(m, ir, k, config, here, goal, f"{what} {region.label!r}", name,
                            err) from err
        legs.append(path)
        here = path.goal
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
            waypoints, must-avoid), geometric cost only.

    Returns:
        The route with per-point stage indices and per-stage lengths and costs.

    Raises:
        RouteIRError: the RouteIR is structurally invalid or grounded on another grid.
        NoRouteError: a stage is infeasible; the message names the stage and why.
    """
    from map2route.routeir.errors import RouteIRError

    cfg = config if config is not None else PlannerConfig.from_yaml()
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
    distance_fields(m)  # build the shared fields once, before the first stage
    here = _snap_start(m, start_xy, cfg.start_snap_radius_m)
    cells_parts: list[NDArray[np.int32]] = [np.array([here], dtype=np.int32)]
    index_parts: list[NDArray[np.int32]] = [np.zeros(1, dtype=np.int32)]
    lengths: list[float] = []
    costs: list[float] = []
    res = m.grid.resolution
    for k, stage in enumerate(ir.stages):
        legs = _plan_stage(m, ir, k, stage, here, cfg, hard_only)
        stage_cells = [leg.cells[1:] for leg in legs]
        new = np.concatenate(stage_cells) if stage_cells else np.zeros((0, 2), np.int32)
        full = np.concatenate([np.array([here], dtype=np.int32), new])
        lengths.append(_cells_length_m(full, res))
        costs.append(float(sum(leg.cost for leg in legs)))
        cells_parts.append(new.astype(np.int32))
        index_parts.append(np.full(new.shape[0], k, dtype=np.int32))
        here = legs[-1].goal
    cells = np.concatenate(cells_parts).astype(np.int32)
    return Route(points=m.grid.cells_to_worlds(cells), cells=cells,
                 stage_index=np.concatenate(index_parts).astype(np.int32),
                 stage_lengths_m=tuple(lengths), stage_costs=tuple(costs),
                 length_m=float(sum(lengths)))
