"""Small objects the lidar hits with a few points per view: lifted below ``min_points``
and kept below ``min_voxels`` when seen repeatedly (``repeated_*`` in config/mapping.yaml)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from map2route.mapping.builder import BuildConfig
from map2route.mapping.camera import EquirectCamera, Pose
from map2route.mapping.detectors import Detection
from map2route.mapping.fusion import (
    InstanceMap,
    Observation,
    observe_view,
)
from map2route.mapping.instances import kept, small_categories
from map2route.mapping.voxels import encode

ON = {"repeated_min_points": 3, "repeated_min_observations": 4, "repeated_min_voxels": 6,
      "repeated_max_size_m": 0.5}


def test_kept_by_hand() -> None:
    cfg = replace(BuildConfig.from_yaml().fusion, min_observations=2, min_voxels=15, **ON)
    assert kept(2, 15, cfg) and not kept(2, 14, cfg) and not kept(1, 100, cfg)
    # A small category seen 4 times with 6 voxels is kept; 3 times or 5 voxels is not.
    assert kept(4, 6, cfg, small=True)
    assert not kept(3, 6, cfg, small=True) and not kept(4, 5, cfg, small=True)
    # Not for a large category, and not with the rule off.
    assert not kept(4, 6, cfg, small=False)
    assert not kept(4, 6, replace(cfg, repeated_min_points=0), small=True)


def test_a_detection_with_five_points_is_lifted_only_with_the_rule_on() -> None:
    cam = EquirectCamera(width=240, crop_rows=80)
    pose = Pose.planar(0.0, 0.0, 0.5, 0.0)
    origin, dirs = cam.pixel_rays(pose)
    # Five points 2 m away along five pixels' rays (distinct pixels near the image centre).
    pts = np.stack([origin + 2.0 * dirs[40 + dr, 120 + dc]
                    for dr, dc in ((0, 0), (0, 3), (3, 0), (-3, 0), (0, -3))])
    mask = np.zeros(cam.shape, dtype=bool)
    mask[30:50, 110:130] = True
    det = [Detection(mask=mask, label="wine_bottle")]
    base = replace(BuildConfig.from_yaml().fusion, min_points=8, repeated_min_points=0)
    obs, _ = observe_view(cam, pose, pts, det, 0.0, ground_z=-1.0, config=base)
    assert obs == []
    on = replace(base, **ON)
    # Only for a small category (small_categories: the size prior's long side <= 0.5 m).
    obs, _ = observe_view(cam, pose, pts, det, 0.0, ground_z=-1.0, config=on)
    assert obs == []
    obs, _ = observe_view(cam, pose, pts, det, 0.0, ground_z=-1.0, config=on,
                          small=frozenset({"wine_bottle"}))
    assert len(obs) == 1 and len(obs[0].keys) == len(np.unique(encode(pts, base.voxel_m)))


def test_final_keeps_a_small_category_seen_often_with_few_voxels() -> None:
    from map2route.mapping.objects import size_prior

    prior = size_prior(0.9)
    if "wine_bottle" not in prior or "bed" not in prior:
        pytest.skip("no procthor asset prior")
    cfg = replace(BuildConfig.from_yaml().fusion, **ON)
    # 8 voxels of a 6 cm bottle, 2 of them per view, seen 4 times.
    col = np.array([[0.015 + 0.03 * (k % 2), 0.015, 0.5 + 0.03 * (k // 2)] for k in range(8)])
    keys = np.unique(encode(col, cfg.voxel_m))
    assert "wine_bottle" in small_categories(cfg) and "bed" not in small_categories(cfg)
    assert small_categories(replace(cfg, repeated_min_points=0)) == frozenset()
    for label, expect in (("wine_bottle", 1), ("bed", 0)):
        imap = InstanceMap(cfg)
        for t in range(4):
            imap.add(Observation(label=label, score=1.0, keys=keys[2 * t: 2 * t + 2], t=float(t)))
        assert len(imap.instances) == 1
        assert len(imap.final()) == expect
