"""Moving obstacles from the live scan: clusters tracked over time, with velocity estimates.

Each control step the obstacle points (map frame) are split into what the map explains and
what it does not: points within ``map_clearance`` of an occupied map cell are structure
(walls, furniture) and are not tracked. The rest are clustered (points closer than
``cluster_gap`` join one cluster: connected components of a k-d tree's pairs); a cluster
wider than ``max_extent`` is structure the map lacks (a parked trolley, a new wall) and is left
to the static avoidance. Each small cluster is a disc: its radius is half its extent, and its
centre is the points' mean pushed away from the sensor by ``2 r / pi`` (the mean of a lit
half circle lies that far in front of the centre).

Clusters are matched to tracks greedily, nearest pair first, within ``gate`` metres of the
track's predicted centre; unmatched clusters start tracks, tracks unseen for ``forget_after``
seconds end. A track's velocity is the least-squares slope of its centres over the last
``window`` seconds (a line fit, so one noisy centre moves it little), and it counts as
moving once it has been seen ``min_hits`` times at a speed of at least ``min_speed`` and
``min_travel`` metres from where it was first seen (a static chair's centre, seen from a
moving base, wanders but does not travel); it
remembers the line it walked and its pace, so a person who stops is still expected to set
off again (:meth:`ObstacleTracker.predictions`).

Everything is deterministic: the same points in the same order give the same tracks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from scipy.ndimage import distance_transform_edt
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from map2route.control.errors import ControlError

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True)
class TrackerConfig:
    """Clustering, association and velocity-estimation parameters (metres, seconds)."""

    cluster_gap: float = 0.15
    max_extent: float = 1.0
    map_clearance: float = 0.1
    gate: float = 0.5
    window: float = 0.8
    forget_after: float = 0.6
    min_hits: int = 3
    min_speed: float = 0.25
    #: metres a track must have gone from where it was first seen to count as walking: the
    #: centre of a chair seen from a moving base wanders by a decimetre or two
    min_travel: float = 0.4
    max_speed: float = 3.0
    #: a standing track that has walked may set off again along the line it walked, either
    #: way: for ``restart_horizon`` s (how soon the base can react again) at
    #: ``restart_speed`` m/s (a person setting off is slower than one walking)
    restart_horizon: float = 0.6
    restart_speed: float = 0.5
    #: a base that stands still (or creeps) near a standing walker's line must be off it by
    #: the time they could reach it at their own pace within ``linger_horizon`` s: once they
    #: set off, it takes the tracker a few steps to see it, too late to get out of the way
    linger_horizon: float = 1.0
    #: s of the latest centres that tell a walker of known pace has set off again
    restart_window: float = 0.2


@dataclass
class Track:
    """One tracked obstacle: centre, velocity and radius in the map frame."""

    id: int
    x: float
    y: float
    radius: float
    vx: float = 0.0
    vy: float = 0.0
    hits: int = 1
    last_seen: float = 0.0
    history: list[tuple[float, float, float]] = field(default_factory=list)
    #: unit direction of the last walk, and the fastest pace seen (0: never seen walking)
    axis: tuple[float, float] = (0.0, 0.0)
    walk_speed: float = 0.0
    #: where it was first seen
    origin: tuple[float, float] = (0.0, 0.0)

    @property
    def speed(self) -> float:
        return math.hypot(self.vx, self.vy)

    def predict(self, t: float) -> tuple[float, float]:
        """The centre at time ``t`` at constant velocity from the last sighting."""
        dt = t - self.last_seen
        return self.x + self.vx * dt, self.y + self.vy * dt


@dataclass(frozen=True)
class StaticMap:
    """Distance (m) from every cell to the nearest occupied cell of the map, for filtering."""

    distance: NDArray[np.float64]
    origin_x: float
    origin_y: float
    resolution: float

    @classmethod
    def from_occupied(cls, occupied: NDArray[np.bool_], origin_x: float, origin_y: float,
                      resolution: float) -> StaticMap:
        """``occupied`` is ``(rows, cols)`` with row 0 at ``origin_y`` (OccupancyGrid order)."""
        occ = np.asarray(occupied, dtype=bool)
        if occ.ndim != 2 or not resolution > 0:
            raise ControlError(f"a static map needs a 2-D grid and a resolution > 0, got shape "
                               f"{occ.shape} and {resolution}")
        dist = (distance_transform_edt(~occ) * resolution if occ.any()
                else np.full(occ.shape, np.inf))
        return cls(np.asarray(dist, dtype=np.float64), float(origin_x), float(origin_y),
                   float(resolution))

    def clearance(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Distance from each ``(N, 2)`` map-frame point's cell to the map; 0 off the grid."""
        rows, cols = self.distance.shape
        c = np.floor((points[:, 0] - self.origin_x) / self.resolution).astype(np.int64)
        r = np.floor((points[:, 1] - self.origin_y) / self.resolution).astype(np.int64)
        inside = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
        out = np.zeros(len(points))
        # Half a cell: the distance is between cell centres, the point is anywhere in its cell.
        out[inside] = np.maximum(self.distance[r[inside], c[inside]] - self.resolution / 2, 0.0)
        return out


