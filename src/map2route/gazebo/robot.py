"""The Mecanum robot for Gazebo Harmonic: base, four wheels, Mid-360-like LiDAR, Theta stand-in, IMU.

One SDF model (``robot.sdf``) with the frames of our TF tree as links: ``base_link`` (on the
floor under the base's centre), ``lidar_link`` (the Mid-360: a ``gpu_lidar`` with its 360 x
-7..52 deg field of view, cloud on ``/points``, plus its horizontal plane as the planar ``/scan``
the follower avoids obstacles with), ``camera_link`` (the Ricoh Theta's place; a full-sphere
``wideanglecamera`` with an equidistant lens: each pixel is one direction, so the image remaps
to an equirectangular panorama) and ``imu_link`` (the Mid-360's built-in IMU). Sensor messages
carry these frame names (``gz_frame_id``). Gazebo's ``MecanumDrive`` system turns ``/cmd_vel``
into wheel speeds (anisotropic wheel friction stands in for the rollers); ``OdometryPublisher``
publishes ``/odom`` and ``odom -> base_link`` on ``/tf`` (ground truth, as the in-process sim).

The dimensions are read from the files the in-process sim uses (:meth:`RobotSpec.from_config`),
so both simulators drive the same 0.5 x 0.5 m base with the same sensors.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from map2route.gazebo.bridge import gz_topic
from map2route.gazebo.config import read_yaml, section
from map2route.gazebo.errors import GazeboError
from map2route.gazebo.xml import box_geometry, document, material, nums, sdf_root, sub
from map2route.paths import config_dir

#: The fixed frames (REP-105) and the sensor frames, shared with the in-process sim's TF.
MAP_FRAME = "map"
ODOM_FRAME = "odom"
BASE_FRAME = "base_link"
LIDAR_FRAME = "lidar_link"
CAMERA_FRAME = "camera_link"
IMU_FRAME = "imu_link"

#: Wheel positions: (name, x sign, y sign, roller friction direction in base_link). The
#: friction's first direction runs along each wheel's rollers' free axis crosswise, X layout.
WHEELS = (("front_left", 1, 1, (1.0, -1.0, 0.0)), ("front_right", 1, -1, (1.0, 1.0, 0.0)),
          ("back_left", -1, 1, (1.0, 1.0, 0.0)), ("back_right", -1, -1, (1.0, -1.0, 0.0)))


@dataclass(frozen=True)
class RobotSpec:
    """The robot's dimensions and sensors (metres, radians, Hz).

    Attributes:
        name: model name in Gazebo.
        length, width: base footprint (``vehicle_length``/``vehicle_width`` of sim_node).
        wheel_radius, wheel_width: wheels; ``max_wheel_speed`` (rad/s) limits their joints.
        chassis_height, base_mass, wheel_mass: body box above the axles and masses (kg).
        lidar_height: ``lidar_link`` above the floor (mapping sim's ``body_height_m``).
        lidar_elevation: vertical field of view (min, max) of the Mid-360.
        lidar_range: (min, max) range; ``lidar_noise`` its Gaussian range noise (m).
        lidar_samples: (horizontal, vertical) rays; ``lidar_hz`` its rate.
        scan_beams, scan_range_max: the planar ``/scan`` (as sim_node's).
        camera_xyz: ``camera_link`` relative to ``lidar_link`` (the mapping rig's ``camera_xyz``).
        camera_size: (width, height) px; ``camera_hz``; ``camera_lens`` the lens type.
        imu_hz: IMU rate.
    """

    name: str
    length: float
    width: float
    wheel_radius: float
    wheel_width: float
    max_wheel_speed: float
    chassis_height: float
    base_mass: float
    wheel_mass: float
    lidar_height: float
    lidar_elevation: tuple[float, float]
    lidar_range: tuple[float, float]
    lidar_noise: float
    lidar_samples: tuple[int, int]
    lidar_hz: float
    scan_beams: int
    scan_range_max: float
    camera_xyz: tuple[float, float, float]
    camera_size: tuple[int, int]
    camera_hz: float
    camera_lens: str
    imu_hz: float

    @classmethod
    def from_config(cls, folder: Path | None = None) -> RobotSpec:
        """Read ``gazebo.yaml``, ``sim_node.yaml`` and ``mapping.yaml`` from ``folder``.

        Raises:
            GazeboError: a file or a key is missing, naming it.
        """
        folder = folder or config_dir()
        paths = {n: folder / n for n in ("gazebo.yaml", "sim_node.yaml", "mapping.yaml")}
        gz = section(read_yaml(paths["gazebo.yaml"]), paths["gazebo.yaml"], "robot")
        sim = section(read_yaml(paths["sim_node.yaml"]), paths["sim_node.yaml"],
                       "sim_node", "ros__parameters")
        mapping = read_yaml(paths["mapping.yaml"])
        rig = section(mapping, paths["mapping.yaml"], "simulate")
        build = section(mapping, paths["mapping.yaml"], "build")
        try:
            lidar, camera = gz["lidar"], gz["camera"]
            elev = rig["lidar"]["elevation_deg"]
            return cls(
                name=str(gz["name"]), length=float(sim["vehicle_length"]),
                width=float(sim["vehicle_width"]), wheel_radius=float(sim["wheel_radius"]),
                wheel_width=float(gz["wheel_width_m"]),
                max_wheel_speed=float(sim["max_wheel_speed"]),
                chassis_height=float(gz["chassis_height_m"]), base_mass=float(gz["base_mass_kg"]),
                wheel_mass=float(gz["wheel_mass_kg"]), lidar_height=float(rig["body_height_m"]),
                lidar_elevation=(math.radians(float(elev[0])), math.radians(float(elev[1]))),
                lidar_range=(float(rig["lidar"]["range_m"][0]), float(rig["lidar"]["range_m"][1])),
                lidar_noise=float(rig["lidar"]["range_noise_m"]),
                lidar_samples=(int(lidar["horizontal_samples"]), int(lidar["vertical_samples"])),
                lidar_hz=float(lidar["hz"]), scan_beams=int(sim["scan_beams"]),
                scan_range_max=float(sim["scan_range_max"]),
                camera_xyz=(float(build["camera_xyz"][0]), float(build["camera_xyz"][1]),
                            float(build["camera_xyz"][2])),
                camera_size=(int(camera["width"]), int(camera["height"])),
                camera_hz=float(camera["hz"]), camera_lens=str(camera["lens"]),
                imu_hz=float(gz["imu_hz"]))
        except (KeyError, IndexError, TypeError, ValueError) as err:
            msg = f"the robot's configuration ({', '.join(map(str, paths.values()))}) lacks {err}"
            raise GazeboError(msg) from err

    def sensor_frames(self) -> tuple[tuple[str, tuple[float, float, float]], ...]:
        """``(frame, xyz in base_link)`` of each sensor link (all axis-aligned with the base)."""
        lidar = (0.0, 0.0, self.lidar_height)
        cx, cy, cz = self.camera_xyz
        return ((LIDAR_FRAME, lidar), (CAMERA_FRAME, (cx, cy, self.lidar_height + cz)),
                (IMU_FRAME, lidar))


def _inertial(link: ET.Element, mass: float, size: tuple[float, float, float],
              xyz: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> None:
    """Mass and the inertia of a solid box of ``size`` centred at ``xyz``."""
    x, y, z = size
    inertial = sub(link, "inertial")
    sub(inertial, "pose", nums((*xyz, 0, 0, 0)))
    sub(inertial, "mass", mass)
    inertia = sub(inertial, "inertia")
    for tag, value in (("ixx", y * y + z * z), ("iyy", x * x + z * z), ("izz", x * x + y * y)):
        sub(inertia, tag, mass * value / 12.0)
    for tag in ("ixy", "ixz", "iyz"):
        sub(inertia, tag, 0.0)


def _fixed_joint(model: ET.Element, child: str) -> None:
    joint = sub(model, "joint", name=f"{child}_joint", type="fixed")
    sub(joint, "parent", BASE_FRAME)
    sub(joint, "child", child)


def _sensor(link: ET.Element, name: str, kind: str, topic: str, hz: float,
            frame: str) -> ET.Element:
    sensor = sub(link, "sensor", name=name, type=kind)
    sub(sensor, "always_on", True)
    sub(sensor, "update_rate", hz)
    sub(sensor, "visualize", False)
    sub(sensor, "topic", topic)
    # Gazebo Harmonic stamps the message with this frame (default: the scoped sensor name).
    sub(sensor, "gz_frame_id", frame)
    return sensor


def _lidar(sensor: ET.Element, samples: tuple[int, int], vertical: tuple[float, float],
           range_m: tuple[float, float], noise: float) -> None:
    lidar = sub(sensor, "lidar")
    scan = sub(lidar, "scan")
    h = sub(scan, "horizontal")
    sub(h, "samples", str(samples[0]))
    sub(h, "resolution", 1.0)
    # A full turn without sampling its seam twice.
    sub(h, "min_angle", -math.pi)
    sub(h, "max_angle", math.pi - 2 * math.pi / samples[0])
    v = sub(scan, "vertical")
    sub(v, "samples", str(samples[1]))
    sub(v, "resolution", 1.0)
    sub(v, "min_angle", vertical[0])
    sub(v, "max_angle", vertical[1])
    rng = sub(lidar, "range")
    sub(rng, "min", range_m[0])
    sub(rng, "max", range_m[1])
    sub(rng, "resolution", 0.01)
    if noise > 0:
        n = sub(lidar, "noise")
        sub(n, "type", "gaussian")
        sub(n, "mean", 0.0)
        sub(n, "stddev", noise)


def _wheel(model: ET.Element, spec: RobotSpec, name: str, sx: int, sy: int,
           fdir: tuple[float, float, float]) -> None:
    r, ww = spec.wheel_radius, spec.wheel_width
    xyz = (sx * (spec.length / 2 - r), sy * (spec.width / 2 - ww / 2), r)
    link = sub(model, "link", name=f"{name}_wheel")
    sub(link, "pose", nums((*xyz, 0, 0, 0)))
    _inertial(link, spec.wheel_mass, (2 * r, ww, 2 * r))
    col = sub(link, "collision", name="collision")
    sub(sub(sub(col, "geometry"), "sphere"), "radius", r)
    ode = sub(sub(sub(col, "surface"), "friction"), "ode")
    sub(ode, "mu", 1.0)
    sub(ode, "mu2", 0.0)
    sub(ode, "fdir1", nums(fdir), **{"gz:expressed_in": BASE_FRAME})
    vis = sub(link, "visual", name="visual")
    sub(vis, "pose", nums((0, 0, 0, math.pi / 2, 0, 0)))
    cyl = sub(sub(vis, "geometry"), "cylinder")
    sub(cyl, "radius", r)
    sub(cyl, "length", ww)
    material(vis, (0.1, 0.1, 0.1, 1.0))
    joint = sub(model, "joint", name=f"{name}_wheel_joint", type="revolute")
    sub(joint, "parent", BASE_FRAME)
    sub(joint, "child", f"{name}_wheel")
    axis = sub(joint, "axis")
    sub(axis, "xyz", "0 1 0")
    limit = sub(axis, "limit")
    sub(limit, "lower", -1e16)
    sub(limit, "upper", 1e16)
    sub(limit, "velocity", spec.max_wheel_speed)


def robot_element(spec: RobotSpec) -> ET.Element:
    """The ``<model>`` element of the robot (see the module docstring)."""
    model = ET.Element("model", name=spec.name)
    base = sub(model, "link", name=BASE_FRAME)
    r, ww, h = spec.wheel_radius, spec.wheel_width, spec.chassis_height
    chassis = (spec.length, spec.width - 2 * ww, h)
    centre = (0.0, 0.0, r + h / 2)
    _inertial(base, spec.base_mass, chassis, centre)
    for tag in ("collision", "visual"):
        el = sub(base, tag, name=tag)
        sub(el, "pose", nums((*centre, 0, 0, 0)))
        box_geometry(el, chassis)
        if tag == "visual":
            material(el, (0.2, 0.3, 0.6, 1.0))
    for name, sx, sy, fdir in WHEELS:
        _wheel(model, spec, name, sx, sy, fdir)
    frames = dict(spec.sensor_frames())
    for frame in (LIDAR_FRAME, CAMERA_FRAME, IMU_FRAME):
        link = sub(model, "link", name=frame)
        sub(link, "pose", nums((*frames[frame], 0, 0, 0)))
        _inertial(link, 0.05, (0.05, 0.05, 0.05))
        if frame == LIDAR_FRAME:
            vis = sub(link, "visual", name="visual")
            cyl = sub(sub(vis, "geometry"), "cylinder")
            sub(cyl, "radius", 0.0325)
            sub(cyl, "length", 0.06)
            material(vis, (0.15, 0.15, 0.15, 1.0))
            cloud = _sensor(link, "mid360", "gpu_lidar",
                            gz_topic("lidar").removesuffix("/points"), spec.lidar_hz, frame)
            _lidar(cloud, spec.lidar_samples, spec.lidar_elevation, spec.lidar_range,
                   spec.lidar_noise)
            scan = _sensor(link, "scan", "gpu_lidar", gz_topic("scan"), spec.lidar_hz, frame)
            _lidar(scan, (spec.scan_beams, 1), (0.0, 0.0),
                   (spec.lidar_range[0], spec.scan_range_max), 0.0)
        elif frame == CAMERA_FRAME:
            cam_sensor = _sensor(link, "theta", "wideanglecamera", gz_topic("camera"),
                                 spec.camera_hz, frame)
            cam = sub(cam_sensor, "camera")
            sub(cam, "horizontal_fov", 2 * math.pi)
            image = sub(cam, "image")
            sub(image, "width", str(spec.camera_size[0]))
            sub(image, "height", str(spec.camera_size[1]))
            sub(image, "format", "R8G8B8")
            clip = sub(cam, "clip")
            sub(clip, "near", 0.05)
            sub(clip, "far", 50.0)
            lens = sub(cam, "lens")
            sub(lens, "type", spec.camera_lens)
            sub(lens, "scale_to_hfov", True)
            # The spec caps it at 3.141592653; 6 decimals of pi would round above that.
            sub(lens, "cutoff_angle", math.pi - 1e-6)
            sub(lens, "env_texture_size", "512")
        else:
            _sensor(link, "imu", "imu", gz_topic("imu"), spec.imu_hz, frame)
        _fixed_joint(model, frame)
    drive = sub(model, "plugin", filename="gz-sim-mecanum-drive-system",
                name="gz::sim::systems::MecanumDrive")
    for name, *_ in WHEELS:
        sub(drive, f"{name}_joint", f"{name}_wheel_joint")
    sub(drive, "wheel_separation", spec.width - ww)
    sub(drive, "wheelbase", spec.length - 2 * r)
    sub(drive, "wheel_radius", r)
    sub(drive, "topic", gz_topic("cmd_vel"))
    # Its wheel odometry stays inside Gazebo: /odom and /tf are the ground truth below.
    sub(drive, "odom_topic", "/map2route/wheel_odometry")
    sub(drive, "tf_topic", "/map2route/wheel_tf")
    odom = sub(model, "plugin", filename="gz-sim-odometry-publisher-system",
               name="gz::sim::systems::OdometryPublisher")
    sub(odom, "odom_frame", ODOM_FRAME)
    sub(odom, "robot_base_frame", BASE_FRAME)
    sub(odom, "odom_topic", gz_topic("odom"))
    sub(odom, "tf_topic", gz_topic("tf"))
    sub(odom, "odom_publish_frequency", 50.0)
    sub(odom, "dimensions", "2")
    return model


def robot_sdf(spec: RobotSpec) -> str:
    """The robot as a standalone SDF model file (what ``ros_gz_sim create -file`` spawns)."""
    root = sdf_root()
    root.append(robot_element(spec))
    return document(root)
