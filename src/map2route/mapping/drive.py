"""A simulated drive through every room: waypoints, a collision-free path, timed poses.

The tour visits each room's most open cell (the maximum of the distance to walls and objects
inside the room) and the most open cell of each part of a grid over the room (parts at most
``tour_part_m`` on a side, at least 2 x 2), nearest room first, on the cells at least the
robot's clearance from walls and objects (its largest connected part: the part the robot can reach), with a stop at the
reachable cell that sees most of each room part the robot cannot enter (:func:`look_in_cells`:
a doorway blocked by furniture), optionally with
viewpoints beside large furniture (:func:`furniture_cells`); legs are planned with :func:`map2route.gridsearch.kernel.search` with a cost
that keeps the robot off walls. Poses follow the path at a constant speed; the heading turns
towards the direction of travel at a bounded yaw rate (the Mecanum base could strafe, but
a forward-facing drive is what an operator does when mapping).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from map2route.gridsearch.kernel import search
from map2route.mapping.camera import Pose
from map2route.mapping.errors import MappingError
from map2route.mapping.objects import nearest_room
from map2route.planning.errors import NoPathError
from map2route.semantic_map.categories import STRUCTURE_CATEGORIES

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.semantic_map.model import SemanticMap


#: Per-cell cost factor of the cells only ``squeeze_clearance_m`` clear (:func:`tour_plan`):
#: a leg takes a detour up to this many times as long rather than squeeze.
SQUEEZE_COST = 10.0


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
    """Cells at least ``clearance_m`` from walls and objects.

    A map whose traversable layer is already eroded by ``metadata["robot_radius_m"]`` (every
    ProcTHOR scene: 0.2 m) is eroded only by the rest; eroding it by the whole clearance again
    kept the drive 0.5 m off everything and shut it out of rooms behind 0.8-1.0 m passages.
    """

    eroded = float(str(m.metadata.get("robot_radius_m") or 0.0))
    rest = clearance_m - eroded
    if rest <= m.grid.cells_to_meters(0.5):
        return m.traversable.astype(bool).copy()
    radius = max(1, int(round(m.grid.meters_to_cells(rest))))
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


def sight_blockers(m: SemanticMap, *, min_top_m: float = 1.0) -> NDArray[np.bool_]:
    """Cells that block the sensors' view across the floor: walls and the footprints of
    objects standing on the floor and reaching above ``min_top_m`` (wardrobes, fridges,
    shelves; a bed or a table is looked over from the camera's 0.7 m)."""


    out = m.walls.astype(np.uint8).copy()
    for obj in m.objects:
        # Walls are the wall layer (wall objects run through their doorways).
        if obj.category in STRUCTURE_CATEGORIES or obj.z_min > 0.3 or obj.z_max < min_top_m or len(obj.footprint) < 3:
            continue
        rc = m.grid.worlds_to_cells(np.asarray(obj.footprint, dtype=np.float64))
        cv2.fillPoly(out, [rc[:, ::-1].astype(np.int32).reshape(-1, 1, 2)], 1)
    return out.astype(bool)


def visible_targets(origin: NDArray[np.integer], targets: NDArray[np.integer],
                    blocked: NDArray[np.bool_], *, max_cells: float) -> NDArray[np.bool_]:
    """Which ``targets`` (cells) the ``origin`` cell sees: within ``max_cells`` and no
    ``blocked`` cell on the straight line between (the last half cell, the target's own
    edge, excluded)."""
    tg = np.asarray(targets, dtype=np.float64).reshape(-1, 2)
    o = np.asarray(origin, dtype=np.float64)
    out = np.zeros(len(tg), dtype=bool)
    d = tg - o
    length = np.hypot(d[:, 0], d[:, 1])
    near = np.flatnonzero(length <= max_cells)
    if not len(near):
        return out
    n = max(2, int(math.ceil(float(length[near].max()) * 2)) + 1)
    w = np.linspace(0.0, 1.0, n)
    pts = o[None, None, :] + w[None, :, None] * d[near][:, None, :]
    short = w[None, :] * length[near][:, None] > length[near][:, None] - 0.5
    r = np.clip(np.rint(pts[..., 0]).astype(np.int64), 0, blocked.shape[0] - 1)
    c = np.clip(np.rint(pts[..., 1]).astype(np.int64), 0, blocked.shape[1] - 1)
    out[near] = ~(blocked[r, c] & ~short).any(axis=1)
    return out


def look_in_cells(m: SemanticMap, reach: NDArray[np.bool_], *, near_m: float = 1.5,
                  min_m2: float = 1.0, range_m: float = 6.0, max_views: int = 2,
                  stride: int = 4, max_candidates: int = 1500
                  ) -> list[tuple[int, tuple[int, int]]]:
    """Viewpoints that look into the parts of rooms the robot cannot enter.

    A room's "unseen" floor is its traversable cells farther than ``near_m`` from every
    ``reach`` cell (a bedroom whose beds and dressers leave only a pocket narrower than the
    robot, a living room behind a 0.25 m gap between furniture). Where that floor covers at least
    ``min_m2``, the reachable cell (on a ``stride``-cell lattice) that sees most of it within
    ``range_m`` past walls and tall furniture (:func:`sight_blockers`) becomes a viewpoint
    (typically the doorway); up to ``max_views`` per room, each for the floor the earlier
    ones do not see. Returns ``(room id of the viewpoint's cell, cell)`` pairs.
    """


    if not reach.any():
        return []
    to_reach = cv2.distanceTransform((~reach).astype(np.uint8), cv2.DIST_L2, 5)
    far = m.grid.cells_to_meters(to_reach) > near_m
    blocked = sight_blockers(m)
    reach_cells = m.grid.meters_to_cells(range_m)
    cand = np.zeros_like(reach)
    cand[::stride, ::stride] = reach[::stride, ::stride]
    out: list[tuple[int, tuple[int, int]]] = []
    for room in m.rooms:
        unseen = m.traversable & (m.room_ids == room.id) & far
        if m.grid.cells_to_square_meters(unseen.sum()) < min_m2:
            continue
        tgt = np.argwhere(unseen)[::2]
        for _ in range(max_views):
            if m.grid.cells_to_square_meters(2 * len(tgt)) < min_m2:
                break
            # Candidates within range of the unseen floor.
            to_unseen = cv2.distanceTransform((~unseen).astype(np.uint8), cv2.DIST_L2, 5)
            dist = m.grid.cells_to_meters(to_unseen)
            origins = np.argwhere(cand & (dist <= range_m))
            if not len(origins):
                break
            if len(origins) > max_candidates:  # bound the cost in large open plans
                origins = origins[np.linspace(0, len(origins) - 1, max_candidates).astype(int)]
            counts = np.asarray([visible_targets(o, tgt, blocked, max_cells=reach_cells).sum()
                                 for o in origins])
            best = int(np.argmax(counts))
            # Each target stands for 2 cells (every second one is kept).
            if m.grid.cells_to_square_meters(2 * counts[best]) < 0.5 * min_m2:
                break
            cell = (int(origins[best][0]), int(origins[best][1]))
            # A doorway cell may belong to no room: the tour files it under the nearest one.
            out.append((nearest_room(m.room_ids, *cell, max_cells=20), cell))
            tgt = tgt[~visible_targets(origins[best], tgt, blocked, max_cells=reach_cells)]
            unseen = np.zeros_like(unseen)
            unseen[tgt[:, 0], tgt[:, 1]] = True
    return out


def tour_cells(m: SemanticMap, *, clearance_m: float = 0.3, part_m: float = 3.0,
               furniture_m2: float = 0.0, furniture_reach_m: float = 1.0,
               look_in: bool = True, squeeze_clearance_m: float | None = None
               ) -> tuple[NDArray[np.int64], tuple[int, ...]]:
    """Grid cells of a path through every reachable room and the rooms it visits.

    Raises:
        MappingError: no room has free space for the robot.
    """
    cells, rooms, _ = tour_plan(m, clearance_m=clearance_m, part_m=part_m,
                                furniture_m2=furniture_m2, furniture_reach_m=furniture_reach_m,
                                look_in=look_in, squeeze_clearance_m=squeeze_clearance_m)
    return cells, rooms


def tour_plan(m: SemanticMap, *, clearance_m: float = 0.3, part_m: float = 3.0,
              furniture_m2: float = 0.0, furniture_reach_m: float = 1.0,
              look_in: bool = True, squeeze_clearance_m: float | None = None
              ) -> tuple[NDArray[np.int64], tuple[int, ...], NDArray[np.bool_]]:
    """:func:`tour_cells`, and which of the cells are look-in viewpoints
    (:func:`look_in_cells`), where the drive pauses.

    With ``squeeze_clearance_m`` (below ``clearance_m``) the robot also drives through
    passages that leave only that much clearance, as an operator edges a mapping robot
    between furniture into a room it could not enter otherwise; such cells cost
    :data:`SQUEEZE_COST` times as much, so every leg keeps ``clearance_m`` where it can.

    Raises:
        MappingError: no room has free space for the robot.
    """


    roomy = _free_space(m, clearance_m)
    squeeze = squeeze_clearance_m or 0.0
    free = (_free_space(m, squeeze) | roomy) if 0.0 < squeeze < clearance_m else roomy.copy()
    # Waypoints only where the robot can get: the connected part of the free space that holds
    # most of the roomy cells (a room's most open cell may sit in a pocket behind furniture
    # the robot cannot reach; a room behind a passage narrower than the roomy clearance is
    # reached through it).
    n_parts, parts_lab = cv2.connectedComponents(free.astype(np.uint8), connectivity=8)
    if n_parts > 2:
        weight = roomy if roomy.any() else free
        free = parts_lab == int(np.argmax(np.bincount(parts_lab[weight], minlength=n_parts)[1:]) + 1)
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
        n_r = max(2, int(math.ceil(m.grid.cells_to_meters(rr.max() - rr.min() + 1) / part_m)))
        n_c = max(2, int(math.ceil(m.grid.cells_to_meters(cc.max() - cc.min() + 1) / part_m)))
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
    looks: set[tuple[int, int]] = set()
    if look_in:
        # Rooms (or parts) the robot cannot enter are looked into from the best reachable cell.
        for rid, cell in look_in_cells(m, free):
            targets.append((rid, cell))
            looks.add(cell)
    if furniture_m2 > 0:
        # Beside large furniture, unless a waypoint of the room is already within 1 m.
        for rid, cell in furniture_cells(m, free, min_area_m2=furniture_m2,
                                         reach_m=furniture_reach_m):
            if all(t[0] != rid or m.grid.cells_to_meters(
                    math.hypot(cell[0] - t[1][0], cell[1] - t[1][1])) > 1.0 for t in targets):
                targets.append((rid, cell))
    if not targets:
        msg = (f"Scene {m.name!r}: no room has a free cell {clearance_m} m from walls and "
               "objects; lower the drive clearance")
        raise MappingError(msg)
    # Cost on entering a cell: higher near obstacles, so the drive keeps to the middle.
    clear_m = m.grid.cells_to_meters(clear)
    cost = np.where(free, 1.0 / np.maximum(clear_m, 0.05), np.inf)
    # Squeezing is for where no roomy way leads: its cells cost SQUEEZE_COST times as much.
    cost = np.where(free & ~roomy, SQUEEZE_COST * cost, cost)
    first_room, here_cell = targets[0]
    visited = [first_room]
    remaining = list(targets[1:])
    cells = [np.asarray([here_cell], dtype=np.int64)]
    dwell = [np.asarray([here_cell in looks])]
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
        stop = np.zeros(len(cells[-1]), dtype=bool)
        if nxt[1] in looks and len(stop):
            stop[-1] = True
        dwell.append(stop)
        here = np.asarray(nxt[1])
        if nxt[0] != visited[-1]:
            visited.append(nxt[0])
    order = visited
    return np.concatenate(cells), tuple(order), np.concatenate(dwell)


def plan_drive(m: SemanticMap, *, speed_mps: float = 0.5, yaw_rate: float = 1.0,
               clearance_m: float = 0.3, minutes: float | None = None, dt: float = 0.05,
               part_m: float = 3.0, furniture_m2: float = 0.0,
               furniture_reach_m: float = 1.0, look_in: bool = True,
               dwell_s: float = 3.0, squeeze_clearance_m: float | None = None) -> Drive:
    """Timed poses along :func:`tour_cells`, repeated back and forth to fill ``minutes``.

    At each look-in viewpoint the robot stops for ``dwell_s`` (the camera takes a few
    panoramas and the lidar fills in what it sees through the doorway: an object must be
    seen twice to be kept), on the viewpoint's cell itself: the path is smoothed by a 0.5 m
    moving average, blended back to the unsmoothed path over that window around each stop."""
    cells, rooms, stops = tour_plan(m, clearance_m=clearance_m, part_m=part_m,
                                    furniture_m2=furniture_m2,
                                    furniture_reach_m=furniture_reach_m, look_in=look_in,
                                    squeeze_clearance_m=squeeze_clearance_m)
    pts = m.grid.cells_to_worlds(cells)
    if minutes is not None:
        want = minutes * 60.0 * speed_mps
        seq = [pts]
        flags = [stops]
        length = float(np.sum(np.hypot(*np.diff(pts, axis=0).T))) if len(pts) > 1 else 0.0
        if length <= 0.0:
            msg = f"Scene {m.name!r}: the tour has one room; a drive of {minutes} min cannot move"
            raise MappingError(msg)
        total = length
        while total < want:
            seq.append(seq[-1][::-1][1:])
            flags.append(flags[-1][::-1][1:])
            total += length
        pts = np.concatenate(seq)
        stops = np.concatenate(flags)
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
    raw = xy.copy()
    # Smooth the 5 cm grid staircase with a 0.5 m moving average.
    win = max(1, int(round(0.5 / (speed_mps * dt))))
    if len(xy) > win:
        kernel = np.ones(win) / win
        padded = np.pad(xy, ((win // 2, win - 1 - win // 2), (0, 0)), mode="edge")
        xy = np.stack([np.convolve(padded[:, i], kernel, mode="valid") for i in range(2)], axis=1)
    if dwell_s > 0 and stops.any():
        # The average pulls a stop at the end of a leg back along the leg (0.12 m at a
        # doorway one drives into and out of): blend back to the stop cell itself over the
        # window, so the robot looks in from the cell that was chosen.
        for s_stop in s[np.flatnonzero(stops)]:
            if s_stop <= s_end:
                i = min(n - 1, int(np.searchsorted(sq, s_stop)))
                lo, hi = max(0, i - win), min(n, i + win + 1)
                w = (1.0 - np.abs(np.arange(lo, hi) - i) / (win + 1))[:, None]
                xy[lo:hi] = w * raw[lo:hi] + (1.0 - w) * xy[lo:hi]
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
    if dwell_s > 0 and stops.any():
        repeat = np.ones(n, dtype=np.int64)
        for s_stop in s[np.flatnonzero(stops)]:
            if s_stop <= s_end:
                i = min(n - 1, int(np.searchsorted(sq, s_stop)))
                repeat[i] += int(round(dwell_s / dt))
        xy, yaw = np.repeat(xy, repeat, axis=0), np.repeat(yaw, repeat)
        n = len(xy)
        if minutes is not None:
            n = min(n, int(math.floor(minutes * 60.0 / dt)) + 1)
            xy, yaw = xy[:n], yaw[:n]
        times = np.arange(n, dtype=np.float64) * dt
    return Drive(times=times, xy=xy, yaw=yaw, visited_rooms=rooms)
