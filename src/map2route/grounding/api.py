"""The read-only semantic-map API that grounding programs compose (paper 000, IV-A).

A grounding program sees only the functions of :class:`GroundingAPI` marked with
:func:`~map2route.grounding.handles.exposed` and the opaque handles they return
(:class:`Entity`, :class:`Area`, :class:`Shape`, :class:`Segment`, :class:`Preference`,
:class:`Predicate`). It never sees grid cells, absolute coordinates, planner costs or a
trajectory: distances come back as metres between entities, regions as handles. The six
categories of the paper are the ``category`` of each exposed function; :func:`api_reference`
turns their docstrings into the prompt's API section.

The API is built in layers, one module each:

- :mod:`~map2route.grounding.handles`: the handles and the ``exposed`` marker;
- :mod:`~map2route.grounding.map_view`: entities, measures and masks over one map (its grid
  geometry is :mod:`map2route.semantic_map.geometry`);
- :mod:`~map2route.grounding.query_verbs`: scene, selection, ranking and logic verbs;
- :mod:`~map2route.grounding.route_verbs`: region and route verbs (shapes, segments, constraints);
- :mod:`~map2route.grounding.official_verbs`: the official release's API names and forms;
- :mod:`~map2route.grounding.assemble`: the finished task as a RouteIR.

Executing a program ends with one call of ``task(...)``; :meth:`GroundingAPI.build_routeir`
turns it into a :class:`~map2route.routeir.RouteIR` whose regions come from the map
(``goal_region_mask``, room masks, footprints). Every selection that picks one entity out of
several is recorded in :attr:`GroundingAPI.trace` so the verifier can recompute it.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from map2route.grounding.assemble import SHAPE_BAND_M, assemble_routeir
from map2route.grounding.handles import (
    CATEGORIES,
    CATEGORY_TITLES,
    Area,
    Entity,
    EntityLike,
    Predicate,
    Preference,
    RegionLike,
    Segment,
    Shape,
    Task,
    exposed,
)
from map2route.grounding.official_verbs import OfficialVerbs
from map2route.grounding.route_verbs import (
    GROUNDED_WAYPOINT_RADIUS_M,
    SHAPE_CLEAR_M,
    SHAPE_REFERENCE,
    SHAPE_SLIDE_M,
)

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR

__all__ = [
    "CATEGORIES",
    "CATEGORY_TITLES",
    "SHAPE_BAND_M",
    "SHAPE_CLEAR_M",
    "SHAPE_REFERENCE",
    "SHAPE_SLIDE_M",
    "GROUNDED_WAYPOINT_RADIUS_M",
    "Area",
    "Entity",
    "EntityLike",
    "GroundingAPI",
    "Predicate",
    "Preference",
    "RegionLike",
    "Segment",
    "Shape",
    "Task",
    "api_reference",
    "exposed",
    "exposed_names",
]


class GroundingAPI(OfficialVerbs):
    """Read-only queries over one :class:`SemanticMap` plus route construction.

    Args:
        m: the map.
        start_xy: the robot's start point (map metres), for ``start_room`` and "from here".
        record: keep a trace of selections for the verifier.
    """

    def namespace(self) -> dict[str, Any]:
        """The names a program may use: every exposed method, bound to this map, and the
        official names ``task_start`` / ``start_position`` for the start place."""
        out: dict[str, Any] = {}
        for name, fn in inspect.getmembers(type(self), predicate=inspect.isfunction):
            if getattr(fn, "_api_category", None):
                out[name] = getattr(self, name)
        out["task_start"] = out["start_position"] = self.entity("p:start")
        return out

    def build_routeir(self, *, instruction: str = "", grounder: str = "") -> RouteIR:
        """The RouteIR of the finished task (regions resolved on this map).

        Raises:
            ProgramIssue: no task was built, or a scope names a segment outside the task.
        """
        return assemble_routeir(self.result, grid=self._m.grid, start=self._start,
                                scene=self._m.name, instruction=instruction, grounder=grounder)


def api_reference(*, markdown: bool = True) -> str:
    """The API documentation, grouped by the six categories, from the exposed docstrings."""
    lines: list[str] = []
    funcs = [(n, f) for n, f in inspect.getmembers(GroundingAPI, predicate=inspect.isfunction)
             if getattr(f, "_api_category", None)]
    for cat in CATEGORIES:
        lines.append(f"### {CATEGORY_TITLES[cat]}" if markdown else f"# {CATEGORY_TITLES[cat]}")
        for name, fn in funcs:
            if fn._api_category != cat:  # type: ignore[attr-defined]
                continue
            sig = (str(inspect.signature(fn)).replace("(self, ", "(").replace("(self)", "()")
                   .replace("'", ""))
            doc = inspect.cleandoc(fn.__doc__ or "")
            lines.append(f"- `{name}{sig}`: {doc}" if markdown else f"{name}{sig}\n    {doc}")
        lines.append("")
    return "\n".join(lines)


def exposed_names() -> tuple[str, ...]:
    """Names of every function a program may call."""
    return tuple(n for n, f in inspect.getmembers(GroundingAPI, predicate=inspect.isfunction)
                 if getattr(f, "_api_category", None))
