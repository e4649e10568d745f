"""RouteIR: JSON round trip, validation messages, and the region builders."""

from __future__ import annotations

import json

import numpy as np
import pytest

from map2route.routeir import (
    SCHEMA_VERSION,
    Constraint,
    ConstraintKind,
    Region,
    RouteIR,
    RouteIRError,
    Stage,
    routeir_from_json,
    routeir_to_json,
    validation_problems,
)
from map2route.routeir.regions import (
    between_region,
    disk_region,
    footprint_region,
    object_goal_region,
    ring_waypoints,
    room_region,
    wall_follow_waypoints,
)


def _full_ir(m) -> RouteIR:
    fridge, bed, table = (m.get_object(i) for i in ("fridge_0", "bed_0", "dining_table_0"))
    stages = (
        Stage(target=object_goal_region(m, m.get_object("chair_1")), label="the chair"),
        Stage(target=object_goal_region(m, fridge), label="the fridge",
              waypoints=ring_waypoints(m, table, count=6, clearance_m=0.4)),
    )
    constraints = (
        Constraint(ConstraintKind.MUST_AVOID, disk_region(m, (2.0, 2.0), 0.3), label="rug"),
        Constraint(ConstraintKind.NEAR, footprint_region(m, [bed]), temporal_scope=(0,),
                   spatial_scope=room_region(m, 0), weight=2.0, label="near the bed"),
        Constraint(ConstraintKind.RELATIVE, footprint_region(m, [fridge]),
                   other=footprint_region(m, [table]), label="closer to the fridge"),
        Constraint(ConstraintKind.CLEARANCE, Region("", np.zeros((0, 2), np.int32))),
    )
    return RouteIR(stages=stages, constraints=constraints, grid=m.grid, start=(0.5, 0.3),
                   scene=m.name, metadata={"instruction": "test"})


def _same_region(a: Region | None, b: Region | None) -> None:
    assert (a is None) == (b is None)
    if a is None or b is None:
        return
    assert a.label == b.label
    assert a.construction == b.construction
    assert a.object_ids == b.object_ids
    assert np.array_equal(np.sort(a.cells.view(np.int64).ravel()),
                          np.sort(b.cells.view(np.int64).ravel()))


def test_json_round_trip_is_exact(two_room_map) -> None:
    ir = _full_ir(two_room_map)
    assert validation_problems(ir) == []
    doc = json.loads(json.dumps(routeir_to_json(ir)))
    assert doc["schema_version"] == SCHEMA_VERSION
    back = routeir_from_json(doc)
    assert back.grid == ir.grid and back.start == ir.start and back.scene == ir.scene
    assert back.metadata == ir.metadata
    for s0, s1 in zip(ir.stages, back.stages, strict=True):
        assert s0.label == s1.label
        _same_region(s0.target, s1.target)
        assert len(s0.waypoints) == len(s1.waypoints)
        for w0, w1 in zip(s0.waypoints, s1.waypoints, strict=True):
            _same_region(w0, w1)
    for c0, c1 in zip(ir.constraints, back.constraints, strict=True):
        assert (c0.kind, c0.temporal_scope, c0.weight, c0.label) == (
            c1.kind, c1.temporal_scope, c1.weight, c1.label)
        for name in ("region", "other", "spatial_scope"):
            _same_region(getattr(c0, name), getattr(c1, name))
    assert routeir_to_json(back) == doc


def test_unknown_schema_version_is_named() -> None:
    with pytest.raises(RouteIRError, match="'map2route.routeir/99'"):
        routeir_from_json({"schema_version": "map2route.routeir/99"})


def test_malformed_document_is_a_routeir_error(two_room_map) -> None:
    doc = routeir_to_json(_full_ir(two_room_map))
    del doc["stages"][0]["target"]
    with pytest.raises(RouteIRError, match="malformed"):
        routeir_from_json(doc)


@pytest.mark.parametrize(("mutate", "needle"), [
    (lambda ir: RouteIR(stages=(), constraints=(), grid=ir.grid), "no stages"),
    (lambda ir: RouteIR(stages=(Stage(target=Region("nothing", np.zeros((0, 2), np.int32))),),
                        constraints=(), grid=ir.grid), "empty target"),
    (lambda ir: RouteIR(stages=ir.stages, grid=ir.grid, constraints=(
        Constraint(ConstraintKind.FAR, ir.stages[0].target, temporal_scope=(5,)),)),
     r"scoped to stages \[5\]"),
    (lambda ir: RouteIR(stages=ir.stages, grid=ir.grid, constraints=(
        Constraint(ConstraintKind.RELATIVE, ir.stages[0].target),)), "'other'"),
], ids=["no-stages", "empty-target", "missing-stage", "relative-without-b"])
def test_validation_names_the_problem(two_room_map, mutate, needle: str) -> None:
    ir = mutate(_full_ir(two_room_map))
    with pytest.raises(RouteIRError, match=needle):
        ir.validate()


def test_goal_region_is_the_papers_g_o(two_room_map) -> None:
    m = two_room_map
    fridge = m.get_object("fridge_0")
    region = object_goal_region(m, fridge)
    mask = region.mask(m.grid)
    xx, yy = m.grid.cell_centres()
    dist = np.hypot(xx - fridge.center[0], yy - fridge.center[1])
    assert mask.any()
    assert (dist[mask] <= fridge.radius_m + 1.0 + 1e-9).all()
    assert (m.room_ids[mask] == fridge.room_id).all()
    assert region.construction == {"op": "goal_region", "object": "fridge_0"}


def test_between_region_lies_between(two_room_map) -> None:
    m = two_room_map
    a, b = m.get_object("chair_1"), m.get_object("bed_0")
    region = between_region(m, a, b)
    pts = m.grid.cells_to_worlds(region.cells)
    lo = np.minimum(a.center, b.center) - 0.5
    hi = np.maximum(a.center, b.center) + 0.5
    assert ((pts >= lo) & (pts <= hi)).all()
    assert m.traversable[region.cells[:, 0], region.cells[:, 1]].all()


@pytest.mark.parametrize("ccw", [True, False], ids=["ccw", "cw"])
def test_ring_waypoints_wind_in_the_asked_direction(two_room_map, ccw: bool) -> None:
    m = two_room_map
    table = m.get_object("dining_table_0")
    wps = ring_waypoints(m, table, count=8, clearance_m=0.4, counterclockwise=ccw)
    centres = np.array([m.grid.cells_to_worlds(w.cells).mean(axis=0) for w in wps])
    ang = np.unwrap(np.arctan2(centres[:, 1] - table.center[1], centres[:, 0] - table.center[0]))
    steps = np.diff(ang)
    assert (steps > 0).all() if ccw else (steps < 0).all()


def test_wall_follow_waypoints_visit_the_inset_corners(two_room_map) -> None:
    m = two_room_map
    wps = wall_follow_waypoints(m, 1, offset_m=0.6)
    assert len(wps) == 4
    centres = [m.grid.cells_to_worlds(w.cells).mean(axis=0) for w in wps]
    for x, y in centres:
        assert min(abs(x - 3.6), abs(x - 5.4)) < 0.35
        assert min(abs(y - 0.6), abs(y - 3.4)) < 0.35


def test_bad_region_requests_raise(two_room_map) -> None:
    m = two_room_map
    with pytest.raises(RouteIRError, match="radius"):
        disk_region(m, (1.0, 1.0), 0.0)
    with pytest.raises(RouteIRError, match="too small"):
        wall_follow_waypoints(m, 0, offset_m=5.0)
    with pytest.raises(RouteIRError, match="at least one object"):
        footprint_region(m, [])
