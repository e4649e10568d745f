"""The verbs a grounding program asks the map with: scene queries, selection, ranking, logic.

Categories 1-4 of the six in paper 000 (IV-A); each verb's docstring is its entry in the
prompt's API section (:func:`map2route.grounding.api.api_reference`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from map2route.grounding.handles import Area, Entity, EntityLike, Predicate, exposed, issue
from map2route.grounding.map_view import CORNER_M, FAR_M, NEAR_M, NEXT_TO_GAP_M, MapView
from map2route.grounding.vocabulary import ROOM_WORDS
from map2route.semantic_map.model import RoomType

#: How much longer than the least detour a walk past an item may be for the item to count as
#: passed on the way (:meth:`QueryVerbs.kth_along_route`).
PASS_SLACK_M = 1.0


def _metres(value: Any, name: str) -> float:
    """``value`` as a distance in metres, or an issue naming ``name`` (NaN, inf, negative or not a
    number would make every comparison false or true and silently change the selection)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < 0:
        raise issue("type_error", f"{name} must be a finite number of metres >= 0, got {value!r}")
    return float(value)


class QueryVerbs(MapView):
    """Verbs of categories scene, selection, ranking and logic."""

    # === 1. scene and room queries ======================================================
    @exposed("scene")
    def entities(self, category: str | None = None, room: Entity | None = None) -> list[Entity]:
        """All objects of a category (any category when None), optionally only those in ``room``.

        ``category`` is a benchmark category (``"chair"``, ``"dining_table"``), a synonym
        (``"couch"``) or a group word (``"table"``, ``"lamp"``); ``"window"`` and ``"door"``
        return the map's windows and doors. Returns a list (possibly empty).
        """
        if category is None:
            out = [self.entity(f"o:{o.id}") for o in self._m.objects]
        else:
            cats = self._categories(category)
            out = [self.entity(f"o:{o.id}") for o in self._m.objects if o.category in cats
                   and not (o.category == "window" and self._windows)]
            if "window" in cats:
                # a map lists windows as Window entries; window objects only stand in without them
                out += [self.entity(f"w:{w}") for w in self._windows]
            if "door" in cats:
                out += [self.entity(f"d:{d}") for d in self._doors]
        if room is not None:
            out = self.in_room(out, room)
        return out

    @exposed("scene")
    def rooms(self, room_type: str | None = None) -> list[Entity]:
        """All rooms, or those of one type (``"bedroom"``, ``"kitchen"``, ``"living_room"``, ``"bathroom"``)."""
        if room_type is None:
            return [self.entity(f"r:{r.id}") for r in self._m.rooms]
        key = room_type.strip().lower().replace("_", " ")
        rt = ROOM_WORDS.get(key)
        if rt is None:
            raise issue("unknown_room_type", f"{room_type!r} is not a room type",
                         [t.snake for t in RoomType])
        return [self.entity(f"r:{r.id}") for r in self._m.rooms if r.type is rt]

    @exposed("scene")
    def start_room(self) -> Entity:
        """The room the robot starts in (error if the start lies outside every room)."""
        if self._start is None:
            raise issue("no_start", "the program asks for the start room, but no start was given")
        r = self._m.room_at(*self._start)
        if r is None:
            raise issue("no_start_room", "the start point lies outside every room")
        return self.entity(f"r:{r.id}")

    @exposed("scene")
    def start_place(self) -> Entity:
        """The robot's start place, usable as a reference for distances ("from where you are")."""
        return self.entity("p:start")

    @exposed("scene")
    def in_room(self, items: EntityLike, room: EntityLike) -> list[Entity]:
        """The entities of ``items`` that lie in ``room`` (or in any room of a list of rooms)."""
        ids = {int(r._key) for r in self._as_list(room, "room") if r.kind == "room"}
        return [e for e in self._as_list(items, "items") if self._room_id(e) in ids]

    @exposed("scene")
    def room_of(self, item: Entity) -> Entity:
        """The room that holds an object, window or the start place."""
        rid = self._room_id(self._one(item, "room_of's argument"))
        if rid is None:
            raise issue("no_room", f"{item!r} is in no room")
        return self.entity(f"r:{rid}")

    @exposed("scene")
    def contains(self, container: Entity, category: str) -> bool:
        """Whether a room holds an object of ``category``, or a receptacle holds one on/in it.

        For rooms, ``"window"`` counts the room's windows.
        """
        return self.count_in(container, category) > 0

    @exposed("scene")
    def count_in(self, container: Entity, category: str) -> int:
        """How many objects of ``category`` a room holds (windows/doors for those words), or a receptacle supports."""
        c = self._one(container, "container")
        cats = self._categories(category)
        if c.kind == "room":
            rid = int(c._key)
            n = sum(1 for o in self._m.objects if o.room_id == rid and o.category in cats
                    and not (o.category == "window" and self._windows))
            if "window" in cats:
                n += len(self._m.windows_of(rid))
            if "door" in cats:
                n += sum(1 for d in self._m.doors if rid in d.room_ids)
            return n
        if c.kind == "object":
            return len([o for o in self.objects_on(c) if o.category in cats])
        return 0

    @exposed("scene")
    def objects_on(self, receptacle: Entity, category: str | None = None) -> list[Entity]:
        """Objects standing on or inside a receptacle (``category`` filters them)."""
        r = self._one(receptacle, "receptacle")
        if r.kind != "object":
            return []
        out = [self.entity(f"o:{i}") for i in self._children().get(r._key, ())]
        if category is not None:
            cats = self._categories(category)
            out = [e for e in out if e.category in cats]
        return out

    @exposed("scene")
    def receptacle_of(self, item: Entity) -> Entity | None:
        """The object ``item`` stands on or in, or None."""
        e = self._one(item, "item")
        if e.kind != "object":
            return None
        for o in self._m.objects:
            if self._on(e._key, o.id):
                return self.entity(f"o:{o.id}")
        return None

    @exposed("scene")
    def adjacent_rooms(self, room: Entity) -> list[Entity]:
        """Rooms joined to ``room`` by a door."""
        r = self._one(room, "room")
        if r.kind != "room":
            raise issue("type_error", f"adjacent_rooms needs a room, got {r!r}")
        return [self.entity(f"r:{i}") for i in sorted(self._m.room_adjacency.get(int(r._key), ()))]

    @exposed("scene")
    def passage_regions(self, room_a: Entity, room_b: Entity | None = None) -> list[Area]:
        """The doorway areas of ``room_a`` (only those into ``room_b`` when given)."""
        a = int(self._one(room_a, "room_a")._key)
        b = None if room_b is None else int(self._one(room_b, "room_b")._key)
        out = []
        for d in self._m.doors:
            if a in d.room_ids and (b is None or b in d.room_ids):
                out.append(self.region_of(self.entity(f"d:{d.id}")))
        return out

    # === 2. selection and set operations =================================================
    @exposed("selection")
    def count(self, items: Sequence[Entity]) -> int:
        """How many entities a list holds."""
        return len(self._as_list(items, "items"))

    @exposed("selection")
    def count_near(self, items: Sequence[Entity], ref: Entity, radius_m: float = NEAR_M) -> int:
        """How many of ``items`` lie within ``radius_m`` metres of ``ref``."""
        r = self._one(ref, "ref")
        return sum(1 for e in self._as_list(items, "items") if e != r and self._dist(e, r) <= radius_m)

    @exposed("selection")
    def union(self, *parts: Any) -> Any:
        """Union of entity lists (order kept, no duplicates) or of areas (cells in any)."""
        if parts and all(isinstance(p, Area) for p in parts):
            mask = np.logical_or.reduce([p._mask for p in parts])
            ids = tuple(dict.fromkeys(i for p in parts for i in p._object_ids))
            return Area(mask, " or ".join(p._label for p in parts),
                        {"op": "union", "parts": [p._construction for p in parts]}, ids)
        seen: dict[Entity, None] = {}
        for p in parts:
            for e in self._as_list(p, "union's argument"):
                seen[e] = None
        return list(seen)

    @exposed("selection")
    def intersection(self, first: Any, *rest: Any) -> Any:
        """Entities in every list, or cells in every area."""
        if isinstance(first, Area):
            mask = first._mask.copy()
            for p in rest:
                mask &= self._mask_of(p, "intersection's argument")._mask
            return Area(mask, " and ".join([first._label] + [getattr(p, "label", "") for p in rest]),
                        {"op": "intersection"}, first._object_ids)
        keep = set(self._as_list(first, "first"))
        for p in rest:
            keep &= set(self._as_list(p, "intersection's argument"))
        return [e for e in self._as_list(first, "first") if e in keep]

    @exposed("selection")
    def exclude(self, items: Any, removed: Any) -> Any:
        """Entities of ``items`` not in ``removed``, or cells of an area not in another."""
        if isinstance(items, Area):
            other = self._mask_of(removed, "removed")
            return Area(items._mask & ~other._mask, f"{items._label} except {other._label}",
                        {"op": "exclude", "base": items._construction,
                         "removed": other._construction}, items._object_ids)
        drop = set(self._as_list(removed, "removed"))
        return [e for e in self._as_list(items, "items") if e not in drop]

    @exposed("selection")
    def unique(self, items: Any, description: str = "the reference") -> Entity:
        """The single entity of ``items``; an error listing the candidates if there are 0 or 2+.

        Use it for every definite description ("the bed"): the error tells the repair step
        which modifier is missing.
        """
        ents = self._as_list(items, "items")
        self._note("unique", description=description, candidates=ents)
        if len(ents) == 1:
            return ents[0]
        if not ents:
            raise issue("no_referent", f"{description!r} matches nothing in this map")
        raise issue("ambiguous_reference",
                     f"{description!r} matches {len(ents)} entities; add a modifier (room, "
                     "nearest to ..., ordinal) so it names one", [e.label for e in ents][:12])

    @exposed("selection")
    def choose_any(self, items: Any, description: str = "the reference") -> Entity:
        """Any one entity of ``items`` (the first in map order), for indefinite "a chair"; error if empty."""
        ents = self._as_list(items, "items")
        if not ents:
            raise issue("no_referent", f"{description!r} matches nothing in this map")
        return ents[0]

    @exposed("selection")
    def where(self, items: Any, *tests: Predicate) -> list[Entity]:
        """The entities of ``items`` that pass every predicate (near_to, on_top_of, has, ...)."""
        out = self._as_list(items, "items")
        for t in tests:
            if not isinstance(t, Predicate):
                raise issue("type_error", f"where(...) takes predicates such as near_to(x), got {t!r}")
            out = [e for e in out if t._test(e)]
        return out

    # === 3. ranking and spatial predicates ===============================================
    def _ranked(self, items: Any, key: Callable[[Entity], float], k: int, descending: bool,
                op: str, ref: Entity | None) -> Entity:
        ents = self._as_list(items, "items")
        if not isinstance(k, int) or k < 1:
            raise issue("type_error", f"k must be a positive integer (1 = first), got {k!r}")
        if ref is not None:
            ents = [e for e in ents if e != ref]
        if len(ents) < k:
            raise issue("no_referent", f"{op} needs at least {k} candidates, got {len(ents)}",
                         [e.label for e in ents])
        ordered = sorted(ents, key=lambda e: (-key(e) if descending else key(e), e.ref))
        self._note(op, items=ents, ref=ref, k=k, result=ordered[k - 1])
        return ordered[k - 1]

    @exposed("ranking")
    def kth_nearest(self, items: Any, ref: Entity, k: int = 1) -> Entity:
        """The k-th nearest (1 = nearest) of ``items`` to ``ref`` (``ref`` itself excluded)."""
        r = self._one(ref, "ref")
        return self._ranked(items, lambda e: self._dist(e, r), k, False, "kth_nearest", r)

    @exposed("ranking")
    def kth_farthest(self, items: Any, ref: Entity, k: int = 1) -> Entity:
        """The k-th farthest (1 = farthest) of ``items`` from ``ref``."""
        r = self._one(ref, "ref")
        return self._ranked(items, lambda e: self._dist(e, r), k, True, "kth_farthest", r)

    @exposed("ranking")
    def kth_largest(self, items: Any, k: int = 1) -> Entity:
        """The k-th largest by floor area (footprint for objects, area for rooms)."""
        return self._ranked(items, self._size, k, True, "kth_largest", None)

    @exposed("ranking")
    def kth_smallest(self, items: Any, k: int = 1) -> Entity:
        """The k-th smallest by floor area."""
        return self._ranked(items, self._size, k, False, "kth_smallest", None)

    @exposed("ranking")
    def order_by_distance(self, items: Any, ref: Entity, descending: bool = False) -> list[Entity]:
        """``items`` sorted by distance to ``ref`` (nearest first unless ``descending``)."""
        r = self._one(ref, "ref")
        ents = [e for e in self._as_list(items, "items") if e != r]
        return sorted(ents, key=lambda e: (-self._dist(e, r) if descending else self._dist(e, r),
                                           e.ref))

    @exposed("ranking")
    def distance(self, a: Entity, b: Entity) -> float:
        """Straight-line distance in metres (centres for objects, closest point for rooms/windows)."""
        return self._dist(self._one(a, "a"), self._one(b, "b"))

    @exposed("ranking")
    def geodesic_distance(self, a: Entity, b: Entity) -> float:
        """Walking distance in metres between the free cells next to ``a`` and ``b`` (inf if none)."""
        # Imported here for start-up time: scipy.sparse costs about a second; few programs ask.
        from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415 - see the comment above

        graph, index = self._graph()
        sa = index[self.region_of(self._one(a, "a"))._mask & self._m.traversable]
        sb = index[self.region_of(self._one(b, "b"))._mask & self._m.traversable]
        if sa.size == 0 or sb.size == 0:
            return math.inf
        d = dijkstra(graph, indices=sa, min_only=True)
        return float(self._m.grid.cells_to_meters(np.min(d[sb])))

    @exposed("ranking")
    def kth_along_route(self, items: Any, origin: Entity, k: int = 1,
                        toward: Entity | None = None) -> Entity:
        """The k-th of ``items`` met walking on from ``origin`` (1 = the first), by walking
        distance from ``origin`` (the start place, or the target of the stage before): "the
        first bedroom you enter", "the next living room". With ``toward`` only the items on the
        way from ``origin`` to ``toward`` count (the least detour, within 1 m of it): "the plant
        you pass on the way to the sofa". ``origin`` and ``toward`` themselves and, for rooms,
        the room ``origin`` is in are not candidates."""
        o = self._one(origin, "origin")
        ents = self._as_list(items, "items")
        here = int(o._key) if o.kind == "room" else self._room_id(o)
        ents = [e for e in ents if not (e.kind == "room" and int(e._key) == here)]
        walk = self._walk_from(o)
        t = None if toward is None else self._one(toward, "toward")
        if t is not None:
            back = self._walk_from(t)
            direct = walk(t)
            ents = [e for e in ents if e != t]
            detour = {e.ref: walk(e) + back(e) - direct for e in ents}
            least = min(detour.values(), default=math.inf)
            ents = [e for e in ents if detour[e.ref] <= max(least, 0.0) + PASS_SLACK_M]
        # ties (goal regions that touch: both 0 m away) go to the nearer centre
        out = self._ranked(ents, lambda e: walk(e) + 1e-4 * self._dist(e, o), k, False,
                           "kth_along_route", o)
        if t is not None and self._record and self.trace:
            self.trace[-1]["toward"] = t.ref
        return out

    def _walk_from(self, origin: Entity) -> Callable[[Entity], float]:
        """Walking distance in metres from ``origin``'s free cells to an entity's (inf if none
        is reachable): one shortest-path search for every candidate."""
        from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415 - as geodesic_distance

        graph, index = self._graph()
        src = index[self.region_of(origin)._mask & self._m.traversable]
        dist = dijkstra(graph, indices=src, min_only=True) if src.size else None

        def walk(e: Entity) -> float:
            cells = index[self.region_of(e)._mask & self._m.traversable]
            if dist is None or cells.size == 0:
                return math.inf
            return float(np.min(dist[cells]) * self._m.grid.resolution)

        return walk

    @exposed("ranking")
    def inside(self, item: Entity, place: Any) -> bool:
        """Whether an entity's centre lies in a room or an area."""
        e = self._one(item, "item")
        if isinstance(place, Entity) and place.kind == "room":
            return self._room_id(e) == int(place._key)
        area = self._mask_of(place, "place")
        r, c = self._m.grid.world_to_cell(*self._center(e))
        return bool(self._m.grid.contains_cell(r, c) and area._mask[r, c])

    @exposed("ranking")
    def near_to(self, ref: Any, radius_m: float = NEAR_M) -> Predicate:
        """Predicate: within ``radius_m`` metres (default 1.5) of ``ref`` (or of any entity of a list)."""
        radius_m = _metres(radius_m, "radius_m")
        refs = self._as_list(ref, "ref")
        return Predicate(lambda e: any(e != r and self._dist(e, r) <= radius_m for r in refs),
                         f"near {refs[0].label if refs else 'nothing'}")

    @exposed("ranking")
    def far_from(self, ref: Any, radius_m: float = FAR_M) -> Predicate:
        """Predicate: more than ``radius_m`` metres (default 3) from ``ref`` (from every entity of a list)."""
        radius_m = _metres(radius_m, "radius_m")
        refs = self._as_list(ref, "ref")
        return Predicate(lambda e: all(self._dist(e, r) > radius_m for r in refs if e != r),
                         f"far from {refs[0].label if refs else 'nothing'}")

    @exposed("ranking")
    def next_to(self, ref: Any, gap_m: float = NEXT_TO_GAP_M) -> Predicate:
        """Predicate: footprints at most ``gap_m`` (default 0.6 m) apart from ``ref``'s."""
        gap_m = _metres(gap_m, "gap_m")
        refs = self._as_list(ref, "ref")

        def test(e: Entity) -> bool:
            ge = self._geometry(e)
            return any(e != r and float(ge.distance(self._geometry(r))) <= gap_m for r in refs)

        return Predicate(test, f"next to {refs[0].label if refs else 'nothing'}")

    @exposed("ranking")
    def on_top_of(self, receptacle: Any) -> Predicate:
        """Predicate: standing on or inside the receptacle (or any of a list of receptacles)."""
        refs = [r for r in self._as_list(receptacle, "receptacle") if r.kind == "object"]
        return Predicate(lambda e: e.kind == "object" and any(self._on(e._key, r._key) for r in refs),
                         f"on {refs[0].label if refs else 'nothing'}")

    @exposed("ranking")
    def in_corner(self, within_m: float = CORNER_M) -> Predicate:
        """Predicate: an object whose centre lies within ``within_m`` of a corner of its room."""
        def test(e: Entity) -> bool:
            rid = self._room_id(e)
            if e.kind != "object" or rid is None:
                return False
            cx, cy = self._center(e)
            return any(math.hypot(cx - x, cy - y) <= within_m for x, y in self._rooms[rid].polygon)

        return Predicate(test, "in a corner")

    @exposed("ranking")
    def between(self, a: Entity, b: Entity) -> Predicate:
        """Predicate: centre projects onto the segment a-b (10-90 %) and lies within 1 m (or 30 %) of it."""
        (ax, ay), (bx, by) = self._center(self._one(a, "a")), self._center(self._one(b, "b"))
        dx, dy = bx - ax, by - ay
        n2 = dx * dx + dy * dy

        def test(e: Entity) -> bool:
            if n2 == 0 or e in (a, b):
                return False
            px, py = self._center(e)
            t = ((px - ax) * dx + (py - ay) * dy) / n2
            off = abs((px - ax) * dy - (py - ay) * dx) / math.sqrt(n2)
            return 0.1 <= t <= 0.9 and off <= max(1.0, 0.3 * math.sqrt(n2))

        return Predicate(test, f"between {a.label} and {b.label}")

    @exposed("ranking")
    def has(self, category: str, exactly: int | None = None, at_least: int = 1) -> Predicate:
        """Predicate for rooms or receptacles: holds ``exactly`` n (or ``at_least`` n) of ``category``."""
        def test(e: Entity) -> bool:
            n = self.count_in(e, category)
            return n == exactly if exactly is not None else n >= at_least

        return Predicate(test, f"with {exactly if exactly is not None else at_least} {category}")

    @exposed("ranking")
    def located_in(self, room: Any) -> Predicate:
        """Predicate: the entity lies in ``room`` (or any room of a list)."""
        ids = {int(r._key) for r in self._as_list(room, "room") if r.kind == "room"}
        return Predicate(lambda e: self._room_id(e) in ids, "in the room")

    @exposed("ranking")
    def adjacent_to(self, room: Any) -> Predicate:
        """Predicate for rooms: joined by a door to ``room`` (or to any room of a list)."""
        ids = {int(r._key) for r in self._as_list(room, "room") if r.kind == "room"}

        def test(e: Entity) -> bool:
            return e.kind == "room" and bool(self._m.room_adjacency.get(int(e._key), frozenset()) & ids)

        return Predicate(test, "next to the room")

    # === 4. logic and comparison ==========================================================
    @exposed("logic")
    def compare(self, a: float, op: str, b: float) -> bool:
        """Compare two numbers with ``op`` in ``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=``."""
        ops: dict[str, Callable[[float, float], bool]] = {
            "<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
            ">=": lambda x, y: x >= y, "==": lambda x, y: x == y, "!=": lambda x, y: x != y}
        if op not in ops:
            raise issue("type_error", f"compare op must be one of {sorted(ops)}, got {op!r}")
        return ops[op](a, b)

    @exposed("logic")
    def all_of(self, *tests: Any) -> Any:
        """True if every argument is true; for predicates, the predicate that all pass."""
        if tests and all(isinstance(t, Predicate) for t in tests):
            return Predicate(lambda e: all(t._test(e) for t in tests),
                             " and ".join(t._label for t in tests))
        return all(bool(t) for t in tests)

    @exposed("logic")
    def any_of(self, *tests: Any) -> Any:
        """True if some argument is true; for predicates, the predicate that any passes."""
        if tests and all(isinstance(t, Predicate) for t in tests):
            return Predicate(lambda e: any(t._test(e) for t in tests),
                             " or ".join(t._label for t in tests))
        return any(bool(t) for t in tests)

    @exposed("logic")
    def not_(self, test: Any) -> Any:
        """Negation of a bool or of a predicate."""
        if isinstance(test, Predicate):
            return Predicate(lambda e: not test._test(e), f"not {test._label}")
        return not test

