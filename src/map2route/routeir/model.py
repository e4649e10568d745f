"""RouteIR: the one intermediate representation between grounding and planning (paper 000, IV-B).

``RouteIR = (S, C)`` with ordered stages ``S_1..S_J`` and constraints ``C_1..C_L``.

- A :class:`Stage` is one leg of the route: its target region (an object's goal region, a
  room, or a constructed region such as "between the sofa and the TV") and optional ordered
  waypoints (Path-Shape: circle a table, follow the walls). The stages *are* the ordered
  must-pass requirements; the last stage's target is the destination.
- A :class:`Constraint` is a must-avoid region (hard) or one of the five soft preferences
  Near, Far, Relative, Path-Shape, Clearance. Each may carry a spatial scope (a region where
  it is active) and a temporal scope (the stage indices during which it is active); ``None``
  means everywhere / always (Clearance is global unless scoped).
- Every region is resolved to grid cells against one map and records how it was built, so a
  RouteIR is plannable without language and explainable to a person.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.routeir.errors import RouteIRError
from map2route.semantic_map.grid import GridSpec, grid_problems

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.grid import GridSpec
    from map2route.semantic_map.model import SemanticMap

SCHEMA_VERSION = "map2route.routeir/1"


@dataclass(frozen=True, eq=False)
class Region:
    """A set of grid cells with a record of how it was constructed.

    Attributes:
        label: what a person would call it ("the bedroom", "near the sofa").
        cells: int32 ``(N, 2)`` array of unique ``(row, col)``, sorted row-major.
        construction: how it was built, e.g. ``{"op": "goal_region", "object": "Sofa|2|1"}``.
        object_ids: ids of the map objects it refers to (for Near/Far/Relative references).
    """

    label: str
    cells: NDArray[np.int32]
    construction: dict[str, Any] = field(default_factory=dict)
    object_ids: tuple[str, ...] = ()

    @classmethod
    def from_mask(cls, label: str, mask: NDArray[np.bool_], *,
                  construction: dict[str, Any] | None = None,
                  object_ids: tuple[str, ...] = ()) -> Region:
        rows, cols = np.nonzero(mask)
        cells = np.stack([rows, cols], axis=1).astype(np.int32)
        return cls(label=label, cells=cells, construction=dict(construction or {}),
                   object_ids=tuple(object_ids))

    @property
    def size(self) -> int:
        return int(self.cells.shape[0])

    @property
    def is_empty(self) -> bool:
        return self.size == 0

    def mask(self, grid: GridSpec) -> NDArray[np.bool_]:
        """The region as a bool ``(rows, cols)`` mask on ``grid``."""
        out = np.zeros(grid.shape, dtype=bool)
        if self.size:
            r, c = self.cells[:, 0], self.cells[:, 1]
            ok = (r >= 0) & (r < grid.rows) & (c >= 0) & (c < grid.cols)
            out[r[ok], c[ok]] = True
        return out

    def to_json(self, grid: GridSpec) -> dict[str, Any]:
        """Cells as run-lengths ``[start, length]`` over row-major flat indices of ``grid``."""
        flat = np.sort(self.cells[:, 0].astype(np.int64) * grid.cols + self.cells[:, 1])
        runs: list[list[int]] = []
        if flat.size:
            breaks = np.nonzero(np.diff(flat) != 1)[0] + 1
            for seg in np.split(flat, breaks):
                runs.append([int(seg[0]), int(seg.size)])
        return {"label": self.label, "construction": self.construction,
                "object_ids": list(self.object_ids), "runs": runs}

    @classmethod
    def from_json(cls, data: dict[str, Any], grid: GridSpec) -> Region:
        """Read a region; its runs must lie on ``grid`` (checked before anything is allocated).

        Raises:
            RouteIRError: malformed, or a run outside the grid (named with its index).
        """
        problems = run_problems(data.get("runs", []) if isinstance(data, dict) else None, grid)
        if problems:
            label = data.get("label") if isinstance(data, dict) else None
            raise RouteIRError(f"region {label!r}: " + "; ".join(problems))
        try:
            parts = [np.arange(s, s + n, dtype=np.int64) for s, n in data.get("runs", [])]
            flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
            cells = np.stack([flat // grid.cols, flat % grid.cols], axis=1).astype(np.int32)
            return cls(label=str(data["label"]), cells=cells,
                       construction=dict(data.get("construction", {})),
                       object_ids=tuple(data.get("object_ids", ())))
        except (KeyError, TypeError, ValueError) as err:
            msg = f"malformed region in RouteIR JSON ({type(err).__name__}: {err})"
            raise RouteIRError(msg) from err


def run_problems(runs: Any, grid: GridSpec) -> list[str]:
    """Why ``runs`` (``[[start, length], ...]``) is not a set of cells of ``grid``.

    Every run must be two whole numbers with ``start >= 0``, ``length >= 1`` and
    ``start + length <= rows * cols``: a run like ``[0, 1e12]`` is refused here instead of
    asking numpy for terabytes.
    """
    if not isinstance(runs, list):
        return [f"'runs' must be a list of [start, length], got {type(runs).__name__}"]
    total = grid.rows * grid.cols
    if not runs:
        return []
    if all(type(r) is list for r in runs):  # the fast path: a well-formed int64 (N, 2) table
        try:
            table = np.array(runs)
        except ValueError:  # ragged
            table = np.zeros((0,))
        if table.dtype.kind == "i" and table.ndim == 2 and table.shape[1] == 2 and \
                bool(((table[:, 0] >= 0) & (table[:, 0] < total) & (table[:, 1] >= 1)
                      & (table[:, 1] <= total)  # both bounded first: the sum cannot overflow
                      & (table[:, 0] + table[:, 1] <= total)).all()):
            return []
    problems: list[str] = []
    for i, run in enumerate(runs):
        ok = (isinstance(run, (list, tuple)) and len(run) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in run))
        if not ok:
            problems.append(f"run {i} is {str(run)[:60]}, not [start, length] in whole numbers")
        elif run[0] < 0 or run[1] < 1 or run[0] + run[1] > total:
            problems.append(f"run {i} {list(run)} leaves the {grid.rows}x{grid.cols} grid "
                            f"(cells 0..{total - 1})")
        if len(problems) >= 5:
            problems.append("further runs not checked")
            break
    return problems


class ConstraintKind(str, Enum):
    """Constraint types: one hard (must-avoid) and the paper's five soft preferences."""

    MUST_AVOID = "must_avoid"
    NEAR = "near"
    FAR = "far"
    RELATIVE = "relative"
    PATH_SHAPE = "path_shape"
    CLEARANCE = "clearance"

    @property
    def is_hard(self) -> bool:
        return self is ConstraintKind.MUST_AVOID


