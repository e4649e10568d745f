"""The incremental semantic-map builder: scans, poses and panoramas in, a SemanticMap out.

:class:`MapBuilder` is the one core both ``map2route map build`` (from a bag) and the
``semantic_map_builder`` ROS node feed. Messages may arrive in any interleaving; a panorama is
fused once a pose at or after its stamp is known (the pose is interpolated).
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from rich.progress import Progress

from map2route.mapping import inputs
from map2route.mapping.bag import open_sensor_bag
from map2route.mapping.camera import EquirectCamera, Pose, interpolate_pose
from map2route.mapping.config import construct, mapping_yaml
from map2route.mapping.detectors import Frame, GroundTruthDetector
from map2route.mapping.errors import MappingError
from map2route.mapping.fusion import FusionConfig, InstanceMap, observe_view
from map2route.mapping.inputs import InputConfig, SensorInputs, stamp_s
from map2route.mapping.instances import small_categories
from map2route.mapping.layers import (
    LayerConfig,
    build_layers,
    ground_and_ceiling,
    merge_open_rooms,
    room_doors,
    room_types,
    split_open_plan,
)
from map2route.mapping.objects import nearest_room, objects_from_instances
from map2route.mapping.voxels import VoxelCloud
from map2route.semantic_map.model import Door, Room, SemanticMap

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from map2route.mapping.detectors import Detector
    from map2route.mapping.layers import Layers
    from map2route.semantic_map.model import ObjectInstance, RoomType, SemanticMap


@dataclass(frozen=True)
class BuildConfig:
    """Builder settings (``config/mapping.yaml``: ``camera``, ``fusion``, ``layers``,
    ``inputs``)."""

    camera_xyz: tuple[float, float, float]
    camera_rpy: tuple[float, float, float]
    cloud_voxel_m: float
    fusion: FusionConfig
    layers: LayerConfig
    inputs: InputConfig = InputConfig()

    @classmethod
    def from_yaml(cls, path: str | Path | None = None) -> BuildConfig:
        """Read ``config/mapping.yaml`` (or ``path``); unknown keys are an error.

        Raises:
            MappingError: the file is missing, or a parameter is unknown or missing.
        """

        where = str(path) if path is not None else "config/mapping.yaml"
        build = dict(mapping_yaml(path)["build"])
        fusion = construct(FusionConfig, dict(build.pop("fusion", {})), where=f"{where} build.fusion")
        layers = construct(LayerConfig, dict(build.pop("layers", {})), where=f"{where} build.layers")
        inputs = dict(build.pop("inputs", {}))
        for key in ("image_topics", "cloud_topics", "odometry_topics", "world_frames"):
            if isinstance(inputs.get(key), list):
                inputs[key] = tuple(str(v) for v in inputs[key])
        build["inputs"] = construct(InputConfig, inputs, where=f"{where} build.inputs")
        for key in ("camera_xyz", "camera_rpy"):
            if key in build:
                build[key] = tuple(float(v) for v in build[key])
        return construct(cls, {**build, "fusion": fusion, "layers": layers},
                         where=f"{where} build")


class MapBuilder:
    """Accumulates sensor data and fuses detections into instances.

    Args:
        detector: the panorama detector.
        config: builder settings.
    """

    def __init__(self, detector: Detector, config: BuildConfig | None = None) -> None:
        self.detector = detector
        self.config = config or BuildConfig.from_yaml()
        self.cloud = VoxelCloud(self.config.cloud_voxel_m)
        self.instances = InstanceMap(self.config.fusion)
        self._small = small_categories(self.config.fusion)
        self._pose_t: list[float] = []
        self._poses: list[Pose] = []
        self._pending: list[tuple[float, NDArray[np.uint8], NDArray[np.uint16] | None]] = []
        self._pending_scans: list[tuple[float, NDArray[np.float64]]] = []
        self._camera_xyz = self.config.camera_xyz
        self._camera_rpy = self.config.camera_rpy
        self.dropped_images = 0
        self.dropped_scans = 0
        self._pending_ids: dict[float, NDArray[np.uint16]] = {}
        self.labels: tuple[str, ...] = ()
        self._camera: EquirectCamera | None = None
        self.images = 0
        self.scans = 0
        self.detections = 0
        self.fuse_seconds = 0.0

    # --- inputs ---------------------------------------------------------------------------
    def add_odometry(self, t: float, pose: Pose) -> None:
        if self._pose_t and t < self._pose_t[-1]:
            i = bisect.bisect(self._pose_t, t)
            self._pose_t.insert(i, t)
            self._poses.insert(i, pose)
        else:
            self._pose_t.append(t)
            self._poses.append(pose)
        self._flush()

    def add_scan(self, t: float, points: NDArray[np.floating]) -> None:
        """A registered scan (map frame, ``(N, >=3)``)."""
        pts = np.asarray(points, dtype=np.float64)[:, :3]
        self.cloud.add(pts[np.isfinite(pts).all(axis=1)])
        self.scans += 1

    def add_body_scan(self, t: float, points: NDArray[np.floating]) -> None:
        """A scan in the body frame (``(N, >=3)``, already moved from the lidar's own frame
        into the body's): placed in the map with the pose at ``t`` once it is known (dropped
        when no pose lies within ``inputs.sync_tolerance_s``)."""
        pts = np.asarray(points, dtype=np.float64)[:, :3]
        self._pending_scans.append((t, pts[np.isfinite(pts).all(axis=1)]))
        self._flush()

    def set_camera_extrinsics(self, xyz: tuple[float, float, float],
                              rpy: tuple[float, float, float]) -> None:
        """The camera's pose in the body frame (from TF; replaces ``camera_xyz``/``camera_rpy``
        for the panoramas fused from now on)."""
        self._camera_xyz = (float(xyz[0]), float(xyz[1]), float(xyz[2]))
        self._camera_rpy = (float(rpy[0]), float(rpy[1]), float(rpy[2]))
        self._camera = None

    def add_labels(self, labels: list[str]) -> None:
        """The simulator's instance-id -> category table."""
        self.labels = tuple(labels)

    def add_image(self, t: float, rgb: NDArray[np.uint8],
                  instance_ids: NDArray[np.uint16] | None = None) -> None:
        """A cropped panorama; ``instance_ids`` only from the simulator."""
        self._pending.append((t, rgb, instance_ids))
        self._flush()

    def add_instance_ids(self, t: float, ids: NDArray[np.uint16]) -> None:
        """The simulator's id image for the panorama stamped ``t`` (either may come first)."""
        for i, (tp, rgb, old) in enumerate(self._pending):
            if tp == t and old is None:
                self._pending[i] = (tp, rgb, ids)
                self._flush()
                return
        self._pending_ids[t] = ids

    def poll(self) -> None:
        """Fuse the panoramas that became ready (an external detector's record came in)."""
        self._flush()

    # --- fusion ---------------------------------------------------------------------------
    def pose_at(self, t: float) -> Pose | None:
        """The pose at ``t`` interpolated between neighbours; ``None`` when no pose lies within
        ``inputs.sync_tolerance_s`` of ``t`` on the side it is missing (before the first, after
        the last, or in a gap of the pose stream wider than twice the tolerance)."""
        tol = self.config.inputs.sync_tolerance_s
        if not self._pose_t or t < self._pose_t[0] - tol:
            return None
        i = bisect.bisect_left(self._pose_t, t)
        if i >= len(self._pose_t):
            return self._poses[-1] if t - self._pose_t[-1] < tol else None
        if i == 0 or self._pose_t[i] == t:
            return self._poses[i]
        t0, t1 = self._pose_t[i - 1], self._pose_t[i]
        if t1 - t0 > 2 * tol:
            return None
        a, b = self._poses[i - 1], self._poses[i]
        w = (t - t0) / (t1 - t0)
        return interpolate_pose(a, b, w)

    def _waiting(self, t: float, ids: NDArray[np.uint16] | None) -> bool:
        """Whether the detector still waits for something of the panorama at ``t``: the
        simulator's id image, or an external detector's detections (its ``ready(t)``)."""
        if isinstance(self.detector, GroundTruthDetector):
            return ids is None
        ready = getattr(self.detector, "ready", None)
        return bool(ready is not None and not ready(t))

    def _flush(self, *, final: bool = False) -> None:
        scans = []
        for t, pts in self._pending_scans:
            if not (self._pose_t and self._pose_t[-1] >= t) and not final:
                scans.append((t, pts))
                continue
            pose = self.pose_at(t)
            if pose is None:
                self.dropped_scans += 1
                continue
            self.add_scan(t, pts @ pose.rotation.T + np.asarray(pose.position))
        self._pending_scans = scans
        keep = []
        for t, rgb, ids in self._pending:
            if ids is None and t in self._pending_ids:
                ids = self._pending_ids.pop(t)
            ready = self._pose_t and self._pose_t[-1] >= t
            if (self._waiting(t, ids) and not final) or not (ready or final):
                keep.append((t, rgb, ids))
                continue
            pose = self.pose_at(t)
            if pose is not None:
                self._fuse(t, rgb, ids, pose)
            else:
                self.dropped_images += 1
        self._pending = keep

    def _fuse(self, t: float, rgb: NDArray[np.uint8], ids: NDArray[np.uint16] | None,
              pose: Pose) -> None:
        start = time.perf_counter()
        rows, cols = rgb.shape[:2]
        if self._camera is None or self._camera.width != cols or self._camera.crop_rows != rows:
            self._camera = EquirectCamera(width=cols, crop_rows=rows, xyz=self._camera_xyz,
                                          rpy=self._camera_rpy)
        dets = self.detector.detect(Frame(rgb=rgb, instance_ids=ids, labels=self.labels,
                                          stamp=t))
        self.detections += len(dets)
        pts = self.cloud.points()
        near = np.sum((pts[:, :2] - np.asarray(pose.position[:2])) ** 2, axis=1) \
            < self.config.fusion.max_range_m**2
        local = pts[near]
        if len(local):
            ground, _ = ground_and_ceiling(local, pose.position[2])
            obs, view = observe_view(self._camera, pose, local, dets, t, ground_z=ground,
                                     config=self.config.fusion, small=self._small)
            self.instances.add_frame(obs, view)
        self.instances.prune(t)
        self.images += 1
        self.fuse_seconds += time.perf_counter() - start

    # --- output ---------------------------------------------------------------------------
    def trajectory(self) -> NDArray[np.float64]:
        return np.asarray([p.position for p in self._poses], dtype=np.float64).reshape(-1, 3)

    def snapshot(self, name: str, *, room_overrides: dict[int, RoomType] | None = None,
                 finish: bool = False) -> SemanticMap:
        """The semantic map built so far.

        Raises:
            MappingError: too little data yet.
        """

        if finish:
            self._flush(final=True)
        traj = self.trajectory()
        if len(traj) == 0:
            msg = "no /state_estimation pose received yet; cannot build a map"
            raise MappingError(msg)
        sensor_z = float(np.median(traj[:, 2]))
        layers = build_layers(self.cloud.points(), traj[:, :2], sensor_z=sensor_z,
                              config=self.config.layers)
        fcfg = self.config.fusion
        objects = objects_from_instances(self.instances.final((layers.walls, layers.grid)), layers, voxel_m=fcfg.voxel_m,
                                         trajectory_xy=traj[:, :2], max_range_m=fcfg.max_range_m,
                                         completion_quantile=fcfg.completion_quantile,
                                         completion_below=fcfg.completion_below,
                                         snap_deg=fcfg.box_snap_deg)
        layers, objects = _split_open_plan(layers, objects, self.config.layers)
        room_list = sorted(int(r) for r in np.unique(layers.room_ids) if r >= 0)
        cats = {rid: [o.category for o in objects if o.room_id == rid] for rid in room_list}
        links: dict[tuple[int, int], float] = {}
        for (a, b), ((x0, y0), (x1, y1)) in layers.doors:
            links[(a, b)] = links.get((a, b), 0.0) + math.hypot(x1 - x0, y1 - y0) + layers.grid.resolution
        types = room_types(cats, room_overrides, links, open_m=self.config.layers.open_plan_m,
                           weak=self.config.layers.weak_room_evidence)
        layers, objects, types = _merge_open_rooms(layers, objects, types, self.config.layers)
        room_list = sorted(types)
        rooms = tuple(Room(id=rid, type=types[rid], polygon=_room_polygon(layers.room_ids == rid,
                                                                          layers.grid),
                           name=f"{types[rid].words} {rid}") for rid in room_list)
        doors = tuple(Door(id=f"door_{i}", room_ids=ab, segment=seg)
                      for i, (ab, seg) in enumerate(layers.doors))
        walls = layers.walls & ~layers.traversable
        meta: dict[str, Any] = {
            "generator": "map2route.mapping.builder", "detector": self.detector.name,
            "scans": self.scans, "images": self.images, "detections": self.detections,
            "dropped_unsynced": {"images": self.dropped_images, "scans": self.dropped_scans},
            "camera_extrinsics": {"xyz": list(self._camera_xyz), "rpy": list(self._camera_rpy)},
            "cloud_voxels": len(self.cloud), "ground_z": layers.ground_z,
            "ceiling_z": layers.ceiling_z if math.isfinite(layers.ceiling_z) else None,
            "config": _jsonable(asdict(self.config)),
        }
        return SemanticMap(name=name, grid=layers.grid, traversable=layers.traversable,
                           walls=walls, room_ids=np.where(walls, -1, layers.room_ids).astype(np.int32),
                           rooms=rooms, objects=tuple(objects), doors=doors, metadata=meta)


