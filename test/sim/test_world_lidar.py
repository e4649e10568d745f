"""Ray casting and collision checks on the two-room house, against distances known by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from map2route.sim.kinematics import Pose2D
from map2route.sim.lidar import LaserConfig, PointCloudConfig, cast_cloud, cast_scan
from map2route.sim.world import DynamicObstacle, World


@pytest.fixture
def world(two_room_map) -> World:
    return World.from_map(two_room_map)


def test_scan_hits_walls_at_known_ranges(world: World) -> None:
    # Kitchen, at (4.5, 0.5): the south wall (y = 0) is 0.5 m away, the east wall (x = 6)
    # 1.5 m, the dining table (y 1.1..1.9) 0.6 m north. Walls are one cell thick on either
    # side of their line depending on rounding, so allow one cell.
    cfg = LaserConfig(beams=4, angle_min=-math.pi / 2)  # beams: -y, +x, +y, -x
    r = cast_scan(world, Pose2D(4.5, 0.5, 0.0), cfg)
    res = world.map.grid.resolution
    assert r[0] == pytest.approx(0.5, abs=res)
    assert r[1] == pytest.approx(1.5, abs=1.5 * res)
    assert r[2] == pytest.approx(0.6, abs=res / 2)
    # Rotating the base rotates the scan: facing +y, beam 1 looks at the table.
    r2 = cast_scan(world, Pose2D(4.5, 0.5, math.pi / 2), cfg)
    assert r2[1] == pytest.approx(r[2])


def test_scan_matches_fine_brute_force(world: World) -> None:
    cfg = LaserConfig(beams=36)
    rng = np.random.default_rng(0)
    g = world.map.grid
    free = np.argwhere(~world.blocked)
    for row, col in free[rng.choice(len(free), 5, replace=False)]:
        x, y = g.cell_to_world(row, col)
        r = cast_scan(world, Pose2D(x, y, 0.3), cfg)
        for k, a in enumerate(0.3 + cfg.angles()):
            d = np.arange(1, 12000) * (g.resolution / 50)
            cells = g.worlds_to_cells(np.stack([x + d * np.cos(a), y + d * np.sin(a)], 1))
            hit = world.blocked[np.clip(cells[:, 0], 0, g.rows - 1),
                                np.clip(cells[:, 1], 0, g.cols - 1)]
            truth = d[np.argmax(hit)] if hit.any() else np.inf
            if truth < cfg.range_min:  # LaserScan: below range_min is no return
                truth = np.inf
            assert r[k] == pytest.approx(truth, abs=g.resolution / 50 + 1e-6)


def test_scan_sees_a_dynamic_cylinder(world: World) -> None:
    cfg = LaserConfig(beams=4, angle_min=-math.pi / 2)
    world.obstacles.append(DynamicObstacle(start=(5.5, 0.5), radius=0.2))
    r = cast_scan(world, Pose2D(4.5, 0.5, 0.0), cfg)
    assert r[1] == pytest.approx(0.8, abs=1e-6)  # analytic: 1.0 - 0.2


def test_moving_obstacle_bounces() -> None:
    o = DynamicObstacle(start=(0.0, 0.0), end=(2.0, 0.0), radius=0.1, speed=1.0)
    assert o.position(1.0) == pytest.approx((1.0, 0.0))
    assert o.position(3.0) == pytest.approx((1.0, 0.0))
    assert o.position(4.0) == pytest.approx((0.0, 0.0))


def test_collision_ground_truth(world: World) -> None:
    free = Pose2D(4.5, 0.5, 0.0)
    assert not world.collides(free, 0.2, 0.2)
    assert world.collides(Pose2D(4.5, 1.2, 0.0), 0.2, 0.2)  # overlaps the dining table
    assert world.collides(Pose2D(5.9, 0.5, 0.0), 0.2, 0.2)  # into the east wall
    assert not world.collides(Pose2D(3.0, 2.0, 0.0), 0.2, 0.2)  # in the doorway
    world.obstacles.append(DynamicObstacle(start=(4.9, 0.5), radius=0.25))
    assert world.collides(free, 0.2, 0.2)


def test_cloud_covers_mid360_field_of_view(world: World) -> None:
    cfg = PointCloudConfig(h_beams=90, v_beams=12)
    pts = cast_cloud(world, Pose2D(1.5, 1.5, 0.0), cfg)
    assert pts.shape[1] == 3 and len(pts) > 0.8 * 90 * 12
    rng = np.hypot(pts[:, 0], pts[:, 1])
    el = np.degrees(np.arctan2(pts[:, 2], rng))
    assert el.min() == pytest.approx(-7.0, abs=0.1) and el.max() == pytest.approx(52.0, abs=0.1)
    # Downward rays end on the floor, 0.4 m below the sensor.
    assert pts[:, 2].min() == pytest.approx(-0.4, abs=1e-3)


def test_structure_objects_and_wall_art_do_not_block(two_room_map) -> None:
    import dataclasses

    from map2route.semantic_map.model import ObjectInstance

    door = ObjectInstance(id="door|0|1", category="doorway", room_id=0,
                          footprint=((2.95, 1.5), (3.05, 1.5), (3.05, 2.5), (2.95, 2.5)),
                          center=(3.0, 2.0), z_min=0.0, z_max=2.1)
    art = ObjectInstance(id="painting|0", category="painting", room_id=0,
                         footprint=((1.0, 0.05), (2.0, 0.05), (2.0, 0.1), (1.0, 0.1)),
                         center=(1.5, 0.075), z_min=1.2, z_max=1.8)
    m = dataclasses.replace(two_room_map, objects=(*two_room_map.objects, door, art))
    world = World.from_map(m)
    assert not world.collides(Pose2D(3.0, 2.0, 0.0), 0.25, 0.25)  # through the doorway
    assert not world.blocked[m.grid.world_to_cell(1.5, 0.075)]
