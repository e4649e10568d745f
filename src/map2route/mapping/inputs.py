"""Sensor messages as real drivers publish them, fed to the :class:`MapBuilder`.

One path for bags (:func:`map2route.mapping.builder.build_from_bag`) and for the ROS node
(:mod:`map2route.ros.semantic_map_builder`): :class:`SensorInputs` takes a message object (a
``rosbags`` message or an ``rclpy`` one: both carry the ROS field names) with its ROS type
name and topic, and feeds the builder:

- ``sensor_msgs/msg/Image`` (``rgb8``, ``bgr8``; ``mono16`` on the simulator's id topic) and
  ``sensor_msgs/msg/CompressedImage`` (``jpeg``/``png``, what a Ricoh Theta pipeline or
  ``image_transport``'s compressed plugin publishes; decoded with OpenCV) equirectangular
  panoramas;
- ``sensor_msgs/msg/PointCloud2`` in the map frame (SLAM's ``/registered_scan``: its
  ``frame_id`` is one of ``world_frames``) or in the sensor's own frame (a Livox driver's
  ``/livox/lidar``): moved into the body frame by the static transform from TF and placed
  with the body pose at its stamp;
- body poses from ``nav_msgs/msg/Odometry`` (``/state_estimation``) or, where the bag has no
  odometry topic, from ``tf2_msgs/msg/TFMessage`` on ``/tf``: the chain from a world frame to
  ``body_frame`` through the latest transform of each link (``map -> odom -> body``);
- ``/tf_static``: the camera extrinsics (``body_frame -> camera_frame``) and the lidar's
  (``body_frame -> cloud frame``); without them the YAML's ``camera_xyz``/``camera_rpy`` and
  an identity lidar mount are used.

Times are header stamps in seconds. An image or a body-frame scan is used only with a pose
within ``sync_tolerance_s`` of its stamp (interpolated between the poses around it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from transforms3d.euler import mat2euler
from transforms3d.quaternions import quat2mat

from map2route.mapping.camera import Pose
from map2route.mapping.errors import MappingError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.mapping.builder import MapBuilder

IMAGE = "sensor_msgs/msg/Image"
COMPRESSED = "sensor_msgs/msg/CompressedImage"
CLOUD = "sensor_msgs/msg/PointCloud2"
ODOMETRY = "nav_msgs/msg/Odometry"
TF = "tf2_msgs/msg/TFMessage"
STRING = "std_msgs/msg/String"


@dataclass(frozen=True)
class InputConfig:
    """Input settings (``config/mapping.yaml``, section ``build.inputs``)."""

    #: Topics read as panoramas (Image or CompressedImage), clouds, odometry.
    image_topics: tuple[str, ...] = ("/camera/image", "/camera/image/compressed")
    cloud_topics: tuple[str, ...] = ("/registered_scan", "/livox/lidar")
    odometry_topics: tuple[str, ...] = ("/state_estimation",)
    #: Frames a cloud is already registered in (SLAM's map frame).
    world_frames: tuple[str, ...] = ("map",)
    #: The frame the poses are of (the Odometry's child frame; the TF chain's end).
    body_frame: str = "sensor"
    #: The panorama camera's frame (x right, y down, z forward), looked up in /tf_static.
    camera_frame: str = "camera"
    #: An image or a body-frame scan needs a pose within this many seconds of its stamp.
    sync_tolerance_s: float = 0.1
    #: ``odometry``, ``tf``, or ``auto`` (odometry when an odometry topic is there, else /tf).
    pose_source: str = "auto"

    def __post_init__(self) -> None:
        if self.pose_source not in ("auto", "odometry", "tf"):
            msg = (f"build.inputs.pose_source must be auto, odometry or tf, got "
                   f"{self.pose_source!r}")
            raise MappingError(msg)
        if not self.sync_tolerance_s > 0:
            msg = f"build.inputs.sync_tolerance_s must be > 0 seconds, got {self.sync_tolerance_s}"
            raise MappingError(msg)


def stamp_s(msg: Any) -> float:
    """A message's header stamp in seconds."""
    st = msg.header.stamp
    return float(st.sec) + float(st.nanosec) * 1e-9


