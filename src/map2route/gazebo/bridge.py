"""The ``ros_gz_bridge`` topics: which Gazebo topic becomes which ROS topic, with both types.

One table (:data:`BRIDGE`) is the source of the bridge YAML (``config/gazebo_bridge.yaml``) and
of the Gazebo topic names in the robot model (:mod:`map2route.gazebo.robot`), so the two cannot
drift apart. The ROS side is the in-process sim's interface (``sim_node``'s topics, the camera
topic of ``semantic_map_builder``): Gazebo plus this bridge stands in for ``sim_node``.
Type names follow ros_gz_bridge's mapping table (``gz.msgs.X`` <-> ``pkg/msg/Y``).
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

#: Messages flow from Gazebo to ROS (sensors, odometry, clock) ...
GZ_TO_ROS = "GZ_TO_ROS"
#: ... or from ROS to Gazebo (velocity commands).
ROS_TO_GZ = "ROS_TO_GZ"


@dataclass(frozen=True)
class BridgeTopic:
    """One bridged topic.

    Attributes:
        key: what it carries, for the robot model to look its Gazebo topic up (``"lidar"``).
        ros_topic: the ROS topic our nodes use (absolute).
        gz_topic: the Gazebo Transport topic.
        ros_type: ``pkg/msg/Type``.
        gz_type: ``gz.msgs.Type``.
        direction: :data:`GZ_TO_ROS` or :data:`ROS_TO_GZ`.
    """

    key: str
    ros_topic: str
    gz_topic: str
    ros_type: str
    gz_type: str
    direction: str


#: Every bridged topic. The Gazebo topics sit under ``/map2route/`` where the robot's
#: systems and sensors publish; ``/clock`` is the world's.
BRIDGE: tuple[BridgeTopic, ...] = (
    BridgeTopic("clock", "/clock", "/clock", "rosgraph_msgs/msg/Clock", "gz.msgs.Clock",
                GZ_TO_ROS),
    BridgeTopic("cmd_vel", "/cmd_vel", "/map2route/cmd_vel",
                "geometry_msgs/msg/Twist", "gz.msgs.Twist", ROS_TO_GZ),
    BridgeTopic("odom", "/odom", "/map2route/odometry", "nav_msgs/msg/Odometry",
                "gz.msgs.Odometry", GZ_TO_ROS),
    BridgeTopic("tf", "/tf", "/map2route/tf", "tf2_msgs/msg/TFMessage",
                "gz.msgs.Pose_V", GZ_TO_ROS),
    # The Mid-360 stand-in: a gpu_lidar publishes its LaserScan on its <topic> and the cloud
    # on <topic>/points; only the cloud is bridged (a 3D LaserScan is not a planar /scan).
    BridgeTopic("lidar", "/points", "/map2route/lidar/points",
                "sensor_msgs/msg/PointCloud2", "gz.msgs.PointCloudPacked", GZ_TO_ROS),
    # The planar scan the follower avoids obstacles with: the LiDAR's horizontal plane.
    BridgeTopic("scan", "/scan", "/map2route/scan", "sensor_msgs/msg/LaserScan",
                "gz.msgs.LaserScan", GZ_TO_ROS),
    BridgeTopic("camera", "/camera/image", "/map2route/camera/image",
                "sensor_msgs/msg/Image", "gz.msgs.Image", GZ_TO_ROS),
    BridgeTopic("imu", "/imu", "/map2route/imu", "sensor_msgs/msg/Imu",
                "gz.msgs.IMU", GZ_TO_ROS),
)


def gz_topic(key: str) -> str:
    """The Gazebo topic of the bridged entry ``key`` (``"lidar"`` -> its gz topic)."""
    for t in BRIDGE:
        if t.key == key:
            return t.gz_topic
    raise KeyError(f"no bridged topic {key!r}; known: {[t.key for t in BRIDGE]}")


def bridge_yaml() -> str:
    """The ``ros_gz_bridge`` ``parameter_bridge`` config file (its ``config_file`` parameter)."""
    entries = [{"ros_topic_name": t.ros_topic, "gz_topic_name": t.gz_topic,
                "ros_type_name": t.ros_type, "gz_type_name": t.gz_type,
                "direction": t.direction} for t in BRIDGE]
    head = ("# ros_gz_bridge parameter_bridge topics for launch/gazebo.launch.xml.\n"
            "# Generated from map2route.gazebo.bridge.BRIDGE by bridge_yaml(); edit that table\n"
            "# and regenerate (test/gazebo/test_bridge.py checks this file equals it).\n")
    return head + yaml.safe_dump(entries, sort_keys=False)
