"""The in-process simulation runner behind ``map2route sim``: the launch file, in Python.

Starts the same five nodes as ``launch/sim.launch.xml`` with the same parameter files
(:data:`NODES`), in one process on a :class:`~rclpy.executors.SingleThreadedExecutor`, on a
private ROS context; sends the instruction; waits until the robot arrives, grounding or
planning fails, or the sim-time limit passes; records an MCAP bag of /odom, /route, /cmd_vel,
/scan, /tf, /tf_static and /clock (each topic with the QoS its publisher offers, as ``ros2 bag
record`` stores it, so a replay matches the robot's QoS) with :mod:`rosbags`; and returns a
:class:`SimRun` a caller can branch on.
"""

from __future__ import annotations

import importlib
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from geometry_msgs.msg import Twist
from nav_msgs.msg import Odometry
from nav_msgs.msg import Path as PathMsg
from rosbags.interfaces import (
    Qos,
    QosDurability,
    QosHistory,
    QosLiveliness,
    QosReliability,
    QosTime,
)
from rosbags.rosbag2 import StoragePlugin, Writer
from rosbags.typesys import Stores, get_typestore
from rosgraph_msgs.msg import Clock as ClockMsg
from sensor_msgs.msg import LaserScan
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

from map2route.config import read_yaml
from map2route.errors import Map2RouteError
from map2route.ros.frames import TF_QOS, TF_STATIC_QOS
from map2route.ros.params import config_file
from map2route.ros.semantic_map_server import LATCHED
from map2route.semantic_map.io import load_scene
from map2route.semantic_map.shipped import resolve_scene
from map2route.sim.errors import SimError
from map2route.sim.start import default_start as free_start

#: (executable = node name, module, parameter file): what both launch files start.
NODES: tuple[tuple[str, str, str], ...] = (
    ("semantic_map_server", "map2route.ros.semantic_map_server", "semantic_map_server.yaml"),
    ("grounding_node", "map2route.ros.grounding_node", "grounding_node.yaml"),
    ("route_planner_node", "map2route.ros.route_planner_node", "route_planner_node.yaml"),
    ("path_follower_node", "map2route.ros.path_follower_node", "path_follower_node.yaml"),
    ("sim_node", "map2route.ros.sim_node", "sim_node.yaml"),
)
NODE_CLASSES = {"semantic_map_server": "SemanticMapServer", "grounding_node": "GroundingNode",
                "route_planner_node": "RoutePlannerNode", "path_follower_node": "PathFollowerNode",
                "sim_node": "SimNode"}
#: (topic, type, QoS its publisher offers: reliable?, transient local?, depth).
BAG_TOPICS = (("/odom", "nav_msgs/msg/Odometry", True, False, 10),
              ("/route", "nav_msgs/msg/Path", True, True, 1),
              ("/cmd_vel", "geometry_msgs/msg/Twist", True, False, 10),
              ("/scan", "sensor_msgs/msg/LaserScan", False, False, 5),
              ("/tf", "tf2_msgs/msg/TFMessage", True, False, 100),
              ("/tf_static", "tf2_msgs/msg/TFMessage", True, True, 1),
              ("/clock", "rosgraph_msgs/msg/Clock", True, False, 10))


class SimRunError(Map2RouteError):
    """The simulation could not be set up (scene, start, bag path)."""


@dataclass
class SimRun:
    """The outcome of one simulated run.

    Attributes:
        outcome: ``arrived``, ``time_limit``, ``grounding_failed`` or ``planning_failed``.
        message: the status message in words (empty when arrived).
        sim_seconds, wall_seconds: sim and wall time of the drive, from the first route to the
            end (the world is paused while the instruction is grounded and planned).
        planning_wall_seconds: wall time from sending the instruction to the first route.
        trajectory: ``(N, 3)`` sim time, x, y after every simulation step (ground truth).
    """

    outcome: str
    arrived: bool
    collisions: int
    sim_seconds: float
    wall_seconds: float
    steps: int
    route_length_m: float | None
    travelled_m: float
    final_pose: tuple[float, float, float]
    bag: str | None
    message: str = ""
    planning_wall_seconds: float = 0.0
    trajectory: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    #: ``(N, 4)`` sim time, x, y, yaw after every step
    poses: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    #: collision events by kind (``collisions`` is their sum; see sim_node)
    drove_into: int = 0
    struck: int = 0

    @property
    def real_time_factor(self) -> float:
        return self.sim_seconds / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "arrived": self.arrived, "collisions": self.collisions,
                "drove_into": self.drove_into, "struck": self.struck,
                "sim_seconds": round(self.sim_seconds, 3),
                "wall_seconds": round(self.wall_seconds, 3),
                "planning_wall_seconds": round(self.planning_wall_seconds, 3),
                "real_time_factor": round(self.real_time_factor, 2), "steps": self.steps,
                "route_length_m": None if self.route_length_m is None
                else round(self.route_length_m, 3),
                "travelled_m": round(self.travelled_m, 3),
                "final_pose": [round(v, 3) for v in self.final_pose], "bag": self.bag,
                "message": self.message}


