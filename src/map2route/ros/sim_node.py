"""``sim_node``: a benchmark map replayed as a world for a Mecanum base.

Integrates ``/cmd_vel`` (:mod:`map2route.sim.kinematics`, wheel-speed saturation), detects
ground-truth collisions of the 0.5 x 0.5 m body against walls, object footprints and extra
obstacles (a step that would collide is refused and counted), and publishes ``/odom``
(``nav_msgs/Odometry``, frame ``odom`` -> ``base_link``), ``/scan`` (``sensor_msgs/LaserScan``)
and ``/points`` (``sensor_msgs/PointCloud2``, Livox-Mid-360-like, body frame ``lidar_link``),
both with sensor-data QoS (BEST_EFFORT, as LiDAR drivers), ``/clock`` and ``/sim/collisions``
(``std_msgs/UInt32``, events so far).

Frames (REP-105, the names the Gazebo world shares): ``/tf`` carries ``map -> odom`` (the
``odom_offset_*`` parameters: where odometry started in the map, as a localiser would report;
zero by default) and ``odom -> base_link`` every step; ``/tf_static`` carries
``base_link -> lidar_link`` (at ``sensor_height``), ``camera_link`` and ``imu_link``.

In ``lockstep`` mode the world advances as soon as ``/cmd_vel`` answers the last ``/odom``,
so the simulation runs as fast as the nodes keep up; with no answer within
``lockstep_timeout`` wall seconds it steps anyway (nobody is driving) with the base at rest:
a late controller must not see the base coast on its previous command, or a busy machine
would change where the robot goes. With ``lockstep_strict`` it never steps without an
answer: sim time (``/clock``, every stamp) then advances only as the controller answers, so
a run does not depend on the machine's speed (the runner drives this way; a launch without a
controller would wait forever, so launch files keep the timeout).

A colliding step is counted as ``drove_into`` (the base's own motion made the overlap) or
``struck`` (something moved onto the base where it stood), see
:meth:`map2route.sim.World.contact`.
"""

from __future__ import annotations

import array
import threading
import time
from typing import Any

import numpy as np
from builtin_interfaces.msg import Time
from geometry_msgs.msg import Twist
from nav_msgs.msg import Odometry
from rcl_interfaces.msg import SetParametersResult
from rclpy.clock import Clock, ClockType
from rclpy.node import Node
from rosgraph_msgs.msg import Clock as ClockMsg
from sensor_msgs.msg import LaserScan, PointCloud2, PointField
from std_msgs.msg import Header, UInt32
from tf2_msgs.msg import TFMessage

from map2route.control.frames import Transform
from map2route.errors import Map2RouteError
from map2route.ros import convert
from map2route.ros.frames import SENSOR_QOS, TF_QOS, TF_STATIC_QOS, transform_msg
from map2route.ros.params import (
    NodeConfigError,
    Param,
    declare,
    non_empty,
    non_negative,
    one_of,
    positive,
    run_node,
)
from map2route.semantic_map.io import load_scene
from map2route.semantic_map.shipped import resolve_scene
from map2route.sim import (
    LaserConfig,
    MecanumBase,
    PointCloudConfig,
    Pose2D,
    SimError,
    Twist2D,
    World,
    cast_cloud,
    cast_scan,
)
from map2route.sim.kinematics import integrate
from map2route.sim.scenarios import parse_obstacles


def _positive_int(v: Any) -> str | None:
    return None if v >= 1 else f"must be >= 1, got {v}"


