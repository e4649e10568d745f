"""GroundedProgram schema v2 (the official release's grounding output) <-> our RouteIR.

An official GroundedProgram (``schema_version: 2``) lists ordered ``segments``, each with an
``id``, a ``start_reference``, an ``action`` ``{"type": "go_to", "target": ref}`` and its
``constraints`` (``constraint_id``, ``kind``, ``refs``, ``argument_roles``, ``hardness``,
``segment_scope``, ``spatial_scope``, ``relation``, ``source_text``), plus ``bindings`` and
``diagnostics``. A ref is ``{"kind": "position" | "entity" | "room" | "region", "id", ...}``
with ``cell_count``/``bbox`` but no cells; we add the cells under ``map2route_region`` (the
RouteIR region JSON: run-lengths on the map grid), which official readers ignore.

Mapping (docs/grounding.md, "Official API parity"):

- segment <-> stage (the target ref <-> the stage target); ``require_visit`` and
  ``require_visit_in_order`` refs <-> the stage's ordered waypoints;
- ``forbid`` <-> must-avoid; ``prefer_near``/``prefer_far``/``prefer_relative`` <->
  Near/Far/Relative (``relation: farther_from`` swaps the references);
- ``prefer_path_shape``: officially its refs are waypoints; we pass them as stage waypoints
  and prefer the reference path through them. Our Path-Shape constraint is written as a
  ``prefer_path_shape`` whose one ref is the reference path (``map2route.reference_path``);
- ``segment_scope`` ids <-> temporal scope stage indices (``[]`` = global);
- our Clearance preference and constraint weights have no official field: they travel in
  ``map2route`` keys and ``diagnostics`` says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.grounding.errors import GroundingError
from map2route.routeir.model import Constraint, ConstraintKind, Region, RouteIR, Stage
from map2route.semantic_map import geometry

if TYPE_CHECKING:
    from map2route.semantic_map.grid import GridSpec
    from map2route.semantic_map.model import SemanticMap

SCHEMA_VERSION = 2
_SOFT_KIND = {ConstraintKind.NEAR: "prefer_near", ConstraintKind.FAR: "prefer_far",
              ConstraintKind.RELATIVE: "prefer_relative",
              ConstraintKind.MUST_AVOID: "forbid"}
_OUR_KIND = {v: k for k, v in _SOFT_KIND.items()}
_VISIT_KINDS = ("require_visit", "require_visit_in_order")
#: Half-width of the Path-Shape active band around an imported official path shape (metres);
#: the same band :mod:`~map2route.grounding.assemble` gives a grounded shape.
PATH_BAND_M = 1.0


# --- RouteIR -> GroundedProgram v2 -----------------------------------------------------------
def _ref(region: Region, grid: GridSpec, fallback_id: str) -> dict[str, Any]:
    """A region as an official ref, with its cells under ``map2route_region``."""
    con = {k: v for k, v in region.construction.items() if k != "official"}
    op = con.get("op")
    if op == "goal_region" and "object" in con:
        kind, rid = "entity", str(con["object"])
    elif op == "room" and "room" in con:
        kind, rid = "room", str(con["room"])
    else:
        kind, rid = "region", fallback_id
    out: dict[str, Any] = {"kind": kind, "id": rid, "label": region.label}
    if region.size:
        rows, cols = region.cells[:, 0], region.cells[:, 1]
        out["cell_count"] = region.size
        out["bbox"] = [int(rows.min()), int(cols.min()), int(rows.max()), int(cols.max())]
    if con:
        out["construction"] = con
    out["map2route_region"] = Region(label=region.label, cells=region.cells, construction=con,
                                     object_ids=region.object_ids).to_json(grid)
    return out


def _constraint_doc(cid: str, kind: str, refs: list[dict[str, Any]], roles: list[str],
                    scope: list[str], spatial: dict[str, Any] | None, source_text: str,
                    extra: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "constraint_id": cid, "kind": kind, "refs": refs, "argument_roles": roles,
        "hardness": "soft" if kind.startswith("prefer_") else "hard",
        "segment_scope": scope, "spatial_scope": spatial,
        "scope": {"segment_scope": scope, "spatial_scope": spatial,
                  "is_global": not scope and spatial is None}}
    if source_text:
        out["source_text"] = source_text
    if extra:
        out["map2route"] = extra
    return out


def routeir_to_grounded_program(ir: RouteIR) -> dict[str, Any]:
    """The GroundedProgram v2 document of a RouteIR (see the module docstring)."""
    gp = ir.metadata.get("grounded_program") or {}
    seg_meta = gp.get("segments") or []
    ids = [str(seg_meta[i]["id"]) if i < len(seg_meta) and isinstance(seg_meta[i], dict)
           and seg_meta[i].get("id") else f"s{i + 1}" for i in range(len(ir.stages))]
    g = ir.grid
    segments: list[dict[str, Any]] = []
    used: set[str] = set()

    def new_id(sid: str, meta: dict[str, Any], suffix: str) -> str:
        cid = str(meta.get("constraint_id") or f"{sid}_c{len(used)}")
        while cid in used:
            cid = f"{cid}{suffix}"
        used.add(cid)
        return cid

    for i, st in enumerate(ir.stages):
        if i == 0:
            start: dict[str, Any] = {"kind": "position", "id": "task_start"}
            if ir.start is not None:
                start["center"] = list(g.world_to_cell(*ir.start))
                start["map2route"] = {"start_xy": [float(ir.start[0]), float(ir.start[1])]}
        else:
            start = _ref(ir.stages[i - 1].target, g, f"{ids[i - 1]}_target")
        segments.append({"id": ids[i], "segment_id": ids[i], "start_reference": start,
                         "action": {"type": "go_to", "target": _ref(st.target, g,
                                                                    f"{ids[i]}_target")},
                         "constraints": [], "map2route": {"label": st.label}})
        # waypoints, grouped by the official clause they came from
        groups: list[tuple[dict[str, Any], list[Region]]] = []
        for w in st.waypoints:
            meta = w.construction.get("official") or {}
            if groups and groups[-1][0].get("constraint_id") == meta.get("constraint_id"):
                groups[-1][1].append(w)
            else:
                groups.append((meta, [w]))
        for meta, ws in groups:
            kind = str(meta.get("kind") or "require_visit_in_order")
            cid = new_id(ids[i], meta, "_w")
            segments[i]["constraints"].append(_constraint_doc(
                cid, kind, [_ref(w, g, f"{cid}_{k}") for k, w in enumerate(ws)],
                ["waypoint" if kind == "prefer_path_shape" else "region"] * len(ws), [ids[i]],
                None, str(meta.get("source_text") or ""), {"stage_waypoints": True}))
    diagnostics: list[str] = []
    for c in ir.constraints:
        meta = c.region.construction.get("official") or {}
        scope = [] if c.temporal_scope is None else [ids[t] for t in c.temporal_scope
                                                     if 0 <= t < len(ids)]
        host = (c.temporal_scope or (0,))[0]
        sid = ids[host] if 0 <= host < len(ids) else ids[0]
        if meta.get("host_segment") in ids:
            sid = str(meta["host_segment"])  # the segment that declared it, as read
        extra: dict[str, Any] = {"label": c.label}
        if c.weight != 1.0:
            extra["weight"] = c.weight
        spatial = None if c.spatial_scope is None else _ref(c.spatial_scope, g, f"{sid}_scope")
        text = str(meta.get("source_text") or "")
        if c.kind is ConstraintKind.CLEARANCE:
            # no official kind: kept in our extension, named in the diagnostics
            extra["clearance"] = True
            diagnostics.append(f"map2route: a clearance preference ({c.label!r}) has no "
                               "official constraint kind; it is kept under 'map2route'")
            segments[ids.index(sid)].setdefault("map2route", {}).setdefault(
                "constraints", []).append({"kind": "clearance", "segment_scope": scope,
                                           "spatial_scope": spatial, **extra})
            continue
        if c.kind is ConstraintKind.PATH_SHAPE:
            cid = new_id(sid, meta, "_path")
            doc = _constraint_doc(cid, "prefer_path_shape", [_ref(c.region, g, f"{cid}_path")],
                                  ["reference_path"], scope, spatial, text,
                                  {**extra, "reference_path": True})
        elif c.kind is ConstraintKind.RELATIVE:
            cid = new_id(sid, meta, "_r")
            assert c.other is not None
            closer, farther = _ref(c.region, g, f"{cid}_closer"), _ref(c.other, g, f"{cid}_farther")
            relation = str(meta.get("relation") or "closer_to")
            refs, roles = ([farther, closer], ["farther_ref", "closer_ref"]) \
                if relation == "farther_from" else ([closer, farther], ["closer_ref", "farther_ref"])
            doc = _constraint_doc(cid, "prefer_relative", refs, roles, scope, spatial, text, extra)
            doc["relation"] = relation
        else:
            cid = new_id(sid, meta, "_k")
            kind = _SOFT_KIND[c.kind]
            doc = _constraint_doc(cid, kind, [_ref(c.region, g, f"{cid}_ref")],
                                  ["region" if kind == "forbid" else "reference"], scope,
                                  spatial, text, extra)
        segments[ids.index(sid)]["constraints"].append(doc)
    return {"schema_version": SCHEMA_VERSION, "status": "success", "failure_reason": None,
            "segments": segments, "bindings": dict(gp.get("bindings") or {}),
            "diagnostics": [*map(str, gp.get("diagnostics") or []), *diagnostics],
            "map2route": {"scene": ir.scene, "grid": {"rows": g.rows, "cols": g.cols,
                                                      "resolution": g.resolution},
                          "metadata": {k: v for k, v in ir.metadata.items()
                                       if k != "grounded_program"}}}


# --- GroundedProgram v2 -> RouteIR -----------------------------------------------------------
def _fail(msg: str) -> GroundingError:
    return GroundingError(f"GroundedProgram v2: {msg}")


def _region(ref: Any, m: SemanticMap, where: str) -> Region:
    """A ref as a region: its ``map2route_region`` cells, else the entity's goal region or the
    room's cells on ``m``; an official region ref without cells cannot be rebuilt."""
    if not isinstance(ref, dict) or "kind" not in ref:
        raise _fail(f"{where} is not a ref object with a 'kind'")
    if isinstance(ref.get("map2route_region"), dict):
        try:
            return Region.from_json(ref["map2route_region"], m.grid)
        except Exception as err:  # noqa: BLE001 - any malformed region is named here
            raise _fail(f"{where}: {err}") from err
    kind, rid = ref.get("kind"), str(ref.get("id", ""))
    label = str(ref.get("label") or rid)
    con = dict(ref.get("construction") or {})
    if kind == "entity":
        obj = next((o for o in m.objects if o.id == rid), None)
        if obj is None:
            raise _fail(f"{where} names entity {rid!r}, which map {m.name!r} lacks")
        return Region.from_mask(label, m.goal_region_mask(obj), object_ids=(rid,),
                                construction=con or {"op": "goal_region", "object": rid})
    if kind == "room":
        if not rid.lstrip("-").isdigit() or int(rid) not in {r.id for r in m.rooms}:
            raise _fail(f"{where} names room {rid!r}, which map {m.name!r} lacks")
        return Region.from_mask(label, np.asarray(m.room_ids == int(rid)),
                                construction=con or {"op": "room", "room": int(rid)})
    raise _fail(f"{where} is a {kind!r} ref without cells (official v2 documents list only "
                "cell_count and bbox); write it with map2route, or use an entity or room ref")


