"""Sweep planner settings on the development episodes and print our / shortest ratios.

The paper tunes its lambdas on the development set and fixes them for every benchmark run (paper
000, V-A); this script is how ``config/planner.yaml`` was chosen (docs/planner.md, "Tuning on
the dev split")::

    python -m map2route.bench.planner.tuning --set lambdas.near=8,64 --set scales_m.near=1,3 \\
        [--episodes episodes/dev.jsonl] [--out out/tuning] [--workers 2] \\
        [--executor ray --address HOST:PORT]

Each ``--set KEY=V1,V2,...`` overrides one key of ``config/planner.yaml``; the sweep runs the
Cartesian product of all values through ``map2route.bench`` (method ``oracle``, resumable per
setting under ``--out``), plus ``shortest`` once as the baseline, and prints one row per setting:
Near / Far / Relative as ratios to shortest A* (Easy, Hard, All) with HCS, Path-Shape,
Clearance and SPL. The table is also written to ``OUT/sweep.md``. Use it on the dev split only.
"""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import yaml

from map2route.bench.map2route.run import RunSpec, run_benchmark
from map2route.bench.map2route.scoring import EpisodeScore, ratios, summarize
from map2route.errors import Map2RouteError
from map2route.execution.executors import Executor, make_executor
from map2route.execution.options import executor_options
from map2route.files import atomic_write_text
from map2route.paths import maps_dir
from map2route.planning.config import PlannerConfig
from map2route.planning.errors import PlanningError

if TYPE_CHECKING:
    from collections.abc import Sequence


def parse_setting(text: str) -> tuple[tuple[str, str], list[float]]:
    """``"lambdas.near=8,64"`` -> ``(("lambdas", "near"), [8.0, 64.0])``.

    Raises:
        PlanningError: not ``SECTION.KEY=V1[,V2...]`` with numeric values.
    """
    key, sep, values = text.partition("=")
    section, dot, name = key.strip().partition(".")
    if not sep or not dot or not name or not values.strip():
        msg = f"--set {text!r}: write SECTION.KEY=V1,V2 (e.g. lambdas.near=8,64)"
        raise PlanningError(msg)
    try:
        nums = [float(v) for v in values.split(",") if v.strip()]
    except ValueError as err:
        raise PlanningError(f"--set {text!r}: values must be numbers") from err
    return (section, name), nums


def settings(base: PlannerConfig, sweep: Sequence[tuple[tuple[str, str], list[float]]]
             ) -> list[tuple[str, PlannerConfig]]:
    """Every combination of the swept values applied to ``base``, each with a short label.

    Raises:
        PlanningError: a combination is not a valid planner config (unknown key, bad value).
    """
    out: list[tuple[str, PlannerConfig]] = []
    keys = [k for k, _ in sweep]
    for combo in itertools.product(*(vals for _, vals in sweep)):
        doc = base.to_dict()  # a fresh document each time
        for (section, name), value in zip(keys, combo, strict=True):
            doc.setdefault(section, {})[name] = value
        cfg = PlannerConfig.from_dict(doc, source=f"sweep setting {dict(zip(keys, combo, strict=True))}")
        label = " ".join(f"{s}.{n}={v:g}" for (s, n), v in zip(keys, combo, strict=True))
        out.append((label or "config/planner.yaml", cfg))
    return out


def _ratio_cells(ours: dict[str, Any], base: dict[str, Any]) -> list[str]:
    cells = []
    for group in ("easy", "hard", "all"):
        if group not in ours or group not in base:
            cells.append("-")
            continue
        r = ratios(ours[group], base[group])
        cells.append(" / ".join("-" if r[k] is None else f"{r[k]:.2f}x"
                                for k in ("near", "far", "relative")))
    return cells


def _run(method: str, episodes: Path, out_dir: Path, config_path: str | None,
         workers: int, executor: Executor | None = None) -> dict[str, Any]:
    spec = RunSpec(method=method, episodes_path=episodes, maps_root=maps_dir(),
                   planner_config=config_path)
    rows = run_benchmark(spec, out_dir, workers=workers, executor=executor)
    return summarize(EpisodeScore.from_json(r) for r in rows)


@click.command()
@click.option("--set", "sets", multiple=True, help="SECTION.KEY=V1,V2 to sweep (repeatable).")
@click.option("--episodes", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=Path("episodes/dev.jsonl"), show_default=True,
              help="Episode file; tune on the dev split only.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("out/tuning"), show_default=True, help="Runs and sweep.md go here.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@executor_options
def main(sets: tuple[str, ...], episodes: Path, out_dir: Path, workers: int, executor: str,
         address: str | None, max_in_flight: int | None) -> None:
    """Sweep planner YAML keys over the dev episodes; print ratios to shortest A*."""
    try:
        runner = make_executor(executor, workers=workers, address=address,
                               max_in_flight=max_in_flight)
        grid = settings(PlannerConfig.from_yaml(), [parse_setting(s) for s in sets])
        out_dir.mkdir(parents=True, exist_ok=True)
        lines = ["| setting | Easy N / F / R | Hard N / F / R | All N / F / R | HCS | "
                 "Path-Shape | Clearance | SPL |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        with runner:  # Ray: join the cluster once for the whole grid
            shortest = _run("shortest", episodes, out_dir / "shortest", None, workers, runner)
            for label, cfg in grid:
                text = yaml.safe_dump(cfg.to_dict(), sort_keys=True)
                tag = hashlib.blake2b(text.encode(), digest_size=6).hexdigest()
                cfg_path = out_dir / f"planner_{tag}.yaml"
                atomic_write_text(cfg_path, text)
                ours = _run("oracle", episodes, out_dir / f"oracle_{tag}", str(cfg_path),
                            workers, runner)
                a = ours["all"]
                lines.append(f"| {label} | " + " | ".join(_ratio_cells(ours, shortest)) +
                             f" | {a['hcs']:.3f} | {a['path_shape'] or 0:.2f} | "
                             f"{a['clearance'] or 0:.2f} | {a['spl']:.3f} |")
                click.echo(lines[-1])
        table = "\n".join(lines) + "\n"
        atomic_write_text(out_dir / "sweep.md", table)
        click.echo(table)
    except Map2RouteError as err:
        raise click.ClickException(str(err)) from err


if __name__ == "__main__":
    main()
