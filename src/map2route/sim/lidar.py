"""Simulated LiDAR by ray casting against the world's obstacle layers.

Rays walk the grid cell by cell (an exact grid DDA, compiled with numba because a per-ray
loop in Python would cost tens of milliseconds a scan), so a hit is where the ray enters the
first blocked cell. Dynamic cylinders are intersected analytically. The 2D scan is a
``sensor_msgs/LaserScan`` in the sensor frame; the 3D cloud imitates a Livox Mid-360: 360 deg
horizontal, -7 to +52 deg vertical, hitting walls, object boxes up to their height, and the
floor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from map2route.sim.errors import SimError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.sim.kinematics import Pose2D
    from map2route.sim.world import World


@dataclass(frozen=True)
class LaserConfig:
    """A planar scan: ``beams`` rays from ``angle_min`` over 2 pi (sensor frame = base frame)."""

    beams: int = 360
    range_min: float = 0.1
    range_max: float = 10.0
    angle_min: float = -math.pi

    @property
    def angle_increment(self) -> float:
        return 2.0 * math.pi / self.beams

    def angles(self) -> NDArray[np.float64]:
        return np.asarray(self.angle_min + np.arange(self.beams) * self.angle_increment,
                          dtype=np.float64)


@dataclass(frozen=True)
class PointCloudConfig:
    """A Mid-360-like cloud: ``h_beams`` x ``v_beams`` rays, vertical ``v_min..v_max`` deg."""

    h_beams: int = 180
    v_beams: int = 16
    v_min_deg: float = -7.0
    v_max_deg: float = 52.0
    range_max: float = 10.0
    sensor_height: float = 0.4


@numba.njit(cache=True)
def _dda(blocked: Any, top: Any, rows: int, cols: int, ox: float, oy: float, res: float,
         px: float, py: float, dirs: Any, range_max: float, z0: float, tan_el: Any,
         use_height: bool) -> Any:  # pragma: no cover - compiled
    n = dirs.shape[0]
    out = np.full(n, np.inf)
    gx, gy = (px - ox) / res, (py - oy) / res
    for k in range(n):
        dx, dy = dirs[k, 0], dirs[k, 1]
        c, r = int(np.floor(gx)), int(np.floor(gy))
        step_c = 1 if dx > 0 else -1
        step_r = 1 if dy > 0 else -1
        # Ray parameter (in cells) to the next vertical / horizontal cell boundary.
        t_max_c = ((c + (step_c > 0)) - gx) / dx if dx != 0 else np.inf
        t_max_r = ((r + (step_r > 0)) - gy) / dy if dy != 0 else np.inf
        t_dc = abs(1.0 / dx) if dx != 0 else np.inf
        t_dr = abs(1.0 / dy) if dy != 0 else np.inf
        t = 0.0
        limit = range_max / res
        while t <= limit:
            if r < 0 or r >= rows or c < 0 or c >= cols:
                out[k] = t * res
                break
            if blocked[r, c] and (not use_height or top[r, c] >= z0 + tan_el[k] * t * res):
                out[k] = t * res
                break
            if t_max_c < t_max_r:
                t = t_max_c
                t_max_c += t_dc
                c += step_c
            else:
                t = t_max_r
                t_max_r += t_dr
                r += step_r
    return out


def _march(world: World, ox: float, oy: float, dirs: NDArray[np.float64], range_max: float,
           z0: float | None = None, tan_el: NDArray[np.float64] | None = None
           ) -> NDArray[np.float64]:
    """Exact distance (in the plane) to the first blocked cell along each direction, or inf.

    A grid DDA (Amanatides and Woo, 1987) per ray, compiled with numba: the ray visits every
    cell it crosses, so the distance is where it enters the first blocked one. With ``z0``
    and ``tan_el`` the ray rises (or falls) and only stops in cells whose top is above its
    height where it enters them.
    """
    g = world.map.grid
    heights = np.zeros(dirs.shape[0]) if tan_el is None else np.asarray(tan_el, np.float64)
    return np.asarray(_dda(world.blocked, world.top, g.rows, g.cols, g.origin_x, g.origin_y,
                           g.resolution, ox, oy, np.ascontiguousarray(dirs, np.float64),
                           range_max, 0.0 if z0 is None else z0, heights, z0 is not None))


def _cylinders(world: World, ox: float, oy: float, dirs: NDArray[np.float64], t: float
               ) -> NDArray[np.float64]:
    """Distance along each unit direction to the nearest dynamic cylinder, inf if none."""
    best = np.full(dirs.shape[0], np.inf)
    for cx, cy, r in world.obstacle_centres(t):
        # |o + s d - c|^2 = r^2  ->  s^2 + 2 s (d.(o-c)) + |o-c|^2 - r^2 = 0
        wx, wy = ox - cx, oy - cy
        b = dirs[:, 0] * wx + dirs[:, 1] * wy
        c = wx * wx + wy * wy - r * r
        disc = b * b - c
        ok = disc >= 0
        s = np.where(ok, -b - np.sqrt(np.where(ok, disc, 0.0)), np.inf)
        s = np.where(s < 0, np.where(c <= 0, 0.0, np.inf), s)
        best = np.minimum(best, s)
    return best


def cast_scan(world: World, pose: Pose2D, cfg: LaserConfig, t: float = 0.0
              ) -> NDArray[np.float32]:
    """Ranges (float32, ``cfg.beams``) of a planar scan at ``pose``; ``inf`` for no return."""
    if cfg.beams < 1 or cfg.range_max <= cfg.range_min:
        raise SimError(f"bad laser config {cfg}: need beams >= 1 and range_max > range_min")
    ang = pose.yaw + cfg.angles()
    dirs = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    ranges = np.minimum(_march(world, pose.x, pose.y, dirs, cfg.range_max),
                        _cylinders(world, pose.x, pose.y, dirs, t))
    ranges = np.where((ranges > cfg.range_max) | (ranges < cfg.range_min), np.inf, ranges)
    return ranges.astype(np.float32)


def cast_cloud(world: World, pose: Pose2D, cfg: PointCloudConfig, t: float = 0.0
               ) -> NDArray[np.float32]:
    """``(N, 3)`` float32 points in the sensor frame (x forward, z up) of every return."""
    az = np.arange(cfg.h_beams) * (2.0 * math.pi / cfg.h_beams)
    el = np.radians(np.linspace(cfg.v_min_deg, cfg.v_max_deg, cfg.v_beams))
    azz, ell = np.meshgrid(az, el)
    azz, ell = azz.ravel(), ell.ravel()
    world_az = pose.yaw + azz
    dirs = np.stack([np.cos(world_az), np.sin(world_az)], axis=1)
    tan_el = np.tan(ell)
    horizontal = _march(world, pose.x, pose.y, dirs, cfg.range_max * np.cos(ell).max(),
                        z0=cfg.sensor_height, tan_el=tan_el)
    # Cylinders are as tall as their height: hit only where the ray is below it.
    cyl = _cylinders(world, pose.x, pose.y, dirs, t)
    heights = np.array([o.height for o in world.obstacles]) if world.obstacles else np.zeros(0)
    if heights.size:
        z_at = cfg.sensor_height + tan_el * cyl
        cyl = np.where((z_at >= 0) & (z_at <= heights.max()), cyl, np.inf)
    floor = np.where(tan_el < 0, cfg.sensor_height / np.maximum(-tan_el, 1e-9), np.inf)
    d = np.minimum(np.minimum(horizontal, cyl), floor)
    slant = d / np.cos(ell)
    ok = np.isfinite(d) & (slant <= cfg.range_max)
    d, azz, tan_el = d[ok], azz[ok], tan_el[ok]
    pts = np.stack([d * np.cos(azz), d * np.sin(azz), d * tan_el], axis=1)
    return pts.astype(np.float32)