@dataclass(frozen=True, eq=False)
class Stage:
    """One leg of the route.

    Attributes:
        target: the region the leg must end in (reaching any one of its cells suffices).
        waypoints: ordered regions to pass, in order, before the target (Path-Shape).
        label: what a person would call the target ("the chair nearest the bed").
    """

    target: Region
    waypoints: tuple[Region, ...] = ()
    label: str = ""


@dataclass(frozen=True, eq=False)
class Constraint:
    """A hard must-avoid or a soft preference, with its scopes.

    Attributes:
        kind: see :class:`ConstraintKind`.
        region: must-avoid: the forbidden cells. Soft: the reference region (Near/Far: the
            object; Relative: A, the one to stay closer to; Path-Shape: the shape's reference
            path cells; Clearance: unused, may be empty).
        other: Relative only: B, the reference to stay farther from.
        spatial_scope: where the constraint is active (``None``: everywhere).
        temporal_scope: stage indices (0-based) during which it is active (``None``: always).
        weight: multiplier on the configured lambda for this constraint (1.0 by default).
        label: the phrase it came from.
    """

    kind: ConstraintKind
    region: Region
    other: Region | None = None
    spatial_scope: Region | None = None
    temporal_scope: tuple[int, ...] | None = None
    weight: float = 1.0
    label: str = ""


