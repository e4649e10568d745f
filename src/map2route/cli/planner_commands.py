"""Planner commands: ``map2route plan`` (a RouteIR file to a route), ``bench planner`` and
``bench planner-ablation``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from map2route.cli.app import FINITE_FLOAT, app, bench


@bench.command("planner-ablation", add_help_option=False,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.pass_context
def planner_ablation_cmd(ctx: click.Context) -> None:
    """The planner ablation (paper Table IV layout) over oracle grounding; --help for options."""
    # The command (options included) lives with the benchmark; it is loaded only when run, so
    # `map2route --help` does not import the benchmark stack.
    from map2route.bench.planner.ablation import main as ablation

    ablation.main(args=ctx.args, prog_name="map2route bench planner-ablation",
                  standalone_mode=False)


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {text!r}") from None
    if not sizes or min(sizes) < 64:
        raise click.BadParameter("grid sizes must be integers >= 64")
    return sizes


@bench.command("planner")
@click.option("--sizes", default="250,500,1000", show_default=True,
              help="Comma-separated square grid sizes (cells) for the segment workload.")
@click.option("--repeats", default=7, show_default=True, type=click.IntRange(1, 1000),
              help="Timed runs per row.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="Planner YAML (default: config/planner.yaml).")
@click.option("--maps", "maps_path", type=click.Path(file_okay=False), default=None,
              help="Scene folder with index.json (default: the shipped maps/).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def bench_planner(sizes: str, repeats: int, config_path: str | None, maps_path: str | None,
                  as_json: bool) -> None:
    """Planner speed: our A* vs pyastar2d on 1000x1000 indoor grids; a 5-stage route."""
    from rich.console import Console
    from rich.table import Table

    from map2route.bench.planner.speed import run_benchmark
    from map2route.execution.results import progress_bar
    from map2route.paths import maps_dir
    from map2route.planning.config import PlannerConfig

    size_list = _sizes(sizes)
    config = PlannerConfig.from_yaml(config_path)
    maps = Path(maps_path) if maps_path else maps_dir()
    total = repeats * (3 * len(size_list) + 1) + min(repeats, 3) * len(size_list)
    with progress_bar("benchmarking the planner", total, transient=True) as bar:
        rows, summary = run_benchmark(sizes=size_list, repeats=repeats, config=config, maps=maps,
                                      advance=bar.advance)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    table = Table(title=f"Planner speed, wall-clock ms over {repeats} runs per row")
    for col in ("grid", "method", "median", "p95", "cpu median", "path cost", "cells",
                "expanded"):
        table.add_column(col, justify="left" if col in ("grid", "method") else "right")
    notes: list[str] = []
    for r in rows:
        method = r.method
        if r.note:
            if r.note not in notes:
                notes.append(r.note)
            method += f" [{notes.index(r.note) + 1}]"
        table.add_row(r.size, method,
                      f"{r.median_ms:.1f}" if r.times_ms else "-",
                      f"{r.p95_ms:.1f}" if r.times_ms else "-",
                      f"{r.cpu_median_ms:.1f}" if r.cpu_ms else "-",
                      "-" if r.cost is None else f"{r.cost:.2f}",
                      "-" if r.path_cells is None else str(r.path_cells),
                      "-" if r.expanded is None else str(r.expanded))
    out = Console(width=max(Console().width, 110))
    out.print(table)
    for i, note in enumerate(notes):
        out.print(f"[{i + 1}] {note}")
    keys = ("segment_1000_median_ms", "ratio_vs_pyastar2d", "ratio_vs_pyastar2d_cpu",
            "route5_largest_median_ms",
            "route5_largest_warm_median_ms", "route5_scene", "warm_up_ms")
    out.print("(wall-clock medians and p95; cpu median = process CPU time, less sensitive "
              "to other load on the machine)")
    out.print("  ".join(f"{k}={summary[k]}" for k in keys))


@app.command("plan")
@click.argument("scene")
@click.argument("routeir_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--start", nargs=2, type=FINITE_FLOAT, default=None, metavar="X Y",
              help="Start in map metres (default: the RouteIR's start).")
@click.option("--hard-only", is_flag=True, help="Shortest feasible route: soft terms off.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="Planner YAML (default: config/planner.yaml).")
@click.option("-o", "--out", "out_png", type=click.Path(dir_okay=False), default=None,
              help="Draw the route over the scene into this PNG.")
@click.option("--save", "save_json", type=click.Path(dir_okay=False), default=None,
              help="Write the route as JSON to this file.")
@click.option("--json", "as_json", is_flag=True, help="Print the route as JSON.")
def plan(scene: str, routeir_file: str, start: tuple[float, float] | None, hard_only: bool,
         config_path: str | None, out_png: str | None, save_json: str | None,
         as_json: bool) -> None:
    """Plan the route of a grounded RouteIR JSON file on SCENE (a folder or a shipped scene name)."""
    from map2route.files import atomic_write_text
    from map2route.planning import PlannerConfig, plan_route, warm_up
    from map2route.routeir import RouteIRError, check_scene, routeir_from_json
    from map2route.semantic_map import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    warm_up()
    m = load_scene(resolve_scene(scene))
    try:
        ir = routeir_from_json(json.loads(Path(routeir_file).read_bytes().decode("utf-8")))
    except UnicodeDecodeError as err:
        msg = (f"{routeir_file} is not UTF-8 text (byte {err.start}: {err.reason}); pass a "
               "RouteIR JSON file")
        raise RouteIRError(msg) from None
    except json.JSONDecodeError as err:
        msg = f"{routeir_file} is not JSON ({err.msg} at line {err.lineno}); pass a RouteIR file"
        raise RouteIRError(msg) from err
    check_scene(ir, m)
    start_xy = start if start is not None else ir.start
    if start_xy is None:
        raise click.UsageError("the RouteIR has no start; pass --start X Y")
    config = PlannerConfig.from_yaml(config_path)
    route = plan_route(m, ir, (float(start_xy[0]), float(start_xy[1])), config=config,
                       hard_only=hard_only)
    doc: dict[str, Any] = {
        "scene": m.name, "hard_only": hard_only, "length_m": round(route.length_m, 4),
        "stage_lengths_m": [round(x, 4) for x in route.stage_lengths_m],
        "stage_costs": [round(x, 4) for x in route.stage_costs],
        "points": [[round(float(x), 4), round(float(y), 4)] for x, y in route.points],
        "stage_index": route.stage_index.tolist(),
    }
    if save_json:
        atomic_write_text(Path(save_json), json.dumps(doc))
    if out_png:
        from map2route.render import render_scene  # type: ignore[import-not-found,unused-ignore]

        regions = [(st.label or st.target.label or f"stage {k + 1}", st.target.mask(m.grid))
                   for k, st in enumerate(ir.stages)]
        render_scene(m, Path(out_png), route=route, regions=regions,
                     title=f"{m.name}: {len(ir.stages)} stages, {route.length_m:.2f} m")
    if as_json:
        click.echo(json.dumps(doc))
        return
    click.echo(f"{m.name}: {len(ir.stages)} stages, {route.length_m:.2f} m, "
               f"{len(route.points)} points")
    for k, (length, cost) in enumerate(zip(route.stage_lengths_m, route.stage_costs, strict=True)):
        label = ir.stages[k].label or ir.stages[k].target.label
        click.echo(f"  stage {k + 1}: {label}: {length:.2f} m, cost {cost:.2f}")
