"""The renderer writes a sane PNG, with and without a route and regions."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from map2route.render import RenderError, render_scene
from map2route.render.scene import _scale_bar_length


@dataclass
class _Route:
    points: np.ndarray
    stage_index: np.ndarray


def _read(path):
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert img is not None
    return img


def test_plain_render_is_a_real_image(two_room_map, tmp_path):
    out = render_scene(two_room_map, tmp_path / "sub" / "map.png", dpi=60)
    assert out == tmp_path / "sub" / "map.png"
    img = _read(out)
    h, w, _ = img.shape
    assert w > 300 and h > 200
    assert img.std() > 20
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 50
    assert not list(out.parent.glob(".*"))  # no temporary file left behind


def test_route_and_regions_change_the_picture(two_room_map, tmp_path):
    plain = _read(render_scene(two_room_map, tmp_path / "a.png", dpi=60))
    route = _Route(points=np.array([[0.8, 2.0], [2.0, 2.0], [3.0, 2.0], [4.0, 3.0], [5.0, 3.0]]),
                   stage_index=np.array([0, 0, 0, 1, 1]))
    goal = two_room_map.goal_region_mask(two_room_map.get_object("fridge_0"))
    drawn = _read(render_scene(two_room_map, tmp_path / "b.png", route=route,
                               regions=[("near the fridge", goal)], title="route", dpi=60))
    assert drawn.shape == plain.shape
    assert (np.abs(drawn.astype(int) - plain.astype(int)).sum(axis=2) > 60).sum() > 500


def test_route_with_mismatched_stages_is_refused(two_room_map, tmp_path):
    route = _Route(points=np.zeros((3, 2)), stage_index=np.zeros(2, dtype=int))
    with pytest.raises(RenderError, match="3 points but 2 stage indices"):
        render_scene(two_room_map, tmp_path / "x.png", route=route)


@pytest.mark.parametrize(("width", "bar"), [(6.0, 2.0), (15.0, 5.0), (40.0, 10.0), (1.0, 0.2)],
                         ids=["6m", "15m", "40m", "1m"])
def test_scale_bar_is_a_round_fifth(width, bar):
    assert _scale_bar_length(width) == bar
