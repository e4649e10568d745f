"""``map2route nesy ...``: generate NeSy-Route data, score predictions, run our solver."""

from __future__ import annotations

import json
from pathlib import Path

import click

from map2route.cli.app import app
from map2route.execution.options import executor_options


@app.group()
def nesy() -> None:
    """NeSy-Route: land-cover route planning (generator, evaluator, our solver)."""


@nesy.command()
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Dataset folder to write.")
@click.option("--count", type=click.IntRange(min=1), required=True,
              help="Task 2 / Task 3 samples.")
@click.option("--source", "sources", multiple=True, default=("helsinki", "rural"),
              show_default=True,
              help="OSM extract (helsinki, rural, a .osm.pbf), PNG mask / folder, or a folder "
              "of orthophotos + masks (images/, labels/); repeatable.")
@click.option("--resolution", type=click.FloatRange(min=0.05), default=0.5, show_default=True,
              help="Metres per pixel when rasterising OSM.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--task1-count", type=click.IntRange(min=1), default=None,
              help="Task 1 queries (default: count // 3).")
@click.option("--starts-per-end", type=click.IntRange(min=1), default=3, show_default=True,
              help="Samples sharing one end region and one cost field.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for the A* ground truth (default: CPU count).")
@click.option("--weights", type=(float, float, float, float), default=(0.25, 0.25, 0.25, 0.25),
              show_default=True, help="lambda_1..4 of the complexity score (Eq. 8).")
@click.option("--llm-config", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="YAML/JSON for map2route.llm.ChatClient: write queries by LLM.")
@click.option("--format", "fmt", type=click.Choice(["official", "ours"]), default="official",
              show_default=True,
              help="official: the release layout (Task1/, Task2/evaluation/, Task3/...); "
              "ours: one file per task (our cache layout).")
@executor_options
def generate(out: Path, count: int, sources: tuple[str, ...], resolution: float, seed: int,
             task1_count: int | None, starts_per_end: int, workers: int | None,
             weights: tuple[float, float, float, float], llm_config: Path | None,
             fmt: str, executor: str, address: str | None, max_in_flight: int | None) -> None:
    """Generate Task 1/2/3 files with A*-optimal ground truth.

    Images are synthetic (drawn from the mask) unless --source names a folder of real
    orthophotos and 8-class masks (OpenEarthMap layout: images/ and labels/ pairs). A killed
    run resumes its A* stage from OUT/.partial/ when run again with the same arguments.
    """
    import os

    from map2route.config import read_yaml, require_mapping
    from map2route.execution.executors import make_executor
    from map2route.nesy.dataset import SYNTHETIC
    from map2route.nesy.dataset import generate as run

    # The local pool forks (the tiles are shared with the workers, not pickled to them).
    runner = make_executor(executor, workers=workers or os.cpu_count() or 1, address=address,
                           max_in_flight=max_in_flight, start_method="fork")

    client = None
    if llm_config is not None:
        from map2route.llm import ChatClient, LLMError

        raw = read_yaml(llm_config, what="LLM config", error=LLMError)
        client = ChatClient.from_config(require_mapping(raw, where=f"LLM config {llm_config}",
                                                        error=LLMError))
    report = run(out, count=count, sources=list(sources), seed=seed, resolution_m=resolution,
                 starts_per_end=starts_per_end, task1_count=task1_count, workers=workers,
                 llm=client, weights=weights, fmt=fmt, executor=runner)
    total = sum(report.seconds.values())
    click.echo(f"wrote {out}: task1 {report.task1}, task2 {report.task2}, task3 {report.task3} "
               f"samples on {report.tiles} tiles in {total:.1f} s ("
               + ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items()) + ")")
    if SYNTHETIC in report.imagery:
        click.echo("images are synthetic (rendered from the masks, not photographs); give "
                   "--source a folder of orthophotos + masks for real imagery")


@nesy.command("eval")
@click.option("--task", type=click.Choice(["1", "2", "3"]), required=True)
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Dataset folder (ours or the official release).")
@click.option("--pred", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Predictions (official format, JSON Lines); with --method, where to write them.")
@click.option("--method", type=click.Choice(["ours", "endpoints", "line"]), default=None,
              help="Run a built-in method, then score it (Task 3 only: endpoints = the [S, E] "
              "probe, line = waypoints on the straight S-E line).")
@click.option("--agent", type=click.Choice(["llm"]), default=None,
              help="Run the LLM query-parsing agent (--config), then score it.")
@click.option("--config", "llm_config", type=click.Path(dir_okay=False, exists=True),
              default=None, help="--agent llm: grounding YAML with the llm: block and "
              "repair_rounds [config/grounding.yaml].")
@click.option("--limit", type=click.IntRange(1), default=None,
              help="--agent llm: answer the first N samples only.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="--agent llm: run folder (rows, transcripts, predictions); re-running "
              "resumes [out/bench/nesy/llm-taskN].")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
@click.option("--markdown", is_flag=True, help="Also print the table as markdown.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local processes for --method ours (1: this process).")
@executor_options
def eval_cmd(task: str, data: Path, pred: Path | None, method: str | None, agent: str | None,
             llm_config: str | None, limit: int | None, out_dir: Path | None, as_json: bool,
             markdown: bool, workers: int, executor: str, address: str | None,
             max_in_flight: int | None) -> None:
    """Score predictions: TM/PR/FM, RM/TM/PR, AR/VR/CR/CD per difficulty."""
    from map2route.bench.nesy.evaluate import evaluate, markdown_table, rich_table
    from map2route.bench.nesy.methods import METHODS, solve_ours, write_predictions
    from map2route.execution.executors import make_executor
    from map2route.nesy.official import read_predictions

    n = int(task)
    if method is None and pred is None and agent is None:
        raise click.UsageError("give --pred PRED.jsonl, --method ours|endpoints|line or "
                               "--agent llm")
    if agent is not None and method is not None:
        raise click.UsageError("give --method or --agent, not both")
    llm: dict[str, object] | None = None
    if agent is not None:
        from map2route.cli.nesy_agent_run import run_llm_agent

        pred, llm = run_llm_agent(data, n, llm_config, out_dir, pred, limit, quiet=as_json)
    elif method is not None:
        if method == "ours":
            runner = make_executor(executor, workers=workers, address=address,
                                   max_in_flight=max_in_flight)
            preds_list = solve_ours(data, n, executor=runner)
        else:
            preds_list = METHODS[method](data, n)
        pred = pred or data / f"predictions_{method}_task{n}.jsonl"
        write_predictions(pred, preds_list)
    assert pred is not None
    result = evaluate(data, n, read_predictions(pred))
    name = agent or method or pred.stem
    if as_json:
        click.echo(json.dumps({"method": name, "predictions": str(pred), **result.to_json(),
                               **({"llm": llm} if llm is not None else {})}, indent=1))
        return
    from rich.console import Console

    Console().print(rich_table(result, name))
    if result.missing:
        click.echo(f"{result.missing} samples had no prediction and are not scored (as the "
                   f"official scorer without --strict)")
    if result.unknown:
        click.echo(f"{result.unknown} predictions name no sample of this task and were skipped")
    if result.skipped:
        click.echo(f"{result.skipped} predictions had a vector that is not 8 long and were skipped")
    if result.errors:
        click.echo(f"{result.errors} trajectories were unreadable (scored non-adherent)")
    if markdown:
        click.echo(markdown_table(result, name))
    if llm is not None:
        from map2route.cli.nesy_agent_run import print_llm_totals

        print_llm_totals(llm)
