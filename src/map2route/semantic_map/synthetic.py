"""Small hand-checkable maps built from rectangles, for tests, examples and docs.

``rect_house`` draws axis-aligned rooms with one-cell walls and door gaps; object footprints are
rectangles that block the traversable layer. Everything is exact at the given resolution, so
tests can compute expected distances by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from map2route.semantic_map.grid import GridSpec
from map2route.semantic_map.model import (
    Door,
    ObjectInstance,
    Room,
    RoomType,
    SemanticMap,
    Window,
)


@dataclass(frozen=True)
class RectRoom:
    """A room as a rectangle ``[x0, x1] x [y0, y1]`` in metres."""

    id: int
    type: RoomType
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class RectObject:
    """An object as a rectangle with its centre and size in metres."""

    id: str
    category: str
    cx: float
    cy: float
    sx: float
    sy: float
    z_max: float = 0.8
    parent_id: str | None = None
    blocks: bool = True


def rect_house(*, name: str, rooms: list[RectRoom], objects: list[RectObject],
               doors: list[tuple[str, tuple[int, int], tuple[tuple[float, float], tuple[float, float]]]],
               windows: list[tuple[str, int, tuple[tuple[float, float], tuple[float, float]]]] = (),  # type: ignore[assignment]
               resolution: float = 0.05, margin_m: float = 0.25) -> SemanticMap:
    """Rasterise rectangular rooms, walls on room borders, door gaps and object boxes."""
    xs = [r.x0 for r in rooms] + [r.x1 for r in rooms]
    ys = [r.y0 for r in rooms] + [r.y1 for r in rooms]
    grid = GridSpec.covering(min(xs) - margin_m, min(ys) - margin_m, max(xs) + margin_m,
                             max(ys) + margin_m, resolution=resolution, rounding="nearest")
    xx, yy = grid.cell_centres()
    room_ids = np.full(grid.shape, -1, dtype=np.int32)
    walls = np.zeros(grid.shape, dtype=bool)
    half = resolution / 2
    for r in rooms:
        inside = (xx > r.x0) & (xx < r.x1) & (yy > r.y0) & (yy < r.y1)
        room_ids[inside] = r.id
        border = ((np.abs(xx - r.x0) <= half) | (np.abs(xx - r.x1) <= half)) & (yy >= r.y0 - half) & (yy <= r.y1 + half)
        border |= ((np.abs(yy - r.y0) <= half) | (np.abs(yy - r.y1) <= half)) & (xx >= r.x0 - half) & (xx <= r.x1 + half)
        walls |= border
    door_objs = []
    for did, rids, seg in doors:
        (x0, y0), (x1, y1) = seg
        gap = (xx >= min(x0, x1) - half) & (xx <= max(x0, x1) + half) & \
              (yy >= min(y0, y1) - half) & (yy <= max(y0, y1) + half)
        walls &= ~gap
        # The door cells belong to the first room so every free cell has a room.
        room_ids[gap & (room_ids < 0)] = rids[0]
        door_objs.append(Door(id=did, room_ids=rids, segment=seg))
    room_ids[walls] = -1
    traversable = (room_ids >= 0) & ~walls
    objs = []
    for o in objects:
        fp = ((o.cx - o.sx / 2, o.cy - o.sy / 2), (o.cx + o.sx / 2, o.cy - o.sy / 2),
              (o.cx + o.sx / 2, o.cy + o.sy / 2), (o.cx - o.sx / 2, o.cy + o.sy / 2))
        row, col = grid.world_to_cell(o.cx, o.cy)
        rid = int(room_ids[row, col]) if grid.contains_cell(row, col) else -1
        objs.append(ObjectInstance(id=o.id, category=o.category, room_id=rid if rid >= 0 else None,
                                   footprint=fp, center=(o.cx, o.cy), z_min=0.0, z_max=o.z_max,
                                   parent_id=o.parent_id))
        if o.blocks:
            box = (np.abs(xx - o.cx) <= o.sx / 2) & (np.abs(yy - o.cy) <= o.sy / 2)
            traversable &= ~box
    room_objs = [Room(id=r.id, type=r.type,
                      polygon=((r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)))
                 for r in rooms]
    win_objs = [Window(id=wid, room_id=rid, segment=seg) for wid, rid, seg in windows]
    return SemanticMap(name=name, grid=grid, traversable=traversable, walls=walls,
                       room_ids=room_ids, rooms=tuple(room_objs), objects=tuple(objs),
                       doors=tuple(door_objs), windows=tuple(win_objs),
                       metadata={"generator": "map2route.semantic_map.synthetic.rect_house"})


def two_room_house() -> SemanticMap:
    """A 6 m x 4 m house: bedroom (x 0..3) | kitchen (x 3..6), a 1 m door at x=3, y 1.5..2.5.

    Bedroom: a bed (centre 1.0, 3.0; 1.2 x 1.6 m), two chairs (0.5, 0.8) and (2.3, 1.0),
    a lamp on a side table, two windows. Kitchen: a fridge (5.5, 3.5), a dining table (4.5, 1.5)
    with an apple on it, a chair (4.5, 2.6), one window.
    """
    rooms = [RectRoom(0, RoomType.BEDROOM, 0.0, 0.0, 3.0, 4.0),
             RectRoom(1, RoomType.KITCHEN, 3.0, 0.0, 6.0, 4.0)]
    objects = [
        RectObject("bed_0", "bed", 1.0, 3.0, 1.2, 1.6, z_max=0.6),
        RectObject("chair_0", "chair", 0.5, 0.8, 0.4, 0.4, z_max=0.9),
        RectObject("chair_1", "chair", 2.3, 1.0, 0.4, 0.4, z_max=0.9),
        RectObject("side_table_0", "side_table", 2.5, 3.5, 0.4, 0.4, z_max=0.5),
        RectObject("desk_lamp_0", "desk_lamp", 2.5, 3.5, 0.2, 0.2, z_max=0.9,
                   parent_id="side_table_0", blocks=False),
        RectObject("fridge_0", "fridge", 5.5, 3.5, 0.7, 0.7, z_max=1.8),
        RectObject("dining_table_0", "dining_table", 4.5, 1.5, 1.0, 0.8, z_max=0.75),
        RectObject("apple_0", "apple", 4.5, 1.5, 0.1, 0.1, z_max=0.85,
                   parent_id="dining_table_0", blocks=False),
        RectObject("chair_2", "chair", 4.5, 2.6, 0.4, 0.4, z_max=0.9),
    ]
    doors = [("door_0", (0, 1), ((3.0, 1.5), (3.0, 2.5)))]
    windows = [("window_0", 0, ((0.0, 1.0), (0.0, 2.0))),
               ("window_1", 0, ((1.0, 4.0), (2.0, 4.0))),
               ("window_2", 1, ((6.0, 1.0), (6.0, 2.0)))]
    return rect_house(name="two_room_house", rooms=rooms, objects=objects, doors=doors,
                      windows=windows)
