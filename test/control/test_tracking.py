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
    closest_gap,
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


def test_closest_gap_by_hand() -> None:
    # A person 2 m east walking west at 1 m/s, the base (clearance 0.5) standing: they meet
    # head on, centres 0 apart at 2 s; within 1 s they come to 1 m: gap 1 - 0.5 - 0.25.
    f = Prediction(2.0, 0.0, -1.0, 0.0, 0.25, 3.0)
    assert closest_gap((0.0, 0.0), (0.0, 0.0), [f], 0.5, 1.0) == pytest.approx(0.25)
    assert closest_gap((0.0, 0.0), (0.0, 0.0), [f], 0.5, 3.0) == pytest.approx(-0.75)
    # Sidestepping north at 1 m/s: relative motion (-1, -1) from (2, 0); closest at s = 1,
    # offset (1, -1): gap sqrt(2) - 0.75.
    assert closest_gap((0.0, 0.0), (0.0, 1.0), [f], 0.5, 3.0) == pytest.approx(
        math.sqrt(2.0) - 0.75)
    assert closest_gap((0.0, 0.0), (0.0, 0.0), [], 0.5, 1.0) == math.inf


def test_a_standing_walker_keeps_a_waiting_base_off_its_line() -> None:
    tracker = ObstacleTracker()
    tr = Track(0, 1.0, 2.0, 0.25, hits=10, last_seen=3.0, axis=(0.0, 1.0), walk_speed=1.5)
    tracker.tracks = [tr]
    lines = tracker.line_predictions(3.0)
    cfg = tracker.config
    assert [(f.vx, f.vy, f.horizon) for f in lines] == [(0.0, 1.5, cfg.linger_horizon),
                                                       (0.0, -1.5, cfg.linger_horizon)]
    # A base standing on the line 1.5 m south: the walker at 1.5 m/s comes within
    # 0.5 + 0.25 after (1.5 - 0.75) / 1.5 = 0.5 s.
    assert time_to_conflict((1.0, 0.5), (0.0, 0.0), lines, 0.5) == pytest.approx(0.5)
    # Walking: no line futures (its own velocity is predicted instead).
    tr.vx, tr.vy = 0.0, 1.5
    assert tracker.line_predictions(3.0) == []


def test_a_walker_setting_off_again_is_seen_at_its_pace_at_once() -> None:
    # A person walked north at 1.5 m/s, stood for 2 s, and sets off south at 1.5 m/s. The
    # 0.8 s line fit averages standing samples in (about half the speed for the first steps);
    # the last 0.2 s show the restart, and the walker's known pace is predicted.
    tracker = ObstacleTracker()
    sensor = (0.0, 0.0)

    def y_at(t: float) -> float:
        if t <= 1.0:
            return -1.0 + 1.5 * t
        return 0.5 if t <= 3.0 else 0.5 - 1.5 * (t - 3.0)

    for k in range(33):
        t = 0.1 * k
        tracker.update(t, _arc(2.0, y_at(t), 0.25, sensor), sensor)
    (tr,) = tracker.moving()
    assert tr.walk_speed == pytest.approx(1.5, abs=0.1)
    # 0.2 s after setting off (3 centres on the way back).
    assert (tr.vx, tr.vy) == pytest.approx((0.0, -tr.walk_speed), abs=0.05)


def test_a_waiting_base_steps_off_a_standing_walkers_line() -> None:
    # A person who walked at 1.27 m/s along x = 0 stands 1.3 m north of a base that has to
    # wait (its command is zero). Setting off again they would come within the base's
    # 0.354 + 0.15 m clearance plus their 0.25 m radius in (1.3 - 0.754) / 1.27 = 0.43 s,
    # too soon to react once they move: the base moves off their line now, sideways.
    from map2route.control import FollowerConfig, PathFollower

    follower = PathFollower(FollowerConfig.from_yaml())
    follower.tracker.tracks = [Track(0, 0.0, 1.3, 0.25, hits=10, last_seen=0.0,
                                     axis=(0.0, 1.0), walk_speed=1.27)]
    movers = follower.tracker.predictions(0.0, follower.config.yield_horizon)
    assert time_to_conflict((0.0, 0.0), (0.0, 0.0), movers, 0.504) == math.inf  # short futures
    out = follower._yield(0.0, 0.0, 0.0, np.zeros((0, 2)), math.pi / 2, np.zeros(2), movers,
                          0.1)
    assert out is not None
    (vx, vy), message = out
    assert abs(vx) > 0.1 and abs(vx) > abs(vy)
    assert "yielding" in message
