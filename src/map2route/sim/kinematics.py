"""Mecanum base kinematics: body twist <-> wheel speeds, and exact pose integration.

A Mecanum base with wheels at ``(+-lx, +-ly)`` from its centre and rollers at 45 degrees has
the inverse kinematics (wheel order front-left, front-right, rear-left, rear-right; Lynch &
Park, *Modern Robotics*, eq. 13.10)::

    w_fl = (vx - vy - (lx + ly) wz) / r        w_fr = (vx + vy + (lx + ly) wz) / r
    w_rl = (vx + vy - (lx + ly) wz) / r        w_rr = (vx - vy + (lx + ly) wz) / r

A commanded twist whose wheel speeds exceed the motors' limit is scaled down as a whole, so
the direction of travel is kept. The pose is integrated exactly for a constant twist over a
step (the arc of a holonomic base), not by Euler steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from map2route.sim.errors import SimError


@dataclass(frozen=True)
class Pose2D:
    """A planar pose in the map frame: metres and radians."""

    x: float
    y: float
    yaw: float


@dataclass(frozen=True)
class Twist2D:
    """A body-frame twist: ``vx`` forward, ``vy`` left (m/s), ``wz`` counter-clockwise (rad/s)."""

    vx: float = 0.0
    vy: float = 0.0
    wz: float = 0.0


@dataclass(frozen=True)
class MecanumBase:
    """Geometry and limits of the base.

    Attributes:
        half_length: lx, centre to wheel axle along x (m).
        half_width: ly, centre to wheel along y (m).
        wheel_radius: r (m).
        max_wheel_speed: motor limit (rad/s).
    """

    half_length: float
    half_width: float
    wheel_radius: float
    max_wheel_speed: float

    def __post_init__(self) -> None:
        for name in ("half_length", "half_width", "wheel_radius", "max_wheel_speed"):
            if not getattr(self, name) > 0:
                raise SimError(f"MecanumBase.{name} must be positive, got {getattr(self, name)}")

    def wheel_speeds(self, t: Twist2D) -> np.ndarray:
        """Wheel angular speeds ``[fl, fr, rl, rr]`` (rad/s) for body twist ``t``."""
        k = self.half_length + self.half_width
        return np.array([t.vx - t.vy - k * t.wz, t.vx + t.vy + k * t.wz,
                         t.vx + t.vy - k * t.wz, t.vx - t.vy + k * t.wz]) / self.wheel_radius

    def twist_from_wheels(self, w: np.ndarray) -> Twist2D:
        """Forward kinematics: the body twist produced by wheel speeds ``[fl, fr, rl, rr]``."""
        fl, fr, rl, rr = (float(v) * self.wheel_radius for v in w)
        k = self.half_length + self.half_width
        return Twist2D(vx=(fl + fr + rl + rr) / 4.0, vy=(-fl + fr + rl - rr) / 4.0,
                       wz=(-fl + fr - rl + rr) / (4.0 * k))

    def saturate(self, t: Twist2D) -> Twist2D:
        """``t`` scaled down uniformly so no wheel exceeds ``max_wheel_speed``."""
        peak = float(np.max(np.abs(self.wheel_speeds(t))))
        if peak <= self.max_wheel_speed:
            return t
        s = self.max_wheel_speed / peak
        return Twist2D(t.vx * s, t.vy * s, t.wz * s)


def integrate(pose: Pose2D, t: Twist2D, dt: float) -> Pose2D:
    """The pose after holding body twist ``t`` for ``dt`` seconds (exact for constant ``t``).

    In the world frame the velocity ``R(yaw) [vx, vy]`` rotates at ``wz``; integrating gives
    ``dp = V(wz dt) R(yaw) [vx, vy] dt`` with ``V(a) = [[sin a / a, -(1 - cos a) / a],
    [(1 - cos a) / a, sin a / a]]`` (identity as ``a -> 0``).
    """
    if dt < 0:
        raise SimError(f"time step must be >= 0, got {dt}")
    a = t.wz * dt
    if abs(a) < 1e-9:
        s, c = 1.0, 0.0
    else:
        s, c = math.sin(a) / a, (1.0 - math.cos(a)) / a
    bx = (s * t.vx - c * t.vy) * dt
    by = (c * t.vx + s * t.vy) * dt
    cy, sy = math.cos(pose.yaw), math.sin(pose.yaw)
    yaw = math.atan2(math.sin(pose.yaw + a), math.cos(pose.yaw + a))
    return Pose2D(pose.x + cy * bx - sy * by, pose.y + sy * bx + cy * by, yaw)
