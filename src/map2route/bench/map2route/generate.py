"""Generate Map2Route-style episodes from a scene's annotation (paper 000, III-B).

One episode is built in this order, and dropped at the first check that fails:

1. a start pose: a random traversable cell with at least 0.3 m clearance;
2. stages: target objects (or a conditional, or a must-pass room), each named by a referring
   expression that identifies exactly one object (:mod:`map2route.bench.map2route.references`);
3. a hard-only route through the stages, which tells which rooms each leg crosses;
4. must-avoid regions and soft preferences (Near, Far, Relative, Path-Shape, Clearance) placed
   on what the route passes, each with a spatial scope ("while crossing the bedroom") or a
   route-stage scope ("on the way to the desk");
5. the instruction text, written from the annotation so text and ground truth agree;
6. the ground-truth RouteIR planned twice (``plan_route`` full and ``hard_only``); both routes
   must meet every hard requirement under our reading and the official HCS
   (:func:`map2route.bench.map2route.validate.route_problem`).

Easy episodes carry 2-4 constraints, Hard 5-8 (stages + must-avoids + soft preferences; the
global default Clearance is not counted). Everything is drawn from one ``random.Random`` seeded
per episode, so a scene, seed and index always give the same episode.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.ndimage import distance_transform_edt
from scipy.spatial import cKDTree
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

from map2route.bench.map2route import language as lang
from map2route.bench.map2route.episode import Episode, ReferenceInfo, ReferringExpression, StartPose
from map2route.bench.map2route.methods import hard_requirements
from map2route.bench.map2route.metrics import clearance_field_m, path_length_m
from map2route.bench.map2route.references import Ref, SceneRefs
from map2route.bench.map2route.validate import route_problem
from map2route.errors import Map2RouteError
from map2route.gridsearch.walk import comfortable_walk
from map2route.planning import plan_route
from map2route.routeir import Constraint, ConstraintKind, Region, RouteIR, Stage

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from map2route.semantic_map import ObjectInstance, Room, SemanticMap

    Planner = Callable[..., Any]

CONSTRAINT_RANGE = {"easy": (2, 4), "hard": (5, 8)}
START_CLEARANCE_M = 0.3
#: Ring radii beyond r_O tried for "walk around X".
CIRCLE_OFFSETS_M = (0.5, 0.75, 1.0)
#: Half-width of the Path-Shape active region around tau_ref (delta = 0.5 m plus a margin).
PATH_SHAPE_BAND_M = 0.75
#: tau_ref may be at most this much longer than the polygon through its waypoints.
MAX_SHAPE_DETOUR = 1.25
WALL_INSET_M = 0.6
WAYPOINT_RADIUS_M = 0.25
AVOID_ZONE_MARGIN_M = 0.3
GENERATOR = "map2route.bench.generate/1"
#: Shortest feasible routes below this are trivial (the start already at the goal): redrawn.
MIN_ROUTE_M = 1.5


class GenerationFailed(Exception):
    """This draw cannot become a valid episode; the caller draws again.

    Attributes:
        kind: ``construct`` (nothing unique/fitting to say), ``infeasible`` (the planner found
            no route), ``unverified`` (a planned route missed a hard requirement) or
            ``trivial`` (the start already at the goal).
    """

    def __init__(self, msg: str, kind: str = "construct") -> None:
        super().__init__(msg)
        self.kind = kind


@dataclass
class _Stage:
    target: Region
    label: str
    sentence_ref: str
    waypoints: list[Region] = field(default_factory=list)
    kind: str = "object"  # object | room | conditional
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Draft:
    stages: list[_Stage] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    shape_refs: dict[int, NDArray[np.float64]] = field(default_factory=dict)
    constructs: list[str] = field(default_factory=list)


def default_planner() -> Planner:
    """The scope-aware planner, :func:`map2route.planning.plan_route`."""
    return plan_route


class EpisodeGenerator:
    """Draw episodes on one scene.

    Args:
        m: the scene.
        planner: ``plan_route``-compatible callable (``(m, ir, start_xy, *, hard_only)``).
        planner_config: passed as ``config=`` to the planner when not ``None``.
    """

    def __init__(self, m: SemanticMap, *, planner: Planner | None = None,
                 planner_config: Any = None) -> None:
        self.m = m
        self.plan = planner or default_planner()
        self.planner_config = planner_config
        self.grid = m.grid
        self.clearance = clearance_field_m(m.traversable, m.grid.resolution)
        self._free = np.asarray(m.traversable)
        #: Rejected draws by :attr:`GenerationFailed.kind`.
        self.rejected: dict[str, int] = {}

    # --- public --------------------------------------------------------------------------
    def generate(self, *, episode_id: str, split: str, difficulty: str, seed: int,
                 attempts: int = 40) -> Episode | None:
        """One valid episode, or ``None`` after ``attempts`` failed draws."""
        for attempt in range(attempts):
            rng = random.Random(f"{seed}:{attempt}")
            try:
                return self._draw(rng, episode_id=episode_id, split=split, difficulty=difficulty,
                                  seed=seed, attempt=attempt)
            except GenerationFailed as err:
                self.rejected[err.kind] = self.rejected.get(err.kind, 0) + 1
                continue
        return None

    # --- one draw ------------------------------------------------------------------------
    def _draw(self, rng: random.Random, *, episode_id: str, split: str, difficulty: str,
              seed: int, attempt: int) -> Episode:
        start = self._start(rng)
        refs = SceneRefs(self.m, (start.x, start.y), rng)
        lo, hi = CONSTRAINT_RANGE[difficulty]
        total = rng.randint(lo, hi)
        hard = difficulty == "hard"
        n_stages = rng.choice((1, 1, 2)) if not hard else rng.choice((2, 2, 3))
        n_stages = min(n_stages, total)
        draft = _Draft()
        self._add_stages(draft, refs, rng, n_stages, hard=hard)
        legs = self._legs(draft, start)
        remaining = total - len(draft.stages)
        if hard and remaining > 2 and rng.random() < 0.35:
            if self._add_room_pass(draft, refs, rng, legs):
                remaining -= 1
                legs = self._legs(draft, start)
        n_avoid = 0
        if remaining >= 2 or (remaining >= 1 and rng.random() < 0.3):
            n_avoid = 1 if not hard else rng.choice((0, 1, 1, 2))
            n_avoid = min(n_avoid, remaining - 1 if remaining > 1 else remaining)
        for _ in range(n_avoid):
            if self._add_avoid(draft, refs, rng, legs, start):
                remaining -= 1
        kinds = ["near", "far", "relative", "path_shape", "clearance"]
        # Path-Shape fits fewer places (a free ring or wall loop), so it is drawn more often.
        weights = [3.0, 3.0, 2.0, 2.5, 1.0]
        tries = 0
        while remaining > 0 and tries < 12:
            tries += 1
            kind = rng.choices(kinds, weights)[0]
            if self._add_soft(draft, refs, rng, legs, kind):
                remaining -= 1
        if remaining > 0:
            raise GenerationFailed("not enough constraints fit this start")
        return self._finish(draft, rng, start, episode_id=episode_id, split=split,
                            difficulty=difficulty, seed=seed, attempt=attempt)

    def _start(self, rng: random.Random) -> StartPose:
        ok = self._free & (self.clearance >= START_CLEARANCE_M) & (self.m.room_ids >= 0)
        rows, cols = np.nonzero(ok)
        if rows.size == 0:
            raise GenerationFailed("no start cell")
        i = rng.randrange(rows.size)
        x, y = self.grid.cell_to_world(int(rows[i]), int(cols[i]))
        return StartPose(x=x, y=y, yaw=round(rng.uniform(-math.pi, math.pi), 4),
                         row=int(rows[i]), col=int(cols[i]))

    # --- stages --------------------------------------------------------------------------
    def _goal(self, obj: ObjectInstance) -> Region:
        mask = self.m.goal_region_mask(obj) & self._free
        if not mask.any():
            raise GenerationFailed(f"{obj.id} has no free goal cells")
        return Region.from_mask(f"near {obj.id}", mask,
                                construction={"op": "goal_region", "object": obj.id},
                                object_ids=(obj.id,))

    def _target_objects(self, refs: SceneRefs, exclude: set[str], avoid_room: int | None) -> list[ObjectInstance]:
        return [o for o in refs.objects if o.id not in exclude and o.room_id != avoid_room
                and o.category in lang.LANDMARKS]

    def _add_stages(self, draft: _Draft, refs: SceneRefs, rng: random.Random, n: int, *,
                    hard: bool) -> None:
        used: set[str] = set()
        prev_room = refs.start_room.id if refs.start_room else None
        for k in range(n):
            if rng.random() < (0.3 if hard else 0.2) and self._add_conditional(draft, refs, rng, used):
                continue
            pool = self._target_objects(refs, used, prev_room)
            rng.shuffle(pool)
            for obj in pool[:25]:
                ref = refs.best_object_ref(obj, prefer_deep=hard)
                if ref is None:
                    continue
                try:
                    target = self._goal(obj)
                except GenerationFailed:
                    continue
                draft.stages.append(_Stage(target=target, label=ref.text, sentence_ref=ref.text))
                draft.refs.append(ref)
                draft.constructs.append(ref.construct)
                used.add(obj.id)
                prev_room = obj.room_id
                break
            else:
                raise GenerationFailed(f"no describable target for stage {k}")

    def _add_conditional(self, draft: _Draft, refs: SceneRefs, rng: random.Random,
                         used: set[str]) -> bool:
        """"If the bedroom contains a lamp, go to the lamp; otherwise, go to the table"."""
        m = self.m
        rooms = [r for r in m.rooms if refs.room_refs(r)]
        if not rooms:
            return False
        room = rng.choice(rooms)
        # "the living room with a dog bed" cannot be asked whether it has a dog bed.
        plain = [r for r in refs.room_refs(room) if r.construct != "room_with_object"]
        if not plain:
            return False
        rref = rng.choice(plain)
        here = [o for o in m.objects_in_room(room.id) if o.category in lang.LANDMARKS]
        counts: dict[str, int] = {}
        for o in here:
            counts[o.category] = counts.get(o.category, 0) + 1
        present = [c for c, k in counts.items() if k == 1]
        absent = sorted(set(refs.by_cat) & lang.LANDMARKS - set(counts))
        holds = rng.random() < 0.5
        options = present if holds else absent
        if not options:
            return False
        cat = rng.choice(sorted(options))
        others = [o for o in refs.objects if o.id not in used and o.category in lang.LANDMARKS
                  and o.category != cat]
        rng.shuffle(others)
        alt = None
        for o in others[:15]:
            alt = refs.best_object_ref(o, prefer_deep=False)
            if alt is not None:
                alt_obj = o
                break
        if alt is None:
            return False
        chosen = next(o for o in here if o.category == cat) if holds else alt_obj
        if chosen.id in used:
            return False
        try:
            target = self._goal(chosen)
        except GenerationFailed:
            return False
        word = lang.noun(cat, rng)
        text = rng.choice(lang.CONDITIONAL).format(R=rref.text, a=lang.article(word), C=word,
                                                   X=alt.text)
        label = f"the {word} in {rref.text}" if holds else alt.text
        draft.stages.append(_Stage(target=target, label=label, sentence_ref=label,
                                   kind="conditional", extra={"sentence": lang.capitalise(text)}))
        branch = Ref(label, 1 + rref.depth if holds else alt.depth, (chosen.id,),
                     candidates=len(refs.by_cat.get(chosen.category, [])),
                     construct="conditional")
        draft.refs.extend([rref, branch] if holds else [rref, alt])
        draft.constructs.append("conditional")
        used.add(chosen.id)
        return True

    def _legs(self, draft: _Draft, start: StartPose) -> list[dict[str, Any]]:
        """Plan the stages hard-only; per leg: rooms crossed, cells, entry points."""
        ir = self._routeir(draft, start, hard_only_view=True)
        try:
            route = self.plan(self.m, ir, (start.x, start.y), hard_only=True,
                              **self._cfg())
        except Map2RouteError as err:
            raise GenerationFailed(str(err), "infeasible") from err
        legs: list[dict[str, Any]] = []
        cells = np.asarray(route.cells)
        stage_index = np.asarray(route.stage_index)
        for k in range(len(draft.stages)):
            sel = cells[stage_index == k]
            rooms = [int(r) for r in dict.fromkeys(self.m.room_ids[sel[:, 0], sel[:, 1]].tolist())
                     if r >= 0] if len(sel) else []
            legs.append({"cells": sel, "rooms": rooms})
        return legs

    def _cfg(self) -> dict[str, Any]:
        return {} if self.planner_config is None else {"config": self.planner_config}

    def _add_room_pass(self, draft: _Draft, refs: SceneRefs, rng: random.Random,
                       legs: list[dict[str, Any]]) -> bool:
        """A must-pass room inserted before a target stage ("pass through the living room")."""
        k = rng.randrange(len(draft.stages))
        crossed = set(legs[k]["rooms"])
        start_room = refs.start_room.id if refs.start_room else None
        candidates = [r for r in self.m.rooms if r.id not in crossed and r.id != start_room
                      and refs.room_refs(r)]
        if not candidates:
            return False
        room = rng.choice(candidates)
        rref = refs.best_room_ref(room)
        assert rref is not None
        mask = self.m.room_mask(room.id) & self._free
        if not mask.any():
            return False
        region = Region.from_mask(rref.text, mask, construction={"op": "room", "room": room.id})
        verb = rng.choice(lang.PASS_ROOM).format(R=rref.text)
        sentence = rng.choice((f"On the way to {draft.stages[k].label}, {verb}.",
                               f"Before reaching {draft.stages[k].label}, {verb}."))
        draft.stages.insert(k, _Stage(target=region, label=rref.text, sentence_ref=rref.text,
                                      kind="room", extra={"sentence": lang.capitalise(sentence)}))
        draft.refs.append(rref)
        draft.constructs.append("must_pass_room")
        # Constraints drafted so far are re-indexed by the caller's order (none exist yet).
        return True

    # --- hard: must-avoid -------------------------------------------------------------------
    def _add_avoid(self, draft: _Draft, refs: SceneRefs, rng: random.Random,
                   legs: list[dict[str, Any]], start: StartPose) -> bool:
        m = self.m
        targets = np.zeros(self.grid.shape, dtype=bool)
        for st in draft.stages:
            targets |= st.target.mask(self.grid)
        start_room = refs.start_room.id if refs.start_room else None
        if rng.random() < 0.55:
            crossed = {r for leg in legs for r in leg["rooms"]}
            rooms = [r for r in m.rooms if r.id != start_room and refs.room_refs(r)
                     and not (m.room_mask(r.id) & targets).any()]
            # Prefer a room the shortest route crosses, so the avoid changes the route.
            rooms.sort(key=lambda r: (r.id not in crossed, rng.random()))
            if not rooms:
                return False
            room = rooms[0]
            rref = refs.best_room_ref(room)
            assert rref is not None
            region = Region.from_mask(rref.text, m.room_mask(room.id),
                                      construction={"op": "room", "room": room.id})
            scope = None
            if len(draft.stages) > 1 and rng.random() < 0.4:
                k = rng.randrange(len(draft.stages))
                scope = (k,)
                sentence = rng.choice(lang.AVOID_ROOM_SCOPED).format(X=draft.stages[k].label,
                                                                    R=rref.text)
            else:
                sentence = rng.choice(lang.AVOID_ROOM).format(R=rref.text)
            draft.refs.append(rref)
            draft.constructs.append("avoid_room")
        else:
            cells = np.concatenate([leg["cells"] for leg in legs])
            near_route = self._objects_near_cells(refs, cells, 1.0)
            rng.shuffle(near_route)
            for obj in near_route:
                ref = refs.best_object_ref(obj, prefer_deep=False)
                if ref is None:
                    continue
                mask = m.disk_mask(obj.center, obj.radius_m + AVOID_ZONE_MARGIN_M)
                if obj.room_id is not None:
                    mask &= m.room_mask(obj.room_id)
                if (mask & targets).any() or mask[start.row, start.col]:
                    continue
                region = Region.from_mask(f"around {ref.text}", mask,
                                          construction={"op": "disk", "object": obj.id,
                                                        "margin_m": AVOID_ZONE_MARGIN_M},
                                          object_ids=(obj.id,))
                sentence = rng.choice(lang.AVOID_ZONE).format(O=ref.text)
                scope = None
                draft.refs.append(ref)
                draft.constructs.append("avoid_zone")
                break
            else:
                return False
        draft.constraints.append(Constraint(kind=ConstraintKind.MUST_AVOID, region=region,
                                            temporal_scope=scope, label=sentence))
        draft.sentences.append(sentence)
        return True

    def _objects_near_cells(self, refs: SceneRefs, cells: NDArray[Any], dist_m: float,
                            room_id: int | None = None) -> list[ObjectInstance]:
        if len(cells) == 0:
            return []
        tree = cKDTree(self.grid.cells_to_worlds(cells))
        out = []
        for o in refs.objects:
            if o.category not in lang.LANDMARKS or (room_id is not None and o.room_id != room_id):
                continue
            d, _ = tree.query(o.center)
            if d <= o.radius_m + dist_m:
                out.append(o)
        return out

    # --- soft preferences -------------------------------------------------------------------
    def _scope(self, draft: _Draft, refs: SceneRefs, rng: random.Random,
               legs: list[dict[str, Any]]) -> tuple[int, Room | None, Ref | None, tuple[int, ...] | None, str] | None:
        """(leg, room, room ref, temporal scope, scope phrase) for a soft preference."""
        k = rng.randrange(len(draft.stages))
        rooms = legs[k]["rooms"]
        mode = rng.choices(("spatial", "temporal", "both"), (0.45, 0.4, 0.15))[0]
        room = None
        rref = None
        if mode in ("spatial", "both"):
            options = [self.m.get_room(r) for r in rooms if refs.room_refs(self.m.get_room(r))]
            if not options:
                mode = "temporal"
            else:
                room = rng.choice(options)
                rref = refs.best_room_ref(room)
        target = draft.stages[k].label
        if mode == "spatial":
            assert rref is not None
            return k, room, rref, None, rng.choice(lang.SPATIAL_SCOPE).format(R=rref.text)
        temporal = rng.choice(lang.TEMPORAL_SCOPE).format(X=target)
        if mode == "both":
            assert rref is not None
            return k, room, rref, (k,), f"{temporal}, {rng.choice(lang.SPATIAL_SCOPE).format(R=rref.text)}"
        return k, None, None, (k,), temporal

    def _add_soft(self, draft: _Draft, refs: SceneRefs, rng: random.Random,
                  legs: list[dict[str, Any]], kind: str) -> bool:
        if kind == "path_shape":
            return self._add_path_shape(draft, refs, rng, legs)
        scoped = self._scope(draft, refs, rng, legs)
        if scoped is None:
            return False
        k, room, rref, temporal, phrase = scoped
        spatial = None
        if room is not None:
            spatial = Region.from_mask(rref.text if rref else "", self.m.room_mask(room.id),
                                       construction={"op": "room", "room": room.id})
        if kind == "clearance":
            verb = rng.choice(lang.CLEARANCE)
            sentence = self._soft_sentence(rng, phrase, verb)
            c = Constraint(kind=ConstraintKind.CLEARANCE, region=Region("obstacles",
                           np.zeros((0, 2), dtype=np.int32)), spatial_scope=spatial,
                           temporal_scope=temporal, label=sentence)
            draft.constructs.append("clearance")
        else:
            leg_cells = legs[k]["cells"]
            pool = self._objects_near_cells(refs, leg_cells, 2.5,
                                            room_id=None if room is None else room.id)
            targets = {i for st in draft.stages for i in st.target.object_ids}
            # Not a target, nor standing on one or holding one ("the TV on the TV stand").
            pool = [o for o in pool if o.id not in targets and o.parent_id not in targets
                    and not any(c.id in targets for c in self.m.children_of(o.id))]
            if room is None:
                # Without a spoken spatial scope the active region is the reference's room,
                # which the leg must cross (paper 000, III-A2: each preference has one).
                pool = [o for o in pool if o.room_id in legs[k]["rooms"]]
            rng.shuffle(pool)
            picked: list[tuple[ObjectInstance, Ref]] = []
            for o in pool:
                if picked and o.category == picked[0][0].category:
                    continue
                ref = refs.best_object_ref(o, prefer_deep=False)
                if ref is not None and rref is not None and rref.text in ref.text:
                    # "the lamp in the bedroom ... while crossing the bedroom": say it once.
                    others = [r for r in refs.object_refs(o, max_depth=3) if rref.text not in r.text]
                    ref = rng.choice(others) if others else ref
                if ref is not None:
                    picked.append((o, ref))
                if len(picked) == (2 if kind == "relative" else 1):
                    break
            if len(picked) < (2 if kind == "relative" else 1):
                return False
            region = self._footprint(picked[0][0])
            other = None
            if kind == "relative":
                other = self._footprint(picked[1][0])
                verb = rng.choice(lang.RELATIVE).format(A=picked[0][1].text, B=picked[1][1].text)
                ck = ConstraintKind.RELATIVE
            elif kind == "near":
                verb = rng.choice(lang.NEAR).format(O=picked[0][1].text)
                ck = ConstraintKind.NEAR
            else:
                verb = rng.choice(lang.FAR).format(O=picked[0][1].text)
                ck = ConstraintKind.FAR
            sentence = self._soft_sentence(rng, phrase, verb)
            if spatial is None and picked[0][0].room_id is not None:
                rid = picked[0][0].room_id
                spatial = Region.from_mask(f"the room of {picked[0][1].text}",
                                           self.m.room_mask(rid),
                                           construction={"op": "room", "room": rid,
                                                         "reason": "active_region"})
            c = Constraint(kind=ck, region=region, other=other, spatial_scope=spatial,
                           temporal_scope=temporal, label=sentence)
            draft.refs.extend(r for _, r in picked)
            draft.constructs.append(kind)
        if rref is not None:
            draft.refs.append(rref)
        if room is not None:
            draft.constructs.append("spatial_scope")
        if temporal is not None:
            draft.constructs.append("stage_scope")
        draft.constraints.append(c)
        draft.sentences.append(sentence)
        return True

    @staticmethod
    def _soft_sentence(rng: random.Random, phrase: str, verb: str) -> str:
        if rng.random() < 0.5:
            return lang.capitalise(f"{phrase}, {verb}.")
        return lang.capitalise(f"{verb} {phrase}.")

    def _footprint(self, obj: ObjectInstance) -> Region:
        mask = self.m.footprint_mask([obj])
        if not mask.any():
            row, col = self.grid.world_to_cell(*obj.center)
            mask[row, col] = True
        return Region.from_mask(obj.id, mask, construction={"op": "footprint", "object": obj.id},
                                object_ids=(obj.id,))

    def _add_path_shape(self, draft: _Draft, refs: SceneRefs, rng: random.Random,
                        legs: list[dict[str, Any]]) -> bool:
        """Circle an object or follow a room's walls, as ordered waypoints of one stage."""
        k = rng.randrange(len(draft.stages))
        if draft.stages[k].waypoints:
            return False
        leg = legs[k]["cells"]
        if len(leg) == 0:
            return False
        entry = self.grid.cells_to_worlds(leg[:1])[0]
        ccw = rng.random() < 0.5
        direction = rng.choice(("counterclockwise", "anticlockwise")) if ccw else "clockwise"
        shape = None
        for _, loop, verb, ref, label in self._shape_candidates(draft, refs, rng, legs, k, entry,
                                                                 ccw, direction):
            ref_cells = self._reference_loop(loop)
            if ref_cells is not None:
                shape = (loop, verb, ref, label, ref_cells)
                break
        if shape is None:
            return False
        loop, verb, ref, label, ref_cells = shape
        draft.refs.append(ref)
        # The active region is a band around tau_ref: approach and exit legs elsewhere in the
        # room are not part of the shape and must not enter W_R(tau).
        on_ref = np.ones(self.grid.shape, dtype=bool)
        on_ref[ref_cells[:, 0], ref_cells[:, 1]] = False
        band = self.grid.cells_to_meters(distance_transform_edt(on_ref)) <= PATH_SHAPE_BAND_M
        scope_mask = band & self._free
        waypoint_regions = []
        for i, (r, c) in enumerate(loop):
            x, y = self.grid.cell_to_world(r, c)
            mask = self.m.disk_mask((x, y), WAYPOINT_RADIUS_M) & self._free
            waypoint_regions.append(Region.from_mask(f"{label} waypoint {i}", mask,
                                                     construction={"op": "waypoint", "index": i}))
        phrase = rng.choice(lang.TEMPORAL_SCOPE[:2]).format(X=draft.stages[k].label)
        sentence = self._soft_sentence(rng, phrase, verb)
        draft.stages[k].waypoints = waypoint_regions
        uniq = np.unique(ref_cells, axis=0).astype(np.int32)
        constraint = Constraint(kind=ConstraintKind.PATH_SHAPE,
                                region=Region(label, uniq, construction={"op": "path_shape",
                                                                         "direction": direction}),
                                spatial_scope=Region.from_mask(f"scope {label}", scope_mask),
                                temporal_scope=(k,), label=sentence)
        draft.shape_refs[len(draft.constraints)] = self.grid.cells_to_worlds(ref_cells)
        draft.constraints.append(constraint)
        draft.sentences.append(sentence)
        draft.constructs.extend(["path_shape", "stage_scope"])
        return True

    def _shape_candidates(self, draft: _Draft, refs: SceneRefs, rng: random.Random,
                          legs: list[dict[str, Any]], k: int, entry: NDArray[np.float64],
                          ccw: bool, direction: str) -> Any:
        """Yield ``(kind, closed waypoint loop, verb phrase, ref, label)`` to try in order."""
        leg = legs[k]["cells"]
        kinds = ["circle", "walls"] if rng.random() < 0.6 else ["walls", "circle"]
        for kind in kinds:
            if kind == "circle":
                pool = self._objects_near_cells(refs, leg, 2.5)
                targets = {i for st in draft.stages for i in st.target.object_ids}
                pool = [o for o in pool if o.id not in targets and o.radius_m < 1.5]
                rng.shuffle(pool)
                for obj in pool[:8]:
                    ref = refs.best_object_ref(obj, prefer_deep=False)
                    if ref is None:
                        continue
                    a0 = math.atan2(entry[1] - obj.center[1], entry[0] - obj.center[0])
                    sign = 1.0 if ccw else -1.0
                    for offset in CIRCLE_OFFSETS_M:
                        radius = obj.radius_m + offset
                        pts = [(obj.center[0] + radius * math.cos(a0 + sign * i * math.pi / 4),
                                obj.center[1] + radius * math.sin(a0 + sign * i * math.pi / 4))
                               for i in range(8)]
                        corners = self._snap(pts)
                        if corners is not None:
                            verb = rng.choice(lang.CIRCLE).format(O=ref.text, DIR=direction)
                            yield kind, [*corners, corners[0]], verb, ref, f"around {ref.text}"
                            break
            else:
                rooms = [self.m.get_room(r) for r in legs[k]["rooms"]]
                rooms = [r for r in rooms if refs.room_refs(r)]
                rng.shuffle(rooms)
                for room in rooms:
                    corners = self._room_corners(room, entry, ccw)
                    rref = refs.best_room_ref(room)
                    if corners is None or rref is None:
                        continue
                    verb = rng.choice(lang.WALLS).format(R=rref.text, DIR=direction)
                    yield kind, [*corners, corners[0]], verb, rref, f"along the walls of {rref.text}"

    def _reference_loop(self, loop: list[tuple[int, int]]) -> NDArray[np.int32] | None:
        """tau_ref through the closed waypoint loop, or ``None`` if it is a detour."""
        # tau_ref is how a person walks the loop: short, but clear of furniture.
        try:
            ref_cells = comfortable_walk(self._free, self.grid.resolution, loop,
                                         clearance=self.clearance)
        except Map2RouteError:
            return None
        ref_len = float(self.grid.cells_to_meters(np.linalg.norm(np.diff(ref_cells, axis=0), axis=1).sum()))
        ring_len = sum(math.dist(self.grid.cell_to_world(*a), self.grid.cell_to_world(*b))
                       for a, b in zip(loop[:-1], loop[1:], strict=True))
        if ref_len > MAX_SHAPE_DETOUR * ring_len:
            return None  # furniture blocks the shape: the loop would be a detour, not a shape
        return ref_cells

    def _snap(self, pts: list[tuple[float, float]]) -> list[tuple[int, int]] | None:
        """Each point to a free cell with 0.15 m clearance within 0.3 m, or ``None``."""
        ok = self._free & (self.clearance >= 0.15)
        out = []
        reach = int(round(self.grid.meters_to_cells(0.35)))
        for x, y in pts:
            r, c = self.grid.world_to_cell(x, y)
            r0, r1 = max(0, r - reach), min(self.grid.rows, r + reach + 1)
            c0, c1 = max(0, c - reach), min(self.grid.cols, c + reach + 1)
            rr, cc = np.nonzero(ok[r0:r1, c0:c1])
            if rr.size == 0:
                return None
            d = (rr + r0 - r) ** 2 + (cc + c0 - c) ** 2
            i = int(np.argmin(d))
            out.append((int(rr[i] + r0), int(cc[i] + c0)))
        return out

    def _room_corners(self, room: Room, entry: NDArray[np.float64],
                      ccw: bool) -> list[tuple[int, int]] | None:
        poly = Polygon(room.polygon).buffer(-WALL_INSET_M, join_style=2)
        if poly.is_empty or poly.geom_type != "Polygon" or poly.area < 2.0:
            return None
        ring = list(orient(poly, 1.0 if ccw else -1.0).exterior.coords)[:-1]
        if len(ring) > 8:
            return None
        first = min(range(len(ring)), key=lambda i: math.dist(ring[i], entry))
        ring = ring[first:] + ring[:first]
        return self._snap([(float(x), float(y)) for x, y in ring])

    # --- text + checks --------------------------------------------------------------------
    def _stage_sentences(self, draft: _Draft, rng: random.Random) -> list[tuple[list[int], str]]:
        """Stage sentences in route order, each with the stage indices it introduces."""
        stages = draft.stages
        out: list[tuple[list[int], str]] = []
        i = 0
        n = len(stages)
        while i < n:
            st = stages[i]
            if st.kind == "conditional":
                text = st.extra["sentence"]
                if i > 0:
                    text = rng.choice(("Next, ", "After that, ", "Then, ")) + text[:1].lower() + text[1:]
                out.append(([i], text))
                i += 1
                continue
            if st.kind == "room":
                # "On the way to X, pass through R": said right after X is introduced.
                nxt = stages[i + 1] if i + 1 < n else None
                if nxt is not None and nxt.kind == "object":
                    tpl = rng.choice(lang.FIRST_GOAL if i == 0 else lang.NEXT_GOAL)
                    out.append(([i, i + 1], f"{tpl.format(X=nxt.sentence_ref)} {st.extra['sentence']}"))
                    i += 2
                else:
                    out.append(([i], st.extra["sentence"]))
                    i += 1
                continue
            nxt = stages[i + 1] if i + 1 < n else None
            if nxt is not None and nxt.kind == "object" and rng.random() < 0.3:
                tpl = rng.choice(lang.BEFORE_GOAL + lang.AFTER_GOAL)
                if i > 0:
                    tpl = "Then, " + tpl[:1].lower() + tpl[1:]
                out.append(([i, i + 1], lang.capitalise(tpl.format(A=st.sentence_ref,
                                                                   B=nxt.sentence_ref))))
                draft.constructs.append("ordering")
                i += 2
                continue
            if i == 0:
                tpl = rng.choice(lang.FIRST_GOAL)
            elif i == n - 1 and n > 1:
                tpl = rng.choice(lang.LAST_GOAL)
            else:
                tpl = rng.choice(lang.NEXT_GOAL)
            out.append(([i], tpl.format(X=st.sentence_ref)))
            i += 1
        if n > 1:
            draft.constructs.append("multiple_destinations")
        return out

    def _instruction(self, draft: _Draft, rng: random.Random) -> str:
        """Stage sentences in order; each constraint sentence after the stage it names."""
        stage_blocks = self._stage_sentences(draft, rng)
        blocks = [[text] for _, text in stage_blocks]
        owner: dict[int, int] = {}
        for b, (stage_ids, _) in enumerate(stage_blocks):
            for k in stage_ids:
                owner[k] = b
        for c, sentence in zip(draft.constraints, draft.sentences, strict=True):
            if c.temporal_scope is not None:
                b = owner.get(c.temporal_scope[0], 0)
            else:
                b = rng.randrange(len(blocks))
            blocks[b].append(sentence)
        for block in blocks:
            tail = block[1:]
            rng.shuffle(tail)
            block[1:] = tail
        return " ".join(s for block in blocks for s in block)

    def _routeir(self, draft: _Draft, start: StartPose, *, hard_only_view: bool = False) -> RouteIR:
        stages = tuple(Stage(target=s.target, waypoints=tuple(s.waypoints), label=s.label)
                       for s in draft.stages)
        constraints = () if hard_only_view else tuple(draft.constraints)
        if hard_only_view:
            constraints = tuple(c for c in draft.constraints if c.kind is ConstraintKind.MUST_AVOID)
        return RouteIR(stages=stages, constraints=constraints, grid=self.grid,
                       start=(start.x, start.y), scene=self.m.name,
                       metadata={"generator": GENERATOR})

    def _finish(self, draft: _Draft, rng: random.Random, start: StartPose, *, episode_id: str,
                split: str, difficulty: str, seed: int, attempt: int) -> Episode:
        ir = self._routeir(draft, start)
        if ir.stages and any(s.target.is_empty for s in ir.stages):
            raise GenerationFailed("empty target")
        instruction = self._instruction(draft, rng)
        try:
            full = self.plan(self.m, ir, (start.x, start.y), **self._cfg())
            short = self.plan(self.m, hard_requirements(ir), (start.x, start.y), hard_only=True,
                              **self._cfg())
        except Map2RouteError as err:
            raise GenerationFailed(str(err), "infeasible") from err
        if float(short.length_m) < MIN_ROUTE_M:
            raise GenerationFailed("the start already lies at the goal", "trivial")
        exprs = tuple(ReferringExpression(text=r.text,
                                          object_ids=r.object_ids or (() if r.room_id is None
                                                                      else (f"room:{r.room_id}",)),
                                          depth=r.depth, candidates=r.candidates)
                      for r in draft.refs)
        n_hard = len(ir.stages) + len(ir.must_avoid)
        info = ReferenceInfo(depth=max((r.depth for r in draft.refs), default=0),
                             candidate_instances=max((r.candidates for r in draft.refs), default=0),
                             hard_constraints=n_hard, soft_constraints=len(ir.soft),
                             referring_expressions=exprs, **route_reference(self.m, full, short))
        ep = Episode(id=episode_id, scene=self.m.name, split=split, start=start,
                     instruction=instruction, routeir=ir, path_shape_references=dict(draft.shape_refs),
                     reference=info,
                     metadata={"generator": GENERATOR, "seed": seed, "attempt": attempt,
                               "difficulty": difficulty,
                               "constructs": sorted(set(draft.constructs))})
        for route in (full, short):
            # Our requirement reading (the destination held at the end) and the official HCS
            # (a stage completes where the route first touches its target, and the next stage's
            # must-avoids count from there: validate.py), so a shipped episode passes both.
            why = route_problem(ep, self.m, route.points)
            if why is not None:
                raise GenerationFailed(f"a planned route is invalid: {why}", "unverified")
        return ep


def route_reference(m: SemanticMap, full: Any, short: Any) -> dict[str, Any]:
    """The reference numbers of an episode from its planned routes: the rooms the full route
    passes through, its length, and L* (the hard-only route's length)."""
    cells = np.asarray(full.cells)
    rooms = {int(v) for v in m.room_ids[cells[:, 0], cells[:, 1]].tolist() if v >= 0}
    return {"rooms_traversed": len(rooms), "trajectory_length_m": path_length_m(full.points),
            "shortest_length_m": float(short.length_m)}