@dataclass(frozen=True, eq=False)
class RouteIR:
    """A fully grounded route specification over one map.

    Attributes:
        stages: ordered legs; the last target is the destination.
        constraints: must-avoid regions and soft preferences.
        grid: the grid every region's cells refer to.
        start: optional start point ``(x, y)`` in the map frame (the planner may override it).
        scene: the scene the regions were resolved on.
        metadata: provenance (grounder, instruction, program hash).
    """

    stages: tuple[Stage, ...]
    constraints: tuple[Constraint, ...]
    grid: GridSpec
    start: tuple[float, float] | None = None
    scene: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> None:
        """Raise :class:`RouteIRError` listing every structural problem."""
        problems = validation_problems(self)
        if problems:
            raise RouteIRError("Invalid RouteIR:\n  - " + "\n  - ".join(problems))

    def active_constraints(self, stage_index: int) -> tuple[Constraint, ...]:
        """Constraints whose temporal scope includes ``stage_index``."""
        return tuple(c for c in self.constraints
                     if c.temporal_scope is None or stage_index in c.temporal_scope)

    @property
    def must_avoid(self) -> tuple[Constraint, ...]:
        return tuple(c for c in self.constraints if c.kind is ConstraintKind.MUST_AVOID)

    @property
    def soft(self) -> tuple[Constraint, ...]:
        return tuple(c for c in self.constraints if not c.kind.is_hard)


def validation_problems(ir: RouteIR) -> list[str]:
    """Every structural problem of ``ir`` as one line each."""
    problems: list[str] = []
    if not ir.stages:
        problems.append("the route has no stages (no destination)")
    for i, st in enumerate(ir.stages):
        if st.target.is_empty:
            problems.append(f"stage {i} ({st.label or st.target.label!r}) has an empty target region")
        for j, wp in enumerate(st.waypoints):
            if wp.is_empty:
                problems.append(f"stage {i} waypoint {j} ({wp.label!r}) is empty")
    n = len(ir.stages)
    for k, c in enumerate(ir.constraints):
        name = f"constraint {k} ({c.kind.value} {c.label or c.region.label!r})"
        if c.temporal_scope is not None:
            missing = [s for s in c.temporal_scope if not 0 <= s < n]
            if missing:
                problems.append(f"{name} is scoped to stages {missing}, but stages are 0..{n - 1}")
            if not c.temporal_scope:
                problems.append(f"{name} has an empty temporal scope")
        if c.kind in (ConstraintKind.MUST_AVOID, ConstraintKind.NEAR, ConstraintKind.FAR,
                      ConstraintKind.RELATIVE, ConstraintKind.PATH_SHAPE) and c.region.is_empty:
            problems.append(f"{name} has an empty region")
        if c.kind is ConstraintKind.RELATIVE and (c.other is None or c.other.is_empty):
            problems.append(f"{name} needs a non-empty 'other' (B) region")
        if c.spatial_scope is not None and c.spatial_scope.is_empty:
            problems.append(f"{name} has an empty spatial scope")
    return problems


def scene_problems(ir: RouteIR, m: SemanticMap) -> list[str]:
    """Why ``ir`` cannot be planned on ``m``: another grid, another scene name, or (when the
    RouteIR carries ``metadata["scene_fingerprint"]``) another scene's content."""
    problems: list[str] = []
    if ir.grid != m.grid:
        problems.append(f"the RouteIR's grid ({ir.grid.rows}x{ir.grid.cols} cells at "
                        f"{ir.grid.resolution:g} m, origin ({ir.grid.origin_x:g}, "
                        f"{ir.grid.origin_y:g})) is not scene {m.name!r}'s ({m.grid.rows}x"
                        f"{m.grid.cols} at {m.grid.resolution:g} m, origin ({m.grid.origin_x:g}, "
                        f"{m.grid.origin_y:g}))")
    if ir.scene and ir.scene != m.name:
        problems.append(f"the RouteIR was made for scene {ir.scene!r}, not {m.name!r}")
    stamp = ir.metadata.get("scene_fingerprint")
    if stamp and stamp != m.fingerprint:
        problems.append(f"the RouteIR was made for a scene with fingerprint {stamp!r}; this "
                        f"scene's is {m.fingerprint!r} (the map changed since it was grounded)")
    return problems


