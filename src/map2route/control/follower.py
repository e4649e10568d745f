"""A holonomic pure-pursuit-like route follower with local obstacle avoidance.

The idea follows the path follower of the CMU autonomy stack the paper's Mecanum robot runs
(paper 000, V-A): track a point ``look_ahead`` metres ahead along the route, drive toward it
at a speed limited by ``max_speed``, by braking distance to the goal and to obstacles
(``v <= sqrt(2 a d)``), and by ``max_accel`` between steps, and turn the body to align a
side with the direction of travel with a proportional yaw-rate law (gain ``yaw_rate_gain``,
clipped at ``max_yaw_rate``). A Mecanum base moves in any direction, so heading and travel are
decoupled; a square base may lead with any side, its narrowest profile.

Local avoidance (CMU's local planner picks among precomputed paths; here a simpler fan of
straight candidate directions): the base's rectangle, grown by a side margin, is swept
against the live scan along each candidate direction, from the route direction out
to ``+-max_deviation``; the follower takes the candidate closest to the route direction whose
corridor is free for ``check_distance`` (or to the tracked point, if nearer), else the one
with the most free length. Speed is capped so the base can stop ``stop_distance`` short of the
first return in its corridor; with no room at all it stops (state ``BLOCKED``) rather than
collides, and goes on once the way clears.
"""

from __future__ import annotations

import math
from dataclasses import MISSING, dataclass, fields
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from map2route.config import read_yaml
from map2route.control.detour import DetourConfig, plan_detour
from map2route.control.errors import ControlError
from map2route.control.tracking import (
    ObstacleTracker,
    Prediction,
    StaticMap,
    closest_gap,
    time_to_conflict,
)
from map2route.paths import config_dir

if TYPE_CHECKING:
    from pathlib import Path

    from numpy.typing import NDArray


class FollowerState(str, Enum):
    """What the follower is doing; values match ``map2route_interfaces/FollowerStatus``."""

    IDLE = "idle"
    FOLLOWING = "following"
    SLOWED = "slowed"
    BLOCKED = "blocked"
    ARRIVED = "arrived"


@dataclass(frozen=True)
class FollowerConfig:
    """Follower parameters; defaults live in ``config/path_follower_node.yaml``."""

    max_speed: float
    max_accel: float
    look_ahead: float
    stop_distance: float
    goal_tolerance: float
    yaw_rate_gain: float
    max_yaw_rate_deg: float
    vehicle_length: float
    vehicle_width: float
    side_margin: float
    check_distance: float
    max_deviation_deg: float
    deviation_step_deg: float
    align_heading: bool
    detour_after: float
    #: Moving obstacles (control/tracking.py): seconds of constant-velocity prediction a
    #: command must keep clear of every tracked mover; the gap (m) kept to them beyond the
    #: base's circumscribed radius; the speed cap (m/s) within ``people_distance`` (m) of one.
    yield_horizon: float = 3.0
    people_margin: float = 0.15
    people_speed: float = 0.4
    people_distance: float = 1.5
    #: with no command clear of the movers, the one keeping the most room over this many s
    escape_horizon: float = 1.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type == "float" and not (math.isfinite(v) and v >= 0):
                raise ControlError(f"follower parameter {f.name} must be a number >= 0, got {v}")
        for name in ("max_speed", "max_accel", "look_ahead", "vehicle_length", "vehicle_width",
                     "deviation_step_deg"):
            if getattr(self, name) <= 0:
                raise ControlError(f"follower parameter {name} must be positive")

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> FollowerConfig:
        """Build from a parameter dict (extra keys ignored); a missing key is named."""
        names = [f.name for f in fields(cls) if f.name in params or f.default is MISSING]
        missing = [n for n in names if n not in params]
        if missing:
            raise ControlError(f"follower parameters missing: {missing}")
        values: dict[str, Any] = {n: (bool(params[n]) if n == "align_heading"
                                      else float(params[n])) for n in names}
        return cls(**values)

    @classmethod
    def from_yaml(cls, path: Path | None = None) -> FollowerConfig:
        """Read ``config/path_follower_node.yaml`` (or ``path``)."""
        p = path or config_dir() / "path_follower_node.yaml"
        data = read_yaml(p, what="follower parameters", error=ControlError)
        try:
            params = data["path_follower_node"]["ros__parameters"]
        except (KeyError, TypeError) as err:
            msg = f"cannot read follower parameters from {p}: no path_follower_node.ros__parameters"
            raise ControlError(msg) from err
        return cls.from_params(params)

    @property
    def max_yaw_rate(self) -> float:
        return math.radians(self.max_yaw_rate_deg)



