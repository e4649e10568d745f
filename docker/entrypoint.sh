#!/usr/bin/env bash
# Source ROS 2 Jazzy and the colcon workspace, then run the given command.
set -e
source /opt/ros/jazzy/setup.bash
source /ws/install/setup.bash
exec "$@"
