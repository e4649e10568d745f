"""CMU-stack mode: /way_point from the route, TwistStamped from the follower."""

from __future__ import annotations

import math

import numpy as np
from geometry_msgs.msg import PointStamped, TwistStamped
from nav_msgs.msg import Odometry
from nav_msgs.msg import Path as PathMsg
from rclpy.parameter import Parameter
from sensor_msgs.msg import PointCloud2, PointField

from map2route.control.frames import Transform
from map2route.ros import convert
from map2route.ros.cmu_bridge_node import CmuBridgeNode
from map2route.ros.frames import SENSOR_QOS, TF_QOS, transform_msg
from map2route.ros.path_follower_node import PathFollowerNode
from map2route.ros.semantic_map_server import LATCHED


def _odom(x: float, y: float, sec: int) -> Odometry:
    out = Odometry()
    out.header.frame_id = "map"  # CMU's /state_estimation is in the map frame
    out.header.stamp.sec = sec
    out.pose.pose.position.x, out.pose.pose.position.y = x, y
    out.pose.pose.orientation.w = 1.0
    return out


def test_bridge_feeds_the_point_ahead_along_the_route(ros) -> None:
    ros.add(CmuBridgeNode(context=ros.context))
    helper = ros.node("cmu_stack")
    points: list = []
    helper.create_subscription(PointStamped, "way_point", points.append, 10)
    route = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 3.0]])
    route = np.concatenate([np.linspace(route[0], route[1], 21), np.linspace(route[1], route[2], 31)[1:]])
    helper.create_publisher(PathMsg, "route", LATCHED).publish(
        convert.path_msg(route, convert.Header(frame_id="map")))
    state = helper.create_publisher(Odometry, "state_estimation", 5)
    ros.wait_for(lambda: state.publish(_odom(0.0, 0.0, 1)) or points, what="a /way_point")
    # 1.5 m ahead of (0, 0) along the route: (1.5, 0).
    assert (points[-1].point.x, points[-1].point.y) == (1.5, 0.0)
    assert points[-1].header.frame_id == "map"
    n = len(points)
    ros.wait_for(lambda: state.publish(_odom(2.0, 0.5, 2)) or len(points) > n,
                 what="the next /way_point")
    # At arc 2.5 m (the corner plus 0.5 m): the point at arc 4.0 is (2, 2).
    assert math.hypot(points[-1].point.x - 2.0, points[-1].point.y - 2.0) < 1e-9
    n = len(points)
    ros.wait_for(lambda: state.publish(_odom(2.0, 2.9, 3)) or len(points) > n, what="the end")
    assert (points[-1].point.x, points[-1].point.y) == (2.0, 3.0)


def _cloud(points: np.ndarray, frame: str, sec: int) -> PointCloud2:
    fields = [PointField(name=n, offset=4 * i, datatype=PointField.FLOAT32, count=1)
              for i, n in enumerate("xyz")]
    out = PointCloud2(height=1, width=len(points), fields=fields, is_bigendian=False,
                      point_step=12, row_step=12 * len(points), is_dense=True)
    out.header.frame_id, out.header.stamp.sec = frame, sec
    out.data = np.asarray(points, dtype=np.float32).tobytes()
    return out


def test_follower_in_cmu_mode_reads_a_map_frame_cloud_and_sends_twist_stamped(ros) -> None:
    from tf2_msgs.msg import TFMessage

    ros.add(PathFollowerNode(context=ros.context, parameter_overrides=[
        Parameter("obstacle_sources", value="cloud"), Parameter("cmd_vel_stamped", value=True)]))
    helper = ros.node("cmu_stack")
    twists: list = []
    helper.create_subscription(TwistStamped, "cmd_vel", twists.append, 10)
    helper.create_publisher(PathMsg, "route", LATCHED).publish(convert.path_msg(
        np.linspace([5.0, 1.0], [9.0, 1.0], 40), convert.Header(frame_id="map")))
    tf_pub = helper.create_publisher(TFMessage, "/tf", TF_QOS)
    cloud_pub = helper.create_publisher(PointCloud2, "points", SENSOR_QOS)
    odom_pub = helper.create_publisher(Odometry, "odom", 5)

    def step(sec: int, cloud: np.ndarray) -> TwistStamped:
        stamp = _odom(0, 0, sec).header.stamp
        tf_pub.publish(TFMessage(transforms=[transform_msg("map", "base_link", Transform.planar(
            5.0, 1.0, 0.0), stamp)]))
        cloud_pub.publish(_cloud(cloud, "map", sec))
        n = len(twists)
        ros.wait_for(lambda: odom_pub.publish(_odom(5.0, 1.0, sec)) or len(twists) > n,
                     what=f"a TwistStamped at t={sec}")
        return twists[-1]

    # A registered_scan with a far wall only: it drives along +x, in base_link.
    free = step(10, np.array([[9.5, 1.0 + dy, 0.5] for dy in np.linspace(-1, 1, 21)]))
    assert free.header.frame_id == "base_link" and free.twist.linear.x > 0.0
    # A wall 0.4 m ahead, map frame, 0.5 m high: brought into base_link (taken as base-frame
    # points it would be 5.4 m away and the base would go straight on), it turns the motion
    # to run along the wall instead of into it.
    wall = np.array([[5.4, 1.0 + dy, 0.5] for dy in np.linspace(-2, 2, 81)])
    for sec in range(11, 14):
        blocked = step(sec, wall)
    v = blocked.twist.linear
    assert math.degrees(math.atan2(abs(v.y), v.x)) > 60.0 and abs(v.y) > 0.1