@dataclass(frozen=True)
class FollowerCommand:
    """One control step's output: body twist, state, and progress for status reports."""

    vx: float
    vy: float
    wz: float
    state: FollowerState
    progress: float
    distance_to_goal: float
    nearest_obstacle: float
    message: str = ""

    @property
    def speed(self) -> float:
        return math.hypot(self.vx, self.vy)


def _wrap(a: float) -> float:
    return math.atan2(math.sin(a), math.cos(a))


def _braking_speed(distance: float, decel: float, dt: float) -> float:
    """The largest speed from which ``decel`` stops within ``distance``, one step of ``dt`` late.

    Solves ``v^2 = 2 a (d - v dt)`` (the discrete form of ``v = sqrt(2 a d)``: the command is
    held for one step before the next can brake).
    """
    if not math.isfinite(distance):
        return math.inf
    adt = decel * max(dt, 0.0)
    return -adt + math.sqrt(adt * adt + 2.0 * decel * max(distance, 0.0))


def rotation_is_free(points: NDArray[np.float64], half_length: float, half_width: float,
                     angle: float, *, samples: int = 5) -> bool:
    """Whether turning the base-frame rectangle by ``angle`` (rad) about its centre hits no point.

    The rotation is sampled at ``samples`` intermediate angles; at each a point ``p`` is inside
    when ``R(-a) p`` lies in ``[-hl, hl] x [-hw, hw]``.
    """
    if points.size == 0 or angle == 0.0:
        return True
    for a in np.linspace(0.0, angle, samples + 1)[1:]:
        c, s = math.cos(a), math.sin(a)
        u = c * points[:, 0] + s * points[:, 1]
        v = -s * points[:, 0] + c * points[:, 1]
        if np.any((np.abs(u) <= half_length) & (np.abs(v) <= half_width)):
            return False
    return True


def sweep_free_distance(points: NDArray[np.float64], direction: float, half_length: float,
                        half_width: float, *, margin: float = 0.0) -> float:
    """Exact free travel (m) of the base's rectangle along ``direction`` before it meets a point.

    In the base frame the body is ``[-hl, hl] x [-hw, hw]``; moving it by ``t d`` hits point
    ``p`` when ``p - t d`` enters the rectangle, found per point by the slab method (the
    ray ``p - t d`` against the two pairs of parallel sides). The rectangle is grown by
    ``margin`` so the base keeps that gap; a point met within the first ``margin`` of travel
    (already about that close) only counts if the body itself would hit it.

    Args:
        points: ``(N, 2)`` obstacle points in the base frame.
        direction: travel direction in the base frame (rad).
        half_length, half_width: the body's half sizes (m).
        margin: gap to keep on every side (m).
    """
    if points.size == 0:
        return math.inf
    d = np.array([math.cos(direction), math.sin(direction)])
    grown = _hit_distance(points, d, half_length + margin, half_width + margin)
    # Points already within (about) the margin of the body cannot be kept at the margin any
    # more: for them only a real contact counts, so the base can move away or slip past.
    near = grown <= margin
    if near.any():
        grown[near] = _hit_distance(points[near], d, half_length, half_width)
    return float(max(0.0, grown.min()))