def pointcloud2_xyz(msg: Any) -> NDArray[np.float32]:
    """``(N, 3)`` float32 xyz of a PointCloud2 with float32 x, y, z fields (any point_step).

    Raises:
        MappingError: x, y or z is missing or not float32.
    """
    offsets = {f.name: (f.offset, f.datatype) for f in msg.fields}
    if any(k not in offsets or offsets[k][1] != 7 for k in ("x", "y", "z")):
        msg_ = (f"PointCloud2 needs float32 fields x, y, z; it has "
                f"{[(f.name, f.datatype) for f in msg.fields]}")
        raise MappingError(msg_)
    raw = np.frombuffer(bytes(msg.data), dtype=np.uint8)
    n = msg.width * msg.height
    rec = raw[: n * msg.point_step].reshape(n, msg.point_step)
    dt = np.dtype(">f4" if msg.is_bigendian else "<f4")
    cols = [rec[:, offsets[k][0]: offsets[k][0] + 4].copy().view(dt).reshape(-1)
            for k in ("x", "y", "z")]
    return np.stack(cols, axis=1).astype(np.float32)


def image_array(msg: Any) -> NDArray[Any]:
    """A sensor_msgs/Image as ``(H, W, 3)`` uint8 RGB (rgb8/bgr8) or ``(H, W)`` uint16 (mono16).

    Raises:
        MappingError: another encoding.
    """
    raw = np.frombuffer(bytes(msg.data), dtype=np.uint8)
    if msg.encoding in ("rgb8", "bgr8"):
        img = raw.reshape(msg.height, msg.step)[:, : msg.width * 3].reshape(msg.height, msg.width, 3)
        return img[..., ::-1].copy() if msg.encoding == "bgr8" else img.copy()
    if msg.encoding in ("mono16", "16UC1"):
        return raw.reshape(msg.height, msg.step).copy().view(np.uint16)[:, : msg.width]
    msg_ = f"image encoding {msg.encoding!r} is not supported; use rgb8, bgr8 or mono16"
    raise MappingError(msg_)


def compressed_image_array(msg: Any) -> NDArray[np.uint8]:
    """A sensor_msgs/CompressedImage (``jpeg`` or ``png``, colour) as ``(H, W, 3)`` uint8 RGB.

    Raises:
        MappingError: not a jpeg/png colour image, or undecodable.
    """
    fmt = str(msg.format).lower()
    if not any(k in fmt for k in ("jpeg", "jpg", "png")):
        msg_ = f"compressed image format {msg.format!r} is not supported; publish jpeg or png"
        raise MappingError(msg_)
    buf = np.frombuffer(bytes(msg.data), dtype=np.uint8)
    img = cv2.imdecode(buf, cv2.IMREAD_COLOR) if buf.size else None
    if img is None:
        msg_ = f"cannot decode a {msg.format!r} compressed image of {buf.size} bytes"
        raise MappingError(msg_)
    return np.ascontiguousarray(img[..., ::-1])


def odometry_pose(msg: Any) -> Pose:
    """The body pose of a nav_msgs/Odometry."""
    p, q = msg.pose.pose.position, msg.pose.pose.orientation
    return Pose((p.x, p.y, p.z), (q.w, q.x, q.y, q.z))


def _matrix(tr: Any) -> NDArray[np.float64]:
    """4x4 of a geometry_msgs/Transform (child frame in the parent frame)."""
    t, q = tr.translation, tr.rotation
    out = np.eye(4)
    out[:3, :3] = quat2mat((q.w, q.x, q.y, q.z))
    out[:3, 3] = (t.x, t.y, t.z)
    return out


def _pose(m: NDArray[np.float64]) -> Pose:
    from transforms3d.quaternions import mat2quat  # noqa: PLC0415 - one helper

    w, x, y, z = mat2quat(m[:3, :3])
    return Pose((float(m[0, 3]), float(m[1, 3]), float(m[2, 3])),
                (float(w), float(x), float(y), float(z)))


