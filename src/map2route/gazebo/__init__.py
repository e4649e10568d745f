"""Gazebo Harmonic sim runs: per-scene worlds, the robot model and the ros_gz bridge (no ROS).

- :mod:`~map2route.gazebo.world`: a scene as a self-contained SDF world.
- :mod:`~map2route.gazebo.robot`: the Mecanum robot with its LiDAR, camera and IMU.
- :mod:`~map2route.gazebo.bridge`: the ros_gz_bridge topics and their YAML.
- :mod:`~map2route.gazebo.export`: writing them to a folder.
- :mod:`~map2route.gazebo.check`: loading SDF files with the real SDFormat library.
- :mod:`~map2route.gazebo.config`, :mod:`~map2route.gazebo.xml`: settings files, SDF helpers.
"""

from map2route.gazebo.bridge import BRIDGE, BridgeTopic, bridge_yaml
from map2route.gazebo.check import build_checker, check_sdf
from map2route.gazebo.errors import GazeboError
from map2route.gazebo.export import ExportedWorld, export_robot, export_world, spawn_pose
from map2route.gazebo.robot import RobotSpec, robot_sdf
from map2route.gazebo.world import WorldSpec, world_sdf

__all__ = ["BRIDGE", "BridgeTopic", "ExportedWorld", "GazeboError", "RobotSpec", "WorldSpec",
           "bridge_yaml", "build_checker", "check_sdf", "export_robot", "export_world",
           "robot_sdf", "spawn_pose", "world_sdf"]
