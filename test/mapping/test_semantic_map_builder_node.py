"""The ``semantic_map_builder`` node over real rclpy topics: simulated scans, poses and
panoramas in; a growing /semantic_map/occupancy out; a loadable scene saved on request."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("rclpy")
pytest.importorskip("open3d")


def _stamp(t: float) -> Any:
    from builtin_interfaces.msg import Time

    return Time(sec=int(t), nanosec=int(round((t - int(t)) * 1e9)))


def _cloud_msg(t: float, pts: np.ndarray, frame: str = "map") -> Any:
    from sensor_msgs.msg import PointCloud2, PointField

    msg = PointCloud2()
    msg.header.stamp, msg.header.frame_id = _stamp(t), frame
    msg.height, msg.width = 1, len(pts)
    msg.fields = [PointField(name=n, offset=4 * i, datatype=PointField.FLOAT32, count=1)
                  for i, n in enumerate(("x", "y", "z", "intensity"))]
    msg.point_step, msg.row_step, msg.is_dense = 16, 16 * len(pts), True
    msg.data = np.ascontiguousarray(pts, dtype=np.float32).tobytes()
    return msg


def _odom_msg(t: float, pose: Any) -> Any:
    from nav_msgs.msg import Odometry

    msg = Odometry()
    msg.header.stamp, msg.header.frame_id, msg.child_frame_id = _stamp(t), "map", "sensor"
    p = msg.pose.pose
    p.position.x, p.position.y, p.position.z = (float(v) for v in pose.position)
    w, x, y, z = pose.quaternion
    p.orientation.w, p.orientation.x, p.orientation.y, p.orientation.z = w, x, y, z
    return msg


def _image_msg(t: float, img: np.ndarray) -> Any:
    from sensor_msgs.msg import Image

    msg = Image()
    msg.header.stamp, msg.header.frame_id = _stamp(t), "camera"
    msg.height, msg.width = img.shape[:2]
    msg.encoding = "rgb8" if img.ndim == 3 else "mono16"
    msg.step = img.shape[1] * img.itemsize * (3 if img.ndim == 3 else 1)
    msg.data = np.ascontiguousarray(img).tobytes()
    return msg


def _frames(n: int) -> list[tuple[float, Any, np.ndarray, Any]]:
    """``n`` timed (pose, scan, panorama) triples along a drive through the two-room house."""
    from dataclasses import replace

    from map2route.mapping.camera import EquirectCamera
    from map2route.mapping.drive import plan_drive
    from map2route.mapping.scene3d import Scene3D
    from map2route.mapping.sensors import render_panorama
    from map2route.mapping.simulate import SimConfig
    from map2route.semantic_map.synthetic import two_room_house

    m = two_room_house()
    scene = Scene3D.from_map(m)
    drive = plan_drive(m)
    lidar = replace(SimConfig.from_yaml().lidar, points_per_scan=4000)
    cam = EquirectCamera(width=240, crop_rows=80)
    rng = np.random.default_rng(0)
    out = []
    for k, t in enumerate(np.linspace(0.0, drive.duration_s, n)):
        pose = drive.pose_at(float(t), height_m=0.45)
        out.append((float(t), pose, lidar.scan(scene, pose, k, rng), render_panorama(scene, cam, pose)))
    return out


def test_node_publishes_a_growing_map_and_saves_a_loadable_scene(ros, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from nav_msgs.msg import OccupancyGrid
    from rclpy.parameter import Parameter
    from sensor_msgs.msg import Image, PointCloud2
    from std_msgs.msg import Empty, String
    from visualization_msgs.msg import MarkerArray

    from map2route.mapping.scene3d import Scene3D
    from map2route.ros.semantic_map_builder import SemanticMapBuilderNode
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.synthetic import two_room_house

    out = tmp_path / "built"
    node = ros.add(SemanticMapBuilderNode(context=ros.context, parameter_overrides=[
        Parameter("output", value=str(out)), Parameter("publish_period_s", value=0.3)]))
    helper = ros.add(ros.rclpy.create_node("sensors", context=ros.context))
    grids: list[Any] = []
    markers: list[Any] = []
    helper.create_subscription(OccupancyGrid, "/semantic_map/occupancy", grids.append, 10)
    helper.create_subscription(MarkerArray, "/semantic_map/objects", markers.append, 10)
    pubs = {name: helper.create_publisher(kind, name, 50) for name, kind in (
        ("/registered_scan", PointCloud2), ("/camera/image", Image), ("/sim/instance_ids", Image),
        ("/sim/instance_labels", String), ("/semantic_map/save", Empty))}
    from nav_msgs.msg import Odometry

    pubs["/state_estimation"] = helper.create_publisher(Odometry, "/state_estimation", 50)
    ros.wait_for(lambda: all(p.get_subscription_count() > 0 for p in pubs.values()),
                 what="semantic_map_builder to subscribe to its six topics")
    labels = Scene3D.from_map(two_room_house()).labels
    pubs["/sim/instance_labels"].publish(String(data=json.dumps({"labels": labels})))
    ros.wait_for(lambda: node.builder.labels, what="the instance label table")

    frames = _frames(12)
    known = []
    for half in (range(6), range(6, 12)):
        for k in half:
            t, pose, scan, pano = frames[k]
            pubs["/state_estimation"].publish(_odom_msg(t, pose))
            pubs["/registered_scan"].publish(_cloud_msg(t, scan))
            pubs["/camera/image"].publish(_image_msg(t, pano.rgb))
            pubs["/sim/instance_ids"].publish(_image_msg(t, pano.instance_ids))
            # One frame at a time, so no queue overflows on a loaded machine.
            n = k + 1
            ros.wait_for(lambda n=n: node.builder.images >= n - 1 and node.builder.scans >= n,
                         what=f"the node to take in frame {n}")
        seen = len(grids)
        grid = ros.wait_for(lambda seen=seen: grids[seen:] and grids[-1], what="a newer map")
        known.append(int(np.sum(np.asarray(grid.data) >= 0)))
    assert known[1] > known[0] > 0, f"the map should grow as the robot drives: {known}"
    assert grids[-1].info.resolution == pytest.approx(0.05)
    ros.wait_for(lambda: markers and markers[-1].markers, what="object markers")

    pubs["/semantic_map/save"].publish(Empty())
    ros.wait_for(lambda: (out / "semantics.json").is_file(), what=f"the scene saved in {out}")
    m = load_scene(out)
    assert len(m.rooms) >= 1 and m.traversable.any()
    assert int(m.metadata["images"]) >= 11  # type: ignore[call-overload]


def test_node_refuses_to_start_without_an_output(ros) -> None:  # type: ignore[no-untyped-def]
    from map2route.ros.params import NodeConfigError
    from map2route.ros.semantic_map_builder import SemanticMapBuilderNode

    with pytest.raises(NodeConfigError, match="output"):
        SemanticMapBuilderNode(context=ros.context)


def test_node_builds_from_driver_topics_with_detections_on_a_topic(ros, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """CompressedImage panoramas, a sensor-frame cloud, poses on /tf, the camera on
    /tf_static (latched) and detection records on /semantic_map/detections: no /sim/*."""
    import cv2
    from geometry_msgs.msg import TransformStamped
    from rclpy.parameter import Parameter
    from rclpy.qos import DurabilityPolicy, QoSProfile
    from sensor_msgs.msg import CompressedImage, PointCloud2
    from std_msgs.msg import Empty, String
    from tf2_msgs.msg import TFMessage

    from map2route.mapping.camera import world_to_body
    from map2route.mapping.detectors import Frame, GroundTruthDetector
    from map2route.mapping.external import detection_record
    from map2route.mapping.scene3d import Scene3D
    from map2route.ros.semantic_map_builder import SemanticMapBuilderNode
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.synthetic import two_room_house

    def tf(t: float, parent: str, child: str, xyz: Any, q: Any) -> Any:
        ts = TransformStamped()
        ts.header.stamp, ts.header.frame_id, ts.child_frame_id = _stamp(t), parent, child
        ts.transform.translation.x, ts.transform.translation.y, ts.transform.translation.z = (
            float(v) for v in xyz)
        w, x, y, z = (float(v) for v in q)
        r = ts.transform.rotation
        r.w, r.x, r.y, r.z = w, x, y, z
        return ts

    out = tmp_path / "built"
    node = ros.add(SemanticMapBuilderNode(context=ros.context, parameter_overrides=[
        Parameter("output", value=str(out)), Parameter("publish_period_s", value=5.0),
        Parameter("detector", value="external")]))
    helper = ros.add(ros.rclpy.create_node("drivers", context=ros.context))
    latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    static = helper.create_publisher(TFMessage, "/tf_static", latched)
    pubs = {"/tf": helper.create_publisher(TFMessage, "/tf", 50),
            "/livox/lidar": helper.create_publisher(PointCloud2, "/livox/lidar", 50),
            "/camera/image/compressed": helper.create_publisher(
                CompressedImage, "/camera/image/compressed", 50),
            "/semantic_map/detections": helper.create_publisher(String, "/semantic_map/detections", 50),
            "/semantic_map/save": helper.create_publisher(Empty, "/semantic_map/save", 1)}
    ros.wait_for(lambda: all(p.get_subscription_count() > 0 for p in pubs.values()),
                 what="semantic_map_builder to subscribe to the driver topics")
    from transforms3d.euler import euler2quat

    cfg = node.builder.config
    static.publish(TFMessage(transforms=[tf(0.0, "sensor", "camera", cfg.camera_xyz,
                                            euler2quat(*cfg.camera_rpy, axes="sxyz"))]))
    ros.wait_for(lambda: node.inputs.camera_from_tf, what="the camera extrinsics from /tf_static")
    labels = tuple(Scene3D.from_map(two_room_house()).labels)
    det = GroundTruthDetector()
    for k, (t, pose, scan, pano) in enumerate(_frames(8)):
        pubs["/tf"].publish(TFMessage(transforms=[tf(t, "map", "sensor", pose.position,
                                                      pose.quaternion)]))
        body = world_to_body(scan[:, :3], pose)
        pubs["/livox/lidar"].publish(_cloud_msg(t, np.c_[body, np.zeros(len(body))], "sensor"))
        ok, buf = cv2.imencode(".png", np.ascontiguousarray(pano.rgb[..., ::-1]))
        img = CompressedImage(format="png", data=buf.tobytes())
        img.header.stamp, img.header.frame_id = _stamp(t), "camera"
        pubs["/camera/image/compressed"].publish(img)
        dets = det.detect(Frame(rgb=pano.rgb, instance_ids=pano.instance_ids, labels=labels))
        pubs["/semantic_map/detections"].publish(String(data=json.dumps(
            detection_record(t, pano.rgb.shape[:2], dets))))
        n = k + 1
        ros.wait_for(lambda n=n: node.builder.images >= n - 1 and node.builder.scans >= n,
                     what=f"the node to take in frame {n}")
    assert node.inputs.poses_from_tf
    pubs["/semantic_map/save"].publish(Empty())
    ros.wait_for(lambda: (out / "semantics.json").is_file(), what=f"the scene saved in {out}")
    m = load_scene(out)
    assert m.metadata["detector"] == "external" and int(m.metadata["images"]) >= 7  # type: ignore[call-overload]
    assert m.objects and m.traversable.any()
