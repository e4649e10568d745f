"""Per-stage cost maps of the scope-aware planner (paper 000, Sec. IV-D).

For stage ``k`` the cost of a step ``p_t -> p_{t+1}`` is

    c_k(p_t, p_{t+1}) = c_geom(p_t, p_{t+1})
                        + sum_i lambda_i * a_i(k, p_{t+1}) * J_i(p_{t+1})
                        + lambda_clear * J_clear(p_{t+1}),
    a_i(k, p) = 1[Q_i^tmp empty or k in Q_i^tmp] * 1[Q_i^spa empty or p in Q_i^spa].

Here ``c_geom`` is the step length in metres (``resolution * 1`` or ``resolution * sqrt(2)``) and
the per-cell part is charged per cell entered, times ``resolution`` so it reads as metres of
extra length: a cell with ``sum lambda J = 8`` costs like 8 extra cell widths. Every ``J`` is
dimensionless in ``[0, 1]`` with a distance scale fixed across scenes (``config/planner.yaml``).
Must-avoid regions in temporal (and spatial) scope are blocked (``np.inf``). ``hard_only``
drops every soft term: the paper's "shortest feasible A*".

The J shapes are ours (the paper names d_R, d_close/d_far and d_obs but gives no formulas); they
are chosen for the benchmark's *mean*-distance metrics (paper III-C2), where a per-cell cost that
also charges the reference's own surroundings makes every detour towards it a loss:

- J_near and the A part of J_relative are measured from the smallest distance reachable in the
  constraint's active region (``d_min``), so the closest reachable band costs nothing extra;
- inside the active region of a Near, Far or Relative preference (its spatial scope during its
  temporal scope) the *default* clearance term is waived: the spoken preference decides where
  the route runs there, and an explicit Clearance constraint still adds its own term.

Distance fields (metres, ``cv2.distanceTransform`` with ``DIST_MASK_PRECISE``) are cached per map
and per region, so constraints and stages that share a reference share its field.
"""

from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from map2route.routeir.model import Constraint, ConstraintKind, Region, RouteIR

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.planning.config import PlannerConfig
    from map2route.semantic_map.grid import GridSpec
    from map2route.semantic_map.model import SemanticMap


# --- the cost terms J ------------------------------------------------------------------------
def j_near(d_ref_m: NDArray[np.float64], scale_m: float,
           d_min_m: float = 0.0) -> NDArray[np.float64]:
    """J_near: distance to the reference beyond the closest reachable one, saturating (IV-D).

    ``min(1, max(0, d_R - d_min) / D)`` with ``D`` = near scale and ``d_min`` the smallest
    ``d_R`` over the active region's traversable cells (0 when the reference can be touched):
    0 on the closest band the route can reach, rising linearly to 1 at ``D`` beyond it. An object
    on top of furniture (a vase on a dresser) is never reachable closer than ``d_min``; measuring
    from there keeps the pull as strong as for a free-standing object.
    """
    return np.minimum(1.0, np.maximum(0.0, d_ref_m - d_min_m) / scale_m)


def j_far(d_ref_m: NDArray[np.float64], scale_m: float) -> NDArray[np.float64]:
    """J_far: decreasing with distance to the reference, ``max(0, 1 - d_R / D)`` (paper IV-D).

    1 on the reference, 0 from ``D = far scale`` on: the route is pushed out to at least ``D``.
    """
    return np.maximum(0.0, 1.0 - d_ref_m / scale_m)


def j_relative(d_a_m: NDArray[np.float64], d_b_m: NDArray[np.float64], scale_m: float,
               d_a_min_m: float = 0.0) -> NDArray[np.float64]:
    """J_relative: be near A, and closer to A than to B (paper IV-D's d_close / d_far).

    ``1/2 * J_near(d_A; D, d_A_min) + 1/2 * clip(1/2 + (d_A - d_B) / (2 D), 0, 1)`` with
    ``D`` = relative scale. The metric is ``D_B / (D_A + eps)`` (III-C2), a ratio of means, so
    it grows fastest by shrinking ``D_A``: the first half pulls towards A exactly like Near; the
    second half is 1/2 where ``d_A = d_B``, 0 once A is closer by ``D``, 1 once B is.
    """
    side = np.clip(0.5 + (d_a_m - d_b_m) / (2.0 * scale_m), 0.0, 1.0)
    return 0.5 * j_near(d_a_m, scale_m, d_a_min_m) + 0.5 * side


