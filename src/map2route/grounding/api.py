"""The read-only semantic-map API that grounding programs compose (paper 000, IV-A).

A grounding program sees only the functions of :class:`GroundingAPI` marked with
:func:`exposed` and the opaque handles they return (:class:`Entity`, :class:`Area`,
:class:`Shape`, :class:`Segment`, :class:`Preference`, :class:`Predicate`). It never sees grid
cells, absolute coordinates, planner costs or a trajectory: distances come back as metres
between entities, regions as handles. The six categories of the paper are the ``category``
of each exposed function; :func:`api_reference` turns their docstrings into the prompt's API
section.

Executing a program ends with one call of ``task(...)``; :meth:`GroundingAPI.build_routeir`
turns it into a :class:`~map2route.routeir.RouteIR` whose regions come from the map
(``goal_region_mask``, room masks, footprints). Every selection that picks one entity out of
several is recorded in :attr:`GroundingAPI.trace` so the verifier can recompute it.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.grounding.errors import GroundingIssue, ProgramIssue
from map2route.grounding.vocabulary import ROOM_WORDS, categories, resolve_category
from map2route.routeir.model import Constraint, ConstraintKind, Region, RouteIR, Stage
from map2route.semantic_map.model import GOAL_REGION_MARGIN_M, RoomType

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap

#: Path-Shape reference: "walk" is how a person walks through the snapped waypoints, short
#: but clear of furniture (:func:`map2route.planning.walk.comfortable_walk`, the same walk the
#: benchmark's tau_ref is); "polyline" joins them with straight chords; "clearance" bends each
#: chord away from furniture (see ``SemanticMapAPI._clear_polyline``).
SHAPE_REFERENCE = "walk"
#: How far a reference sample may slide off its chord, and the clearance it seeks (metres).
SHAPE_SLIDE_M = 0.4
SHAPE_CLEAR_M = 0.6
#: Half-width of the Path-Shape active region around the reference path (metres).
SHAPE_BAND_M = 1.0
#: Radius of each shape waypoint region (metres).
WAYPOINT_RADIUS_M = 0.35
CATEGORIES = ("scene", "selection", "ranking", "logic", "region", "route")
CATEGORY_TITLES = {
    "scene": "Scene and room queries",
    "selection": "Selection and set operations",
    "ranking": "Ranking and spatial predicates",
    "logic": "Logic and comparison",
    "region": "Region and waypoint construction",
    "route": "Route construction",
}


def exposed(category: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a :class:`GroundingAPI` method as visible to programs, in one of six categories."""
    assert category in CATEGORIES, category

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn._api_category = category  # type: ignore[attr-defined]
        return fn

    return mark


def _issue(code: str, message: str, candidates: Iterable[str] = ()) -> ProgramIssue:
    return ProgramIssue(GroundingIssue(code=code, message=message, candidates=tuple(candidates)))


# --- handles ---------------------------------------------------------------------------------
class Entity:
    """An opaque handle to an object, room, window, door or the start place."""

    __slots__ = ("_kind", "_key", "_category", "_label")

    def __init__(self, kind: str, key: str, category: str, label: str) -> None:
        self._kind = kind
        self._key = key
        self._category = category
        self._label = label

    @property
    def kind(self) -> str:
        """``object``, ``room``, ``window``, ``door`` or ``place``."""
        return self._kind

    @property
    def category(self) -> str:
        """Object category (``chair``), room type (``bedroom``), ``window``, ``door``, ``start``."""
        return self._category

    @property
    def label(self) -> str:
        return self._label

    @property
    def ref(self) -> str:
        """A stable key (``o:Chair|2|1``, ``r:3``) used in traces."""
        return f"{self._kind[0]}:{self._key}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entity) and other.ref == self.ref

    def __hash__(self) -> int:
        return hash(self.ref)

    def __repr__(self) -> str:
        return f"<{self._label}>"