def file_parameters(node_name: str, file_name: str) -> dict[str, Any]:
    """The ``ros__parameters`` of ``node_name`` in ``config/<file_name>`` (what launch loads)."""
    path = config_file(file_name)
    data = read_yaml(path, what="parameter file", error=SimRunError,
                     hint="; it ships in config/") or {}
    try:
        return dict(data[node_name]["ros__parameters"])
    except (KeyError, TypeError) as err:
        msg = f"{path} has no '{node_name}: ros__parameters:' section"
        raise SimRunError(msg) from err


def default_start(m: Any, clearance_m: float = 0.4) -> tuple[float, float]:
    """:func:`map2route.sim.start.default_start` (Gazebo's spawn uses it too).

    Raises:
        SimRunError: no cell of the map has that clearance.
    """
    try:
        return free_start(m, clearance_m)
    except SimError as err:
        raise SimRunError(str(err)) from err


def bag_qos(reliable: bool, latched: bool, depth: int) -> Any:
    """A rosbag2 offered-QoS entry (what ``ros2 bag play`` re-offers for the topic)."""

    never = QosTime(sec=0, nsec=0)  # rosbag2 writes the "infinite" defaults as 0
    return Qos(history=QosHistory.KEEP_LAST, depth=depth,
               reliability=QosReliability.RELIABLE if reliable else QosReliability.BEST_EFFORT,
               durability=QosDurability.TRANSIENT_LOCAL if latched else QosDurability.VOLATILE,
               deadline=never, lifespan=never, liveliness=QosLiveliness.AUTOMATIC,
               liveliness_lease_duration=never, avoid_ros_namespace_conventions=False)


class BagRecorder:
    """Writes raw CDR messages of :data:`BAG_TOPICS` to an MCAP bag (rosbags Writer)."""

    def __init__(self, path: Path) -> None:

        if path.exists():
            raise SimRunError(f"bag {path} already exists; pass another --bag path or remove it")
        self.path = path
        self.writer = Writer(path, version=8, storage_plugin=StoragePlugin.MCAP)
        self.writer.open()
        store = get_typestore(Stores.ROS2_JAZZY)
        self.connections = {t: self.writer.add_connection(
            t, ty, typestore=store, offered_qos_profiles=[bag_qos(rel, latched, depth)])
            for t, ty, rel, latched, depth in BAG_TOPICS}
        self._lock = threading.Lock()
        self.counts = {t: 0 for t, *_ in BAG_TOPICS}
        #: header stamp (ns) of the newest /odom written, so a run can wait for its last pose.
        self.last_odom_stamp_ns = -1

    def write(self, topic: str, stamp_ns: int, raw: bytes) -> None:
        with self._lock:
            self.writer.write(self.connections[topic], stamp_ns, raw)
            self.counts[topic] += 1
            if topic == "/odom" and len(raw) >= 12:
                # CDR: 4-byte encapsulation (byte 1 odd = little endian), then header.stamp.
                order = "<" if raw[1] & 1 else ">"
                sec, nsec = struct.unpack(order + "iI", raw[4:12])
                self.last_odom_stamp_ns = sec * 1_000_000_000 + nsec

    def close(self) -> None:
        with self._lock:
            self.writer.close()


#: What the runner sets on top of the parameter files: strict lockstep (sim time advances
#: only as the follower answers), the follower stepping on each /odom with the /scan of its
#: stamp and holding its answer while a global replan is pending. A run is then a function of
#: its inputs, not of the machine's speed or of message timing (docs/ros.md, Determinism).
LOCKSTEP: dict[str, dict[str, Any]] = {
    "sim_node": {"step_mode": "lockstep", "lockstep_strict": True, "scan_every": 1},
    "path_follower_node": {"sync_scan": True, "replan_wait": 10.0}}


