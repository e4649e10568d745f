"""Haversine, bearing and relative directions against hand-computed values."""

from __future__ import annotations

import math

import pytest

from map2route.streets.geo import (
    bearing_deg,
    haversine_m,
    heading_delta,
    project_xy,
    relative_direction,
)


def test_haversine_one_degree_of_latitude() -> None:
    assert haversine_m(0.0, 0.0, 1.0, 0.0) == pytest.approx(6_371_000 * math.pi / 180, rel=1e-9)


def test_haversine_along_a_parallel_shrinks_with_cos_latitude() -> None:
    d = haversine_m(60.0, 0.0, 60.0, 0.001)
    assert d == pytest.approx(6_371_000 * math.radians(0.001) * 0.5, rel=1e-4)


@pytest.mark.parametrize(("lat2", "lng2", "expected"), [(1, 0, 0), (0, 1, 90), (-1, 0, 180),
                                                        (0, -1, 270)],
                         ids=["north", "east", "south", "west"])
def test_bearing_cardinal_directions(lat2: float, lng2: float, expected: float) -> None:
    assert bearing_deg(0.0, 0.0, lat2, lng2) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("target", "current", "delta", "word"),
                         [(10, 350, 20, "Forward"), (90, 0, 90, "Right"), (270, 0, -90, "Left"),
                          (180, 0, -180, "Back"), (46, 0, 46, "Right"), (-45, 0, -45, "Forward")],
                         ids=["wrap", "right", "left", "back", "just-right", "edge-forward"])
def test_heading_delta_and_direction(target: float, current: float, delta: float,
                                     word: str) -> None:
    assert heading_delta(target, current) == pytest.approx(delta)
    assert relative_direction(heading_delta(target, current)) == word


def test_projection_matches_haversine_at_city_scale() -> None:
    import numpy as np

    xy = project_xy(np.array([40.0, 40.001]), np.array([-73.0, -72.999]), lat0=40.0, lng0=-73.0)
    assert float(np.hypot(*(xy[1] - xy[0]))) == pytest.approx(
        haversine_m(40.0, -73.0, 40.001, -72.999), rel=1e-3)
