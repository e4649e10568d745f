"""The deterministic core drive loop, collision kinds, and yielding to people (issue 16 #7)."""

from __future__ import annotations

import numpy as np
import pytest

from map2route.bench.moving import core_drive, plan_drive_route, scenario, summary
from map2route.control import FollowerConfig, PathFollower
from map2route.semantic_map.model import RoomType
from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house, two_room_house
from map2route.sim.drive import drive, rectangle_gap
from map2route.sim.kinematics import MecanumBase, Pose2D
from map2route.sim.world import DynamicObstacle, World

BASE = MecanumBase(0.25, 0.25, 0.05, 30.0)


def open_room():
    return rect_house(name="open_room", rooms=[RectRoom(0, RoomType.LIVING_ROOM, 0, 0, 6, 4)],
                      objects=[RectObject("sofa_0", "sofa", 3.0, 3.5, 2.0, 0.6)], doors=[])


def test_contact_kinds_by_hand(two_room_map) -> None:
    world = World.from_map(two_room_map)
    still = Pose2D(1.5, 1.0, 0.0)
    # A person 0.6 m east walks west at 1 m/s onto the standing base: struck, not its doing.
    world.obstacles.append(DynamicObstacle(start=(2.1, 1.0), radius=0.25, end=(1.1, 1.0),
                                           speed=1.0))
    assert world.contact(still, still, 0.25, 0.25, 0.0) is None
    assert world.contact(still, still, 0.25, 0.25, 0.2) == "struck"
    # A box 0.6 m east; the base drives 0.2 m into it: drove_into.
    world.obstacles[:] = [DynamicObstacle(start=(2.1, 1.0), radius=0.25)]
    assert world.contact(still, Pose2D(1.7, 1.0, 0.0), 0.25, 0.25, 0.1) == "drove_into"
    assert world.contact(still, Pose2D(1.55, 1.0, 0.0), 0.25, 0.25, 0.1) is None


def test_rectangle_gap_by_hand() -> None:
    discs = np.array([[2.0, 0.0, 0.25], [0.0, 0.3, 0.25], [0.0, 0.2, 0.25]])
    at = Pose2D(0.0, 0.0, 0.0)
    assert rectangle_gap(at, 0.25, 0.25, discs[:1]) == pytest.approx(1.5)
    # Centre 0.05 outside the edge: the disc reaches 0.2 into the rectangle.
    assert rectangle_gap(at, 0.25, 0.25, discs[1:2]) == pytest.approx(-0.2)
    # Centre 0.05 inside the edge: 0.05 + the radius.
    assert rectangle_gap(at, 0.25, 0.25, discs[2:]) == pytest.approx(-0.3)


def _person_run(m, obstacles, *, yielding: bool, x0: float):
    cfg = FollowerConfig.from_yaml()
    follower = PathFollower(cfg)
    follower.set_static_map(~m.traversable, m.grid.origin_x, m.grid.origin_y,
                            m.grid.resolution)
    if not yielding:
        follower.tracker.config = type(follower.tracker.config)(min_hits=10**9)
    world = World.from_map(m, obstacles)
    path = np.stack([np.linspace(x0, 5.2, 75), np.full(75, 2.0)], axis=1)
    return drive(world, follower, path, Pose2D(x0, 2.0, 0.0), BASE, time_limit=30.0)


def test_a_person_crossing_at_2_m_s_is_yielded_to() -> None:
    # Issue 16 item 7: a person crossing the way at 2 m/s. They walk from the south wall to
    # the sofa once (then stand there) across the base's straight route at x = 3.
    m = open_room()
    person = [DynamicObstacle(start=(3.0, 0.4), radius=0.25, end=(3.0, 2.9), speed=2.0,
                              pause=1000.0)]
    for x0 in (1.5, 1.8, 2.0):
        run = _person_run(m, person, yielding=True, x0=x0)
        assert run.arrived and run.collisions == 0, x0
        assert run.min_gap_m > 0.0
    # Without tracking, the base starting 1 m from the crossing is hit.
    blind = _person_run(m, person, yielding=False, x0=2.0)
    assert blind.collisions > 0


def test_three_seeded_drives_collide_never_and_repeat_exactly() -> None:
    m = two_room_house()
    route = plan_drive_route(m)
    first = [core_drive(s, m, route, time_limit=60.0) for s in range(3)]
    second = [core_drive(s, m, route, time_limit=60.0) for s in range(3)]
    res = summary(first, second)
    assert res["collisions"] == 0
    assert res["identical_on_rerun"] == 3
    assert all(a.digest == b.digest for a, b in zip(first, second, strict=True))
    # Each drive meets a person: the scenario puts one across the planned route.
    assert all(any(o.speed > 0 for o in scenario(s, m, route)) for s in range(3))


def test_a_person_walking_head_on_at_1_5_m_s_is_stepped_aside_from() -> None:
    # Issue 20: sim people keep walking their line whatever the base does. One walks east at
    # 1.5 m/s along y = 1.5 (then stands at the far wall); the base's route runs west along
    # the same line, straight at them. To let them by, the base's centre must leave the line
    # by at least half its width plus their radius (0.25 + 0.25 m) while they pass.
    m = open_room()
    person = [DynamicObstacle(start=(0.5, 1.5), radius=0.25, end=(5.5, 1.5), speed=1.5,
                              pause=1000.0)]

    def run(yielding: bool):
        follower = PathFollower(FollowerConfig.from_yaml())
        follower.set_static_map(~m.traversable, m.grid.origin_x, m.grid.origin_y,
                                m.grid.resolution)
        if not yielding:
            follower.tracker.config = type(follower.tracker.config)(min_hits=10**9)
        path = np.stack([np.linspace(4.5, 0.8, 75), np.full(75, 1.5)], axis=1)
        return drive(World.from_map(m, person), follower, path, Pose2D(4.5, 1.5, 0.0), BASE,
                     time_limit=20.0)

    dodged = run(True)
    assert dodged.arrived and dodged.collisions == 0
    assert dodged.min_gap_m > 0.0
    assert float(np.abs(dodged.trajectory[:, 2] - 1.5).max()) >= 0.5
    # The same base without tracking meets them head on.
    assert run(False).collisions > 0


def test_bench_moving_cli_runs_and_prints_json(capsys) -> None:
    """``map2route bench moving`` end to end on the core stack (it once imported its progress
    bar from a module that had moved, and failed before driving)."""
    import json

    from map2route.cli import main

    assert main(["bench", "moving", "--runs", "1", "--stack", "core", "--time-limit", "5",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["stack"] == "core" and doc["drives"] == 1 and doc["identical_on_rerun"] == 1
