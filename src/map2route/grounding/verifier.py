"""Verify a grounded RouteIR against the map (paper 000, IV-C) and report structured issues.

Checks, each giving :class:`~map2route.grounding.errors.GroundingIssue` values a repair step
reads: structure (``validation_problems``), reachable targets and waypoints, constraint
signatures (Relative has two references, a must-avoid does not swallow a target or the start),
scope consistency, and map-dependent relations recomputed through a fresh
:class:`~map2route.grounding.api.GroundingAPI` from the program's selection trace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.grounding.errors import GroundingIssue, ProgramIssue
from map2route.routeir.model import ConstraintKind, validation_problems

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

_RANKINGS = ("kth_nearest", "kth_farthest", "kth_largest", "kth_smallest")


def verify(m: SemanticMap, ir: RouteIR, trace: list[dict[str, Any]],
           start_xy: tuple[float, float] | None = None) -> list[GroundingIssue]:
    """Every problem of ``ir`` on ``m``; an empty list means it passed.

    Args:
        m: the map the RouteIR was grounded on.
        ir: the RouteIR a program produced.
        trace: the program's selection trace (:attr:`GroundingAPI.trace`).
        start_xy: the start point, to check it is not inside a must-avoid region.
    """
    issues = [GroundingIssue("invalid_routeir", p) for p in validation_problems(ir)]
    if ir.grid != m.grid:
        issues.append(GroundingIssue("wrong_grid", "the RouteIR's grid differs from the map's"))
        return issues
    free = m.traversable
    avoid = np.zeros(m.grid.shape, dtype=bool)
    for c in ir.must_avoid:
        avoid |= c.region.mask(m.grid)
    for i, st in enumerate(ir.stages):
        tgt = st.target.mask(m.grid)
        name = st.label or st.target.label
        if tgt.any() and not (tgt & free).any():
            issues.append(GroundingIssue("unreachable_target", f"stage {i} ({name!r}) has no free "
                                         "cell to stop on"))
        elif tgt.any() and not (tgt & free & ~avoid).any():
            issues.append(GroundingIssue("avoid_blocks_target", f"stage {i} ({name!r}) lies "
                                         "entirely inside a must-avoid region"))
        for j, wp in enumerate(st.waypoints):
            if wp.size and not (wp.mask(m.grid) & free).any():
                issues.append(GroundingIssue("unreachable_waypoint", f"stage {i} waypoint {j} "
                                             f"({wp.label!r}) has no free cell"))
    for k, c in enumerate(ir.constraints):
        name = f"constraint {k} ({c.kind.value} {c.label!r})"
        if c.kind is not ConstraintKind.RELATIVE and c.other is not None:
            issues.append(GroundingIssue("bad_constraint", f"{name} has a second reference but "
                                         "only relative constraints take one"))
        if c.kind is ConstraintKind.RELATIVE and c.other is not None and c.region.size and \
                np.array_equal(c.region.cells, c.other.cells):
            issues.append(GroundingIssue("bad_constraint", f"{name} compares a reference with "
                                         "itself"))
        if c.spatial_scope is not None and c.spatial_scope.size and \
                not (c.spatial_scope.mask(m.grid) & free).any():
            issues.append(GroundingIssue("bad_scope", f"{name} is scoped to a region with no "
                                         "free cell"))
    if start_xy is not None and avoid.any():
        r, col = m.grid.world_to_cell(*start_xy)
        if m.grid.contains_cell(r, col) and avoid[r, col]:
            issues.append(GroundingIssue("start_in_avoid", "the start lies inside a must-avoid "
                                         "region; the route could never leave it"))
    issues.extend(recheck_trace(m, trace, start_xy))
    return issues


def recheck_trace(m: SemanticMap, trace: list[dict[str, Any]],
                  start_xy: tuple[float, float] | None = None) -> list[GroundingIssue]:
    """Recompute every ranking and definite selection in ``trace`` with a fresh API."""
    from map2route.grounding.api import GroundingAPI

    api = GroundingAPI(m, start_xy, record=False)
    issues: list[GroundingIssue] = []
    for rec in trace:
        op = rec.get("op")
        try:
            if op == "unique":
                cands = rec.get("candidates", [])
                if len(cands) != 1:
                    labels = [api.entity(c).label for c in cands]
                    issues.append(GroundingIssue(
                        "ambiguous_reference" if cands else "no_referent",
                        f"{rec.get('description')!r} matched {len(cands)} entities", candidates=tuple(labels)))
            elif op in _RANKINGS:
                items = [api.entity(r) for r in rec["items"]]
                fn = getattr(api, op)
                args: list[Any] = [items]
                if op in ("kth_nearest", "kth_farthest"):
                    args.append(api.entity(rec["ref"]))
                again = fn(*args, k=int(rec["k"]))
                if again.ref != rec["result"]:
                    issues.append(GroundingIssue(
                        "relation_mismatch", f"{op} over {len(items)} candidates gave "
                        f"{rec['result']} in the program but {again.ref} on recomputation"))
        except ProgramIssue as err:
            issues.append(err.issue)
        except (KeyError, TypeError, ValueError) as err:
            issues.append(GroundingIssue("bad_trace", f"trace record {rec!r} is malformed: {err}"))
    return issues