PARAMS = (
    Param("scene", str, "scene folder or name under maps/", non_empty),
    Param("start_x", float, "start x (map frame, m)"),
    Param("start_y", float, "start y (map frame, m)"),
    Param("start_yaw", float, "start heading (rad)"),
    Param("dt", float, "simulation step (s)", positive),
    Param("step_mode", str, "lockstep or realtime", one_of("lockstep", "realtime")),
    Param("lockstep_timeout", float, "wall s to wait for /cmd_vel", positive),
    Param("lockstep_strict", bool, "lockstep: never step without a /cmd_vel answer"),
    Param("vehicle_length", float, "m", positive),
    Param("vehicle_width", float, "m", positive),
    Param("wheel_radius", float, "m", positive),
    Param("max_wheel_speed", float, "rad/s", positive),
    Param("cmd_timeout", float, "sim s before a command goes stale", positive),
    Param("scan_beams", int, "LaserScan beams", _positive_int),
    Param("scan_range_max", float, "m", positive),
    Param("scan_every", int, "steps between scans", _positive_int),
    Param("cloud_enabled", bool, "publish /points"),
    Param("cloud_every", int, "steps between clouds", _positive_int),
    Param("cloud_h_beams", int, "horizontal rays", _positive_int),
    Param("cloud_v_beams", int, "vertical rays", _positive_int),
    Param("sensor_height", float, "m above the floor", non_negative),
    Param("obstacles", str, "extra obstacles, see config/sim_node.yaml"),
    Param("map_frame", str, "map frame", non_empty),
    Param("odom_frame", str, "odometry frame", non_empty),
    Param("base_frame", str, "robot frame", non_empty),
    Param("lidar_frame", str, "frame of /scan and /points", non_empty),
    Param("camera_frame", str, "camera frame (static TF only)", non_empty),
    Param("imu_frame", str, "IMU frame (static TF only)", non_empty),
    Param("camera_height", float, "m above the floor", non_negative),
    Param("imu_height", float, "m above the floor", non_negative),
    Param("odom_offset_x", float, "odom origin in the map (m)"),
    Param("odom_offset_y", float, "odom origin in the map (m)"),
    Param("odom_offset_yaw", float, "odom heading in the map (rad)"),
    Param("publish_clock", bool, "publish /clock"),
)
PARAM_FILE = "sim_node.yaml"

CLOUD_FIELDS = [PointField(name=n, offset=4 * i, datatype=PointField.FLOAT32, count=1)
                for i, n in enumerate("xyz")]


