"""RouteIR assembly: a finished program's :class:`~map2route.grounding.handles.Task` as a RouteIR.

The host side of grounding: handles become :class:`~map2route.routeir.model.Region` cell lists,
segments become stages, a shape becomes a Path-Shape constraint active only in a band around
its reference path, and each constraint's temporal scope becomes stage indices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from map2route.grounding.handles import Area, Task, issue
from map2route.routeir.model import Constraint, ConstraintKind, Region, RouteIR, Stage
from map2route.semantic_map import geometry

if TYPE_CHECKING:
    from map2route.semantic_map.grid import GridSpec

#: Half-width of the Path-Shape active region around the reference path (metres).
SHAPE_BAND_M = 1.0


def area_region(a: Area) -> Region:
    """An area as a RouteIR region (its cells, label, construction and object ids)."""
    # nonzero over the mask's bounding box only (regions are small next to the grid)
    rows = np.flatnonzero(a._mask.any(axis=1))
    if rows.size == 0:
        cells = np.zeros((0, 2), dtype=np.int32)
    else:
        cols = np.flatnonzero(a._mask[rows[0]:rows[-1] + 1].any(axis=0))
        r0, c0 = int(rows[0]), int(cols[0])
        rr, cc = np.nonzero(a._mask[r0:int(rows[-1]) + 1, c0:int(cols[-1]) + 1])
        cells = np.stack([rr + r0, cc + c0], axis=1).astype(np.int32)
    return Region(label=a._label, cells=cells, construction=dict(a._construction),
                  object_ids=tuple(a._object_ids))


def band_around(grid: GridSpec, area: Area, width_m: float = SHAPE_BAND_M) -> Area:
    """Cells within ``width_m`` of an area (the active region of a path shape)."""
    dist = grid.cells_to_meters(geometry.l2_cells(~area._mask))
    return Area(dist <= width_m, f"around {area._label}", {"op": "band", "width_m": width_m})


def assemble_routeir(task: Task | None, *, grid: GridSpec, start: tuple[float, float] | None,
                     scene: str, instruction: str = "", grounder: str = "") -> RouteIR:
    """The RouteIR of a finished task on a map with geometry ``grid``.

    Raises:
        ProgramIssue: no task was built, or a scope names a segment outside the task.
    """
    if task is None:
        raise issue("no_task", "the program never called task(...); end it with "
                               "task([segment(...), ...], [constraint(...), ...])")
    t = task
    stages = []
    for s in t._segments:
        stages.append(Stage(target=area_region(s._target),
                            waypoints=tuple(area_region(w) for w in s._waypoints), label=s._label))
    constraints = []
    for i, s in enumerate(t._segments):
        if s._shape is not None:
            # active only around the shape, so the approach to it stays free
            band = band_around(grid, s._shape._path, SHAPE_BAND_M)
            constraints.append(Constraint(kind=ConstraintKind.PATH_SHAPE,
                                          region=area_region(s._shape._path),
                                          temporal_scope=(i,),
                                          spatial_scope=area_region(band), label=s._shape._label))
    for p in t._preferences:
        temporal = None
        if p._during is not None:
            idx = []
            for seg in p._during:
                pos = [i for i, s in enumerate(t._segments) if s is seg]
                if not pos:
                    raise issue("bad_scope", f"constraint {p._label!r} is scoped to segment "
                                             f"{seg._label!r}, which is not in the task")
                idx.append(pos[0])
            temporal = tuple(sorted(set(idx)))
        region = area_region(p._region)
        if p._meta:
            # the official constraint's id, kind, roles and source text, for GroundedProgram v2
            region.construction["official"] = dict(p._meta)
        constraints.append(Constraint(kind=p._kind, region=region,
                                      other=None if p._other is None else area_region(p._other),
                                      spatial_scope=None if p._within is None
                                      else area_region(p._within),
                                      temporal_scope=temporal, weight=p._weight, label=p._label))
    metadata: dict[str, object] = {"grounder": grounder, "instruction": instruction}
    if t._meta:
        # official-style programs: ids, starts, constraint ids and bindings for GroundedProgram v2
        metadata["grounded_program"] = t._meta
    return RouteIR(stages=tuple(stages), constraints=tuple(constraints), grid=grid, start=start,
                   scene=scene, metadata=metadata)
