"""A simulated drive through every room: waypoints, a collision-free path, timed poses.

The tour visits each room's most open cell (the maximum of the distance to walls and objects
inside the room) and the most open cell of each part of a grid over the room (parts at most
``tour_part_m`` on a side, at least 2 x 2), nearest room first, on the traversable layer shrunk by the robot's
clearance (its largest connected part: the part the robot can reach), optionally with
viewpoints beside large furniture (:func:`furniture_cells`); legs are planned with :func:`map2route.planning.grid_search.search` with a cost
that keeps the robot off walls. Poses follow the path at a constant speed; the heading turns
towards the direction of travel at a bounded yaw rate (the Mecanum base could strafe, but
a forward-facing drive is what an operator does when mapping).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from map2route.mapping.camera import Pose
from map2route.mapping.errors import MappingError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap


@dataclass(frozen=True)
class Drive:
    """Timed body poses of a drive.

    Attributes:
        times: ``(N,)`` seconds from the start.
        xy: ``(N, 2)`` map-frame positions.
        yaw: ``(N,)`` headings in radians.
        visited_rooms: room ids the tour reached, in order.
    """

    times: NDArray[np.float64]
    xy: NDArray[np.float64]
    yaw: NDArray[np.float64]
    visited_rooms: tuple[int, ...]

    @property
    def duration_s(self) -> float:
        return float(self.times[-1])

    def pose_at(self, t: float, *, height_m: float) -> Pose:
        """The interpolated body pose at time ``t`` (clamped to the drive)."""
        x = float(np.interp(t, self.times, self.xy[:, 0]))
        y = float(np.interp(t, self.times, self.xy[:, 1]))
        yaw = float(np.interp(t, self.times, np.unwrap(self.yaw)))
        return Pose.planar(x, y, height_m, yaw)


def _free_space(m: SemanticMap, clearance_m: float) -> NDArray[np.bool_]:
    import cv2

    radius = max(1, int(round(clearance_m / m.grid.resolution)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return cv2.erode(m.traversable.astype(np.uint8), kernel).astype(bool)


def _polygon_area(poly: tuple[tuple[float, float], ...]) -> float:
    p = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    if len(p) < 3:
        return 0.0
    x, y = p[:, 0], p[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def furniture_cells(m: SemanticMap, free: NDArray[np.bool_], *, min_area_m2: float,
                    reach_m: float) -> list[tuple[int, tuple[int, int]]]:
    """Viewpoints beside large furniture: for every object whose footprint is at least
    ``min_area_m2`` (tables, beds, sofas, counters), the most open free cell (farthest from
    walls and objects) in each of the four sectors (+-45 deg about +x, +y, -x, -y) no
    farther than ``reach_m`` beyond its radius. From one side only a bed's far side, or the
    chairs at a table against a wall, are seen edge-on or not at all. (The nearest cell
    instead put the robot among the chairs, whose masks then took their neighbours.)"""
    import cv2

    rr, cc = np.nonzero(free)
    if len(rr) == 0:
        return []
    xy = m.grid.cells_to_worlds(np.stack([rr, cc], axis=1))
    clear = cv2.distanceTransform(np.pad(m.traversable, 1).astype(np.uint8), cv2.DIST_L2,
                                  5)[1:-1, 1:-1][rr, cc]
    out: list[tuple[int, tuple[int, int]]] = []
    for obj in m.objects:
        if _polygon_area(obj.footprint) < min_area_m2 or obj.room_id is None:
            continue
        d = xy - np.asarray(obj.center)
        dist = np.hypot(d[:, 0], d[:, 1])
        ang = np.arctan2(d[:, 1], d[:, 0])
        near = (dist <= obj.radius_m + reach_m) & (m.room_ids[rr, cc] == obj.room_id)
        for k in range(4):
            off = np.abs(np.angle(np.exp(1j * (ang - k * math.pi / 2))))
            sel = np.flatnonzero(near & (off <= math.pi / 4))
            if len(sel):
                i = int(sel[np.argmax(clear[sel])])
                out.append((int(obj.room_id), (int(rr[i]), int(cc[i]))))
    return out


def tour_cells(m: SemanticMap, *, clearance_m: float = 0.3, part_m: float = 3.0,
               furniture_m2: float = 0.0, furniture_reach_m: float = 1.0
               ) -> tuple[NDArray[np.int64], tuple[int, ...]]:
    """Grid cells of a path through every reachable room and the rooms it visits.

    Raises:
        MappingError: no room has free space for the robot.
    """
    import cv2

    from map2route.planning.errors import NoPathError
    from map2route.planning.grid_search import search

    free = _free_space(m, clearance_m)
    # Waypoints only where the robot can get: the largest connected part of the free space
    # (a room's most open cell may sit in a pocket behind furniture the robot cannot reach).
    n_parts, parts_lab = cv2.connectedComponents(free.astype(np.uint8), connectivity=8)
    if n_parts > 2:
        free = parts_lab == int(np.argmax(np.bincount(parts_lab[free])))
    clear = cv2.distanceTransform(np.pad(m.traversable, 1).astype(np.uint8), cv2.DIST_L2, 5)[1:-1, 1:-1]
    # Per room: its most open cell, then the most open cell of each part of a grid over the
    # room (at least 2 x 2, parts at most ``part_m`` on a side), so the sensors see every wall,
    # corner and the sides of the furniture along them.
    targets: list[tuple[int, tuple[int, int]]] = []
    rows_idx, cols_idx = np.indices(m.grid.shape)
    for room in m.rooms:
        room_free = free & (m.room_ids == room.id)
        if not room_free.any():
            continue
        rr, cc = np.nonzero(room_free)
        parts = [room_free]
        n_r = max(2, int(math.ceil((rr.max() - rr.min() + 1) * m.grid.resolution / part_m)))
        n_c = max(2, int(math.ceil((cc.max() - cc.min() + 1) * m.grid.resolution / part_m)))
        r_edges = np.linspace(rr.min(), rr.max() + 1, n_r + 1)
        c_edges = np.linspace(cc.min(), cc.max() + 1, n_c + 1)
        for i in range(n_r):
            for j in range(n_c):
                parts.append(room_free & (rows_idx >= r_edges[i]) & (rows_idx < r_edges[i + 1])
                             & (cols_idx >= c_edges[j]) & (cols_idx < c_edges[j + 1]))
        for part in parts:
            if part.sum() < 4:
                continue
            score = np.where(part, clear, -1.0)
            r, c = np.unravel_index(int(np.argmax(score)), score.shape)
            targets.append((room.id, (int(r), int(c))))
    if furniture_m2 > 0:
        # Beside large furniture, unless a waypoint of the room is already within 1 m.
        for rid, cell in furniture_cells(m, free, min_area_m2=furniture_m2,
                                         reach_m=furniture_reach_m):
            if all(t[0] != rid or math.hypot(cell[0] - t[1][0], cell[1] - t[1][1])
                   * m.grid.resolution > 1.0 for t in targets):
                targets.append((rid, cell))
    if not targets:
        msg = (f"Scene {m.name!r}: no room has a free cell {clearance_m} m from walls and "
               "objects; lower the drive clearance")
        raise MappingError(msg)
    # Cost on entering a cell: higher near obstacles, so the drive keeps to the middle.
    res_cells = clear * m.grid.resolution
    cost = np.where(free, 1.0 / np.maximum(res_cells, 0.05), np.inf)
    first_room, here_cell = targets[0]
    visited = [first_room]
    remaining = list(targets[1:])
    cells = [np.asarray([here_cell], dtype=np.int64)]
    here = np.asarray(here_cell)
    while remaining:
        # Finish the current room's waypoints before moving on, nearest first.
        same = [t for t in remaining if t[0] == visited[-1]] or remaining
        nxt = min(same, key=lambda t: float(np.hypot(*(np.asarray(t[1]) - here))))
        remaining.remove(nxt)
        goal = np.zeros(m.grid.shape, dtype=bool)
        goal[nxt[1]] = True
        try:
            path = search(cost, (int(here[0]), int(here[1])), goal)
        except NoPathError:
            continue  # a waypoint the robot cannot reach from here is left out of the tour
        cells.append(path.cells[1:].astype(np.int64))
        here = np.asarray(nxt[1])
        if nxt[0] != visited[-1]:
            visited.append(nxt[0])
    order = visited
    return np.concatenate(cells), tuple(order)


def plan_drive(m: SemanticMap, *, speed_mps: float = 0.5, yaw_rate: float = 1.0,
               clearance_m: float = 0.3, minutes: float | None = None, dt: float = 0.05,
               part_m: float = 3.0, furniture_m2: float = 0.0,
               furniture_reach_m: float = 1.0) -> Drive:
    """Timed poses along :func:`tour_cells`, repeated back and forth to fill ``minutes``."""
    cells, rooms = tour_cells(m, clearance_m=clearance_m, part_m=part_m,
                              furniture_m2=furniture_m2, furniture_reach_m=furniture_reach_m)
    pts = m.grid.cells_to_worlds(cells)
    if minutes is not None:
        want = minutes * 60.0 * speed_mps
        seq = [pts]
        length = float(np.sum(np.hypot(*np.diff(pts, axis=0).T))) if len(pts) > 1 else 0.0
        if length <= 0.0:
            msg = f"Scene {m.name!r}: the tour has one room; a drive of {minutes} min cannot move"
            raise MappingError(msg)
        total = length
        while total < want:
            seq.append(seq[-1][::-1][1:])
            total += length
        pts = np.concatenate(seq)
    seg = np.hypot(*np.diff(pts, axis=0).T)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if minutes is not None:
        s_end = min(s[-1], minutes * 60.0 * speed_mps)
    else:
        s_end = s[-1]
    n = max(2, int(math.ceil(s_end / (speed_mps * dt))) + 1)
    times = np.arange(n, dtype=np.float64) * dt
    sq = np.minimum(times * speed_mps, s_end)
    xy = np.stack([np.interp(sq, s, pts[:, 0]), np.interp(sq, s, pts[:, 1])], axis=1)
    # Smooth the 5 cm grid staircase with a 0.5 m moving average.
    win = max(1, int(round(0.5 / (speed_mps * dt))))
    if len(xy) > win:
        kernel = np.ones(win) / win
        padded = np.pad(xy, ((win // 2, win - 1 - win // 2), (0, 0)), mode="edge")
        xy = np.stack([np.convolve(padded[:, i], kernel, mode="valid") for i in range(2)], axis=1)
    yaw = np.zeros(n)
    heading = 0.0
    for i in range(n):
        j = min(n - 1, i + win)
        dx, dy = xy[j] - xy[i]
        if math.hypot(dx, dy) > 1e-3:
            target = math.atan2(dy, dx)
            err = math.atan2(math.sin(target - heading), math.cos(target - heading))
            heading += float(np.clip(err, -yaw_rate * dt, yaw_rate * dt))
        yaw[i] = heading
    return Drive(times=times, xy=xy, yaw=yaw, visited_rooms=rooms)
