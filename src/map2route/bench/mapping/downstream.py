"""The downstream number: Map2Route HCS of the oracle episodes re-grounded on a built map.

An episode's ground-truth RouteIR is resolved on the true scene. :func:`reground` moves it onto
a built map the way a grounder that knows the right answer would, with only what the built map
holds:

- an object (stage goal region ``G_O``, footprint, avoid disk): the built object matched to it
  by :func:`map2route.mapping.score.match_objects` (same category, footprint IoU >= 0.25, one to
  one, as ``map2route map score`` counts it); the region is rebuilt from the built object
  (``G_O`` = built room cells within ``r_O + 1 m`` of the built centre, free cells only);
- a room: the built room that covers most of the true room's free cells;
- anything else (Path-Shape waypoints and reference cells, band scopes): the same places in
  metres, moved cell by cell onto the built grid.

When a stage's object or room has no counterpart, the episode cannot be grounded on the built
map: no route, HCS 0 (what a robot with that map would get). A must-avoid or soft constraint
whose reference is missing is dropped (the robot does not know to avoid it; the score on the
true map then says whether that cost a requirement).

:func:`downstream_hcs` plans each episode with the scope-aware planner (the ``oracle`` method)
on the built map and on the true map and scores both routes on the true map with the
benchmark's own :func:`map2route.bench.map2route.scoring.score_route`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.ndimage import distance_transform_edt

from map2route.bench.map2route.scoring import score_route
from map2route.errors import Map2RouteError
from map2route.mapping.errors import MappingError
from map2route.mapping.score import match_objects, sample_layer, scored_objects
from map2route.planning import PlannerConfig, plan_route
from map2route.routeir import Region, RouteIR, Stage

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.bench.map2route.episode import Episode
    from map2route.semantic_map.model import ObjectInstance, SemanticMap


class MissingReference(MappingError):
    """A region of the episode has no counterpart on the built map."""


@dataclass(frozen=True)
class Correspondence:
    """True -> built object ids and room ids."""

    objects: dict[str, ObjectInstance]
    rooms: dict[int, int]

    @classmethod
    def between(cls, built: SemanticMap, truth: SemanticMap) -> Correspondence:
        b_objs, t_objs = scored_objects(built), scored_objects(truth)
        objects = {t_objs[j].id: b_objs[i] for i, j, _ in match_objects(b_objs, t_objs)}
        b_rooms = sample_layer(built, built.room_ids, truth, -1)
        rooms: dict[int, int] = {}
        for r in truth.rooms:
            under = b_rooms[(truth.room_ids == r.id) & ~truth.walls]
            under = under[under >= 0]
            if under.size:
                rooms[r.id] = int(np.bincount(under).argmax())
        return cls(objects=objects, rooms=rooms)


def _move_cells(cells: NDArray[np.integer], truth: SemanticMap, built: SemanticMap
                ) -> NDArray[np.bool_]:
    mask = np.zeros(built.grid.shape, dtype=bool)
    if len(cells) == 0:
        return mask
    rc = built.grid.worlds_to_cells(truth.grid.cells_to_worlds(np.asarray(cells)))
    ok = (rc[:, 0] >= 0) & (rc[:, 0] < built.grid.rows) & (rc[:, 1] >= 0) & (rc[:, 1] < built.grid.cols)
    mask[rc[ok, 0], rc[ok, 1]] = True
    return mask


def _object(corr: Correspondence, oid: str) -> ObjectInstance:
    if oid not in corr.objects:
        msg = f"object {oid!r} has no match on the built map"
        raise MissingReference(msg)
    return corr.objects[oid]


def reground_region(region: Region, truth: SemanticMap, built: SemanticMap,
                    corr: Correspondence, *, free_only: bool = False) -> Region:
    """``region`` (resolved on ``truth``) resolved on ``built``.

    Raises:
        MissingReference: its object or room has no counterpart, or it comes out empty.
    """
    op = dict(region.construction)
    kind = op.get("op")
    ids: tuple[str, ...] = region.object_ids
    if kind == "goal_region":
        obj = _object(corr, str(op["object"]))
        mask = built.goal_region_mask(obj)
        ids = (obj.id,)
    elif kind == "footprint":
        objs = [_object(corr, str(o)) for o in (op.get("objects") or [op["object"]])]
        mask = built.footprint_mask(objs)
        if not mask.any():
            mask[built.grid.world_to_cell(*objs[0].center)] = True
        ids = tuple(o.id for o in objs)
    elif kind == "disk" and "object" in op:
        obj = _object(corr, str(op["object"]))
        mask = built.disk_mask(obj.center, obj.radius_m + float(op.get("margin_m", 0.3)))
        if obj.room_id is not None:
            mask &= built.room_mask(obj.room_id)
        ids = (obj.id,)
    elif kind == "room":
        rid = int(op["room"])
        if rid not in corr.rooms:
            msg = f"room {rid} has no counterpart on the built map"
            raise MissingReference(msg)
        mask = built.room_mask(corr.rooms[rid])
    else:  # geometry in metres: Path-Shape waypoints and references, band scopes
        mask = _move_cells(region.cells, truth, built)
    if free_only:
        mask = mask & built.traversable
    if not mask.any():
        msg = f"region {region.label!r} is empty on the built map"
        raise MissingReference(msg)
    return Region.from_mask(region.label, mask, construction=op, object_ids=ids)


def _shrink(region: Region, grid: Any, margin_m: float) -> Region:
    """``region`` without the cells within ``margin_m`` of its edge (itself if none is left)."""
    mask = region.mask(grid)
    inner = grid.cells_to_meters(distance_transform_edt(np.pad(mask, 1))[1:-1, 1:-1]) > margin_m
    return replace(region, cells=np.argwhere(inner).astype(np.int32)) if inner.any() else region


#: How far into a re-grounded stage target a route on a built map is planned (m). The planner
#: stops at a target's first cell, so the route ends on the target's edge, and the built edge
#: is off by the map's error: the centroid error of matched objects (0.06-0.10 m measured) plus
#: half the footprint's size error (a face seen or not: 0.05-0.1 m), about 0.2 m together.
#: Goal rings are r_O..r_O + 1 m wide, so 0.2 m leaves most of each ring; a target that would
#: vanish is kept whole (:func:`_shrink`).
BUILT_MAP_GOAL_MARGIN_M = 0.2


def reground(ir: RouteIR, truth: SemanticMap, built: SemanticMap,
             corr: Correspondence | None = None, *,
             goal_margin_m: float = 0.0) -> tuple[RouteIR, list[str]]:
    """``ir`` resolved on ``built`` and the constraints dropped on the way (one line each).

    ``goal_margin_m`` > 0 shrinks each stage target by that much (the planner stops at the
    first cell of a target, so a target a few centimetres too large or too far ends the route
    just outside the true one; a margin asks the robot to go that much further in).

    Raises:
        MissingReference: a stage target cannot be resolved on the built map.
    """
    corr = corr or Correspondence.between(built, truth)
    stages = []
    for k, st in enumerate(ir.stages):
        try:
            target = reground_region(st.target, truth, built, corr, free_only=True)
            if goal_margin_m > 0:
                target = _shrink(target, built.grid, goal_margin_m)
        except MissingReference as err:
            msg = f"stage {k} ({st.label or st.target.label!r}): {err}"
            raise MissingReference(msg) from err
        waypoints = []
        for wp in st.waypoints:
            try:
                waypoints.append(reground_region(wp, truth, built, corr, free_only=True))
            except MissingReference:
                continue
        stages.append(Stage(target=target, waypoints=tuple(waypoints), label=st.label))
    constraints = []
    dropped: list[str] = []
    for i, c in enumerate(ir.constraints):
        try:
            region = reground_region(c.region, truth, built, corr) if c.region.size else c.region
            other = reground_region(c.other, truth, built, corr) if c.other is not None else None
            scope = (reground_region(c.spatial_scope, truth, built, corr)
                     if c.spatial_scope is not None else None)
        except MissingReference as err:
            dropped.append(f"constraint {i} ({c.kind.value}): {err}")
            continue
        constraints.append(replace(c, region=region, other=other, spatial_scope=scope))
    return (RouteIR(stages=tuple(stages), constraints=tuple(constraints), grid=built.grid,
                    start=ir.start, scene=built.name, metadata=dict(ir.metadata)), dropped)


@dataclass
class EpisodeHCS:
    """One episode's HCS planned on the true map and on the built one (both scored on truth)."""

    episode_id: str
    hcs_true: float
    hcs_built: float
    error: str | None = None
    dropped: list[str] = field(default_factory=list)


