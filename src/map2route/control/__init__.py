"""Pure-Python control for a Mecanum base: route following with local obstacle avoidance.

- :mod:`~map2route.control.follower`: the holonomic pure-pursuit-like follower.
- :mod:`~map2route.control.footprint`: robot-footprint inflation of a map for planning.
"""

from map2route.control.errors import ControlError
from map2route.control.follower import (
    FollowerCommand,
    FollowerConfig,
    FollowerState,
    PathFollower,
)
from map2route.control.footprint import inflate_for_robot

__all__ = ["ControlError", "FollowerCommand", "FollowerConfig", "FollowerState", "PathFollower",
           "inflate_for_robot"]