def run_sim(scene: str | Path, instruction: str, *, start: tuple[float, float] | None = None,
            start_yaw: float = 0.0, time_limit_s: float = 120.0, bag: Path | None = None,
            obstacles: str = "", overrides: dict[str, dict[str, Any]] | None = None,
            on_progress: Callable[[dict[str, Any]], None] | None = None,
            after_route: Callable[[dict[str, Any]], None] | None = None) -> SimRun:
    """Run the nodes of :data:`NODES` in one process until arrival, failure or the time limit.

    Args:
        scene: scene folder or name under ``maps/``.
        instruction: what the robot should do.
        start: start ``(x, y)``; ``None`` picks :func:`default_start`.
        time_limit_s: sim seconds before giving up.
        bag: MCAP bag folder to record (must not exist).
        obstacles: extra obstacles for ``sim_node`` (its ``obstacles`` parameter syntax).
        overrides: per-node parameter overrides on top of the parameter files and
            :data:`LOCKSTEP`.
        on_progress: called about 5 times a wall second with a status dict.
        after_route: called once when the first route arrives, with the nodes by name
            (tests use it to drop an obstacle on the planned route).

    Raises:
        SimRunError / MapError: the scene cannot be loaded, the start is blocked, the bag exists.
    """
    import rclpy  # noqa: PLC0415 - ROS 2 is an optional extra
    from rclpy.executors import SingleThreadedExecutor  # noqa: PLC0415 - ROS 2 is an optional extra

    scene_path = resolve_scene(str(scene))
    m = load_scene(scene_path)
    if start is None:
        start = default_start(m)
    per_node = _node_parameters(scene_path, start, start_yaw, obstacles, overrides)
    context = rclpy.Context()
    rclpy.init(context=context)
    recorder_bag = BagRecorder(bag) if bag is not None else None
    nodes: dict[str, Any] = {}
    spinner: threading.Thread | None = None
    # One thread: rclpy's MultiThreadedExecutor spends most of its time rebuilding wait sets
    # (measured on the two-room house: 0.55x real time and late /cmd_vel answers, against
    # 25x on this executor). No callback of the nodes blocks, so one thread serves them all.
    executor = SingleThreadedExecutor(context=context)
    stopping = threading.Event()
    try:
        state, instruction_pub = _start_nodes(context, executor, per_node, nodes, recorder_bag)
        spinner = threading.Thread(target=_spin, args=(executor, stopping), daemon=True)
        spinner.start()
        sim = nodes["sim_node"]
        sim.paused = True
        _wait_for_maps(nodes)
        t_instruction = time.monotonic()
        instruction_pub.publish(String(data=instruction))
        drive = _drive(nodes, state, time_limit_s, t_instruction, on_progress, after_route)
        # Stop the world where the run ended, so the pose reported, the trajectory and the
        # bag's last /odom all describe the same state (a paused sim still republishes it).
        sim.paused = True
        drive["wall"] = time.monotonic() - drive["wall0"]
        if recorder_bag is not None:
            _flush(recorder_bag, sim.t)
        return _result(nodes, state, drive, bag)
    finally:
        stopping.set()
        executor.shutdown(timeout_sec=2.0)
        if spinner is not None:
            # A callback still running on the spin thread must end before its node goes.
            spinner.join(timeout=5.0)
        for n in nodes.values():
            n.destroy_node()
        if recorder_bag is not None:
            recorder_bag.close()
        rclpy.try_shutdown(context=context)


def _node_parameters(scene_path: Path, start: tuple[float, float], start_yaw: float,
                     obstacles: str, overrides: dict[str, dict[str, Any]] | None
                     ) -> dict[str, dict[str, Any]]:
    """Each node's parameters: its file, the scene and start, :data:`LOCKSTEP`, ``overrides``."""
    per_node: dict[str, dict[str, Any]] = {}
    for name, _module, file_name in NODES:
        per_node[name] = file_parameters(name, file_name)
    per_node["semantic_map_server"]["scene"] = str(scene_path)
    per_node["sim_node"].update(scene=str(scene_path), start_x=float(start[0]),
                                start_y=float(start[1]), start_yaw=float(start_yaw),
                                obstacles=obstacles)
    layers: tuple[dict[str, dict[str, Any]], ...] = (LOCKSTEP, overrides or {})
    for layer in layers:
        for name, values in layer.items():
            per_node.setdefault(name, {}).update(values)
    return per_node


