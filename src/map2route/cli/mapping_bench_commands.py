"""``map2route bench mapping``: the semantic-map builder over many scenes and noise levels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from map2route.cli.app import bench
from map2route.execution.options import executor_options


def _default_episodes() -> Path | None:
    from map2route.cli.episodes_commands import default_episodes_dir

    path = default_episodes_dir() / "test.jsonl"
    return path if path.is_file() else None


def _scene_list(maps: Path, names: tuple[str, ...], limit: int | None) -> list[str]:
    """The scenes to run: ``names`` or the ``test`` list of ``maps/index.json``; first ``limit``."""
    if not maps.is_dir():
        msg = f"maps folder {str(maps)!r} does not exist; pass --maps DIR"
        raise click.ClickException(msg)
    if names:
        scenes = list(dict.fromkeys(names))  # keep order, drop repeats
    else:
        index = maps / "index.json"
        try:
            scenes = [str(s) for s in json.loads(index.read_text(encoding="utf-8"))["test"]]
        except (OSError, ValueError, KeyError, TypeError) as err:
            msg = (f"cannot read the scene list {str(index)!r} (a JSON object with a \"test\" "
                   f"list): {err}; pass --scene NAME")
            raise click.ClickException(msg) from None
    missing = [s for s in scenes if not (maps / s).is_dir()]
    if missing:
        msg = f"unknown scene(s) {', '.join(map(repr, missing))}: no such folder in {maps}"
        raise click.BadParameter(msg, param_hint="--scene")
    return scenes[:limit] if limit is not None else scenes


def _f(v: Any, fmt: str = ".3f") -> str:
    return "-" if v is None else format(v, fmt)


def _rooms(row: dict[str, Any]) -> str:
    """``built/true`` rooms of a row (``-`` for rows from before the room count was kept)."""
    if row.get("rooms_built") is None:
        return "-"
    return f"{row['rooms_built']}/{row['rooms_true']}"


@bench.command("mapping")
@click.option("--scene", "scene_names", multiple=True, metavar="NAME",
              help="Scene to run (repeatable) [the \"test\" list of maps/index.json].")
@click.option("--limit", type=click.IntRange(1), default=None, help="Run the first N scenes.")
@click.option("--noise", "noises", multiple=True, type=click.FloatRange(0.0, 1.0),
              help="Detector noise level R in [0, 1] (repeatable): miss rate = false-positive "
                   "rate = label noise = R [0].")
@click.option("--image-width", type=click.IntRange(96), default=960, show_default=True,
              help="Simulated panorama width (cropped to width/3 rows).")
@click.option("--episodes", "episodes_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Episodes for the downstream HCS [episodes/test.jsonl].")
@click.option("--no-episodes", is_flag=True, help="Skip the downstream HCS.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("out/bench_mapping"), show_default=True,
              help="Results folder; re-running resumes.")
@click.option("--keep-bags", is_flag=True,
              help="Keep each scene's bag (OUT/bags/SCENE, ~90 MB at 960 px).")
@click.option("--maps", "maps_path", type=click.Path(path_type=Path), default=None,
              help="Scene folder with index.json [the shipped maps/].")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="YAML overlaid on config/mapping.yaml (simulate: and build:).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Local processes, one scene each (1: this process, a tick per stage).")
@executor_options
def bench_mapping(scene_names: tuple[str, ...], limit: int | None, noises: tuple[float, ...],
                  image_width: int, episodes_path: Path | None, no_episodes: bool,
                  out_dir: Path, keep_bags: bool, maps_path: Path | None,
                  config_path: Path | None, as_json: bool, workers: int, executor: str,
                  address: str | None, max_in_flight: int | None) -> None:
    """Simulate, build and score semantic maps over many scenes and detector noise levels."""
    import time

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from map2route.bench.mapping.sweep import run_sweep, sim_config_for, summarize, write_plots
    from map2route.execution.executors import make_executor
    from map2route.execution.results import RESULTS_NAME, progress_bar
    from map2route.mapping.builder import BuildConfig
    from map2route.paths import maps_dir

    if config_path is not None and not config_path.is_file():
        raise click.BadParameter(f"{config_path} does not exist", param_hint="--config")
    if episodes_path is not None and not no_episodes and not episodes_path.is_file():
        raise click.BadParameter(f"{episodes_path} does not exist", param_hint="--episodes")
    maps = maps_path or maps_dir()
    scenes = _scene_list(maps, scene_names, limit)
    levels = sorted(set(noises or (0.0,)))
    episodes = None if no_episodes else (episodes_path or _default_episodes())
    sim_cfg = sim_config_for(image_width, config_path)
    build_cfg = BuildConfig.from_yaml(config_path)

    runner = make_executor(executor, workers=workers, address=address,
                           max_in_flight=max_in_flight)
    t0 = time.perf_counter()
    with progress_bar("mapping benchmark", len(scenes) * (1 + 2 * len(levels)),
                      transient=True) as bar:

        def step(what: str) -> None:
            bar.advance(label=what)

        rows = run_sweep(scenes, maps=maps, out=out_dir, noises=levels, episodes=episodes,
                         keep_bags=keep_bags, sim_config=sim_cfg, build_config=build_cfg,
                         on_step=step,
                         executor=None if executor == "local" and workers == 1 else runner)
    wall = time.perf_counter() - t0
    summary = summarize(rows)
    plots = write_plots(rows, out_dir)
    results = out_dir / RESULTS_NAME
    if as_json:
        click.echo(json.dumps({"out": str(out_dir), "results": str(results),
                               "plots": [str(p) for p in plots], "wall_s": round(wall, 2),
                               "episodes": str(episodes) if episodes else None,
                               "summary": summary, "rows": rows}, indent=1))
        return

    out = Console(width=max(Console().width, 220))  # wide tables stay readable in a pipe
    per = Table(title=f"Built maps, {len(scenes)} scenes x {len(levels)} noise levels "
                      f"({image_width} px panoramas)")
    cols = ("scene", "noise", "drive s", "sim s", "build s", "speed", "precision", "recall",
            "rec tall", "rec tall seen", "room acc", "room ARI", "room PQ", "rooms", "room type",
            "trav IoU", "centroid m", "HCS true", "HCS built", "grounded")
    for c in cols:
        per.add_column(c, justify="left" if c == "scene" else "right", no_wrap=c == "scene")
    for r in rows:
        if r.get("error"):
            per.add_row(r["scene"], f"{r['noise']:g}", f"[red]{r.get('stage')} failed[/red]",
                        *["-"] * (len(cols) - 3))
            continue
        grounded = (f"{r['grounded']}/{r['episodes']}" if r.get("episodes") else "-")
        per.add_row(r["scene"], f"{r['noise']:g}", _f(r["drive_s"], ".1f"),
                    _f(r["simulate_wall_s"], ".1f"), _f(r["build_wall_s"], ".1f"),
                    _f(r["build_speed"], ".2f"), _f(r["precision"]), _f(r["recall"]),
                    _f(r["recall_tall"]), _f(r["recall_tall_seen"]), _f(r["room_accuracy"]),
                    _f(r.get("room_ari")), _f(r.get("room_pq")), _rooms(r),
                    _f(r["room_type_accuracy"]), _f(r["traversability_iou"]),
                    _f(r["centroid_error_m"]), _f(r["hcs_true"]), _f(r["hcs_built"]), grounded)
    out.print(per)

    tgt = summary["targets"]
    sm = Table(title="Per noise level: mean (min) over scenes; scenes meeting the targets "
                     f"(recall_tall >= {tgt['recall_tall']:g}, room accuracy >= "
                     f"{tgt['room_accuracy']:g}, build faster than real time)")
    for c in ("noise", "scenes", "failed", "recall_tall", "rec tall seen", "room acc",
              "room ARI", "room PQ", "|count err|", "precision", "recall", "trav IoU", "HCS true", "HCS built", "rec tall ok",
              "room ok", "both ok", "slowest speed"):
        sm.add_column(c, justify="right")
    for lv in summary["levels"]:
        mean, low, n = lv["mean"], lv["min"], lv["scenes"]

        def mm(key: str, mean: dict[str, Any] = mean, low: dict[str, Any] = low) -> str:
            return "-" if mean[key] is None else f"{mean[key]:.3f} ({low[key]:.3f})"

        slow = ("-" if lv["slowest_build_speed"] is None else
                f"{lv['slowest_build_speed']:.2f}x ({lv['slowest_build_scene']})")
        sm.add_row(f"{lv['noise']:g}", str(n), str(lv["failed"]), mm("recall_tall"),
                   mm("recall_tall_seen"), mm("room_accuracy"), mm("room_ari"), mm("room_pq"),
                   "-" if mean["abs_room_count_error"] is None
                   else f"{mean['abs_room_count_error']:.2f}", mm("precision"), mm("recall"),
                   mm("traversability_iou"), mm("hcs_true"), mm("hcs_built"),
                   f"{lv['recall_tall_ok']}/{n}", f"{lv['room_accuracy_ok']}/{n}",
                   f"{lv['both_ok']}/{n}", slow)
    out.print(sm)
    for f in summary["failures"]:
        out.print(f"[red]failed[/red] {escape(str(f['scene']))} noise {f['noise']:g} "
                  f"({f['stage']}): {escape(str(f['error']))}", highlight=False)
    if episodes is None:
        out.print("(no episodes: downstream HCS skipped)")
    out.print(f"{len(rows)} rows in {wall:.1f} s; results {results}; plots "
              f"{', '.join(str(p) for p in plots)}; built maps {out_dir / 'built'}",
              highlight=False)
