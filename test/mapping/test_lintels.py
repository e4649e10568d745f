"""Door lintels: the wall over a door, in the simulator's scene and as a room boundary in the
builder's layers (a door as wide as the room behind it)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from map2route.mapping.builder import BuildConfig
from map2route.mapping.layers import lintels, segment_rooms
from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import ObjectInstance, RoomType
from map2route.semantic_map.synthetic import RectRoom, rect_house


def test_lintel_cells_have_points_only_high_up() -> None:
    cfg = dataclasses.replace(BuildConfig.from_yaml().layers, obstacle_min_m=0.1,
                              lintel_min_m=1.95, lintel_clear_m=1.8)
    walls = np.zeros((1, 5), dtype=bool)
    walls[0, 4] = True
    # Cell 0: only 2.2 m (a lintel). Cell 1: 2.2 m and 0.5 m (a wardrobe). Cell 2: 1.85 m
    # only (neither: not high enough). Cell 3: nothing. Cell 4: a wall cell with 2.2 m.
    h = np.array([2.2, 2.3, 2.2, 0.5, 1.85, 2.2])
    flat = np.array([0, 0, 1, 1, 2, 4])
    assert lintels(h, flat, walls, 2.35, cfg).tolist() == [[True, False, False, False, False]]
    # Above the wall band's top is the ceiling, not a lintel.
    assert not lintels(np.array([2.4]), np.array([0]), walls, 2.35, cfg).any()
    off = dataclasses.replace(cfg, lintel_min_m=0.0)
    assert not lintels(h, flat, walls, 2.35, off).any()


def _bedroom_and_bathroom() -> tuple[np.ndarray, np.ndarray, GridSpec, np.ndarray]:
    """A 4 x 4 m bedroom (x 0..4) and a 2 x 2 m bathroom (x 4..6, y 1..3) whose door is its
    whole west side: no narrowing where they meet. Returns interior, walls, grid and the
    lintel cells over that door (x 4.0..4.1)."""
    grid = GridSpec(rows=84, cols=124, resolution=0.05, origin_x=0.0, origin_y=0.0)
    walls = np.zeros(grid.shape, dtype=bool)
    walls[:2, :82], walls[-2:, :82], walls[:, :2] = True, True, True
    walls[:, 80:82] = True
    walls[20:22, 80:], walls[62:64, 80:], walls[20:64, 122:] = True, True, True
    walls[22:62, 80:82] = False  # the door: the whole 2 m side of the bathroom
    interior = np.zeros(grid.shape, dtype=bool)
    interior[2:-2, 2:80] = True
    interior[22:62, 80:122] = True
    lintel = np.zeros(grid.shape, dtype=bool)
    lintel[22:62, 80:82] = True
    return interior, walls, grid, lintel


def test_a_door_as_wide_as_the_room_splits_it_off_only_with_its_lintel() -> None:
    cfg = BuildConfig.from_yaml().layers
    interior, walls, grid, lintel = _bedroom_and_bathroom()
    rooms, _ = segment_rooms(interior, walls, grid, config=cfg)
    # The watershed alone: the bathroom's middle is no higher than the door's saddle.
    assert rooms[42, 40] == rooms[42, 110]
    rooms, doors = segment_rooms(interior, walls | lintel, grid, config=cfg)
    bed, bath = rooms[42, 40], rooms[42, 110]
    assert bed >= 0 and bath >= 0 and bed != bath
    assert len(np.unique(rooms[interior])) == 2
    # The lintel cells belong to a room (the rooms meet at the door) ...
    assert (rooms[lintel] >= 0).all()
    # ... and the door runs along them: x 4.0..4.1, y 1.1..3.1.
    assert len(doors) == 1 and set(doors[0][0]) == {int(bed), int(bath)}
    (x0, y0), (x1, y1) = doors[0][1]
    assert 3.9 <= (x0 + x1) / 2 <= 4.2
    assert abs(y1 - y0) == pytest.approx(2.0, abs=0.25)


def test_the_simulated_scene_has_the_wall_over_a_door() -> None:
    pytest.importorskip("open3d")
    from map2route.mapping.scene3d import Scene3D

    rooms = [RectRoom(0, RoomType.LIVING_ROOM, 0.0, 0.0, 4.0, 4.0),
             RectRoom(1, RoomType.BEDROOM, 4.0, 0.0, 8.0, 4.0)]
    m = rect_house(name="door", rooms=rooms, objects=[],
                   doors=[("door_0", (0, 1), ((4.0, 1.5), (4.0, 2.5)))])
    frame = ObjectInstance(id="door_0", category="doorway", room_id=0,
                           footprint=((3.95, 1.5), (4.05, 1.5), (4.05, 2.5), (3.95, 2.5)),
                           center=(4.0, 2.0), z_min=0.0, z_max=2.1)
    m = dataclasses.replace(m, objects=(*m.objects, frame))

    def dist(scene: Scene3D, z: float) -> float:
        t, _, _ = scene.cast(np.array([[2.0, 2.0, z]]), np.array([[1.0, 0.0, 0.0]]))
        return float(t[0])

    with_lintel = Scene3D.from_map(m, wall_height_m=2.5)
    assert dist(with_lintel, 1.0) > 5.0  # through the door to the far wall at x = 8
    assert dist(with_lintel, 2.3) == pytest.approx(1.95, abs=0.06)  # the lintel's face
    assert dist(Scene3D.from_map(m, wall_height_m=2.5, door_lintels=False), 2.3) > 5.0
