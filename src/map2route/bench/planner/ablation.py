"""The planner ablation table (paper 000, Table IV layout): ``map2route bench planner-ablation``.

Over oracle grounding, each row adds one planner component to the one above (``config/
planner.yaml`` with the listed ``search`` keys overridden) and reports Near / Far / Relative
as ratios to the shortest feasible route (``--method shortest``, the same episodes), the
ratio of the two methods' means as in ``bench map2route --baseline``, with HCS, SPL, path
length and the median solve time per episode beside them. The paper's rows (its planner and
the human demonstrations, Table IV) are printed above ours for comparison; they are quoted,
not measured here. Every run goes through :func:`map2route.bench.map2route.run.run_benchmark`
(resumable per row under ``--out``).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
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

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Paper 000, Table IV: (Near, Far, Relative) ratios to the shortest feasible A*.
PAPER_ROWS: tuple[tuple[str, tuple[float, float, float]], ...] = (
    ("human demonstrations (paper, Table IV)", (0.57, 1.55, 2.09)),
    ("paper's planner (paper, Table IV)", (0.68, 1.42, 1.78)),
)


@dataclass(frozen=True)
class Row:
    """One ablation row: a label and the ``search`` keys it sets on top of planner.yaml."""

    label: str
    search: dict[str, Any]


#: The metric-aware candidate options (planning/config.py); off in the earlier rows.
_METRIC_AWARE = ("evaluator_window", "pass_around", "relative_off_b_exits", "repeat_bands",
                 "early_placements", "outside_target", "loops")
#: Those the shipped planner.yaml turns on (docs/planner.md has the measurements).
_SHIPPED = {"evaluator_window": True, "pass_around": True, "outside_target": True,
            "loops": True, "trade": 0.25}


def ablation_rows(budgets: Sequence[float]) -> list[Row]:
    """The rows, each adding one component: cost map only, near bands, far bands, pass-along
    candidates, the metric-aware candidates (shipped), then the shipped planner under each
    length budget."""
    off = {"soft_waypoints": False, "far_waypoints": False, "pass_along": False,
           "length_budget": None, **dict.fromkeys(_METRIC_AWARE, False), "trade": 0.0}
    bands = {**off, "soft_waypoints": True, "far_waypoints": True}
    rows = [
        Row("cost map only (J terms)", off),
        Row("+ near bands (Near / Relative)", {**off, "soft_waypoints": True}),
        Row("+ far bands (scoped Far)", bands),
        Row("+ pass-along candidates", {**bands, "pass_along": True}),
        Row("+ official window, Relative via cells, loops, trade 0.25",
            {**bands, "pass_along": True, **_SHIPPED}),
    ]
    rows += [Row(f"+ length budget +{b * 100:g} %",
                 {**rows[-1].search, "length_budget": b}) for b in budgets]
    return rows


def row_config(base: PlannerConfig, row: Row) -> PlannerConfig:
    """``base`` (the shipped planner config) with the row's ``search`` keys; validated.

    Raises:
        PlanningError: the result is not a valid planner config.
    """
    doc = base.to_dict()
    doc["search"].update(row.search)
    return PlannerConfig.from_dict(doc, source=f"ablation row {row.label!r}")


def _run(method: str, episodes: Path, out_dir: Path, config_path: str | None,
         workers: int, limit: int | None, executor: Executor | None = None
         ) -> tuple[dict[str, Any], float | None]:
    spec = RunSpec(method=method, episodes_path=episodes, maps_root=maps_dir(),
                   planner_config=config_path)
    rows = run_benchmark(spec, out_dir, workers=workers, limit=limit, progress=False,
                         executor=executor)
    times = [float(r["solve_s"]) for r in rows if r.get("solve_s") is not None]
    median_ms = 1000.0 * statistics.median(times) if times else None
    return summarize(EpisodeScore.from_json(r) for r in rows), median_ms


def _fmt(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def table(results: Sequence[tuple[str, dict[str, Any], float | None]],
          shortest: dict[str, Any], group: str = "all") -> str:
    """The Table IV-style markdown: paper rows, shortest (1.00x), then ours."""
    lines = ["| planner | Near ↓ | Far ↑ | Relative ↑ | HCS | SPL | PL m | solve ms (median) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for label, (n, f, r) in PAPER_ROWS:
        lines.append(f"| {label} | {n:.2f}x | {f:.2f}x | {r:.2f}x | - | - | - | - |")
    s = shortest[group]
    lines.append(f"| shortest feasible A* (ours, the baseline) | 1.00x | 1.00x | 1.00x | "
                 f"{s['hcs']:.3f} | {s['spl']:.3f} | {_fmt(s.get('pl'), '.1f')} | - |")
    for label, summary, ms in results:
        a = summary[group]
        q = ratios(a, s)
        cells = [_fmt(q[k], ".2f") + ("x" if q[k] is not None else "")
                 for k in ("near", "far", "relative")]
        lines.append(f"| {label} | " + " | ".join(cells) +
                     f" | {a['hcs']:.3f} | {a['spl']:.3f} | {_fmt(a.get('pl'), '.1f')} | "
                     f"{_fmt(ms, '.0f')} |")
    return "\n".join(lines) + "\n"


def _budgets(text: str) -> list[float]:
    try:
        out = [float(b) for b in text.split(",") if b.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated numbers, got {text!r}") from None
    if any(not b >= 0 for b in out):
        raise click.BadParameter("length budgets must be >= 0 (0.4 = +40 %)")
    return out


@click.command("planner-ablation")
@click.option("--episodes", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=Path("episodes/test.jsonl"), show_default=True, help="Episode file.")
@click.option("--limit", type=click.IntRange(1), default=None,
              help="Only the first N episodes (the same N for every row).")
@click.option("--budgets", default="0.4,1.0", show_default=True,
              help="Length budgets for the last rows (0.4 = detours of at most +40 %).")
@click.option("--group", type=click.Choice(["all", "easy", "hard"]), default="all",
              show_default=True, help="Which episodes the printed table covers.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("out/bench/planner-ablation"), show_default=True,
              help="Runs (resumable), table.md and ablation.json go here.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@executor_options
def main(episodes: Path, limit: int | None, budgets: str, group: str, out_dir: Path,
         workers: int, executor: str, address: str | None, max_in_flight: int | None) -> None:
    """The planner ablation (paper Table IV layout) over oracle grounding."""
    try:
        runner = make_executor(executor, workers=workers, address=address,
                               max_in_flight=max_in_flight)
        base = PlannerConfig.from_yaml()
        rows = ablation_rows(_budgets(budgets))
        configs = [row_config(base, r) for r in rows]  # every row is valid before any run
        out_dir.mkdir(parents=True, exist_ok=True)
        results: list[tuple[str, dict[str, Any], float | None]] = []
        with runner:  # Ray: join the cluster once for every row
            shortest, _ = _run("shortest", episodes, out_dir / "shortest", None, workers, limit,
                               runner)
            for i, (row, cfg) in enumerate(zip(rows, configs, strict=True)):
                cfg_path = out_dir / f"planner_row{i}.yaml"
                atomic_write_text(cfg_path, yaml.safe_dump(cfg.to_dict(), sort_keys=True))
                summary, ms = _run("oracle", episodes, out_dir / f"oracle_row{i}",
                                   str(cfg_path), workers, limit, runner)
                results.append((row.label, summary, ms))
                click.echo(f"{row.label}: done", err=True)
        text = table(results, shortest, group)
        atomic_write_text(out_dir / "table.md", text)
        payload = {"episodes": str(episodes), "limit": limit, "shortest": shortest,
                   "paper": {label: dict(zip(("near", "far", "relative"), v, strict=True))
                             for label, v in PAPER_ROWS},
                   "rows": [{"label": label, "search": row.search, "metrics": summary,
                             "ratios": {g: ratios(summary[g], shortest[g])
                                        for g in summary if g in shortest},
                             "solve_median_ms": ms}
                            for (label, summary, ms), row in zip(results, rows, strict=True)]}
        atomic_write_text(out_dir / "ablation.json", json.dumps(payload, indent=1))
        click.echo(text)
    except Map2RouteError as err:
        raise click.ClickException(str(err)) from err
