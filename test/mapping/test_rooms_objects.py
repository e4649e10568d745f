"""Room segmentation, footprint fitting and voxel evidence, on small hand-made inputs."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from map2route.mapping.builder import BuildConfig
from map2route.mapping.instances import Instance
from map2route.mapping.layers import segment_rooms
from map2route.mapping.objects import oriented_rectangle
from map2route.mapping.voxels import encode
from map2route.semantic_map.grid import GridSpec


def _house(door_m: float) -> tuple[np.ndarray, np.ndarray, GridSpec]:
    """Two 4 x 4 m rooms side by side, 0.1 m walls, a doorway ``door_m`` wide in the middle."""
    grid = GridSpec(rows=84, cols=164, resolution=0.05, origin_x=0.0, origin_y=0.0)
    walls = np.zeros(grid.shape, dtype=bool)
    walls[:2], walls[-2:], walls[:, :2], walls[:, -2:] = True, True, True, True
    walls[:, 81:83] = True
    half = int(round(door_m / 0.05 / 2))
    walls[42 - half: 42 + half, 81:83] = False
    interior = ~walls
    interior[:2], interior[-2:], interior[:, :2], interior[:, -2:] = False, False, False, False
    return interior, walls, grid


def test_a_wide_doorway_still_separates_two_rooms() -> None:
    cfg = BuildConfig.from_yaml().layers
    for door in (0.9, 2.0):  # the old dilate-and-close split only doorways under 1.1 m
        interior, walls, grid = _house(door)
        rooms, doors = segment_rooms(interior, walls, grid, config=cfg)
        left, right = rooms[42, 40], rooms[42, 120]
        assert left >= 0 and right >= 0 and left != right, door
        assert len(np.unique(rooms[rooms >= 0])) == 2
        assert len(doors) == 1
        (x0, y0), (x1, y1) = doors[0][1]
        assert abs((x0 + x1) / 2 - 4.1) < 0.15 and abs(abs(y1 - y0) - door) < 0.3


def test_one_room_is_not_split() -> None:
    cfg = BuildConfig.from_yaml().layers
    interior, walls, grid = _house(4.0)  # no wall left between the halves
    walls[:, 81:83] = False
    interior[2:-2, 81:83] = True
    rooms, doors = segment_rooms(interior, walls, grid, config=cfg)
    assert len(np.unique(rooms[rooms >= 0])) == 1 and doors == ()


def test_l_shaped_faces_give_the_box_not_the_diagonal() -> None:
    a = np.deg2rad(20.0)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    faces = np.concatenate([np.c_[np.linspace(0, 0.45, 16), np.full(16, 0.4)],
                            np.c_[np.full(14, 0.45), np.linspace(0, 0.4, 14)]]) @ rot.T
    _, (w, h), angle = oriented_rectangle(faces)
    assert sorted((w, h)) == pytest.approx([0.40, 0.45], abs=0.015)
    assert abs(angle % 90.0 - 20.0) <= 1.5  # cv2.minAreaRect gives 0.60 x 0.30 at -22 deg


def _circ90(a: float, b: float) -> float:
    return abs((a - b + 45.0) % 90.0 - 45.0)


def test_wall_axis_is_the_direction_of_the_walls() -> None:
    import cv2

    from map2route.mapping.objects import wall_axis_deg

    walls = np.zeros((200, 200), dtype=np.uint8)
    cv2.rectangle(walls, (30, 40), (170, 150), 1, 2)  # an axis-aligned room
    assert _circ90(wall_axis_deg(walls.astype(bool)), 0.0) < 0.5
    turned = np.zeros_like(walls)
    box = cv2.boxPoints(((100.0, 100.0), (140.0, 100.0), 25.0)).astype(np.int32)
    cv2.polylines(turned, [box], True, 1, 2)  # the same room turned by 25 deg
    assert _circ90(wall_axis_deg(turned.astype(bool)), 25.0) < 2.0
    assert wall_axis_deg(np.zeros((50, 50), dtype=bool)) is None


def test_a_heading_near_the_walls_is_squared_to_them() -> None:
    # Two faces of a 0.45 x 0.40 box turned by 4 deg: on their own they give 4 deg.
    a = np.deg2rad(4.0)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    faces = np.concatenate([np.c_[np.linspace(0, 0.45, 16), np.full(16, 0.4)],
                            np.c_[np.full(14, 0.45), np.linspace(0, 0.4, 14)]]) @ rot.T
    assert _circ90(oriented_rectangle(faces)[2], 4.0) <= 1.0
    (cx, cy), (w, h), angle = oriented_rectangle(faces, axis_deg=0.0, snap_deg=15.0)
    assert _circ90(angle, 0.0) < 1e-6
    # The axis-aligned box of the points: x from the lowest to the highest x, and so on.
    assert w == pytest.approx(faces[:, 0].max() - faces[:, 0].min(), abs=1e-9)
    assert h == pytest.approx(faces[:, 1].max() - faces[:, 1].min(), abs=1e-9)
    assert cx == pytest.approx((faces[:, 0].max() + faces[:, 0].min()) / 2, abs=1e-9)
    # A heading farther from the walls than snap_deg keeps its own.
    assert _circ90(oriented_rectangle(faces, axis_deg=30.0, snap_deg=15.0)[2], 4.0) <= 1.0


def test_voxels_seen_outside_the_mask_more_often_than_inside_drop_out() -> None:
    keys = encode(np.array([[0.0, 0.0, 0.5], [1.0, 0.0, 0.5], [0.0, 0.03, 0.5]]), 0.03)
    inst = Instance(uid=0, votes=Counter(chair=3), n_obs=3, first_seen=0.0, last_seen=2.0)
    inst.add_keys(keys)
    inst.add_keys(keys[:1])
    inst.misses = np.zeros(3, np.int64)
    inst.misses[np.searchsorted(inst.voxel_keys, keys[1])] = 1  # hits 1, misses 1: out
    assert set(inst.keys.tolist()) == {int(keys[0]), int(keys[2])}
    inst.refresh(0.03)
    assert inst.hi[0] < 0.1  # the box no longer reaches the stray voxel at x = 1


def test_a_frame_that_sees_a_stray_voxel_beside_the_mask_drops_it() -> None:
    from map2route.mapping.camera import EquirectCamera, Pose
    from map2route.mapping.fusion import InstanceMap, Observation, View, depth_buffer

    cfg = BuildConfig.from_yaml().fusion
    cam = EquirectCamera(width=64, crop_rows=32)
    pose = Pose.planar(0.0, 0.0, 0.5, 0.0)
    origin, dirs = cam.pixel_rays(pose)
    # Object A straight ahead, a stray voxel B 45 deg to the side, both 2 m away.
    a = np.stack([origin + (2.0 + 0.03 * i) * dirs[16, 32] for i in range(3)])
    b = (origin + 2.0 * dirs[16, 40])[None]
    _, _, _, _, zmin = depth_buffer(cam, pose, np.concatenate([a, b]), config=cfg)
    imap = InstanceMap(cfg)
    polluted = np.unique(encode(np.concatenate([a, b]), cfg.voxel_m))
    imap.add(Observation(label="chair", score=1.0, keys=polluted, t=0.0))
    mask = np.zeros(cam.shape, dtype=bool)
    mask[14:19, 30:35] = True  # A's pixels only
    (inst,) = imap.add_frame([Observation(label="chair", score=1.0, t=1.0, mask=mask,
                                          keys=np.unique(encode(a, cfg.voxel_m)))],
                             View(camera=cam, pose=pose, zmin=zmin))
    assert len(imap.instances) == 1 and inst.n_obs == 2
    assert set(inst.keys.tolist()) == set(encode(a, cfg.voxel_m).tolist())
    assert int(encode(b, cfg.voxel_m)[0]) not in set(inst.keys.tolist())


def test_drive_views_large_furniture_from_each_open_side(two_room_map) -> None:  # type: ignore[no-untyped-def]
    from map2route.mapping.drive import _free_space, furniture_cells

    m = two_room_map
    free = _free_space(m, 0.3)
    cells = furniture_cells(m, free, min_area_m2=0.8, reach_m=1.0)
    xy = m.grid.cells_to_worlds(np.asarray([c for _, c in cells]))
    assert all(free[c] for _, c in cells)
    # The 0.8 m^2 dining table (4.5, 1.5) in the kitchen: one viewpoint on each of its sides.
    table = xy[[rid == 1 for rid, _ in cells]] - np.array([4.5, 1.5])
    assert len(table) == 4
    for k, (x, y) in enumerate(table):  # in the sectors +x, +y, -x, -y, in that order
        assert abs(np.angle(np.exp(1j * (np.arctan2(y, x) - k * np.pi / 2)))) <= np.pi / 4 + 1e-9
    assert (np.hypot(table[:, 0], table[:, 1]) <= 0.64 + 1.0 + 1e-6).all()
    # The bed stands in a corner: only its two open sides get one; chairs are too small.
    assert sum(rid == 0 for rid, _ in cells) == 2
