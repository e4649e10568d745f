"""``semantic_map_server``: loads a scene folder and publishes it, latched.

Topics (all transient-local, so a late subscriber gets the last message):

- ``/map`` ``nav_msgs/OccupancyGrid``: 0 traversable, 100 wall/object, -1 outside the house.
- ``/semantic_map`` ``map2route_interfaces/SemanticLayer``: rooms and objects, typed.
- ``/semantic_map/markers`` ``visualization_msgs/MarkerArray``: outlines and labels for RViz.

Setting the ``scene`` parameter at run time loads the new scene and republishes everything;
a scene that cannot be loaded is refused with the loader's message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from map2route_interfaces.msg import SemanticLayer
from nav_msgs.msg import OccupancyGrid
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import Header
from visualization_msgs.msg import MarkerArray

from map2route.errors import Map2RouteError
from map2route.ros import convert
from map2route.ros.params import NodeConfigError, Param, declare, non_empty, positive, run_node
from map2route.semantic_map.io import load_scene
from map2route.semantic_map.shipped import resolve_scene

if TYPE_CHECKING:
    from rclpy.parameter import Parameter

    from map2route.semantic_map.model import SemanticMap

PARAMS = (
    Param("scene", str, "scene folder, a shipped scene name, or default", non_empty),
    Param("frame_id", str, "frame of /map", non_empty),
    Param("label_size", float, "label text height in metres", positive),
)
PARAM_FILE = "semantic_map_server.yaml"

#: Latched: late subscribers (planner, RViz) receive the last map, like nav2's map_server.
LATCHED = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)


class SemanticMapServer(Node):
    """Publishes one loaded :class:`SemanticMap` on ``/map`` and the semantic topics."""

    def __init__(self, **node_kwargs: object) -> None:
        super().__init__("semantic_map_server", **node_kwargs)  # type: ignore[arg-type]
        self.params = declare(self, PARAMS, PARAM_FILE)
        self.map_pub = self.create_publisher(OccupancyGrid, "map", LATCHED)
        self.markers_pub = self.create_publisher(MarkerArray, "semantic_map/markers", LATCHED)

        self.layer_pub = self.create_publisher(SemanticLayer, "semantic_map", LATCHED)
        try:
            self.map = load_scene(resolve_scene(self.params["scene"]))
        except Map2RouteError as err:
            raise NodeConfigError(f"semantic_map_server cannot load scene "
                                  f"{self.params['scene']!r}: {err}") from err
        self.add_on_set_parameters_callback(self._on_scene_change)
        self.publish()

    def _on_scene_change(self, params: list[Parameter]) -> SetParametersResult:
        for p in params:
            if p.name == "scene" and p.value != self.params["scene"]:
                try:
                    new_map = load_scene(resolve_scene(str(p.value)))
                except Map2RouteError as err:
                    return SetParametersResult(successful=False, reason=str(err))
                self.params["scene"] = str(p.value)
                self.map = new_map
                self.get_logger().info(f"loaded scene {new_map.name!r}")
                # Publishing from inside the callback is fine: it runs on the executor thread.
                self.publish()
        return SetParametersResult(successful=True)

    def publish(self) -> None:
        """Publish the current map on every topic."""
        m: SemanticMap = self.map
        header = Header(frame_id=self.params["frame_id"], stamp=self.get_clock().now().to_msg())
        self.map_pub.publish(convert.occupancy_grid(m, header))
        self.layer_pub.publish(convert.semantic_layer(m, header))
        self.markers_pub.publish(convert.semantic_markers(m, header,
                                                          text_size=self.params["label_size"]))
        self.get_logger().info(f"published scene {m.name!r}: {m.grid.cols}x{m.grid.rows} cells, "
                               f"{len(m.rooms)} rooms, {len(m.objects)} objects")


def main(args: list[str] | None = None) -> int:
    return run_node(SemanticMapServer, args)


if __name__ == "__main__":
    raise SystemExit(main())
