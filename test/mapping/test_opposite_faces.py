"""Two same-class objects on the two faces of one wall (paintings hung back to back) stay two
instances; one object seen from front and back stays one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from map2route.mapping.builder import BuildConfig
from map2route.mapping.fusion import InstanceMap, Observation, opposite_faces
from map2route.mapping.voxels import encode


def _plane(x: float, label: str, viewer_x: float, t: float) -> Observation:
    """A 0.6 x 0.6 m vertical plate at ``x`` (y 0..0.6, z 1.2..1.8) seen from (viewer_x, 0.3)."""
    yy, zz = np.meshgrid(np.arange(0.0, 0.6, 0.03), np.arange(1.2, 1.8, 0.03))
    pts = np.stack([np.full(yy.size, x), yy.ravel(), zz.ravel()], axis=1)
    return Observation(label=label, score=1.0, keys=np.unique(encode(pts, 0.03)), t=t,
                       viewpoint=np.array([viewer_x, 0.3, 0.7]))


def test_opposite_faces_by_hand() -> None:
    west, east = np.array([-1.0, 0.0]), np.array([1.0, 0.0])
    # Faces 0.15 m apart, each seen from its own side: two objects if thinner than 0.15 m.
    assert opposite_faces(np.array([-0.075, 0.3, 1.5]), 3 * west, 3,
                          np.array([0.075, 0.3, 1.5]), 2 * east, 2, thickness_m=0.06)
    # ... one object when the class can be 0.5 m thick (a dresser seen from front and back).
    assert not opposite_faces(np.array([-0.075, 0.3, 1.5]), 3 * west, 3,
                              np.array([0.075, 0.3, 1.5]), 2 * east, 2, thickness_m=0.5)
    # Seen from the same side (two paintings side by side, or one seen twice): never.
    assert not opposite_faces(np.array([-0.075, 0.3, 1.5]), 3 * west, 3,
                              np.array([0.075, 0.3, 1.5]), 2 * west, 2, thickness_m=0.06)
    # Each must lie on its viewers' side of the other (a face seen from behind the other is not).
    assert not opposite_faces(np.array([0.075, 0.3, 1.5]), 3 * west, 3,
                              np.array([-0.075, 0.3, 1.5]), 2 * east, 2, thickness_m=0.06)


def test_back_to_back_paintings_stay_two_instances() -> None:
    cfg = BuildConfig.from_yaml().fusion
    imap = InstanceMap(cfg)
    if "painting" not in imap._thickness:  # no procthor package: no size prior, rule off
        return
    for k in range(3):  # painting A on the west face of a wall at x = 0, seen from the west
        imap.add_frame([_plane(-0.06, "painting", -2.0, float(k))], None)
    for k in range(3):  # painting B on its east face, seen from the east
        imap.add_frame([_plane(0.09, "painting", 2.0, 3.0 + k)], None)
    assert len(imap.instances) == 2
    xs = sorted(float(i.centroid[0]) for i in imap.instances.values())
    assert xs[0] < -0.03 and xs[1] > 0.06
    # Off: the centroids are 0.15 m apart (< merge_distance_m), and the two join.
    off = InstanceMap(replace(cfg, opposite_views_apart=False))
    for k in range(3):
        off.add_frame([_plane(-0.06, "painting", -2.0, float(k))], None)
        off.add_frame([_plane(0.09, "painting", 2.0, 3.0 + k)], None)
    assert len(off.instances) == 1


def test_one_painting_seen_twice_from_its_room_is_one_instance() -> None:
    imap = InstanceMap(BuildConfig.from_yaml().fusion)
    imap.add_frame([_plane(-0.06, "painting", -2.0, 0.0)], None)
    imap.add_frame([_plane(-0.06, "painting", -1.5, 1.0)], None)
    assert len(imap.instances) == 1
