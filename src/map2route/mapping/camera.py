"""The Theta Z1 camera model: world -> body -> camera -> equirectangular pixel, and back.

Frames (paper 000 V-A; the facts of SysNav's public code):

- world/map: REP-103, z up.  body: the robot (x forward, y left, z up), posed by
  ``/state_estimation``; ``p_b = R_w2b (p_w - t)`` with ``R_w2b`` the inverse of the body's
  orientation and ``t`` its position.
- camera: x right, y down, z forward, mounted on the Mecanum base at
  x -0.12, y -0.075, z 0.265 m with roll -pi/2, pitch 0, yaw -pi/2 (static xyz Euler angles,
  :func:`transforms3d.euler.euler2mat`), so camera z = body x, camera x = -body y.
- equirectangular pixel of a camera point ``(x, y, z)`` on a ``W x H`` panorama (``H = W/2``)::

      u = W / (2 pi) * atan2(x, z) + W / 2
      v = W / (2 pi) * atan(y / sqrt(x^2 + z^2)) + H / 2

  The Theta's panorama is cropped to the middle ``crop_rows`` rows (1920x960 -> 1920x640 =
  120 deg vertical in SysNav); ``v`` in the crop is ``v - (H - crop_rows) / 2``.

The simulator renders its panoramas through :meth:`EquirectCamera.pixel_rays`, the exact
inverse of :meth:`EquirectCamera.project`, so what is rendered and what is fused agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from transforms3d.euler import euler2mat
from transforms3d.quaternions import quat2mat

from map2route.mapping.errors import MappingError

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Mecanum-platform camera extrinsics (body frame): translation in metres, roll/pitch/yaw in rad.
MECANUM_CAMERA_XYZ = (-0.12, -0.075, 0.265)
MECANUM_CAMERA_RPY = (-math.pi / 2, 0.0, -math.pi / 2)


@dataclass(frozen=True)
class Pose:
    """A body pose in the map frame: position ``(x, y, z)`` and a quaternion ``(w, x, y, z)``."""

    position: tuple[float, float, float]
    quaternion: tuple[float, float, float, float]

    @property
    def rotation(self) -> NDArray[np.float64]:
        """``R_b2w``: body axes expressed in the world frame (3x3)."""
        return np.asarray(quat2mat(self.quaternion), dtype=np.float64)

    @property
    def yaw(self) -> float:
        w, x, y, z = self.quaternion
        return math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))

    @classmethod
    def planar(cls, x: float, y: float, z: float, yaw: float) -> Pose:
        """A pose with only a heading (the Mecanum base drives on a flat floor)."""
        return cls((x, y, z), (math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)))


def interpolate_pose(a: Pose, b: Pose, w: float) -> Pose:
    """The pose a fraction ``w`` of the way from ``a`` to ``b``: position linear, rotation by
    normalised linear quaternion blend (nlerp; between odometry samples the turn is small, so it
    matches slerp to well under a milli-radian and needs no trigonometry)."""
    pos = tuple(float(p + w * (q - p)) for p, q in zip(a.position, b.position, strict=True))
    qa, qb = np.asarray(a.quaternion), np.asarray(b.quaternion)
    if float(np.dot(qa, qb)) < 0:
        qb = -qb  # the shorter way round
    q = (1 - w) * qa + w * qb
    q /= np.linalg.norm(q)
    return Pose(pos, (float(q[0]), float(q[1]), float(q[2]), float(q[3])))  # type: ignore[arg-type]


def world_to_body(points_w: NDArray[np.floating], pose: Pose) -> NDArray[np.float64]:
    """``p_b = R_w2b (p_w - t)`` for ``(N, 3)`` points."""
    r_w2b = pose.rotation.T
    return (np.asarray(points_w, dtype=np.float64) - np.asarray(pose.position)) @ r_w2b.T


@dataclass(frozen=True)
class EquirectCamera:
    """An equirectangular panorama camera with its body extrinsics and vertical crop.

    Args:
        width: panorama width ``W`` in pixels (1920 on the Theta Z1).
        crop_rows: rows kept around the horizon (``W/3`` keeps 120 deg, SysNav's crop).
        xyz: camera position in the body frame (metres).
        rpy: camera roll, pitch, yaw in the body frame (radians, static xyz).
    """

    width: int = 1920
    crop_rows: int = 640
    xyz: tuple[float, float, float] = MECANUM_CAMERA_XYZ
    rpy: tuple[float, float, float] = MECANUM_CAMERA_RPY

    def __post_init__(self) -> None:
        if self.width < 8 or self.width % 2:
            msg = f"panorama width must be an even number >= 8, got {self.width}"
            raise MappingError(msg)
        if not 0 < self.crop_rows <= self.height:
            msg = (f"crop_rows must be in 1..{self.height} for a {self.width}-wide panorama, "
                   f"got {self.crop_rows}")
            raise MappingError(msg)

    @property
    def height(self) -> int:
        """Full panorama height ``H = W / 2``."""
        return self.width // 2

    @property
    def shape(self) -> tuple[int, int]:
        """Shape ``(rows, cols)`` of the cropped image."""
        return (self.crop_rows, self.width)

    @property
    def row_offset(self) -> float:
        return (self.height - self.crop_rows) / 2.0

    @property
    def r_c2b(self) -> NDArray[np.float64]:
        """Camera axes in the body frame (3x3)."""
        return np.asarray(euler2mat(*self.rpy, axes="sxyz"), dtype=np.float64)

    def body_to_camera(self, points_b: NDArray[np.floating]) -> NDArray[np.float64]:
        """Body-frame ``(N, 3)`` points in the camera frame."""
        return (np.asarray(points_b, dtype=np.float64) - np.asarray(self.xyz)) @ self.r_c2b

    def project(self, points_w: NDArray[np.floating], pose: Pose
                ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """World points -> continuous pixel coordinates in the crop and camera distance.

        Returns:
            ``(u, v, depth)``: column and row (floats; pixel ``(floor(v), floor(u))``), and the
            Euclidean distance from the camera centre. Rows outside the crop fall outside
            ``[0, crop_rows)``.
        """
        # One affine map: p_c = (p_w - t - R_b2w xyz) R_b2w R_c2b (world_to_body, then
        # body_to_camera, folded together).
        r_b2w = pose.rotation
        origin = np.asarray(pose.position) + r_b2w @ np.asarray(self.xyz)
        pc = (np.asarray(points_w, dtype=np.float64) - origin) @ (r_b2w @ self.r_c2b)
        x, y, z = pc[:, 0], pc[:, 1], pc[:, 2]
        k = self.width / (2.0 * math.pi)
        u = k * np.arctan2(x, z) + self.width / 2.0
        horiz = np.sqrt(x * x + z * z)
        v = k * np.arctan2(y, horiz) + self.height / 2.0 - self.row_offset
        return u, v, np.sqrt(horiz * horiz + y * y)

    def pixel_rays(self, pose: Pose) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """World-frame ray origin ``(3,)`` and unit directions ``(rows, cols, 3)`` of pixel centres.

        The exact inverse of :meth:`project` at pixel centres ``(col + 0.5, row + 0.5)``.
        """
        k = 2.0 * math.pi / self.width
        lon = (np.arange(self.width) + 0.5 - self.width / 2.0) * k
        lat = (np.arange(self.crop_rows) + 0.5 + self.row_offset - self.height / 2.0) * k
        lon_g, lat_g = np.meshgrid(lon, lat)
        dirs_c = np.stack([np.cos(lat_g) * np.sin(lon_g), np.sin(lat_g),
                           np.cos(lat_g) * np.cos(lon_g)], axis=-1)
        r_c2w = pose.rotation @ self.r_c2b
        origin = pose.rotation @ np.asarray(self.xyz) + np.asarray(pose.position)
        return origin, dirs_c @ r_c2w.T
