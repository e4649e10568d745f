"""The official Map2Route API names, and its task builders, on top of our verbs.

The official release (Grounding2Route, ``SEMANTIC_API_REGISTRY`` in BaoBao0926/Map2Route)
names 55 functions. This module adds the ones our API lacked (``target_of``,
``count_next_to``, ``closest_pair_member``, ``relative_waypoint``, ``position``,
``object_bbox``, ``room_polygon``, ``intersects``, ``set_segment_context``) and lets the verbs
whose official form differs take either form, told apart by argument types:

- ``segment("s1", start, target, [constraint(...), ...])`` (an id first) next to ours
  ``segment(target, via=..., shape=...)``;
- ``constraint("forbid" | "prefer_near" | ..., *refs, spatial_scope=, segment_scope=,
  source_text=)`` (the seven official kinds) next to ours (``"avoid"``, ``"near"``, ...);
- ``task(segments, {"name": value})`` (bindings) next to ours ``task(segments, constraints)``;
- the predicates called on a candidate (``near_to(c, ref)`` -> bool, for
  ``where(items, lambda c: near_to(c, ref))``) next to ours (``near_to(ref)`` -> Predicate);
- ``midpoint_region(first, second)`` next to ours ``midpoint_region([a, b, ...])``;
- ``count_near("chair", ref)`` (a category first) next to ours ``count_near(items, ref)``.

docs/grounding.md, "Official API parity", has the table and says where meanings differ.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from map2route.grounding.handles import (
    Area,
    Entity,
    Predicate,
    Preference,
    Segment,
    Shape,
    Task,
    Visit,
    encode,
    exposed,
    issue,
)
from map2route.grounding.map_view import NEAR_M, NEXT_TO_GAP_M
from map2route.grounding.query_verbs import QueryVerbs
from map2route.grounding.route_verbs import RouteVerbs
from map2route.routeir.model import ConstraintKind

#: The official constraint kinds (``CONSTRAINT_KINDS`` of the official API).
OFFICIAL_CONSTRAINT_KINDS = ("require_visit", "require_visit_in_order", "forbid", "prefer_near",
                             "prefer_far", "prefer_relative", "prefer_path_shape")
_FARTHER = {"farther", "further", "farther_than", "further_than", "farther_from",
            "further_from", "away_from", ">"}
_CLOSER = {"closer", "nearer", "closer_than", "nearer_than", "closer_to", "nearer_to", "near",
           "<"}


def _relation(word: str) -> str:
    """The official relation word (``closer_to`` / ``farther_from``) for a synonym."""
    w = word.strip().lower().replace("-", "_").replace(" ", "_")
    if w in _FARTHER:
        return "farther_from"
    if w in _CLOSER:
        return "closer_to"
    raise issue("bad_constraint", f"prefer_relative's relation must be closer_to or "
                                  f"farther_from, got {word!r}", ["closer_to", "farther_from"])


def _loop_direction(word: Any) -> str:
    """``clockwise`` or ``counterclockwise`` for the official spellings (``cw``, ``ccw``,
    ``anticlockwise``; ``auto`` is counterclockwise)."""
    w = str(word).strip().lower().replace("-", "_").replace(" ", "_")
    if w in ("clockwise", "cw"):
        return "clockwise"
    if w in ("counterclockwise", "counter_clockwise", "anticlockwise", "ccw", "auto"):
        return "counterclockwise"
    raise issue("type_error", f"direction must be 'clockwise' or 'counterclockwise', got {word!r}",
                ["clockwise", "counterclockwise"])


class OfficialVerbs(RouteVerbs, QueryVerbs):
    """The official API names and forms (see the module docstring)."""

    #: The official segment context: (segment id, start) from ``set_segment_context``.
    _context: tuple[str, Any] | None = None

    # --- missing official names ---------------------------------------------------------
    @exposed("route")
    def set_segment_context(self, segment_id: str, start: Any) -> None:
        """Official: name the segment (and its start) whose constraints come next; an official
        ``constraint(...)`` without ``segment_scope`` is scoped to it."""
        if not isinstance(segment_id, str) or not segment_id:
            raise issue("type_error", f"segment_id must be a non-empty string, got {segment_id!r}")
        self._context = (segment_id, start)

    @exposed("scene")
    def target_of(self, segment: Segment) -> Any:
        """The target a segment was built with (an entity, room or area), to refer back to it."""
        if not isinstance(segment, Segment):
            raise issue("type_error", f"target_of needs a segment, got {segment!r}")
        return segment._ref if segment._ref is not None else segment._target

    @exposed("selection")
    def count_next_to(self, category: str, reference: Entity,
                      threshold: float = NEXT_TO_GAP_M) -> int:
        """How many objects of ``category`` stand next to ``reference`` (footprints at most
        ``threshold`` metres apart, as :meth:`next_to`)."""
        r = self._one(reference, "reference")
        items = [e for e in self.entities(category) if e != r]
        return len(self.where(items, self.next_to(r, threshold)))

    @exposed("ranking")
    def closest_pair_member(self, candidates: Any, references: Any) -> Entity:
        """The candidate nearest to any of ``references`` (ties by map key), e.g. "the chair
        closest to one of the tables"."""
        cands = self._as_list(candidates, "candidates")
        refs = self._as_list(references, "references")
        if not cands or not refs:
            raise issue("no_referent", "closest_pair_member needs candidates and references")
        best = min(cands, key=lambda c: (min(self._dist(c, r) for r in refs), c.ref))
        self._note("closest_pair_member", items=cands, ref=refs, result=best)
        return best

    @exposed("region")
    def relative_waypoint(self, first_anchor: Entity, second_anchor: Entity, along: float = 0.5,
                          lateral: float = 0.0, radius: float = 0.2,
                          room: Entity | None = None) -> Area:
        """Free cells of ``room`` within ``radius`` m of the point ``along`` of the way from
        ``first_anchor`` to ``second_anchor`` (0 at the first, 1 at the second, in [-1, 2])
        and ``lateral`` metres to its left (at most 5); ``room`` defaults to the anchors'
        shared room. The free cell nearest that point stands in when the point is blocked."""
        a, b = self._one(first_anchor, "first_anchor"), self._one(second_anchor, "second_anchor")
        if not -1.0 <= along <= 2.0 or abs(lateral) > 5.0 or not 0.05 <= radius <= 2.0:
            raise issue("type_error", "relative_waypoint needs along in [-1, 2], |lateral| <= 5 m "
                                      f"and radius in [0.05, 2] m, got {along}, {lateral}, {radius}")
        if room is None:
            ra, rb = self._room_id(a), self._room_id(b)
            if ra is None or ra != rb:
                raise issue("bad_scope", "relative_waypoint's anchors lie in different rooms; "
                                         "pass room=...")
            room_id = ra
        else:
            rr = self._one(room, "room")
            if rr.kind != "room":
                raise issue("type_error", f"relative_waypoint's room must be a room, got {rr!r}")
            room_id = int(rr._key)
        (ax, ay), (bx, by) = self._center(a), self._center(b)
        dx, dy = bx - ax, by - ay
        n = math.hypot(dx, dy)
        if n < 1e-6:
            raise issue("type_error", "relative_waypoint's anchors share one centre")
        px, py = ax + along * dx - lateral * dy / n, ay + along * dy + lateral * dx / n
        free = self._room_mask(room_id) & np.asarray(self._m.traversable, dtype=bool)
        if not free.any():
            raise issue("empty_selection", "relative_waypoint's room has no free cells")
        mask = self._disk((px, py), radius) & free
        if not mask.any():
            rows, cols = np.nonzero(free)
            xy = self._m.grid.cells_to_worlds(np.stack([rows, cols], axis=1))
            k = int(np.argmin((xy[:, 0] - px) ** 2 + (xy[:, 1] - py) ** 2))
            mask = self._disk((float(xy[k, 0]), float(xy[k, 1])), radius) & free
        return Area(mask, f"a point {along:g} of the way from {a.label} to {b.label}",
                    {"op": "relative_waypoint", "first": a.ref, "second": b.ref, "along": along,
                     "lateral_m": lateral, "radius_m": radius, "room": room_id}, (a._key, b._key))

    @exposed("ranking")
    def position(self, ref: Entity) -> tuple[float, float]:
        """The centre of an entity in map metres, for comparisons only (which is further east)."""
        x, y = self._center(self._one(ref, "ref"))
        return (round(x, 3), round(y, 3))

    @exposed("ranking")
    def object_bbox(self, ref: Entity) -> tuple[float, float, float, float]:
        """(x_min, y_min, x_max, y_max) in map metres of an entity's footprint, room polygon
        or window/door segment, for comparisons only."""
        x0, y0, x1, y1 = self._geometry(self._one(ref, "ref")).bounds
        return (round(x0, 3), round(y0, 3), round(x1, 3), round(y1, 3))

    @exposed("ranking")
    def room_polygon(self, room: Entity) -> list[tuple[float, float]]:
        """A room's outline as (x, y) vertices in map metres, for comparisons only."""
        r = self._one(room, "room")
        if r.kind != "room":
            raise issue("type_error", f"room_polygon needs a room, got {r!r}")
        return [(round(x, 3), round(y, 3)) for x, y in self._rooms[int(r._key)].polygon]

    @exposed("ranking")
    def intersects(self, first: Any, second: Any) -> bool:
        """Whether two things share a map cell (footprints of objects, cells of rooms, areas)."""
        def cells(v: Any, what: str) -> Area:
            return v if isinstance(v, Area) else self._reference(v, what)

        return bool((cells(first, "first")._mask & cells(second, "second")._mask).any())

    # --- verbs with an official form too ------------------------------------------------
    @exposed("ranking")
    def kth_nearest(self, items: Any, ref: Entity, k: int = 1, metric: str = "euclidean") -> Entity:
        """The k-th nearest (1 = nearest) of ``items`` to ``ref`` (``ref`` itself excluded);
        ``metric`` is ``"euclidean"`` (straight line) or ``"geodesic"`` (walking distance)."""
        r = self._one(ref, "ref")
        out = self._ranked(items, self._metric(metric, r), k, False, "kth_nearest", r)
        self._note_metric(metric)
        return out

    @exposed("ranking")
    def kth_farthest(self, items: Any, ref: Entity, k: int = 1, metric: str = "euclidean") -> Entity:
        """The k-th farthest (1 = farthest) of ``items`` from ``ref``; ``metric`` as kth_nearest."""
        r = self._one(ref, "ref")
        out = self._ranked(items, self._metric(metric, r), k, True, "kth_farthest", r)
        self._note_metric(metric)
        return out

    def _note_metric(self, metric: str) -> None:
        """Record a non-default metric on the ranking just traced (the verifier reruns it)."""
        if self._record and self.trace and metric != "euclidean":
            self.trace[-1]["metric"] = metric

    def _metric(self, metric: str, r: Entity) -> Callable[[Entity], float]:
        if metric == "euclidean":
            return lambda e: self._dist(e, r)
        if metric == "geodesic":
            return lambda e: self.geodesic_distance(e, r)
        raise issue("type_error", f"metric must be 'euclidean' or 'geodesic', got {metric!r}",
                    ["euclidean", "geodesic"])

    @exposed("region")
    def midpoint_region(self, items: Any, second: Any = None, radius_m: float = 0.5) -> Area:
        """Free cells within ``radius_m`` of the mean of the centres of ``items`` (a list of two
        or more entities), or of ``items`` and ``second`` (the official two-argument form):
        "the midpoint between the fridge and the stove"."""
        if isinstance(second, (int, float)) and not isinstance(second, bool):
            second, radius_m = None, float(second)  # our older positional radius
        if second is not None:
            items = [self._one(items, "first"), self._one(second, "second")]
        return super().midpoint_region(items, radius_m)

    @exposed("region")
    def circle(self, ref: Entity, direction: Any = "counterclockwise", clearance_m: Any = 0.5,
               laps: int = 1, fraction: float | None = None,
               start_toward: Entity | None = None) -> Shape:
        """A loop around an object: 8 waypoints per lap on a ring ``clearance_m`` beyond its edge.

        ``direction`` is ``"clockwise"`` or ``"counterclockwise"``; the loop starts and ends on
        the side facing where the robot comes from (or ``start_toward``). Pass it to
        ``segment(shape=...)``. The official form ``circle(ref, fraction, direction,
        start_toward=...)`` also works: ``fraction`` < 0.95 walks that part of the ring
        (at least 3 waypoints) instead of a closed loop.
        """
        if isinstance(direction, (int, float)) and not isinstance(direction, bool):
            fraction, direction = float(direction), clearance_m if isinstance(clearance_m, str) \
                else "counterclockwise"
            clearance_m = 0.5
        direction = _loop_direction(direction)
        if start_toward is None and (fraction is None or fraction >= 0.95):
            return super().circle(ref, direction, clearance_m, laps)
        e = self._one(ref, "ref")
        c = self._center(e)
        radius = (self._objects[e._key].radius_m if e.kind == "object" else 0.5) + float(clearance_m)
        here = self._center(self._one(start_toward, "start_toward")) if start_toward is not None \
            else self._from_here()
        a0 = math.atan2(here[1] - c[1], here[0] - c[0]) if here is not None else 0.0
        f = 1.0 if fraction is None else min(1.0, max(0.1, float(fraction)))
        n = 8 if f >= 0.95 else max(3, math.ceil(8 * f))
        sign = 1.0 if direction == "counterclockwise" else -1.0
        pts = [(c[0] + radius * math.cos(a0 + sign * 2 * math.pi * f * i / n),
                c[1] + radius * math.sin(a0 + sign * 2 * math.pi * f * i / n)) for i in range(n + 1)]
        label = f"circle {f:g} of the way around {e.label} {direction}"
        return self._shape(pts, label, {"op": "circle", "ref": e.ref, "direction": direction,
                                        "fraction": f})

    @exposed("region")
    def follow_wall(self, room: Entity, direction: Any = "counterclockwise",
                    offset_m: Any = 0.6, fraction: float | None = None,
                    first_toward: Entity | None = None) -> Shape:
        """A patrol along a room's walls: its corners inset by ``offset_m``, in order, back to the
        first. The official form ``follow_wall(ref, fraction, direction)`` also works (an
        object stands for its room, ``"auto"`` is counterclockwise, ``first_toward`` starts
        the loop at the corner nearest it); only whole loops (``fraction`` >= 0.95)."""
        if isinstance(direction, (int, float)) and not isinstance(direction, bool):
            fraction, direction = float(direction), offset_m if isinstance(offset_m, str) \
                else "auto"
            offset_m = 0.6
        if fraction is not None and fraction < 0.95:
            raise issue("type_error", f"follow_wall walks whole loops only (fraction >= 0.95), "
                                      f"got fraction={fraction}")
        r = self._one(room, "room")
        if r.kind != "room":
            r = self.room_of(r)
        if first_toward is None:
            return super().follow_wall(r, _loop_direction(direction), float(offset_m))
        # the loop starts at the corner nearest "here": make here the anchor for this call
        saved, self._arrival = self._arrival, self._center(self._one(first_toward, "first_toward"))
        try:
            return super().follow_wall(r, _loop_direction(direction), float(offset_m))
        finally:
            self._arrival = saved

    @exposed("selection")
    def choose_any(self, items: Any, description: Any = "the reference") -> Entity:
        """Any one entity of ``items`` (the first in map order), for indefinite "a chair"; error
        if empty. Officially ``choose_any(items, reference)``: the one nearest ``reference``."""
        if isinstance(description, Entity):
            ents = self._as_list(items, "items")
            if not ents:
                raise issue("no_referent", "choose_any got no candidates")
            return min(ents, key=lambda e: (self._dist(e, description), e.ref))
        return super().choose_any(items, description)

    @exposed("ranking")
    def order_by_distance(self, items: Any, ref: Entity, descending: Any = False) -> list[Entity]:
        """``items`` sorted by distance to ``ref`` (nearest first unless ``descending``; the
        official ``"ascending"``/``"descending"`` words work too)."""
        if isinstance(descending, str):
            if descending not in ("ascending", "descending"):
                raise issue("type_error", f"order must be 'ascending' or 'descending', got "
                                          f"{descending!r}", ["ascending", "descending"])
            descending = descending == "descending"
        return super().order_by_distance(items, ref, bool(descending))

    @exposed("selection")
    def count_near(self, items: Any, ref: Entity, radius_m: float = NEAR_M) -> int:
        """How many of ``items`` (a list, or a category name as officially) lie within
        ``radius_m`` metres of ``ref``."""
        if isinstance(items, str):
            items = self.entities(items)
        return super().count_near(items, ref, radius_m)

    @exposed("selection")
    def where(self, items: Any, *tests: Any) -> list[Entity]:
        """The entities of ``items`` that pass every test: a predicate (near_to(x), on_top_of(x),
        has(...)) or a one-argument function (``lambda c: near_to(c, x)``)."""
        def wrap(fn: Callable[[Entity], Any]) -> Predicate:
            return Predicate(lambda e: bool(fn(e)), "a test")

        preds = [t if isinstance(t, Predicate) or not callable(t) else wrap(t) for t in tests]
        return super().where(items, *preds)

    def _candidate_form(self, args: tuple[Any, ...], n: int) -> bool:
        """Whether a predicate was called the official way: ``n`` entity arguments, the first
        the candidate."""
        return len(args) == n and all(isinstance(a, Entity) for a in args)

    @exposed("ranking")
    def near_to(self, ref: Any, radius_m: Any = NEAR_M) -> Any:
        """Predicate: within ``radius_m`` metres (default 1.5) of ``ref`` (or of any entity of a
        list). ``near_to(candidate, ref)`` answers for one candidate (True/False)."""
        if self._candidate_form((ref, radius_m), 2):
            return super().near_to(radius_m)._test(ref)
        return super().near_to(ref, radius_m)

    @exposed("ranking")
    def far_from(self, ref: Any, radius_m: Any = 3.0) -> Any:
        """Predicate: more than ``radius_m`` metres (default 3) from ``ref`` (from every entity of a
        list). ``far_from(candidate, ref)`` answers for one candidate."""
        if self._candidate_form((ref, radius_m), 2):
            return super().far_from(radius_m)._test(ref)
        return super().far_from(ref, radius_m)

    @exposed("ranking")
    def next_to(self, ref: Any, gap_m: Any = NEXT_TO_GAP_M) -> Any:
        """Predicate: footprints at most ``gap_m`` (default 0.6 m) apart from ``ref``'s.
        ``next_to(candidate, ref)`` answers for one candidate."""
        if self._candidate_form((ref, gap_m), 2):
            return super().next_to(gap_m)._test(ref)
        return super().next_to(ref, gap_m)

    @exposed("ranking")
    def on_top_of(self, receptacle: Any, support: Any = None) -> Any:
        """Predicate: standing on or inside the receptacle (or any of a list).
        ``on_top_of(candidate, receptacle)`` answers for one candidate."""
        if self._candidate_form((receptacle, support), 2):
            return super().on_top_of(support)._test(receptacle)
        return super().on_top_of(receptacle)

    @exposed("ranking")
    def between(self, a: Entity, b: Entity, c: Entity | None = None) -> Any:
        """Predicate: centre projects onto the segment a-b (10-90 %) and lies within 1 m (or
        30 %) of it. ``between(candidate, a, b)`` answers for one candidate."""
        if c is not None:
            return super().between(b, c)._test(self._one(a, "candidate"))
        return super().between(a, b)

    @exposed("ranking")
    def in_corner(self, within_m: Any = 1.2, room: Entity | None = None) -> Any:
        """Predicate: an object whose centre lies within ``within_m`` of a corner of its room.
        ``in_corner(candidate)`` answers for one candidate."""
        if isinstance(within_m, Entity):
            return super().in_corner()._test(within_m)
        return super().in_corner(within_m)

    # --- official task builders -----------------------------------------------------------
    @exposed("route")
    def segment(self, target: Any = None, via: Any = (), shape: Any = None, label: Any = "",
                constraints: Any = None, *, segment_id: str | None = None,
                start: Any = None) -> Segment:
        """One leg of the route, ending in ``target`` (an entity's goal region, a room or an area).

        ``via`` are regions to pass in order first; ``shape`` (from circle/follow_wall) adds its
        ordered waypoints and, when ``target`` is None, ends where the shape ends. The official
        form ``segment("s1", start, target, [constraint(...), ...])`` (an id first) also works.
        """
        if segment_id is not None:
            return self._official_segment(segment_id, start, target, constraints)
        if isinstance(target, str):
            return self._official_segment(target, via if start is None else start, shape,
                                          constraints if constraints is not None else label)
        return super().segment(target, via, shape, label)

    @exposed("route")
    def constraint(self, kind: str, ref: Any = None, *more: Any, other: Any = None,
                   within: Any = None, during: Any = None, weight: float = 1.0, label: str = "",
                   spatial_scope: Any = None, segment_scope: Any = None,
                   source_text: str | None = None) -> Any:
        """A route requirement: ``kind`` is ``"avoid"`` (hard), ``"near"``, ``"far"``,
        ``"relative"`` (stay closer to ``ref`` than to ``other``) or ``"clearance"``.

        ``within`` (a room or area) is the spatial scope; ``during`` (a segment or list of
        segments of the task; None entries are ignored) is the temporal scope; both default to
        everywhere / always. The official kinds (``forbid``, ``require_visit``,
        ``require_visit_in_order``, ``prefer_near``, ``prefer_far``, ``prefer_relative``,
        ``prefer_path_shape``) take their references as positional arguments and
        ``spatial_scope=``, ``segment_scope=`` (a segment id, ids or ``"global"``) and
        ``source_text=``; pass them to the official ``segment(id, start, target, [...])``.
        """
        if kind in OFFICIAL_CONSTRAINT_KINDS:
            return self._official_constraint(kind, (ref, *more), spatial_scope, segment_scope,
                                             source_text)
        # our older positional order after ref: other, within, during, weight, label
        names = ("other", "within", "during", "weight", "label")
        if len(more) > len(names):
            raise issue("bad_constraint", f"constraint({kind!r}, ...) takes at most "
                                          f"{len(names) + 1} positional references")
        given = dict(zip(names, more, strict=False))
        return super().constraint(kind, ref, other=given.get("other", other),
                                  within=given.get("within", within),
                                  during=given.get("during", during),
                                  weight=given.get("weight", weight),
                                  label=given.get("label", label))

    @exposed("route")
    def task(self, segments: Sequence[Segment], constraints: Any = (),
             bindings: dict[str, Any] | None = None) -> Task:
        """Finish the program: the ordered segments and the constraints. Call it exactly once.
        The official form ``task(segments, {"name": value, ...})`` takes bindings instead."""
        if isinstance(constraints, dict):
            constraints, bindings = (), constraints
        segs = tuple(segments) if isinstance(segments, (list, tuple)) else (segments,)
        if not any(isinstance(s, Segment) and s._id for s in segs) and bindings is None:
            return super().task(segments, constraints)
        return self._official_task(segs, tuple(constraints), bindings or {})

    # --- the official builders' internals -----------------------------------------------
    def _regions(self, value: Any, what: str) -> list[Area]:
        """A constraint argument as areas: an entity's goal region, a room, an area, a shape's
        waypoints, or a list of these (flattened)."""
        if isinstance(value, Shape):
            return list(value._waypoints)
        if isinstance(value, (list, tuple)):
            return [a for v in value for a in self._regions(v, what)]
        return [self._mask_of(value, what)]

    def _scope_ids(self, segment_scope: Any) -> list[str] | None:
        """An official segment scope as ids: None = the host segment (filled in later),
        ``[]`` = global."""
        if segment_scope is None:
            return [self._context[0]] if self._context is not None else None
        if isinstance(segment_scope, str):
            return [] if segment_scope == "global" else [segment_scope]
        if isinstance(segment_scope, (list, tuple)) and all(isinstance(s, str) for s in segment_scope):
            return list(segment_scope)
        raise issue("bad_scope", f"segment_scope must be a segment id, a list of ids or "
                                 f"'global', got {segment_scope!r}")

    def _official_constraint(self, kind: str, refs: tuple[Any, ...], spatial_scope: Any,
                             segment_scope: Any, source_text: str | None) -> Any:
        """One official constraint: a :class:`Visit` for the visit and path-shape kinds, a
        :class:`Preference` (a list of them for near/far over several references) otherwise."""
        refs = tuple(r for r in refs if r is not None)
        if not refs:
            raise issue("bad_constraint", f"constraint({kind!r}) needs at least one reference")
        meta: dict[str, Any] = {"kind": kind, "segment_scope": self._scope_ids(segment_scope),
                                "hardness": "soft" if kind.startswith("prefer_") else "hard"}
        if source_text:
            meta["source_text"] = str(source_text)
        within = None if spatial_scope is None else self._mask_of(spatial_scope, "spatial_scope")
        label = str(source_text or kind.replace("_", " "))
        if kind in ("require_visit", "require_visit_in_order"):
            regions = self._regions(list(refs), kind)
            return Visit(tuple(regions), None, {**meta, "argument_roles": ["region"] * len(regions)})
        if kind == "prefer_path_shape":
            shape = refs[0] if len(refs) == 1 and isinstance(refs[0], Shape) else None
            if shape is None:
                wps = tuple(self._regions(list(refs), kind))
                centres = [self._m.grid.cell_to_world(*np.argwhere(w._mask).mean(axis=0))
                           for w in wps if w._mask.any()]
                op = {"op": "path_shape", "regions": len(wps)}
                path = self._walk_area(wps, centres, label, op) if len(centres) == len(wps) \
                    else None
                shape = Shape(wps, path or self._path_area(centres, label, op), label)
            return Visit(shape._waypoints, shape,
                         {**meta, "argument_roles": ["waypoint"] * len(shape._waypoints)})
        if kind == "forbid":
            parts = [self.avoid_region(e) if isinstance(e, Entity) else self._mask_of(e, kind)
                     for r in refs for e in (r if isinstance(r, (list, tuple)) else [r])]
            region = self.union(*parts) if len(parts) > 1 else parts[0]
            return Preference(ConstraintKind.MUST_AVOID, region, None, within, None, 1.0, label,
                              {**meta, "argument_roles": ["region"] * len(parts)})
        if kind in ("prefer_near", "prefer_far"):
            ck = ConstraintKind.NEAR if kind == "prefer_near" else ConstraintKind.FAR
            out = []
            for r in refs:
                for e in (r if isinstance(r, (list, tuple)) else [r]):
                    scope = within
                    if scope is None and isinstance(e, Entity) and e.kind == "object" and \
                            self._room_id(e) is not None:
                        # officially a near/far preference on an object holds in its room
                        scope = self.room_region(self.room_of(e))
                    out.append(Preference(ck, self._reference(e, kind) if isinstance(e, Entity)
                                          else self._mask_of(e, kind), None, scope, None, 1.0,
                                          label, {**meta, "argument_roles": ["reference"]}))
            return out[0] if len(out) == 1 else out
        # prefer_relative: (closer, other) or (first, relation, second)
        if len(refs) == 3 and isinstance(refs[1], str):
            first, relation, second = refs[0], _relation(refs[1]), refs[2]
        elif len(refs) == 2:
            first, relation, second = refs[0], "closer_to", refs[1]
        else:
            raise issue("bad_constraint", "prefer_relative takes (a, b) or (a, relation, b)")
        a, b = self._one(first, "first"), self._one(second, "second")
        if within is None and self._room_id(a) is not None:
            if self._room_id(a) != self._room_id(b):
                raise issue("bad_scope", "prefer_relative's references lie in different rooms")
            within = self.room_region(self.room_of(a))
        closer, farther = (a, b) if relation == "closer_to" else (b, a)
        roles = ["closer_ref", "farther_ref"] if relation == "closer_to" else \
            ["farther_ref", "closer_ref"]
        return Preference(ConstraintKind.RELATIVE, self._reference(closer, kind),
                          self._reference(farther, kind), within, None, 1.0, label,
                          {**meta, "relation": relation, "argument_roles": roles})

    def _official_segment(self, seg_id: Any, start: Any, target: Any, constraints: Any) -> Segment:
        """``segment(id, start, target, constraints)``: waypoints from the visit clauses in
        order, a path shape from ``prefer_path_shape``, the rest kept for ``task``."""
        if not isinstance(seg_id, str) or not seg_id:
            raise issue("type_error", f"segment id must be a non-empty string, got {seg_id!r}")
        if target is None:
            raise issue("type_error", f"segment {seg_id!r} needs a target")
        area = self._mask_of(target, "target")
        flat: list[Any] = []
        for c in constraints if isinstance(constraints, (list, tuple)) else (constraints,) \
                if constraints else ():
            flat.extend(c if isinstance(c, (list, tuple)) else [c])
        waypoints: list[Area] = []
        shape: Shape | None = None
        clauses: list[Preference] = []
        for i, c in enumerate(flat):
            if not isinstance(c, (Visit, Preference)):
                raise issue("type_error", f"segment {seg_id!r}'s constraints must come from "
                                          f"constraint(...), got {c!r}")
            meta = {**c._meta, "constraint_id": c._meta.get("constraint_id") or f"{seg_id}_c{i}"}
            if meta.get("segment_scope") is None:
                meta["segment_scope"] = [seg_id]
            if isinstance(c, Visit):
                marked = [Area(w._mask, w._label, {**w._construction, "official": meta},
                               w._object_ids) for w in c._regions]
                waypoints += marked
                if c._shape is not None and shape is None:
                    shape = Shape(tuple(marked), Area(c._shape._path._mask, c._shape._label,
                                                      {**c._shape._path._construction,
                                                       "official": meta}), c._shape._label)
            else:
                clauses.append(Preference(c._kind, c._region, c._other, c._within, None,
                                          c._weight, c._label, meta))
        seg = Segment(area, tuple(waypoints), shape, area._label, seg_id=seg_id, start=start,
                      ref=target, clauses=tuple(clauses))
        self._last_target = area
        self._arrival = self._arrive(self._arrival or self._start, (*waypoints, area))
        self._context = None
        return seg

    def _official_task(self, segs: tuple[Any, ...], extra: tuple[Any, ...],
                       bindings: dict[str, Any]) -> Task:
        """``task(segments, bindings)``: each segment's constraints, scoped by segment id."""
        for s in segs:
            if not isinstance(s, Segment):
                raise issue("type_error", f"task's segments must come from segment(...), got {s!r}")
        by_id: dict[str, Segment] = {}
        for i, s in enumerate(segs):
            sid = s._id or f"s{i + 1}"
            if sid in by_id:
                raise issue("bad_scope", f"two segments share the id {sid!r}")
            by_id[sid] = s
        prefs: list[Preference] = [p for p in extra if isinstance(p, Preference)]
        for s in segs:
            for p in s._clauses:
                ids = p._meta.get("segment_scope") or []
                missing = [i for i in ids if i not in by_id]
                if missing:
                    raise issue("bad_scope", f"constraint {p._meta.get('constraint_id')!r} is "
                                             f"scoped to unknown segment(s) {missing}",
                                sorted(by_id))
                during = tuple(by_id[i] for i in ids) or None
                prefs.append(Preference(p._kind, p._region, p._other, p._within, during,
                                        p._weight, p._label, p._meta))
        if self.result is not None:
            raise issue("task_twice", "task(...) was called twice; build one task")
        meta = {"schema_version": 2,
                "segments": [{"id": sid, "start": self._describe(s._start)}
                             for sid, s in by_id.items()],
                "bindings": {str(k): self._describe(v) for k, v in bindings.items()}}
        self.result = Task(tuple(segs), tuple(prefs), meta)
        return self.result

    def _describe(self, v: Any) -> Any:
        """A binding or start as plain JSON in the official ref shape (``kind``, ``id``,
        ``category``), with our key under ``map2route_ref``; areas as region refs."""
        if isinstance(v, Entity):
            kind = {"room": "room", "place": "position"}.get(v.kind, "entity")
            return {"kind": kind, "id": "task_start" if v.kind == "place" else v._key,
                    "category": v.category, "map2route_ref": v.ref}
        if isinstance(v, Area):
            return {"kind": "region", "id": v._label, "construction": v._construction}
        if isinstance(v, Segment):
            return {"kind": "segment", "id": v._id or v._label}
        if isinstance(v, (list, tuple)):
            return [self._describe(x) for x in v]
        if v is None or isinstance(v, (str, int, float, bool)):
            return encode(v)
        return repr(v)