class SimNode(Node):
    """The simulated world and robot; see the module docstring."""

    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("sim_node", **node_kwargs)
        p = self.params = declare(self, PARAMS, PARAM_FILE)
        try:
            m = load_scene(resolve_scene(p["scene"]))
            self.world = World.from_map(m, parse_obstacles(p["obstacles"]))
            self.base = MecanumBase(p["vehicle_length"] / 2, p["vehicle_width"] / 2,
                                    p["wheel_radius"], p["max_wheel_speed"])
        except Map2RouteError as err:
            raise NodeConfigError(f"sim_node cannot start: {err}") from err
        self.pose = Pose2D(p["start_x"], p["start_y"], p["start_yaw"])
        self.half = (p["vehicle_length"] / 2, p["vehicle_width"] / 2)
        if self.world.collides(self.pose, *self.half):
            raise NodeConfigError(f"sim_node: the start ({self.pose.x:.2f}, {self.pose.y:.2f}) "
                                  f"puts the robot inside an obstacle of {m.name!r}; choose "
                                  "start_x/start_y in free space")
        self.laser = LaserConfig(beams=p["scan_beams"], range_max=p["scan_range_max"])
        self.cloud = PointCloudConfig(h_beams=p["cloud_h_beams"], v_beams=p["cloud_v_beams"],
                                      sensor_height=p["sensor_height"])
        self.t = 0.0
        self.steps = 0
        self.collisions = 0
        #: collision events by kind (World.contact): the base drove into something, or
        #: something (a person) walked into the standing base
        self.drove_into = 0
        self.struck = 0
        self.in_collision = False
        #: sim time at which the world stops by itself (the runner's time limit), or None
        self.stop_at: float | None = None
        self.cmd = Twist2D()
        self.cmd_time = -np.inf
        self._answered = False
        self.velocity = Twist2D()
        #: (t, x, y, yaw) after every step: the executed trajectory, ground truth.
        self.trajectory: list[tuple[float, float, float, float]] = [
            (0.0, self.pose.x, self.pose.y, self.pose.yaw)]
        #: While True the world does not advance (the runner pauses it while a route is
        #: grounded and planned, as a simulator pauses physics); the state is still published.
        self.paused = False
        self.step_lock = threading.Lock()
        self._last_step_wall = time.monotonic()
        #: odom's pose in the map: odometry reports poses relative to where it started.
        self.map_to_odom = Transform.planar(p["odom_offset_x"], p["odom_offset_y"],
                                            p["odom_offset_yaw"])
        self.odom_pub = self.create_publisher(Odometry, "odom", 10)
        self.scan_pub = self.create_publisher(LaserScan, "scan", SENSOR_QOS)
        self.cloud_pub = self.create_publisher(PointCloud2, "points", SENSOR_QOS)
        self.clock_pub = self.create_publisher(ClockMsg, "clock", 10)
        self.collision_pub = self.create_publisher(UInt32, "sim/collisions", 10)
        self.tf_pub = self.create_publisher(TFMessage, "/tf", TF_QOS)
        self.tf_static_pub = self.create_publisher(TFMessage, "/tf_static", TF_STATIC_QOS)
        self._publish_static_tf()
        self.create_subscription(Twist, "cmd_vel", self._on_cmd, 10)
        self.add_on_set_parameters_callback(self._on_params)
        steady = Clock(clock_type=ClockType.STEADY_TIME)
        period = p["dt"] if p["step_mode"] == "realtime" else min(p["lockstep_timeout"], 0.1)
        self.create_timer(period, self._on_timer, clock=steady)
        self.publish()

    def _on_params(self, params: list[Any]) -> SetParametersResult:
        for prm in params:
            if prm.name == "obstacles":
                try:
                    obstacles = parse_obstacles(str(prm.value))
                except SimError as err:
                    return SetParametersResult(successful=False, reason=str(err))
                with self.step_lock:
                    self.world.obstacles[:] = obstacles
        return SetParametersResult(successful=True)

    def _on_cmd(self, msg: Twist) -> None:
        with self.step_lock:
            self.cmd = Twist2D(msg.linear.x, msg.linear.y, msg.angular.z)
            self.cmd_time = self.t
            # Each answer steps the world at most once (here, or in resume() if it came while
            # the world was paused).
            self._answered = True
            if self.params["step_mode"] == "lockstep" and not self.paused:
                self._step_locked(hold_command=True)

    def resume(self) -> None:
        """Unpause; in lockstep, step at once if the current state was answered while paused,
        else publish it to ask for an answer. Safe from any thread (the runner calls it from
        its own): the decision, the step and the publication are one locked section."""
        with self.step_lock:
            self.paused = False
            if self.params["step_mode"] == "lockstep" and self._answered:
                self._step_locked(hold_command=True)
            else:
                self._publish_locked()

    def _on_timer(self) -> None:
        if self.paused:
            # Time stands still; keep publishing the state so late subscribers get a pose.
            if time.monotonic() - self._last_step_wall >= 0.1:
                self._last_step_wall = time.monotonic()
                self.publish()
            return
        if self.params["step_mode"] == "realtime":
            self.step()
        elif not self.params["lockstep_strict"] and \
                time.monotonic() - self._last_step_wall >= self.params["lockstep_timeout"]:
            self.step(hold_command=False)

    def step(self, *, hold_command: bool = True) -> None:
        """Advance the world by ``dt`` with the latest command, then publish.

        Args:
            hold_command: use the latest command while it is fresher than ``cmd_timeout``
                (a real base's watchdog); False steps with the base at rest.
        """
        with self.step_lock:
            self._step_locked(hold_command=hold_command)

    def _step_locked(self, *, hold_command: bool) -> None:
        """:meth:`step` with ``step_lock`` held (the state is published before it is let go)."""
        if self.stop_at is not None and self.t >= self.stop_at - 1e-9:
            self.paused = True
            return
        if hold_command and self.params["step_mode"] == "lockstep" and not self._answered:
            return  # this state's answer was used already (a late duplicate)
        self._answered = False
        dt = self.params["dt"]
        fresh = hold_command and self.t - self.cmd_time <= self.params["cmd_timeout"]
        cmd = self.cmd if fresh else Twist2D()
        cmd = self.base.saturate(cmd)
        new_pose = integrate(self.pose, cmd, dt)
        self.steps += 1
        # Whole steps times dt, not a running sum: the same step has the same time.
        self.t = self.steps * dt
        kind = self.world.contact(self.pose, new_pose, *self.half, self.t)
        hit = kind is not None
        if hit:
            # A bumper stops the base: the step is refused, the event counted once.
            if not self.in_collision:
                self.collisions += 1
                if kind == "struck":
                    self.struck += 1
                else:
                    self.drove_into += 1
                self.get_logger().warn(f"collision ({kind}) at ({new_pose.x:.2f}, "
                                       f"{new_pose.y:.2f}), t={self.t:.2f} s")
            self.velocity = Twist2D()
        else:
            self.pose, self.velocity = new_pose, cmd
        self.in_collision = hit
        self.trajectory.append((self.t, self.pose.x, self.pose.y, self.pose.yaw))
        self._last_step_wall = time.monotonic()
        self._publish_locked()

    def _stamp(self) -> Any:

        # From whole nanoseconds: t = 2.9999999999996 (ten 0.1 s steps summed) is 3 s, not 2 s.
        sec, nanosec = divmod(int(round(self.t * 1e9)), 1_000_000_000)
        return Time(sec=sec, nanosec=nanosec)

    def publish(self) -> None:
        """Publish clock, scan (and cloud) for the current state, then odometry last."""
        with self.step_lock:
            self._publish_locked()

    def _publish_locked(self) -> None:
        """:meth:`publish` with ``step_lock`` held: every message of one publication describes
        one state, and states go out in the order they happened. (The runner's ``resume`` runs
        on its own thread: unlocked, its republish of t = 0 could pair the t = 0 stamp with the
        pose of a step taken meanwhile, or go out after that step's messages; the follower then
        stepped on it, and the run depended on thread timing.)"""
        p = self.params
        stamp = self._stamp()
        if p["publish_clock"]:
            self.clock_pub.publish(ClockMsg(clock=stamp))
        sensor_header = Header(frame_id=p["lidar_frame"], stamp=stamp)
        if self.steps % p["scan_every"] == 0:
            ranges = cast_scan(self.world, self.pose, self.laser, self.t)
            scan = LaserScan(header=sensor_header, angle_min=float(self.laser.angle_min),
                             angle_max=float(self.laser.angle_min + (self.laser.beams - 1)
                                             * self.laser.angle_increment),
                             angle_increment=float(self.laser.angle_increment),
                             time_increment=0.0, scan_time=float(p["dt"] * p["scan_every"]),
                             range_min=float(self.laser.range_min),
                             range_max=float(self.laser.range_max))
            scan.ranges = array.array("f", ranges.astype(np.float32).tobytes())
            self.scan_pub.publish(scan)
        if p["cloud_enabled"] and self.steps % p["cloud_every"] == 0:
            pts = cast_cloud(self.world, self.pose, self.cloud, self.t)
            cloud = PointCloud2(header=sensor_header, height=1, width=len(pts),
                                fields=CLOUD_FIELDS, is_bigendian=False, point_step=12,
                                row_step=12 * len(pts), is_dense=True)
            cloud.data = pts.tobytes()
            self.cloud_pub.publish(cloud)
        self.collision_pub.publish(UInt32(data=self.collisions))
        odom = Odometry(header=Header(frame_id=p["odom_frame"], stamp=stamp),
                        child_frame_id=p["base_frame"])
        # Odometry is relative to where it started: the true (map) pose seen from odom.
        in_odom = self.map_to_odom.inverse() * Transform.planar(self.pose.x, self.pose.y,
                                                                self.pose.yaw)
        odom.pose.pose.position.x, odom.pose.pose.position.y = in_odom.translation[:2]
        odom.pose.pose.orientation = convert.yaw_quaternion(in_odom.yaw)
        odom.twist.twist.linear.x, odom.twist.twist.linear.y = self.velocity.vx, self.velocity.vy
        odom.twist.twist.angular.z = self.velocity.wz
        self._publish_tf(odom)
        self.odom_pub.publish(odom)

    def _publish_static_tf(self) -> None:
        """The sensors' mounts on the base (latched, as tf2's static broadcaster)."""
        p, stamp = self.params, self._stamp()
        mounts = ((p["lidar_frame"], p["sensor_height"]), (p["camera_frame"], p["camera_height"]),
                  (p["imu_frame"], p["imu_height"]))
        self.tf_static_pub.publish(TFMessage(transforms=[
            transform_msg(p["base_frame"], frame, Transform((0.0, 0.0, z)), stamp)
            for frame, z in mounts]))

    def _publish_tf(self, odom: Odometry) -> None:
        p = self.params
        base_in_odom = Transform.planar(odom.pose.pose.position.x, odom.pose.pose.position.y,
                                        convert.quaternion_yaw(odom.pose.pose.orientation))
        self.tf_pub.publish(TFMessage(transforms=[
            transform_msg(p["map_frame"], p["odom_frame"], self.map_to_odom, odom.header.stamp),
            transform_msg(p["odom_frame"], p["base_frame"], base_in_odom, odom.header.stamp)]))

def main(args: list[str] | None = None) -> int:
    return run_node(SimNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
