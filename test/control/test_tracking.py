"""Moving-obstacle tracking and the velocity-obstacle check, on hand-checkable cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.control.tracking import (
    ObstacleTracker,
    Prediction,
    StaticMap,
    Track,
    clusters,
    disc_of,
    time_to_conflict,
)


def _arc(cx: float, cy: float, r: float, sensor: tuple[float, float], n: int = 15) -> np.ndarray:
    """Points on the half of a circle that faces ``sensor`` (what a scan sees of a person)."""
    facing = math.atan2(sensor[1] - cy, sensor[0] - cx)
    a = facing + np.linspace(-math.pi / 2, math.pi / 2, n)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])


def test_clusters_split_at_the_gap_in_first_point_order() -> None:
    pts = np.array([[5.0, 0.0], [0.0, 0.0], [0.1, 0.0], [5.1, 0.0], [0.2, 0.05]])
    groups = clusters(pts, 0.15)
    assert [len(g) for g in groups] == [2, 3]
    assert groups[0][0].tolist() == [5.0, 0.0]


def test_disc_of_a_lit_half_circle_finds_its_centre() -> None:
    pts = _arc(2.0, 0.0, 0.25, (0.0, 0.0))
    x, y, r = disc_of(pts, (0.0, 0.0))
    assert r == pytest.approx(0.25, abs=0.01)
    # The mean of a lit half circle is 2r/pi in front of the centre; pushed back by that.
    assert math.hypot(x - 2.0, y) < 0.03


def test_a_walking_disc_gets_its_velocity_and_a_standing_one_does_not() -> None:
    tracker = ObstacleTracker()
    sensor = (0.0, 0.0)
    for k in range(10):
        t = 0.1 * k
        walker = _arc(2.0, -1.0 + 1.2 * t, 0.25, sensor)
        box = _arc(-2.0, 0.0, 0.2, sensor)
        tracker.update(t, np.concatenate([walker, box]), sensor)
    moving = tracker.moving()
    assert len(moving) == 1
    tr = moving[0]
    assert (tr.vx, tr.vy) == pytest.approx((0.0, 1.2), abs=0.05)
    assert (tr.x, tr.y) == pytest.approx((2.0, -1.0 + 1.2 * 0.9), abs=0.05)
    assert len(tracker.tracks) == 2


def test_points_on_the_map_are_not_tracked() -> None:
    occupied = np.zeros((40, 40), dtype=bool)
    occupied[:, 20] = True  # a wall at x = 2.0 .. 2.1 (cells of 0.1 m from x = 0)
    tracker = ObstacleTracker()
    tracker.static = StaticMap.from_occupied(occupied, 0.0, 0.0, 0.1)
    wall = np.column_stack([np.full(20, 2.0), np.linspace(0.5, 2.5, 20)])
    person = _arc(1.0, 1.5, 0.25, (0.2, 0.2))
    assert tracker.unmapped(wall).sum() == 0
    assert tracker.unmapped(person).all()
    tracker.update(0.0, np.concatenate([wall, person]), (0.2, 0.2))
    assert len(tracker.tracks) == 1


def test_time_to_conflict_by_hand() -> None:
    # A person 5 m ahead walking at 1 m/s straight at a standing base: contact when the
    # centres are 0.5 + 0.25 apart, after (5 - 0.75) / 1 = 4.25 s.
    f = Prediction(5.0, 0.0, -1.0, 0.0, 0.25, 5.0)
    assert time_to_conflict((0.0, 0.0), (0.0, 0.0), [f], 0.5) == pytest.approx(4.25)
    # Beyond its horizon: no conflict.
    short = Prediction(5.0, 0.0, -1.0, 0.0, 0.25, 3.0)
    assert time_to_conflict((0.0, 0.0), (0.0, 0.0), [short], 0.5) == math.inf
    # The base driving at it at 1 m/s halves the time.
    assert time_to_conflict((0.0, 0.0), (1.0, 0.0), [f], 0.5) == pytest.approx(2.125)
    # Passing 1 m to the side at a closest approach of 1 m: no conflict.
    side = Prediction(5.0, 1.0, -1.0, 0.0, 0.25, 10.0)
    assert time_to_conflict((0.0, 0.0), (0.0, 0.0), [side], 0.5) == math.inf
    # Already inside the clearance: closing is 0 s, moving apart is no conflict.
    near = Prediction(0.5, 0.0, -1.0, 0.0, 0.25, 3.0)
    assert time_to_conflict((0.0, 0.0), (0.0, 0.0), [near], 0.5) == 0.0
    leaving = Prediction(0.5, 0.0, 1.0, 0.0, 0.25, 3.0)
    assert time_to_conflict((0.0, 0.0), (0.0, 0.0), [leaving], 0.5) == math.inf


def test_a_person_who_stopped_may_set_off_again_along_their_line() -> None:
    tracker = ObstacleTracker()
    tr = Track(0, 1.0, 2.0, 0.25, hits=10, last_seen=3.0, axis=(0.0, 1.0), walk_speed=1.5)
    tracker.tracks = [tr]
    futures = tracker.predictions(3.0, horizon=3.0)
    cfg = tracker.config
    assert [(f.vx, f.vy) for f in futures] == [(0.0, cfg.restart_speed),
                                              (0.0, -cfg.restart_speed)]
    assert all(f.horizon == cfg.restart_horizon for f in futures)
    # Walking: its own velocity for the whole horizon.
    tr.vx, tr.vy = 0.0, 1.5
    (walking,) = tracker.predictions(3.0, horizon=3.0)
    assert (walking.vy, walking.horizon) == (1.5, 3.0)
