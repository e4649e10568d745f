"""``map2route episodes ...``: generate the benchmark episodes, print their statistics."""

from __future__ import annotations

import json
from pathlib import Path

import click

from map2route.cli.app import app


def default_episodes_dir() -> Path:
    from map2route.paths import PACKAGE_ROOT

    return PACKAGE_ROOT / "episodes"


@app.group()
def episodes() -> None:
    """Map2Route benchmark episodes (JSON Lines, schema map2route.episode/1)."""


@episodes.command("generate")
@click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Folder with index.json and the scene folders [maps/].")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Where test.jsonl and dev.jsonl go [episodes/].")
@click.option("--seed", type=int, default=0, show_default=True, help="Benchmark seed.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--only", "only", multiple=True, help="Generate only this scene (repeatable).")
def generate_cmd(scenes_dir: Path | None, out_dir: Path | None, seed: int, workers: int,
                 only: tuple[str, ...]) -> None:
    """Generate 25 episodes per test scene (700 Easy, 300 Hard) and 50 dev episodes."""
    from map2route.bench.map2route.generate_all import generate_benchmark
    from map2route.paths import maps_dir

    scenes = scenes_dir or maps_dir()
    out = out_dir or default_episodes_dir()
    counts = generate_benchmark(str(scenes), str(out), seed=seed, workers=workers,
                                scenes=list(only) or None)
    rejected = counts["rejected"]
    reasons = ", ".join(f"{v} {k}" for k, v in sorted(rejected.items()) if v and k != "missing")
    click.echo(f"Wrote {counts['test']} test episodes ({counts.get('easy', 0)} easy, "
               f"{counts.get('hard', 0)} hard) and {counts['dev']} dev episodes to {out}/")
    click.echo(f"Rejected draws: {reasons or 'none'}; episodes given up: {rejected.get('missing', 0)}")


@episodes.command("export-official")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write one official episode JSON per episode into.")
@click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Scene folders [maps/].")
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the first N episodes.")
def export_official_cmd(path: Path, out_dir: Path, scenes_dir: Path | None,
                        limit: int | None) -> None:
    """Write episodes as official Map2Route episode JSON files (one per episode)."""
    from map2route.bench.map2route.episode import load_episodes
    from map2route.bench.map2route.official import to_official_episode
    from map2route.files import atomic_write_text
    from map2route.paths import maps_dir
    from map2route.semantic_map import load_scene

    eps = load_episodes(path)[:limit]
    grids = {}
    for ep in eps:
        if ep.scene not in grids:
            grids[ep.scene] = load_scene((scenes_dir or maps_dir()) / ep.scene).grid
        name = ep.id.replace("/", "_") + ".json"
        atomic_write_text(out_dir / name, json.dumps(to_official_episode(ep, grids[ep.scene])))
    click.echo(f"Wrote {len(eps)} official episode files to {out_dir}")


@episodes.command("refresh-reference")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Scene folders [maps/].")
@click.option("--check", is_flag=True, help="Only report what would change; exit 1 if anything.")
def refresh_reference_cmd(paths: tuple[Path, ...], scenes_dir: Path | None, check: bool) -> None:
    """Recompute rooms traversed, trajectory length and L* of shipped episodes in place."""
    from map2route.bench.map2route.refresh import refresh_reference
    from map2route.paths import maps_dir

    files = list(paths) or [default_episodes_dir() / n for n in ("test.jsonl", "dev.jsonl")]
    stale = 0
    for f in files:
        c = refresh_reference(str(f), str(scenes_dir or maps_dir()), write=not check)
        stale += sum(v for k, v in c.items() if k != "episodes")
        click.echo(f"{f}: {c['episodes']} episodes; changed trajectory_length_m in "
                   f"{c['trajectory_length_m']}, rooms_traversed in {c['rooms_traversed']}, "
                   f"shortest_length_m in {c['shortest_length_m']}"
                   + (" (not written: --check)" if check else ""))
    if check and stale:
        raise SystemExit(1)


