"""Gazebo commands: ``map2route gazebo export SCENE|--all --out DIR [--check]``."""

from __future__ import annotations

import time
from pathlib import Path

import click

from map2route.cli.app import app


@app.group(name="gazebo")
def gazebo_group() -> None:
    """Gazebo Harmonic sim runs: a world per scene, the robot, the ros_gz bridge (docs/ros.md)."""


def _scene_names(scene: str | None, all_scenes: bool) -> list[str]:
    from map2route.semantic_map.shipped import shipped_index

    if all_scenes == (scene is not None):
        raise click.UsageError("give either SCENE or --all")
    if scene is not None:
        return [scene]
    names = shipped_index().get("scenes")
    if not isinstance(names, dict) or not names:
        raise click.UsageError("maps/index.json lists no 'scenes' for --all")
    return sorted(str(n) for n in names)


@gazebo_group.command(name="export")
@click.argument("scene", required=False)
@click.option("--all", "all_scenes", is_flag=True, help="Every shipped scene (maps/index.json).")
@click.option("--out", "out", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Folder for robot.sdf and <scene>/world.sdf (created; files replaced).")
@click.option("--check", is_flag=True,
              help="Load every written file with the SDFormat library (needs libsdformat-dev).")
def export_cmd(scene: str | None, all_scenes: bool, out: Path, check: bool) -> None:
    """Write SCENE's Gazebo world (or every scene's) and the robot model into --out.

    SCENE is a scene folder or a name under maps/. Prints the `ros2 launch` command that runs
    the scene in Gazebo with our nodes.
    """
    from map2route.gazebo import GazeboError, check_sdf, export_robot, export_world
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    names = _scene_names(scene, all_scenes)
    robot = export_robot(out)
    written = [robot]
    last = None
    for name in names:
        m = load_scene(resolve_scene(name))
        last = export_world(m, out)
        written.append(last.path)
        x, y, _yaw = last.spawn
        click.echo(f"Wrote {last.path} (spawn {x:.2f}, {y:.2f})")
    click.echo(f"Wrote {robot}")
    if check:
        t0 = time.monotonic()
        errors = check_sdf(written)
        took = time.monotonic() - t0
        if errors:
            lines = [f"{path}: {line}" for path, found in errors.items() for line in found]
            raise GazeboError(f"{len(errors)} of {len(written)} files failed the SDFormat "
                              "parser:\n" + "\n".join(lines))
        click.echo(f"SDFormat: all {len(written)} files load without errors ({took:.1f} s)")
    if last is not None and len(names) == 1:
        x, y, yaw = last.spawn
        click.echo("Run it (Gazebo Harmonic + ROS 2 Jazzy):\n"
                   f"  ros2 launch map2route gazebo.launch.xml scene:={last.name} "
                   f"gazebo_dir:={out.resolve()} start_x:={x:.2f} start_y:={y:.2f} "
                   f"start_yaw:={yaw:.2f} instruction:='go to the kitchen'")
