"""``map2route sim``: ground, plan and drive an instruction in the ROS 2 simulation."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from map2route.cli.app import FINITE_FLOAT, app, bench


@app.command("sim")
@click.argument("scene", required=False)
@click.argument("instruction", required=False)
@click.option("--episode", "episode_id", default=None,
              help="Run a benchmark episode (its scene, start and instruction), e.g. SCENE/easy/003.")
@click.option("--episodes", "episodes_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Episode file [episodes/test.jsonl, dev.jsonl for dev ids].")
@click.option("--start", nargs=2, type=FINITE_FLOAT, default=None, metavar="X Y",
              help="Start position in the map frame [a free spot in the largest room].")
@click.option("--obstacle", "obstacles", multiple=True, metavar="X,Y,R",
              help="An obstacle that is not on the map (repeatable); X0,Y0,R,X1,Y1,SPEED moves.")
@click.option("--time-limit", type=float, default=120.0, show_default=True,
              help="Sim seconds of driving before giving up.")
@click.option("--bag", "bag_path", type=click.Path(path_type=Path), default=None,
              help="MCAP bag folder to record /odom, /route, /cmd_vel, /scan [out/sim/...].")
@click.option("--no-bag", is_flag=True, help="Do not record a bag.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def sim_cmd(scene: str | None, instruction: str | None, episode_id: str | None,
            episodes_path: Path | None, start: tuple[float, float] | None,
            obstacles: tuple[str, ...], time_limit: float, bag_path: Path | None, no_bag: bool,
            as_json: bool) -> None:
    """Drive INSTRUCTION in SCENE with the ROS 2 nodes in one process (no ROS install needed).

    Starts semantic_map_server, grounding_node, route_planner_node, path_follower_node and
    sim_node with the parameter files of launch/sim.launch.xml, sends the instruction, and
    runs until the robot arrives, grounding or planning fails, or the time limit.
    """
    from map2route.ros.runner import run_sim

    ep = None
    if episode_id is not None:
        ep = _episode(episode_id, episodes_path)
        scene, instruction = scene or ep.scene, instruction or ep.instruction
        start = start or ep.start_xy
    if not scene or instruction is None:
        raise click.UsageError("give SCENE and INSTRUCTION, or --episode ID")
    if time_limit <= 0:
        raise click.BadParameter("must be positive", param_hint="--time-limit")
    bag = None
    if not no_bag:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        bag = bag_path or Path("out") / "sim" / f"{Path(scene).name}_{stamp}"
        bag.parent.mkdir(parents=True, exist_ok=True)
    from rich.progress import BarColumn, Progress, TextColumn

    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.fields[info]}"), disable=as_json, transient=False) as bar:
        task = bar.add_task("grounding + planning", total=1.0, info="")

        def progress(s: dict[str, Any]) -> None:
            bar.update(task, completed=s["progress"], description="driving",
                       info=f"{s['sim_seconds']:.1f}/{s['time_limit_s']:.0f} sim s, "
                            f"collisions {s['collisions']}: {s['state']}")

        run = run_sim(scene, instruction, start=start, time_limit_s=time_limit, bag=bag,
                      obstacles=";".join(obstacles), on_progress=progress,
                      start_yaw=ep.start.yaw if ep is not None else 0.0)
        bar.update(task, completed=1.0 if run.arrived else bar.tasks[0].completed)
    result = run.to_json()
    result.update(scene=str(scene), instruction=instruction)
    if ep is not None:
        result["episode"] = ep.id
        result["metrics"] = _score(ep, scene, run.trajectory[:, 1:])
    if as_json:
        click.echo(json.dumps(result, indent=1))
        _fail_unless_arrived(run)
        return
    verdict = "arrived" if run.arrived else run.outcome.replace("_", " ")
    click.echo(f"{verdict}: {run.sim_seconds:.1f} sim s in {run.wall_seconds:.1f} wall s "
               f"({run.real_time_factor:.1f}x real time), {run.collisions} collision(s), "
               f"travelled {run.travelled_m:.2f} m")
    if run.message:
        click.echo(f"  {run.message}")
    if run.bag:
        click.echo(f"  bag: {run.bag}")
    for key, value in result.get("metrics", {}).items():
        click.echo(f"  {key:<11} {value}")
    _fail_unless_arrived(run)


def _fail_unless_arrived(run: Any) -> None:
    """A run that did not arrive is a failed command: one line, exit status 1."""
    from map2route.ros.runner import SimRunError

    if not run.arrived:
        raise SimRunError(f"the robot did not arrive ({run.outcome.replace('_', ' ')}): "
                          f"{run.message}")


def _episode(episode_id: str, episodes_path: Path | None) -> Any:
    from map2route.bench.map2route.episode import load_episodes
    from map2route.paths import PACKAGE_ROOT

    if episodes_path is None:
        name = "dev.jsonl" if "/dev/" in episode_id else "test.jsonl"
        episodes_path = PACKAGE_ROOT / "episodes" / name
    (ep,) = load_episodes(episodes_path, ids=[episode_id])
    return ep


def _score(ep: Any, scene: str, points: Any) -> dict[str, Any]:
    """Benchmark metrics of the executed trajectory (not the plan)."""
    from map2route.bench.map2route.scoring import score_route
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    m = load_scene(resolve_scene(scene))
    data = score_route(ep, m, points).to_json()
    return {k: data.get(k) for k in ("hcs", "success", "near", "far", "relative", "path_shape",
                                     "clearance", "pl", "spl") if k in data}


@bench.command("moving")
@click.option("--stack", type=click.Choice(["ros", "core", "both"]), default="both",
              show_default=True, help="ros: the five ROS nodes in lockstep; core: the same "
              "planner, follower and world in one Python loop.")
@click.option("--runs", type=click.IntRange(1, 10_000), default=50, show_default=True,
              help="Seeds 0..RUNS-1, each driven twice.")
@click.option("--time-limit", type=click.FloatRange(min=1.0), default=90.0, show_default=True,
              help="Sim seconds per drive before giving up.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per stack.")
def bench_moving(stack: str, runs: int, time_limit: float, as_json: bool) -> None:
    """Seeded drives among moving obstacles: collisions by kind, arrivals, rerun identity.

    The two-room house, "go to the fridge", people crossing the planned route (0.3-2 m/s,
    standing 3-8 s at each end of their walk) and a box beside it; every seed twice.
    """
    from rich.console import Console
    from rich.table import Table

    from map2route.bench.moving import run_core, summary
    from map2route.execution.results import progress_bar

    seeds = list(range(runs))
    results = {}
    for name in (["core", "ros"] if stack == "both" else [stack]):
        with progress_bar(f"{name} stack: driving", 2 * runs, enabled=not as_json) as bar:
            if name == "core":
                first, second = run_core(seeds, time_limit=time_limit, advance=bar.advance)
            else:
                from map2route.ros.moving_bench import run_ros

                first, second = run_ros(seeds, time_limit=time_limit, advance=bar.advance)
        results[name] = summary(first, second)
    if as_json:
        for name, res in results.items():
            click.echo(json.dumps({"stack": name, **res}))
        return
    table = Table(title=f"Moving obstacles: {runs} seeded drives, each run twice")
    for col in ("stack", "arrived", "collisions", "drove into", "struck", "drives w/ coll.",
                "identical rerun", "route m", "driven m", "sim s", "wall s/drive"):
        table.add_column(col, justify="left" if col == "stack" else "right")
    for name, r in results.items():
        table.add_row(name, f"{r['arrived']}/{r['drives']}", str(r["collisions"]),
                      str(r["drove_into"]), str(r["struck"]),
                      f"{r['drives_with_collisions']}/{2 * r['drives']}",
                      f"{r['identical_on_rerun']}/{r['drives']}", f"{r['route_length_m']:.2f}",
                      f"{r['travelled_m']:.2f}", f"{r['sim_seconds']:.1f}",
                      f"{r['wall_seconds']:.2f}")
    console = Console()
    # Wide enough for every column when stdout is a pipe (rich falls back to 80 then).
    Console(width=max(console.width, 130)).print(table)
    click.echo("collisions count both runs of every seed; driven m and sim s are means over "
               "the first runs (time-limited drives included).")
