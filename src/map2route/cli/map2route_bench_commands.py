"""``map2route bench map2route`` and ``map2route bench score-bag``: run and score the benchmark."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from map2route.cli.app import bench
from map2route.execution.options import F, executor_options


def _default_episodes() -> Path:
    from map2route.paths import PACKAGE_ROOT

    return PACKAGE_ROOT / "episodes" / "test.jsonl"


def _episode_inputs(fn: F) -> F:
    """``--episodes``, ``--scenes``, ``--planner-config``: what a Map2Route run reads."""
    fn = click.option("--planner-config", type=click.Path(dir_okay=False, exists=True),
                      default=None, help="Planner YAML override [config/planner.yaml].")(fn)
    fn = click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
                      default=None, help="Scene folders [maps/].")(fn)
    fn = click.option("--episodes", "episodes_path",
                      type=click.Path(dir_okay=False, path_type=Path), default=None,
                      help="Episode file [episodes/test.jsonl].")(fn)
    return fn


@bench.command("map2route")
@click.option("--method", "method", required=True,
              help="Registered method: shortest, oracle, g2r, g2r-llm-r0, ...")
@click.option("--grounder", type=click.Choice(["offline", "llm"]), default=None,
              help="g2r's grounder [the config's 'grounder:'; auto: offline unless an "
                   "LLM endpoint is configured].")
@click.option("--config", "grounding_config", type=click.Path(dir_okay=False, exists=True),
              default=None, help="Grounding YAML with the llm: block [config/grounding.yaml].")
@click.option("--split", type=click.Choice(["easy", "hard", "human"]), default=None,
              help="Only Easy or only Hard episodes [both]; human: the human-style split "
                   "(episodes/human.jsonl unless --episodes), in its own rows.")
@click.option("--limit", type=click.IntRange(1), default=None, help="Run the first N episodes.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Results folder; re-running resumes [out/bench/map2route/METHOD].")
@_episode_inputs
@click.option("--baseline", type=click.Path(file_okay=False, exists=True, path_type=Path),
              default=None, help="Another run's folder: print Near/Far/Relative ratios to it.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every metric.")
@executor_options
def map2route_cmd(method: str, grounder: str | None, grounding_config: str | None,
                  split: str | None, limit: int | None, workers: int,
                  out_dir: Path | None, episodes_path: Path | None, scenes_dir: Path | None,
                  planner_config: str | None, baseline: Path | None, as_json: bool,
                  executor: str, address: str | None, max_in_flight: int | None) -> None:
    """Run a method on the Map2Route benchmark and write Table II (md, csv), a PNG and JSON."""
    import time

    from map2route.bench.map2route.report import table_markdown, write_reports
    from map2route.bench.map2route.run import RunSpec, run_benchmark
    from map2route.bench.map2route.scoring import EpisodeScore, ratios, summarize
    from map2route.execution.executors import make_executor
    from map2route.paths import maps_dir

    options: dict[str, str] = {}
    if grounder is not None:
        options["grounder"] = grounder
    if grounding_config is not None:
        options["grounding_config"] = grounding_config
    if episodes_path is None and split == "human":
        episodes_path = _default_episodes().with_name("human.jsonl")
    spec = RunSpec(method=method, episodes_path=episodes_path or _default_episodes(),
                   maps_root=scenes_dir or maps_dir(), planner_config=planner_config,
                   options=options)
    instance = spec.make()  # unknown names and bad configs fail before any work
    name = str(instance.name)
    out = out_dir or Path("out/bench/map2route") / (f"{name}-human" if split == "human" else name)
    if getattr(instance, "api_bound", False):
        _print_estimate(instance, spec, out, split=split, limit=limit, err=True)
    t0 = time.perf_counter()
    runner = make_executor(executor, workers=workers, address=address,
                           max_in_flight=max_in_flight)
    rows = run_benchmark(spec, out, split=split, limit=limit, workers=workers,
                         progress=not as_json, method=instance, executor=runner)
    wall = time.perf_counter() - t0
    scores = [EpisodeScore.from_json(r) for r in rows]
    summary = summarize(scores)
    summaries = {name: summary}
    result: dict[str, object] = {"method": name, "episodes": len(rows), "wall_s": round(wall, 2),
                                 "executor": executor,
                                 "failed": sum(r.get("error") is not None for r in rows),
                                 "crashed": sum(bool(r.get("crashed")) for r in rows),
                                 "metrics": summary, "out": str(out)}
    if baseline is not None:
        base_rows = [EpisodeScore.from_json(r) for r in _read(baseline / "results.jsonl")]
        ids = {s.episode_id for s in scores}
        base = summarize([s for s in base_rows if s.episode_id in ids])
        base_name = str(json.loads((baseline / "run.json").read_text()).get("method",
                                                                           baseline.name))
        if base_name == name:  # two runs of one method: the baseline's row must not replace ours
            base_name += " (baseline)"
        summaries[base_name] = base
        result["ratios_to_baseline"] = {g: ratios(summary[g], base[g]) for g in summary if g in base}
        result["baseline"] = base_name
    if getattr(instance, "api_bound", False):
        result["llm"] = llm_totals(rows)
    paths = write_reports(out, summaries, title=f"Map2Route: {name}")
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    click.echo(table_markdown(summaries))
    click.echo(f"{len(rows)} episodes in {wall:.1f} s ({result['failed']} without a route, "
               f"{result['crashed']} crashed); wrote {', '.join(str(p) for p in paths.values())}")
    if "ratios_to_baseline" in result:
        for g, r in result["ratios_to_baseline"].items():  # type: ignore[attr-defined]
            parts = ", ".join(f"{k} {v:.2f}x" if v is not None else f"{k} –" for k, v in r.items())
            click.echo(f"{g}: {name} / {result['baseline']}: {parts}")
    if "llm" in result:
        t = result["llm"]
        assert isinstance(t, dict)
        click.echo(f"LLM {t['model']}: {t['llm_calls']} calls ({t['cache_hits']} from the cache), "
                   f"{t['prompt_tokens']} prompt + {t['completion_tokens']} completion tokens, "
                   f"cost ${t['cost_usd']:.4f} (spent this run ${t['spent_usd']:.4f}), "
                   f"LLM latency {t['llm_latency_s']:.1f} s; transcripts in {out / 'transcripts'}")


def llm_totals(rows: list[dict[str, Any]]) -> dict[str, object]:
    """The LLM columns of result rows added up (model: the first row's)."""
    keys = ("llm_calls", "cache_hits", "prompt_tokens", "completion_tokens", "cost_usd",
            "spent_usd", "llm_latency_s")
    out: dict[str, object] = {"model": next((r.get("model") for r in rows if r.get("model")), "")}
    for k in keys:
        total = sum(float(r.get(k) or 0) for r in rows)
        out[k] = round(total, 6) if k in ("cost_usd", "spent_usd", "llm_latency_s") else int(total)
    return out


def _print_estimate(instance: object, spec: object, out: Path, *, split: str | None,
                    limit: int | None, err: bool) -> None:
    """Print the tokens and cost a run of an LLM method may take, before it starts."""
    from map2route.bench.map2route.episode import episode_from_json
    from map2route.bench.map2route.run import RunSpec, read_results, select_lines
    from map2route.semantic_map import load_scene

    assert isinstance(spec, RunSpec)
    done = {r["episode_id"] for r in read_results(out / "results.jsonl")}
    eps = [episode_from_json(json.loads(line))
           for line in select_lines(spec.episodes_path, split=split, limit=limit)]
    eps = [e for e in eps if e.id not in done]
    scenes: dict[str, object] = {}

    def scene(name: str) -> object:
        if name not in scenes:
            scenes[name] = load_scene(spec.maps_root / name)
        return scenes[name]

    est = instance.estimate(eps, scene)  # type: ignore[attr-defined]
    if not eps:
        click.echo(f"All episodes are in {out / 'results.jsonl'}: no LLM call needed.", err=err)
        return
    click.echo(f"Estimate for {est['episodes']} episodes: {est['calls_low']}-{est['calls_high']} "
               f"calls, ~{est['prompt_tokens_low']:,}-{est['prompt_tokens_high']:,} prompt and up "
               f"to {est['completion_tokens_high']:,} completion tokens, "
               f"${est['cost_low_usd']:.2f}-${est['cost_high_usd']:.2f} (cached calls are free; "
               "tokens estimated at 4 characters each)", err=err)


def _read(path: Path) -> list[dict[str, object]]:
    from map2route.bench.map2route.run import read_results

    return read_results(path)


@bench.command("table3")
@click.option("--config", "grounding_config", type=click.Path(dir_okay=False, exists=True),
              default=None, help="Grounding YAML with the llm: block [config/grounding.yaml].")
@click.option("--method", "methods", multiple=True,
              help="Only these rows (repeatable) [every Table III method].")
@click.option("--split", type=click.Choice(["easy", "hard"]), default=None,
              help="Only Easy or only Hard episodes [both].")
@click.option("--limit", type=click.IntRange(1), default=None, help="Run the first N episodes.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("out/bench/table3"), show_default=True,
              help="One folder per row below it; re-running resumes.")
@_episode_inputs
@executor_options
def table3_cmd(grounding_config: str | None, methods: tuple[str, ...], split: str | None,
               limit: int | None, out_dir: Path, episodes_path: Path | None,
               scenes_dir: Path | None, planner_config: str | None, executor: str,
               address: str | None, max_in_flight: int | None) -> None:
    """Reproduce the paper's Table III with your LLM: every ablation row, one table."""
    from map2route.bench.errors import BenchmarkError
    from map2route.bench.map2route.table3 import TABLE3_METHODS, run_table3, write_table3
    from map2route.execution.executors import make_executor
    from map2route.paths import maps_dir

    chosen = methods or TABLE3_METHODS
    unknown = [m for m in chosen if m not in TABLE3_METHODS]
    if unknown:
        msg = f"not a Table III method: {', '.join(unknown)}; one of {', '.join(TABLE3_METHODS)}"
        raise BenchmarkError(msg)

    def before(method: object, spec: object, folder: Path) -> None:
        click.echo(f"== {getattr(method, 'name', '?')} -> {folder}", err=True)
        _print_estimate(method, spec, folder, split=split, limit=limit, err=True)

    rows = run_table3(episodes_path or _default_episodes(), scenes_dir or maps_dir(), out_dir,
                      grounding_config=grounding_config, planner_config=planner_config,
                      methods=tuple(chosen), split=split, limit=limit, before=before,
                      executor=make_executor(executor, address=address,
                                             max_in_flight=max_in_flight))
    paths = write_table3(out_dir, rows)
    click.echo(paths["markdown"].read_text(encoding="utf-8"))
    sent = sum(int(r.llm["llm_calls"] - r.llm["cache_hits"]) for r in rows)
    spent = sum(r.llm["spent_usd"] for r in rows)
    click.echo(f"{sent} requests sent, ${spent:.4f} spent; wrote "
               f"{', '.join(str(p) for p in paths.values())}")


@bench.command("score-bag")
@click.option("--episode", "episode_id", required=True, help="Episode id, e.g. SCENE/easy/003.")
@click.option("--bag", "bag_path", required=True, type=click.Path(exists=True, path_type=Path),
              help="ROS 2 bag folder or .mcap/.db3 file.")
@click.option("--topic", default="/odom", show_default=True,
              help="nav_msgs/Odometry or geometry_msgs/PoseStamped topic, map frame.")
@click.option("--episodes", "episodes_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Episode file [episodes/test.jsonl, dev.jsonl for dev ids].")
@click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Scene folders [maps/].")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as one JSON object.")
def score_bag_cmd(episode_id: str, bag_path: Path, topic: str, episodes_path: Path | None,
                  scenes_dir: Path | None, as_json: bool) -> None:
    """Score a recorded robot route (a ROS 2 bag) on one episode with the benchmark metrics."""
    from map2route.bench.map2route.episode import load_episodes
    from map2route.bench.map2route.rosbag import read_bag_route
    from map2route.bench.map2route.scoring import score_route
    from map2route.paths import PACKAGE_ROOT, maps_dir
    from map2route.semantic_map import load_scene

    if episodes_path is None:
        name = "dev.jsonl" if "/dev/" in episode_id else "test.jsonl"
        episodes_path = PACKAGE_ROOT / "episodes" / name
    (ep,) = load_episodes(episodes_path, ids=[episode_id])
    m = load_scene((scenes_dir or maps_dir()) / ep.scene)
    route = read_bag_route(bag_path, topic=topic)
    score = score_route(ep, m, route.points)
    data = score.to_json()
    data.update({"bag": str(bag_path), "topic": topic, "msgtype": route.msgtype,
                 "frame_id": route.frame_id, "poses": int(len(route.points)),
                 "checksums": route.checksums})
    if as_json:
        click.echo(json.dumps(data, indent=1))
        return
    click.echo(f"{ep.id}: {len(route.points)} poses from {topic} ({route.msgtype}, frame "
               f"{route.frame_id or '?'})")
    for key in ("hcs", "success", "near", "far", "relative", "path_shape", "clearance", "pl", "spl"):
        v = data[key]
        click.echo(f"  {key:<11} {'–' if v is None else (f'{v:.3f}' if isinstance(v, float) else v)}")
    if score.details.get("blocked_cells"):
        click.echo(f"  note: {score.details['blocked_cells']} route cells are not traversable")
    if route.checksums != "verified":
        click.echo("  note: the bag records no checksums, so its integrity was not verified")