def _with_official(r: Region, meta: dict[str, Any]) -> Region:
    return Region(label=r.label, cells=r.cells, construction={**r.construction, "official": meta},
                  object_ids=r.object_ids)


def grounded_program_to_routeir(doc: Any, m: SemanticMap, *,
                                start: tuple[float, float] | None = None) -> RouteIR:
    """The RouteIR of a GroundedProgram v2 document on map ``m`` (see the module docstring).

    Args:
        start: the robot's start; default the first segment's start position.

    Raises:
        GroundingError: not a v2 document, a failed program, or a ref that does not resolve.
    """
    if not isinstance(doc, dict) or doc.get("schema_version") != SCHEMA_VERSION:
        got = doc.get("schema_version") if isinstance(doc, dict) else type(doc).__name__
        raise _fail(f"schema_version must be 2, got {got!r}")
    if doc.get("status", "success") != "success":
        raise _fail(f"the program failed upstream: {doc.get('failure_reason')!r}")
    segs = doc.get("segments")
    if not isinstance(segs, list) or not segs:
        raise _fail("'segments' must be a non-empty list")
    ids = [str(s.get("id") or s.get("segment_id") or f"s{i + 1}") if isinstance(s, dict) else ""
           for i, s in enumerate(segs)]
    if len(set(ids)) != len(ids) or "" in ids:
        raise _fail(f"segment ids must be distinct objects' ids, got {ids}")
    index = {sid: i for i, sid in enumerate(ids)}
    first = segs[0].get("start_reference") or {}
    if start is None and isinstance(first, dict):
        xy = (first.get("map2route") or {}).get("start_xy")
        if xy is not None:
            start = (float(xy[0]), float(xy[1]))
        elif first.get("center") is not None:
            start = m.grid.cell_to_world(float(first["center"][0]), float(first["center"][1]))
    stages: list[Stage] = []
    constraints: list[Constraint] = []
    for i, s in enumerate(segs):
        target = (s.get("action") or {}).get("target", s.get("target"))
        tgt = _region(target, m, f"segment {ids[i]!r} target")
        waypoints: list[Region] = []
        for c in s.get("constraints") or []:
            if not isinstance(c, dict):
                raise _fail(f"segment {ids[i]!r} has a constraint that is not an object")
            constraints_of(c, i, ids, index, m, waypoints, constraints)
        for c in (s.get("map2route") or {}).get("constraints") or []:
            if c.get("kind") == "clearance":
                scope = c.get("segment_scope") or []
                constraints.append(Constraint(
                    kind=ConstraintKind.CLEARANCE,
                    region=Region(label="obstacles", cells=np.zeros((0, 2), dtype=np.int32),
                                  construction={"op": "clearance"}),
                    spatial_scope=None if c.get("spatial_scope") is None
                    else _region(c["spatial_scope"], m, "clearance scope"),
                    temporal_scope=tuple(index[x] for x in scope) or None,
                    weight=float(c.get("weight", 1.0)), label=str(c.get("label", ""))))
        stage_label = (s.get("map2route") or {}).get("label") or tgt.label
        stages.append(Stage(target=tgt, waypoints=tuple(waypoints), label=str(stage_label)))
    extra = doc.get("map2route") or {}
    metadata = dict(extra.get("metadata") or {})
    metadata["grounded_program"] = {
        "schema_version": SCHEMA_VERSION,
        "segments": [{"id": sid, "start": s.get("start_reference")} for sid, s in zip(ids, segs,
                                                                                  strict=True)],
        "bindings": dict(doc.get("bindings") or {}),
        "diagnostics": [d for d in doc.get("diagnostics") or []
                        if not str(d).startswith("map2route:")]}
    return RouteIR(stages=tuple(stages), constraints=tuple(constraints), grid=m.grid,
                   start=start, scene=str(extra.get("scene") or m.name), metadata=metadata)


