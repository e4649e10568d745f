"""The verbs a grounding program builds its route with: regions, waypoints, shapes, segments,
constraints and the task.

Categories 5-6 of the six in paper 000 (IV-A). A Path-Shape verb (``circle``, ``follow_wall``)
snaps its waypoints to free space and walks through them with
:func:`map2route.gridsearch.walk.comfortable_walk`, the walk the benchmark's tau_ref is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

from map2route.errors import Map2RouteError
from map2route.grounding.handles import (
    Area,
    Entity,
    Preference,
    Segment,
    Shape,
    Task,
    exposed,
    issue,
)
from map2route.grounding.map_view import MapView
from map2route.routeir.model import ConstraintKind
from map2route.semantic_map import geometry
from map2route.semantic_map.model import GOAL_REGION_MARGIN_M

#: Path-Shape reference: "walk" is how a person walks through the snapped waypoints, short
#: but clear of furniture (:func:`map2route.gridsearch.walk.comfortable_walk`, the same walk the
#: benchmark's tau_ref is); "polyline" joins them with straight chords; "clearance" bends each
#: chord away from furniture (see ``RouteVerbs._clear_polyline``).
SHAPE_REFERENCE = "walk"
#: How far a reference sample may slide off its chord, and the clearance it seeks (metres).
SHAPE_SLIDE_M = 0.4
SHAPE_CLEAR_M = 0.6
#: Radius of each grounded shape waypoint region (metres). Wider than an episode's 0.25 m on
#: purpose: 0.25 m was measured to lower HCS (docs/grounding.md, "Path-Shape gap").
GROUNDED_WAYPOINT_RADIUS_M = 0.35


class RouteVerbs(MapView):
    """Verbs of categories region and route."""

    # === 5. region and waypoint construction =============================================
    @exposed("region")
    def region_of(self, item: Any) -> Area:
        """The goal region of an entity: for an object G = cells of its room within r + 1 m of
        its centre (paper 000); for a room its cells; for a window or door the cells within 1 m."""
        if isinstance(item, Area):
            return item
        e = self._one(item, "item")
        if e.kind == "object":
            o = self._objects[e._key]
            # G_O of paper 000 (SemanticMap.goal_region_mask), computed in a window around O
            goal = self._disk(o.center, o.radius_m + GOAL_REGION_MARGIN_M)
            if o.room_id is not None:
                goal &= self._room_mask(o.room_id)
            rec: dict[str, Any] = {"op": "goal_region", "object": o.id}
            margin = GOAL_REGION_MARGIN_M
            while not (goal & self._m.traversable).any() and margin < GOAL_REGION_MARGIN_M + 2.0:
                # a small object deep on a large receptacle (a coffee machine at the back of a
                # counter): G_O has no free cell, so widen it until the robot can stop beside
                # the receptacle; the construction records the margin used
                margin += 0.25
                goal = self._disk(o.center, o.radius_m + margin)
                if o.room_id is not None:
                    goal &= self._room_mask(o.room_id)
                rec["margin_m"] = margin
            return Area(goal, e.label, rec, (o.id,))
        if e.kind == "room":
            return self.room_region(e)
        if e.kind in ("window", "door"):
            mask = self._disk(self._center(e), 1.0)
            rid = self._room_id(e)
            if rid is not None:
                mask &= self._room_mask(rid)
            return Area(mask, e.label, {"op": f"{e.kind}_region", e.kind: e._key}, (e._key,))
        return Area(self._disk(self._center(e), 0.5), e.label, {"op": "start_region"})

    @exposed("region")
    def room_region(self, room: Entity) -> Area:
        """All cells of a room."""
        r = self._one(room, "room")
        if r.kind != "room":
            raise issue("type_error", f"room_region needs a room, got {r!r}")
        return Area(self._room_mask(int(r._key)), r.label, {"op": "room", "room": int(r._key)})

    @exposed("region")
    def near_region(self, ref: Entity, radius_m: float = 1.0) -> Area:
        """Cells within ``radius_m`` of the edge of ``ref`` (its footprint radius plus ``radius_m``)."""
        e = self._one(ref, "ref")
        extra = self._objects[e._key].radius_m if e.kind == "object" else 0.0
        mask = self._disk(self._center(e), extra + radius_m)
        return Area(mask, f"near {e.label}", {"op": "near", "ref": e.ref, "radius_m": radius_m},
                    (e._key,))

    @exposed("region")
    def between_region(self, a: Entity, b: Entity, width_m: float = 1.0) -> Area:
        """Cells within ``width_m / 2`` of the straight segment joining the centres of a and b."""
        ea, eb = self._one(a, "a"), self._one(b, "b")
        (ax, ay), (bx, by) = self._center(ea), self._center(eb)
        xx, yy = self._m.grid.cell_centres()
        dx, dy = bx - ax, by - ay
        n2 = max(dx * dx + dy * dy, 1e-9)
        t = np.clip(((xx - ax) * dx + (yy - ay) * dy) / n2, 0.0, 1.0)
        d = np.hypot(xx - (ax + t * dx), yy - (ay + t * dy))
        mask = (d <= width_m / 2) & (t > 0.0) & (t < 1.0)
        return Area(mask, f"between {ea.label} and {eb.label}",
                    {"op": "between", "a": ea.ref, "b": eb.ref, "width_m": width_m},
                    (ea._key, eb._key))

    # --- geometry targets (issue 19): a point between things, a room's corner --------------
    @exposed("region")
    def midpoint_region(self, items: Any, radius_m: float = 0.5) -> Area:
        """Free cells within ``radius_m`` of the mean of the centres of ``items`` (two or more
        entities): "the midpoint between the fridge and the stove", "the centre of the chairs"."""
        ents = self._as_list(items, "items")
        if len(ents) < 2:
            raise issue("type_error", "midpoint_region needs two or more entities")
        xs, ys = zip(*(self._center(e) for e in ents), strict=True)
        center = (float(np.mean(xs)), float(np.mean(ys)))
        disk = self._disk(center, radius_m)
        free = disk & np.asarray(self._m.traversable, dtype=bool)
        label = "the midpoint of " + ", ".join(e.label for e in ents)
        return Area(free if free.any() else disk, label,
                    {"op": "midpoint", "refs": [e.ref for e in ents], "radius_m": radius_m},
                    tuple(e._key for e in ents))

    @exposed("region")
    def corner_region(self, room: Entity, away_from: Entity | None = None,
                      near: Entity | None = None, radius_m: float = 0.75) -> Area:
        """Free cells of ``room`` within ``radius_m`` of one of its four corners (the room's
        extreme cells along the diagonals): the one farthest from ``away_from`` or nearest to
        ``near``; one of them must be given."""
        r = self._one(room, "room")
        if r.kind != "room":
            raise issue("type_error", f"corner_region needs a room, got {r.label}")
        if (away_from is None) == (near is None):
            raise issue("ambiguous_reference", "a room has four corners; say which, e.g. "
                         "corner_region(room, away_from=door) or near=...")
        inside = (np.asarray(self._m.room_ids) == int(r._key)) & \
            np.asarray(self._m.traversable, dtype=bool)
        if not inside.any():
            raise issue("empty_selection", f"{r.label} has no free cells")
        xx, yy = self._m.grid.cell_centres()
        px, py = xx[inside], yy[inside]
        corners = []
        for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            k = int(np.argmax(sx * px + sy * py))
            corners.append((float(px[k]), float(py[k])))
        anchor = self._center(self._one(away_from if away_from is not None else near,
                                        "anchor"))
        dists = [math.hypot(x - anchor[0], y - anchor[1]) for x, y in corners]
        pick = corners[int(np.argmax(dists) if away_from is not None else np.argmin(dists))]
        mask = self._disk(pick, radius_m) & inside
        return Area(mask, f"a corner of {r.label}",
                    {"op": "corner", "room": r.ref, "radius_m": radius_m}, ())

    @exposed("region")
    def centre_region(self, room: Entity, radius_m: float = 0.75) -> Area:
        """Free cells of ``room`` within ``radius_m`` of its centre (the middle of the free
        cell nearest the room's centroid when that is blocked): "the middle of the largest
        bedroom"."""
        r = self._one(room, "room")
        if r.kind != "room":
            raise issue("type_error", f"centre_region needs a room, got {r.label}")
        inside = (np.asarray(self._m.room_ids) == int(r._key)) & \
            np.asarray(self._m.traversable, dtype=bool)
        if not inside.any():
            raise issue("empty_selection", f"{r.label} has no free cells")
        cx, cy = self._center(r)
        xx, yy = self._m.grid.cell_centres()
        mask = self._disk((cx, cy), radius_m) & inside
        if not mask.any():
            d = np.where(inside, np.hypot(xx - cx, yy - cy), np.inf)
            k = np.unravel_index(int(np.argmin(d)), d.shape)
            mask = self._disk((float(xx[k]), float(yy[k])), radius_m) & inside
        return Area(mask, f"the middle of {r.label}",
                    {"op": "centre", "room": r.ref, "radius_m": radius_m}, ())

    @exposed("region")
    def side_region(self, ref: Entity, toward: Entity, depth_m: float = 1.5) -> Area:
        """The half-disk of radius ``depth_m`` beyond ``ref``'s edge on the side facing ``toward``."""
        e, t = self._one(ref, "ref"), self._one(toward, "toward")
        (cx, cy), (tx, ty) = self._center(e), self._center(t)
        extra = self._objects[e._key].radius_m if e.kind == "object" else 0.0
        xx, yy = self._m.grid.cell_centres()
        facing = (xx - cx) * (tx - cx) + (yy - cy) * (ty - cy) > 0
        mask = self._disk((cx, cy), extra + depth_m) & facing
        return Area(mask, f"the side of {e.label} facing {t.label}",
                    {"op": "side", "ref": e.ref, "toward": t.ref}, (e._key,))

    @exposed("region")
    def half_room(self, room: Entity, toward: Entity) -> Area:
        """The half of a room (split through its centroid) that faces ``toward``."""
        r, t = self._one(room, "room"), self._one(toward, "toward")
        (cx, cy), (tx, ty) = self._center(r), self._center(t)
        xx, yy = self._m.grid.cell_centres()
        mask = self.room_region(r)._mask & ((xx - cx) * (tx - cx) + (yy - cy) * (ty - cy) > 0)
        return Area(mask, f"the half of {r.label} toward {t.label}",
                    {"op": "half_room", "room": r.ref, "toward": t.ref})

    @exposed("region")
    def boundary_region(self, room: Entity, width_m: float = 0.8) -> Area:
        """The band of a room's cells within ``width_m`` of its outline (along the walls)."""
        r = self._one(room, "room")
        inside = self.room_region(r)._mask
        dist = self._m.grid.cells_to_meters(geometry.l2_cells(inside))
        mask = inside & (dist <= width_m)
        return Area(mask, f"along the walls of {r.label}",
                    {"op": "boundary", "room": r.ref, "width_m": width_m})

    def _ring_points(self, center: tuple[float, float], radius: float, start_angle: float,
                     ccw: bool, n: int) -> list[tuple[float, float]]:
        sign = 1.0 if ccw else -1.0
        return [(center[0] + radius * math.cos(start_angle + sign * 2 * math.pi * i / n),
                 center[1] + radius * math.sin(start_angle + sign * 2 * math.pi * i / n))
                for i in range(n + 1)]

    def _shape(self, pts: list[tuple[float, float]], label: str, op: dict[str, Any]) -> Shape:
        """Waypoints snapped to free space, and the reference path through them.

        The path joins the snapped waypoint centres (not the ideal ring), keeping only free
        cells, so the Path-Shape preference pulls the route along where it can drive.
        """
        wps = self._waypoint_areas(pts, label)
        centres = []
        for w in wps:
            rr, cc = np.nonzero(w._mask)
            centres.append(self._m.grid.cell_to_world(float(rr.mean()), float(cc.mean()))
                           if rr.size else None)
        path_pts = [c if c is not None else p for c, p in zip(centres, pts, strict=True)]
        if SHAPE_REFERENCE == "walk":
            walked = self._walk_area(wps, path_pts, label, op)
            if walked is not None:
                return Shape(wps, walked, label)
        if SHAPE_REFERENCE == "clearance":
            path_pts = self._clear_polyline(path_pts)
        path = self._path_area(path_pts, label, op)
        free = path._mask & self._m.traversable
        if free.any():
            path = Area(free, path._label, path._construction)
        return Shape(wps, path, label)

    def _walk_area(self, wps: tuple[Area, ...], pts: list[tuple[float, float]], label: str,
                   op: dict[str, Any]) -> Area | None:
        """The comfortable walk through the waypoints' free cells nearest ``pts``, as an area;
        ``None`` when a waypoint has no free cell or the walk is cut (the polyline serves)."""
        # Imported here for start-up time: the numba search kernel (about a second with
        # scipy) loads in the grounding process and the sandbox worker only when a program
        # builds a shape.
        from map2route.gridsearch.walk import clearance_m, comfortable_walk  # noqa: PLC0415 - see the comment above

        g = self._m.grid
        cells: list[tuple[int, int]] = []
        for w, (x, y) in zip(wps, pts, strict=True):
            rr, cc = np.nonzero(w._mask & self._m.traversable)
            if rr.size == 0:
                return None
            r, c = g.world_to_cell(x, y)
            k = int(np.argmin((rr - r) ** 2 + (cc - c) ** 2))
            cells.append((int(rr[k]), int(cc[k])))
        if self._walk_clearance is None:
            self._walk_clearance = clearance_m(self._m.traversable, g.resolution)
        try:
            walk = comfortable_walk(self._m.traversable, g.resolution, cells,
                                    clearance=self._walk_clearance)
        except Map2RouteError:
            return None
        mask = np.zeros(g.shape, dtype=bool)
        mask[walk[:, 0], walk[:, 1]] = True
        return Area(mask, label, {**op, "points": [[round(x, 3), round(y, 3)] for x, y in pts],
                                  "reference": "walk"})

    def _clear_polyline(self, pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
        """The waypoint polyline bent away from furniture, as a person would walk it.

        Each chord is sampled every grid cell; a sample slides along the chord's normal (at
        most ``SHAPE_SLIDE_M``) to where the clearance, capped at ``SHAPE_CLEAR_M``, is
        largest, the smallest slide winning ties. This imitates a clearance-aware reference
        path without running the planner's search (grounding stays upstream of planning).
        """
        clear = self._clearance_field()
        g = self._m.grid
        step = g.resolution
        offsets = np.arange(-SHAPE_SLIDE_M, SHAPE_SLIDE_M + 1e-9, step)
        order = np.argsort(np.abs(offsets), kind="stable")
        out: list[tuple[float, float]] = [pts[0]]
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            ax, ay = a
            dx, dy = b[0] - ax, b[1] - ay
            length = math.hypot(dx, dy)
            if length < 1e-6:
                continue
            nx, ny = -dy / length, dx / length
            n = max(1, int(length / step))
            for t in np.linspace(0.0, 1.0, n + 1)[1:-1]:
                cx, cy = ax + t * dx, ay + t * dy
                cand = np.stack([cx + offsets[order] * nx, cy + offsets[order] * ny], axis=1)
                cells = g.worlds_to_cells(cand)
                ok = g.contains_cells(cells)
                if not ok.any():
                    out.append((cx, cy))
                    continue
                vals = np.full(len(cand), -1.0)
                vals[ok] = np.minimum(clear[cells[ok, 0], cells[ok, 1]], SHAPE_CLEAR_M)
                k = int(np.argmax(vals))  # first maximum = smallest slide (sorted by |offset|)
                out.append((float(cand[k, 0]), float(cand[k, 1])))
            out.append(b)
        return out

    def _path_area(self, pts: list[tuple[float, float]], label: str, op: dict[str, Any]) -> Area:
        return Area(geometry.polyline_mask(self._m.grid, pts), label, {**op, "points": [[round(x, 3), round(y, 3)]
                                                               for x, y in pts]})

    def _waypoint_areas(self, pts: list[tuple[float, float]], label: str) -> tuple[Area, ...]:
        out = []
        free = np.argwhere(self._m.traversable)
        for i, p in enumerate(pts):
            mask = self._disk(p, GROUNDED_WAYPOINT_RADIUS_M) & self._m.traversable
            if not mask.any() and free.size:
                # the ring point lies in a wall or furniture: use the nearest free cell instead
                r, c = self._m.grid.world_to_cell(*p)
                k = int(np.argmin((free[:, 0] - r) ** 2 + (free[:, 1] - c) ** 2))
                q = self._m.grid.cell_to_world(int(free[k, 0]), int(free[k, 1]))
                mask = self._disk(q, GROUNDED_WAYPOINT_RADIUS_M) & self._m.traversable
            out.append(Area(mask, f"{label} waypoint {i + 1}", {"op": "waypoint", "index": i}))
        return tuple(out)

    def _from_here(self) -> tuple[float, float] | None:
        # Where the robot will be: a shape starts on the side it arrives from.
        if self._arrival is not None:
            return self._arrival
        if self._last_target is not None and self._last_target._mask.any():
            rows, cols = np.nonzero(self._last_target._mask)
            return self._m.grid.cell_to_world(float(rows.mean()), float(cols.mean()))
        return self._start

    @exposed("region")
    def circle(self, ref: Entity, direction: str = "counterclockwise", clearance_m: float = 0.5,
               laps: int = 1) -> Shape:
        """A loop around an object: 8 waypoints per lap on a ring ``clearance_m`` beyond its edge.

        ``direction`` is ``"clockwise"`` or ``"counterclockwise"``; the loop starts and ends on
        the side facing where the robot comes from. Pass it to ``segment(shape=...)``.
        """
        e = self._one(ref, "ref")
        if direction not in ("clockwise", "counterclockwise"):
            raise issue("type_error", f"direction must be 'clockwise' or 'counterclockwise', "
                                       f"got {direction!r}")
        if not 1 <= int(laps) <= 3:
            raise issue("type_error", f"laps must be 1, 2 or 3, got {laps!r}")
        c = self._center(e)
        radius = (self._objects[e._key].radius_m if e.kind == "object" else 0.5) + clearance_m
        here = self._from_here()
        start = math.atan2(here[1] - c[1], here[0] - c[0]) if here is not None else 0.0
        # one waypoint every 45 degrees keeps the loop round (4 would let it cut corners)
        pts = self._ring_points(c, radius, start, direction == "counterclockwise", 8 * int(laps))
        label = f"circle {e.label} {direction}"
        return self._shape(pts, label, {"op": "circle", "ref": e.ref, "direction": direction})

    @exposed("region")
    def follow_wall(self, room: Entity, direction: str = "counterclockwise",
                    offset_m: float = 0.6) -> Shape:
        """A patrol along a room's walls: its corners inset by ``offset_m``, in order, back to the first."""
        r = self._one(room, "room")
        if r.kind != "room":
            raise issue("type_error", f"follow_wall needs a room, got {r!r}")
        poly = Polygon(self._rooms[int(r._key)].polygon).buffer(-offset_m, join_style=2)
        if poly.is_empty or poly.geom_type != "Polygon":
            raise issue("no_referent", f"{r.label} is too small to follow its walls at {offset_m} m")
        ring = list(orient(poly, sign=1.0 if direction == "counterclockwise" else -1.0)
                    .exterior.coords)[:-1]
        here = self._from_here()
        if here is not None:
            first = min(range(len(ring)), key=lambda i: math.hypot(ring[i][0] - here[0],
                                                                   ring[i][1] - here[1]))
            ring = ring[first:] + ring[:first]
        pts = [(float(x), float(y)) for x, y in ring] + [(float(ring[0][0]), float(ring[0][1]))]
        label = f"follow the walls of {r.label}"
        return self._shape(pts, label, {"op": "follow_wall", "room": r.ref,
                                        "direction": direction})

    # === 6. route construction ============================================================
    @exposed("route")
    def segment(self, target: Any = None, via: Sequence[Any] = (), shape: Shape | None = None,
                label: str = "") -> Segment:
        """One leg of the route, ending in ``target`` (an entity's goal region, a room or an area).

        ``via`` are regions to pass in order first; ``shape`` (from circle/follow_wall) adds its
        ordered waypoints and, when ``target`` is None, ends where the shape ends.
        """
        if shape is not None and not isinstance(shape, Shape):
            raise issue("type_error", f"shape must come from circle(...) or follow_wall(...), got {shape!r}")
        waypoints = tuple(self._mask_of(v, "via") for v in via)
        if target is None:
            if shape is None:
                raise issue("type_error", "segment needs a target or a shape")
            area = shape._waypoints[-1]
            waypoints += shape._waypoints[:-1]
        else:
            area = self._mask_of(target, "target")
            if shape is not None:
                waypoints += shape._waypoints
        seg = Segment(area, waypoints, shape, label or area._label)
        self._last_target = area
        self._arrival = self._arrive(self._arrival or self._start, (*waypoints, area))
        return seg

    def _arrive(self, here: tuple[float, float] | None,
                areas: Sequence[Area]) -> tuple[float, float] | None:
        """Where a leg from ``here`` through ``areas`` (in order) first reaches the last one:
        each area entered at its free cell nearest the previous point (straight-line estimate;
        grounding does not plan)."""
        if here is None:
            return None
        g = self._m.grid
        for a in areas:
            rr, cc = np.nonzero(a._mask & self._m.traversable)
            if rr.size == 0:
                continue
            xy = g.cells_to_worlds(np.stack([rr, cc], axis=1))
            k = int(np.argmin((xy[:, 0] - here[0]) ** 2 + (xy[:, 1] - here[1]) ** 2))
            here = (float(xy[k, 0]), float(xy[k, 1]))
        return here

    @exposed("route")
    def constraint(self, kind: str, ref: Any, other: Any = None, within: Any = None,
                   during: Any = None, weight: float = 1.0, label: str = "") -> Preference:
        """A route requirement: ``kind`` is ``"avoid"`` (hard), ``"near"``, ``"far"``,
        ``"relative"`` (stay closer to ``ref`` than to ``other``) or ``"clearance"``.

        ``within`` (a room or area) is the spatial scope; ``during`` (a segment or list of
        segments of the task; None entries are ignored) is the temporal scope; both default to
        everywhere / always.
        """
        kinds = {"avoid": ConstraintKind.MUST_AVOID, "must_avoid": ConstraintKind.MUST_AVOID,
                 "near": ConstraintKind.NEAR, "far": ConstraintKind.FAR,
                 "relative": ConstraintKind.RELATIVE, "clearance": ConstraintKind.CLEARANCE}
        if kind not in kinds:
            raise issue("bad_constraint", f"unknown constraint kind {kind!r}", sorted(kinds))
        ck = kinds[kind]
        if ck is ConstraintKind.MUST_AVOID:
            ents = ref if isinstance(ref, (list, tuple)) else [ref]
            if ents and all(isinstance(e, Entity) for e in ents):
                ref = self.union(*[self.avoid_region(e) for e in ents])
            region = self._mask_of(ref, "avoid's ref")
        elif ck is ConstraintKind.CLEARANCE:
            region = Area(np.zeros(self._m.grid.shape, dtype=bool), "obstacles", {"op": "clearance"})
        else:
            region = self._reference(ref, f"{kind}'s ref")
        oth = None
        if ck is ConstraintKind.RELATIVE:
            if other is None:
                raise issue("bad_constraint", "a relative constraint needs other= (the reference "
                                               "to stay farther from)")
            oth = self._reference(other, "relative's other")
        elif other is not None:
            raise issue("bad_constraint", f"only relative constraints take other=, not {kind!r}")
        scope = None if within is None else self._mask_of(within, "within")
        segs: tuple[Segment, ...] | None = None
        if during is not None:
            # a None stands for a leg of the branch of an if that was not taken
            segs = tuple(x for x in (during if isinstance(during, (list, tuple)) else (during,))
                         if x is not None) or None
            for s in segs or ():
                if not isinstance(s, Segment):
                    raise issue("bad_scope", f"during= takes segments, got {s!r}")
        if not isinstance(weight, (int, float)) or not 0 < weight <= 10:
            raise issue("bad_constraint", f"weight must be in (0, 10], got {weight!r}")
        return Preference(ck, region, oth, scope, segs, float(weight),
                          label or (region._label if oth is None else
                                    f"closer to {region._label} than {oth._label}"))

    @exposed("route")
    def avoid(self, ref: Any, during: Any = None, label: str = "") -> Preference:
        """Shorthand for ``constraint("avoid", ref, ...)``: the route must not enter ``ref``.

        For an object the forbidden cells are those within ``r_O + 0.3`` m of its centre; for a
        room, its cells.
        """
        if isinstance(ref, (list, tuple)) and ref and all(isinstance(e, Entity) for e in ref):
            ref = self.union(*[self.avoid_region(e) for e in ref])
        elif isinstance(ref, Entity):
            ref = self.avoid_region(ref)
        return self.constraint("avoid", ref, during=during, label=label)

    def avoid_region(self, e: Entity) -> Area:
        """What "avoid X" forbids: a room's cells, or the disk of radius r_O + 0.3 m around an object."""
        if e.kind == "room":
            return self.room_region(e)
        if e.kind == "object":
            return self.near_region(e, self.AVOID_MARGIN_M)
        return self.region_of(e)

    @exposed("route")
    def task(self, segments: Sequence[Segment], constraints: Sequence[Preference] = ()) -> Task:
        """Finish the program: the ordered segments and the constraints. Call it exactly once."""
        segs = tuple(segments) if isinstance(segments, (list, tuple)) else (segments,)
        if not segs:
            raise issue("no_segments", "task(...) needs at least one segment (the destination)")
        for s in segs:
            if not isinstance(s, Segment):
                raise issue("type_error", f"task's segments must come from segment(...), got {s!r}")
        prefs = tuple(constraints)
        for p in prefs:
            if not isinstance(p, Preference):
                raise issue("type_error", f"task's constraints must come from constraint(...), got {p!r}")
        if self.result is not None:
            raise issue("task_twice", "task(...) was called twice; build one task")
        self.result = Task(segs, prefs)
        return self.result