def _split_open_plan(layers: Layers, objects: list[ObjectInstance],
                     config: LayerConfig) -> tuple[Layers, list[ObjectInstance]]:
    """Layers and objects with open-plan rooms split by their typing evidence
    (:func:`split_open_plan`); the doors and the objects' rooms follow the new rooms."""
    grid = layers.grid
    ids = split_open_plan(layers.room_ids, [(o.category, o.center, o.room_id) for o in objects],
                          grid, config=config)
    if np.array_equal(ids, layers.room_ids):
        return layers, objects

    reach = int(round(grid.meters_to_cells(0.5)))
    moved = []
    for o in objects:
        row, col = grid.world_to_cell(*o.center)
        rid = nearest_room(ids, row, col, max_cells=reach) if grid.contains_cell(row, col) else -1
        moved.append(dataclasses.replace(o, room_id=rid if rid >= 0 else None))
    new = set(np.unique(ids).tolist()) - set(np.unique(layers.room_ids).tolist())
    return dataclasses.replace(layers, room_ids=ids, doors=room_doors(ids, grid, new)), moved


def _merge_open_rooms(layers: Layers, objects: list[ObjectInstance], types: dict[int, RoomType],
                      config: LayerConfig
                      ) -> tuple[Layers, list[ObjectInstance], dict[int, RoomType]]:
    """Layers, objects and room types with same-type rooms joined by a wide opening without a
    lintel merged (:func:`~map2route.mapping.layers.merge_open_rooms`)."""
    ids, mapping = merge_open_rooms(layers.room_ids, types, layers.grid, layers.lintel,
                                    open_m=config.merge_open_m)
    if all(k == v for k, v in mapping.items()):
        return layers, objects, types
    moved = [dataclasses.replace(o, room_id=mapping.get(o.room_id, o.room_id))
             if o.room_id is not None else o for o in objects]
    merged = {new: types[old] for old, new in mapping.items() if old == new}
    return (dataclasses.replace(layers, room_ids=ids, doors=room_doors(ids, layers.grid)),
            moved, merged)


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    return obj


