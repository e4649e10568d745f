"""Every shipped scene's world and the robot load without errors in the real SDFormat library.

The checker is compiled against Debian's libsdformat (``make debian-deps`` installs it); the
broken cases show that it fails where Gazebo would.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from map2route.cli import main
from map2route.gazebo import build_checker, check_sdf, export_robot, export_world
from map2route.gazebo.errors import GazeboError
from map2route.semantic_map.io import load_scene
from map2route.semantic_map.shipped import resolve_scene, shipped_index


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        return build_checker(tmp_path_factory.mktemp("sdf_check"))
    except GazeboError as err:  # a failure, not a skip: make debian-deps installs the library
        pytest.fail(str(err))


@pytest.fixture(scope="module")
def robot_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_robot(tmp_path_factory.mktemp("robot"))


def test_the_robot_loads(checker: Path, robot_file: Path) -> None:
    assert check_sdf([robot_file], checker=checker) == {}


def test_every_shipped_world_loads(checker: Path, tmp_path: Path) -> None:
    names = sorted(shipped_index()["scenes"])  # type: ignore[call-overload]
    assert len(names) == 44
    worlds = [export_world(load_scene(resolve_scene(n)), tmp_path).path for n in names]
    t0 = time.monotonic()
    errors = check_sdf(worlds, checker=checker)
    print(f"SDFormat loaded {len(worlds)} worlds in {time.monotonic() - t0:.1f} s")
    assert errors == {}


def _broken(tmp_path: Path, robot_file: Path, old: str, new: str) -> Path:
    text = robot_file.read_text()
    assert old in text
    path = tmp_path / f"broken_{len(list(tmp_path.iterdir()))}.sdf"
    path.write_text(text.replace(old, new, 1))
    return path


def test_broken_files_fail(checker: Path, robot_file: Path, tmp_path: Path,
                           two_room_map) -> None:
    world = export_world(two_room_map, tmp_path / "ok").path
    twin_models = tmp_path / "twin_models.sdf"
    twin_models.write_text(world.read_text().replace('name="obj_chair_1"', 'name="obj_chair_0"'))
    bad_joint = _broken(tmp_path, robot_file, "<child>front_left_wheel</child>",
                        "<child>no_such_link</child>")
    bad_value = _broken(tmp_path, robot_file, "<cutoff_angle>3.141592</cutoff_angle>",
                        "<cutoff_angle>4</cutoff_angle>")
    bad_tag = _broken(tmp_path, robot_file, "<mass>20</mass>", "<weight>20</weight>")
    needs_lookup = tmp_path / "needs_lookup.sdf"
    needs_lookup.write_text('<?xml version="1.0"?><sdf version="1.9"><world name="w"><include>'
                            "<uri>model://sun</uri></include></world></sdf>")
    not_xml = tmp_path / "not_xml.sdf"
    not_xml.write_text("<sdf version='1.9'><world name='w'>")
    errors = check_sdf([world, robot_file, twin_models, bad_joint, bad_value, bad_tag,
                        needs_lookup, not_xml], checker=checker)
    assert set(errors) == {twin_models, bad_joint, bad_value, bad_tag, needs_lookup, not_xml}
    assert any("obj_chair_0" in line for line in errors[twin_models])
    assert any("no_such_link" in line for line in errors[bad_joint])
    assert any("cutoff_angle" in line for line in errors[bad_value])
    assert any("model://sun" in line for line in errors[needs_lookup])
    assert any("weight" in line for line in errors[bad_tag])


def test_export_command_checks_and_prints_the_launch_line(tmp_path: Path, capsys) -> None:
    assert main(["gazebo", "export", "procthor_00009", "--out", str(tmp_path), "--check"]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "robot.sdf").is_file()
    assert (tmp_path / "procthor_00009" / "world.sdf").is_file()
    assert "SDFormat: all 2 files load without errors" in out
    assert (f"ros2 launch map2route gazebo.launch.xml scene:=procthor_00009 "
            f"gazebo_dir:={tmp_path.resolve()} start_x:=") in out


def test_export_command_errors(tmp_path: Path, capsys) -> None:
    assert main(["gazebo", "export", "--out", str(tmp_path)]) == 2
    assert "give either SCENE or --all" in capsys.readouterr().err
    assert main(["gazebo", "export", "no_such_scene", "--out", str(tmp_path)]) == 1
    assert "Error:" in capsys.readouterr().err
