"""semantic_map_server over real topics: /map arrives latched and intact, cell by cell."""

from __future__ import annotations

import numpy as np
import pytest
from nav_msgs.msg import OccupancyGrid
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from visualization_msgs.msg import MarkerArray

from map2route.ros.params import NodeConfigError
from map2route.ros.semantic_map_server import SemanticMapServer
from map2route.semantic_map.io import load_scene

LATCHED = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)


def _server(ros, scene) -> SemanticMapServer:
    return ros.add(SemanticMapServer(context=ros.context, parameter_overrides=[
        Parameter("scene", value=str(scene))]))


def test_map_is_latched_and_received_intact(ros, two_room_scene) -> None:
    from map2route_interfaces.msg import SemanticLayer

    m = load_scene(two_room_scene)
    _server(ros, two_room_scene)
    # Subscribe only after the server has published: transient-local must replay it.
    sub = ros.node("map_listener")
    got: dict[str, object] = {}
    sub.create_subscription(OccupancyGrid, "map", lambda msg: got.setdefault("map", msg), LATCHED)
    sub.create_subscription(SemanticLayer, "semantic_map", lambda msg: got.setdefault("layer", msg),
                            LATCHED)
    sub.create_subscription(MarkerArray, "semantic_map/markers",
                            lambda msg: got.setdefault("markers", msg), LATCHED)
    ros.wait_for(lambda: len(got) == 3, what="/map, /semantic_map and /semantic_map/markers")

    grid = got["map"]
    assert grid.header.frame_id == "map"
    assert (grid.info.width, grid.info.height) == (m.grid.cols, m.grid.rows)
    assert grid.info.resolution == pytest.approx(m.grid.resolution)
    assert grid.info.origin.position.x == pytest.approx(m.grid.origin_x)
    assert grid.info.origin.position.y == pytest.approx(m.grid.origin_y)
    data = np.asarray(grid.data, dtype=np.int8).reshape(m.grid.rows, m.grid.cols)
    # Cell by cell against the loaded layers (row 0 = bottom in both).
    expected = np.where(m.traversable, 0, np.where((m.room_ids >= 0) | m.walls, 100, -1))
    assert np.array_equal(data, expected)
    assert (data == 0).sum() == m.traversable.sum() > 0

    layer = got["layer"]
    assert layer.scene == m.name
    assert sorted(r.type for r in layer.rooms) == ["bedroom", "kitchen"]
    assert {o.id for o in layer.objects} == {o.id for o in m.objects}
    apple = next(o for o in layer.objects if o.id == "apple_0")
    assert apple.parent_id == "dining_table_0"
    assert (apple.center.x, apple.center.y) == pytest.approx((4.5, 1.5))
    texts = {mk.text for mk in got["markers"].markers if mk.text}
    assert {"bedroom 0", "kitchen 1", "dining table", "fridge"} <= texts


def test_unknown_scene_stops_start_up_with_its_name(ros, tmp_path) -> None:
    with pytest.raises(NodeConfigError, match="no_such_scene"):
        SemanticMapServer(context=ros.context, parameter_overrides=[
            Parameter("scene", value=str(tmp_path / "no_such_scene"))])


def test_empty_scene_parameter_is_refused(ros) -> None:
    with pytest.raises(NodeConfigError, match="'scene'.*must not be empty"):
        SemanticMapServer(context=ros.context)


def test_scene_change_republishes_and_bad_scene_is_refused(ros, two_room_scene, tmp_path) -> None:
    from map2route.semantic_map.io import save_scene
    from map2route.semantic_map.model import RoomType
    from map2route.semantic_map.synthetic import RectRoom, rect_house

    server = _server(ros, two_room_scene)
    small = rect_house(name="one_room", rooms=[RectRoom(0, RoomType.BATHROOM, 0, 0, 2, 2)],
                       objects=[], doors=[])
    other = save_scene(small, tmp_path / "one_room")
    sizes: list[int] = []
    sub = ros.node("map_listener")
    sub.create_subscription(OccupancyGrid, "map", lambda msg: sizes.append(msg.info.width), LATCHED)
    ros.wait_for(lambda: sizes, what="the first /map")
    bad = server.set_parameters([Parameter("scene", value=str(tmp_path / "missing"))])[0]
    assert not bad.successful and "does not exist" in bad.reason
    ok = server.set_parameters([Parameter("scene", value=str(other))])[0]
    assert ok.successful
    ros.wait_for(lambda: sizes[-1] == small.grid.cols, what="/map of the new scene")
