"""``cmu_bridge_node``: map2route's route as ``/way_point`` for the CMU autonomy stack.

The CMU stack's local planner takes one goal point, ``/way_point`` (``geometry_msgs/
PointStamped``, frame ``map``), reads the robot's state from ``/state_estimation``
(``nav_msgs/Odometry``, map frame) and the map-frame cloud ``/registered_scan``, avoids
obstacles itself and publishes ``TwistStamped`` on ``/cmd_vel``. This node feeds it the point
``waypoint_distance`` metres ahead along ``/route`` (:class:`map2route.control.waypoints.
WaypointFeeder`) on every state estimate, and the route's end once the robot is within
``waypoint_distance`` of it. ``launch/cmu.launch.xml`` starts it with the map, grounding and
planning nodes.
"""

from __future__ import annotations

from typing import Any

from geometry_msgs.msg import PointStamped
from nav_msgs.msg import Odometry
from nav_msgs.msg import Path as PathMsg
from rclpy.node import Node

from map2route.control.waypoints import WaypointFeeder
from map2route.errors import Map2RouteError
from map2route.ros import convert
from map2route.ros.params import Param, declare, non_empty, positive, run_node
from map2route.ros.semantic_map_server import LATCHED

PARAMS = (
    Param("waypoint_distance", float, "m ahead along the route", positive),
    Param("frame_id", str, "frame of /way_point (the stack's map frame)", non_empty),
    Param("route_topic", str, "the route to feed", non_empty),
)
PARAM_FILE = "cmu_bridge_node.yaml"


class CmuBridgeNode(Node):
    """Feeds ``/way_point`` from ``/route`` and ``/state_estimation``."""

    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("cmu_bridge_node", **node_kwargs)
        self.params = declare(self, PARAMS, PARAM_FILE)
        self.feeder: WaypointFeeder | None = None
        self.waypoint_pub = self.create_publisher(PointStamped, "way_point", 5)
        self.create_subscription(PathMsg, self.params["route_topic"], self._on_route, LATCHED)
        self.create_subscription(Odometry, "state_estimation", self._on_state, 5)

    def _on_route(self, msg: PathMsg) -> None:
        try:
            self.feeder = WaypointFeeder(convert.path_points(msg),
                                         self.params["waypoint_distance"])
        except Map2RouteError as err:
            self.get_logger().error(f"refusing route: {err}")
            self.feeder = None
            return
        self.get_logger().info(f"feeding /way_point along a route of {self.feeder.arc[-1]:.2f} m")

    def _on_state(self, msg: Odometry) -> None:
        if self.feeder is None:
            return
        p = msg.pose.pose.position
        x, y = self.feeder.update(p.x, p.y)
        out = PointStamped()
        out.header.frame_id, out.header.stamp = self.params["frame_id"], msg.header.stamp
        out.point.x, out.point.y = x, y
        self.waypoint_pub.publish(out)


def main(args: list[str] | None = None) -> int:
    return run_node(CmuBridgeNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
