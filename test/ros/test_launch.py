"""The launch files and the in-process runner start the same executables with the same files."""

from __future__ import annotations

import asyncio
import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import tomllib
import yaml

from map2route.paths import PACKAGE_ROOT
from map2route.ros.runner import NODES


def _nodes(launch: str) -> list[tuple[str, str]]:
    root = ET.parse(PACKAGE_ROOT / "launch" / launch).getroot()
    out = []
    for node in root.iter("node"):
        assert node.get("pkg") == "map2route"
        files = [re.sub(r"^\$\(var config_dir\)/", "", p.get("from", ""))
                 for p in node.iter("param") if p.get("from")]
        assert len(files) == 1, f"{node.get('exec')} should load exactly one parameter file"
        assert node.get("name") == node.get("exec")
        out.append((node.get("exec") or "", files[0]))
    return out


def test_sim_launch_matches_the_runner() -> None:
    assert _nodes("sim.launch.xml") == [(name, file) for name, _module, file in NODES]


def test_robot_launch_is_the_runner_without_the_simulator() -> None:
    assert _nodes("robot.launch.xml") == [(n, f) for n, _m, f in NODES if n != "sim_node"]


def test_every_executable_is_a_console_script_of_its_module() -> None:
    scripts = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    for name, module, file in NODES:
        assert scripts[name] == f"{module}:main"
        assert (PACKAGE_ROOT / "config" / file).is_file()


# --- the real ROS 2 launch implementation (Jazzy sources, see test/ros/conftest.py) ---


def _load(path: Path) -> Any:
    """``path`` parsed by launch's frontend, as ``ros2 launch`` does."""
    from launch.frontend import Parser

    root, parser = Parser.load(str(path))
    return parser.parse_description(root)


def _substituted(launch: str, args: dict[str, str]) -> tuple[dict[str, str], dict[str, Any]]:
    """Launch arguments (after defaults) and each Node's expanded params/remaps."""
    from launch import LaunchContext
    from launch.actions import DeclareLaunchArgument
    from launch_ros.actions import Node

    desc = _load(PACKAGE_ROOT / "launch" / launch)
    context = LaunchContext()
    context.launch_configurations.update(args)
    nodes = {}
    for action in desc.entities:
        if isinstance(action, DeclareLaunchArgument):
            action.visit(context)
        elif isinstance(action, Node):
            if action.condition is not None and not action.condition.evaluate(context):
                continue
            action._perform_substitutions(context)
            nodes[action.node_name.rsplit("/", 1)[-1]] = action
    return dict(context.launch_configurations), nodes


def _params(node: Any) -> dict[str, Any]:
    """What a substituted Node passes as parameters, its files merged in order."""
    merged: dict[str, Any] = {}
    for arg, is_file in node._Node__expanded_parameter_arguments or []:
        assert is_file, f"unexpected -p rule {arg}"
        for key, section in yaml.safe_load(Path(arg).read_text()).items():
            if key in ("/**", node.node_name.rsplit("/", 1)[-1]):
                merged.update(section["ros__parameters"])
    return merged


def _remaps(node: Any) -> dict[str, str]:
    return dict(node.expanded_remapping_rules or [])


def test_sim_launch_loads_under_real_launch_with_its_defaults(launch_prefix: Path) -> None:
    desc = _load(PACKAGE_ROOT / "launch" / "sim.launch.xml")
    declared = {a.name: a for a in desc.get_launch_arguments()}
    assert set(declared) == {"scene", "instruction", "start_x", "start_y", "start_yaw",
                             "step_mode", "obstacles", "config_dir"}
    config, nodes = _substituted("sim.launch.xml", {"scene": "two_room"})
    assert config["config_dir"] == str(launch_prefix / "share" / "map2route" / "config")
    assert config["instruction"] == "" and config["step_mode"] == "realtime"
    assert sorted(nodes) == sorted(n for n, _m, _f in NODES)
    sim = _params(nodes["sim_node"])
    assert (sim["scene"], sim["start_x"], sim["step_mode"], sim["obstacles"]) == \
        ("two_room", 0.0, "realtime", "")
    assert sim["use_sim_time"] is True and sim["dt"] == 0.1  # from config/sim_node.yaml
    assert _params(nodes["grounding_node"])["instruction"] == ""


