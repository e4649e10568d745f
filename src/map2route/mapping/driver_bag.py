"""A simulator bag as a real robot's drivers would have recorded it (``map2route map to-driver-bag``).

The output holds only the message types real drivers publish, and none of the simulator's
ground truth:

- ``/camera/image/compressed``  sensor_msgs/CompressedImage (``jpeg`` or ``png``), the cropped
  panorama, frame ``camera``;
- ``/livox/lidar``  sensor_msgs/PointCloud2 in the lidar's own frame ``lidar`` (mounted on the
  body turned by yaw ``LIDAR_MOUNT_YAW``, so the static transform is exercised), not
  registered: each scan is the map-frame scan moved back by the body pose at its stamp;
- ``/tf``  map -> ``sensor`` (the body) at every odometry stamp (a SLAM's output as TF);
- ``/tf_static``  ``sensor`` -> ``camera`` (the YAML's camera extrinsics) and ``sensor`` ->
  ``lidar``;
- no ``/state_estimation``, no ``/registered_scan``, no ``/sim/*``.

Beside it, the detections a perfect detector makes on the panoramas as JSONL
(:func:`write_sim_detections`), for ``map build --detector
external --detections FILE``.
"""

from __future__ import annotations

import bisect
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from transforms3d.euler import euler2quat

from map2route.files import atomic_write_text
from map2route.mapping.bag import (
    IMAGE_TOPIC,
    INSTANCE_TOPIC,
    LABELS_TOPIC,
    ODOM_TOPIC,
    SCAN_TOPIC,
    BagWriter,
    image_array,
    odometry_pose,
    open_bag,
    pointcloud2_xyz,
)
from map2route.mapping.camera import Pose, interpolate_pose, world_to_body
from map2route.mapping.detectors import Frame, GroundTruthDetector
from map2route.mapping.errors import MappingError
from map2route.mapping.external import detection_record
from map2route.mapping.inputs import stamp_s

if TYPE_CHECKING:
    from map2route.mapping.builder import BuildConfig

COMPRESSED_TOPIC = "/camera/image/compressed"
LIDAR_TOPIC = "/livox/lidar"
BODY_FRAME = "sensor"
LIDAR_FRAME = "lidar"
CAMERA_FRAME = "camera"
#: The lidar frame's yaw on the body (rad): not the identity, so a reader must use /tf_static.
LIDAR_MOUNT_YAW = math.pi / 2

DRIVER_TOPICS = {
    COMPRESSED_TOPIC: "sensor_msgs/msg/CompressedImage",
    LIDAR_TOPIC: "sensor_msgs/msg/PointCloud2",
    "/tf": "tf2_msgs/msg/TFMessage",
    "/tf_static": "tf2_msgs/msg/TFMessage",
}


@dataclass(frozen=True)
class DriverBagResult:
    """What :func:`to_driver_bag` wrote."""

    bag: Path
    detections: Path
    images: int
    scans: int
    poses: int


def _pose_at(ts: list[int], poses: list[Pose], t: int) -> Pose:
    """The pose at ``t`` (ns), linear between the odometry poses around it (nearest outside)."""
    i = bisect.bisect_left(ts, t)
    if i < len(ts) and ts[i] == t:
        return poses[i]
    if i == 0 or i >= len(ts):
        return poses[min(i, len(ts) - 1)]
    w = (t - ts[i - 1]) / (ts[i] - ts[i - 1])
    a, b = poses[i - 1], poses[i]
    return interpolate_pose(a, b, w)