def _spin(executor: Any, stopping: threading.Event) -> None:
    from rclpy.executors import ExternalShutdownException  # noqa: PLC0415 - ROS 2 is an optional extra

    try:
        executor.spin()
    except ExternalShutdownException:
        pass
    except Exception:
        # rclpy's wait loop can trip over a guard condition that shutdown() is tearing down
        # (AttributeError on its handle); after the run that is not an error.
        if not stopping.is_set():
            raise


def _start_nodes(context: Any, executor: Any, per_node: dict[str, dict[str, Any]],
                 nodes: dict[str, Any], recorder_bag: BagRecorder | None
                 ) -> tuple[dict[str, Any], Any]:
    """Create the nodes (into ``nodes``), the probe that watches statuses, and the recorder.

    Returns the probe's latest messages by name and the ``/instruction`` publisher.
    """
    import rclpy  # noqa: PLC0415 - ROS 2 is an optional extra
    from map2route_interfaces.msg import GroundingStatus, PlannerStatus  # noqa: PLC0415 - ROS 2 is an optional extra (cli imports this module)
    from rclpy.parameter import Parameter  # noqa: PLC0415 - ROS 2 is an optional extra
    from rclpy.qos import QoSProfile, ReliabilityPolicy  # noqa: PLC0415 - ROS 2 is an optional extra

    for name, module, _file in NODES:
        cls = getattr(importlib.import_module(module), NODE_CLASSES[name])
        overrides_list = [Parameter(k, value=v) for k, v in per_node[name].items()]
        # No parameter services in-process: fewer entities per executor wait, faster steps.
        nodes[name] = cls(context=context, parameter_overrides=overrides_list,
                          start_parameter_services=False)
        executor.add_node(nodes[name])
    probe = rclpy.create_node("sim_runner", context=context, start_parameter_services=False)
    executor.add_node(probe)
    state: dict[str, Any] = {"route": None, "grounding": None, "planner": None}
    probe.create_subscription(PathMsg, "route", lambda msg: state.__setitem__("route", msg),
                              LATCHED)
    probe.create_subscription(GroundingStatus, "grounding/status",
                              lambda msg: state.__setitem__("grounding", msg), LATCHED)
    probe.create_subscription(PlannerStatus, "route/status",
                              lambda msg: state.__setitem__("planner", msg), LATCHED)
    if recorder_bag is not None:
        # BEST_EFFORT like the sensor's publisher, deep enough that a busy recorder drops
        # nothing.
        sensor_qos = QoSProfile(depth=50, reliability=ReliabilityPolicy.BEST_EFFORT)
        rec = rclpy.create_node("bag_recorder", context=context, start_parameter_services=False)
        executor.add_node(rec)
        for topic, msg_type, qos in (("/odom", Odometry, QoSProfile(depth=50)),
                                     ("/route", PathMsg, LATCHED),
                                     ("/cmd_vel", Twist, QoSProfile(depth=50)),
                                     ("/scan", LaserScan, sensor_qos),
                                     ("/tf", TFMessage, TF_QOS),
                                     ("/tf_static", TFMessage, TF_STATIC_QOS),
                                     ("/clock", ClockMsg, QoSProfile(depth=50))):
            rec.create_subscription(msg_type, topic, _recorder(recorder_bag, topic, nodes),
                                    qos, raw=True)
    return state, probe.create_publisher(String, "instruction", 10)


def _wait_for_maps(nodes: dict[str, Any], timeout_s: float = 30.0) -> None:
    """Until grounding, planning and the follower (its moving-obstacle filter) have the map
    and grounding has the start pose."""
    ground, planner = nodes["grounding_node"], nodes["route_planner_node"]
    tracker = nodes["path_follower_node"].follower.tracker

    def missing() -> bool:
        return ground.map is None or planner.map is None or tracker.static is None

    deadline = time.monotonic() + timeout_s
    while missing() and time.monotonic() < deadline:
        time.sleep(0.01)
    if missing():
        raise SimRunError("grounding_node, route_planner_node and path_follower_node received "
                          f"no map within {timeout_s:.0f} s from semantic_map_server (/map, "
                          "/semantic_map)")
    while ground.pose is None and time.monotonic() < deadline:
        time.sleep(0.01)