@dataclass
class DownstreamResult:
    """HCS over the episodes of one scene, on the true map and on the built map."""

    episodes: list[EpisodeHCS]

    @property
    def hcs_true(self) -> float:
        return float(np.mean([e.hcs_true for e in self.episodes])) if self.episodes else float("nan")

    @property
    def hcs_built(self) -> float:
        return float(np.mean([e.hcs_built for e in self.episodes])) if self.episodes else float("nan")

    @property
    def grounded(self) -> int:
        """Episodes whose every stage could be grounded on the built map."""
        return sum(e.error is None for e in self.episodes)

    def as_dict(self) -> dict[str, Any]:
        return {"episodes": len(self.episodes), "grounded": self.grounded,
                "hcs_true": self.hcs_true, "hcs_built": self.hcs_built,
                "per_episode": [e.__dict__ for e in self.episodes]}


def downstream_hcs(built: SemanticMap, truth: SemanticMap, episodes: list[Episode], *,
                   config: PlannerConfig | None = None,
                   goal_margin_m: float = BUILT_MAP_GOAL_MARGIN_M) -> DownstreamResult:
    """Plan every episode on ``truth`` and re-grounded on ``built``; HCS of both on ``truth``.

    ``goal_margin_m``: see :func:`reground` and :data:`BUILT_MAP_GOAL_MARGIN_M` (the
    true-map plan never uses one; 0 plans to the built target's edge).

    Raises:
        MappingError: an episode belongs to another scene (its grid is not ``truth``'s).
    """
    cfg = config or PlannerConfig.from_yaml()
    corr = Correspondence.between(built, truth)
    out = []
    for ep in episodes:
        if ep.routeir.grid.shape != truth.grid.shape:
            msg = (f"episode {ep.id!r} was generated on a {ep.routeir.grid.rows}x"
                   f"{ep.routeir.grid.cols} grid, the true map {truth.name!r} is "
                   f"{truth.grid.rows}x{truth.grid.cols}: pass the episodes of this scene")
            raise MappingError(msg)
        try:
            route = plan_route(truth, ep.routeir, ep.start_xy, config=cfg).points
        except Map2RouteError:
            route = None
        hcs_true = score_route(ep, truth, route).hcs
        error: str | None = None
        dropped: list[str] = []
        points = None
        try:
            ir, dropped = reground(ep.routeir, truth, built, corr, goal_margin_m=goal_margin_m)
            points = plan_route(built, ir, ep.start_xy, config=cfg).points
        except Map2RouteError as err:
            error = str(err).splitlines()[0]
        out.append(EpisodeHCS(episode_id=ep.id, hcs_true=hcs_true,
                              hcs_built=score_route(ep, truth, points).hcs, error=error,
                              dropped=dropped))
    return DownstreamResult(episodes=out)
