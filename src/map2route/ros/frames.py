"""TF and sensor messages for the nodes: ``/tf`` + ``/tf_static`` into a transform tree,
PointCloud2 decoding, and the QoS profiles of sensor and TF topics.

``tf2_ros`` is not on PyPI, so :class:`TfListener` fills a
:class:`map2route.control.frames.TransformTree` from the same topics and message type
(``tf2_msgs/TFMessage``; built from its Jazzy definition by ``scripts/build_interfaces.sh``
when ROS is not installed) with the QoS tf2 uses, so it hears a real robot's tf2 broadcasters
and they hear us. ``sensor_msgs_py`` (the usual PointCloud2 reader) is not on PyPI either;
:func:`cloud_xyz` reads the x, y, z fields by their declared offsets and types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from geometry_msgs.msg import TransformStamped
from rclpy.qos import (
    DurabilityPolicy,
    HistoryPolicy,
    QoSProfile,
    ReliabilityPolicy,
    qos_profile_sensor_data,
)
from sensor_msgs.msg import PointCloud2, PointField
from tf2_msgs.msg import TFMessage

from map2route.control.frames import FrameError, Transform, TransformTree

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from rclpy.node import Node

#: Sensor inputs: BEST_EFFORT, as LiDAR/camera drivers publish (a RELIABLE subscription
#: hears nothing from them). A BEST_EFFORT subscription also hears RELIABLE publishers.
SENSOR_QOS = qos_profile_sensor_data
#: What tf2's broadcasters and listeners use for /tf and /tf_static.
TF_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST)
TF_STATIC_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL,
                           history=HistoryPolicy.KEEP_LAST)

_DTYPES = {PointField.INT8: "i1", PointField.UINT8: "u1", PointField.INT16: "i2",
           PointField.UINT16: "u2", PointField.INT32: "i4", PointField.UINT32: "u4",
           PointField.FLOAT32: "f4", PointField.FLOAT64: "f8"}


def stamp_seconds(stamp: Any) -> float:
    return float(stamp.sec) + float(stamp.nanosec) * 1e-9


def transform_from_msg(msg: Any) -> Transform:
    """A ``geometry_msgs/Transform`` as a :class:`Transform`."""
    t, q = msg.translation, msg.rotation
    return Transform((t.x, t.y, t.z), (q.w, q.x, q.y, q.z))


def pose_transform(pose: Any) -> Transform:
    """A ``geometry_msgs/Pose`` as the transform of the posed frame in its parent."""
    p, q = pose.position, pose.orientation
    return Transform((p.x, p.y, p.z), (q.w, q.x, q.y, q.z))


def transform_msg(parent: str, child: str, tf: Transform, stamp: Any) -> TransformStamped:
    """A ``geometry_msgs/TransformStamped`` of ``child`` in ``parent``."""
    out = TransformStamped()
    out.header.frame_id, out.header.stamp, out.child_frame_id = parent, stamp, child
    out.transform.translation.x, out.transform.translation.y, out.transform.translation.z = \
        tf.translation
    r = out.transform.rotation
    r.w, r.x, r.y, r.z = tf.rotation
    return out


def cloud_xyz(msg: PointCloud2) -> NDArray[np.float64]:
    """``(N, 3)`` x, y, z of every point of a PointCloud2 (any layout, either byte order).

    Raises:
        FrameError: the cloud has no x, y or z field, or its sizes do not add up.
    """
    fields = {f.name: f for f in msg.fields}
    missing = [n for n in "xyz" if n not in fields]
    if missing:
        raise FrameError(f"a PointCloud2 without field(s) {missing}: has {sorted(fields)}")
    n = int(msg.width) * int(msg.height)
    if n == 0:
        return np.zeros((0, 3))
    step = int(msg.point_step)
    data = bytes(msg.data)
    if step <= 0 or len(data) < n * step and msg.height <= 1:
        raise FrameError(f"a PointCloud2 of {n} points of {step} bytes has {len(data)} bytes")
    order = ">" if msg.is_bigendian else "<"
    names, formats, offsets = [], [], []
    for name in "xyz":
        f = fields[name]
        if f.datatype not in _DTYPES:
            raise FrameError(f"PointCloud2 field {name!r} has unknown datatype {f.datatype}")
        names.append(name)
        formats.append(order + _DTYPES[f.datatype])
        offsets.append(int(f.offset))
    dtype = np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": step})
    rows = []
    for row in range(int(msg.height)):
        start = row * int(msg.row_step)
        rows.append(np.frombuffer(data, dtype=dtype, count=int(msg.width), offset=start))
    arr = np.concatenate(rows) if len(rows) > 1 else rows[0]
    return np.column_stack([arr["x"], arr["y"], arr["z"]]).astype(np.float64)


class TfListener:
    """Keeps a :class:`TransformTree` of what ``/tf`` and ``/tf_static`` say."""

    def __init__(self, node: Node, **sub_kwargs: Any) -> None:

        self.tree = TransformTree()
        node.create_subscription(TFMessage, "/tf", self._on_tf, TF_QOS, **sub_kwargs)
        node.create_subscription(TFMessage, "/tf_static", self._on_static, TF_STATIC_QOS,
                                 **sub_kwargs)
        self._logger = node.get_logger()

    def _add(self, msg: Any, static: bool) -> None:
        for t in msg.transforms:
            try:
                self.tree.set(t.header.frame_id, t.child_frame_id,
                              transform_from_msg(t.transform), stamp_seconds(t.header.stamp),
                              static=static)
            except FrameError as err:
                self._logger.warn(f"ignoring a transform: {err}", throttle_duration_sec=5.0)

    def _on_tf(self, msg: Any) -> None:
        self._add(msg, False)

    def _on_static(self, msg: Any) -> None:
        self._add(msg, True)

    def lookup(self, target: str, source: str) -> Transform:
        """See :meth:`TransformTree.lookup`."""
        return self.tree.lookup(target, source)

    def odom_pose(self, frame: str, msg: Any) -> tuple[float, float, float]:
        """An ``Odometry`` message's pose in ``frame``: its pose (in its header's frame,
        usually ``odom``) through ``frame -> odom``; an empty header frame is taken as ``frame``.

        Raises:
            FrameError: the tree does not connect the two frames (yet).
        """
        source = msg.header.frame_id or frame
        pose = self.tree.lookup(frame, source) * pose_transform(msg.pose.pose)
        return pose.translation[0], pose.translation[1], pose.yaw