def test_sim_launch_passes_quoted_and_numeric_arguments_through(launch_prefix: Path) -> None:
    # The instruction has quotes and commas; the old file built a shell command from it and
    # failed with "No closing quotation" under the real launch.
    said = "go to the \"fridge\", then the sofa's left side"
    _config, nodes = _substituted("sim.launch.xml", {
        "scene": "/tmp/a scene", "instruction": said, "start_x": "1", "start_yaw": "-1.5",
        "step_mode": "lockstep", "obstacles": "1,2,0.3;4,5,0.2,6,5,0.6"})
    assert _params(nodes["grounding_node"])["instruction"] == said
    sim = _params(nodes["sim_node"])
    assert (sim["scene"], sim["start_x"], sim["start_yaw"]) == ("/tmp/a scene", 1.0, -1.5)
    assert isinstance(sim["start_x"], float)
    assert sim["obstacles"] == "1,2,0.3;4,5,0.2,6,5,0.6"


def test_robot_launch_loads_under_real_launch_with_remaps(launch_prefix: Path) -> None:
    desc = _load(PACKAGE_ROOT / "launch" / "robot.launch.xml")
    names = {a.name for a in desc.get_launch_arguments()}
    assert {"scene", "odom_topic", "scan_topic", "cmd_vel_topic", "config_dir"} <= names
    _config, nodes = _substituted("robot.launch.xml", {
        "scene": "house", "odom_topic": "/robot/odom", "scan_topic": "/front/scan",
        "cmd_vel_topic": "/base/cmd_vel"})
    assert sorted(nodes) == sorted(n for n, _m, _f in NODES if n != "sim_node")
    follower = _remaps(nodes["path_follower_node"])
    assert follower["odom"] == "/robot/odom" and follower["scan"] == "/front/scan"
    assert follower["cmd_vel"] == "/base/cmd_vel"
    assert _remaps(nodes["route_planner_node"])["odom"] == "/robot/odom"
    assert _params(nodes["semantic_map_server"])["scene"] == "house"
    assert "use_sim_time" not in _params(nodes["path_follower_node"])


def test_sim_launch_runs_to_the_goal_under_a_launch_service(launch_prefix: Path, ros: Any,
                                                           two_room_scene: Path) -> None:
    """`ros2 launch map2route sim.launch.xml scene:=... instruction:=...` drives to the goal."""
    from launch import LaunchDescription, LaunchService
    from launch.actions import IncludeLaunchDescription
    from launch.launch_description_sources import AnyLaunchDescriptionSource
    from map2route_interfaces.msg import FollowerStatus

    states: list[int] = []
    probe = ros.node("launch_probe")
    probe.create_subscription(FollowerStatus, "follower/status", lambda m: states.append(m.state),
                              10)
    service = LaunchService(noninteractive=True)
    service.include_launch_description(LaunchDescription([IncludeLaunchDescription(
        AnyLaunchDescriptionSource(str(launch_prefix / "share/map2route/launch/sim.launch.xml")),
        launch_arguments=[("scene", str(two_room_scene)), ("instruction", "go to the fridge"),
                          ("start_x", "1.0"), ("start_y", "1.0"), ("step_mode", "lockstep")])]))
    # LaunchService runs only in the main thread; the probe spins in the harness's thread.
    outcome: dict[str, Any] = {}

    async def watch() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and 4 not in states:
            await asyncio.sleep(0.1)
        outcome["arrived"] = 4 in states
        stopping = service.shutdown()  # a coroutine when called on the launch loop
        if stopping is not None:
            await stopping

    async def main() -> None:
        watcher = asyncio.ensure_future(watch())
        outcome["rc"] = await service.run_async()
        await watcher

    asyncio.run(main())
    assert outcome["arrived"], f"the follower never reported ARRIVED; states seen: {set(states)}"
    assert 1 in states  # it drove (FOLLOWING) before arriving


def test_cmu_launch_loads_both_follower_modes(launch_prefix: Path) -> None:
    _config, nodes = _substituted("cmu.launch.xml", {"scene": "house"})
    assert sorted(nodes) == ["cmu_bridge_node", "grounding_node", "route_planner_node",
                             "semantic_map_server"]
    assert _remaps(nodes["cmu_bridge_node"]) == {"state_estimation": "/state_estimation",
                                                 "way_point": "/way_point"}
    assert _remaps(nodes["route_planner_node"])["odom"] == "/state_estimation"
    assert _params(nodes["cmu_bridge_node"])["waypoint_distance"] == 1.5
    _config, nodes = _substituted("cmu.launch.xml", {"scene": "house", "follower": "map2route"})
    assert "cmu_bridge_node" not in nodes
    follower = nodes["path_follower_node"]
    assert _remaps(follower) == {"odom": "/state_estimation", "points": "/registered_scan",
                                 "cmd_vel": "/cmd_vel"}
    params = _params(follower)
    assert params["cmd_vel_stamped"] is True and params["obstacle_sources"] == "cloud"