def j_clear(d_obs_m: NDArray[np.float64], scale_m: float) -> NDArray[np.float64]:
    """J_clear: obstacle proximity, ``max(0, 1 - d_obs / D)`` (paper IV-D).

    ``d_obs`` is the distance from a cell centre to the nearest non-traversable cell centre: 1 next
    to an obstacle is ``1 - resolution / D``; 0 from ``D = clearance scale`` on.
    """
    return np.maximum(0.0, 1.0 - d_obs_m / scale_m)


def j_path_shape(d_path_m: NDArray[np.float64], scale_m: float) -> NDArray[np.float64]:
    """J_path_shape: normalised distance to the shape's reference path, ``min(1, d_P / D)``.

    The order of a Path-Shape is enforced by the stage's ordered waypoints (paper IV-A); this
    term only keeps the route near the reference path between waypoints.
    """
    return j_near(d_path_m, scale_m)


# --- distance fields, cached per map ---------------------------------------------------------
def distance_to(mask: NDArray[np.bool_], grid: GridSpec) -> NDArray[np.float64]:
    """Euclidean distance (metres) from every cell centre to the nearest cell of ``mask``.

    An empty mask gives ``np.inf`` everywhere.
    """
    if not mask.any():
        return np.full(mask.shape, np.inf)
    src = np.where(mask, 0, 1).astype(np.uint8)
    d = cv2.distanceTransform(src, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    return np.asarray(grid.cells_to_meters(d.astype(np.float64)))


class DistanceFields:
    """The distance fields of one map: to obstacles, and to any region (memoised by its cells)."""

    def __init__(self, m: SemanticMap) -> None:
        self.grid: GridSpec = m.grid
        self.traversable: NDArray[np.bool_] = np.ascontiguousarray(m.traversable, dtype=bool)
        self.obstacle_m: NDArray[np.float64] = distance_to(~self.traversable, m.grid)
        self._by_region: dict[bytes, NDArray[np.float64]] = {}
        self._clear: dict[tuple[float, float], NDArray[np.float64]] = {}

    def to_region(self, region: Region) -> NDArray[np.float64]:
        """Distance (metres) to ``region``'s cells, computed once per distinct cell set."""
        key = hashlib.blake2b(np.ascontiguousarray(region.cells).tobytes(),
                              digest_size=16).digest()
        field = self._by_region.get(key)
        if field is None:
            field = distance_to(region.mask(self.grid), self.grid)
            if len(self._by_region) > 256:
                self._by_region.clear()
            self._by_region[key] = field
        return field

    def clearance_cost(self, lam: float, scale_m: float) -> NDArray[np.float64]:
        """``lam * J_clear`` over the whole map, computed once per ``(lam, scale)``."""
        key = (lam, scale_m)
        out = self._clear.get(key)
        if out is None:
            out = lam * j_clear(self.obstacle_m, scale_m)
            self._clear[key] = out
        return out


_FIELDS: weakref.WeakKeyDictionary[SemanticMap, DistanceFields] = weakref.WeakKeyDictionary()


def distance_fields(m: SemanticMap) -> DistanceFields:
    """The cached :class:`DistanceFields` of ``m`` (built on first use, dropped with the map)."""
    fields = _FIELDS.get(m)
    if fields is None:
        fields = DistanceFields(m)
        _FIELDS[m] = fields
    return fields


def forget_distance_fields(m: SemanticMap) -> None:
    """Drop the cached fields of ``m`` (after editing its layers, or to time a cold start)."""
    _FIELDS.pop(m, None)


# --- per-stage cost maps ---------------------------------------------------------------------
def in_temporal_scope(c: Constraint, stage: int) -> bool:
    """The paper's ``1[Q^tmp empty or k in Q^tmp]``."""
    return c.temporal_scope is None or stage in c.temporal_scope


def avoid_mask(c: Constraint, grid: GridSpec) -> NDArray[np.bool_]:
    """Cells a must-avoid constraint forbids: its region, within its spatial scope if any."""
    mask = c.region.mask(grid)
    if c.spatial_scope is not None:
        mask &= c.spatial_scope.mask(grid)
    return mask


def reachable_min(d_m: NDArray[np.float64], active: NDArray[np.bool_]) -> float:
    """``d_min``: the smallest finite distance over the ``active`` cells (0 if there is none)."""
    low = float(np.min(d_m, where=active, initial=np.inf))  # no copy of the masked cells
    return low if np.isfinite(low) else 0.0


#: Preferences whose active region waives the default clearance term.
_WAIVES_CLEARANCE = frozenset({ConstraintKind.NEAR, ConstraintKind.FAR, ConstraintKind.RELATIVE})


def soft_term(c: Constraint, fields: DistanceFields, config: PlannerConfig,
              active: NDArray[np.bool_]) -> NDArray[np.float64] | None:
    """``lambda_i * weight_i * J_i`` over the whole map, before the spatial scope is applied.

    Args:
        c: a soft constraint.
        fields: the map's distance fields.
        config: lambdas and scales.
        active: the traversable cells of ``c``'s spatial scope (all traversable cells if it has
            none): where ``d_min`` of J_near / J_relative is taken.

    Returns:
        The term, or ``None`` for constraints without a per-cell term (must-avoid).
    """
    kind = c.kind
    if kind is ConstraintKind.NEAR:
        d = fields.to_region(c.region)
        return config.lambda_near * c.weight * j_near(d, config.near_scale_m,
                                                      reachable_min(d, active))
    if kind is ConstraintKind.FAR:
        return config.lambda_far * c.weight * j_far(fields.to_region(c.region), config.far_scale_m)
    if kind is ConstraintKind.RELATIVE:
        if c.other is None:
            return None
        d_a = fields.to_region(c.region)
        return config.lambda_relative * c.weight * j_relative(
            d_a, fields.to_region(c.other), config.relative_scale_m, reachable_min(d_a, active))
    if kind is ConstraintKind.PATH_SHAPE:
        return config.lambda_path_shape * c.weight * j_path_shape(fields.to_region(c.region),
                                                                  config.path_shape_scale_m)
    if kind is ConstraintKind.CLEARANCE:
        # An explicit Clearance constraint adds its weight on top of the global term.
        return fields.clearance_cost(config.lambda_clear, config.clear_scale_m) * c.weight
    return None


@dataclass(frozen=True, eq=False)
class StageCostMap:
    """The cost map of one stage.

    Attributes:
        cell_cost: float64 ``(rows, cols)`` cost of entering each cell in metres-equivalent
            (``np.inf``: not traversable or in an active must-avoid).
        length_weight: the grid resolution: a straight step costs ``resolution`` metres.
        avoid: the active must-avoid constraints of this stage with their masks.
    """

    cell_cost: NDArray[np.float64]
    length_weight: float
    avoid: tuple[tuple[Constraint, NDArray[np.bool_]], ...]


def stage_cost_map(m: SemanticMap, ir: RouteIR, stage: int, config: PlannerConfig, *,
                   hard_only: bool = False, skip_avoid: frozenset[int] = frozenset()
                   ) -> StageCostMap:
    """Build ``c_k`` for stage ``stage`` (0-based); see the module docstring.

    Args:
        m: the map (traversability and distance fields).
        ir: the grounded route; its constraints supply the terms and scopes.
        stage: the stage index k.
        config: lambdas and distance scales.
        hard_only: drop every soft term (shortest feasible route under the hard requirements).
        skip_avoid: indices into ``ir.constraints`` of must-avoids to leave out (diagnosis).

    Returns:
        The stage's cost map.
    """
    grid = m.grid
    fields = distance_fields(m)
    avoid: list[tuple[Constraint, NDArray[np.bool_]]] = []
    blocked = ~fields.traversable
    for i, c in enumerate(ir.constraints):
        if c.kind is ConstraintKind.MUST_AVOID and i not in skip_avoid and in_temporal_scope(c, stage):
            mask = avoid_mask(c, grid)
            avoid.append((c, mask))
            blocked = blocked | mask
    if hard_only:
        soft = np.zeros(grid.shape, dtype=np.float64)
    else:
        soft = np.zeros(grid.shape, dtype=np.float64)
        waived = np.zeros(grid.shape, dtype=bool)  # where the default clearance term is off
        for c in ir.constraints:
            if c.kind.is_hard or not in_temporal_scope(c, stage):
                continue
            scope = None if c.spatial_scope is None else c.spatial_scope.mask(grid)
            active = fields.traversable if scope is None else scope & fields.traversable
            term = soft_term(c, fields, config, active)
            if term is None:
                continue
            if c.kind in _WAIVES_CLEARANCE:
                waived |= active
            if scope is None:
                soft += term
            else:
                soft[scope] += term[scope]
        clear = fields.clearance_cost(config.lambda_clear, config.clear_scale_m)
        np.add(soft, clear, out=soft, where=~waived)
    cell_cost = grid.cells_to_meters(soft)
    cell_cost[blocked] = np.inf
    return StageCostMap(cell_cost=cell_cost, length_weight=grid.resolution, avoid=tuple(avoid))