def clusters(points: NDArray[np.float64], gap: float) -> list[NDArray[np.float64]]:
    """``points`` split into groups whose members chain together at most ``gap`` apart.

    Groups come in the order of their first point, so the result is deterministic.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return []
    pairs = cKDTree(pts).query_pairs(gap, output_type="ndarray")
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])),
                       shape=(len(pts), len(pts)))
    _n, labels = connected_components(graph, directed=False)
    _unique, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    return [pts[labels == labels[first[k]]] for k in order]


def disc_of(cluster: NDArray[np.float64], sensor: tuple[float, float]
            ) -> tuple[float, float, float]:
    """``(x, y, radius)`` of the disc a lit cluster belongs to (see the module docstring)."""
    mean = cluster.mean(axis=0)
    extent = float(np.max(np.hypot(*(cluster[:, None, :] - cluster[None, :, :]).T))) \
        if len(cluster) > 1 else 0.0
    radius = max(extent / 2.0, 0.05)
    away = mean - np.asarray(sensor, dtype=np.float64)
    norm = float(np.hypot(*away))
    if norm > 1e-9:
        mean = mean + away / norm * (2.0 * radius / math.pi)
    return float(mean[0]), float(mean[1]), radius


class ObstacleTracker:
    """Tracks the small unmapped clusters of successive scans; see the module docstring."""

    def __init__(self, config: TrackerConfig | None = None) -> None:
        self.config = config or TrackerConfig()
        self.static: StaticMap | None = None
        self.tracks: list[Track] = []
        self._next_id = 0

    def reset(self) -> None:
        self.tracks, self._next_id = [], 0

    def unmapped(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Which ``(N, 2)`` map-frame points the static map does not explain."""
        if self.static is None or len(points) == 0:
            return np.ones(len(points), dtype=bool)
        return self.static.clearance(points) > self.config.map_clearance

    def update(self, t: float, points: NDArray[np.float64], sensor: tuple[float, float]
               ) -> list[Track]:
        """Fold in the map-frame ``points`` seen from ``sensor`` at time ``t``; the tracks."""
        cfg = self.config
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        pts = pts[self.unmapped(pts)]
        discs = []
        for group in clusters(pts, cfg.cluster_gap):
            x, y, r = disc_of(group, sensor)
            if 2.0 * r <= cfg.max_extent:
                discs.append((x, y, r))
        # Greedy association, nearest (track, disc) pair first, ties by index.
        candidates = []
        for i, tr in enumerate(self.tracks):
            px, py = tr.predict(t)
            reach = cfg.gate + min(tr.speed, cfg.max_speed) * max(t - tr.last_seen, 0.0)
            for j, (x, y, _r) in enumerate(discs):
                d = math.hypot(x - px, y - py)
                if d <= reach:
                    candidates.append((d, i, j))
        candidates.sort()
        used_t: set[int] = set()
        used_d: set[int] = set()
        for _d, i, j in candidates:
            if i in used_t or j in used_d:
                continue
            used_t.add(i)
            used_d.add(j)
            self._observe(self.tracks[i], t, *discs[j])
        for j, (x, y, r) in enumerate(discs):
            if j not in used_d:
                self.tracks.append(Track(self._next_id, x, y, r, last_seen=t,
                                         history=[(t, x, y)], origin=(x, y)))
                self._next_id += 1
        self.tracks = [tr for tr in self.tracks if t - tr.last_seen <= cfg.forget_after]
        return self.tracks

    def _observe(self, tr: Track, t: float, x: float, y: float, r: float) -> None:
        cfg = self.config
        tr.history.append((t, x, y))
        tr.history = [h for h in tr.history if t - h[0] <= cfg.window + 1e-9]
        tr.hits += 1
        tr.last_seen = t
        # The radius seen changes with the view; keep the largest recent one (conservative).
        tr.radius = max(r, 0.8 * tr.radius)
        h = np.asarray(tr.history)
        if len(h) >= 2 and h[-1, 0] - h[0, 0] > 1e-6:
            ts = h[:, 0] - h[:, 0].mean()
            denom = float(ts @ ts)
            vx, vy = float(ts @ h[:, 1]) / denom, float(ts @ h[:, 2]) / denom
            speed = math.hypot(vx, vy)
            if speed > cfg.max_speed:
                vx, vy = vx * cfg.max_speed / speed, vy * cfg.max_speed / speed
            vx, vy = self._restart(tr, h, vx, vy)
            tr.vx, tr.vy = vx, vy
            speed = math.hypot(vx, vy)
            travel = math.hypot(tr.x - tr.origin[0], tr.y - tr.origin[1])
            if speed >= cfg.min_speed and tr.hits >= cfg.min_hits and travel >= cfg.min_travel:
                tr.axis = (vx / speed, vy / speed)
                tr.walk_speed = max(tr.walk_speed, speed)
            # The centre of the fitted line at t (less noisy than the latest centre alone).
            tr.x = float(h[:, 1].mean() + vx * (t - h[:, 0].mean()))
            tr.y = float(h[:, 2].mean() + vy * (t - h[:, 0].mean()))
        else:
            tr.x, tr.y = x, y

    def _restart(self, tr: Track, h: NDArray[np.float64], vx: float, vy: float
                 ) -> tuple[float, float]:
        """The velocity of a walker setting off again: the window's line fit lags a restart
        (it averages the standing samples in), so when the last ``restart_window`` s show a
        walker of known pace moving along its line, it is taken to walk at that pace."""
        cfg = self.config
        if tr.walk_speed <= 0.0:
            return vx, vy
        recent = h[h[:, 0] >= h[-1, 0] - cfg.restart_window - 1e-9]
        if len(recent) < 3:
            return vx, vy
        ts = recent[:, 0] - recent[:, 0].mean()
        denom = float(ts @ ts)
        sx, sy = float(ts @ recent[:, 1]) / denom, float(ts @ recent[:, 2]) / denom
        short = math.hypot(sx, sy)
        along = (sx * tr.axis[0] + sy * tr.axis[1]) / short if short > 1e-9 else 0.0
        if short < cfg.min_speed or short <= math.hypot(vx, vy) or abs(along) < math.cos(
                math.radians(30.0)):
            return vx, vy
        sign = 1.0 if along > 0 else -1.0
        v = max(tr.walk_speed, short)
        return sign * v * tr.axis[0], sign * v * tr.axis[1]

    def moving(self) -> list[Track]:
        """The tracks to predict: seen walking (``min_speed`` over ``min_travel``) at least once."""
        return [tr for tr in self.tracks if tr.walk_speed > 0.0]

    def predictions(self, t: float, horizon: float) -> list[Prediction]:
        """Constant-velocity futures of :meth:`moving` tracks at ``t``.

        A walking track goes on at its velocity for ``horizon`` s. A track standing after a
        walk may set off again along the line it walked, either way: two futures of
        ``restart_horizon`` s at ``restart_speed`` (standing still is covered by them). So
        the base neither waits on a person's line nor crosses just in front of a person who
        stopped.
        """
        cfg = self.config
        out = []
        for tr in self.moving():
            x, y = tr.predict(t)
            if tr.speed >= cfg.min_speed:
                out.append(Prediction(x, y, tr.vx, tr.vy, tr.radius, horizon))
            else:
                ux, uy = tr.axis
                v = min(tr.walk_speed, cfg.restart_speed)
                h = min(cfg.restart_horizon, horizon)
                out += [Prediction(x, y, v * ux, v * uy, tr.radius, h),
                        Prediction(x, y, -v * ux, -v * uy, tr.radius, h)]
        return out

    def line_predictions(self, t: float) -> list[Prediction]:
        """Futures of the standing walkers for a base that stays where it is: each may set off
        along its line, either way, at its own pace (``walk_speed``) for ``linger_horizon`` s.

        :meth:`predictions` gives a standing walker short, slow futures so the base may
        still pass it; these longer ones keep a waiting base off the line they walk.
        """
        cfg = self.config
        out = []
        for tr in self.moving():
            if tr.speed >= cfg.min_speed:
                continue
            x, y = tr.predict(t)
            ux, uy = tr.axis
            v = tr.walk_speed
            out += [Prediction(x, y, v * ux, v * uy, tr.radius, cfg.linger_horizon),
                    Prediction(x, y, -v * ux, -v * uy, tr.radius, cfg.linger_horizon)]
        return out


