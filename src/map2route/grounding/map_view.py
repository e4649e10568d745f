"""What the grounding verbs share: one map, its entity handles, and the geometry behind them.

:class:`MapView` turns trace keys into :class:`~map2route.grounding.handles.Entity` handles,
measures entities (centres, distances, sizes), resolves category words, and builds the cell
masks the verbs return, all through :mod:`map2route.semantic_map.geometry` on the map's
``GridSpec``. The verbs themselves live in :mod:`~map2route.grounding.query_verbs` and
:mod:`~map2route.grounding.route_verbs`; :class:`~map2route.grounding.api.GroundingAPI` joins them.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np
from rapidfuzz import process
from shapely.geometry import LineString, Point, Polygon

from map2route.grounding.handles import Area, Entity, Task, encode, issue
from map2route.grounding.vocabulary import categories, resolve_category
from map2route.semantic_map import geometry
from map2route.semantic_map.model import AVOID_MARGIN_M, RoomType

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from scipy.sparse import csr_matrix

    from map2route.semantic_map.model import SemanticMap

#: Default distances (metres) for the spatial predicates; documented in each verb's docstring.
NEAR_M = 1.5
FAR_M = 3.0
NEXT_TO_GAP_M = 0.6
CORNER_M = 1.2

#: Receptacle support per map (object id -> the object it stands on), computed once per map
#: and dropped with the map: weak keys, so a new map never sees an old map's entry.
_SUPPORT: weakref.WeakKeyDictionary[SemanticMap, dict[str, str]] = weakref.WeakKeyDictionary()


class MapView:
    """Read-only queries over one :class:`SemanticMap`: handles, measures and masks.

    Args:
        m: the map.
        start_xy: the robot's start point (map metres), for ``start_room`` and "from here".
        record: keep a trace of selections for the verifier.
    """

    NEAR_M = NEAR_M
    FAR_M = FAR_M
    NEXT_TO_GAP_M = NEXT_TO_GAP_M
    CORNER_M = CORNER_M
    AVOID_MARGIN_M = AVOID_MARGIN_M

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
        self._geodesic_graph: tuple[csr_matrix, NDArray[np.int64]] | None = None
        self._room_masks: dict[int, NDArray[np.bool_]] = {}
        self._children_of: dict[str, list[str]] | None = None

    if TYPE_CHECKING:
        # Verbs of the two verb classes that these shared internals call; GroundingAPI has both.
        def region_of(self, item: Any) -> Area: ...

        def union(self, *parts: Any) -> Any: ...

    # --- masks -------------------------------------------------------------------------
    def _disk(self, center: tuple[float, float], radius_m: float) -> NDArray[np.bool_]:
        """Cells whose centres lie within ``radius_m`` of ``center`` (same rule as
        ``SemanticMap.disk_mask``: :meth:`map2route.semantic_map.grid.GridSpec.disk_mask`)."""
        return self._m.grid.disk_mask(center, radius_m)

    def _room_mask(self, room_id: int) -> NDArray[np.bool_]:
        if room_id not in self._room_masks:
            self._room_masks[room_id] = np.asarray(self._m.room_ids == room_id)
        return self._room_masks[room_id].copy()

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
            raise issue("unknown_entity", f"no entity {ref!r} in scene {self._m.name!r}")
        self._entity_cache[ref] = ent
        return ent

    def _note(self, op: str, **fields: Any) -> None:
        if self._record:
            rec: dict[str, Any] = {"op": op}
            for k, v in fields.items():
                rec[k] = encode(v)
            self.trace.append(rec)

    def _as_list(self, items: Any, what: str) -> list[Entity]:
        if isinstance(items, Entity):
            return [items]
        if isinstance(items, (list, tuple, set, frozenset)):
            out = list(items)
            for it in out:
                if not isinstance(it, Entity):
                    raise issue("type_error", f"{what} must hold entities, got {type(it).__name__}")
            return out
        raise issue("type_error", f"{what} must be an entity or a list of entities, got "
                                   f"{type(items).__name__}")

    def _one(self, item: Any, what: str) -> Entity:
        if isinstance(item, Entity):
            return item
        if isinstance(item, (list, tuple)) and len(item) == 1 and isinstance(item[0], Entity):
            return item[0]
        if isinstance(item, (list, tuple)):
            raise issue("ambiguous_reference",
                         f"{what} must be one entity, got a list of {len(item)}; use unique(...), "
                         "kth_nearest(...) or another ranking to pick one",
                         [e.label for e in item if isinstance(e, Entity)][:12])
        raise issue("type_error", f"{what} must be an entity, got {type(item).__name__}")

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
            raise issue("no_start", "the program refers to the start, but no start point was given")
        return self._start

    def _geometry(self, e: Entity) -> Any:
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
        names = sorted(set(categories()) | {r.snake for r in RoomType})
        best = process.extract(category.lower().replace(" ", "_"), names, limit=3)
        raise issue("unknown_category",
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
        raise issue("type_error", f"{what} must be an entity, a list of entities or an area, "
                                   f"got {target!r}")

    def _reference(self, ref: Any, what: str) -> Area:
        """The cells a Near/Far/Relative preference measures distance to (footprints, segments)."""
        if isinstance(ref, Area):
            return ref
        ents = self._as_list(ref, what)
        if not ents:
            raise issue("no_referent", f"{what} is an empty list; nothing to measure distance to")
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
                mask |= geometry.segment_mask(self._m.grid, seg).astype(np.uint8)
            elif e.kind == "room":
                mask |= self._room_mask(int(e._key)).astype(np.uint8)
            else:
                mask |= self._disk(self._center(e), self._m.grid.resolution).astype(np.uint8)
            ids.append(e._key)
        label = ents[0].label if len(ents) == 1 else f"{len(ents)} {ents[0].category}s"
        return Area(mask.astype(bool), label, {"op": "reference", "entities": [e.ref for e in ents]},
                    tuple(ids))

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
        cached = _SUPPORT.get(self._m)
        if cached is not None:
            return cached
        support: dict[str, str] = {}
        if any(o.parent_id for o in self._m.objects):
            support = {o.id: o.parent_id for o in self._m.objects if o.parent_id}
        else:
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
        _SUPPORT[self._m] = support
        return support

    def _graph(self) -> tuple[csr_matrix, NDArray[np.int64]]:
        """The free cells' 8-connected graph (built once per API)."""
        if self._geodesic_graph is None:
            self._geodesic_graph = geometry.free_space_graph(self._m.traversable)
        return self._geodesic_graph

    def _clearance_field(self) -> NDArray[np.float64]:
        """Metres from each cell to the nearest non-traversable cell (computed once per API)."""
        if self._clearance is None:
            cells = geometry.l2_cells(self._m.traversable).astype(np.float64)
            self._clearance = self._m.grid.cells_to_meters(cells)
        return self._clearance
