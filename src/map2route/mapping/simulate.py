"""``map2route map simulate``: drive a simulated robot through a scene and record a bag.

The robot follows :func:`map2route.mapping.drive.plan_drive`; at ``lidar_hz`` it records a
Mid-360-like scan (:class:`~map2route.mapping.sensors.LidarModel`), at ``odom_hz`` its pose and
at ``camera_hz`` a cropped Theta Z1 panorama with its instance-id image
(:func:`~map2route.mapping.sensors.render_panorama`), all into one MCAP bag
(:mod:`map2route.mapping.bag`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.progress import Progress

from map2route.mapping.bag import INSTANCE_TOPIC, BagWriter
from map2route.mapping.camera import EquirectCamera
from map2route.mapping.config import construct, mapping_yaml
from map2route.mapping.drive import plan_drive
from map2route.mapping.scene3d import OpenStorage, Scene3D
from map2route.mapping.sensors import LidarModel, render_panorama

if TYPE_CHECKING:
    from map2route.semantic_map.model import SemanticMap


@dataclass(frozen=True)
class SimConfig:
    """Simulator settings (``config/mapping.yaml``, section ``simulate``; :meth:`from_yaml`).

    Args:
        lidar_hz, odom_hz, camera_hz: message rates.
        body_height_m: height of the body (lidar) frame above the floor.
        speed_mps: driving speed; clearance_m: distance the drive keeps from walls and objects
            (a map already eroded by its ``robot_radius_m`` is eroded by the rest only);
            squeeze_clearance_m: ... or this, where no way with ``clearance_m`` leads on
            (:func:`~map2route.mapping.drive.tour_plan`; 0: never less than ``clearance_m``).
        tour_part_m: the drive visits the most open cell of each part of a grid over each
            room, parts at most this long on a side (:func:`~map2route.mapping.drive.tour_cells`).
        tour_furniture_m2, tour_furniture_reach_m: ... and a viewpoint on each of the four
            sides of every object with a footprint at least this large, within this much of
            its radius (:func:`~map2route.mapping.drive.furniture_cells`; 0 m^2: none).
        tour_look_in, tour_look_in_dwell_s: ... and a stop of this long at the reachable cell
            that sees most of each room part the robot cannot enter
            (:func:`~map2route.mapping.drive.look_in_cells`).
        wall_height_m: wall and ceiling height of the 3D scene; door_lintels: the wall over
            each door, from its top up (:meth:`~map2route.mapping.scene3d.Scene3D.from_map`).
        image_width, crop_rows: panorama size (1920 and 640 on the robot).
        open_storage, open_storage_panel_m, open_storage_board_gap_m: categories built as
            an open frame (back, sides, shelf boards) instead of a solid box, the frame's
            panel thickness and largest gap between boards (:class:`~map2route.mapping.scene3d.OpenStorage`).
        lidar: the lidar model.
        seed: random seed of the range noise.
        seen_min_px: the score's test of what a drive showed: an object is shown when its
            instance-id pixels in one panorama reach this many at 960 px wide (scaled by
            ``(W / 960)^2`` for a ``W``-wide panorama; :func:`~map2route.mapping.bag.instance_pixels`).
        camera_xyz, camera_rpy: the camera mounting (the ``build:`` section's, so the
            simulated robot is the one the builder assumes).
    """

    lidar_hz: float
    odom_hz: float
    camera_hz: float
    body_height_m: float
    speed_mps: float
    clearance_m: float
    tour_part_m: float
    tour_furniture_m2: float
    tour_furniture_reach_m: float
    wall_height_m: float
    image_width: int
    crop_rows: int
    lidar: LidarModel
    seed: int
    camera_xyz: tuple[float, float, float]
    camera_rpy: tuple[float, float, float]
    tour_look_in: bool
    tour_look_in_dwell_s: float
    open_storage: tuple[str, ...]
    open_storage_panel_m: float
    open_storage_board_gap_m: float
    seen_min_px: int
    door_lintels: bool
    squeeze_clearance_m: float

    @classmethod
    def from_yaml(cls, path: str | Path | None = None, **overrides: Any) -> SimConfig:
        """The ``simulate:`` section of ``config/mapping.yaml`` (overlaid with ``path``), with
        the camera mounting of its ``build:`` section, then ``overrides``.

        Raises:
            MappingError: a parameter is unknown or missing.
        """

        where = str(path) if path is not None else "config/mapping.yaml"
        raw = mapping_yaml(path)
        sim = dict(raw["simulate"])
        lid = dict(sim.pop("lidar", {}))
        for key in ("elevation_deg", "range_m"):
            if key in lid:
                lid[key] = tuple(float(v) for v in lid[key])
        sim["lidar"] = construct(LidarModel, lid, where=f"{where} simulate.lidar")
        if "open_storage" in sim:
            sim["open_storage"] = tuple(str(v) for v in sim["open_storage"])
        for key in ("camera_xyz", "camera_rpy"):
            sim[key] = tuple(float(v) for v in raw["build"][key])
        return construct(cls, {**sim, **overrides}, where=f"{where} simulate")

    @property
    def camera(self) -> EquirectCamera:
        return EquirectCamera(width=self.image_width, crop_rows=self.crop_rows,
                              xyz=self.camera_xyz, rpy=self.camera_rpy)

    @property
    def storage(self) -> OpenStorage:
        return OpenStorage(categories=frozenset(self.open_storage),
                           panel_m=self.open_storage_panel_m,
                           board_gap_m=self.open_storage_board_gap_m)


@dataclass(frozen=True)
class SimResult:
    """What a simulation wrote."""

    bag: Path
    duration_s: float
    scans: int
    images: int
    points: int
    visited_rooms: tuple[int, ...]


def simulate(m: SemanticMap, out: str | Path, *, config: SimConfig | None = None,
             minutes: float | None = None, progress: bool = True) -> SimResult:
    """Record a simulated drive through ``m`` into the MCAP bag ``out``.

    Raises:
        MappingError: the bag exists, open3d is missing, or no room is reachable.
    """

    cfg = config or SimConfig.from_yaml()
    scene = Scene3D.from_map(m, wall_height_m=cfg.wall_height_m, open_storage=cfg.storage,
                             door_lintels=cfg.door_lintels)
    drive = plan_drive(m, speed_mps=cfg.speed_mps, clearance_m=cfg.clearance_m, minutes=minutes,
                       part_m=cfg.tour_part_m, furniture_m2=cfg.tour_furniture_m2,
                       furniture_reach_m=cfg.tour_furniture_reach_m,
                       look_in=cfg.tour_look_in, dwell_s=cfg.tour_look_in_dwell_s,
                       squeeze_clearance_m=cfg.squeeze_clearance_m)
    camera = cfg.camera
    rng = np.random.default_rng(cfg.seed)
    events: list[tuple[float, int]] = []  # (time, kind) kind: 0 odom, 1 scan, 2 image
    for kind, hz in ((0, cfg.odom_hz), (1, cfg.lidar_hz), (2, cfg.camera_hz)):
        n = int(np.floor(drive.duration_s * hz)) + 1
        events.extend((i / hz, kind) for i in range(n))
    events.sort()
    scans = images = points = 0
    with BagWriter(out) as bag, Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task(f"simulating {m.name}", total=len(events))
        bag.labels(0, scene.labels, scene.object_ids)
        for t, kind in events:
            t_ns = int(round(t * 1e9))
            pose = drive.pose_at(t, height_m=cfg.body_height_m)
            if kind == 0:
                bag.odometry(t_ns, pose)
            elif kind == 1:
                pts = cfg.lidar.scan(scene, pose, scans, rng)
                bag.scan(t_ns, pts)
                scans += 1
                points += len(pts)
            else:
                pano = render_panorama(scene, camera, pose)
                bag.image(t_ns, pano.rgb)
                bag.image(t_ns, pano.instance_ids, topic=INSTANCE_TOPIC)
                images += 1
            bar.advance(task)
    return SimResult(bag=Path(out), duration_s=drive.duration_s, scans=scans, images=images,
                     points=points, visited_rooms=drive.visited_rooms)
