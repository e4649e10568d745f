"""``path_follower_node``: Mecanum following of ``/route`` with local avoidance from live sensors.

Runs one :class:`map2route.control.PathFollower` step per ``/odom`` message (so it keeps pace
with a simulation that steps as fast as the nodes answer). The pose is looked up through TF:
the ``/odom`` pose (in its header's frame) composed with ``global_frame -> odom`` from ``/tf``,
so a localiser's corrections (AMCL, SLAM) are followed. Obstacles come from ``/scan``
(``LaserScan``) and/or ``/points`` (``PointCloud2``: a body-frame Mid-360 cloud, or SLAM's
map-frame ``/registered_scan``), subscribed with sensor-data QoS (BEST_EFFORT) and brought
into ``base_frame`` through TF by their header's frame_id. A watchdog stops the base when no
obstacle source is fresher than ``sensor_timeout`` (or the pose cannot be looked up): state
BLOCKED, a warning naming what is missing, never driving blind. It publishes ``/cmd_vel``
(``geometry_msgs/Twist``: linear.x, linear.y, angular.z in the base frame) and
``/follower/status`` (``map2route_interfaces/FollowerStatus``: state, progress, distance to
go, nearest obstacle). Moving obstacles: scan points off the ``/map`` (latched
``OccupancyGrid``) are tracked over time and the follower yields to their predicted paths
(:mod:`map2route.control.tracking`). For a lockstep simulation, ``sync_scan`` steps on an
``/odom`` only once the ``/scan`` of the same stamp is in, an ``/odom`` of an already
stepped or older stamp (a republish, a late message) is not stepped or answered, a late
``/scan`` does not replace a newer one, and ``replan_wait`` holds the answer while a
global replan is pending: the run then depends only on sim time, not on message timing.
It republishes the route it follows on ``/plan`` (``nav_msgs/Path``)
so a Nav2 controller can follow it instead, and serves the ``follow_route`` action
(``map2route_interfaces/FollowRoute``, shaped like Nav2's FollowPath, with feedback) and Nav2's
own ``follow_path`` (``nav2_msgs/FollowPath``: a Nav2 behaviour tree or
``nav2_simple_commander``'s ``followPath`` hands its path to this follower).
While it has no route, or after arriving, it stays silent on ``/cmd_vel``.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any

import numpy as np
from geometry_msgs.msg import Twist, TwistStamped
from map2route_interfaces.action import FollowRoute
from map2route_interfaces.msg import FollowerStatus
from nav2_msgs.action import FollowPath
from nav_msgs.msg import OccupancyGrid, Odometry
from nav_msgs.msg import Path as PathMsg
from rclpy.action import ActionServer, CancelResponse
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.node import Node
from rclpy.task import Future
from sensor_msgs.msg import LaserScan, PointCloud2

from map2route.control import FollowerConfig, FollowerState, PathFollower
from map2route.control.follower import FollowerCommand, scan_to_points
from map2route.control.frames import FrameError, Transform
from map2route.control.sensors import (
    ObstacleSources,
    cloud_obstacle_points,
    planar_points_to_base,
)
from map2route.errors import Map2RouteError
from map2route.ros import convert
from map2route.ros.frames import (
    SENSOR_QOS,
    TfListener,
    cloud_xyz,
    stamp_seconds,
)
from map2route.ros.params import Param, declare, non_empty, non_negative, positive, run_node
from map2route.ros.semantic_map_server import LATCHED


def _sources(value: Any) -> str | None:
    names = [n.strip() for n in str(value).split(",") if n.strip()]
    bad = [n for n in names if n not in ("scan", "cloud")]
    if not names or bad:
        return f"must name scan and/or cloud (comma-separated), got {value!r}"
    return None


PARAMS = (
    Param("max_speed", float, "m/s", positive),
    Param("max_accel", float, "m/s^2", positive),
    Param("look_ahead", float, "m", positive),
    Param("stop_distance", float, "m kept to obstacles", non_negative),
    Param("goal_tolerance", float, "m", positive),
    Param("yaw_rate_gain", float, "rad/s per rad", non_negative),
    Param("max_yaw_rate_deg", float, "deg/s", non_negative),
    Param("vehicle_length", float, "m", positive),
    Param("vehicle_width", float, "m", positive),
    Param("side_margin", float, "m", non_negative),
    Param("check_distance", float, "m", positive),
    Param("max_deviation_deg", float, "deg", non_negative),
    Param("deviation_step_deg", float, "deg", positive),
    Param("align_heading", bool, "face the direction of travel"),
    Param("detour_after", float, "s without progress before a local detour (0: never)",
          non_negative),
    Param("control_rate", float, "Hz (odometry-driven here; kept for robot drivers)", positive),
    Param("route_topic", str, "the route to follow", non_empty),
    Param("publish_nav2_path", bool, "republish the route on /plan"),
    Param("global_frame", str, "frame of the route; poses are looked up in it", non_empty),
    Param("base_frame", str, "the robot's frame (obstacle points are brought into it)",
          non_empty),
    Param("obstacle_sources", str, "scan, cloud or scan,cloud", _sources),
    Param("sensor_timeout", float, "s; no fresher obstacle data stops the base (0: off)",
          non_negative),
    Param("obstacle_min_height", float, "m above base_frame: lower cloud points are floor"),
    Param("obstacle_max_height", float, "m above base_frame: higher cloud points pass over"),
    Param("cmd_vel_stamped", bool, "publish geometry_msgs/TwistStamped (CMU stack) on cmd_vel"),
    Param("yield_horizon", float, "s a command must keep clear of tracked movers", non_negative),
    Param("people_margin", float, "m kept to movers beyond the base's radius", non_negative),
    Param("people_speed", float, "m/s cap near a mover", positive),
    Param("people_distance", float, "m: the cap applies this close to a mover", non_negative),
    Param("sync_scan", bool, "step on an /odom only with the /scan of its stamp (lockstep sims)"),
    Param("replan_wait", float, "wall s to hold the answer while a global replan is pending "
          "(lockstep sims; 0: do not hold)", non_negative),
)
PARAM_FILE = "path_follower_node.yaml"

STATE_CODES = {FollowerState.IDLE: 0, FollowerState.FOLLOWING: 1, FollowerState.SLOWED: 2,
               FollowerState.BLOCKED: 3, FollowerState.ARRIVED: 4}


class PathFollowerNode(Node):
    """Follows the latest route; see the module docstring."""

    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("path_follower_node", **node_kwargs)
        self.params = declare(self, PARAMS, PARAM_FILE)

        self.config = FollowerConfig.from_params(self.params)
        self.follower = PathFollower(self.config)
        self._lock = threading.Lock()
        self.sources = [n.strip() for n in self.params["obstacle_sources"].split(",")
                        if n.strip()]
        self.obstacles = ObstacleSources(self.params["sensor_timeout"])
        self.tf = TfListener(self)
        self.last: FollowerCommand | None = None
        #: the /odom stamp (s) of the last step answered (the arrival's, once arrived)
        self.last_stamp = 0.0
        self.cmd_pub = self.create_publisher(
            TwistStamped if self.params["cmd_vel_stamped"] else Twist, "cmd_vel", 10)
        self.status_pub = self.create_publisher(FollowerStatus, "follower/status", 10)
        self.plan_pub = self.create_publisher(PathMsg, "plan", LATCHED)
        #: obstacle points (global frame) that shut the way, for route_planner_node to replan
        self.blocked_pub = self.create_publisher(PointCloud2, "route/obstacles", 5)
        self._asked_replan = False
        self.create_subscription(PathMsg, self.params["route_topic"], self._on_route, LATCHED)
        #: the resolved (remapped) topic of each obstacle source, for status messages
        self.sensor_topics: list[str] = []
        if "scan" in self.sources:
            sub = self.create_subscription(LaserScan, "scan", self._on_scan, SENSOR_QOS)
            self._scan_topic = sub.topic_name
            self.sensor_topics.append(sub.topic_name)
        if "cloud" in self.sources:
            sub = self.create_subscription(PointCloud2, "points", self._on_cloud, SENSOR_QOS)
            self._cloud_topic = sub.topic_name
            self.sensor_topics.append(sub.topic_name)
        self.create_subscription(Odometry, "odom", self._on_odom, 10)
        # The map: scan points on it are structure, the rest may be people (control/tracking).
        self.create_subscription(OccupancyGrid, "map", self._on_map, LATCHED)
        #: lockstep: the /odom waiting for its /scan, the stamp (s) of the last step, the /odom
        #: held while a global replan is pending (and since when, wall s)
        self._pending: Odometry | None = None
        self._scan_stamp = -math.inf
        self._stepped: float | None = None
        self._held: tuple[Odometry, float] | None = None
        self._goal: Any = None
        self._goal_done: Future | None = None
        self._goal_nav2 = False
        self._travelled = 0.0
        self._action = ActionServer(self, FollowRoute, "follow_route", self._on_goal,
                                    cancel_callback=lambda _g: CancelResponse.ACCEPT,
                                    callback_group=ReentrantCallbackGroup())
        self._nav2_action = ActionServer(self, FollowPath, "follow_path", self._on_goal,
                                         cancel_callback=lambda _g: CancelResponse.ACCEPT,
                                         callback_group=ReentrantCallbackGroup())
        self.create_timer(0.05, self._poll_goal)
        self.create_timer(0.1, self._release_held)

    def _on_route(self, msg: PathMsg) -> None:
        self.follow(msg)
        held, self._held = self._held, None
        if held is not None:
            # The step that asked for the replan is taken again on the new route.
            self._stepped = None
            self._on_odom(held[0])

    def _release_held(self) -> None:
        """No new route within ``replan_wait``: answer the held /odom (on the old route)."""
        if self._held is not None and time.monotonic() - self._held[1] >= \
                self.params["replan_wait"]:
            msg, self._held = self._held[0], None
            self.get_logger().warn("no new route within replan_wait; going on")
            self._answer(msg, self.last if self.last is not None else self.follower.halt(
                "no new route"), was_arrived=False)

    def _on_map(self, msg: OccupancyGrid) -> None:
        grid = convert.occupancy_array(msg)
        with self._lock:
            self.follower.set_static_map(grid != convert.FREE, msg.info.origin.position.x,
                                         msg.info.origin.position.y, msg.info.resolution)

    def follow(self, msg: PathMsg) -> None:
        """Start following ``msg`` (an empty path stops the base)."""
        try:
            with self._lock:
                self.follower.set_path(convert.path_points(msg))
        except Map2RouteError as err:
            self.get_logger().error(f"refusing route: {err}")
            return
        self._asked_replan = False
        if self.params["publish_nav2_path"]:
            self.plan_pub.publish(msg)
        self.get_logger().info(f"following a route of {self.follower.length:.2f} m")

    def _sensor_in_base(self, frame_id: str) -> Transform:
        """The pose of a sensor message's frame in ``base_frame`` (empty frame: the base)."""
        if not frame_id or frame_id.lstrip("/") == self.params["base_frame"]:
            return Transform()
        return self.tf.lookup(self.params["base_frame"], frame_id)

    def _on_scan(self, msg: LaserScan) -> None:
        try:
            mount = self._sensor_in_base(msg.header.frame_id)
        except FrameError as err:
            self.get_logger().warn(f"dropping a scan: {err}", throttle_duration_sec=2.0)
            return
        pts = scan_to_points(np.asarray(msg.ranges), msg.angle_min, msg.angle_increment,
                             range_max=msg.range_max)
        stamp = stamp_seconds(msg.header.stamp)
        if self.params["sync_scan"] and stamp < self._scan_stamp - 1e-9:
            return  # lockstep: a late scan of an earlier state must not replace a newer one
        self.obstacles.update(self._scan_topic, stamp, planar_points_to_base(pts, mount))
        self._scan_stamp = max(self._scan_stamp, stamp)
        pending = self._pending
        if pending is not None and stamp_seconds(pending.header.stamp) <= stamp + 1e-9:
            self._pending = None
            self._on_odom(pending)

    def _on_cloud(self, msg: PointCloud2) -> None:
        try:
            mount = self._sensor_in_base(msg.header.frame_id)
            xyz = cloud_xyz(msg)
        except FrameError as err:
            self.get_logger().warn(f"dropping a cloud: {err}", throttle_duration_sec=2.0)
            return
        pts = cloud_obstacle_points(xyz, mount, z_min=self.params["obstacle_min_height"],
                                    z_max=self.params["obstacle_max_height"])
        self.obstacles.update(self._cloud_topic, stamp_seconds(msg.header.stamp), pts)

    def _on_odom(self, msg: Odometry) -> None:
        stamp = stamp_seconds(msg.header.stamp)
        if len(self.follower.path) == 0:
            return
        sync = self.params["sync_scan"]
        if self._stepped is not None and (abs(stamp - self._stepped) < 1e-9 or
                                          sync and stamp < self._stepped):
            # The same state again (a paused sim republishes): answered already, no new step.
            # In lockstep sim time never goes back, so an older stamp is a late message of a
            # state already past: stepping on it (dt 0, an old pose) would send an answer the
            # sim takes for the current state's.
            return
        if sync and "scan" in self.sources and self._scan_stamp < stamp - 1e-9:
            pending = self._pending
            if pending is None or stamp_seconds(pending.header.stamp) < stamp:
                self._pending = msg  # stepped when the scan of this stamp is in (_on_scan)
            return
        dt = 0.0 if self._stepped is None else max(0.0, stamp - self._stepped)
        self._stepped = stamp
        was_arrived = self.follower.arrived
        points = self.obstacles.points(stamp)
        try:
            x, y, yaw = self.tf.odom_pose(self.params["global_frame"], msg)
        except FrameError as err:
            cmd = self._halt(f"no pose in {self.params['global_frame']!r}: {err}; stopped")
        else:
            if points is None:
                cmd = self._halt(self.obstacles.blind_reason(stamp, self.sensor_topics))
            else:
                with self._lock:
                    cmd = self.follower.step(x, y, yaw, points, dt)
                if self.follower.needs_replan and not self._asked_replan:
                    self._ask_replan(x, y, yaw, points, msg.header.stamp)
                    if self.params["replan_wait"] > 0:
                        # Lockstep: no answer until the planner's new route, so sim time
                        # stands still while it plans (the same run on any machine).
                        self.last = cmd
                        self._held = (msg, time.monotonic())
                        return
        self._answer(msg, cmd, was_arrived)

    def _answer(self, msg: Odometry, cmd: FollowerCommand, was_arrived: bool) -> None:
        """Publish ``cmd`` (twist and status) for the step of ``msg``."""
        self.last = cmd
        if not was_arrived:
            self.last_stamp = stamp_seconds(msg.header.stamp)
            twist = Twist()
            twist.linear.x, twist.linear.y, twist.angular.z = cmd.vx, cmd.vy, cmd.wz
            self._send(twist, msg.header.stamp)
            st = FollowerStatus(header=msg.header, state=STATE_CODES[cmd.state],
                                progress=float(cmd.progress),
                                distance_to_goal=float(cmd.distance_to_goal),
                                speed=float(cmd.speed), nearest_obstacle=float(cmd.nearest_obstacle),
                                message=cmd.message)
            self.status_pub.publish(st)
            if cmd.state is FollowerState.ARRIVED:
                self.get_logger().info("arrived")

    def _ask_replan(self, x: float, y: float, yaw: float, points: np.ndarray,
                    stamp: Any) -> None:
        """No local detour: send what blocks the way (within 2 m) to the planner, once per route."""
        self._asked_replan = True
        near = points[np.hypot(points[:, 0], points[:, 1]) <= 2.0]
        c, s = np.cos(yaw), np.sin(yaw)
        world = np.column_stack([x + c * near[:, 0] - s * near[:, 1],
                                 y + s * near[:, 0] + c * near[:, 1], np.zeros(len(near))])
        self.blocked_pub.publish(convert.cloud_msg(world, self.params["global_frame"], stamp))
        self.get_logger().warn(f"no local detour around {len(near)} obstacle points: asking "
                               "route_planner_node for a global replan")

    def _send(self, twist: Twist, stamp: Any) -> None:
        """Publish ``twist`` as Twist, or as TwistStamped in ``base_frame`` (CMU stack)."""
        if self.params["cmd_vel_stamped"]:
            out = TwistStamped(twist=twist)
            out.header.frame_id, out.header.stamp = self.params["base_frame"], stamp
            self.cmd_pub.publish(out)
        else:
            self.cmd_pub.publish(twist)

    def _halt(self, reason: str) -> FollowerCommand:
        """Stop the base (BLOCKED) for ``reason``, logged as a warning."""
        self.get_logger().warn(reason, throttle_duration_sec=2.0)
        with self._lock:
            return self.follower.halt(reason)

    async def _on_goal(self, goal_handle: Any) -> Any:
        # Non-blocking: the goal waits on a future that :meth:`_poll_goal` completes, so the
        # odometry callbacks that drive the base keep running on a single-threaded executor
        # (``rclpy.spin``), as they must on a robot. Serves follow_route and Nav2's follow_path.
        nav2 = isinstance(goal_handle.request, FollowPath.Goal)
        path = goal_handle.request.path
        if not path.poses:
            result = self._result(nav2, "INVALID_PATH", "empty path")
            goal_handle.abort()
            return result
        self._finish_goal(None)  # a new goal preempts the running one
        self.follow(path)
        self.last = None
        self._goal, self._goal_done, self._travelled = goal_handle, Future(), 0.0
        self._goal_nav2 = nav2
        return await self._goal_done

    @staticmethod
    def _result(nav2: bool, code: str, message: str = "") -> Any:
        """A result of either action with the named error code (``NONE``: success)."""

        kind = FollowPath if nav2 else FollowRoute
        if nav2 and code == "CANCELED":
            code = "UNKNOWN"  # FollowPath has no code for preemption; the message says it
        result = kind.Result(error_msg=message)
        result.error_code = getattr(kind.Result, code)
        return result

    def _finish_goal(self, result: Any) -> None:
        """End the running goal (if any) with ``result``; ``None`` aborts it as preempted."""
        goal, done = self._goal, self._goal_done
        self._goal = self._goal_done = None
        if goal is None or done is None or done.done():
            return
        if result is None:
            result = self._result(self._goal_nav2, "CANCELED", "preempted by a new goal")
            goal.abort()
        done.set_result(result)

    def _poll_goal(self) -> None:

        goal, nav2 = self._goal, self._goal_nav2
        if goal is None:
            return
        if goal.is_cancel_requested:
            with self._lock:
                self.follower.set_path(np.zeros((0, 2)))
            self._send(Twist(), self.get_clock().now().to_msg())
            goal.canceled()
            self._finish_goal(self._result(nav2, "NONE" if nav2 else "CANCELED", "canceled"))
            return
        cmd = self.last
        if cmd is None:
            return
        self._travelled = max(self._travelled, self.follower.length * cmd.progress)
        if nav2:
            goal.publish_feedback(FollowPath.Feedback(distance_to_goal=float(cmd.distance_to_goal),
                                                      speed=float(cmd.speed)))
        else:
            goal.publish_feedback(FollowRoute.Feedback(
                distance_to_goal=float(cmd.distance_to_goal), speed=float(cmd.speed),
                progress=float(cmd.progress)))
        if cmd.state is FollowerState.ARRIVED:
            result = self._result(nav2, "NONE")
            if not nav2:
                result.arrived, result.distance_travelled = True, self._travelled
            goal.succeed()
            self._finish_goal(result)

def main(args: list[str] | None = None) -> int:
    return run_node(PathFollowerNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
