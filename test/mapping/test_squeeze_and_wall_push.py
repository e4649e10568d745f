"""Tenth round, by hand: the drive squeezes through a passage narrower than its clearance only
where no roomier way leads, and a wall-hung object is pushed out of the wall on its own side."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from map2route.semantic_map.model import ObjectInstance, RoomType
from map2route.semantic_map.synthetic import RectRoom, rect_house


def _two_rooms(doors):  # type: ignore[no-untyped-def]
    rooms = [RectRoom(0, RoomType.LIVING_ROOM, 0.0, 0.0, 4.0, 5.0),
             RectRoom(1, RoomType.BEDROOM, 4.0, 0.0, 8.0, 5.0)]
    return rect_house(name="squeeze", rooms=rooms, objects=[], doors=doors)


def test_a_room_behind_a_narrow_passage_is_entered_by_squeezing() -> None:
    from map2route.mapping.drive import _free_space, tour_cells

    # A 0.5 m opening: 11-12 free cells across, where 0.3 m clearance needs 13 (a 6-cell
    # erosion) and 0.27 m needs 11 (5 cells).
    m = _two_rooms([("door_0", (0, 1), ((4.0, 2.2), (4.0, 2.7)))])
    _, rooms = tour_cells(m, clearance_m=0.3, look_in=False)
    assert len(rooms) == 1
    cells, rooms = tour_cells(m, clearance_m=0.3, look_in=False, squeeze_clearance_m=0.27)
    assert set(rooms) == {0, 1}
    # The squeezed cells of the tour are the doorway's, nothing else.
    tight = ~_free_space(m, 0.3)[cells[:, 0], cells[:, 1]]
    xy = m.grid.cells_to_worlds(cells)
    assert tight.any()
    assert np.all(np.hypot(xy[tight, 0] - 4.0, xy[tight, 1] - 2.45) < 0.6)


def test_a_roomy_door_is_taken_before_a_nearer_squeeze() -> None:
    from map2route.mapping.drive import tour_cells

    # The narrow opening is on the way; a 1 m door 2 m further is roomy.
    m = _two_rooms([("narrow", (0, 1), ((4.0, 2.2), (4.0, 2.7))),
                    ("wide", (0, 1), ((4.0, 3.8), (4.0, 4.8)))])
    cells, rooms = tour_cells(m, clearance_m=0.3, look_in=False, squeeze_clearance_m=0.27)
    assert set(rooms) == {0, 1}
    xy = m.grid.cells_to_worlds(cells)
    assert np.hypot(xy[:, 0] - 4.0, xy[:, 1] - 2.45).min() > 0.3
    crossings = np.flatnonzero(np.diff(np.sign(xy[:, 0] - 4.0)) != 0)
    assert len(crossings) and np.all(xy[crossings, 1] > 3.7)


def _on_walls(m, centre, size, yaw) -> bool:  # type: ignore[no-untyped-def]
    """Whether a box sampled every centimetre touches a wall cell."""
    u, v = np.meshgrid(np.linspace(-size[0] / 2, size[0] / 2, 50),
                       np.linspace(-size[1] / 2, size[1] / 2, 5))
    c, s = np.cos(yaw), np.sin(yaw)
    pts = np.stack([centre[0] + u.ravel() * c - v.ravel() * s,
                    centre[1] + u.ravel() * s + v.ravel() * c], axis=1)
    rc = m.grid.worlds_to_cells(pts)
    return bool(m.walls[rc[:, 0], rc[:, 1]].any())


def _wall(oid: str, x0: float, y0: float, x1: float, y1: float) -> ObjectInstance:
    fp = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return ObjectInstance(id=oid, category="wall", room_id=None, footprint=fp,
                          center=((x0 + x1) / 2, (y0 + y1) / 2), z_min=0.0, z_max=2.5)


def _wall_line(m, near_x: float) -> float:  # type: ignore[no-untyped-def]
    """The centre line of the wall cells crossing y = 3.5 near ``near_x``."""
    row = m.grid.world_to_cell(near_x, 3.5)[0]
    cols = np.flatnonzero(m.walls[row])
    xs = m.grid.cells_to_worlds(np.stack([np.full(len(cols), row), cols], axis=1))[:, 0]
    xs = xs[np.abs(xs - near_x) < 0.2]
    return float(xs.mean())


@pytest.mark.parametrize(("near_x", "side"), [
    (4.0, -1.0),  # hung in room 0: its back on the interior wall's centre line
    (4.0, 1.0),   # the same wall, hung in room 1
    (0.0, 1.0),   # on the outer wall: inwards, never out of the house
])
def test_a_painting_is_pushed_out_of_the_wall_on_its_own_side(near_x: float,
                                                               side: float) -> None:
    from map2route.mapping.scene3d import object_box, push_out_of_walls, wall_side

    m = _two_rooms([("door_0", (0, 1), ((4.0, 0.5), (4.0, 1.5)))])
    line = _wall_line(m, near_x)
    m = replace(m, objects=(*m.objects, _wall("wall|a", line - 0.05, 0.0, line + 0.05, 5.0)))
    x0, x1 = sorted((line, line + 0.03 * side))
    fp = ((x0, 3.0), (x1, 3.0), (x1, 4.0), (x0, 4.0))
    centre, size, yaw = object_box(fp)
    assert _on_walls(m, centre, size, yaw)
    normal = wall_side(m, centre, size, yaw)
    assert normal is not None and normal[0] == pytest.approx(side) and abs(normal[1]) < 1e-9
    cx, cy = push_out_of_walls(m, centre, size, yaw)
    assert (cx - centre[0]) * side > 0 and cy == pytest.approx(centre[1])
    assert not _on_walls(m, (cx, cy), size, yaw)
    # Just off the wall: within 10 cm of the centre line.
    assert abs(cx - line) < 0.1


def test_without_wall_objects_an_outer_wall_painting_goes_to_the_floor_side() -> None:
    from map2route.mapping.scene3d import object_box, push_out_of_walls, wall_side

    m = _two_rooms([("door_0", (0, 1), ((4.0, 0.5), (4.0, 1.5)))])
    assert not any(o.category == "wall" for o in m.objects)
    for near_x, side in ((0.0, 1.0),):
        # Hung on the outer side of the wall cells' centre line: the floor is inside all the same.
        line = _wall_line(m, near_x)
        x0, x1 = sorted((line, line - 0.03 * side))
        centre, size, yaw = object_box(((x0, 3.0), (x1, 3.0), (x1, 4.0), (x0, 4.0)))
        assert _on_walls(m, centre, size, yaw)
        normal = wall_side(m, centre, size, yaw)
        assert normal is not None and normal[0] == pytest.approx(side)
        cx, _ = push_out_of_walls(m, centre, size, yaw)
        assert (cx - centre[0]) * side > 0


def test_a_painting_in_a_corner_is_pushed_off_both_walls() -> None:
    from map2route.mapping.scene3d import MAX_WALL_PUSH_M, object_box, push_out_of_walls

    m = _two_rooms([("door_0", (0, 1), ((4.0, 0.5), (4.0, 1.5)))])
    west = _wall_line(m, 0.0)
    col = m.grid.world_to_cell(2.0, 5.0)[1]
    rows = np.flatnonzero(m.walls[:, col])
    north = float(m.grid.cells_to_worlds(np.asarray([[rows.max(), col]]))[0, 1])
    m = replace(m, objects=(*m.objects, _wall("wall|north", west, north - 0.05, 8.0, north + 0.05)))
    # On the north wall, its end in the west wall: no shift along x nor into the room along y
    # within MAX_WALL_PUSH_M frees it, one to the south-east does.
    fp = ((west + 0.01, north - 0.03), (0.8, north - 0.03), (0.8, north), (west + 0.01, north))
    centre, size, yaw = object_box(fp)
    steps = np.arange(-MAX_WALL_PUSH_M, MAX_WALL_PUSH_M + 1e-9, 0.01)
    assert all(_on_walls(m, (centre[0] + d, centre[1]), size, yaw) for d in steps)
    assert all(_on_walls(m, (centre[0], centre[1] - d), size, yaw) for d in steps if d >= 0)
    cx, cy = push_out_of_walls(m, centre, size, yaw)
    assert cy < centre[1] and cx > centre[0]
    assert not _on_walls(m, (cx, cy), size, yaw)
