"""Mapping commands: ``map2route map simulate|build|score|to-driver-bag|export-sdf`` (the mapping
area)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from map2route.cli.app import app


@app.group(name="map")
def map_group() -> None:
    """Build semantic maps from lidar + panorama bags; simulate, score, export them."""


@map_group.command()
@click.argument("scene")
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="MCAP bag folder to write (must not exist).")
@click.option("--minutes", type=float, default=None,
              help="Drive length; the tour repeats back and forth to fill it (default: one tour).")
@click.option("--image-width", type=int, default=None,
              help="Panorama width W (height W/2, cropped to W/3 rows = 120 deg) "
                   "[config/mapping.yaml: 1920].")
@click.option("--camera-hz", type=float, default=None, help="[config/mapping.yaml: 1]")
@click.option("--lidar-hz", type=float, default=None, help="[config/mapping.yaml: 5]")
@click.option("--points-per-scan", type=int, default=None, help="[config/mapping.yaml: 8000]")
@click.option("--seed", type=int, default=None, help="[config/mapping.yaml: 0]")
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
              help="YAML overlaid on config/mapping.yaml (its `simulate:` section).")
def simulate(scene: str, out: Path, minutes: float | None, image_width: int | None,
             camera_hz: float | None, lidar_hz: float | None, points_per_scan: int | None,
             seed: int | None, config_path: Path | None) -> None:
    """Drive a simulated Mid-360 + Theta Z1 robot through SCENE (a folder or a shipped scene
    name) and record a bag (MCAP, zstd)."""
    from dataclasses import replace

    from map2route.mapping.simulate import SimConfig
    from map2route.mapping.simulate import simulate as run
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    m = load_scene(resolve_scene(scene))
    cfg = SimConfig.from_yaml(config_path)
    changes: dict[str, object] = {k: v for k, v in (
        ("image_width", image_width), ("camera_hz", camera_hz), ("lidar_hz", lidar_hz),
        ("seed", seed)) if v is not None}
    if image_width is not None:
        changes["crop_rows"] = image_width // 3
    if points_per_scan is not None:
        changes["lidar"] = replace(cfg.lidar, points_per_scan=points_per_scan)
    cfg = replace(cfg, **changes)  # type: ignore[arg-type]
    res = run(m, out, config=cfg, minutes=minutes)
    click.echo(f"Wrote {res.bag}: {res.duration_s:.1f} s drive, {res.scans} scans "
               f"({res.points} points), {res.images} panoramas, rooms visited {list(res.visited_rooms)}")


def _room_overrides(values: tuple[str, ...]) -> dict[int, object]:
    from map2route.mapping.errors import MappingError
    from map2route.semantic_map.model import RoomType

    out: dict[int, object] = {}
    for v in values:
        rid, sep, typ = v.partition("=")
        if not sep or not rid.strip().lstrip("-").isdigit():
            msg = f"--room-type wants ID=TYPE (e.g. 2=kitchen), got {v!r}"
            raise MappingError(msg)
        out[int(rid)] = RoomType.parse(typ)
    return out


@map_group.command()
@click.option("--bag", required=True, type=click.Path(path_type=Path), help="Input bag.")
@click.option("-o", "--out", "out", required=True, type=click.Path(path_type=Path),
              help="Scene folder to write (e.g. maps/my_flat).")
@click.option("--detector", type=click.Choice(["ground_truth", "open_vocabulary", "external"]),
              default="ground_truth", show_default=True,
              help="external: detections made elsewhere, read from --detections.")
@click.option("--weights", type=click.Path(path_type=Path), default=None,
              help="Weights folder of the open_vocabulary detector.")
@click.option("--detections", type=click.Path(path_type=Path), default=None,
              help="JSONL of 2D boxes/masks per panorama stamp (docs/mapping.md) for "
                   "--detector external.")
@click.option("--miss-rate", type=float, default=0.0, show_default=True)
@click.option("--false-positive-rate", type=float, default=0.0, show_default=True)
@click.option("--label-noise", type=float, default=0.0, show_default=True)
@click.option("--room-type", "room_types", multiple=True, metavar="ID=TYPE",
              help="Override a room's type (repeatable).")
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
              help="YAML overlaid on config/mapping.yaml (its `build:` section).")
@click.option("--seed", type=int, default=0, show_default=True)
def build(bag: Path, out: Path, detector: str, weights: Path | None, detections: Path | None,
          miss_rate: float, false_positive_rate: float, label_noise: float,
          room_types: tuple[str, ...], config_path: Path | None, seed: int) -> None:
    """Build a semantic map (scene folder) from a bag of panoramas (Image or CompressedImage),
    lidar clouds (map or sensor frame) and poses (Odometry or TF)."""
    from map2route.mapping.builder import BuildConfig, build_from_bag
    from map2route.mapping.detectors import make_detector
    from map2route.mapping.errors import MappingError
    from map2route.semantic_map.io import save_scene

    if detector == "ground_truth":
        det = make_detector(detector, miss_rate=miss_rate, false_positive_rate=false_positive_rate,
                            label_noise=label_noise, seed=seed)
    elif detector == "external":
        if detections is None:
            msg = "--detector external needs --detections FILE.jsonl"
            raise MappingError(msg)
        det = make_detector(detector, detections=detections)
    else:
        det = make_detector(detector, weights=weights or Path("weights"))
    cfg = BuildConfig.from_yaml(config_path)
    res = build_from_bag(bag, name=out.name, detector=det, config=cfg,
                         room_overrides=_room_overrides(room_types))  # type: ignore[arg-type]
    save_scene(res.map, out)
    fed: Any = res.map.metadata.get("inputs", {})
    if fed.get("clouds_without_mount"):
        click.echo(f"warning: no /tf_static transform from {fed['clouds_without_mount']} to the "
                   "body frame; those clouds were taken as the body frame", err=True)
    s = res.map.summary()
    speed = res.bag_duration_s / res.wall_s if res.wall_s > 0 else float("inf")
    click.echo(f"Wrote {out}: {s['rooms']} rooms {s['rooms_by_type']}, {s['objects']} objects, "
               f"{s['doors']} doors; built {res.bag_duration_s:.1f} s of data in "
               f"{res.wall_s:.1f} s ({speed:.1f}x real time)")


@map_group.command()
@click.argument("built", type=click.Path(path_type=Path))
@click.argument("truth", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
@click.option("--episodes", "episodes", type=click.Path(path_type=Path), default=None,
              help="Map2Route episodes (e.g. episodes/test.jsonl): also report the HCS of the "
                   "oracle episodes of TRUTH's scene planned on the built map vs the true map.")
@click.option("--scene", "scene", default=None,
              help="Scene name of the episodes to use [default: TRUTH's folder name].")
@click.option("--limit", type=int, default=None, help="Use at most this many episodes.")
@click.option("--bag", "bag", type=click.Path(path_type=Path), default=None,
              help="The simulator bag BUILT was built from: also report recall_tall_seen, "
                   "recall over the tall objects some panorama of the drive showed "
                   "[config/mapping.yaml simulate.seen_min_px].")
@click.option("--goal-margin", type=float, default=None,
              help="Plan this many metres into each re-grounded stage target (the planner "
                   "stops at a target's first cell) [default: 0.2, the built map's expected "
                   "edge error; 0 plans to the edge].")
def score(built: Path, truth: Path, as_json: bool, episodes: Path | None, scene: str | None,
          limit: int | None, bag: Path | None, goal_margin: float | None) -> None:
    """Score the BUILT scene against the TRUTH scene (folders or shipped scene names)."""
    from rich.console import Console
    from rich.table import Table

    from map2route.bench.mapping.sweep import shown_in_bag
    from map2route.mapping.errors import MappingError
    from map2route.mapping.score import score_map
    from map2route.mapping.simulate import SimConfig
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    b_map, t_map = load_scene(resolve_scene(built)), load_scene(resolve_scene(truth))
    sim_cfg = SimConfig.from_yaml()
    shown = shown_in_bag(bag, sim_cfg) if bag is not None else None
    s = score_map(b_map, t_map, shown=shown, open_storage=frozenset(sim_cfg.open_storage))
    down = None
    margin = 0.0
    if episodes is not None:
        from map2route.bench.map2route.episode import load_episodes
        from map2route.bench.mapping.downstream import downstream_hcs

        name = scene or truth.name
        eps = [e for e in load_episodes(episodes) if e.scene == name][:limit]
        if not eps:
            msg = f"{episodes} holds no episode of scene {name!r}; pass --scene NAME"
            raise MappingError(msg)
        from map2route.bench.mapping.downstream import BUILT_MAP_GOAL_MARGIN_M

        margin = BUILT_MAP_GOAL_MARGIN_M if goal_margin is None else goal_margin
        down = downstream_hcs(b_map, t_map, eps, goal_margin_m=margin)
    if as_json:
        out = s.as_dict()
        if down is not None:
            out["downstream"] = {**down.as_dict(), "goal_margin_m": margin}
        click.echo(json.dumps(out, indent=1))
        return
    t = Table(title=f"{built} vs {truth}")
    t.add_column("measure")
    t.add_column("value", justify="right")
    names = ["precision", "recall", "recall_tall", "recall_tall_observable"]
    if shown is not None:
        names.append("recall_tall_seen")
    for name in (*names, "centroid_error_m", "room_accuracy", "room_ari", "room_pq",
                 "room_type_accuracy", "traversability_iou"):
        t.add_row(name, f"{getattr(s, name):.3f}")
    t.add_row("room_count_error", f"{s.room_count_error:+d} ({s.rooms_built} built, "
                                  f"{s.rooms_true} true)")
    Console().print(t)
    if s.unobservable_tall:
        click.echo("tall objects inside closed objects (no sensor sees them; left out of "
                   f"recall_tall_observable): {', '.join(s.unobservable_tall)}")
    if s.unseen_tall:
        click.echo("tall objects no panorama of the drive showed (left out of "
                   f"recall_tall_seen): {', '.join(s.unseen_tall)}")
    c = Table(title="objects by category (footprint IoU >= 0.25)")
    for col in ("category", "true", "built", "matched", "precision", "recall"):
        c.add_column(col, justify="right" if col != "category" else "left")
    for cat, v in s.by_category.items():
        c.add_row(cat, str(v.true), str(v.built), str(v.matched), f"{v.precision:.2f}",
                  f"{v.recall:.2f}")
    Console().print(c)
    if down is not None:
        click.echo(f"HCS of {len(down.episodes)} oracle episodes (scope-aware planner, scored on "
                   f"the true map): true map {down.hcs_true:.3f}, built map {down.hcs_built:.3f} "
                   f"(goal margin {margin:g} m) "
                   f"({down.grounded}/{len(down.episodes)} episodes grounded on the built map)")


@map_group.command(name="to-driver-bag")
@click.argument("bag", type=click.Path(path_type=Path))
@click.option("-o", "--out", "out", required=True, type=click.Path(path_type=Path),
              help="Bag folder to write (must not exist).")
@click.option("--detections", type=click.Path(path_type=Path), default=None,
              help="Detections JSONL to write [OUT.detections.jsonl].")
@click.option("--image-format", type=click.Choice(["jpeg", "png"]), default="jpeg",
              show_default=True)
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
              help="YAML overlaid on config/mapping.yaml (camera extrinsics for /tf_static).")
def to_driver_bag_cmd(bag: Path, out: Path, detections: Path | None, image_format: str,
                      config_path: Path | None) -> None:
    """Rewrite a simulator BAG with real drivers' topic types only (CompressedImage panoramas,
    a sensor-frame PointCloud2, /tf and /tf_static, no /sim/*), plus a detections JSONL."""
    from map2route.mapping.builder import BuildConfig
    from map2route.mapping.driver_bag import to_driver_bag

    res = to_driver_bag(bag, out, detections=detections, image_format=image_format,
                        config=BuildConfig.from_yaml(config_path))
    click.echo(f"Wrote {res.bag}: {res.images} compressed panoramas, {res.scans} sensor-frame "
               f"scans, {res.poses} TF poses; detections {res.detections}")


@map_group.command(name="export-sdf")
@click.argument("scene")
@click.option("-o", "--out", "out", required=True, type=click.Path(path_type=Path))
@click.option("--wall-height", type=float, default=2.5, show_default=True)
def export_sdf_cmd(scene: str, out: Path, wall_height: float) -> None:
    """Export SCENE (a folder or a shipped scene name) as a Gazebo world (`map2route gazebo
    export` also writes the robot)."""
    from map2route.gazebo.export import export_sdf
    from map2route.semantic_map.io import load_scene
    from map2route.semantic_map.shipped import resolve_scene

    m = load_scene(resolve_scene(scene))
    export_sdf(m, out, wall_height_m=wall_height)
    click.echo(f"Wrote {out}: {len(m.objects)} objects")
