"""Real drivers' inputs: compressed panoramas, sensor-frame clouds, TF poses and extrinsics,
external detections; a simulator bag converted to driver topics builds a map."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from map2route.mapping.camera import Pose
from map2route.mapping.detectors import Frame, GroundTruthDetector
from map2route.mapping.errors import MappingError
from map2route.mapping.external import ExternalDetector, detection_record, rle_decode, rle_encode

rosbags = pytest.importorskip("rosbags")


def test_rle_is_column_major_and_starts_with_zeros() -> None:
    mask = np.array([[1, 0], [1, 1]], dtype=bool)
    # Column-major: 1, 1, 0, 1 -> zero 0s, two 1s, one 0, one 1.
    assert rle_encode(mask) == {"size": [2, 2], "counts": [0, 2, 1, 1]}
    assert np.array_equal(rle_decode({"size": [2, 2], "counts": [0, 2, 1, 1]}), mask)
    rng = np.random.default_rng(0)
    m = rng.random((7, 5)) > 0.6
    assert np.array_equal(rle_decode(rle_encode(m)), m)
    with pytest.raises(MappingError, match="add up to"):
        rle_decode({"size": [2, 2], "counts": [1, 2]})
    with pytest.raises(MappingError, match="uncompressed"):
        rle_decode({"size": [2, 2], "counts": "abc"})


def test_external_detector_reads_boxes_and_masks_by_stamp(tmp_path) -> None:  # type: ignore[no-untyped-def]
    mask = np.zeros((4, 6), dtype=bool)
    mask[1:3, 2:4] = True
    recs = [{"stamp": 10.0, "width": 6, "height": 4,
             "detections": [{"label": "Dining Table", "score": 0.8, "box": [0, 0, 2, 1]}]},
            {"stamp": 11.0, "width": 6, "height": 4,
             "detections": [{"label": "chair", "mask": rle_encode(mask)}]}]
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    det = ExternalDetector.from_jsonl(path)
    rgb = np.zeros((4, 6, 3), dtype=np.uint8)
    (d0,) = det.detect(Frame(rgb=rgb, stamp=10.001))
    assert d0.label == "dining_table" and d0.score == 0.8 and d0.box == (0, 0, 2, 1)
    (d1,) = det.detect(Frame(rgb=rgb, stamp=11.0))
    assert np.array_equal(d1.mask, mask) and d1.score == 1.0
    assert det.detect(Frame(rgb=rgb, stamp=12.0)) == [] and det.unmatched == 1
    with pytest.raises(MappingError, match="6x4 image"):
        det.detect(Frame(rgb=np.zeros((8, 12, 3), np.uint8), stamp=10.0))
    # Round trip of the writer's record.
    rec = detection_record(5.0, (4, 6), [d1])
    assert rec["detections"][0]["box"] == [2, 1, 4, 3]
    path.write_text("{\"stamp\": 1}\n")
    with pytest.raises(MappingError, match="d.jsonl:1"):
        ExternalDetector.from_jsonl(path)
    live = ExternalDetector(live=True)
    assert not live.ready(3.0)
    live.add({"stamp": 3.0, "width": 6, "height": 4, "detections": []})
    assert live.ready(3.0)


def _types() -> Any:
    from map2route.mapping.bag import _typestore

    return _typestore().types


def _stamp(t: Any, sec: float) -> Any:
    return t["builtin_interfaces/msg/Time"](sec=int(sec), nanosec=int(round((sec % 1) * 1e9)))


def _tf(t: Any, sec: float, parent: str, child: str, pose: Pose) -> Any:
    w, x, y, z = pose.quaternion
    return t["geometry_msgs/msg/TransformStamped"](
        header=t["std_msgs/msg/Header"](stamp=_stamp(t, sec), frame_id=parent),
        child_frame_id=child,
        transform=t["geometry_msgs/msg/Transform"](
            translation=t["geometry_msgs/msg/Vector3"](x=pose.position[0], y=pose.position[1],
                                                        z=pose.position[2]),
            rotation=t["geometry_msgs/msg/Quaternion"](x=x, y=y, z=z, w=w)))


def test_tf_chain_gives_poses_and_static_tf_the_camera_and_lidar_mounts() -> None:
    from map2route.mapping.builder import MapBuilder
    from map2route.mapping.inputs import TF, SensorInputs

    t = _types()
    b = MapBuilder(GroundTruthDetector())
    feed = SensorInputs(b, has_odometry=False)
    assert feed.poses_from_tf
    cam = Pose((0.1, 0.0, 0.3), (1.0, 0.0, 0.0, 0.0))
    mount = Pose.planar(0.0, 0.0, 0.2, math.pi / 2)  # lidar 0.2 m up, turned 90 deg
    feed.on_message(TF, "/tf_static", t["tf2_msgs/msg/TFMessage"](
        transforms=[_tf(t, 0, "sensor", "camera", cam), _tf(t, 0, "sensor", "lidar", mount)]))
    assert feed.camera_from_tf
    assert b._camera_xyz == pytest.approx((0.1, 0.0, 0.3)) and b._camera_rpy == pytest.approx((0, 0, 0))
    # map -> odom (1 m along x), odom -> sensor (2 m along y, turned 90 deg).
    tf = t["tf2_msgs/msg/TFMessage"]
    feed.on_message(TF, "/tf", tf(transforms=[_tf(t, 1.0, "map", "odom", Pose.planar(1, 0, 0, 0))]))
    feed.on_message(TF, "/tf", tf(transforms=[_tf(t, 1.0, "odom", "sensor",
                                                  Pose.planar(0, 2, 0.45, math.pi / 2))]))
    feed.on_message(TF, "/tf", tf(transforms=[_tf(t, 1.1, "odom", "sensor",
                                                  Pose.planar(0, 3, 0.45, math.pi / 2))]))
    pose = b.pose_at(1.05)
    assert pose is not None and pose.position == pytest.approx((1.0, 2.5, 0.45))
    # A cloud in the lidar frame at t = 1.05: lidar x -> body y -> map -x.
    from map2route.mapping.inputs import CLOUD

    pts = np.array([[1.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    fields = [t["sensor_msgs/msg/PointField"](name=n, offset=4 * i, datatype=7, count=1)
              for i, n in enumerate(("x", "y", "z", "intensity"))]
    cloud = t["sensor_msgs/msg/PointCloud2"](
        header=t["std_msgs/msg/Header"](stamp=_stamp(t, 1.05), frame_id="lidar"), height=1,
        width=1, fields=fields, is_bigendian=False, point_step=16, row_step=16,
        data=pts.view(np.uint8).reshape(-1), is_dense=True)
    feed.on_message(CLOUD, "/livox/lidar", cloud)
    got = b.cloud.points()
    # body: (0, 1, 0.2); map: position (1, 2.5, 0.45) + yaw 90 deg of (0, 1, 0.2) = (-1, 0, 0.2).
    assert got.shape == (1, 3)
    assert got[0] == pytest.approx((0.0, 2.5, 0.65), abs=0.03)
    # A scan with no pose within the tolerance is dropped, not placed.
    far = replace_stamp(cloud, _stamp(t, 9.0))
    feed.on_message(CLOUD, "/livox/lidar", far)
    b._flush(final=True)
    assert b.dropped_scans == 1


def replace_stamp(msg: Any, stamp: Any) -> Any:
    import copy

    out = copy.copy(msg)
    out.header = copy.copy(msg.header)
    out.header.stamp = stamp
    return out


def test_compressed_panoramas_decode_and_bad_formats_are_named() -> None:
    import cv2

    from map2route.mapping.inputs import compressed_image_array

    t = _types()
    rgb = np.zeros((8, 24, 3), dtype=np.uint8)
    rgb[:, :, 0] = 200  # red
    ok, buf = cv2.imencode(".png", rgb[..., ::-1])
    assert ok
    msg = t["sensor_msgs/msg/CompressedImage"](
        header=t["std_msgs/msg/Header"](stamp=_stamp(t, 0), frame_id="camera"),
        format="rgb8; png compressed bgr8", data=np.asarray(buf).reshape(-1))
    assert np.array_equal(compressed_image_array(msg), rgb)
    bad = t["sensor_msgs/msg/CompressedImage"](header=msg.header, format="theora",
                                               data=np.zeros(3, np.uint8))
    with pytest.raises(MappingError, match="jpeg or png"):
        compressed_image_array(bad)
    broken = t["sensor_msgs/msg/CompressedImage"](header=msg.header, format="jpeg",
                                                  data=np.zeros(3, np.uint8))
    with pytest.raises(MappingError, match="cannot decode"):
        compressed_image_array(broken)


pytest.importorskip("open3d")


@pytest.fixture(scope="module")
def sim_bag(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from map2route.mapping.simulate import SimConfig, simulate
    from map2route.semantic_map.synthetic import two_room_house

    default = SimConfig.from_yaml()
    small = SimConfig.from_yaml(image_width=480, crop_rows=160,
                                lidar=replace(default.lidar, points_per_scan=6000))
    out = tmp_path_factory.mktemp("sim") / "bag"
    simulate(two_room_house(), out, config=small, progress=False)
    return out


def test_a_driver_topics_bag_with_external_detections_builds_the_map(sim_bag, tmp_path,  # type: ignore[no-untyped-def]
                                                                     two_room_map, capsys) -> None:
    from map2route.cli import main
    from map2route.mapping.bag import open_bag
    from map2route.mapping.builder import build_from_bag
    from map2route.mapping.detectors import make_detector
    from map2route.mapping.score import score_map
    from map2route.semantic_map.io import load_scene

    out = tmp_path / "driver"
    assert main(["map", "to-driver-bag", str(sim_bag), "-o", str(out)]) == 0
    assert "compressed panoramas" in capsys.readouterr().out
    reader = open_bag(out)
    types = {c.topic: c.msgtype for c in reader.connections}
    reader.close()
    assert types == {"/camera/image/compressed": "sensor_msgs/msg/CompressedImage",
                     "/livox/lidar": "sensor_msgs/msg/PointCloud2",
                     "/tf": "tf2_msgs/msg/TFMessage", "/tf_static": "tf2_msgs/msg/TFMessage"}
    dets = tmp_path / "driver.detections.jsonl"
    first = json.loads(dets.read_text().splitlines()[0])
    assert first["width"] == 480 and first["height"] == 160 and first["detections"]
    # The simulator's detector cannot run on it; the external one can.
    with pytest.raises(MappingError, match="instance_ids"):
        build_from_bag(out, name="x", detector=GroundTruthDetector(), progress=False)
    res = build_from_bag(out, name="built", detector=make_detector("external", detections=dets),
                         progress=False)
    ref = build_from_bag(sim_bag, name="ref", detector=GroundTruthDetector(), progress=False)
    s = score_map(res.map, two_room_map)
    assert res.map.metadata["detector"] == "external"
    fed: Any = res.map.metadata["inputs"]
    assert fed["poses_from"] == "tf" and fed["camera_extrinsics_from"] == "tf_static"
    assert fed["clouds_without_mount"] == [] and fed["messages"]["/tf_static"] == 1
    assert fed["messages"]["/livox/lidar"] == ref.map.metadata["scans"]
    assert fed["messages"]["/camera/image/compressed"] == ref.map.metadata["images"]
    assert len(res.map.rooms) == 2 and s.room_accuracy >= 0.9
    assert {"bed", "fridge", "dining_table", "chair"} <= {o.category for o in res.map.objects}
    assert s.precision >= 0.8 and s.traversability_iou > 0.6
    # Same objects as from the simulator's topics, up to the JPEG and the re-registration.
    assert abs(len(res.map.objects) - len(ref.map.objects)) <= 1
    assert main(["map", "build", "--bag", str(out), "-o", str(tmp_path / "b2"), "--detector",
                 "external", "--detections", str(dets)]) == 0
    assert "2 rooms" in capsys.readouterr().out
    load_scene(tmp_path / "b2")
    assert main(["map", "build", "--bag", str(out), "-o", str(tmp_path / "b3"), "--detector",
                 "external"]) == 1
    assert "--detections" in capsys.readouterr().err


def test_a_bag_without_poses_is_refused_by_name(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from map2route.mapping.bag import BagWriter, open_sensor_bag

    with BagWriter(tmp_path / "bag") as w:
        w.scan(0, np.zeros((3, 4), dtype=np.float32))
    with BagWriter(tmp_path / "bag2", topics={"/camera/image/compressed":
                                              "sensor_msgs/msg/CompressedImage"}) as w:
        w.compressed_image(0, np.zeros((4, 8, 3), np.uint8), topic="/camera/image/compressed")
    with pytest.raises(MappingError, match="PointCloud2.*poses"):
        open_sensor_bag(tmp_path / "bag2")
    assert open_sensor_bag(tmp_path / "bag").has_odometry


def test_map_simulate_takes_a_shipped_scene_name(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from map2route.cli import main
    from map2route.semantic_map.io import save_scene
    from map2route.semantic_map.synthetic import two_room_house

    maps = tmp_path / "maps"
    save_scene(two_room_house(), maps / "tiny_house")
    (maps / "index.json").write_text(json.dumps({"test": ["tiny_house"], "dev": [],
                                                 "default": "tiny_house"}))
    monkeypatch.setenv("MAP2ROUTE_MAPS", str(maps))
    monkeypatch.chdir(tmp_path)  # no folder named like the scene here: the name is resolved
    assert main(["map", "simulate", "tiny_house", "--out", str(tmp_path / "bag"),
                 "--image-width", "96", "--points-per-scan", "500"]) == 0
    assert "panoramas" in capsys.readouterr().out and (tmp_path / "bag").is_dir()
    assert main(["map", "simulate", "tiny_hous", "--out", str(tmp_path / "bag2")]) == 1
    assert "did you mean tiny_house" in capsys.readouterr().err


def test_input_settings_are_checked_with_the_file_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from map2route.mapping.builder import BuildConfig

    bad = tmp_path / "m.yaml"
    bad.write_text("build:\n  inputs:\n    pose_source: gps\n")
    with pytest.raises(MappingError, match="pose_source must be auto, odometry or tf"):
        BuildConfig.from_yaml(bad)
    bad.write_text("build:\n  inputs:\n    sync_tolerance: 0.1\n")
    with pytest.raises(MappingError, match="sync_tolerance"):
        BuildConfig.from_yaml(bad)
    good = tmp_path / "g.yaml"
    good.write_text("build:\n  inputs:\n    cloud_topics: [/points]\n    sync_tolerance_s: 0.05\n")
    cfg = BuildConfig.from_yaml(good).inputs
    assert cfg.cloud_topics == ("/points",) and cfg.sync_tolerance_s == 0.05
    assert cfg.image_topics == ("/camera/image", "/camera/image/compressed")
