"""Scene commands: ``render``, ``demo``, ``scenes generate|stats|import|export``."""

from __future__ import annotations

from pathlib import Path

import click

from map2route.cli.app import app


@app.group()
def scenes() -> None:
    """Shipped scenes: generate them from ProcTHOR, import/export houses, print statistics."""


@scenes.command("generate")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("maps"),
              show_default=True, help="Output folder.")
@click.option("--pool", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Number of seeds whose floor area is surveyed.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the uniform choice among the largest houses.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Build only the first N chosen scenes (dev first).")
@click.option("--cache", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder caching generated ProcTHOR houses by seed (speeds up re-runs).")
def generate(out: Path, pool: int, seed: int, workers: int, limit: int | None,
             cache: Path | None) -> None:
    """Generate ProcTHOR houses and write the 40 test + 4 dev scenes and index.json."""
    from map2route.scenes.pipeline import build_scene_set

    index = build_scene_set(out, pool=pool, seed=seed, workers=workers, limit=limit,
                            cache=cache, echo=click.echo)
    sel = index["selection"]
    click.echo(f"Wrote {len(index['test'])} test + {len(index['dev'])} dev scenes to {out} "
               f"in {sel['build_seconds']} s (default: {index['default']})")


@scenes.command("stats")
@click.argument("folder", type=click.Path(path_type=Path), default=Path("maps"))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def stats(folder: Path, as_json: bool) -> None:
    """Scene count, mean rooms and objects per scene, categories, rooms per type."""
    import json

    from map2route.scenes.stats import scene_set_stats

    s = scene_set_stats(folder)
    if as_json:
        click.echo(json.dumps(s.to_json()))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Scenes in {folder}")
    table.add_column("statistic")
    table.add_column("value", justify="right")
    table.add_row("scenes", str(s.scenes))
    table.add_row("mean rooms per scene", f"{s.mean_rooms:.2f}")
    table.add_row("mean objects per scene", f"{s.mean_objects:.1f}")
    table.add_row("  without walls, doorways, windows", f"{s.mean_objects_without_structure:.1f}")
    table.add_row("mean floor area", f"{s.mean_floor_area_m2:.1f} m²")
    table.add_row("distinct categories", str(s.categories))
    table.add_row("benchmark vocabulary covered", f"{s.vocabulary_covered} / 97")
    for kind, n in s.rooms_by_type.items():
        table.add_row(f"rooms: {kind.replace('_', ' ')}", str(n))
    if s.vocabulary_missing:
        table.add_row("vocabulary missing", ", ".join(s.vocabulary_missing))
    Console().print(table)


@scenes.command("import")
@click.argument("house_json", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Scene folder to write.")
@click.option("--format", "fmt", type=click.Choice(["procthor", "map2route"]), default="procthor",
              show_default=True, help="procthor: a ProcTHOR house JSON; map2route: an official "
              "Map2Route map JSON.")
@click.option("--name", default=None, help="Scene name (default: the output folder's name).")
@click.option("--resolution", type=click.FloatRange(min=0.005, max=1.0), default=0.05,
              show_default=True, help="Metres per cell (procthor only).")
def import_house(house_json: Path, out: Path, fmt: str, name: str | None,
                 resolution: float) -> None:
    """Import a ProcTHOR house JSON (.json or .json.gz) or an official map JSON as a scene."""
    from map2route.scenes.official import read_official_map
    from map2route.scenes.procthor import from_procthor_house, read_house_json
    from map2route.semantic_map.io import save_scene

    scene = name or out.name
    if fmt == "procthor":
        m = from_procthor_house(read_house_json(house_json), name=scene, resolution=resolution)
    else:
        m = read_official_map(house_json, name=scene)
    save_scene(m, out)
    click.echo(f"Wrote scene {scene!r} ({len(m.rooms)} rooms, {len(m.objects)} objects) to {out}")


@scenes.command("export")
@click.argument("scene")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Official Map2Route map JSON to write.")
def export_scene(scene: str, out: Path) -> None:
    """Write SCENE (a folder or a shipped name) as an official Map2Route map JSON."""
    from map2route.scenes.official import write_official_map
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    m = load_scene(resolve_scene(scene))
    write_official_map(m, out)
    click.echo(f"Wrote {out}")


@app.command()
@click.argument("scene")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="PNG file to write.")
@click.option("--dpi", type=click.IntRange(min=30, max=600), default=150, show_default=True)
@click.option("--title", default="", help="Figure title (default: the scene name).")
def render(scene: str, out: Path, dpi: int, title: str) -> None:
    """Render SCENE (a scene folder or a shipped scene name, or 'default') as a PNG."""
    from map2route.render import render_scene
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    m = load_scene(resolve_scene(scene))
    click.echo(f"Wrote {render_scene(m, out, title=title, dpi=dpi)}")


@app.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("demo_out"),
              show_default=True, help="Folder for the rendered PNGs.")
@click.option("--instruction", default=None,
              help="Instruction to route (default: a sample the default scene satisfies).")
def demo(out: Path, instruction: str | None) -> None:
    """Summarise and render the default scene, then ground, plan and draw an instruction."""
    from map2route.demo import SAMPLE_INSTRUCTION, run_full_demo

    run_full_demo(out, instruction=instruction or SAMPLE_INSTRUCTION)