def constraints_of(c: dict[str, Any], host: int, ids: list[str], index: dict[str, int],
                   m: SemanticMap, waypoints: list[Region], out: list[Constraint]) -> None:
    """One official constraint: stage waypoints (visit kinds) or a RouteIR constraint."""
    kind = c.get("kind")
    cid = str(c.get("constraint_id") or f"{ids[host]}_c{len(out)}")
    where = f"constraint {cid!r}"
    ext = c.get("map2route") or {}
    refs = c.get("refs") or []
    if not isinstance(refs, list) or not refs:
        raise _fail(f"{where} has no refs")
    if kind not in _OUR_KIND and kind not in _VISIT_KINDS and kind != "prefer_path_shape":
        raise _fail(f"{where} has unknown kind {kind!r}; official kinds are "
                    "require_visit, require_visit_in_order, forbid, prefer_near, prefer_far, "
                    "prefer_relative, prefer_path_shape")
    expected = "soft" if str(kind).startswith("prefer_") else "hard"
    if c.get("hardness") not in (None, expected):
        raise _fail(f"{where} declares {c.get('hardness')!r} but {kind} is {expected}")
    roles = c.get("argument_roles") or []
    if roles and len(roles) != len(refs):
        raise _fail(f"{where} has {len(refs)} refs but {len(roles)} argument roles")
    scope_ids = c.get("segment_scope")
    if scope_ids is None:
        scope_ids = [ids[host]]
    unknown = [x for x in scope_ids if x not in index]
    if unknown:
        raise _fail(f"{where} is scoped to unknown segment(s) {unknown}; segments are {ids}")
    temporal = tuple(sorted({index[x] for x in scope_ids})) or None
    meta: dict[str, Any] = {"kind": kind, "constraint_id": cid, "segment_scope": list(scope_ids),
                            "hardness": expected, "argument_roles": list(roles),
                            "host_segment": ids[host]}
    for key in ("source_text", "relation"):
        if c.get(key):
            meta[key] = c[key]
    regions = [_region(r, m, f"{where} ref {k}") for k, r in enumerate(refs)]
    spatial = c.get("spatial_scope")
    if isinstance(spatial, list):
        parts = [_region(r, m, f"{where} spatial scope") for r in spatial]
        mask = np.logical_or.reduce([p.mask(m.grid) for p in parts])
        scope_region: Region | None = Region.from_mask(" or ".join(p.label for p in parts), mask)
    else:
        scope_region = None if spatial is None else _region(spatial, m, f"{where} spatial scope")
    label = str(ext.get("label") or c.get("source_text") or str(kind).replace("_", " "))
    weight = float(ext.get("weight", 1.0))
    if kind in _VISIT_KINDS or (kind == "prefer_path_shape" and ext.get("stage_waypoints")):
        waypoints.extend(_with_official(r, meta) for r in regions)
        return
    if kind == "prefer_path_shape":
        if ext.get("reference_path"):
            path = regions[0]
            band = scope_region
        else:
            # official: the refs are the shape's waypoints; pass them, prefer the route near them
            waypoints.extend(_with_official(r, meta) for r in regions)
            mask = np.logical_or.reduce([r.mask(m.grid) for r in regions])
            path = Region.from_mask(label, mask, construction={"op": "path_shape_waypoints"})
            dist = m.grid.cells_to_meters(geometry.l2_cells(~mask))
            band = Region.from_mask(f"around {label}", dist <= PATH_BAND_M,
                                    construction={"op": "band", "width_m": PATH_BAND_M})
        out.append(Constraint(kind=ConstraintKind.PATH_SHAPE, region=_with_official(path, meta),
                              spatial_scope=band, temporal_scope=temporal, weight=weight,
                              label=label))
        return
    ck = _OUR_KIND[kind]
    other = None
    if ck is ConstraintKind.RELATIVE:
        if len(regions) != 2:
            raise _fail(f"{where}: prefer_relative needs 2 refs, got {len(regions)}")
        relation = str(c.get("relation") or "closer_to")
        if relation not in ("closer_to", "farther_from"):
            raise _fail(f"{where}: relation must be closer_to or farther_from, got {relation!r}")
        closer, other = (regions[1], regions[0]) if relation == "farther_from" else \
            (regions[0], regions[1])
        region = closer
    elif len(regions) == 1:
        region = regions[0]
    else:
        mask = np.logical_or.reduce([r.mask(m.grid) for r in regions])
        region = Region.from_mask(" or ".join(r.label for r in regions), mask)
    out.append(Constraint(kind=ck, region=_with_official(region, meta), other=other,
                          spatial_scope=scope_region, temporal_scope=temporal, weight=weight,
                          label=label))