def _room_polygon(mask: NDArray[np.bool_], grid: Any) -> tuple[tuple[float, float], ...]:

    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        r, c = np.argwhere(mask)[0]
        contour = np.array([[[c, r]], [[c + 1, r]], [[c + 1, r + 1]]])
    else:
        contour = cv2.approxPolyDP(max(contours, key=cv2.contourArea), 1.0, True)
    pts = contour.reshape(-1, 2)
    if len(pts) < 3:
        x, y, w, h = cv2.boundingRect(mask.astype(np.uint8))
        pts = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    xy = grid.cells_to_worlds(pts[:, ::-1])
    return tuple((float(x), float(y)) for x, y in xy)


@dataclass(frozen=True)
class BuildResult:
    """A map built from a bag and what it took."""

    map: SemanticMap
    bag_duration_s: float
    wall_s: float
    fuse_s: float


def build_from_bag(bag: str | Path, *, name: str, detector: Detector,
                   config: BuildConfig | None = None,
                   room_overrides: dict[int, RoomType] | None = None,
                   progress: bool = True) -> BuildResult:
    """Build a semantic map from a bag of driver topics (:mod:`map2route.mapping.inputs`:
    panoramas, clouds, odometry or TF; a simulator bag's ``/sim/*`` topics when there).

    Raises:
        MappingError: the bag is unreadable or holds too little data.
    """

    start = time.perf_counter()
    builder = MapBuilder(detector, config)
    sensor_bag = open_sensor_bag(bag, builder.config.inputs)
    feed = SensorInputs(builder, has_odometry=sensor_bag.has_odometry)
    stamps: list[float] = []
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task(f"building from {Path(bag).name}", total=sensor_bag.count)
        for msgtype, topic, msg in sensor_bag.messages:
            header = getattr(msg, "header", None)
            if header is not None and msgtype != inputs.TF:
                t = stamp_s(msg)
                if not stamps:
                    stamps[:] = [t, t]
                stamps[0], stamps[1] = min(stamps[0], t), max(stamps[1], t)
            feed.on_message(msgtype, topic, msg)
            bar.advance(task)
    m = builder.snapshot(name, room_overrides=room_overrides, finish=True)
    m.metadata["inputs"] = {
        "messages": dict(sorted(feed.counts.items())),
        "poses_from": "tf" if feed.poses_from_tf else "odometry",
        "camera_extrinsics_from": "tf_static" if feed.camera_from_tf else "config",
        "clouds_without_mount": list(feed.unmounted_frames)}
    duration = stamps[1] - stamps[0] if stamps else 0.0
    return BuildResult(map=m, bag_duration_s=duration, wall_s=time.perf_counter() - start,
                       fuse_s=builder.fuse_seconds)