class Area:
    """An opaque handle to a set of map cells (a region) with its label and construction."""

    __slots__ = ("_mask", "_label", "_construction", "_object_ids")

    def __init__(self, mask: NDArray[np.bool_], label: str, construction: dict[str, Any],
                 object_ids: tuple[str, ...] = ()) -> None:
        self._mask = mask
        self._label = label
        self._construction = construction
        self._object_ids = object_ids

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<area {self._label}>"


class Shape:
    """An ordered path shape (circle an object, follow the walls): waypoints plus a reference path."""

    __slots__ = ("_waypoints", "_path", "_label")

    def __init__(self, waypoints: tuple[Area, ...], path: Area, label: str) -> None:
        self._waypoints = waypoints
        self._path = path
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<shape {self._label}>"


class Segment:
    """One leg of the route: a target region, optional ordered waypoints and path shape."""

    __slots__ = ("_target", "_waypoints", "_shape", "_label")

    def __init__(self, target: Area, waypoints: tuple[Area, ...], shape: Shape | None,
                 label: str) -> None:
        self._target = target
        self._waypoints = waypoints
        self._shape = shape
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<segment to {self._label}>"


class Preference:
    """A must-avoid requirement or a soft preference, with its scopes."""

    __slots__ = ("_kind", "_region", "_other", "_within", "_during", "_weight", "_label")

    def __init__(self, kind: ConstraintKind, region: Area, other: Area | None,
                 within: Area | None, during: tuple[Segment, ...] | None, weight: float,
                 label: str) -> None:
        self._kind = kind
        self._region = region
        self._other = other
        self._within = within
        self._during = during
        self._weight = weight
        self._label = label

    @property
    def kind(self) -> str:
        return self._kind.value

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<{self._kind.value} {self._label}>"


class Predicate:
    """A test on one entity, for :meth:`GroundingAPI.where`; combine with all_of/any_of/not_."""

    __slots__ = ("_test", "_label")

    def __init__(self, test: Callable[[Entity], bool], label: str) -> None:
        self._test = test
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<predicate {self._label}>"


class Task:
    """The finished route specification a program returns through ``task(...)``."""

    __slots__ = ("_segments", "_preferences")

    def __init__(self, segments: tuple[Segment, ...], preferences: tuple[Preference, ...]) -> None:
        self._segments = segments
        self._preferences = preferences

    def __repr__(self) -> str:
        return f"<task with {len(self._segments)} segments, {len(self._preferences)} constraints>"


EntityLike = Entity | Sequence[Entity]
#: Per-map derived data (receptacle support), keyed by ``id(map)`` with the map kept for safety.
_MAP_CACHE: dict[int, tuple[Any, dict[str, str]]] = {}
RegionLike = Entity | Area | Sequence[Entity]


