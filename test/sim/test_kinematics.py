"""Mecanum kinematics and exact integration, checked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.sim.errors import SimError
from map2route.sim.kinematics import MecanumBase, Pose2D, Twist2D, integrate

BASE = MecanumBase(half_length=0.2, half_width=0.2, wheel_radius=0.05, max_wheel_speed=20.0)


@pytest.mark.parametrize("t", [Twist2D(0.5, 0, 0), Twist2D(0, 0.5, 0), Twist2D(0, 0, 1.0),
                               Twist2D(0.3, -0.2, 0.7)], ids=["forward", "left", "spin", "mixed"])
def test_forward_kinematics_inverts_inverse(t: Twist2D) -> None:
    back = BASE.twist_from_wheels(BASE.wheel_speeds(t))
    assert (back.vx, back.vy, back.wz) == pytest.approx((t.vx, t.vy, t.wz))


def test_wheel_speeds_by_hand() -> None:
    # Pure sideways motion: front-left and rear-right turn backwards (rollers at 45 degrees).
    w = BASE.wheel_speeds(Twist2D(0.0, 0.5, 0.0))
    assert w == pytest.approx([-10.0, 10.0, 10.0, -10.0])


def test_saturation_keeps_direction() -> None:
    t = BASE.saturate(Twist2D(2.0, 1.0, 0.0))  # 3 m/s on a wheel: 60 rad/s > 20
    assert float(np.max(np.abs(BASE.wheel_speeds(t)))) == pytest.approx(20.0)
    assert t.vy / t.vx == pytest.approx(0.5)


def test_integrate_straight_and_arc() -> None:
    p = integrate(Pose2D(1.0, 2.0, math.pi / 2), Twist2D(1.0, 0.0, 0.0), 2.0)
    assert (p.x, p.y, p.yaw) == pytest.approx((1.0, 4.0, math.pi / 2))
    # Quarter circle of radius 1: v = 1, w = 1 for pi/2 s from the origin facing +x.
    q = integrate(Pose2D(0.0, 0.0, 0.0), Twist2D(1.0, 0.0, 1.0), math.pi / 2)
    assert (q.x, q.y, q.yaw) == pytest.approx((1.0, 1.0, math.pi / 2))
    # Sideways while facing +y moves along -x.
    s = integrate(Pose2D(0.0, 0.0, math.pi / 2), Twist2D(0.0, 1.0, 0.0), 1.0)
    assert (s.x, s.y) == pytest.approx((-1.0, 0.0), abs=1e-12)


def test_bad_inputs_are_named() -> None:
    with pytest.raises(SimError, match="wheel_radius"):
        MecanumBase(0.2, 0.2, 0.0, 10.0)
    with pytest.raises(SimError, match="time step"):
        integrate(Pose2D(0, 0, 0), Twist2D(), -0.1)
