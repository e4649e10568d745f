"""ROS 2 node ``semantic_map_builder``: lidar + poses + panoramas in, a growing semantic map out.

Subscribes to what real drivers publish, as :mod:`map2route.mapping.inputs` reads it (the one
input path of bags and this node; topics in ``config/mapping.yaml`` ``build.inputs``): the
panoramas on ``image_topics`` (sensor_msgs/Image, or CompressedImage for a topic ending in
``compressed``), the clouds on ``cloud_topics`` (PointCloud2, map or sensor frame), Odometry on
``odometry_topics`` (all with BEST_EFFORT QoS, as drivers publish), ``/tf`` and ``/tf_static``
(tf2's QoS), and, from the simulator, ``/sim/instance_ids``
and ``/sim/instance_labels``; with ``detector: external`` and no ``detections`` file, one JSON
detection record per panorama on ``/semantic_map/detections`` (std_msgs/String, the format of
:mod:`map2route.mapping.external`). Feeds :class:`map2route.mapping.builder.MapBuilder`;
publishes the map every ``publish_period_s`` as ``/semantic_map/occupancy`` (OccupancyGrid: 0
traversable, 100 wall or obstacle, -1 unknown) and ``/semantic_map/objects`` (MarkerArray);
saves the scene folder ``output`` when a ``std_msgs/Empty`` arrives on ``/semantic_map/save``
(std_srvs is not among the shipped wheels) and at shutdown. Parameters:
``config/semantic_map_builder.yaml``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from nav_msgs.msg import OccupancyGrid, Odometry
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import CompressedImage, Image, PointCloud2
from std_msgs.msg import Empty, String
from tf2_msgs.msg import TFMessage
from visualization_msgs.msg import Marker, MarkerArray

from map2route.errors import Map2RouteError
from map2route.mapping import inputs
from map2route.mapping.builder import BuildConfig, MapBuilder
from map2route.mapping.detectors import make_detector
from map2route.mapping.inputs import SensorInputs
from map2route.ros.frames import TF_QOS, TF_STATIC_QOS
from map2route.ros.params import Param, declare, non_empty, one_of, positive, run_node
from map2route.semantic_map.io import save_scene

PARAMS = (
    Param("output", str, "scene folder to save the map to", non_empty),
    Param("detector", str, "ground_truth, open_vocabulary or external",
          one_of("ground_truth", "open_vocabulary", "external")),
    Param("weights", str, "open_vocabulary weights folder"),
    Param("detections", str, "external detector: JSONL file ('' = /semantic_map/detections)"),
    Param("build_config", str, "mapping YAML ('' = config/mapping.yaml)"),
    Param("publish_period_s", float, "seconds between map publications", positive),
)
PARAM_FILE = "semantic_map_builder.yaml"
DETECTIONS_TOPIC = "/semantic_map/detections"


class SemanticMapBuilderNode(Node):
    """The node; see the module docstring."""

    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("semantic_map_builder", **node_kwargs)
        p = self.params = declare(self, PARAMS, PARAM_FILE)
        self.output = Path(p["output"])
        options: dict[str, Any] = {}
        if p["detector"] == "open_vocabulary":
            options = {"weights": Path(p["weights"] or "weights")}
        elif p["detector"] == "external":
            options = {"detections": Path(p["detections"])} if p["detections"] else {"live": True}
        config = BuildConfig.from_yaml(p["build_config"] or None)
        self.builder = MapBuilder(make_detector(p["detector"], **options), config)
        self.inputs = SensorInputs(self.builder)
        # Callbacks may run on several executor threads; the builder is not thread-safe.
        self._lock = threading.Lock()
        self.published = 0
        cfg = config.inputs
        # Sensors with BEST_EFFORT QoS, as drivers publish (it hears RELIABLE publishers too),
        # deep enough to ride out a slow panorama fusion; TF with tf2's QoS.
        sensor = QoSProfile(depth=50, reliability=ReliabilityPolicy.BEST_EFFORT)
        subs: list[tuple[Any, str, str, Any]] = []
        for topic in cfg.image_topics:
            kind = (CompressedImage, inputs.COMPRESSED) if topic.endswith("compressed") else (
                Image, inputs.IMAGE)
            subs.append((kind[0], kind[1], topic, sensor))
        subs += [(PointCloud2, inputs.CLOUD, t, sensor) for t in cfg.cloud_topics]
        subs += [(Odometry, inputs.ODOMETRY, t, sensor) for t in cfg.odometry_topics]
        subs += [(TFMessage, inputs.TF, "/tf", TF_QOS),
                 (TFMessage, inputs.TF, "/tf_static", TF_STATIC_QOS),
                 (Image, inputs.IMAGE, "/sim/instance_ids", sensor),
                 (String, inputs.STRING, "/sim/instance_labels", 1)]
        for kind, msgtype, topic, qos in subs:
            self.create_subscription(kind, topic, self._feed(msgtype, topic), qos)
        if p["detector"] == "external" and not p["detections"]:
            self.create_subscription(String, DETECTIONS_TOPIC, self._detections, 10)
        self.create_subscription(Empty, "/semantic_map/save", self._on_save, 1)
        self.grid_pub = self.create_publisher(OccupancyGrid, "/semantic_map/occupancy", 1)
        self.marker_pub = self.create_publisher(MarkerArray, "/semantic_map/objects", 1)
        self.create_timer(p["publish_period_s"], self.publish)

    def _feed(self, msgtype: str, topic: str) -> Callable[[Any], None]:
        def callback(msg: Any) -> None:
            try:
                with self._lock:
                    self.inputs.on_message(msgtype, topic, msg)
            except Map2RouteError as err:  # one bad message is logged, not fatal
                self.get_logger().error(f"{topic}: {err}")
        return callback

    def _detections(self, msg: String) -> None:
        try:
            record = json.loads(msg.data)
            with self._lock:
                self.builder.detector.add(record, where=DETECTIONS_TOPIC)  # type: ignore[attr-defined]
                self.builder.poll()
        except (ValueError, Map2RouteError) as err:
            self.get_logger().error(f"{DETECTIONS_TOPIC}: {err}")

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
