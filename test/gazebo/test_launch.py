"""launch/gazebo.launch.xml under the real ROS 2 launch implementation (Jazzy sources, tests only).

Gazebo cannot run here: the file is parsed by launch_xml into launch/launch_ros actions and
every substitution the test can evaluate is evaluated (arguments, node arguments, parameters,
the instruction command), as ``ros2 launch`` would before starting processes.
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from map2route.gazebo.robot import RobotSpec
from map2route.paths import PACKAGE_ROOT, shared_dir
from map2route.ros.runner import NODES

VENDOR = shared_dir() / "vendor" / "ros2-launch"
LAUNCH = PACKAGE_ROOT / "launch" / "gazebo.launch.xml"


@pytest.fixture(scope="module")
def launch_api(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The vendored launch, launch_xml and launch_ros on sys.path, with an ament index that
    holds `launch` (its substitution grammar is looked up as a package share)."""
    if not (VENDOR / "launch" / "launch").is_dir():
        pytest.fail(f"the vendored ROS 2 launch sources are missing: {VENDOR}")
    # launch_ros imports it at start-up; it is built from its definitions like our interfaces
    # (issue 20's launch tests); without it launch_ros cannot be imported at all.
    pytest.importorskip("composition_interfaces",
                        reason="composition_interfaces is not built into this environment")
    prefix = tmp_path_factory.mktemp("ament")
    index = prefix / "share" / "ament_index" / "resource_index" / "packages"
    index.mkdir(parents=True)
    (index / "launch").touch()
    (prefix / "share" / "launch").symlink_to(VENDOR / "launch" / "share" / "launch")
    old_prefix = os.environ.get("AMENT_PREFIX_PATH")
    os.environ["AMENT_PREFIX_PATH"] = str(prefix)
    added = [str(VENDOR / name) for name in ("launch", "launch_xml", "launch_ros")]
    sys.path[:0] = added
    try:
        import launch
        import launch_ros.actions
        import launch_ros.utilities
        import launch_xml

        yield launch, launch_ros, launch_xml
    finally:
        for path in added:
            sys.path.remove(path)
        if old_prefix is None:
            os.environ.pop("AMENT_PREFIX_PATH", None)
        else:
            os.environ["AMENT_PREFIX_PATH"] = old_prefix


@pytest.fixture
def loaded(launch_api: Any) -> Any:
    """The parsed description, fresh per test (launch_ros caches evaluated parameter values)."""
    launch, _launch_ros, launch_xml = launch_api
    with LAUNCH.open() as f:
        root, parser = launch_xml.Parser.load(f)
    return parser.parse_description(root)


def _context(launch: Any, loaded: Any, **given: str) -> Any:
    """A context with the arguments ``given`` and every other default evaluated in order."""
    from launch.actions import DeclareLaunchArgument
    from launch.utilities import perform_substitutions

    ctx = launch.LaunchContext()
    ctx.launch_configurations["config_dir"] = "/share/map2route/config"
    for action in loaded.entities:
        if isinstance(action, DeclareLaunchArgument) and action.name not in ctx.launch_configurations:
            if action.name in given:
                ctx.launch_configurations[action.name] = given[action.name]
            elif action.default_value is not None:
                ctx.launch_configurations[action.name] = perform_substitutions(
                    ctx, action.default_value)
    return ctx


def _nodes(launch_api: Any, loaded: Any, ctx: Any) -> dict[str, dict[str, Any]]:
    """name -> package, executable, arguments and evaluated parameters of each <node>."""
    from launch.utilities import perform_substitutions
    from launch_ros.actions import Node
    from launch_ros.utilities import evaluate_parameters

    out = {}
    for action in loaded.entities:
        if isinstance(action, Node):
            name = perform_substitutions(ctx, action._Node__node_name)
            params = evaluate_parameters(ctx, action._Node__parameters or [])
            out[name] = {
                "pkg": perform_substitutions(ctx, action.node_package),
                "exec": perform_substitutions(ctx, action.node_executable),
                "args": [perform_substitutions(ctx, a) for a in action._Node__arguments or []],
                "files": [str(p) for p in params if not isinstance(p, dict)],
                "params": {k: v for p in params if isinstance(p, dict) for k, v in p.items()},
            }
    return out


def test_arguments_are_those_of_sim_launch_plus_gazebo_ones(launch_api: Any, loaded: Any) -> None:
    from launch.actions import DeclareLaunchArgument

    names = [a.name for a in loaded.entities if isinstance(a, DeclareLaunchArgument)]
    sim_args = [a.get("name") for a in ET.parse(PACKAGE_ROOT / "launch" / "sim.launch.xml")
                .getroot().iter("arg")]
    # The in-process sim's arguments, less its stepping mode (Gazebo keeps its own time) and its
    # unmapped obstacles (in Gazebo those are models placed in the world).
    assert [n for n in sim_args if n not in ("step_mode", "obstacles")] == \
        [n for n in names if n in sim_args]
    assert {"gazebo_dir", "world", "robot", "gz_args", "bridge_config"} <= set(names)


