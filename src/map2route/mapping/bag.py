"""Sensor bags without ROS: write and read MCAP rosbag2 bags with ``rosbags``.

Topics (the CMU / SysNav names):

- ``/registered_scan``  sensor_msgs/PointCloud2, map frame, float32 x y z intensity.
- ``/state_estimation`` nav_msgs/Odometry, map -> sensor (the body frame of
  :mod:`map2route.mapping.camera`).
- ``/camera/image``     sensor_msgs/Image, ``rgb8``, the cropped equirectangular panorama.

The simulator adds ground truth a real robot does not have:

- ``/sim/instance_ids``    sensor_msgs/Image ``mono16``, per-pixel instance id (0 = none).
- ``/sim/instance_labels`` std_msgs/String, once: JSON ``{"labels": [...], "object_ids": [...]}``
  indexed by instance id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from rosbags.highlevel import AnyReader, AnyReaderError
from rosbags.rosbag2 import CompressionFormat, CompressionMode, StoragePlugin, Writer
from rosbags.typesys import Stores, get_typestore

from map2route.mapping import inputs
from map2route.mapping.camera import Pose
from map2route.mapping.errors import MappingError
from map2route.mapping.inputs import (
    InputConfig,
    compressed_image_array,
    image_array,
    odometry_pose,
    pointcloud2_xyz,
)

__all__ = ["BagWriter", "SensorBag", "compressed_image_array", "image_array", "instance_pixels",
           "odometry_pose", "open_bag", "open_sensor_bag", "pointcloud2_xyz"]

if TYPE_CHECKING:
    from collections.abc import Iterator

    from numpy.typing import NDArray

SCAN_TOPIC = "/registered_scan"
ODOM_TOPIC = "/state_estimation"
IMAGE_TOPIC = "/camera/image"
INSTANCE_TOPIC = "/sim/instance_ids"
LABELS_TOPIC = "/sim/instance_labels"

_TYPES = {
    SCAN_TOPIC: "sensor_msgs/msg/PointCloud2",
    ODOM_TOPIC: "nav_msgs/msg/Odometry",
    IMAGE_TOPIC: "sensor_msgs/msg/Image",
    INSTANCE_TOPIC: "sensor_msgs/msg/Image",
    LABELS_TOPIC: "std_msgs/msg/String",
}


def _typestore() -> Any:

    return get_typestore(Stores.ROS2_JAZZY)


def _stamp(ts: Any, t_ns: int) -> Any:
    return ts.types["builtin_interfaces/msg/Time"](sec=t_ns // 1_000_000_000,
                                                   nanosec=t_ns % 1_000_000_000)


def _header(ts: Any, t_ns: int, frame: str) -> Any:
    return ts.types["std_msgs/msg/Header"](stamp=_stamp(ts, t_ns), frame_id=frame)


class BagWriter:
    """Write sensor messages to an MCAP bag, zstd-compressed chunks by default. A context manager.

    Raises:
        MappingError: the output path exists.
    """

    def __init__(self, path: str | Path, *, compress: bool = True,
                 topics: dict[str, str] | None = None) -> None:

        self.path = Path(path)
        if self.path.exists():
            msg = f"Bag {str(self.path)!r} already exists; pick a new --out or delete it first"
            raise MappingError(msg)
        self.ts = _typestore()
        self._writer = Writer(self.path, version=9, storage_plugin=StoragePlugin.MCAP)
        if compress:
            # MCAP chunk compression (zstd, through rosbags' own dependency): the rendered
            # panoramas are flat-shaded and shrink ~20x; any MCAP reader decompresses chunks.
            self._writer.set_compression(CompressionMode.STORAGE, CompressionFormat.ZSTD)
        self._conns: dict[str, Any] = {}
        self._types = dict(topics or _TYPES)

    def __enter__(self) -> BagWriter:
        self._writer.open()
        for topic, msgtype in self._types.items():
            self._conns[topic] = self._writer.add_connection(topic, msgtype, typestore=self.ts)
        return self

    def __exit__(self, *exc: object) -> None:
        self._writer.close()

    def _write(self, topic: str, t_ns: int, msg: Any) -> None:
        self._writer.write(self._conns[topic], t_ns, self.ts.serialize_cdr(msg, self._types[topic]))

    def scan(self, t_ns: int, points: NDArray[np.float32], *, frame: str = "map",
             topic: str = SCAN_TOPIC) -> None:
        """``points``: ``(N, 4)`` float32 x, y, z, intensity in ``frame``."""
        t = self.ts.types
        fields = [t["sensor_msgs/msg/PointField"](name=n, offset=4 * i, datatype=7, count=1)
                  for i, n in enumerate(("x", "y", "z", "intensity"))]
        data = np.ascontiguousarray(points, dtype=np.float32)
        msg = t["sensor_msgs/msg/PointCloud2"](
            header=_header(self.ts, t_ns, frame), height=1, width=len(data), fields=fields,
            is_bigendian=False, point_step=16, row_step=16 * len(data),
            data=data.view(np.uint8).reshape(-1), is_dense=True)
        self._write(topic, t_ns, msg)

    def compressed_image(self, t_ns: int, rgb: NDArray[np.uint8], *, topic: str,
                         fmt: str = "jpeg", quality: int = 90) -> None:
        """An ``(H, W, 3)`` RGB image as a sensor_msgs/CompressedImage (``jpeg`` or ``png``)."""
        ext = ".png" if fmt == "png" else ".jpg"
        params = [] if fmt == "png" else [int(cv2.IMWRITE_JPEG_QUALITY), quality]
        ok, buf = cv2.imencode(ext, np.ascontiguousarray(rgb[..., ::-1]), params)
        if not ok:
            msg_ = f"cannot encode a {rgb.shape} image as {fmt}"
            raise MappingError(msg_)
        msg = self.ts.types["sensor_msgs/msg/CompressedImage"](
            header=_header(self.ts, t_ns, "camera"), format=fmt,
            data=np.asarray(buf, dtype=np.uint8).reshape(-1))
        self._write(topic, t_ns, msg)

    def transforms(self, t_ns: int, links: list[tuple[str, str, Pose]], *,
                   topic: str = "/tf") -> None:
        """A tf2_msgs/TFMessage of ``(parent, child, child pose in parent)`` links."""
        t = self.ts.types
        out = []
        for parent, child, pose in links:
            w, x, y, z = pose.quaternion
            out.append(t["geometry_msgs/msg/TransformStamped"](
                header=_header(self.ts, t_ns, parent), child_frame_id=child,
                transform=t["geometry_msgs/msg/Transform"](
                    translation=t["geometry_msgs/msg/Vector3"](
                        x=pose.position[0], y=pose.position[1], z=pose.position[2]),
                    rotation=t["geometry_msgs/msg/Quaternion"](x=x, y=y, z=z, w=w))))
        self._write(topic, t_ns, t["tf2_msgs/msg/TFMessage"](transforms=out))

    def odometry(self, t_ns: int, pose: Pose) -> None:
        t = self.ts.types
        p = t["geometry_msgs/msg/Point"](x=pose.position[0], y=pose.position[1], z=pose.position[2])
        w, x, y, z = pose.quaternion
        q = t["geometry_msgs/msg/Quaternion"](x=x, y=y, z=z, w=w)
        cov = np.zeros(36, dtype=np.float64)
        msg = t["nav_msgs/msg/Odometry"](
            header=_header(self.ts, t_ns, "map"), child_frame_id="sensor",
            pose=t["geometry_msgs/msg/PoseWithCovariance"](
                pose=t["geometry_msgs/msg/Pose"](position=p, orientation=q), covariance=cov),
            twist=t["geometry_msgs/msg/TwistWithCovariance"](
                twist=t["geometry_msgs/msg/Twist"](
                    linear=t["geometry_msgs/msg/Vector3"](x=0.0, y=0.0, z=0.0),
                    angular=t["geometry_msgs/msg/Vector3"](x=0.0, y=0.0, z=0.0)),
                covariance=cov))
        self._write(ODOM_TOPIC, t_ns, msg)

    def image(self, t_ns: int, image: NDArray[Any], *, topic: str = IMAGE_TOPIC) -> None:
        """An ``rgb8`` (H, W, 3) uint8 or ``mono16`` (H, W) uint16 image."""
        enc = "rgb8" if image.ndim == 3 else "mono16"
        data = np.ascontiguousarray(image)
        step = data.shape[1] * data.itemsize * (3 if image.ndim == 3 else 1)
        msg = self.ts.types["sensor_msgs/msg/Image"](
            header=_header(self.ts, t_ns, "camera"), height=data.shape[0], width=data.shape[1],
            encoding=enc, is_bigendian=0, step=step, data=data.view(np.uint8).reshape(-1))
        self._write(topic, t_ns, msg)

    def labels(self, t_ns: int, labels: list[str], object_ids: list[str]) -> None:
        msg = self.ts.types["std_msgs/msg/String"](
            data=json.dumps({"labels": labels, "object_ids": object_ids}))
        self._write(LABELS_TOPIC, t_ns, msg)


# --- reading ---------------------------------------------------------------------------------
# The decoders live in :mod:`map2route.mapping.inputs` (one input path for bags and the node).


@dataclass
class SensorBag:
    """An open bag's sensor messages: how many, whether poses come from odometry, and the
    messages ``(ROS type, topic, message)`` in bag time order (the reader closes at the end)."""

    count: int
    has_odometry: bool
    topics: dict[str, str]
    messages: Iterator[tuple[str, str, Any]] = field(repr=False)


def open_bag(root: Path) -> Any:
    """An open ``rosbags`` reader on ``root``.

    Raises:
        MappingError: the bag is missing or unreadable.
    """

    if not root.exists():
        msg = f"Bag {str(root)!r} does not exist; record one or run `map2route map simulate`"
        raise MappingError(msg)
    try:
        reader = AnyReader([root], default_typestore=_typestore())
        reader.open()
    except (AnyReaderError, OSError) as err:
        msg = f"Cannot read bag {str(root)!r}: {err}"
        raise MappingError(msg) from err
    return reader


def open_sensor_bag(path: str | Path, config: InputConfig | None = None) -> SensorBag:
    """The sensor messages of a bag that :class:`~map2route.mapping.inputs.SensorInputs` reads:
    panoramas (Image or CompressedImage) on ``image_topics``, clouds on ``cloud_topics``,
    poses from ``odometry_topics`` or ``/tf``, ``/tf_static``, and the simulator's topics.

    Raises:
        MappingError: the bag is missing or unreadable, or lacks panoramas, clouds or poses.
    """
    cfg = config or InputConfig()
    root = Path(path)
    reader = open_bag(root)
    topics = {c.topic: c.msgtype for c in reader.connections}
    images = [t for t in cfg.image_topics if topics.get(t) in (inputs.IMAGE, inputs.COMPRESSED)]
    clouds = [t for t in cfg.cloud_topics if topics.get(t) == inputs.CLOUD]
    odom = [t for t in cfg.odometry_topics if topics.get(t) == inputs.ODOMETRY]
    tf = topics.get("/tf") == inputs.TF
    missing = []
    if not images:
        missing.append(f"a panorama (Image or CompressedImage) on one of {list(cfg.image_topics)}")
    if not clouds:
        missing.append(f"a PointCloud2 on one of {list(cfg.cloud_topics)}")
    if not odom and not tf:
        missing.append(f"poses (Odometry on one of {list(cfg.odometry_topics)}, or /tf)")
    if missing:
        reader.close()
        msg = (f"Bag {str(root)!r} lacks {'; '.join(missing)}; it has "
               f"{dict(sorted(topics.items()))} (set build.inputs.* in a --config YAML for other "
               "topic names)")
        raise MappingError(msg)
    wanted = {*images, *clouds, *odom, "/tf", "/tf_static", INSTANCE_TOPIC, LABELS_TOPIC}
    conns = [c for c in reader.connections if c.topic in wanted]

    def messages() -> Iterator[tuple[str, str, Any]]:
        try:
            for conn, _t_ns, raw in reader.messages(connections=conns):
                yield conn.msgtype, conn.topic, reader.deserialize(raw, conn.msgtype)
        finally:
            reader.close()

    return SensorBag(count=sum(c.msgcount for c in conns), has_odometry=bool(odom),
                     topics=topics, messages=messages())


def instance_pixels(path: str | Path) -> tuple[list[str], NDArray[np.int64], int]:
    """What a simulator bag's panoramas showed: per instance id, the largest pixel count it
    has in one ``/sim/instance_ids`` image, with the label table's object ids and the
    panorama width (only these two topics are decoded).

    Returns:
        ``(object_ids, max_px, width)``: ``object_ids[k]`` is the map object of instance id
        ``k`` (``""`` for 0, no object) and ``max_px[k]`` its largest count in one image.

    Raises:
        MappingError: the bag is missing or unreadable, or has no instance-id images or no
            label table (a bag not written by ``map2route map simulate``).
    """
    root = Path(path)
    reader = open_bag(root)
    try:
        conns = [c for c in reader.connections if c.topic in (INSTANCE_TOPIC, LABELS_TOPIC)]
        if {c.topic for c in conns} != {INSTANCE_TOPIC, LABELS_TOPIC}:
            msg = (f"Bag {str(root)!r} has no {INSTANCE_TOPIC} images or no {LABELS_TOPIC} "
                   "table (only simulator bags carry the true instance ids)")
            raise MappingError(msg)
        object_ids: list[str] = []
        best = np.zeros(1, dtype=np.int64)
        width = 0
        for conn, _, raw in reader.messages(connections=conns):
            msg_ = reader.deserialize(raw, conn.msgtype)
            if conn.topic == LABELS_TOPIC:
                object_ids = [str(v) for v in json.loads(msg_.data)["object_ids"]]  # type: ignore[attr-defined]
                continue
            img = image_array(msg_)
            width = img.shape[1]
            cnt = np.bincount(img.reshape(-1).astype(np.int64))
            if len(cnt) > len(best):
                best = np.pad(best, (0, len(cnt) - len(best)))
            best[: len(cnt)] = np.maximum(best[: len(cnt)], cnt)
    finally:
        reader.close()
    if not object_ids:
        msg = (f"Bag {str(root)!r} has no {LABELS_TOPIC} message (only simulator bags carry "
               "the true instance ids)")
        raise MappingError(msg)
    best = np.pad(best, (0, max(0, len(object_ids) - len(best))))
    return object_ids, best, width