@episodes.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Scene folders [maps/].")
@click.option("--id", "ids", multiple=True, help="Only these episode ids (repeatable).")
def validate_cmd(paths: tuple[Path, ...], scenes_dir: Path | None, ids: tuple[str, ...]) -> None:
    """Flag episodes whose planned routes fail a hard requirement (ours or the official HCS);
    say which are contradictory (no route can pass). Exit 1 if any is flagged."""
    from map2route.bench.map2route.episode import load_episodes
    from map2route.bench.map2route.validate import check_episode
    from map2route.paths import maps_dir
    from map2route.semantic_map import SemanticMap, load_scene

    files = list(paths) or [default_episodes_dir() / n for n in ("test.jsonl", "dev.jsonl")]
    flagged = 0
    for f in files:
        eps = [e for e in load_episodes(f) if not ids or e.id in ids]
        scenes: dict[str, SemanticMap] = {}
        for ep in eps:
            if ep.scene not in scenes:
                scenes.clear()
                scenes[ep.scene] = load_scene((scenes_dir or maps_dir()) / ep.scene)
            check = check_episode(ep, scenes[ep.scene])
            if check.problems:
                flagged += 1
                verdict = (f"contradictory: no route completes more than {check.reachable_stages}"
                           f" of {check.stages} stages under the official HCS"
                           if check.contradictory else "a valid route exists (planner missed it)")
                click.echo(f"{f}: {ep.id}: {verdict}; " + "; ".join(check.problems))
        click.echo(f"{f}: {len(eps)} episodes checked")
    if flagged:
        raise click.ClickException(f"{flagged} episode(s) flagged")
    click.echo("0 flagged")


@episodes.command("generate-human")
@click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Folder with index.json and the scene folders [maps/].")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="The episode file [episodes/human.jsonl].")
@click.option("--per-scene", type=click.IntRange(1, 50), default=2, show_default=True,
              help="Episodes per test scene (Easy and Hard alternate).")
@click.option("--seed", type=int, default=0, show_default=True, help="Benchmark seed.")
@click.option("--only", "only", multiple=True, help="Generate only this scene (repeatable).")
def generate_human_cmd(scenes_dir: Path | None, out_path: Path | None, per_scene: int, seed: int,
                       only: tuple[str, ...]) -> None:
    """Generate the human-style split: scene-setting sentences, numbered stops, human scopes."""
    from map2route.bench.map2route.human import generate_human
    from map2route.paths import maps_dir

    scenes = scenes_dir or maps_dir()
    index_path = scenes / "index.json"
    if not only and not index_path.is_file():
        raise click.ClickException(f"{index_path} does not exist; pass --scenes DIR or --only")
    names = list(only) or list(json.loads(index_path.read_text(encoding="utf-8")).get("test", []))
    out = out_path or default_episodes_dir() / "human.jsonl"
    n = generate_human(scenes, out, scenes=names, per_scene=per_scene, seed=seed)
    click.echo(f"Wrote {n} human-style episodes to {out}")


@episodes.command("stats")
@click.option("--episodes", "paths", multiple=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="Episode files [episodes/test.jsonl and episodes/dev.jsonl].")
@click.option("--figure", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where the Fig. 2 PNG goes [out/episodes/statistics.png].")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as one JSON object.")
def stats_cmd(paths: tuple[Path, ...], figure: Path | None, as_json: bool) -> None:
    """Print the paper's Fig. 2 statistics per split and write the figure."""
    from rich.console import Console
    from rich.table import Table

    from map2route.bench.map2route.episode import load_episodes
    from map2route.bench.map2route.stats import QUANTITIES, split_statistics, statistics_figure

    if not paths:
        base = default_episodes_dir()
        paths = tuple(p for p in (base / "test.jsonl", base / "dev.jsonl") if p.is_file()) or (
            base / "test.jsonl",)
    eps = [ep for p in paths for ep in load_episodes(p)]
    stats = split_statistics(eps)
    fig = figure or Path("out/episodes/statistics.png")
    statistics_figure(eps, fig)
    if as_json:
        click.echo(json.dumps(stats, indent=1))
        return
    table = Table(title="Episode statistics (mean / median / min-max), cf. paper Fig. 2")
    table.add_column("quantity")
    for name in stats:
        table.add_column(f"{name} (n={int(stats[name]['episodes']['count'])})", justify="right")
    for key, title in QUANTITIES:
        row = [title]
        for name in stats:
            s = stats[name][key]
            row.append(f"{s['mean']:.2f} / {s['median']:.1f} / {s['min']:.0f}-{s['max']:.0f}")
        table.add_row(*row)
    Console().print(table)
    click.echo(f"Figure: {fig}")


