"""The Mecanum follower in a closed loop with the pure-Python simulator (no ROS)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.control.errors import ControlError
from map2route.control.follower import (
    FollowerConfig,
    FollowerState,
    PathFollower,
    scan_to_points,
    sweep_free_distance,
)
from map2route.control.footprint import inflate_for_robot
from map2route.sim.kinematics import Pose2D, Twist2D, integrate
from map2route.sim.lidar import LaserConfig, cast_scan
from map2route.sim.world import DynamicObstacle, World

DT = 0.05
LASER = LaserConfig(beams=180)


def _run(world: World, path: np.ndarray, start: Pose2D, *, seconds: float = 30.0):
    cfg = FollowerConfig.from_yaml()
    f = PathFollower(cfg)
    f.set_path(path)
    pose, t = start, 0.0
    log: list[tuple[Pose2D, object]] = []
    collisions = 0
    while t < seconds:
        ranges = cast_scan(world, pose, LASER, t)
        pts = scan_to_points(ranges, LASER.angle_min, LASER.angle_increment)
        cmd = f.step(pose.x, pose.y, pose.yaw, pts, DT)
        log.append((pose, cmd))
        if cmd.state is FollowerState.ARRIVED:
            break
        pose = integrate(pose, Twist2D(cmd.vx, cmd.vy, cmd.wz), DT)
        t += DT
        collisions += world.collides(pose, cfg.vehicle_length / 2, cfg.vehicle_width / 2, t)
    return pose, log, collisions, t


def test_defaults_are_the_cmu_mecanum_values() -> None:
    cfg = FollowerConfig.from_yaml()
    assert (cfg.max_speed, cfg.look_ahead, cfg.max_accel, cfg.stop_distance) == (0.875, 0.5, 2.0, 0.1)
    assert (cfg.yaw_rate_gain, cfg.max_yaw_rate_deg) == (3.0, 80.0)
    assert (cfg.vehicle_length, cfg.vehicle_width) == (0.5, 0.5)


def test_follows_through_the_door_within_limits(two_room_map) -> None:
    world = World.from_map(two_room_map)
    assert not world.collides(Pose2D(1.5, 1.0, 0.0), 0.25, 0.25)
    path = np.array([[1.5, 1.0], [2.5, 2.0], [3.5, 2.0], [4.0, 0.6]])
    path = np.concatenate([np.linspace(path[i], path[i + 1], 20) for i in range(3)])
    pose, log, collisions, t = _run(world, path, Pose2D(1.5, 1.0, 0.0))
    cfg = FollowerConfig.from_yaml()
    assert log[-1][1].state is FollowerState.ARRIVED
    assert math.hypot(pose.x - 4.0, pose.y - 0.6) <= cfg.goal_tolerance
    assert collisions == 0
    speeds = np.array([c.speed for _, c in log])
    assert speeds.max() <= cfg.max_speed + 1e-9
    # It speeds up at most max_accel (braking may be harder when the scan demands it).
    assert (np.diff(speeds) / DT).max() <= cfg.max_accel + 1e-6
    assert max(abs(c.wz) for _, c in log) <= math.radians(cfg.max_yaw_rate_deg) + 1e-9
    progress = [c.progress for _, c in log]
    assert progress == sorted(progress) and progress[-1] == 1.0


def open_room():
    """A 6 m x 4 m living room with a sofa along the north wall: room to go around things."""
    from map2route.semantic_map.model import RoomType
    from map2route.semantic_map.synthetic import RectObject, RectRoom, rect_house

    return rect_house(name="open_room", rooms=[RectRoom(0, RoomType.LIVING_ROOM, 0, 0, 6, 4)],
                      objects=[RectObject("sofa_0", "sofa", 3.0, 3.5, 2.0, 0.6)], doors=[])


def test_steers_around_an_unmapped_obstacle() -> None:
    world = World.from_map(open_room())
    # Straight across the room at y = 2; a box dropped on the line at x = 3.
    path = np.stack([np.linspace(0.8, 5.2, 80), np.full(80, 2.0)], axis=1)
    world.obstacles.append(DynamicObstacle(start=(3.0, 2.0), radius=0.2))
    pose, log, collisions, _ = _run(world, path, Pose2D(0.8, 2.0, 0.0))
    assert log[-1][1].state is FollowerState.ARRIVED
    assert collisions == 0
    assert any(c.state is FollowerState.SLOWED for _, c in log)
    # It really left the straight line to pass the obstacle.
    assert max(abs(p.y - 2.0) for p, _ in log) > 0.4


def test_stops_rather_than_collides_when_the_way_is_shut(two_room_map) -> None:
    world = World.from_map(two_room_map)
    # A wall of cylinders across the doorway (x = 3, y 1.5..2.5).
    for y in np.arange(1.5, 2.55, 0.1):
        world.obstacles.append(DynamicObstacle(start=(3.0, float(y)), radius=0.12))
    path = np.stack([np.linspace(2.0, 4.0, 60), np.full(60, 2.0)], axis=1)
    pose, log, collisions, _ = _run(world, path, Pose2D(2.0, 2.0, 0.0), seconds=15.0)
    assert collisions == 0
    # It never gets through, never claims arrival, and says why it is not following.
    assert max(p.x for p, _ in log) < 3.0 - 0.25
    assert all(c.state is not FollowerState.ARRIVED for _, c in log)
    assert log[-1][1].state in (FollowerState.SLOWED, FollowerState.BLOCKED)
    assert "obstacle" in log[-1][1].message or "blocked" in log[-1][1].message


def test_boxed_in_base_stops_with_zero_twist() -> None:
    world = World.from_map(open_room())
    for a in np.linspace(0, 2 * math.pi, 24, endpoint=False):
        world.obstacles.append(DynamicObstacle(start=(2.0 + 0.5 * math.cos(a),
                                                      2.0 + 0.5 * math.sin(a)), radius=0.1))
    path = np.stack([np.linspace(2.0, 5.0, 40), np.full(40, 2.0)], axis=1)
    pose, log, collisions, _ = _run(world, path, Pose2D(2.0, 2.0, 0.0), seconds=2.0)
    assert collisions == 0
    last = log[-1][1]
    assert last.state is FollowerState.BLOCKED and (last.vx, last.vy, last.wz) == (0, 0, 0)
    assert "blocked" in last.message


def test_sweep_free_distance_by_hand() -> None:
    # Body 0.5 x 0.5 (half 0.25) at the origin, base frame.
    pts = np.array([[2.0, 0.1], [1.0, 0.4], [-1.0, 0.0]])
    # Straight ahead: (2, 0.1) is met by the front (x = 0.25) after 1.75 m; (1, 0.4) passes.
    assert sweep_free_distance(pts, 0.0, 0.25, 0.25) == pytest.approx(1.75)
    # With a 0.2 m margin the grown side (0.45) meets (1, 0.4) after 1 - 0.45 = 0.55 m.
    assert sweep_free_distance(pts, 0.0, 0.25, 0.25, margin=0.2) == pytest.approx(0.55)
    # Sideways (+y): nothing is in the sweep.
    assert sweep_free_distance(pts, math.pi / 2, 0.25, 0.25) == math.inf
    # Diagonal: (1, 1) is met by the corner (0.25, 0.25) after 0.75 * sqrt(2).
    assert sweep_free_distance(np.array([[1.0, 1.0]]), math.pi / 4, 0.25, 0.25) == \
        pytest.approx(0.75 * math.sqrt(2))
    # A point beside the body, inside the margin, is passed when moving along it.
    assert sweep_free_distance(np.array([[0.0, 0.3]]), 0.0, 0.25, 0.25, margin=0.1) == math.inf


def test_bad_route_is_refused() -> None:
    f = PathFollower(FollowerConfig.from_yaml())
    with pytest.raises(ControlError, match="finite"):
        f.set_path(np.array([[0.0, np.nan], [1.0, 1.0]]))
    assert f.step(0, 0, 0, np.zeros((0, 2)), DT).state is FollowerState.IDLE


def test_inflation_keeps_the_body_off_walls(two_room_map) -> None:
    inflated = inflate_for_robot(two_room_map, 0.4, keep=(0.2, 0.2))
    world = World.from_map(two_room_map)
    g = two_room_map.grid
    rows, cols = np.nonzero(inflated.traversable & ~two_room_map.disk_mask((0.2, 0.2), 0.5))
    for r, c in zip(rows[::50], cols[::50], strict=True):
        x, y = g.cell_to_world(r, c)
        assert not world.collides(Pose2D(x, y, 0.7), 0.25, 0.25)
    # The door (1 m wide) stays passable.
    assert inflated.traversable[g.world_to_cell(3.0, 2.0)]


def test_rotation_check_by_hand() -> None:
    from map2route.control.follower import rotation_is_free

    # A point 0.3 m ahead of a 0.5 x 0.5 body: turning 45 deg brings a corner
    # (0.354 m out) over it; turning 10 deg does not (the front face reaches 0.25 / cos 10).
    pt = np.array([[0.3, 0.0]])
    assert not rotation_is_free(pt, 0.25, 0.25, math.radians(45))
    assert rotation_is_free(pt, 0.25, 0.25, math.radians(10))
    assert rotation_is_free(np.zeros((0, 2)), 0.25, 0.25, 1.0)


def test_square_base_aligns_its_nearest_side_with_travel() -> None:
    f = PathFollower(FollowerConfig.from_yaml())
    f.set_path(np.stack([np.linspace(0, 3, 30), np.zeros(30)], axis=1))
    # Facing 80 deg off a route along +x: the nearest side is 10 deg away, turn back by 10.
    cmd = f.step(0.0, 0.0, math.radians(80), np.zeros((0, 2)), DT)
    assert cmd.wz == pytest.approx(3.0 * math.radians(10), rel=1e-6)
    # And it travels along +x in the world whatever its heading.
    world_vx = cmd.vx * math.cos(math.radians(80)) - cmd.vy * math.sin(math.radians(80))
    world_vy = cmd.vx * math.sin(math.radians(80)) + cmd.vy * math.cos(math.radians(80))
    assert world_vx > 0 and abs(world_vy) < 1e-9