def to_driver_bag(sim_bag: str | Path, out: str | Path, *, detections: str | Path | None = None,
                  image_format: str = "jpeg", config: BuildConfig | None = None
                  ) -> DriverBagResult:
    """Convert a simulator bag (see the module docstring).

    Args:
        detections: the JSONL to write [``OUT.detections.jsonl`` beside the bag folder].
        image_format: ``jpeg`` (lossy, as a Theta pipeline publishes) or ``png``.
        config: the builder settings whose camera extrinsics go on ``/tf_static``.

    Raises:
        MappingError: ``out`` exists, the input is not a simulator bag, or a bad format.
    """
    from map2route.mapping.builder import BuildConfig  # noqa: PLC0415 - builder imports bag

    if image_format not in ("jpeg", "png"):
        msg = f"image format must be jpeg or png, got {image_format!r}"
        raise MappingError(msg)
    src, dst = Path(sim_bag), Path(out)
    det_path = Path(detections) if detections is not None else dst.with_name(
        dst.name + ".detections.jsonl")
    cfg = config or BuildConfig.from_yaml()
    reader = open_bag(src)
    ts: list[int] = []
    poses: list[Pose] = []
    try:
        odom = [c for c in reader.connections if c.topic == ODOM_TOPIC]
        topics = {c.topic for c in reader.connections}
        if not odom or SCAN_TOPIC not in topics or IMAGE_TOPIC not in topics:
            msg = (f"Bag {str(src)!r} is not a simulator bag: it needs {ODOM_TOPIC}, "
                   f"{SCAN_TOPIC} and {IMAGE_TOPIC}; it has {sorted(topics)}")
            raise MappingError(msg)
        for conn, t_ns, raw in reader.messages(connections=odom):
            ts.append(t_ns)
            poses.append(odometry_pose(reader.deserialize(raw, conn.msgtype)))
    finally:
        reader.close()
    order = np.argsort(ts, kind="stable")
    ts = [ts[i] for i in order]
    poses = [poses[i] for i in order]
    cam_q = euler2quat(*cfg.camera_rpy, axes="sxyz")
    camera = Pose(tuple(cfg.camera_xyz), tuple(float(v) for v in cam_q))  # type: ignore[arg-type]
    lidar = Pose.planar(0.0, 0.0, 0.0, LIDAR_MOUNT_YAW)
    images = scans = 0
    reader = open_bag(src)
    try:
        conns = [c for c in reader.connections if c.topic in (SCAN_TOPIC, IMAGE_TOPIC, ODOM_TOPIC)]
        with BagWriter(dst, topics=DRIVER_TOPICS) as w:
            w.transforms(min(int(reader.start_time), ts[0]), [(BODY_FRAME, CAMERA_FRAME, camera), (BODY_FRAME, LIDAR_FRAME, lidar)],
                         topic="/tf_static")
            for conn, t_ns, raw in reader.messages(connections=conns):
                msg = reader.deserialize(raw, conn.msgtype)
                if conn.topic == ODOM_TOPIC:
                    w.transforms(t_ns, [("map", BODY_FRAME, odometry_pose(msg))])
                elif conn.topic == IMAGE_TOPIC:
                    w.compressed_image(t_ns, image_array(msg), topic=COMPRESSED_TOPIC,
                                       fmt=image_format)
                    images += 1
                else:
                    body = world_to_body(pointcloud2_xyz(msg), _pose_at(ts, poses, t_ns))
                    in_lidar = world_to_body(body, lidar)
                    pts = np.zeros((len(in_lidar), 4), dtype=np.float32)
                    pts[:, :3] = in_lidar
                    w.scan(t_ns, pts, frame=LIDAR_FRAME, topic=LIDAR_TOPIC)
                    scans += 1
    finally:
        reader.close()
    write_sim_detections(src, det_path)
    return DriverBagResult(bag=dst, detections=det_path, images=images, scans=scans,
                           poses=len(ts))


def write_sim_detections(bag: str | Path, out: str | Path, *, min_pixels: int = 30) -> int:
    """Write the detections a perfect detector makes on a simulator bag's panoramas (its
    ``/sim/instance_ids`` images, the ground-truth detector without noise) as JSONL at
    ``out`` (atomically); returns the number of panoramas.

    Raises:
        MappingError: the bag has no instance ids (not from ``map2route map simulate``).
    """
    reader = open_bag(Path(bag))
    det = GroundTruthDetector(min_pixels=min_pixels)
    labels: tuple[str, ...] = ()
    lines: list[str] = []
    try:
        conns = [c for c in reader.connections if c.topic in (INSTANCE_TOPIC, LABELS_TOPIC)]
        if {c.topic for c in conns} != {INSTANCE_TOPIC, LABELS_TOPIC}:
            msg = (f"Bag {str(bag)!r} has no {INSTANCE_TOPIC} images or no {LABELS_TOPIC}: only "
                   "a simulator bag can give the simulated detector's detections")
            raise MappingError(msg)
        pending = []
        for conn, _, raw in reader.messages(connections=conns):
            msg_ = reader.deserialize(raw, conn.msgtype)
            if conn.topic == LABELS_TOPIC:
                labels = tuple(json.loads(msg_.data)["labels"])  # type: ignore[attr-defined]
                continue
            pending.append((stamp_s(msg_), image_array(msg_)))
            if labels:
                for t, ids in pending:
                    dets = det.detect(Frame(rgb=np.zeros((*ids.shape, 3), np.uint8),
                                            instance_ids=ids, labels=labels))
                    lines.append(json.dumps(detection_record(t, ids.shape, dets)))
                pending = []
    finally:
        reader.close()
    if pending:
        msg = f"Bag {str(bag)!r} has no {LABELS_TOPIC} table for its instance ids"
        raise MappingError(msg)
    atomic_write_text(Path(out), "".join(line + "\n" for line in lines))
    return len(lines)