# --- the API ---------------------------------------------------------------------------------
class GroundingAPI:
    """Read-only queries over one :class:`SemanticMap` plus route construction.

    Args:
        m: the map.
        start_xy: the robot's start point (map metres), for ``start_room`` and "from here".
        record: keep a trace of selections for the verifier.
    """

    #: Default distances (metres) for the spatial predicates; documented in each docstring.
    NEAR_M = 1.5
    FAR_M = 3.0
    NEXT_TO_GAP_M = 0.6
    CORNER_M = 1.2
    AVOID_MARGIN_M = 0.3

    def __init__(self, m: SemanticMap, start_xy: tuple[float, float] | None = None, *,
                 record: bool = True) -> None:
        self._m = m
        self._start = start_xy
        self._record = record
        self.trace: list[dict[str, Any]] = []
        self.result: Task | None = None
        self._last_target: Area | None = None
        #: Estimated arrival point of the last segment (see :meth:`_arrive`).
        self._arrival: tuple[float, float] | None = None
        self._objects = {o.id: o for o in m.objects}
        self._rooms = {r.id: r for r in m.rooms}
        self._windows = {w.id: w for w in m.windows}
        self._doors = {d.id: d for d in m.doors}
        self._room_counts: dict[tuple[int, str], int] = {}
        self._entity_cache: dict[str, Entity] = {}
        self._clearance: NDArray[np.float64] | None = None
        self._walk_clearance: NDArray[np.float64] | None = None
        self._geodesic_graph: Any = None
        self._room_masks: dict[int, NDArray[np.bool_]] = {}
        self._children_of: dict[str, list[str]] | None = None

    # --- internals ---------------------------------------------------------------------
    def _disk(self, center: tuple[float, float], radius_m: float) -> NDArray[np.bool_]:
        """Cells whose centres lie within ``radius_m`` of ``center`` (same rule as
        ``SemanticMap.disk_mask``, evaluated only in the disk's bounding window)."""
        g = self._m.grid
        out = np.zeros(g.shape, dtype=bool)
        cx, cy = center
        c0 = max(0, int(np.floor((cx - radius_m - g.origin_x) / g.resolution)) - 1)
        c1 = min(g.cols, int(np.ceil((cx + radius_m - g.origin_x) / g.resolution)) + 1)
        r0 = max(0, int(np.floor((cy - radius_m - g.origin_y) / g.resolution)) - 1)
        r1 = min(g.rows, int(np.ceil((cy + radius_m - g.origin_y) / g.resolution)) + 1)
        if c0 >= c1 or r0 >= r1:
            return out
        xs = g.origin_x + (np.arange(c0, c1) + 0.5) * g.resolution
        ys = g.origin_y + (np.arange(r0, r1) + 0.5) * g.resolution
        out[r0:r1, c0:c1] = (xs[None, :] - cx) ** 2 + (ys[:, None] - cy) ** 2 <= radius_m ** 2
        return out

    def _band(self, area: Area, width_m: float = 1.0) -> Area:
        """Cells within ``width_m`` of an area (the active region of a path shape)."""
        import cv2

        outside = (~area._mask).astype(np.uint8)
        dist = cv2.distanceTransform(outside, cv2.DIST_L2, 3) * self._m.grid.resolution
        return Area(dist <= width_m, f"around {area._label}", {"op": "band", "width_m": width_m})

    def _room_mask(self, room_id: int) -> NDArray[np.bool_]:
        if room_id not in self._room_masks:
            self._room_masks[room_id] = np.asarray(self._m.room_ids == room_id)
        return self._room_masks[room_id].copy()

    def namespace(self) -> dict[str, Callable[..., Any]]:
        """The names a program may call: every exposed method, bound to this map."""
        out: dict[str, Callable[..., Any]] = {}
        for name, fn in inspect.getmembers(type(self), predicate=inspect.isfunction):
            if getattr(fn, "_api_category", None):
                out[name] = getattr(self, name)
        return out

    def _room_label(self, room_id: int) -> str:
        r = self._rooms[room_id]
        same = sorted(x.id for x in self._m.rooms if x.type is r.type)
        if len(same) == 1:
            return f"the {r.type.words}"
        return f"{r.type.words} {same.index(room_id) + 1} (room {room_id})"

    def entity(self, ref: str) -> Entity:
        """The handle for a trace key (``o:<id>``, ``r:<id>``, ``w:<id>``, ``d:<id>``, ``p:start``)."""
        if ref in self._entity_cache:
            return self._entity_cache[ref]
        kind, _, key = ref.partition(":")
        ent: Entity
        if kind == "o" and key in self._objects:
            o = self._objects[key]
            where = f" in {self._room_label(o.room_id)}" if o.room_id is not None else ""
            ent = Entity("object", key, o.category, f"{o.category.replace('_', ' ')} {key}{where}")
        elif kind == "r" and key.lstrip("-").isdigit() and int(key) in self._rooms:
            ent = Entity("room", key, self._rooms[int(key)].type.snake, self._room_label(int(key)))
        elif kind == "w" and key in self._windows:
            w = self._windows[key]
            ent = Entity("window", key, "window", f"window {key} of {self._room_label(w.room_id)}")
        elif kind == "d" and key in self._doors:
            ent = Entity("door", key, "door", f"door {key}")
        elif ref == "p:start":
            ent = Entity("place", "start", "start", "the start")
        else:
            raise _issue("unknown_entity", f"no entity {ref!r} in scene {self._m.name!r}")
        self._entity_cache[ref] = ent
        return ent

    def _note(self, op: str, **fields: Any) -> None:
        if self._record:
            rec: dict[str, Any] = {"op": op}
            for k, v in fields.items():
                rec[k] = _encode(v)
            self.trace.append(rec)

    def _as_list(self, items: Any, what: str) -> list[Entity]:
        if isinstance(items, Entity):
            return [items]
        if isinstance(items, (list, tuple, set, frozenset)):
            out = list(items)
            for it in out:
                if not isinstance(it, Entity):
                    raise _issue("type_error", f"{what} must hold entities, got {type(it).__name__}")
            return out
        raise _issue("type_error", f"{what} must be an entity or a list of entities, got "
                                   f"{type(items).__name__}")

    def _one(self, item: Any, what: str) -> Entity:
        if isinstance(item, Entity):
            return item
        if isinstance(item, (list, tuple)) and len(item) == 1 and isinstance(item[0], Entity):
            return item[0]
        if isinstance(item, (list, tuple)):
            raise _issue("ambiguous_reference",
                         f"{what} must be one entity, got a list of {len(item)}; use unique(...), "
                         "kth_nearest(...) or another ranking to pick one",
                         [e.label for e in item if isinstance(e, Entity)][:12])
        raise _issue("type_error", f"{what} must be an entity, got {type(item).__name__}")

    def _room_id(self, e: Entity) -> int | None:
        if e.kind == "room":
            return int(e._key)
        if e.kind == "object":
            return self._objects[e._key].room_id
        if e.kind == "window":
            return self._windows[e._key].room_id
        if e.kind == "place" and self._start is not None:
            r = self._m.room_at(*self._start)
            return None if r is None else r.id
        return None

    def _center(self, e: Entity) -> tuple[float, float]:
        if e.kind == "object":
            return self._objects[e._key].center
        if e.kind == "room":
            return self._rooms[int(e._key)].centroid
        if e.kind == "window":
            return self._windows[e._key].center
        if e.kind == "door":
            return self._doors[e._key].center
        if self._start is None:
            raise _issue("no_start", "the program refers to the start, but no start point was given")
        return self._start

    def _geometry(self, e: Entity) -> Any:
        from shapely.geometry import LineString, Point, Polygon

        if e.kind == "object":
            return Polygon(self._objects[e._key].footprint)
        if e.kind == "room":
            return Polygon(self._rooms[int(e._key)].polygon)
        if e.kind == "window":
            return LineString(self._windows[e._key].segment)
        if e.kind == "door":
            return LineString(self._doors[e._key].segment)
        return Point(self._center(e))

    def _dist(self, a: Entity, b: Entity) -> float:
        """Centre distance between objects; closest-point distance when a room/window/door is involved."""
        if a.kind in ("object", "place") and b.kind in ("object", "place"):
            (ax, ay), (bx, by) = self._center(a), self._center(b)
            return math.hypot(ax - bx, ay - by)
        from shapely.geometry import Point

        ga = Point(self._center(a)) if a.kind in ("object", "place") else self._geometry(a)
        gb = Point(self._center(b)) if b.kind in ("object", "place") else self._geometry(b)
        return float(ga.distance(gb))

    def _size(self, e: Entity) -> float:
        if e.kind == "room":
            return self._rooms[int(e._key)].area_m2
        if e.kind == "object":
            return float(self._geometry(e).area)
        if e.kind == "window":
            (x0, y0), (x1, y1) = self._windows[e._key].segment
            return math.hypot(x1 - x0, y1 - y0)
        if e.kind == "door":
            return self._doors[e._key].width_m
        return 0.0

    def _categories(self, category: str) -> tuple[str, ...]:
        cats = resolve_category(category)
        if cats:
            return cats
        from rapidfuzz import process

        names = sorted(set(categories()) | {r.snake for r in RoomType})
        best = process.extract(category.lower().replace(" ", "_"), names, limit=3)
        raise _issue("unknown_category",
                     f"{category!r} is not an object category; use one of the benchmark "
                     "categories (snake_case)", [b[0] for b in best])

    def _mask_of(self, target: Any, what: str) -> Area:
        """A target-like value as an Area: an Area, an entity (its goal region) or a list (union)."""
        if isinstance(target, Area):
            return target
        if isinstance(target, Entity):
            return self.region_of(target)
        if isinstance(target, (list, tuple)) and target:
            return self.union(*[self._mask_of(t, what) for t in target])
        raise _issue("type_error", f"{what} must be an entity, a list of entities or an area, "
                                   f"got {target!r}")

    def _reference(self, ref: Any, what: str) -> Area:
        """The cells a Near/Far/Relative preference measures distance to (footprints, segments)."""
        if isinstance(ref, Area):
            return ref
        ents = self._as_list(ref, what)
        if not ents:
            raise _issue("no_referent", f"{what} is an empty list; nothing to measure distance to")
        import cv2

        mask = np.zeros(self._m.grid.shape, dtype=np.uint8)
        ids: list[str] = []
        for e in ents:
            if e.kind == "object":
                o = self._objects[e._key]
                mask |= self._m.footprint_mask([o]).astype(np.uint8)
                r, c = self._m.grid.world_to_cell(*o.center)
                if self._m.grid.contains_cell(r, c):
                    mask[r, c] = 1
            elif e.kind in ("window", "door"):
                seg = (self._windows[e._key].segment if e.kind == "window"
                       else self._doors[e._key].segment)
                cells = self._m.grid.worlds_to_cells(np.asarray(seg))
                cv2.line(mask, (int(cells[0, 1]), int(cells[0, 0])),
                         (int(cells[1, 1]), int(cells[1, 0])), 1, 1)
            elif e.kind == "room":
                mask |= self._room_mask(int(e._key)).astype(np.uint8)
            else:
                mask |= self._disk(self._center(e), self._m.grid.resolution).astype(np.uint8)
            ids.append(e._key)
        label = ents[0].label if len(ents) == 1 else f"{len(ents)} {ents[0].category}s"
        return Area(mask.astype(bool), label, {"op": "reference", "entities": [e.ref for e in ents]},
                    tuple(ids))

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
            raise _issue("unknown_room_type", f"{room_type!r} is not a room type",
                         [t.snake for t in RoomType])
        return [self.entity(f"r:{r.id}") for r in self._m.rooms if r.type is rt]

    @exposed("scene")
    def start_room(self) -> Entity:
        """The room the robot starts in (error if the start lies outside every room)."""
        if self._start is None:
            raise _issue("no_start", "the program asks for the start room, but no start was given")
        r = self._m.room_at(*self._start)
        if r is None:
            raise _issue("no_start_room", "the start point lies outside every room")
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
            raise _issue("no_room", f"{item!r} is in no room")
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

    def _on(self, obj_id: str, recep_id: str) -> bool:
        return obj_id != recep_id and self._support().get(obj_id) == recep_id

    def _children(self) -> dict[str, list[str]]:
        """Receptacle id -> ids of the objects on it, in map order."""
        if self._children_of is None:
            support = self._support()
            kids: dict[str, list[str]] = {}
            for o in self._m.objects:
                if o.id in support:
                    kids.setdefault(support[o.id], []).append(o.id)
            self._children_of = kids
        return self._children_of

    def _support(self) -> dict[str, str]:
        """Object id -> the receptacle it stands on (computed once per map).

        Maps with ``parent_id`` use it; otherwise an object whose centre lies in a higher
        object's footprint, and whose bottom is near that object's top, stands on it.
        """
        cached = _MAP_CACHE.get(id(self._m))
        if cached is not None and cached[0] is self._m:
            return cached[1]
        support: dict[str, str] = {}
        if any(o.parent_id for o in self._m.objects):
            support = {o.id: o.parent_id for o in self._m.objects if o.parent_id}
        else:
            from shapely.geometry import Point, Polygon

            for r in self._m.objects:
                if r.z_max <= 0.0:
                    continue
                poly = None
                xs = [p[0] for p in r.footprint]
                ys = [p[1] for p in r.footprint]
                for o in self._m.objects:
                    cx, cy = o.center
                    if o.id == r.id or o.id in support or not (min(xs) <= cx <= max(xs) and
                                                               min(ys) <= cy <= max(ys)):
                        continue
                    if o.z_min >= r.z_max - 0.15:
                        poly = poly or Polygon(r.footprint)
                        if poly.contains(Point(cx, cy)):
                            support[o.id] = r.id
        if len(_MAP_CACHE) > 8:
            _MAP_CACHE.clear()
        _MAP_CACHE[id(self._m)] = (self._m, support)
        return support

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
            raise _issue("type_error", f"adjacent_rooms needs a room, got {r!r}")
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
            raise _issue("no_referent", f"{description!r} matches nothing in this map")
        raise _issue("ambiguous_reference",
                     f"{description!r} matches {len(ents)} entities; add a modifier (room, "
                     "nearest to ..., ordinal) so it names one", [e.label for e in ents][:12])

    @exposed("selection")
    def choose_any(self, items: Any, description: str = "the reference") -> Entity:
        """Any one entity of ``items`` (the first in map order), for indefinite "a chair"; error if empty."""
        ents = self._as_list(items, "items")
        if not ents:
            raise _issue("no_referent", f"{description!r} matches nothing in this map")
        return ents[0]

    @exposed("selection")
    def where(self, items: Any, *tests: Predicate) -> list[Entity]:
        """The entities of ``items`` that pass every predicate (near_to, on_top_of, has, ...)."""
        out = self._as_list(items, "items")
        for t in tests:
            if not isinstance(t, Predicate):
                raise _issue("type_error", f"where(...) takes predicates such as near_to(x), got {t!r}")
            out = [e for e in out if t._test(e)]
        return out

    # === 3. ranking and spatial predicates ===============================================
    def _ranked(self, items: Any, key: Callable[[Entity], float], k: int, descending: bool,
                op: str, ref: Entity | None) -> Entity:
        ents = self._as_list(items, "items")
        if not isinstance(k, int) or k < 1:
            raise _issue("type_error", f"k must be a positive integer (1 = first), got {k!r}")
        if ref is not None:
            ents = [e for e in ents if e != ref]
        if len(ents) < k:
            raise _issue("no_referent", f"{op} needs at least {k} candidates, got {len(ents)}",
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
        from scipy.sparse.csgraph import dijkstra

        graph, index = self._graph()
        sa = index[self.region_of(self._one(a, "a"))._mask & self._m.traversable]
        sb = index[self.region_of(self._one(b, "b"))._mask & self._m.traversable]
        if sa.size == 0 or sb.size == 0:
            return math.inf
        d = dijkstra(graph, indices=sa, min_only=True)
        return float(np.min(d[sb]) * self._m.grid.resolution)

    def _graph(self) -> tuple[Any, NDArray[np.int64]]:
        if self._geodesic_graph is None:
            from scipy.sparse import coo_matrix

            free = self._m.traversable
            index = np.full(free.shape, -1, dtype=np.int64)
            index[free] = np.arange(int(free.sum()))
            rows, cols, vals = [], [], []
            h, w = free.shape
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                a = free[max(0, -dr):h - max(0, dr), max(0, -dc):w - max(0, dc)]
                b = free[max(0, dr):h - max(0, -dr) or h, max(0, dc):w - max(0, -dc) or w]
                ia = index[max(0, -dr):h - max(0, dr), max(0, -dc):w - max(0, dc)]
                ib = index[max(0, dr):h - max(0, -dr) or h, max(0, dc):w - max(0, -dc) or w]
                both = a & b
                rows.append(ia[both])
                cols.append(ib[both])
                vals.append(np.full(int(both.sum()), math.hypot(dr, dc)))
            n = int(free.sum())
            g = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                           shape=(n, n)).tocsr()
            self._geodesic_graph = (g + g.T, index)
        return self._geodesic_graph  # type: ignore[no-any-return]

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
        refs = self._as_list(ref, "ref")
        return Predicate(lambda e: any(e != r and self._dist(e, r) <= radius_m for r in refs),
                         f"near {refs[0].label if refs else 'nothing'}")

    @exposed("ranking")
    def far_from(self, ref: Any, radius_m: float = FAR_M) -> Predicate:
        """Predicate: more than ``radius_m`` metres (default 3) from ``ref`` (from every entity of a list)."""
        refs = self._as_list(ref, "ref")
        return Predicate(lambda e: all(self._dist(e, r) > radius_m for r in refs if e != r),
                         f"far from {refs[0].label if refs else 'nothing'}")

    @exposed("ranking")
    def next_to(self, ref: Any, gap_m: float = NEXT_TO_GAP_M) -> Predicate:
        """Predicate: footprints at most ``gap_m`` (default 0.6 m) apart from ``ref``'s."""
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
            raise _issue("type_error", f"compare op must be one of {sorted(ops)}, got {op!r}")
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
            raise _issue("type_error", f"room_region needs a room, got {r!r}")
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
            raise _issue("type_error", "midpoint_region needs two or more entities")
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
            raise _issue("type_error", f"corner_region needs a room, got {r.label}")
        if (away_from is None) == (near is None):
            raise _issue("ambiguous_reference", "a room has four corners; say which, e.g. "
                         "corner_region(room, away_from=door) or near=...")
        inside = (np.asarray(self._m.room_ids) == int(r._key)) & \
            np.asarray(self._m.traversable, dtype=bool)
        if not inside.any():
            raise _issue("empty_selection", f"{r.label} has no free cells")
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
        import cv2

        r = self._one(room, "room")
        inside = self.room_region(r)._mask.astype(np.uint8)
        dist = cv2.distanceTransform(inside, cv2.DIST_L2, 3) * self._m.grid.resolution
        mask = (inside > 0) & (dist <= width_m)
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
        from map2route.errors import Map2RouteError
        from map2route.planning.walk import clearance_m, comfortable_walk

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

    def _clearance_field(self) -> NDArray[np.float64]:
        """Metres from each cell to the nearest non-traversable cell (computed once per API)."""
        if self._clearance is None:
            import cv2

            free = self._m.traversable.astype(np.uint8)
            self._clearance = cv2.distanceTransform(free, cv2.DIST_L2, 3).astype(
                np.float64) * self._m.grid.resolution
        return self._clearance

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
                ok = (cells[:, 0] >= 0) & (cells[:, 0] < g.rows) & (cells[:, 1] >= 0) & \
                    (cells[:, 1] < g.cols)
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
        import cv2

        mask = np.zeros(self._m.grid.shape, dtype=np.uint8)
        cells = self._m.grid.worlds_to_cells(np.asarray(pts))
        poly = cells[:, ::-1].astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(mask, [poly], False, 1, 1)
        return Area(mask.astype(bool), label, {**op, "points": [[round(x, 3), round(y, 3)]
                                                               for x, y in pts]})

    def _waypoint_areas(self, pts: list[tuple[float, float]], label: str) -> tuple[Area, ...]:
        out = []
        free = np.argwhere(self._m.traversable)
        for i, p in enumerate(pts):
            mask = self._disk(p, WAYPOINT_RADIUS_M) & self._m.traversable
            if not mask.any() and free.size:
                # the ring point lies in a wall or furniture: use the nearest free cell instead
                r, c = self._m.grid.world_to_cell(*p)
                k = int(np.argmin((free[:, 0] - r) ** 2 + (free[:, 1] - c) ** 2))
                q = self._m.grid.cell_to_world(int(free[k, 0]), int(free[k, 1]))
                mask = self._disk(q, WAYPOINT_RADIUS_M) & self._m.traversable
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
            raise _issue("type_error", f"direction must be 'clockwise' or 'counterclockwise', "
                                       f"got {direction!r}")
        if not 1 <= int(laps) <= 3:
            raise _issue("type_error", f"laps must be 1, 2 or 3, got {laps!r}")
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
        from shapely.geometry import Polygon
        from shapely.geometry.polygon import orient

        r = self._one(room, "room")
        if r.kind != "room":
            raise _issue("type_error", f"follow_wall needs a room, got {r!r}")
        poly = Polygon(self._rooms[int(r._key)].polygon).buffer(-offset_m, join_style=2)
        if poly.is_empty or poly.geom_type != "Polygon":
            raise _issue("no_referent", f"{r.label} is too small to follow its walls at {offset_m} m")
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
            raise _issue("type_error", f"shape must come from circle(...) or follow_wall(...), got {shape!r}")
        waypoints = tuple(self._mask_of(v, "via") for v in via)
        if target is None:
            if shape is None:
                raise _issue("type_error", "segment needs a target or a shape")
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
            raise _issue("bad_constraint", f"unknown constraint kind {kind!r}", sorted(kinds))
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
                raise _issue("bad_constraint", "a relative constraint needs other= (the reference "
                                               "to stay farther from)")
            oth = self._reference(other, "relative's other")
        elif other is not None:
            raise _issue("bad_constraint", f"only relative constraints take other=, not {kind!r}")
        scope = None if within is None else self._mask_of(within, "within")
        segs: tuple[Segment, ...] | None = None
        if during is not None:
            # a None stands for a leg of the branch of an if that was not taken
            segs = tuple(x for x in (during if isinstance(during, (list, tuple)) else (during,))
                         if x is not None) or None
            for s in segs or ():
                if not isinstance(s, Segment):
                    raise _issue("bad_scope", f"during= takes segments, got {s!r}")
        if not isinstance(weight, (int, float)) or not 0 < weight <= 10:
            raise _issue("bad_constraint", f"weight must be in (0, 10], got {weight!r}")
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
            raise _issue("no_segments", "task(...) needs at least one segment (the destination)")
        for s in segs:
            if not isinstance(s, Segment):
                raise _issue("type_error", f"task's segments must come from segment(...), got {s!r}")
        prefs = tuple(constraints)
        for p in prefs:
            if not isinstance(p, Preference):
                raise _issue("type_error", f"task's constraints must come from constraint(...), got {p!r}")
        if self.result is not None:
            raise _issue("task_twice", "task(...) was called twice; build one task")
        self.result = Task(segs, prefs)
        return self.result

    # --- host side ---------------------------------------------------------------------
    def build_routeir(self, *, instruction: str = "", grounder: str = "") -> RouteIR:
        """The RouteIR of the finished task (regions resolved on this map).

        Raises:
            ProgramIssue: no task was built, or a scope names a segment outside the task.
        """
        if self.result is None:
            raise _issue("no_task", "the program never called task(...); end it with "
                                    "task([segment(...), ...], [constraint(...), ...])")
        t = self.result

        def region(a: Area) -> Region:
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

        stages = []
        for s in t._segments:
            stages.append(Stage(target=region(s._target),
                                waypoints=tuple(region(w) for w in s._waypoints), label=s._label))
        constraints = []
        for i, s in enumerate(t._segments):
            if s._shape is not None:
                # active only around the shape, so the approach to it stays free
                constraints.append(Constraint(kind=ConstraintKind.PATH_SHAPE,
                                              region=region(s._shape._path), temporal_scope=(i,),
                                              spatial_scope=region(self._band(s._shape._path, SHAPE_BAND_M)),
                                              label=s._shape._label))
        for p in t._preferences:
            temporal = None
            if p._during is not None:
                idx = []
                for seg in p._during:
                    pos = [i for i, s in enumerate(t._segments) if s is seg]
                    if not pos:
                        raise _issue("bad_scope", f"constraint {p._label!r} is scoped to segment "
                                                  f"{seg._label!r}, which is not in the task")
                    idx.append(pos[0])
                temporal = tuple(sorted(set(idx)))
            constraints.append(Constraint(kind=p._kind, region=region(p._region),
                                          other=None if p._other is None else region(p._other),
                                          spatial_scope=None if p._within is None
                                          else region(p._within),
                                          temporal_scope=temporal, weight=p._weight,
                                          label=p._label))
        return RouteIR(stages=tuple(stages), constraints=tuple(constraints), grid=self._m.grid,
                       start=self._start, scene=self._m.name,
                       metadata={"grounder": grounder, "instruction": instruction})


def _encode(v: Any) -> Any:
    if isinstance(v, Entity):
        return v.ref
    if isinstance(v, (list, tuple)):
        return [_encode(x) for x in v]
    return v


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