def check_scene(ir: RouteIR, m: SemanticMap) -> None:
    """Raise :class:`RouteIRError` when ``ir`` was not made for ``m`` (see :func:`scene_problems`)."""
    problems = scene_problems(ir, m)
    if problems:
        raise RouteIRError("This RouteIR does not belong to this scene:\n  - "
                           + "\n  - ".join(problems)
                           + "\nGround the instruction again on this scene, or pass the scene "
                           "it was made for.")


# --- JSON --------------------------------------------------------------------------------------
def routeir_to_json(ir: RouteIR) -> dict[str, Any]:
    """A JSON-ready document; :func:`routeir_from_json` reads it back exactly."""
    g = ir.grid

    def region(r: Region | None) -> dict[str, Any] | None:
        return None if r is None else r.to_json(g)

    return {
        "schema_version": SCHEMA_VERSION,
        "scene": ir.scene,
        "grid": {"rows": g.rows, "cols": g.cols, "resolution": g.resolution,
                 "origin": [g.origin_x, g.origin_y]},
        "start": None if ir.start is None else list(ir.start),
        "stages": [{"label": s.label, "target": region(s.target),
                    "waypoints": [region(w) for w in s.waypoints]} for s in ir.stages],
        "constraints": [{"kind": c.kind.value, "label": c.label, "weight": c.weight,
                         "region": region(c.region), "other": region(c.other),
                         "spatial_scope": region(c.spatial_scope),
                         "temporal_scope": None if c.temporal_scope is None
                         else list(c.temporal_scope)} for c in ir.constraints],
        "metadata": ir.metadata,
    }


def routeir_from_json(data: dict[str, Any]) -> RouteIR:
    """Parse a RouteIR document, rejecting unknown schema versions by name."""

    version = data.get("schema_version") if isinstance(data, dict) else None
    if version != SCHEMA_VERSION:
        msg = f"RouteIR has schema_version {version!r}; this map2route reads {SCHEMA_VERSION!r}"
        raise RouteIRError(msg)
    try:
        gd = data["grid"]
        bad_grid = grid_problems(gd["rows"], gd["cols"], gd["resolution"], gd["origin"][0],
                                 gd["origin"][1])
        if bad_grid:
            raise RouteIRError("RouteIR grid: " + "; ".join(bad_grid))
        grid = GridSpec(rows=int(gd["rows"]), cols=int(gd["cols"]),
                        resolution=float(gd["resolution"]), origin_x=float(gd["origin"][0]),
                        origin_y=float(gd["origin"][1]))

        def region(d: dict[str, Any] | None) -> Region | None:
            return None if d is None else Region.from_json(d, grid)

        stages = tuple(Stage(target=Region.from_json(s["target"], grid),
                             waypoints=tuple(Region.from_json(w, grid) for w in s["waypoints"]),
                             label=s.get("label", "")) for s in data["stages"])
        constraints = tuple(Constraint(
            kind=ConstraintKind(c["kind"]), region=Region.from_json(c["region"], grid),
            other=region(c.get("other")), spatial_scope=region(c.get("spatial_scope")),
            temporal_scope=None if c.get("temporal_scope") is None
            else tuple(int(i) for i in c["temporal_scope"]),
            weight=float(c.get("weight", 1.0)), label=c.get("label", ""))
            for c in data["constraints"])
        start = data.get("start")
        start_xy = None if start is None else (float(start[0]), float(start[1]))
        if start is not None and len(start) != 2:
            raise RouteIRError(f"RouteIR start must be [x, y], got {start!r}")
        if start_xy is not None and not all(math.isfinite(v) for v in start_xy):
            raise RouteIRError(f"RouteIR start must be finite metres, got {start!r}")
        bad_weights = [k for k, c in enumerate(constraints) if not math.isfinite(c.weight)]
        if bad_weights:
            raise RouteIRError(f"RouteIR constraints {bad_weights} have a NaN or infinite weight")
        return RouteIR(stages=stages, constraints=constraints, grid=grid, start=start_xy,
                       scene=str(data.get("scene", "")), metadata=dict(data.get("metadata", {})))
    except (KeyError, TypeError, ValueError, IndexError) as err:
        msg = f"malformed RouteIR JSON ({type(err).__name__}: {err})"
        raise RouteIRError(msg) from err