def _hit_distance(points: NDArray[np.float64], d: NDArray[np.float64], hl: float, hw: float
                  ) -> NDArray[np.float64]:
    """Per point: the smallest ``t >= 0`` with ``p - t d`` in the rectangle; inf if never.

    Returns 0 for points already inside.
    """
    t_enter = np.full(len(points), -np.inf)
    t_exit = np.full(len(points), np.inf)
    for axis, half in ((0, hl), (1, hw)):
        q, v = points[:, axis], d[axis]
        if abs(v) < 1e-12:
            outside = np.abs(q) > half
            t_enter = np.where(outside, np.inf, t_enter)
            continue
        t1, t2 = (q - half) / v, (q + half) / v
        t_enter = np.maximum(t_enter, np.minimum(t1, t2))
        t_exit = np.minimum(t_exit, np.maximum(t1, t2))
    hit = (t_enter <= t_exit) & (t_exit >= 0)
    return np.where(hit, np.maximum(t_enter, 0.0), np.inf)


class PathFollower:
    """Follows one route; call :meth:`step` at the control rate with pose and scan points."""

    def __init__(self, config: FollowerConfig) -> None:
        self.config = config
        self.path = np.zeros((0, 2))
        self._s = np.zeros(0)
        self._index = 0
        self._velocity = np.zeros(2)  # world-frame commanded velocity of the last step
        self._side = 0.0  # side kept while avoiding (+1 left, -1 right, 0 not avoiding)
        self.arrived = False
        self._best_remaining = math.inf
        self._stalled = 0.0  # s without getting 0.1 m closer to the goal
        #: detours taken on this route, and whether the last attempt found none (the caller
        #: asks for a global replan then)
        self.detours = 0
        self.needs_replan = False
        #: moving obstacles seen in the scans (map frame), and the time they are tracked in
        self.tracker = ObstacleTracker()
        self._t = 0.0
        #: whether the last step changed its command for a moving obstacle
        self.yielding = False

    def set_static_map(self, occupied: NDArray[np.bool_], origin_x: float, origin_y: float,
                       resolution: float) -> None:
        """The map's occupied cells (row 0 at ``origin_y``): scan points on them are structure,
        not moving obstacles, and are not tracked."""
        self.tracker.static = StaticMap.from_occupied(occupied, origin_x, origin_y, resolution)

    def set_path(self, points: NDArray[np.float64]) -> None:
        """Start following ``points`` ``(N, 2)`` (map frame); an empty path stops the base.

        Raises:
            ControlError: the points are not finite ``(N, 2)``.
        """
        pts = np.asarray(points, dtype=np.float64)
        if pts.size and (pts.ndim != 2 or pts.shape[1] != 2 or not np.isfinite(pts).all()):
            raise ControlError(f"a route must be finite (N, 2) points, got shape {pts.shape}")
        self.path = pts.reshape(-1, 2)
        seg = np.linalg.norm(np.diff(self.path, axis=0), axis=1) if len(self.path) > 1 else []
        self._s = np.concatenate([[0.0], np.cumsum(seg)]) if len(self.path) else np.zeros(0)
        self._index = 0
        self._side = 0.0
        self.arrived = False
        self._best_remaining = math.inf
        self._stalled = 0.0
        self.needs_replan = False

    def _splice(self, way: NDArray[np.float64], j: int) -> None:
        """Follow ``way`` and then the route on from its point ``j``."""
        path = np.concatenate([way, self.path[j + 1:]])
        seg = np.linalg.norm(np.diff(path, axis=0), axis=1)
        self.path, self._s = path, np.concatenate([[0.0], np.cumsum(seg)])
        self._index, self._side = 0, 0.0

    def _check_progress(self, x: float, y: float, yaw: float, pts: NDArray[np.float64],
                        remaining: float, dt: float) -> None:
        """After ``detour_after`` s without progress, plan a local detour (or flag a replan)."""
        cfg = self.config
        if remaining < self._best_remaining - 0.1:
            self._best_remaining, self._stalled = remaining, 0.0
            return
        self._stalled += dt
        if cfg.detour_after <= 0 or self._stalled < cfg.detour_after:
            return
        self._stalled = 0.0
        c, s = math.cos(yaw), math.sin(yaw)
        world = np.column_stack([x + c * pts[:, 0] - s * pts[:, 1],
                                 y + s * pts[:, 0] + c * pts[:, 1]])
        radius = cfg.vehicle_width / 2 + cfg.side_margin + 0.03
        found = plan_detour(world, (x, y), self.path, self._s, self._index,
                            DetourConfig(radius=radius))
        if found is None:
            self.needs_replan = True
            return
        self._splice(*found)
        self.detours += 1
        self._best_remaining = math.inf

    def blocking_points(self, x: float, y: float, yaw: float, scan_points: NDArray[np.float64],
                        *, radius: float = 2.0) -> NDArray[np.float64]:
        """The map-frame points within ``radius`` of the base that shut its way, for a global
        replan: the scan's points less those on a moving obstacle (a person walking by is not
        a wall to plan around)."""
        pts = np.asarray(scan_points, dtype=np.float64).reshape(-1, 2)
        pts = pts[np.hypot(pts[:, 0], pts[:, 1]) <= radius]
        c, s = math.cos(yaw), math.sin(yaw)
        world = np.column_stack([x + c * pts[:, 0] - s * pts[:, 1],
                                 y + s * pts[:, 0] + c * pts[:, 1]])
        keep = np.ones(len(world), dtype=bool)
        for tr in self.tracker.moving():
            px, py = tr.predict(self._t)
            keep &= np.hypot(world[:, 0] - px, world[:, 1] - py) > tr.radius + 0.2
        return world[keep]

    def _track(self, x: float, y: float, yaw: float, pts: NDArray[np.float64], dt: float
               ) -> list[Prediction]:
        """Fold this step's points into the tracker; the futures of the moving obstacles.

        Only with a static map (:meth:`set_static_map`): without one, a wall whose visible
        stretch changes as the base moves looks like a walking cluster, and the base would
        wait for it forever.
        """
        self._t += max(dt, 0.0)
        if self.tracker.static is None:
            return []
        c, s = math.cos(yaw), math.sin(yaw)
        world = np.column_stack([x + c * pts[:, 0] - s * pts[:, 1],
                                 y + s * pts[:, 0] + c * pts[:, 1]])
        self.tracker.update(self._t, world, (x, y))
        return self.tracker.predictions(self._t, self.config.yield_horizon)

    def _yield(self, x: float, y: float, yaw: float, pts: NDArray[np.float64],
               heading: float, v_des: NDArray[np.float64], movers: list[Prediction],
               dt: float) -> tuple[NDArray[np.float64], str] | None:
        """A velocity-obstacle check of ``v_des`` against the movers' predicted paths.

        ``None`` when ``v_des`` (capped at ``people_speed`` near a mover) keeps the base's
        circumscribed disc plus ``people_margin`` clear of every mover for ``yield_horizon``
        seconds. Otherwise the best clear command: among directions all around and three
        speeds, those the scan leaves a second of room for and that stay clear, the one with
        the most progress along the route (standing still counts as 0, so backing away is
        chosen only when waiting is not clear); with nothing clear, the one that puts off
        contact longest (escape).
        """
        cfg = self.config
        hl, hw = cfg.vehicle_length / 2.0, cfg.vehicle_width / 2.0
        clearance = math.hypot(hl, hw) + cfg.people_margin
        gaps = [math.hypot(f.x - x, f.y - y) - f.radius for f in movers]
        capped = v_des
        speed = float(np.linalg.norm(v_des))
        near = min(gaps) <= cfg.people_distance
        if near and speed > cfg.people_speed:
            capped = v_des * (cfg.people_speed / speed)
        h = cfg.yield_horizon
        # A base standing or creeping must also keep off a standing walker's line.
        lines = self.tracker.line_predictions(self._t)
        creep = min(cfg.people_speed, cfg.max_speed) + 1e-9

        def futures(v: float) -> list[Prediction]:
            return movers + lines if v <= creep else movers

        if time_to_conflict((x, y), (float(capped[0]), float(capped[1])),
                            futures(float(np.linalg.norm(capped))), clearance) > h:
            if capped is v_des:
                return None
            return capped, f"slowing near a moving obstacle {min(gaps):.2f} m away"
        best: tuple[float, float, float, float, float] | None = None  # (clear?, scores, angle, v)
        free_at: dict[float, float] = {}
        options = [(heading, 0.0), *_yield_candidates(heading, cfg)]
        for angle, v in options:
            if v > 0:
                rel = _wrap(angle - yaw)
                if rel not in free_at:
                    free_at[rel] = sweep_free_distance(pts, rel, hl, hw, margin=cfg.side_margin)
                room = free_at[rel] - cfg.stop_distance
                if room < v * 1.0 or v > _braking_speed(room, cfg.max_accel, dt):
                    continue
            vel = (v * math.cos(angle), v * math.sin(angle))
            ttc = time_to_conflict((x, y), vel, futures(v), clearance)
            progress = v * math.cos(_wrap(angle - heading))
            # Clear: the most progress. Not clear (escape): the most room kept over the next
            # ``escape_horizon`` s, then the latest contact (once inside the margin every
            # command's time to conflict is 0: standing in a person's way is no escape).
            key = (1.0, progress, 0.0, angle, v) if ttc > h else (
                0.0, round(closest_gap((x, y), vel, futures(v), clearance,
                                  cfg.escape_horizon), 9),
                ttc, angle, v)
            if best is None or key[:3] > best[:3]:
                best = key
        assert best is not None  # standing still is always an option
        clear, _score, _ttc, angle, v = best
        out = np.array([v * math.cos(angle), v * math.sin(angle)])
        gap = min(gaps)
        if v == 0.0:
            return out, f"yielding: waiting for a moving obstacle {gap:.2f} m away to pass"
        if clear and math.cos(_wrap(angle - heading)) > 0:
            return out, f"yielding: passing a moving obstacle {gap:.2f} m away"
        return out, f"yielding: backing away from a moving obstacle {gap:.2f} m away"

    @property
    def length(self) -> float:
        return float(self._s[-1]) if self._s.size else 0.0

    def halt(self, reason: str) -> FollowerCommand:
        """Stop now (state BLOCKED, zero twist) without a step: the base cannot see or cannot
        localise. The next :meth:`step` ramps up from rest."""
        self._velocity[:] = 0.0
        if len(self.path) == 0:
            return FollowerCommand(0.0, 0.0, 0.0, FollowerState.IDLE, 0.0, 0.0, math.inf, reason)
        if self.arrived:
            return FollowerCommand(0.0, 0.0, 0.0, FollowerState.ARRIVED, 1.0, 0.0, math.inf,
                                   "arrived")
        i = self._index
        progress = 1.0 if self.length == 0 else min(1.0, float(self._s[i]) / self.length)
        return FollowerCommand(0.0, 0.0, 0.0, FollowerState.BLOCKED, progress,
                               float(self._s[-1] - self._s[i]), math.inf, reason)

    def _closest(self, x: float, y: float) -> int:
        # Search forward from the last index within a window, so a route that passes the same
        # place twice (circling a table) is followed in order.
        end = int(np.searchsorted(self._s, self._s[self._index] + 2.0 * self.config.look_ahead
                                  + 1.0)) + 1
        window = self.path[self._index:end]
        d = np.hypot(window[:, 0] - x, window[:, 1] - y)
        self._index += int(np.argmin(d))
        return self._index

    def step(self, x: float, y: float, yaw: float, scan_points: NDArray[np.float64],
             dt: float) -> FollowerCommand:
        """One control step.

        Args:
            x, y, yaw: the base's pose in the route's frame.
            scan_points: ``(N, 2)`` obstacle points in the base frame (from the live scan).
            dt: time since the last step (s), for the acceleration limit.
        """
        cfg = self.config
        pts = np.asarray(scan_points, dtype=np.float64).reshape(-1, 2)
        nearest = float(np.hypot(pts[:, 0], pts[:, 1]).min()) if len(pts) else math.inf
        if len(self.path) == 0:
            self._velocity[:] = 0.0
            return FollowerCommand(0.0, 0.0, 0.0, FollowerState.IDLE, 0.0, 0.0, nearest,
                                   "no route")
        i = self._closest(x, y)
        gx, gy = self.path[-1]
        to_goal = math.hypot(gx - x, gy - y)
        remaining = float(self._s[-1] - self._s[i]) + math.hypot(self.path[i, 0] - x,
                                                                self.path[i, 1] - y)
        progress = 1.0 if self.length == 0 else min(1.0, float(self._s[i]) / self.length)
        at_end = i >= len(self.path) - 1 or self._s[-1] - self._s[i] < cfg.look_ahead
        # Arrive once inside the tolerance and slow enough to stop within one step's
        # acceleration, so the final stop obeys max_accel too.
        slow = float(np.linalg.norm(self._velocity)) <= cfg.max_accel * max(dt, 1e-3) + 1e-9
        if self.arrived or (to_goal <= cfg.goal_tolerance and at_end and slow):
            self.arrived = True
            self._velocity[:] = 0.0
            return FollowerCommand(0.0, 0.0, 0.0, FollowerState.ARRIVED, 1.0, to_goal, nearest,
                                   "arrived")
        j = int(np.searchsorted(self._s, self._s[i] + cfg.look_ahead))
        tx, ty = self.path[min(j, len(self.path) - 1)]
        target_dist = math.hypot(tx - x, ty - y)
        heading_world = math.atan2(ty - y, tx - x) if target_dist > 1e-6 else yaw
        desired = _wrap(heading_world - yaw)  # route direction in the base frame

        # Local avoidance: a fan of directions around the route direction; the body's
        # rectangle is swept exactly along each (a Mecanum base may travel sideways). The
        # route direction wins when it is free for ``want`` metres; otherwise the candidate
        # with the best progress x free-length score.
        hl, hw = cfg.vehicle_length / 2.0, cfg.vehicle_width / 2.0
        want = max(min(cfg.check_distance, to_goal), 1e-3)
        step = math.radians(cfg.deviation_step_deg)
        n = int(cfg.max_deviation_deg // cfg.deviation_step_deg)
        direction = desired
        free = sweep_free_distance(pts, desired, hl, hw, margin=cfg.side_margin)
        if free < want + cfg.stop_distance:
            frees = {k: sweep_free_distance(pts, desired + k * step, hl, hw,
                                            margin=cfg.side_margin) for k in range(-n, n + 1)}

            def best_of(ks: list[int]) -> tuple[float, int]:
                scored = [(math.cos(k * step) * min(frees[k] - cfg.stop_distance, want) / want, k)
                          for k in ks if frees[k] - cfg.stop_distance > 1e-3]
                return max(scored) if scored else (-math.inf, 0)

            # Once the base has picked a side of an obstacle it keeps it while the route
            # direction stays blocked; deciding afresh every step makes it dither in front.
            score, k = -math.inf, 0
            if self._side != 0.0:
                score, k = best_of([j for j in frees if j == 0 or (j > 0) == (self._side > 0)])
            if not math.isfinite(score):
                score, k = best_of(list(frees))
            if math.isfinite(score):
                direction, free = desired + k * step, frees[k]
                if k != 0:
                    self._side = 1.0 if k > 0 else -1.0
        else:
            self._side = 0.0
        deviated = abs(_wrap(direction - desired)) > 1e-9

        room = max(0.0, free - cfg.stop_distance)
        speed = min(cfg.max_speed, _braking_speed(to_goal, cfg.max_accel, dt),
                    _braking_speed(room, cfg.max_accel, dt))
        state = FollowerState.FOLLOWING
        message = "following the route"
        if room <= 1e-3:
            speed, state, message = 0.0, FollowerState.BLOCKED, (
                f"blocked: nearest return {nearest:.2f} m, no free direction within "
                f"{cfg.max_deviation_deg:.0f} deg of the route")
        elif deviated or speed < cfg.max_speed - 1e-6 and room < cfg.check_distance:
            state = FollowerState.SLOWED
            message = f"avoiding an obstacle {nearest:.2f} m away" if deviated else \
                f"slowing: {room:.2f} m free ahead"

        # Desired world velocity; moving obstacles may change it; then the acceleration limit.
        world_dir = yaw + direction
        v_des = speed * np.array([math.cos(world_dir), math.sin(world_dir)])
        movers = self._track(x, y, yaw, pts, dt)
        self.yielding = False
        if movers:
            yielded = self._yield(x, y, yaw, pts, heading_world, v_des, movers, dt)
            if yielded is not None:
                v_des, message = yielded
                speed = float(np.linalg.norm(v_des))
                state = FollowerState.SLOWED
                self.yielding = True
                if speed > 1e-9:
                    world_dir = math.atan2(v_des[1], v_des[0])
        dv = v_des - self._velocity
        max_dv = cfg.max_accel * max(dt, 0.0)
        norm = float(np.linalg.norm(dv))
        if norm > max_dv > 0:
            dv *= max_dv / norm
        v = self._velocity + dv if dt > 0 else v_des
        # Never speed up beyond what the braking distance allows, whatever the ramp says.
        if float(np.linalg.norm(v)) > speed:
            v = v_des if speed == 0.0 else v * (speed / float(np.linalg.norm(v)))
        self._velocity = v
        c, s = math.cos(yaw), math.sin(yaw)
        vx, vy = c * v[0] + s * v[1], -s * v[0] + c * v[1]
        wz = 0.0
        if cfg.align_heading:
            # A Mecanum base need not face where it goes: align a side with the direction of
            # travel (any side of a square base, either end of a long one), which is its
            # narrowest profile, by the shortest turn.
            period = math.pi / 2 if abs(hl - hw) < 1e-9 else math.pi
            err = (_wrap(world_dir - yaw) + period / 2) % period - period / 2
            wz = float(np.clip(cfg.yaw_rate_gain * err, -cfg.max_yaw_rate, cfg.max_yaw_rate))
            # Turning swings the corners out: near obstacles turn only if the swept rotation
            # (over this step, plus the margin) touches no scan point.
            swing = math.hypot(hl, hw) + cfg.side_margin
            if nearest <= swing and not rotation_is_free(pts, hl + cfg.side_margin / 2,
                                                         hw + cfg.side_margin / 2,
                                                         wz * max(dt, 0.05)):
                wz = 0.0
        if self.yielding:
            # Waiting for a person to pass is not being stuck: no detour around a moving body.
            self._stalled = 0.0
        else:
            self._check_progress(x, y, yaw, pts, remaining, dt)
        if self.needs_replan and state is FollowerState.BLOCKED:
            message += "; no local detour either: a global replan is needed"
        return FollowerCommand(float(vx), float(vy), wz, state, progress, remaining, nearest,
                               message)


def _yield_candidates(heading: float, cfg: FollowerConfig) -> list[tuple[float, float]]:
    """(world direction, speed) pairs tried when the planned command meets a mover: every
    ``deviation_step_deg`` around the full circle at full, people and half people speed."""
    step = math.radians(cfg.deviation_step_deg)
    n = max(1, int(round(2 * math.pi / step)))
    speeds = sorted({cfg.max_speed, min(cfg.people_speed, cfg.max_speed),
                     min(cfg.people_speed, cfg.max_speed) / 2}, reverse=True)
    return [(heading + k * step, v) for k in range(n) for v in speeds if v > 0]


def scan_to_points(ranges: NDArray[np.floating], angle_min: float, angle_increment: float,
                   *, range_max: float = math.inf) -> NDArray[np.float64]:
    """``(N, 2)`` base-frame points of a LaserScan's finite returns."""
    r = np.asarray(ranges, dtype=np.float64)
    ang = angle_min + np.arange(r.size) * angle_increment
    ok = np.isfinite(r) & (r <= range_max)
    return np.stack([r[ok] * np.cos(ang[ok]), r[ok] * np.sin(ang[ok])], axis=1)
