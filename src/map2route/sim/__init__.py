"""A small 2D/2.5D simulator for a Mecanum base in a semantic map (no ROS).

- :mod:`~map2route.sim.kinematics`: Mecanum wheel kinematics and pose integration.
- :mod:`~map2route.sim.world`: obstacles from the map, dynamic obstacles, ground-truth collision.
- :mod:`~map2route.sim.lidar`: 2D LaserScan and Livox-Mid-360-like point cloud by ray casting.
"""

from map2route.sim.errors import SimError
from map2route.sim.kinematics import MecanumBase, Pose2D, Twist2D
from map2route.sim.lidar import LaserConfig, PointCloudConfig, cast_cloud, cast_scan
from map2route.sim.world import DynamicObstacle, World

__all__ = ["DynamicObstacle", "LaserConfig", "MecanumBase", "PointCloudConfig", "Pose2D",
           "SimError", "Twist2D", "World", "cast_cloud", "cast_scan"]
