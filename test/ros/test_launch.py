"""The launch files and the in-process runner start the same executables with the same files."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import tomllib

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