@dataclass(frozen=True)
class Prediction:
    """One future of a tracked obstacle: centre now, velocity, radius, and for how long."""

    x: float
    y: float
    vx: float
    vy: float
    radius: float
    horizon: float


def time_to_conflict(position: tuple[float, float], velocity: tuple[float, float],
                     futures: list[Prediction], clearance: float) -> float:
    """Seconds until the base (a disc of ``clearance`` around ``position``) moving at
    ``velocity`` first comes within a future's radius of it, within that future's horizon.

    ``inf`` when none comes that close in time; 0 when one is already that close and still
    closing (one already inside but moving apart is no conflict: the way out is to keep
    going). Relative motion: ``|d + w s| = R`` with ``d`` the offset and ``w`` the relative
    velocity, solved for the first ``s`` in ``[0, horizon]``.
    """
    best = math.inf
    for f in futures:
        dx, dy = f.x - position[0], f.y - position[1]
        wx, wy = f.vx - velocity[0], f.vy - velocity[1]
        reach = clearance + f.radius
        a = wx * wx + wy * wy
        b = 2.0 * (dx * wx + dy * wy)
        c = dx * dx + dy * dy - reach * reach
        if c <= 0.0:
            if b < 0.0:
                return 0.0
            continue
        if a < 1e-12:
            continue
        disc = b * b - 4.0 * a * c
        if disc < 0.0:
            continue
        s = (-b - math.sqrt(disc)) / (2.0 * a)
        if 0.0 <= s <= f.horizon:
            best = min(best, s)
    return best


def closest_gap(position: tuple[float, float], velocity: tuple[float, float],
                futures: list[Prediction], clearance: float, horizon: float) -> float:
    """The smallest distance (m) between the base's disc of ``clearance`` around ``position``
    moving at ``velocity`` and any future's disc over the next ``horizon`` seconds (each
    future within its own horizon); negative when they would overlap. ``inf`` with none.

    Relative motion ``d + w s`` is closest at ``s* = -d.w / |w|^2``, clipped to the horizon;
    this ranks escapes when no command stays clear: the one that keeps the most room wins.
    """
    best = math.inf
    for f in futures:
        dx, dy = f.x - position[0], f.y - position[1]
        wx, wy = f.vx - velocity[0], f.vy - velocity[1]
        a = wx * wx + wy * wy
        h = min(horizon, f.horizon)
        s = 0.0 if a < 1e-12 else min(max(-(dx * wx + dy * wy) / a, 0.0), h)
        best = min(best, math.hypot(dx + wx * s, dy + wy * s) - clearance - f.radius)
    return best
