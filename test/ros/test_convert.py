"""Core types <-> messages: RouteIR, paths and the occupancy grid round-trip exactly."""

from __future__ import annotations

import numpy as np
from std_msgs.msg import Header

from map2route.ros import convert
from map2route.routeir.model import Constraint, ConstraintKind, Region, RouteIR, Stage


def test_routeir_round_trips(two_room_map) -> None:
    m = two_room_map
    fridge = Region.from_mask("the fridge", m.goal_region_mask(m.get_object("fridge_0")),
                              construction={"op": "goal_region", "object": "fridge_0"},
                              object_ids=("fridge_0",))
    bed = Region.from_mask("the bed", m.goal_region_mask(m.get_object("bed_0")),
                           object_ids=("bed_0",))
    kitchen = Region.from_mask("the kitchen", m.room_mask(1))
    ir = RouteIR(stages=(Stage(target=bed, label="the bed"),
                         Stage(target=fridge, waypoints=(kitchen,), label="the fridge")),
                 constraints=(Constraint(ConstraintKind.RELATIVE, region=bed, other=fridge,
                                         spatial_scope=kitchen, temporal_scope=(1,),
                                         weight=2.0, label="closer to the bed"),
                              Constraint(ConstraintKind.CLEARANCE,
                                         region=Region.from_mask("", np.zeros(m.grid.shape, bool)))),
                 grid=m.grid, start=(1.5, 1.0), scene=m.name, metadata={"grounder": "test"})
    back = convert.routeir_from_msg(convert.routeir_msg(ir, Header(frame_id="map"),
                                                        instruction="x"))
    assert back.grid == ir.grid and back.start == ir.start and back.metadata == ir.metadata
    for a, b in zip(back.stages, ir.stages, strict=True):
        assert a.label == b.label and np.array_equal(a.target.cells, b.target.cells)
        assert a.target.construction == b.target.construction
        assert len(a.waypoints) == len(b.waypoints)
    rel, clear = back.constraints
    assert rel.kind is ConstraintKind.RELATIVE and rel.temporal_scope == (1,) and rel.weight == 2.0
    assert np.array_equal(rel.other.cells, fridge.cells)
    assert np.array_equal(rel.spatial_scope.cells, kitchen.cells)
    assert clear.temporal_scope is None and clear.spatial_scope is None and clear.region.is_empty


def test_path_and_grid_conversions(two_room_map) -> None:
    pts = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
    msg = convert.path_msg(pts, Header(frame_id="map"))
    assert np.allclose(convert.path_points(msg), pts)
    assert abs(convert.quaternion_yaw(msg.poses[1].pose.orientation) - np.pi / 2) < 1e-9
    grid = convert.occupancy_grid(two_room_map, Header(frame_id="map"))
    assert np.array_equal(convert.occupancy_array(grid), convert.occupancy_values(two_room_map))