@bench.command("score-trajectory")
@click.option("--scene", "scene", required=True,
              help="Scene name under maps/, a scene folder, or an official map JSON file.")
@click.option("--episode", "episode_path", required=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Episode JSON (ours or official), or our JSON Lines with --episode-id.")
@click.option("--episode-id", default=None, help="Episode id inside a JSON Lines file.")
@click.option("--trajectory", "trajectory_path", required=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="[[x, y], ...] map metres, or an official trajectory file ([row, col]).")
@click.option("--cells", is_flag=True, help="A bare list holds [row, col] grid points.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as one JSON object.")
def score_trajectory_cmd(scene: str, episode_path: Path, episode_id: str | None,
                         trajectory_path: Path, cells: bool, as_json: bool) -> None:
    """Score any trajectory on any episode with the official Map2Route semantics."""
    from map2route.bench.map2route.official import read_any_episode, read_trajectory
    from map2route.bench.map2route.scoring import score_route
    from map2route.scenes.official import read_official_map
    from map2route.semantic_map import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    path = Path(scene)
    if path.suffix == ".json" and path.is_file():
        m = read_official_map(path)
    else:
        m = load_scene(resolve_scene(scene))
    ep = read_any_episode(episode_path, m.grid, episode_id=episode_id, scene=m.name)
    traj = read_trajectory(trajectory_path, cells=cells)
    score = score_route(ep, m, traj.points, grid_points=traj.grid_points)
    data = score.to_json()
    if as_json:
        click.echo(json.dumps(data, indent=1))
        return
    n = len(traj.points if traj.points is not None else traj.grid_points)  # type: ignore[arg-type]
    click.echo(f"{ep.id} on {m.name}: {n} trajectory points")
    for key in ("hcs", "success", "near", "far", "relative", "path_shape", "clearance", "pl",
                "spl", "hcs_requirements", "spl_episode", "clearance_robot_centre"):
        v = data[key]
        click.echo(f"  {key:<22} {'–' if v is None else (f'{v:.3f}' if isinstance(v, float) else v)}")
