"""ROS 2 node ``semantic_map_builder``: lidar + odometry + panoramas in, a growing semantic map out.

Subscribes to ``/registered_scan`` (PointCloud2), ``/state_estimation`` (Odometry),
``/camera/image`` (Image) and, from the simulator, ``/sim/instance_ids`` and
``/sim/instance_labels``; feeds :class:`map2route.mapping.builder.MapBuilder`; publishes the map
every ``publish_period_s`` as ``/semantic_map/occupancy`` (OccupancyGrid) and
``/semantic_map/objects`` (MarkerArray); saves the scene folder ``output`` when a
``std_msgs/Empty`` arrives on ``/semantic_map/save`` (std_srvs is not among the shipped wheels)
and at shutdown.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import rclpy
from nav_msgs.msg import OccupancyGrid, Odometry
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from sensor_msgs.msg import Image, PointCloud2
from std_msgs.msg import Empty, String
from visualization_msgs.msg import Marker, MarkerArray

from map2route.errors import Map2RouteError
from map2route.mapping.bag import image_array, odometry_pose, pointcloud2_xyz
from map2route.mapping.builder import MapBuilder
from map2route.mapping.detectors import make_detector
from map2route.semantic_map.io import save_scene


def _t(msg) -> float:  # type: ignore[no-untyped-def]
    return msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9


class SemanticMapBuilderNode(Node):
    """The node; parameters: ``output`` (required), ``detector``, ``publish_period_s``."""

    def __init__(self) -> None:
        super().__init__("semantic_map_builder")
        self.declare_parameter("output", "")
        self.declare_parameter("detector", "ground_truth")
        self.declare_parameter("publish_period_s", 2.0)
        output = self.get_parameter("output").value
        if not output:
            msg = "parameter 'output' (scene folder to save) is required"
            raise Map2RouteError(msg)
        self.output = Path(str(output))
        self.builder = MapBuilder(make_detector(str(self.get_parameter("detector").value)))
        self.create_subscription(PointCloud2, "/registered_scan", self._scan, 10)
        self.create_subscription(Odometry, "/state_estimation", self._odom, 50)
        self.create_subscription(Image, "/camera/image", self._image, 5)
        self.create_subscription(Image, "/sim/instance_ids", self._ids, 5)
        self.create_subscription(String, "/sim/instance_labels", self._labels, 1)
        self.create_subscription(Empty, "/semantic_map/save", lambda _m: self.save(), 1)
        self.grid_pub = self.create_publisher(OccupancyGrid, "/semantic_map/occupancy", 1)
        self.marker_pub = self.create_publisher(MarkerArray, "/semantic_map/objects", 1)
        self.create_timer(float(self.get_parameter("publish_period_s").value), self.publish)

    def _scan(self, msg: PointCloud2) -> None:
        self.builder.add_scan(_t(msg), pointcloud2_xyz(msg))

    def _odom(self, msg: Odometry) -> None:
        self.builder.add_odometry(_t(msg), odometry_pose(msg))

    def _image(self, msg: Image) -> None:
        self.builder.add_image(_t(msg), image_array(msg))

    def _ids(self, msg: Image) -> None:
        self.builder.add_instance_ids(_t(msg), image_array(msg))

    def _labels(self, msg: String) -> None:
        self.builder.add_labels(list(json.loads(msg.data)["labels"]))

    def publish(self) -> None:
        try:
            m = self.builder.snapshot(self.output.name)
        except Map2RouteError as err:
            self.get_logger().info(f"no map yet: {err}")
            return
        grid = OccupancyGrid()
        grid.header.frame_id = "map"
        grid.header.stamp = self.get_clock().now().to_msg()
        grid.info.resolution = float(m.grid.resolution)
        grid.info.width, grid.info.height = m.grid.cols, m.grid.rows
        grid.info.origin.position.x = m.grid.origin_x
        grid.info.origin.position.y = m.grid.origin_y
        occ = np.full(m.grid.shape, -1, dtype=np.int8)
        occ[m.room_ids >= 0] = 100
        occ[m.traversable] = 0
        occ[m.walls] = 100
        grid.data = occ.reshape(-1).tolist()
        self.grid_pub.publish(grid)
        markers = MarkerArray()
        for i, o in enumerate(m.objects):
            mk = Marker()
            mk.header = grid.header
            mk.ns, mk.id, mk.type = "objects", i, Marker.CUBE
            xs = [p[0] for p in o.footprint]
            ys = [p[1] for p in o.footprint]
            mk.pose.position.x, mk.pose.position.y = o.center
            mk.pose.position.z = (o.z_min + o.z_max) / 2
            mk.pose.orientation.w = 1.0
            mk.scale.x = max(xs) - min(xs)
            mk.scale.y = max(ys) - min(ys)
            mk.scale.z = max(o.z_max - o.z_min, 0.02)
            mk.color.r, mk.color.g, mk.color.b, mk.color.a = 0.9, 0.5, 0.1, 0.8
            mk.text = o.category
            markers.markers.append(mk)
        self.marker_pub.publish(markers)

    def save(self) -> None:
        try:
            save_scene(self.builder.snapshot(self.output.name, finish=True), self.output)
            self.get_logger().info(f"saved {self.output}")
        except Map2RouteError as err:
            self.get_logger().error(f"cannot save: {err}")


def main(args: list[str] | None = None) -> None:
    try:
        with rclpy.init(args=args):
            node = SemanticMapBuilderNode()
            try:
                rclpy.spin(node)
            finally:
                node.save()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
