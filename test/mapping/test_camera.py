"""The camera model: extrinsics by hand, projection inverts the renderer's pixel rays."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.mapping.camera import EquirectCamera, Pose
from map2route.mapping.errors import MappingError


def test_camera_axes_match_the_mecanum_extrinsics() -> None:
    cam = EquirectCamera(width=64, crop_rows=32)
    # camera z = body x (forward), camera x = -body y (right), camera y = -body z (down)
    np.testing.assert_allclose(cam.r_c2b, [[0, 0, 1], [-1, 0, 0], [0, -1, 0]], atol=1e-12)


def test_point_straight_ahead_projects_to_the_image_centre() -> None:
    cam = EquirectCamera(width=64, crop_rows=32)
    pose = Pose.planar(1.0, 2.0, 0.5, math.pi / 2)  # facing +y
    cam_w = pose.rotation @ np.asarray(cam.xyz) + np.asarray(pose.position)
    u, v, d = cam.project(np.asarray([cam_w + [0.0, 3.0, 0.0]]), pose)
    assert u[0] == pytest.approx(32.0)
    assert v[0] == pytest.approx(16.0)
    assert d[0] == pytest.approx(3.0)


def test_projection_inverts_pixel_rays() -> None:
    cam = EquirectCamera(width=96, crop_rows=32)
    pose = Pose.planar(0.3, -0.2, 0.45, 0.7)
    origin, dirs = cam.pixel_rays(pose)
    pts = origin + 2.5 * dirs.reshape(-1, 3)
    u, v, _ = cam.project(pts, pose)
    rows, cols = np.indices(cam.shape)
    np.testing.assert_allclose(u, cols.ravel() + 0.5, atol=1e-6)
    np.testing.assert_allclose(v, rows.ravel() + 0.5, atol=1e-6)


def test_bad_crop_is_rejected() -> None:
    with pytest.raises(MappingError, match="crop_rows"):
        EquirectCamera(width=64, crop_rows=40)
