"""ROS 2 node ``semantic_map_builder``: lidar + odometry + panoramas in, a growing semantic map out.

Subscribes to ``/registered_scan`` (PointCloud2), ``/state_estimation`` (Odometry),
``/camera/image`` (Image) and, from the simulator, ``/sim/instance_ids`` and
``/sim/instance_labels``; feeds :class:`map2route.mapping.builder.MapBuilder`; publishes the map
every ``publish_period_s`` as ``/semantic_map/occupancy`` (OccupancyGrid: 0 traversable, 100
wall or obstacle, -1 unknown) and ``/semantic_map/objects`` (MarkerArray); saves the scene
folder ``output`` when a ``std_msgs/Empty`` arrives on ``/semantic_map/save`` (std_srvs is not
among the shipped wheels) and at shutdown. Parameters: ``config/semantic_map_builder.yaml``.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
from nav_msgs.msg import OccupancyGrid, Odometry
from rclpy.node import Node
from sensor_msgs.msg import Image, PointCloud2
from std_msgs.msg import Empty, String
from visualization_msgs.msg import Marker, MarkerArray

from map2route.errors import Map2RouteError
from map2route.mapping.bag import image_array, odometry_pose, pointcloud2_xyz
from map2route.mapping.builder import BuildConfig, MapBuilder
from map2route.mapping.detectors import make_detector
from map2route.ros.params import Param, declare, non_empty, one_of, positive, run_node
from map2route.semantic_map.io import save_scene

PARAMS = (
    Param("output", str, "scene folder to save the map to", non_empty),
    Param("detector", str, "ground_truth or open_vocabulary",
          one_of("ground_truth", "open_vocabulary")),
    Param("weights", str, "open_vocabulary weights folder"),
    Param("build_config", str, "mapping YAML ('' = config/mapping.yaml)"),
    Param("publish_period_s", float, "seconds between map publications", positive),
)
PARAM_FILE = "semantic_map_builder.yaml"


def _t(msg: Any) -> float:
    return float(msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9)


class SemanticMapBuilderNode(Node):
    """The node; see the module docstring."""

    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("semantic_map_builder", **node_kwargs)
        p = self.params = declare(self, PARAMS, PARAM_FILE)
        self.output = Path(p["output"])
        options = {"weights": Path(p["weights"] or "weights")} if p["detector"] == "open_vocabulary" else {}
        config = BuildConfig.from_yaml(p["build_config"] or None)
        self.builder = MapBuilder(make_detector(p["detector"], **options), config)
        # Callbacks may run on several executor threads; the builder is not thread-safe.
        self._lock = threading.Lock()
        self.published = 0
        self.create_subscription(PointCloud2, "/registered_scan", self._scan, 10)
        self.create_subscription(Odometry, "/state_estimation", self._odom, 50)
        self.create_subscription(Image, "/camera/image", self._image, 5)
        self.create_subscription(Image, "/sim/instance_ids", self._ids, 5)
        self.create_subscription(String, "/sim/instance_labels", self._labels, 1)
        self.create_subscription(Empty, "/semantic_map/save", self._on_save, 1)
        self.grid_pub = self.create_publisher(OccupancyGrid, "/semantic_map/occupancy", 1)
        self.marker_pub = self.create_publisher(MarkerArray, "/semantic_map/objects", 1)
        self.create_timer(p["publish_period_s"], self.publish)

    def _scan(self, msg: PointCloud2) -> None:
        with self._lock:
            self.builder.add_scan(_t(msg), pointcloud2_xyz(msg))

    def _odom(self, msg: Odometry) -> None:
        with self._lock:
            self.builder.add_odometry(_t(msg), odometry_pose(msg))

    def _image(self, msg: Image) -> None:
        with self._lock:
            self.builder.add_image(_t(msg), image_array(msg))

    def _ids(self, msg: Image) -> None:
        with self._lock:
            self.builder.add_instance_ids(_t(msg), image_array(msg))

    def _labels(self, msg: String) -> None:
        with self._lock:
            self.builder.add_labels(list(json.loads(msg.data)["labels"]))

    def publish(self) -> None:
        """Publish the map built so far (nothing, with a log line, before there is enough data)."""
        try:
            with self._lock:
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
        grid.info.origin.orientation.w = 1.0
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
            xs = [q[0] for q in o.footprint]
            ys = [q[1] for q in o.footprint]
            mk.pose.position.x, mk.pose.position.y = o.center
            mk.pose.position.z = (o.z_min + o.z_max) / 2
            mk.pose.orientation.w = 1.0
            mk.scale.x = max(max(xs) - min(xs), 0.02)
            mk.scale.y = max(max(ys) - min(ys), 0.02)
            mk.scale.z = max(o.z_max - o.z_min, 0.02)
            mk.color.r, mk.color.g, mk.color.b, mk.color.a = 0.9, 0.5, 0.1, 0.8
            mk.text = o.category
            markers.markers.append(mk)
        self.marker_pub.publish(markers)
        self.published += 1

    def _on_save(self, _msg: Empty) -> None:
        self.save()

    def save(self) -> Path | None:
        """Save the scene folder ``output``; returns it, or ``None`` (logged) when impossible."""
        try:
            with self._lock:
                m = self.builder.snapshot(self.output.name, finish=True)
            save_scene(m, self.output)
        except Map2RouteError as err:
            self.get_logger().error(f"cannot save {self.output}: {err}")
            return None
        self.get_logger().info(f"saved {self.output}: {len(m.rooms)} rooms, {len(m.objects)} objects")
        return self.output


def main(args: list[str] | None = None) -> int:
    """``semantic_map_builder --ros-args -p output:=maps/NAME``; saves the map at shutdown."""
    node: SemanticMapBuilderNode | None = None

    def factory() -> SemanticMapBuilderNode:
        nonlocal node
        node = SemanticMapBuilderNode()
        return node

    try:
        return run_node(factory, args)
    finally:
        if node is not None:
            node.save()
