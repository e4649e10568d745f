"""Transforms, the transform tree, cloud filtering and the sensor watchdog, by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.control.frames import FrameError, Transform, TransformTree
from map2route.control.sensors import (
    ObstacleSources,
    cloud_obstacle_points,
    planar_points_to_base,
)


def test_planar_transform_composes_and_inverts() -> None:
    # odom sits at (1, 2) in map, turned 90 deg; the base at (1, 0) in odom, turned 90 deg.
    map_odom = Transform.planar(1.0, 2.0, math.pi / 2)
    odom_base = Transform.planar(1.0, 0.0, math.pi / 2)
    map_base = map_odom * odom_base
    # (1, 0) in odom is 1 m along odom's x, which points along map +y: (1, 3); heading 180 deg.
    assert map_base.translation == pytest.approx((1.0, 3.0, 0.0))
    assert abs(map_base.yaw) == pytest.approx(math.pi)
    back = map_base.inverse() * map_base
    assert back.translation == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    assert back.yaw == pytest.approx(0.0, abs=1e-12)
    assert map_odom.apply(np.array([[1.0, 0.0, 0.5]]))[0] == pytest.approx([1.0, 3.0, 0.5])


def test_tree_looks_up_through_the_common_ancestor() -> None:
    tree = TransformTree()
    tree.set("map", "odom", Transform.planar(1.0, 0.0, 0.0), 1.0)
    tree.set("odom", "base_link", Transform.planar(2.0, 0.0, math.pi / 2), 1.0)
    tree.set("base_link", "lidar_link", Transform((0.0, 0.0, 0.4)), static=True)
    lidar_in_map = tree.lookup("map", "lidar_link")
    assert lidar_in_map.translation == pytest.approx((3.0, 0.0, 0.4))
    # A point 1 m ahead of the lidar (base faces map +y) is at map (3, 1).
    assert lidar_in_map.apply([[1.0, 0.0, 0.0]])[0] == pytest.approx([3.0, 1.0, 0.4])
    # The other way: the map origin seen from the base.
    assert tree.lookup("base_link", "map").translation == pytest.approx((0.0, 3.0, 0.0))
    assert tree.lookup("lidar_link", "lidar_link").translation == (0.0, 0.0, 0.0)
    # An older message arriving late keeps the newer one.
    tree.set("odom", "base_link", Transform.planar(9.0, 0.0, 0.0), 0.5)
    assert tree.lookup("odom", "base_link").translation[0] == pytest.approx(2.0)


def test_tree_names_what_is_missing() -> None:
    tree = TransformTree()
    tree.set("odom", "base_link", Transform(), 0.0)
    with pytest.raises(FrameError, match="no transform from 'base_link' to 'map'.*reaches 'odom'"):
        tree.lookup("map", "base_link")
    with pytest.raises(FrameError, match="two different frame names"):
        tree.set("a", "a", Transform())


def test_cloud_points_are_cut_to_the_base_height_band() -> None:
    mount = Transform((0.1, 0.0, 0.4))  # lidar 0.4 m up, 0.1 m ahead of the base centre
    pts = np.array([[1.0, 0.0, -0.4],    # the floor (z 0 in the base): not an obstacle
                    [1.0, 0.5, -0.2],    # a box 0.2 m tall: an obstacle
                    [2.0, 0.0, 0.9],     # 1.3 m up: passes over the base
                    [np.nan, 0.0, 0.0]])
    out = cloud_obstacle_points(pts, mount, z_min=0.05, z_max=1.0)
    assert out.shape == (1, 2) and out[0] == pytest.approx([1.1, 0.5])
    turned = Transform.planar(0.0, 0.0, math.pi / 2)
    assert planar_points_to_base([[1.0, 0.0]], turned)[0] == pytest.approx([0.0, 1.0])


def test_watchdog_reports_blind_when_every_source_is_stale() -> None:
    sources = ObstacleSources(timeout=1.0)
    assert sources.points(0.0) is None
    assert "nothing received on /scan" in sources.blind_reason(0.0, ["/scan"])
    sources.update("/scan", 10.0, np.array([[1.0, 0.0]]))
    assert sources.points(10.9) is not None and len(sources.points(10.9)) == 1
    sources.update("/points", 10.5, np.array([[2.0, 0.0], [3.0, 0.0]]))
    assert len(sources.points(11.2)) == 2  # the scan is stale, the cloud is fresh
    assert sources.points(11.6) is None
    reason = sources.blind_reason(11.6, ["/scan", "/points"])
    assert "/scan is 1.60 s old" in reason and "stopped rather than drive blind" in reason
    assert ObstacleSources(timeout=0.0).points(5.0) is not None  # the check turned off
