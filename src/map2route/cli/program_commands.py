"""``map2route program``: run a grounding program (ours or official-style) or convert a
RouteIR / GroundedProgram v2 file, writing RouteIR or GroundedProgram v2 JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from map2route.cli.app import app
from map2route.cli.grounding_commands import _load_scene, _parse_start

if TYPE_CHECKING:
    from map2route.routeir.model import RouteIR
    from map2route.semantic_map.model import SemanticMap


def _read_routeir(path: Path, m: SemanticMap, start: tuple[float, float] | None) -> RouteIR:
    """A RouteIR from a program (``.py``, run in the sandbox) or a JSON file (RouteIR or v2)."""
    from map2route.grounding.errors import GroundingError
    from map2route.grounding.program_v2 import grounded_program_to_routeir
    from map2route.grounding.sandbox import SandboxRunner
    from map2route.routeir.model import routeir_from_json

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise click.BadParameter(f"cannot read {path}: {err}", param_hint="FILE") from err
    if path.suffix == ".py":
        with SandboxRunner() as runner:
            res = runner.run(m, text, start, grounder="program")
        if not res.ok or res.routeir is None:
            lines = "; ".join(f"{i.code}: {i.message}" + (f" (line {i.span[0]})" if i.span else "")
                              for i in res.issues)
            raise GroundingError(f"the program in {path} did not ground: {lines}")
        return res.routeir
    try:
        doc: Any = json.loads(text)
    except ValueError as err:
        raise click.BadParameter(f"{path} is neither a .py program nor JSON: {err}",
                                 param_hint="FILE") from err
    if isinstance(doc, dict) and doc.get("schema_version") == 2:
        return grounded_program_to_routeir(doc, m, start=start)
    return routeir_from_json(doc)


@app.command("program")
@click.argument("scene")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--start", "start_text", metavar="X,Y", default=None,
              help="Start point in map metres (default: the file's, else the free space's middle).")
@click.option("--format", "fmt", type=click.Choice(["routeir", "grounded-program-v2"]),
              default="routeir", show_default=True, help="What to write.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write here (atomically) instead of printing.")
def program_cmd(scene: str, file: Path, start_text: str | None, fmt: str,
                out: Path | None) -> None:
    """Run FILE (a grounding program, ours or official ``def ground(): return task(...)``) on
    SCENE, or read FILE as RouteIR / GroundedProgram v2 JSON, and write RouteIR or v2."""
    from map2route.files import atomic_write_text
    from map2route.grounding.program_v2 import routeir_to_grounded_program
    from map2route.routeir.model import routeir_to_json

    m = _load_scene(scene)
    start = None if start_text is None and file.suffix != ".py" else _parse_start(start_text, m)
    ir = _read_routeir(file, m, start)
    doc = routeir_to_json(ir) if fmt == "routeir" else routeir_to_grounded_program(ir)
    text = json.dumps(doc)
    if out is None:
        click.echo(text)
        return
    atomic_write_text(out, text + "\n")
    click.echo(f"Wrote {out} ({fmt}, {len(ir.stages)} stages, {len(ir.constraints)} constraints)")
