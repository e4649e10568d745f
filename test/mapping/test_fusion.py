"""Fusion pieces computed by hand: depth-jump cut, merge test, voxel keys, occlusion."""

from __future__ import annotations

import numpy as np

from map2route.mapping.builder import BuildConfig
from map2route.mapping.camera import EquirectCamera, Pose
from map2route.mapping.fusion import (
    box_overlap,
    cut_at_depth_jump,
    should_merge,
    visible_points,
)
from map2route.mapping.voxels import VoxelCloud, decode, encode


def test_cut_keeps_points_before_the_first_jump() -> None:
    d = np.array([2.0, 1.0, 1.1, 1.2, 3.0])
    np.testing.assert_array_equal(cut_at_depth_jump(d, 0.3), [False, True, True, True, False])


def test_cut_skips_a_small_front_cluster() -> None:
    d = np.array([0.5] + [2.0 + 0.01 * i for i in range(20)])
    keep = cut_at_depth_jump(d, 0.3, min_fraction=0.1)
    assert not keep[0] and keep[1:].all()


def test_box_overlap_by_hand() -> None:
    iou, contain = box_overlap(np.zeros(3), np.ones(3), np.array([0.5, 0, 0]), np.array([1.5, 1, 1]))
    assert iou == 0.5 / 1.5
    assert contain == 0.5


def test_merge_when_centroids_close_or_contained() -> None:
    cfg = BuildConfig.from_yaml().fusion
    lo, hi = np.zeros(3), np.ones(3) * 0.2
    assert should_merge(np.zeros(3), lo, hi, np.array([0.2, 0, 0]), lo, hi, cfg)
    far_lo = np.array([5.0, 0, 0])
    assert not should_merge(np.zeros(3), lo, hi, far_lo + 0.1, far_lo, far_lo + 0.2, cfg)


def test_voxel_keys_round_trip_and_dedupe() -> None:
    pts = np.array([[0.01, -0.02, 1.0], [0.015, -0.025, 1.005], [-3.0, 2.0, 0.0]])
    keys = encode(pts, 0.03)
    assert keys[0] == keys[1] != keys[2]
    np.testing.assert_allclose(decode(keys[2:], 0.03), [[-2.985, 1.995, 0.015]], atol=1e-9)
    cloud = VoxelCloud(0.03)
    assert cloud.add(pts) == 2 and cloud.add(pts) == 0 and len(cloud.points()) == 2


def test_a_point_behind_a_closer_one_is_occluded() -> None:
    cam = EquirectCamera(width=64, crop_rows=32)
    pose = Pose.planar(0.0, 0.0, 0.5, 0.0)
    origin, dirs = cam.pixel_rays(pose)
    ray = dirs[16, 32]
    pts = np.stack([origin + 1.0 * ray, origin + 3.0 * ray, origin + 1.1 * ray])
    idx, _, _, _ = visible_points(cam, pose, pts, config=BuildConfig.from_yaml().fusion)
    assert sorted(idx.tolist()) == [0, 2]
