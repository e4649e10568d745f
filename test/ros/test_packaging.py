"""The package as colcon builds it: egg_info under Ubuntu 24.04's setuptools, package.xml deps."""

from __future__ import annotations

import ast
import shutil
import subprocess
import venv
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from map2route.paths import PACKAGE_ROOT

#: ROS packages imported by the nodes -> their package.xml name (the same here).
ROS_IMPORTS = {"rclpy", "std_msgs", "geometry_msgs", "nav_msgs", "sensor_msgs",
               "visualization_msgs", "rosgraph_msgs", "rcl_interfaces", "builtin_interfaces",
               "action_msgs", "tf2_msgs", "nav2_msgs", "map2route_interfaces",
               "ament_index_python"}


def _imported_top_levels(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


def test_package_xml_declares_every_ros_package_the_code_imports() -> None:
    root = ET.parse(PACKAGE_ROOT / "package.xml").getroot()
    declared = {e.text for e in root if e.tag in ("exec_depend", "depend")}
    used = _imported_top_levels(PACKAGE_ROOT / "src" / "map2route") & ROS_IMPORTS
    assert used - declared == set()
    assert {"launch_xml", "launch_ros", "python3-opencv", "python3-transforms3d"} <= declared


def test_egg_info_under_the_setuptools_of_ubuntu_24_04(tmp_path: Path) -> None:
    """colcon's ament_python build runs `setup.py egg_info` with the system setuptools (68)."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    got = subprocess.run([str(py), "-m", "pip", "install", "-q", "setuptools==68.1.2"],
                         capture_output=True, text=True, timeout=240)
    if got.returncode != 0:
        pytest.skip(f"cannot install setuptools 68 here: {got.stderr.strip()[-200:]}")
    src = tmp_path / "map2route"
    src.mkdir()
    for name in ("setup.py", "pyproject.toml", "package.xml", "README.md"):
        shutil.copy(PACKAGE_ROOT / name, src / name)
    for folder in ("resource", "launch", "config"):
        shutil.copytree(PACKAGE_ROOT / folder, src / folder)
    shutil.copytree(PACKAGE_ROOT / "src" / "map2route", src / "src" / "map2route",
                    ignore=shutil.ignore_patterns("__pycache__", "data"))
    version = subprocess.run([str(py), "-c", "import setuptools; print(setuptools.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert version.startswith("68.")
    done = subprocess.run([str(py), "setup.py", "egg_info"], cwd=src, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    info = (src / "src" / "map2route.egg-info" / "PKG-INFO").read_text()
    assert "Name: map2route" in info and "License: Apache-2.0" in info
    scripts = (src / "src" / "map2route.egg-info" / "entry_points.txt").read_text()
    assert "path_follower_node = map2route.ros.path_follower_node:main" in scripts