class SensorInputs:
    """Feeds driver messages to a :class:`MapBuilder` (see the module docstring).

    Args:
        builder: the builder fed.
        config: the input settings (default: the builder's ``config.inputs``).
        has_odometry: whether an odometry topic will come (``pose_source: auto``), when known
            up front (a bag); ``None`` (a node): the first source that brings a body pose,
            odometry or /tf, is used from then on.
    """

    def __init__(self, builder: MapBuilder, config: InputConfig | None = None, *,
                 has_odometry: bool | None = None) -> None:
        self.builder = builder
        self.config = config or builder.config.inputs
        src = self.config.pose_source
        self._source: str | None = src if src != "auto" else (
            None if has_odometry is None else ("odometry" if has_odometry else "tf"))
        self._static: dict[str, tuple[str, NDArray[np.float64]]] = {}  # child -> parent, T
        self._dynamic: dict[str, tuple[str, NDArray[np.float64]]] = {}
        self._mounts: dict[str, NDArray[np.float64]] = {}
        self._warned: set[str] = set()
        self.camera_from_tf = False
        self.counts: dict[str, int] = {}

    # --- TF ------------------------------------------------------------------------------
    def _chain(self, child: str, parent_ok: tuple[str, ...]) -> NDArray[np.float64] | None:
        """``child`` in the first of ``parent_ok`` reached by following static and latest
        dynamic links upwards (at most 16), or ``None``."""
        m = np.eye(4)
        frame = child
        for _ in range(16):
            if frame in parent_ok:
                return m
            link = self._static.get(frame) or self._dynamic.get(frame)
            if link is None:
                return None
            frame, tr = link
            m = tr @ m
        return None

    def _static_in_body(self, frame: str) -> NDArray[np.float64] | None:
        """``frame`` in the body frame by static transforms only (identity for the body)."""
        m = np.eye(4)
        for _ in range(16):
            if frame == self.config.body_frame:
                return m
            link = self._static.get(frame)
            if link is None:
                return None
            frame, tr = link
            m = tr @ m
        return None

    def _on_tf(self, msg: Any, *, static: bool) -> None:
        body = self.config.body_frame
        for ts in msg.transforms:
            child = str(ts.child_frame_id).lstrip("/")
            parent = str(ts.header.frame_id).lstrip("/")
            (self._static if static else self._dynamic)[child] = (parent, _matrix(ts.transform))
            if static:
                self._mounts.clear()
                cam = self._static_in_body(self.config.camera_frame)
                if cam is not None:
                    rpy = mat2euler(cam[:3, :3], axes="sxyz")
                    self.builder.set_camera_extrinsics(tuple(cam[:3, 3]), rpy)  # type: ignore[arg-type]
                    self.camera_from_tf = True
            elif self._source in (None, "tf") and self._reaches_body(child):
                m = self._chain(body, self.config.world_frames)
                if m is not None:
                    self._source = "tf"
                    self.builder.add_odometry(stamp_s(ts), _pose(m))

    def _reaches_body(self, child: str) -> bool:
        """Whether the link just updated is on the chain from the body upwards."""
        frame = self.config.body_frame
        for _ in range(16):
            if frame == child:
                return True
            link = self._static.get(frame) or self._dynamic.get(frame)
            if link is None:
                return False
            frame = link[0]
        return False

    # --- messages ------------------------------------------------------------------------
    def on_message(self, msgtype: str, topic: str, msg: Any) -> None:
        """Feed one message (``msgtype`` its ROS type name, e.g. ``sensor_msgs/msg/Image``).

        Raises:
            MappingError: a message the builder cannot use (an unsupported encoding or
                format, a cloud without float32 x, y, z).
        """
        b, cfg = self.builder, self.config
        self.counts[topic] = self.counts.get(topic, 0) + 1
        if msgtype == TF:
            self._on_tf(msg, static=topic.endswith("tf_static"))
        elif msgtype == ODOMETRY and topic in cfg.odometry_topics and self._source != "tf":
            self._source = "odometry"
            b.add_odometry(stamp_s(msg), odometry_pose(msg))
        elif msgtype == CLOUD and topic in cfg.cloud_topics:
            self._on_cloud(msg)
        elif msgtype == IMAGE and topic == "/sim/instance_ids":
            b.add_instance_ids(stamp_s(msg), image_array(msg))
        elif msgtype == IMAGE and topic in cfg.image_topics:
            b.add_image(stamp_s(msg), image_array(msg))
        elif msgtype == COMPRESSED and topic in cfg.image_topics:
            b.add_image(stamp_s(msg), compressed_image_array(msg))
        elif msgtype == STRING and topic == "/sim/instance_labels":
            b.add_labels(list(json.loads(msg.data)["labels"]))

    def _on_cloud(self, msg: Any) -> None:
        frame = str(msg.header.frame_id).lstrip("/")
        pts = pointcloud2_xyz(msg)
        if frame in self.config.world_frames:
            self.builder.add_scan(stamp_s(msg), pts)
            return
        mount = self._mounts.get(frame)
        if mount is None:
            found = self._static_in_body(frame)
            if found is None:
                if frame not in self._warned:
                    self._warned.add(frame)
                found = np.eye(4)  # no /tf_static for it: the lidar is the body frame
            mount = self._mounts[frame] = found
        body = pts.astype(np.float64) @ mount[:3, :3].T + mount[:3, 3]
        self.builder.add_body_scan(stamp_s(msg), body)

    @property
    def poses_from_tf(self) -> bool:
        """Whether the body poses come from /tf (not decided yet: ``False``)."""
        return self._source == "tf"

    @property
    def unmounted_frames(self) -> tuple[str, ...]:
        """Cloud frames with no static transform to the body (taken as the body frame)."""
        return tuple(sorted(self._warned))
