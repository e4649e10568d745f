"""Sensor QoS, point clouds, the blind-base watchdog and TF, over real topics."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from geometry_msgs.msg import Twist
from nav_msgs.msg import Odometry
from nav_msgs.msg import Path as PathMsg
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import LaserScan

from map2route.control.frames import Transform
from map2route.ros import convert
from map2route.ros.frames import TF_QOS, TF_STATIC_QOS, transform_msg
from map2route.ros.path_follower_node import PathFollowerNode
from map2route.ros.semantic_map_server import LATCHED
from map2route.ros.sim_node import SimNode

BEST_EFFORT = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)


def _p(**kw):
    return [Parameter(k, value=v) for k, v in kw.items()]


def _route(points):
    pts = np.concatenate([np.linspace(points[i], points[i + 1], 30)
                          for i in range(len(points) - 1)])
    return convert.path_msg(pts, convert.Header(frame_id="map"))


@pytest.fixture
def hall_scene(tmp_path):
    """Two empty 6 x 4 m rooms joined by a 1 m door at x=6, y 1.5..2.5."""
    from map2route.semantic_map.io import save_scene
    from map2route.semantic_map.model import RoomType
    from map2route.semantic_map.synthetic import RectRoom, rect_house

    m = rect_house(name="hall", rooms=[RectRoom(0, RoomType.LIVING_ROOM, 0.0, 0.0, 6.0, 4.0),
                                       RectRoom(1, RoomType.KITCHEN, 6.0, 0.0, 12.0, 4.0)],
                   objects=[], doors=[("door_0", (0, 1), ((6.0, 1.5), (6.0, 2.5)))])
    return save_scene(m, tmp_path / "hall")


def test_a_best_effort_cloud_alone_drives_avoidance_with_map_not_odom(ros, hall_scene):
    """Only the sim's BEST_EFFORT body-frame cloud (lidar_link, through /tf_static) feeds the
    follower; odometry starts 1 m off the map origin and turned (map -> odom on /tf), so the
    follower must look its pose up through TF; a 0.4 m box sits squarely on the route (issue
    16's case: the fan of straight directions alone dithers in front of it; the local detour
    takes the base round)."""
    from map2route_interfaces.msg import FollowerStatus

    sim = ros.add(SimNode(context=ros.context, parameter_overrides=_p(
        scene=str(hall_scene), start_x=1.0, start_y=2.0, step_mode="lockstep",
        cloud_every=1, odom_offset_x=1.0, odom_offset_y=-0.5, odom_offset_yaw=0.7,
        obstacles="3.0,2.0,0.2")))
    ros.add(PathFollowerNode(context=ros.context, parameter_overrides=_p(
        obstacle_sources="cloud")))
    statuses: list = []
    ros.node("status").create_subscription(FollowerStatus, "follower/status", statuses.append, 50)
    pub = ros.node("router").create_publisher(PathMsg, "route", LATCHED)
    pub.publish(_route(np.array([[1.0, 2.0], [9.0, 2.0]])))
    ros.wait_for(lambda: statuses and statuses[-1].state == FollowerStatus.ARRIVED, timeout=60,
                 what="the follower to arrive on cloud data alone")
    assert math.hypot(sim.pose.x - 9.0, sim.pose.y - 2.0) <= 0.2 + 1e-6
    assert sim.collisions == 0
    # It saw the box in the cloud and went around it.
    assert any(s.state == FollowerStatus.SLOWED and "avoiding" in s.message for s in statuses)


def test_a_missing_sensor_stops_the_base(ros):
    """Scans arrive for 1 s of odometry time, then stop: the follower drives, then stops
    (zero twist, BLOCKED) once the last scan is older than sensor_timeout, saying why."""
    from map2route_interfaces.msg import FollowerStatus
    from tf2_msgs.msg import TFMessage

    follower = ros.add(PathFollowerNode(context=ros.context, parameter_overrides=_p(
        obstacle_sources="scan", sensor_timeout=0.5)))
    helper = ros.node("robot")
    twists: list = []
    statuses: list = []
    helper.create_subscription(Twist, "cmd_vel", twists.append, 50)
    helper.create_subscription(FollowerStatus, "follower/status", statuses.append, 50)
    static = helper.create_publisher(TFMessage, "/tf_static", TF_STATIC_QOS)
    tf_pub = helper.create_publisher(TFMessage, "/tf", TF_QOS)
    scan_pub = helper.create_publisher(LaserScan, "scan", BEST_EFFORT)
    odom_pub = helper.create_publisher(Odometry, "odom", 10)
    route_pub = helper.create_publisher(PathMsg, "route", LATCHED)
    static.publish(TFMessage(transforms=[transform_msg(
        "base_link", "lidar_link", Transform((0.0, 0.0, 0.4)), convert.Header().stamp)]))
    route_pub.publish(_route(np.array([[0.0, 0.0], [5.0, 0.0]])))
    ros.wait_for(lambda: len(follower.follower.path) > 0, what="the route")

    def tick(t: float, with_scan: bool) -> None:
        sec, nsec = int(t), int(round((t - int(t)) * 1e9))
        stamp = convert.Header().stamp
        stamp.sec, stamp.nanosec = sec, nsec
        tf_pub.publish(TFMessage(transforms=[
            transform_msg("map", "odom", Transform(), stamp),
            transform_msg("odom", "base_link", Transform(), stamp)]))
        if with_scan:
            scan = LaserScan(angle_min=-math.pi, angle_increment=2 * math.pi / 360,
                             range_min=0.05, range_max=10.0)
            scan.header.frame_id, scan.header.stamp = "lidar_link", stamp
            scan.ranges = [math.inf] * 360
            scan_pub.publish(scan)
        time.sleep(0.05)
        odom = Odometry()
        odom.header.frame_id, odom.header.stamp = "odom", stamp
        odom_pub.publish(odom)
        n = len(statuses)
        ros.wait_for(lambda: len(statuses) > n, what=f"a status for t={t:.1f}", timeout=5)

    for i in range(10):
        tick(10.0 + 0.1 * i, with_scan=True)
    assert statuses[-1].state == FollowerStatus.FOLLOWING and twists[-1].linear.x > 0.1
    for i in range(10, 20):
        tick(10.0 + 0.1 * i, with_scan=False)
    last = statuses[-1]
    assert last.state == FollowerStatus.BLOCKED
    assert "no fresh obstacle data" in last.message and "/scan is" in last.message
    assert (twists[-1].linear.x, twists[-1].linear.y, twists[-1].angular.z) == (0.0, 0.0, 0.0)
    # Up to 0.5 s after the last scan it still drove; past that it stopped.
    blocked = [s for s in statuses if s.state == FollowerStatus.BLOCKED]
    first = min(s.header.stamp.sec + s.header.stamp.nanosec * 1e-9 for s in blocked)
    assert first == np.float64(10.9 + 0.6) or abs(first - 11.5) < 1e-6


def test_no_sensor_at_all_never_moves_the_sim(ros, two_room_scene):
    from map2route_interfaces.msg import FollowerStatus

    sim = ros.add(SimNode(context=ros.context, parameter_overrides=_p(
        scene=str(two_room_scene), start_x=1.5, start_y=1.0, step_mode="lockstep",
        cloud_enabled=False)))
    ros.add(PathFollowerNode(context=ros.context, parameter_overrides=_p(
        obstacle_sources="cloud")))
    statuses: list = []
    ros.node("status").create_subscription(FollowerStatus, "follower/status", statuses.append, 50)
    ros.node("router").create_publisher(PathMsg, "route", LATCHED).publish(
        _route(np.array([[1.5, 1.0], [2.5, 1.0]])))
    ros.wait_for(lambda: len(statuses) > 20, what="20 follower steps")
    assert all(s.state == FollowerStatus.BLOCKED for s in statuses)
    assert "nothing received on /points" in statuses[-1].message
    assert math.hypot(sim.pose.x - 1.5, sim.pose.y - 1.0) < 1e-9
