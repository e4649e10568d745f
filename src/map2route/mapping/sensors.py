"""Simulated sensors: a Livox Mid-360-like lidar and a Theta Z1-like panorama with instance ids.

The Mid-360 covers 360 deg in azimuth and -7..52 deg in elevation with a non-repetitive
pattern: successive scans fill the field of view more and more densely instead of retracing
the same lines. We draw ray directions from the R2 low-discrepancy sequence (additive
recurrence on the plastic number), continuing the sequence from scan to scan, which has that
property; ranges get Gaussian noise (Mid-360: <= 2 cm at 10 m).
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from map2route.mapping.camera import EquirectCamera, Pose

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.mapping.scene3d import Scene3D

_PLASTIC = 1.324717957244746
_R2 = (1.0 / _PLASTIC, 1.0 / _PLASTIC**2)


@dataclass(frozen=True)
class LidarModel:
    """Mid-360-like lidar mounted at the body origin (the ``/state_estimation`` frame).

    Settings: ``config/mapping.yaml``, ``simulate.lidar``.

    Args:
        points_per_scan: rays per scan (the real sensor gives 20 000 per 0.1 s).
        elevation_deg: vertical field of view (min, max) in the sensor frame.
        range_m: (min, max) valid range.
        range_noise_m: standard deviation of the range noise.
    """

    points_per_scan: int
    elevation_deg: tuple[float, float]
    range_m: tuple[float, float]
    range_noise_m: float

    def directions(self, scan_index: int) -> NDArray[np.float64]:
        """Unit ray directions ``(N, 3)`` in the sensor frame for scan number ``scan_index``."""
        k = np.arange(self.points_per_scan, dtype=np.float64) + scan_index * self.points_per_scan
        a = np.mod(0.5 + k * _R2[0], 1.0) * 2.0 * math.pi
        lo, hi = (math.radians(e) for e in self.elevation_deg)
        # Uniform in sin(elevation): equal density per solid angle, as a spinning prism gives.
        s = math.sin(lo) + np.mod(0.5 + k * _R2[1], 1.0) * (math.sin(hi) - math.sin(lo))
        c = np.sqrt(1.0 - s * s)
        return np.stack([c * np.cos(a), c * np.sin(a), s], axis=1)

    def scan(self, scene: Scene3D, pose: Pose, scan_index: int, rng: np.random.Generator
             ) -> NDArray[np.float32]:
        """One scan registered in the map frame: ``(M, 4)`` float32 x, y, z, intensity."""
        dirs_w = self.directions(scan_index) @ pose.rotation.T
        origin = np.asarray(pose.position, dtype=np.float64)
        hit, _, shade = scene.cast(origin[None, :], dirs_w)
        t = hit.astype(np.float64) + rng.normal(0.0, self.range_noise_m, size=hit.shape)
        ok = np.isfinite(t) & (t >= self.range_m[0]) & (t <= self.range_m[1])
        pts = origin + dirs_w[ok] * t[ok, None]
        intensity = 255.0 * shade[ok]
        return np.concatenate([pts, intensity[:, None]], axis=1).astype(np.float32)


@dataclass(frozen=True)
class Panorama:
    """One rendered panorama: RGB image and per-pixel instance ids (0 = no object)."""

    rgb: NDArray[np.uint8]
    instance_ids: NDArray[np.uint16]
    depth: NDArray[np.float32]


def _category_colour(label: str) -> NDArray[np.float64]:
    h = sum((i + 1) * ord(ch) for i, ch in enumerate(label)) % 360

    return np.asarray(colorsys.hsv_to_rgb(h / 360.0, 0.6, 0.9)) * 255.0


def render_panorama(scene: Scene3D, camera: EquirectCamera, pose: Pose) -> Panorama:
    """Render the cropped equirectangular panorama seen from ``pose``.

    Rays go through pixel centres by :meth:`EquirectCamera.pixel_rays`, so a world point that
    appears in pixel ``(r, c)`` projects back into that pixel.
    """
    origin, dirs = camera.pixel_rays(pose)
    t, inst, shade = scene.cast(origin[None, None, :], dirs)
    palette = np.stack([_category_colour(lbl) for lbl in scene.labels])
    palette[0] = (180.0, 180.0, 170.0)
    hit_z = origin[2] + np.where(np.isfinite(t), t, 0.0) * dirs[..., 2]
    floor = (inst == 0) & (hit_z < 0.005) & np.isfinite(t)
    colour = palette[inst]
    colour[floor] = (150.0, 120.0, 90.0)
    rgb = colour * (0.35 + 0.65 * shade[..., None])
    rgb[~np.isfinite(t)] = 0.0
    return Panorama(rgb=np.clip(rgb, 0, 255).astype(np.uint8),
                    instance_ids=inst.astype(np.uint16), depth=t.astype(np.float32))