def test_defaults_find_the_exported_files(launch_api: Any, loaded: Any) -> None:
    ctx = _context(launch_api[0], loaded, scene="procthor_00009", gazebo_dir="/data/gz")
    cfg = ctx.launch_configurations
    assert cfg["world"] == "/data/gz/procthor_00009/world.sdf"
    assert cfg["robot"] == "/data/gz/robot.sdf"
    assert cfg["gz_args"] == "-r /data/gz/procthor_00009/world.sdf"
    assert cfg["bridge_config"] == "/share/map2route/config/gazebo_bridge.yaml"


def test_gazebo_bridge_and_spawn(launch_api: Any, loaded: Any) -> None:
    from launch.actions import IncludeLaunchDescription
    from launch.utilities import perform_substitutions

    ctx = _context(launch_api[0], loaded, scene="s", gazebo_dir="/g", start_x="1.5",
                   start_y="-2", start_yaw="0.7")
    (include,) = [a for a in loaded.entities if isinstance(a, IncludeLaunchDescription)]
    location = include.launch_description_source._LaunchDescriptionSource__location
    assert perform_substitutions(ctx, [s for s in location if type(s).__name__ ==
                                       "TextSubstitution"]) == "/launch/gz_sim.launch.py"
    assert [(perform_substitutions(ctx, k), perform_substitutions(ctx, v))
            for k, v in include.launch_arguments] == [("gz_args", "-r /g/s/world.sdf")]
    nodes = _nodes(launch_api, loaded, ctx)
    spawn = nodes["spawn_robot"]
    assert (spawn["pkg"], spawn["exec"]) == ("ros_gz_sim", "create")
    assert spawn["args"] == ["-file", "/g/robot.sdf", "-name", RobotSpec.from_config().name,
                             "-x", "1.5", "-y", "-2", "-z", "0.0", "-Y", "0.7"]
    bridge = nodes["gz_bridge"]
    assert (bridge["pkg"], bridge["exec"]) == ("ros_gz_bridge", "parameter_bridge")
    assert bridge["params"] == {"config_file": "/share/map2route/config/gazebo_bridge.yaml",
                                "use_sim_time": True}


def test_our_nodes_are_sim_launch_without_the_simulator(launch_api: Any, loaded: Any) -> None:
    ctx = _context(launch_api[0], loaded, scene="procthor_00009")
    ours = {n: v for n, v in _nodes(launch_api, loaded, ctx).items() if v["pkg"] == "map2route"}
    assert [(n, v["exec"]) for n, v in ours.items()] == [(n, n) for n, _m, _f in NODES
                                                          if n != "sim_node"]
    for name, _module, file in NODES:
        if name == "sim_node":
            continue
        assert ours[name]["files"] == [f"/share/map2route/config/{file}"]
        assert ours[name]["params"]["use_sim_time"] is True
    assert ours["semantic_map_server"]["params"]["scene"] == "procthor_00009"


def test_static_frames_are_the_robot_models(launch_api: Any, loaded: Any) -> None:
    nodes = _nodes(launch_api, loaded, _context(launch_api[0], loaded, scene="s"))
    frames = {}
    for v in nodes.values():
        if v["exec"] == "static_transform_publisher":
            a = dict(zip(v["args"][::2], v["args"][1::2], strict=True))
            frames[(a["--frame-id"], a["--child-frame-id"])] = tuple(
                float(a[k]) for k in ("--x", "--y", "--z"))
            assert v["params"]["use_sim_time"] is True
    expected = {("map", "odom"): (0.0, 0.0, 0.0)}
    expected |= {("base_link", frame): pytest.approx(xyz)
                 for frame, xyz in RobotSpec.from_config().sensor_frames()}
    assert frames == expected


@pytest.mark.parametrize("instruction", ["go to the fridge", "go to Bob's room"])
def test_the_instruction_is_one_argument(launch_api: Any, loaded: Any, instruction: str) -> None:
    import yaml
    from launch.actions import ExecuteProcess
    from launch.utilities import perform_substitutions

    (pub,) = [a for a in loaded.entities if type(a) is ExecuteProcess]
    ctx = _context(launch_api[0], loaded, scene="s", instruction=instruction)
    argv = [perform_substitutions(ctx, part) for part in pub.cmd]
    assert argv[:-1] == ["ros2", "topic", "pub", "--once", "--wait-matching-subscriptions", "1",
                         "/instruction", "std_msgs/msg/String"]
    assert yaml.safe_load(argv[-1]) == {"data": instruction}
    assert pub.condition.evaluate(ctx)
    assert not pub.condition.evaluate(_context(launch_api[0], loaded, scene="s"))
