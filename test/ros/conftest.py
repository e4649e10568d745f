"""Fixtures for tests over real rclpy topics (the `ros` harness lives in test/conftest.py).

``launch_prefix`` loads the real ROS 2 (Jazzy) launch implementation: ``launch``, ``launch_xml``
and ``launch_ros`` are not on PyPI; their unmodified Jazzy sources live in
``../shared/vendor/ros2-launch`` (or ``$MAP2ROUTE_ROS2_LAUNCH``) for tests only and are put on
``sys.path`` here, never copied into the project. ``$(find-pkg-share map2route)`` and
``launch_ros`` executables need an ament index entry, so the fixture makes a throwaway install
prefix (``share/ament_index``, ``share/map2route/{config,launch,maps}``, ``lib/map2route/<exec>``)
as ``colcon build`` would, and puts it first on ``AMENT_PREFIX_PATH``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import tomllib

from map2route.paths import PACKAGE_ROOT

pytest.importorskip("rclpy")
pytest.importorskip("map2route_interfaces", reason="run `make interfaces` first")

_META: Path | None = None
VENDOR = Path(os.environ.get("MAP2ROUTE_ROS2_LAUNCH",
                             PACKAGE_ROOT.parent / "shared" / "vendor" / "ros2-launch"))


@pytest.fixture
def two_room_scene(tmp_path: Any, two_room_map: Any) -> Any:
    """The two-room house saved as a scene folder."""
    from map2route.semantic_map.io import save_scene

    return save_scene(two_room_map, tmp_path / "two_room_house")


def _executables() -> list[tuple[str, str]]:
    """(console script, module) of every node executable in pyproject.toml."""
    scripts = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    return [(name, target.split(":")[0]) for name, target in scripts.items()
            if target.startswith("map2route.ros.")]


def import_launch() -> None:
    """Put the vendored launch packages on ``sys.path`` (skip the test when they are absent)."""
    if not (VENDOR / "launch" / "launch" / "__init__.py").is_file():
        pytest.skip(f"the ROS 2 launch sources are not at {VENDOR} (set MAP2ROUTE_ROS2_LAUNCH)")
    for name in ("launch", "launch_xml", "launch_yaml", "launch_ros"):
        path = str(VENDOR / name)
        if path not in sys.path:
            sys.path.insert(0, path)
    _register_entry_points()
    pytest.importorskip("osrf_pycommon", reason="pip install osrf-pycommon (launch needs it)")
    pytest.importorskip("composition_interfaces", reason="run `make interfaces` (launch_ros needs it)")
    pytest.importorskip("launch_ros")


def _register_entry_points() -> None:
    """Declare the launch packages' entry points (their setup.py's), which launch looks up with
    importlib.metadata to find the XML/YAML parsers and the launch_ros actions; the sources are
    on sys.path but not installed, so a dist-info folder on sys.path declares them."""
    global _META
    if _META is not None:
        return
    _META = Path(tempfile.mkdtemp(prefix="m2r-launch-meta-"))
    info = _META / "ros2_launch_vendored-3.4.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ros2-launch-vendored\n"
                                   "Version: 3.4.3\n")
    (info / "entry_points.txt").write_text(
        "[launch.frontend.parser]\nxml = launch_xml:Parser\nyaml = launch_yaml:Parser\n\n"
        "[launch.frontend.launch_extension]\nlaunch_ros = launch_ros\n")
    sys.path.append(str(_META))


def install_prefix(root: Path) -> Path:
    """A minimal ament install prefix of map2route under ``root``; returns the prefix."""
    prefix = root / "install"
    index = prefix / "share" / "ament_index" / "resource_index" / "packages"
    index.mkdir(parents=True)
    (index / "map2route").write_text("")
    # launch reads its substitution grammar from its own share folder (as installed by colcon).
    (index / "launch").write_text("")
    (prefix / "share" / "launch").symlink_to(VENDOR / "launch" / "share" / "launch")
    share = prefix / "share" / "map2route"
    share.mkdir(parents=True)
    for folder in ("config", "launch", "maps"):
        (share / folder).symlink_to(PACKAGE_ROOT / folder)
    lib = prefix / "lib" / "map2route"
    lib.mkdir(parents=True)
    src = PACKAGE_ROOT / "src"
    for name, module in _executables():
        exe = lib / name
        exe.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(src)!r})\n"
                       f"from {module} import main\nraise SystemExit(main())\n")
        exe.chmod(0o755)
    return prefix


def use_prefix(monkeypatch: Any, prefix: Path) -> None:
    """Make ``prefix`` the first entry of the ament index (as sourcing its setup file would)."""
    venv = Path(sys.executable).parent.parent
    monkeypatch.setenv("AMENT_PREFIX_PATH", os.pathsep.join([str(prefix), str(venv)]))


@pytest.fixture
def launch_prefix(tmp_path: Path, monkeypatch: Any) -> Path:
    """The real launch packages importable and map2route installed into a temporary prefix."""
    import_launch()
    prefix = install_prefix(tmp_path)
    use_prefix(monkeypatch, prefix)
    return prefix