def _drive(nodes: dict[str, Any], state: dict[str, Any], time_limit_s: float,
           t_instruction: float, on_progress: Callable[[dict[str, Any]], None] | None,
           after_route: Callable[[dict[str, Any]], None] | None) -> dict[str, Any]:
    """Wait for the route, start the world, and watch until an outcome; what happened."""
    from map2route.control import FollowerState  # noqa: PLC0415 - ROS 2 is an optional extra (cli imports this module)

    sim, follower = nodes["sim_node"], nodes["path_follower_node"]
    out: dict[str, Any] = {"outcome": "time_limit", "wall0": t_instruction, "sim0": sim.t,
                           "message": f"time limit of {time_limit_s:.0f} sim s reached",
                           "planning_wall": None}
    last_report = 0.0
    while True:
        time.sleep(0.005)
        # The follower's state is read in-process (it is also on /follower/status): one
        # subscriber fewer per simulation step.
        g, pl = state["grounding"], state["planner"]
        started = out["planning_wall"] is not None
        fo = follower.last if started else None
        if g is not None and g.code != 0:
            out.update(outcome="grounding_failed", message=g.message)
            break
        if pl is not None and pl.code != 0:
            out.update(outcome="planning_failed", message=pl.message)
            break
        if not started and state["route"] is not None and len(follower.follower.path):
            # The follower has the route too: start the world (its first step is then the
            # same in every run, whatever the order the route reached the nodes in).
            out["planning_wall"] = time.monotonic() - t_instruction
            if after_route is not None:
                after_route(nodes)
            out["wall0"], out["sim0"] = time.monotonic(), sim.t
            sim.stop_at = sim.t + time_limit_s
            # Steps at once if the follower already answered a paused republish, else asks
            # it at once instead of at the paused sim's next 10 Hz republish.
            sim.resume()
        if fo is not None and fo.state is FollowerState.ARRIVED:
            out.update(outcome="arrived", message="")
            break
        if started and (sim.paused or sim.t - out["sim0"] >= time_limit_s):
            break
        now = time.monotonic()
        if on_progress is not None and now - last_report > 0.2:
            last_report = now
            on_progress({"sim_seconds": sim.t - out["sim0"], "time_limit_s": time_limit_s,
                         "progress": float(fo.progress) if fo else 0.0,
                         "state": fo.message if fo else ("planning" if g else "grounding"),
                         "collisions": sim.collisions})
    return out


def _flush(recorder_bag: BagRecorder, t_end: float) -> None:
    """Wait (up to 2 s) until the bag holds the /odom of the final state."""
    final_ns = int(round(t_end * 1e9))
    deadline = time.monotonic() + 2.0
    while recorder_bag.last_odom_stamp_ns < final_ns - 1_000_000 and time.monotonic() < deadline:
        time.sleep(0.01)


def _result(nodes: dict[str, Any], state: dict[str, Any], drive: dict[str, Any],
            bag: Path | None) -> SimRun:
    sim = nodes["sim_node"]
    sim0 = drive["sim0"]
    pl = state["planner"]
    with sim.step_lock:
        traj = np.array(sim.trajectory, dtype=np.float64).reshape(-1, 4)
    t_end = sim.t
    if drive["outcome"] == "arrived":
        # The run ends in the state the follower called arrived; the zero twist it answered
        # may or may not have been stepped before the runner paused the world.
        t_end = nodes["path_follower_node"].last_stamp
    traj = traj[(traj[:, 0] >= sim0) & (traj[:, 0] <= t_end + 1e-9)]
    travelled = float(np.hypot(*np.diff(traj[:, 1:3], axis=0).T).sum()) if len(traj) > 1 \
        else 0.0
    planning = drive["planning_wall"]
    return SimRun(outcome=drive["outcome"], arrived=drive["outcome"] == "arrived",
                  collisions=sim.collisions, sim_seconds=t_end - sim0,
                  wall_seconds=drive["wall"], steps=sim.steps,
                  route_length_m=float(pl.length_m) if pl is not None and pl.code == 0 else None,
                  travelled_m=travelled, final_pose=(float(traj[-1, 1]), float(traj[-1, 2]),
                                                     float(traj[-1, 3])),
                  bag=str(bag) if bag is not None else None, message=drive["message"],
                  planning_wall_seconds=drive["wall"] if planning is None else planning,
                  trajectory=traj[:, :3], poses=traj, drove_into=sim.drove_into,
                  struck=sim.struck)


def _recorder(bag: BagRecorder, topic: str, nodes: dict[str, Any]) -> Callable[[bytes], None]:
    """A raw subscription callback writing ``topic``'s messages at the sim's clock."""

    def write(raw: bytes) -> None:
        bag.write(topic, int(nodes["sim_node"].t * 1e9), raw)

    return write