@episodes.command("show")
@click.argument("episode_id")
@click.option("--episodes", "path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Episode file [episodes/test.jsonl].")
@click.option("--png", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also render the scene with the goal and avoid regions and a method's route.")
@click.option("--method", default="oracle", show_default=True,
              help="Method whose route --png draws.")
@click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Scene folders [maps/].")
def show_cmd(episode_id: str, path: Path | None, png: Path | None, method: str,
             scenes_dir: Path | None) -> None:
    """Print one episode's instruction and annotation (and render it with --png)."""
    from map2route.bench.map2route.episode import load_episodes

    p = path or _file_for(episode_id)
    (ep,) = load_episodes(p, ids=[episode_id])
    click.echo(f"{ep.id}  scene={ep.scene}  split={ep.split}  start=({ep.start.x:.2f}, "
               f"{ep.start.y:.2f}) yaw={ep.start.yaw:.2f}")
    click.echo(f"Instruction: {ep.instruction}")
    for i, st in enumerate(ep.routeir.stages):
        wp = f" via {len(st.waypoints)} waypoints" if st.waypoints else ""
        click.echo(f"  stage {i + 1}: {st.label} ({st.target.size} cells){wp}")
    for i, c in enumerate(ep.routeir.constraints):
        scope = [] if c.spatial_scope is None else [f"in {c.spatial_scope.label}"]
        if c.temporal_scope is not None:
            scope.append(f"stages {[k + 1 for k in c.temporal_scope]}")
        click.echo(f"  constraint {i}: {c.kind.value} {c.region.label!r} {' '.join(scope)}")
    r = ep.reference
    click.echo(f"  depth={r.depth} candidates={r.candidate_instances} hard={r.hard_constraints} "
               f"soft={r.soft_constraints} L*={r.shortest_length_m} m")
    if png is not None:
        _render_episode(ep, png, method, scenes_dir)


def _render_episode(ep: object, png: Path, method: str, scenes_dir: Path | None) -> None:
    from map2route.bench.map2route.episode import Episode
    from map2route.bench.map2route.scoring import score_route
    from map2route.bench.registry import make_method
    from map2route.paths import maps_dir
    from map2route.render import render_scene
    from map2route.semantic_map import load_scene

    assert isinstance(ep, Episode)
    m = load_scene((scenes_dir or maps_dir()) / ep.scene)
    result = make_method(method).solve(ep, m)
    regions = [(f"stage {i + 1}: {st.label}", st.target.mask(m.grid))
               for i, st in enumerate(ep.routeir.stages)]
    regions += [(f"avoid: {c.region.label}", c.region.mask(m.grid)) for c in ep.routeir.must_avoid]
    render_scene(m, png, route=result.route, regions=regions, title=f"{ep.id} ({method})")
    if result.route is None:
        click.echo(f"  {method}: no route ({result.error})")
    else:
        s = score_route(ep, m, result.route.points)
        click.echo(f"  {method}: HCS {s.hcs:.2f}, PL {s.pl:.1f} m, SPL {s.spl:.2f}; drawn to {png}")


def _file_for(episode_id: str) -> Path:
    base = default_episodes_dir()
    return base / ("dev.jsonl" if "/dev/" in episode_id else "test.jsonl")


@episodes.command("convert-official")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--scenes", "scenes_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Folder holding a scene folder per official map_id [maps/].")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              required=True, help="Episode JSON Lines file to write.")
@click.option("--row-origin", type=click.Choice(["bottom", "top"]), default="bottom",
              show_default=True, help="Whether row 0 of the official cells is the bottom or top row.")
def convert_official_cmd(inputs: tuple[Path, ...], scenes_dir: Path | None, out_path: Path,
                         row_origin: str) -> None:
    """Convert official Map2Route episode JSON files (or folders of them) to our format."""
    from map2route.bench.map2route.episode import write_episodes
    from map2route.bench.map2route.official import convert_official
    from map2route.paths import maps_dir

    files: list[Path] = []
    for p in inputs:
        files.extend(sorted(p.glob("*.json")) if p.is_dir() else [p])
    eps = convert_official(files, scenes_dir or maps_dir(), row_origin=row_origin)
    write_episodes(out_path, eps)
    click.echo(f"Converted {len(eps)} official episodes to {out_path}; score them with "
               f"`map2route bench map2route --episodes {out_path} --method NAME` "
               "(--method human replays their expert trajectories)")
