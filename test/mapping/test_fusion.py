"""Fusion pieces computed by hand: depth-jump cut, merge test, voxel keys, occlusion."""

from __future__ import annotations

import numpy as np

from map2route.mapping.builder import BuildConfig
from map2route.mapping.camera import EquirectCamera, Pose
from map2route.mapping.fusion import cut_at_depth_jump, visible_points
from map2route.mapping.instances import box_overlap, should_merge
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


def _box_keys(x0: float, y0: float, size: float = 0.4, height: float = 0.8) -> np.ndarray:
    g = np.arange(0.015, size, 0.03)
    z = np.arange(0.045, height, 0.03)
    pts = np.array([[x0 + a, y0 + b, c] for a in g for b in g for c in z])
    return np.unique(encode(pts, 0.03))


def test_an_instance_of_two_separated_chairs_is_split_in_final() -> None:
    from dataclasses import replace

    from map2route.mapping.fusion import InstanceMap, Observation

    # The split is off by default (docs/mapping.md: it fragments tables seen between chairs).
    cfg = replace(BuildConfig.from_yaml().fusion, split_gap_m=0.075)
    # Two 0.4 m chairs 0.12 m apart (a mask that held both): one instance until final().
    both = np.union1d(_box_keys(0.0, 0.0), _box_keys(0.52, 0.0))
    imap = InstanceMap(cfg)
    for t in range(3):
        imap.add(Observation(label="chair", score=1.0, keys=both, t=float(t)))
    assert len(imap.instances) == 1
    parts = imap.final()
    assert len(parts) == 2
    xs = sorted(round(float(p.centroid[0]), 2) for p in parts)
    assert abs(xs[0] - 0.2) < 0.03 and abs(xs[1] - 0.72) < 0.03
    # One chair whose voxels touch stays one instance.
    imap = InstanceMap(cfg)
    for t in range(3):
        imap.add(Observation(label="chair", score=1.0, keys=_box_keys(0.0, 0.0), t=float(t)))
    assert len(imap.final()) == 1


def test_two_detections_of_one_panorama_never_share_an_instance() -> None:
    from map2route.mapping.fusion import InstanceMap, Observation

    cfg = BuildConfig.from_yaml().fusion
    a, b = _box_keys(0.0, 0.0), _box_keys(0.45, 0.0)
    imap = InstanceMap(cfg)
    # Both detections of one panorama pass the merge test with each other (centroids 0.45 m
    # apart, half the mean half-extent is small, but a first view of a merged pair is there).
    imap.add(Observation(label="chair", score=1.0, keys=np.union1d(a, b), t=0.0))
    out = imap.add_frame([Observation(label="chair", score=1.0, keys=a, t=1.0),
                          Observation(label="chair", score=1.0, keys=b, t=1.0)], None)
    assert out[0].uid != out[1].uid
    # ... and later views that would merge them (a box overlapping both) do not.
    for t in range(2, 5):
        imap.add_frame([Observation(label="chair", score=1.0, keys=np.union1d(a, b), t=float(t))],
                       None)
    assert len(imap.instances) == 2
    # Two detections of one panorama with mostly the same voxels are one object detected twice.
    imap = InstanceMap(cfg)
    out = imap.add_frame([Observation(label="chair", score=1.0, keys=a, t=0.0),
                          Observation(label="chair", score=1.0, keys=a[:-3], t=0.0)], None)
    imap.add_frame([Observation(label="chair", score=1.0, keys=a, t=1.0)], None)
    assert len(imap.instances) == 1


def test_erode_mask_matches_full_erosion_and_spares_thin_masks() -> None:
    import cv2

    from map2route.mapping.fusion import erode_mask

    mask = np.zeros((40, 80), bool)
    mask[5:30, 10:40] = True
    mask[0:12, 70:80] = True  # touches the image border
    mask[20:35, 50:57] = True  # a bottle: 7 px wide
    full = cv2.erode(mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    np.testing.assert_array_equal(erode_mask(mask, 2), full)
    thin = np.zeros_like(mask)
    thin[20:35, 50:57] = True
    # A 2 px rim leaves 3 of 7 columns (< 50 %); a 1 px rim leaves 5 (>= 50 %).
    assert erode_mask(thin, 2).sum() == 3 * 11
    assert erode_mask(thin, 2, keep=0.5).sum() == 5 * 13
