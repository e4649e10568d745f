"""Verify a grounded RouteIR against the map (paper 000, IV-C) and report structured issues.

Checks, each giving :class:`~map2route.grounding.errors.GroundingIssue` values a repair step
reads: structure (``validation_problems``), reachable targets and waypoints, constraint
signatures (Relative has two references, a must-avoid does not swallow a target or the start),
scope consistency, and map-dependent relations recomputed through a fresh
:class:`~map2route.grounding.api.GroundingAPI` from the program's selection trace.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.grounding.api import GroundingAPI
from map2route.grounding.errors import GroundingError, GroundingIssue, ProgramIssue
from map2route.routeir.model import ConstraintKind, validation_problems

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

_RANKINGS = ("kth_nearest", "kth_farthest", "kth_largest", "kth_smallest", "kth_along_route")
_WHERE = "under 'limits:' in config/grounding.yaml"


@dataclass(frozen=True)
class VerifierLimits:
    """How big a grounded route may be (``limits:`` in ``config/grounding.yaml``).

    A program, whoever wrote it, is refused when it goes over one of these; each refusal names
    the limit and where to change it. Route length is estimated as the straight-line tour from
    the start through every waypoint and stage target centre, and compared with the map's
    diagonal (a tour of 20 diagonals is already a walk through every room several times).

    Attributes:
        max_stages: stages (legs) in one route.
        max_constraints: constraints (must-avoid and soft) in one route.
        max_waypoints: waypoints over all stages together.
        max_label_chars: characters of any one label.
        max_program_chars: characters of one grounding program.
        max_route_diagonals: estimated route length, in map diagonals.
    """

    max_stages: int = 50
    max_constraints: int = 100
    max_waypoints: int = 400
    max_label_chars: int = 500
    max_program_chars: int = 20_000
    max_route_diagonals: float = 20.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                msg = f"limits.{f.name} must be a positive number, got {value!r} ({_WHERE})"
                raise GroundingError(msg)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> VerifierLimits:
        """Build from the ``limits:`` mapping; unknown keys are an error naming the known ones.

        Raises:
            GroundingError: unknown key or a value that is not a positive number.
        """
        if not isinstance(data, dict):
            raise GroundingError(f"'limits:' must be a mapping ({_WHERE})")
        known = {f.name: f.type for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            msg = f"unknown limits {unknown} {_WHERE}; known: {sorted(known)}"
            raise GroundingError(msg)
        values: dict[str, Any] = {}
        for key, value in data.items():
            try:
                values[key] = float(value) if key == "max_route_diagonals" else int(value)
            except (TypeError, ValueError):
                msg = f"limits.{key} must be a number, got {value!r} ({_WHERE})"
                raise GroundingError(msg) from None
        return cls(**values)


def _over(name: str, value: float, limit: float, what: str) -> GroundingIssue:
    return GroundingIssue("limit_exceeded", f"{what}: {value:g}, over limits.{name}={limit:g} "
                          f"(raise it {_WHERE} if this is intended)")


def program_limit_issues(program: str, limits: VerifierLimits | None = None) -> list[GroundingIssue]:
    """A program over ``max_program_chars`` (checked before it runs)."""
    lim = limits or VerifierLimits()
    if len(program) > lim.max_program_chars:
        return [_over("max_program_chars", len(program), lim.max_program_chars,
                      "the program is too long (characters)")]
    return []


def limit_issues(m: SemanticMap, ir: RouteIR, limits: VerifierLimits | None = None,
                 start_xy: tuple[float, float] | None = None) -> list[GroundingIssue]:
    """Every limit ``ir`` goes over, plus non-finite numbers in it (weights, constructions)."""
    lim = limits or VerifierLimits()
    issues: list[GroundingIssue] = []
    n_wp = sum(len(st.waypoints) for st in ir.stages)
    for name, value, what in (("max_stages", len(ir.stages), "too many stages"),
                              ("max_constraints", len(ir.constraints), "too many constraints"),
                              ("max_waypoints", n_wp, "too many waypoints over all stages")):
        if value > getattr(lim, name):
            issues.append(_over(name, value, getattr(lim, name), what))
    labelled: list[tuple[str, str]] = []
    for i, st in enumerate(ir.stages):
        labelled += [(f"stage {i}", st.label), (f"stage {i} target", st.target.label)]
        labelled += [(f"stage {i} waypoint {j}", w.label) for j, w in enumerate(st.waypoints)]
    for k, c in enumerate(ir.constraints):
        labelled += [(f"constraint {k}", c.label), (f"constraint {k} region", c.region.label)]
        if not math.isfinite(c.weight):
            issues.append(GroundingIssue("bad_number", f"constraint {k} has weight {c.weight}; "
                                         "weights must be finite numbers"))
        for part, region in (("region", c.region), ("other", c.other),
                             ("spatial scope", c.spatial_scope)):
            if region is not None and _has_non_finite(region.construction):
                issues.append(GroundingIssue("bad_number", f"constraint {k} {part} was built "
                                             "with a NaN or infinite number (a radius or "
                                             "distance); use finite metres"))
    long_labels = [(where, len(text)) for where, text in labelled
                   if len(text) > lim.max_label_chars]
    if long_labels:
        where, n = long_labels[0]
        more = f" (and {len(long_labels) - 1} more)" if len(long_labels) > 1 else ""
        issues.append(_over("max_label_chars", n, lim.max_label_chars,
                            f"the {where} label is too long (characters){more}"))
    if ir.grid == m.grid and ir.stages:
        tour = _tour_length_m(m, ir, start_xy)
        diag = m.grid.cells_to_meters(math.hypot(m.grid.rows, m.grid.cols))
        if diag > 0 and tour / diag > lim.max_route_diagonals:
            issues.append(_over("max_route_diagonals", round(tour / diag, 1),
                                lim.max_route_diagonals,
                                f"the route would be at least about {tour:.0f} m long on a map "
                                f"{diag:.0f} m across (map diagonals)"))
    return issues


def _has_non_finite(value: Any, depth: int = 0) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if depth > 8:
        return False
    if isinstance(value, dict):
        return any(_has_non_finite(v, depth + 1) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_non_finite(v, depth + 1) for v in value[:1000])
    return False


def _tour_length_m(m: SemanticMap, ir: RouteIR, start_xy: tuple[float, float] | None) -> float:
    """Straight-line length from the start through each waypoint and target centre, in metres."""
    points: list[tuple[float, float]] = []
    if start_xy is not None and all(math.isfinite(v) for v in start_xy):
        r, c = m.grid.world_to_cell(*start_xy)
        points.append((float(r), float(c)))
    for st in ir.stages:
        for region in (*st.waypoints, st.target):
            if region.size:
                centre = region.cells.mean(axis=0)
                points.append((float(centre[0]), float(centre[1])))
    legs = zip(points[:-1], points[1:], strict=True)
    return float(m.grid.cells_to_meters(sum(math.hypot(a[0] - b[0], a[1] - b[1]) for a, b in legs)))


def verify(m: SemanticMap, ir: RouteIR, trace: list[dict[str, Any]],
           start_xy: tuple[float, float] | None = None, *,
           limits: VerifierLimits | None = None) -> list[GroundingIssue]:
    """Every problem of ``ir`` on ``m``; an empty list means it passed.

    Args:
        m: the map the RouteIR was grounded on.
        ir: the RouteIR a program produced.
        trace: the program's selection trace (:attr:`GroundingAPI.trace`).
        start_xy: the start point, to check it is not inside a must-avoid region.
        limits: size limits (:class:`VerifierLimits`; the defaults when ``None``). When the
            RouteIR goes over one, only the limit issues are returned: checking a 5,000-stage
            route cell by cell is the cost the limits exist to avoid.
    """
    over = limit_issues(m, ir, limits, start_xy)
    if over:
        return over
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
                if op in ("kth_nearest", "kth_farthest", "kth_along_route"):
                    args.append(api.entity(rec["ref"]))
                kw: dict[str, Any] = {"k": int(rec["k"])}
                if op in ("kth_nearest", "kth_farthest") and "metric" in rec:
                    kw["metric"] = str(rec["metric"])
                if op == "kth_along_route" and "toward" in rec:
                    kw["toward"] = api.entity(rec["toward"])
                again = fn(*args, **kw)
                if again.ref != rec["result"]:
                    issues.append(GroundingIssue(
                        "relation_mismatch", f"{op} over {len(items)} candidates gave "
                        f"{rec['result']} in the program but {again.ref} on recomputation"))
        except ProgramIssue as err:
            issues.append(err.issue)
        except (KeyError, TypeError, ValueError) as err:
            issues.append(GroundingIssue("bad_trace", f"trace record {rec!r} is malformed: {err}"))
    return issues
