"""Referring expressions that identify exactly one room or object of a scene.

Each rule computes the set of entities its words select and emits the expression only when that
set holds exactly one entity, so every expression is unique by construction (the benchmark's
validity principle, paper 000, III-B). Depth counts the entities the resolution chain goes
through ("the chair nearest to the bed in the bedroom with two windows": chair, bed, bedroom = 3).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from map2route.bench.map2route import language as lang

if TYPE_CHECKING:
    from map2route.semantic_map import ObjectInstance, Room, SemanticMap

#: Distance margin that makes "nearest"/"farthest"/"second closest" unambiguous to a person.
RANK_MARGIN_M = 0.5
#: Area margin for "largest"/"smallest" (fraction of the larger area).
AREA_MARGIN = 0.1


@dataclass(frozen=True)
class Ref:
    """A referring expression.

    Attributes:
        text: the phrase ("the bedroom with two windows").
        depth: reference depth.
        object_ids: the object it identifies (empty for a room).
        room_id: the room it identifies (``None`` for an object).
        candidates: instances of the head category (or rooms of the type) before disambiguation.
        construct: the rule that built it (``unique``, ``in_room``, ``nearest``, ...).
    """

    text: str
    depth: int
    object_ids: tuple[str, ...] = ()
    room_id: int | None = None
    candidates: int = 1
    construct: str = "unique"


class SceneRefs:
    """Unique referring expressions over one scene and start position."""

    def __init__(self, m: SemanticMap, start_xy: tuple[float, float], rng: random.Random) -> None:
        self.m = m
        self.start_xy = start_xy
        self.rng = rng
        room = m.room_at(*start_xy)
        self.start_room: Room | None = room
        self.objects = [o for o in m.objects
                        if o.category not in lang.EXCLUDED and o.room_id is not None]
        self.by_cat: dict[str, list[ObjectInstance]] = {}
        for o in self.objects:
            self.by_cat.setdefault(o.category, []).append(o)
        self._room_cache: dict[int, list[Ref]] = {}

    # --- rooms -----------------------------------------------------------------------------
    def room_refs(self, room: Room) -> list[Ref]:
        """Every unique description of ``room`` (possibly none)."""
        if room.id in self._room_cache:
            return self._room_cache[room.id]
        m = self.m
        same = [r for r in m.rooms if r.type is room.type]
        word = room.type.words
        n = len(same)
        out: list[Ref] = []
        if n == 1:
            out.append(Ref(f"the {word}", 1, room_id=room.id, candidates=1))
        if self.start_room is not None and room.id == self.start_room.id:
            for text in ("the room you start in", "your starting room", "the room where you start"):
                out.append(Ref(text, 1, room_id=room.id, candidates=len(m.rooms), construct="start_room"))
        if self.start_room is not None and room.id != self.start_room.id:
            adj = m.room_adjacency.get(self.start_room.id, frozenset())
            hits = [r for r in same if r.id in adj]
            if len(hits) == 1 and hits[0].id == room.id and n > 1:
                for text in (f"the {word} connected to the starting room",
                             f"the {word} next to the room you start in"):
                    out.append(Ref(text, 2, room_id=room.id, candidates=n, construct="connected"))
        if n > 1:
            counts = [len(m.windows_of(r.id)) for r in same]
            mine = len(m.windows_of(room.id))
            if counts.count(mine) == 1:
                out.append(Ref(f"the {word} with {lang.count_phrase(mine, 'window')}", 2,
                               room_id=room.id, candidates=n, construct="window_count"))
            areas = sorted(((r.area_m2, r.id) for r in same), reverse=True)
            if areas[0][1] == room.id and areas[0][0] - areas[1][0] > AREA_MARGIN * areas[0][0]:
                for adj_word in ("largest", "biggest"):
                    out.append(Ref(f"the {adj_word} {word}", 2, room_id=room.id, candidates=n,
                                   construct="largest"))
            if areas[-1][1] == room.id and areas[-2][0] - areas[-1][0] > AREA_MARGIN * areas[-2][0]:
                out.append(Ref(f"the smallest {word}", 2, room_id=room.id, candidates=n,
                               construct="smallest"))
            mine_cats = {o.category for o in m.objects_in_room(room.id)} & lang.LANDMARKS
            for cat in sorted(mine_cats):
                holders = [r for r in same if any(o.category == cat for o in m.objects_in_room(r.id))]
                if len(holders) == 1:
                    w = lang.noun(cat, self.rng)
                    out.append(Ref(f"the {word} with {lang.article(w)} {w}", 2, room_id=room.id,
                                   candidates=n, construct="room_with_object"))
        self._room_cache[room.id] = out
        return out

    # --- objects ---------------------------------------------------------------------------
    def object_refs(self, obj: ObjectInstance, *, max_depth: int = 4) -> list[Ref]:
        """Every unique description of ``obj`` up to ``max_depth``."""
        m, rng = self.m, self.rng
        cat = obj.category
        same = self.by_cat.get(cat, [])
        n = len(same)
        w = lang.noun(cat, rng)
        ids = (obj.id,)
        out: list[Ref] = []
        if n == 1:
            out.append(Ref(f"the {w}", 1, ids, candidates=1))
        room = m.get_room(obj.room_id) if obj.room_id is not None else None
        in_room = [o for o in same if o.room_id == obj.room_id]
        if room is not None and n > 1 and len(in_room) == 1:
            for rr in self.room_refs(room):
                if 1 + rr.depth <= max_depth:
                    out.append(Ref(f"the {w} in {rr.text}", 1 + rr.depth, ids, candidates=n,
                                   construct="in_room"))
        # "the dresser with a house plant on it"
        for child in m.children_of(obj.id):
            if child.category in lang.EXCLUDED:
                continue
            holders = [o for o in same if any(c.category == child.category
                                              for c in m.children_of(o.id))]
            if len(holders) == 1:
                cw = lang.noun(child.category, rng)
                out.append(Ref(f"the {w} with {lang.article(cw)} {cw} on it", 2, ids, candidates=n,
                               construct="supports"))
        # "the apple on the dining table"
        if obj.parent_id is not None and n > 1:
            pcat = m.get_object(obj.parent_id).category
            holders = [o for o in same if o.parent_id is not None
                       and m.get_object(o.parent_id).category == pcat]
            if len(holders) == 1:
                out.append(Ref(f"the {w} on the {lang.noun(pcat, rng)}", 2, ids, candidates=n,
                               construct="on_top_of"))
        if n > 1:
            out.extend(self._ranked_refs(obj, same, w, max_depth=max_depth))
        return out

    def _ranked_refs(self, obj: ObjectInstance, same: list[ObjectInstance], w: str, *,
                     max_depth: int) -> list[Ref]:
        """nearest/farthest to an anchor object, and closest/farthest/second closest to you."""
        out: list[Ref] = []
        n = len(same)
        ids = (obj.id,)

        def dist(a: ObjectInstance, p: tuple[float, float]) -> float:
            return math.hypot(a.center[0] - p[0], a.center[1] - p[1])

        by_start = sorted(same, key=lambda o: dist(o, self.start_xy))
        d = [dist(o, self.start_xy) for o in by_start]
        if by_start[0].id == obj.id and d[1] - d[0] > RANK_MARGIN_M:
            for text in (f"the {w} closest to you", f"the nearest {w} to where you start",
                         f"the {w} closest to your starting position"):
                out.append(Ref(text, 2, ids, candidates=n, construct="closest_to_start"))
        if by_start[-1].id == obj.id and d[-1] - d[-2] > RANK_MARGIN_M:
            out.append(Ref(f"the {w} farthest from you", 2, ids, candidates=n,
                           construct="farthest_from_start"))
        if n >= 3 and by_start[1].id == obj.id and min(d[1] - d[0], d[2] - d[1]) > RANK_MARGIN_M:
            out.append(Ref(f"the second closest {w} to you", 2, ids, candidates=n,
                           construct="second_closest"))
        if max_depth < 2:
            return out
        anchors = [a for a in self.objects if a.category in lang.LANDMARKS
                   and a.category != obj.category and len(self.by_cat[a.category]) == 1]
        self.rng.shuffle(anchors)
        for anchor in anchors[:6]:
            ranked = sorted(same, key=lambda o: dist(o, anchor.center))
            dd = [dist(o, anchor.center) for o in ranked]
            aw = lang.noun(anchor.category, self.rng)
            if ranked[0].id == obj.id and dd[1] - dd[0] > RANK_MARGIN_M:
                word = self.rng.choice(("nearest to", "closest to"))
                out.append(Ref(f"the {w} {word} the {aw}", 2, ids, candidates=n,
                               construct="nearest_to"))
            if ranked[-1].id == obj.id and dd[-1] - dd[-2] > RANK_MARGIN_M:
                out.append(Ref(f"the {w} farthest from the {aw}", 2, ids, candidates=n,
                               construct="farthest_from"))
        # nested: nearest to an anchor among the instances of one described room
        room = self.m.get_room(obj.room_id) if obj.room_id is not None else None
        in_room = [o for o in same if o.room_id == obj.room_id]
        if room is not None and len(in_room) >= 2 and max_depth >= 3:
            room_refs = [r for r in self.room_refs(room) if r.depth + 2 <= max_depth]
            local = [a for a in self.objects if a.room_id == obj.room_id
                     and a.category in lang.LANDMARKS and a.category != obj.category
                     and sum(o.room_id == obj.room_id for o in self.by_cat[a.category]) == 1]
            for anchor in local[:4]:
                ranked = sorted(in_room, key=lambda o: dist(o, anchor.center))
                dd = [dist(o, anchor.center) for o in ranked]
                if room_refs and ranked[0].id == obj.id and dd[1] - dd[0] > RANK_MARGIN_M:
                    rr = self.rng.choice(room_refs)
                    aw = lang.noun(anchor.category, self.rng)
                    out.append(Ref(f"the {w} nearest to the {aw} in {rr.text}", 2 + rr.depth, ids,
                                   candidates=n, construct="nested_nearest"))
        return out

    def best_object_ref(self, obj: ObjectInstance, *, prefer_deep: bool) -> Ref | None:
        """A random unique description; deeper ones preferred when ``prefer_deep``."""
        refs = self.object_refs(obj, max_depth=4 if prefer_deep else 3)
        if not refs:
            return None
        if prefer_deep:
            top = max(r.depth for r in refs)
            deep = [r for r in refs if r.depth >= min(top, 2)]
            return self.rng.choice(deep)
        shallow = [r for r in refs if r.depth <= 2] or refs
        return self.rng.choice(shallow)

    def best_room_ref(self, room: Room) -> Ref | None:
        refs = self.room_refs(room)
        return self.rng.choice(refs) if refs else None
