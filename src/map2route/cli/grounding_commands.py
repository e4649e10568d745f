"""Grounding commands: ``route`` (instruction -> program -> RouteIR -> route) and ``parse``."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from map2route.cli.app import app

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap

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
    res2 = ir.grid.resolution ** 2
    out = []
    for i, st in enumerate(ir.stages):
        wp = f", {len(st.waypoints)} waypoints" if st.waypoints else ""
        out.append(f"stage {i + 1}: {st.label or st.target.label} "
                   f"[{st.target.construction.get('op', '?')}, {st.target.size * res2:.2f} m2{wp}]")
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
