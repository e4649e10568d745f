"""The Gazebo robot: dimensions from the in-process sim's files, sensors, frames, drive plugins."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from map2route.gazebo.bridge import gz_topic
from map2route.gazebo.errors import GazeboError
from map2route.gazebo.robot import RobotSpec, robot_sdf
from map2route.paths import config_dir


@pytest.fixture(scope="module")
def spec() -> RobotSpec:
    return RobotSpec.from_config()


@pytest.fixture(scope="module")
def model(spec: RobotSpec) -> ET.Element:
    root = ET.fromstring(robot_sdf(spec))
    assert root.tag == "sdf"
    (model,) = root.findall("model")
    return model


def _floats(text: str | None) -> list[float]:
    return [float(v) for v in (text or "").split()]


def test_spec_is_the_in_process_sims_robot(spec: RobotSpec) -> None:
    sim = yaml.safe_load((config_dir() / "sim_node.yaml").read_text())["sim_node"]["ros__parameters"]
    assert (spec.length, spec.width, spec.wheel_radius) == (
        sim["vehicle_length"], sim["vehicle_width"], sim["wheel_radius"])
    assert spec.lidar_elevation == pytest.approx((math.radians(-7), math.radians(52)))
    assert spec.lidar_range == (0.1, 40.0)
    assert spec.scan_beams == sim["scan_beams"]


def test_frames_are_links_at_the_spec_poses(spec: RobotSpec, model: ET.Element) -> None:
    links = {link.get("name"): _floats(link.findtext("pose") or "0 0 0 0 0 0")
             for link in model.findall("link")}
    assert {"base_link", "lidar_link", "camera_link", "imu_link"} <= set(links)
    assert links["base_link"] == [0.0] * 6
    for frame, xyz in spec.sensor_frames():
        assert links[frame] == pytest.approx([*xyz, 0, 0, 0])
    assert dict(spec.sensor_frames())["camera_link"] == pytest.approx((-0.12, -0.075, 0.715))
    fixed = {(j.findtext("parent"), j.findtext("child")) for j in model.findall("joint")
             if j.get("type") == "fixed"}
    assert fixed == {("base_link", f) for f in ("lidar_link", "camera_link", "imu_link")}


def test_sensors(spec: RobotSpec, model: ET.Element) -> None:
    sensors = {s.get("name"): (link.get("name"), s) for link in model.findall("link")
               for s in link.findall("sensor")}
    assert {n: (link, s.get("type")) for n, (link, s) in sensors.items()} == {
        "mid360": ("lidar_link", "gpu_lidar"), "scan": ("lidar_link", "gpu_lidar"),
        "theta": ("camera_link", "wideanglecamera"), "imu": ("imu_link", "imu")}
    for link, sensor in sensors.values():
        assert sensor.findtext("gz_frame_id") == link
    lidar = sensors["mid360"][1]
    assert lidar.findtext("topic") + "/points" == gz_topic("lidar")
    scan = lidar.find("lidar/scan")
    assert scan is not None
    h_min, h_max = float(scan.findtext("horizontal/min_angle")), float(
        scan.findtext("horizontal/max_angle"))
    n = int(scan.findtext("horizontal/samples") or 0)
    assert n == 360 and h_max - h_min + 2 * math.pi / n == pytest.approx(2 * math.pi, abs=1e-5)
    assert float(scan.findtext("vertical/min_angle")) == pytest.approx(math.radians(-7), abs=1e-6)
    assert float(scan.findtext("vertical/max_angle")) == pytest.approx(math.radians(52), abs=1e-6)
    assert _floats(lidar.findtext("lidar/range/max")) == [40.0]
    planar = sensors["scan"][1]
    assert planar.findtext("topic") == gz_topic("scan")
    assert planar.findtext("lidar/scan/vertical/samples") == "1"
    assert _floats(planar.findtext("lidar/range/max")) == [spec.scan_range_max]
    theta = sensors["theta"][1]
    assert theta.findtext("topic") == gz_topic("camera")
    assert float(theta.findtext("camera/horizontal_fov")) == pytest.approx(2 * math.pi, abs=1e-5)
    assert theta.findtext("camera/lens/type") == "equidistant"
    assert sensors["imu"][1].findtext("topic") == gz_topic("imu")


def test_drive_and_odometry_plugins(spec: RobotSpec, model: ET.Element) -> None:
    plugins = {p.get("name"): p for p in model.findall("plugin")}
    drive = plugins["gz::sim::systems::MecanumDrive"]
    assert drive.get("filename") == "gz-sim-mecanum-drive-system"
    joints = {j.get("name"): j for j in model.findall("joint")}
    for corner in ("front_left", "front_right", "back_left", "back_right"):
        joint = joints[drive.findtext(f"{corner}_joint")]
        assert joint.get("type") == "revolute" and joint.findtext("child") == f"{corner}_wheel"
        assert _floats(joint.findtext("axis/limit/velocity")) == [spec.max_wheel_speed]
    assert drive.findtext("topic") == gz_topic("cmd_vel")
    # 0.5 m base, 5 cm wheels: axles 0.4 m apart, wheel centres 0.45 m apart.
    assert _floats(drive.findtext("wheelbase")) == [pytest.approx(0.4)]
    assert _floats(drive.findtext("wheel_separation")) == [pytest.approx(0.45)]
    assert _floats(drive.findtext("wheel_radius")) == [0.05]
    odom = plugins["gz::sim::systems::OdometryPublisher"]
    assert (odom.findtext("odom_frame"), odom.findtext("robot_base_frame")) == ("odom", "base_link")
    assert (odom.findtext("odom_topic"), odom.findtext("tf_topic")) == (gz_topic("odom"),
                                                                        gz_topic("tf"))


def test_a_missing_setting_is_named(tmp_path: Path) -> None:
    for name in ("sim_node.yaml", "mapping.yaml"):
        (tmp_path / name).write_text((config_dir() / name).read_text())
    data = yaml.safe_load((config_dir() / "gazebo.yaml").read_text())
    del data["robot"]["imu_hz"]
    (tmp_path / "gazebo.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(GazeboError, match="imu_hz"):
        RobotSpec.from_config(tmp_path)
    (tmp_path / "gazebo.yaml").unlink()
    with pytest.raises(GazeboError, match="cannot read .*gazebo.yaml"):
        RobotSpec.from_config(tmp_path)
