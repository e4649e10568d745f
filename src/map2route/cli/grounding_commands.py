"""Grounding commands: ``route`` (instruction -> program -> RouteIR -> route), ``parse``, and
``bench fuzz-parser`` (both on fuzzed instructions, timed)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from map2route.cli.app import app, bench

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

#: Untimed instructions ``bench fuzz-parser`` runs first (see there).
WARM_UP = 30
#: Built-in synthetic scenes usable by name (tests, docs, no shipped maps needed).
BUILTIN_SCENES = ("two_room_house",)


def _load_scene(scene: str) -> SemanticMap:
    if scene in BUILTIN_SCENES:
        from map2route.semantic_map import synthetic

        return getattr(synthetic, scene)()  # type: ignore[no-any-return]
    from map2route.semantic_map import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    return load_scene(resolve_scene(scene))


def _parse_start(text: str | None, m: SemanticMap) -> tuple[float, float]:
    """``x,y`` in metres, or (no --start) the free cell nearest the middle of the free space."""
    import numpy as np

    if text is None:
        rows, cols = np.nonzero(m.traversable)
        if rows.size == 0:
            raise click.BadParameter("the scene has no traversable cell", param_hint="--start")
        cr, cc = rows.mean(), cols.mean()
        k = int(np.argmin((rows - cr) ** 2 + (cols - cc) ** 2))
        return m.grid.cell_to_world(int(rows[k]), int(cols[k]))
    try:
        xs, ys = text.split(",")
        x, y = float(xs), float(ys)
    except ValueError:
        msg = f"expected 'x,y' in metres (e.g. 1.5,2.0), got {text!r}"
        raise click.BadParameter(msg, param_hint="--start") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        msg = f"expected finite metres 'x,y' (e.g. 1.5,2.0), got {text!r}"
        raise click.BadParameter(msg, param_hint="--start")
    return x, y


def _ir_lines(ir: RouteIR) -> list[str]:
    out = []
    for i, st in enumerate(ir.stages):
        wp = f", {len(st.waypoints)} waypoints" if st.waypoints else ""
        out.append(f"stage {i + 1}: {st.label or st.target.label} "
                   f"[{st.target.construction.get('op', '?')}, {ir.grid.cells_to_square_meters(st.target.size):.2f} m2{wp}]")
    for c in ir.constraints:
        scope = []
        if c.spatial_scope is not None:
            scope.append(f"within {c.spatial_scope.label}")
        if c.temporal_scope is not None:
            scope.append(f"during stages {[k + 1 for k in c.temporal_scope]}")
        other = f" vs {c.other.label}" if c.other is not None else ""
        out.append(f"{c.kind.value}: {c.region.label}{other}" +
                   (f" ({'; '.join(scope)})" if scope else ""))
    return out


@app.command("route")
@click.argument("scene")
@click.argument("instruction")
@click.option("--start", "start_text", metavar="X,Y", default=None,
              help="Start point in map metres (default: the middle of the free space).")
@click.option("--grounder", type=click.Choice(["auto", "offline", "llm", "hybrid"]), default=None,
              help="Grounder (default: config/grounding.yaml).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Grounding YAML (default: config/grounding.yaml).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write a PNG of the scene with the route.")
@click.option("--no-plan", is_flag=True, help="Ground only; do not plan the route.")
def route_cmd(scene: str, instruction: str, start_text: str | None, grounder: str | None,
              config_path: Path | None, as_json: bool, out: Path | None, no_plan: bool) -> None:
    """Ground INSTRUCTION on SCENE (a shipped scene, a folder, or two_room_house) and plan it."""
    import time

    from map2route.grounding.config import load_config
    from map2route.grounding.grounder import make_grounder

    m = _load_scene(scene)
    start = _parse_start(start_text, m)
    cfg = load_config(config_path)
    name = grounder or cfg.grounder
    g = make_grounder(name, config=cfg).ground(instruction, m, start)
    route: Any = None
    plan_s = 0.0
    if not no_plan:
        from map2route.planning import plan_route

        t0 = time.perf_counter()
        route = plan_route(m, g.routeir, start)
        plan_s = time.perf_counter() - t0
    if out is not None:
        from map2route.render import render_scene

        regions = [(f"stage {i + 1}", st.target.mask(m.grid))
                   for i, st in enumerate(g.routeir.stages)]
        render_scene(m, out, route=route, regions=regions, title=instruction[:90])
    if as_json:
        from map2route.routeir.model import routeir_to_json

        doc: dict[str, Any] = {
            "scene": m.name, "instruction": instruction, "start": list(start),
            "grounder": g.grounder, "answered_by": g.info.get("answered_by", name),
            "program": g.program, "repairs": g.repairs,
            "attempts": [{"program": a.program, "issues": [i.to_dict() for i in a.issues]}
                         for a in g.attempts],
            "grounding_s": round(g.elapsed_s, 4), "routeir_summary": _ir_lines(g.routeir),
            "routeir": routeir_to_json(g.routeir)}
        if route is not None:
            doc["route"] = {"length_m": round(route.length_m, 3),
                            "stage_lengths_m": [round(x, 3) for x in route.stage_lengths_m],
                            "points": int(len(route.points)), "planning_s": round(plan_s, 4)}
        if out is not None:
            doc["image"] = str(out)
        click.echo(json.dumps(doc))
        return
    from rich.console import Console
    from rich.syntax import Syntax

    con = Console()
    con.print(f"[bold]{m.name}[/bold] start ({start[0]:.2f}, {start[1]:.2f}) "
              f"grounder {g.grounder}, {g.repairs} repair(s), {g.elapsed_s * 1000:.1f} ms")
    con.print(Syntax(g.program, "python", theme="ansi_dark", line_numbers=False))
    con.print("[bold]RouteIR[/bold]")
    from rich.markup import escape

    for line in _ir_lines(g.routeir):
        con.print(f"  {escape(line)}")
    if route is not None:
        legs = ", ".join(f"{x:.2f}" for x in route.stage_lengths_m)
        con.print(f"[bold]Route[/bold] {route.length_m:.2f} m over {len(route.points)} points "
                  f"(stages: {legs} m), planned in {plan_s * 1000:.1f} ms")
    if out is not None:
        con.print(f"Wrote {out}")


@app.command("parse")
@click.argument("instruction")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--program", "show_program", is_flag=True,
              help="Also print the grounding program the offline grounder writes.")
def parse_cmd(instruction: str, as_json: bool, show_program: bool) -> None:
    """Show how INSTRUCTION is understood, without a map: stages, constraints, references."""
    from map2route.grounding.grounder import OfflineGrounder, load_config, max_instruction_chars
    from map2route.grounding.writer import write_program

    parse = OfflineGrounder(executor=None,
                            max_chars=max_instruction_chars(load_config())).parse(instruction)
    doc = parse.to_json()
    if show_program or as_json:
        doc["program"] = write_program(parse)
    if as_json:
        click.echo(json.dumps(doc))
        return
    from rich.console import Console

    con = Console()
    for c in parse.clauses:
        con.print(f"[bold]{c.kind}[/bold] {c.text!r}")
        for r in c.refs + ([c.other] if c.other else []):
            con.print(f"  ref {r.text!r} head={r.head} ({r.head_kind}) depth={r.depth()}")
        if c.within is not None:
            con.print(f"  within {c.within.text!r}")
        if c.during is not None:
            con.print(f"  during {({k: getattr(v, 'text', v) for k, v in c.during.items()})}")
    if parse.unknown_words:
        con.print(f"unused words: {', '.join(parse.unknown_words)}")
    for note in parse.context:
        con.print(f"context (no stage): {note!r}")
    if show_program:
        con.print(doc["program"])


@bench.command("fuzz-parser")
@click.option("--count", type=click.IntRange(1, 1_000_000), default=10_000, show_default=True,
              help="Fuzzed instructions.")
@click.option("--seed", type=int, default=16, show_default=True,
              help="Seed of the instruction generator (same seed, same instructions).")
@click.option("--scene", default="procthor_00471", show_default=True,
              help="Scene the route path grounds and plans on (a shipped scene, a folder, or "
                   "two_room_house).")
@click.option("--paths", "paths_text", default="parse,route", show_default=True,
              help="Which command paths to run: parse, route, or both.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write every outcome and the summary as JSON.")
def fuzz_parser_cmd(count: int, seed: int, scene: str, paths_text: str, out: Path | None) -> None:
    """Fuzzed instructions through `parse` and `route` (offline, with the config deadline):
    time per instruction, and clean errors vs tracebacks. Exits 1 on any traceback."""
    from dataclasses import asdict

    from rich.console import Console
    from rich.table import Table

    from map2route.bench.fuzz.instructions import fuzz_instructions
    from map2route.bench.fuzz.run import BOUND_S, by_kind, make_grounder, run_one, summarize
    from map2route.execution.results import progress_bar
    from map2route.files import atomic_write_text

    paths = [p.strip() for p in paths_text.split(",") if p.strip()]
    if not paths or any(p not in ("parse", "route") for p in paths):
        raise click.BadParameter(f"expected parse, route or parse,route, got {paths_text!r}",
                                 param_hint="--paths")
    m = _load_scene(scene)
    start = _parse_start(None, m)
    grounder = make_grounder()
    items = fuzz_instructions(count, seed=seed, scene=m.name)
    # Untimed warm-up: the first call of each verb builds the map's caches (distance fields,
    # graphs) and imports scipy; the table times the steady state.
    for kind, text in fuzz_instructions(WARM_UP, seed=seed + 1, scene=m.name):
        run_one(grounder, m, start, kind, text, paths)
    outcomes = []
    with progress_bar("fuzzing the parser", len(items)) as bar:
        for kind, text in items:
            outcomes.extend(run_one(grounder, m, start, kind, text, paths))
            bar.advance()
    rows = summarize(outcomes)
    con = Console()
    table = Table(title=f"{count:,} fuzzed instructions (seed {seed}) on {m.name}, "
                        f"deadline_s={grounder.deadline_s}; ms (wall, then CPU)")
    for col in ("path", "count", "ok", "errors", "tracebacks", "median", "p99", "max",
                f"> {BOUND_S:g} s", "cpu p99", "cpu max", f"cpu > {BOUND_S:g} s"):
        table.add_column(col, justify="left" if col == "path" else "right")
    for r in rows:
        table.add_row(r.path, f"{r.count:,}", f"{r.ok:,}", f"{r.errors:,}", str(r.tracebacks),
                      f"{r.median_s * 1e3:.1f}", f"{r.p99_s * 1e3:.1f}", f"{r.max_s * 1e3:.1f}",
                      str(r.over_bound), f"{r.cpu_p99_s * 1e3:.1f}", f"{r.cpu_max_s * 1e3:.1f}",
                      str(r.cpu_over_bound))
    con.print(table)
    con.print("errors: clean one-line errors (Error: ...); ground: the grounding call of "
              "`route` alone; route: grounding + planning; cpu: this process's CPU time (wall "
              "time grows with the machine's load). Slowest: " +
              "; ".join(f"{r.path} {r.slowest}" for r in rows))
    kinds = Table(title="By kind of instruction")
    for col in ("kind", "path", "count", "clean errors", "tracebacks", "max ms"):
        kinds.add_column(col, justify="left" if col in ("kind", "path") else "right")
    for (kind, path), (n, errs, tbs, mx) in sorted(by_kind(outcomes).items()):
        kinds.add_row(kind, path, f"{n:,}", f"{errs:,}", str(tbs), f"{mx * 1e3:.1f}")
    con.print(kinds)
    for r in rows:
        for example in r.examples:
            con.print(f"[red]traceback in {r.path}:[/red]\n{example}", markup=True)
    if out is not None:
        atomic_write_text(out, json.dumps({"count": count, "seed": seed, "scene": m.name,
                                           "summary": [asdict(r) for r in rows],
                                           "outcomes": [asdict(o) for o in outcomes]}))
        con.print(f"Wrote {out}")
    if any(r.tracebacks for r in rows):
        raise click.ClickException("a fuzzed instruction raised a traceback (listed above)")
